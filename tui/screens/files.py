"""Save a copy of the campaign under a new name."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from campaigns.errors import CampaignError
from campaigns.settings import remember
from campaigns.words import sentence
from tui.screens.base import Attempts, adjutant_of
from tui.widgets.text_field import TextField


class SaveAsScreen(Attempts, ModalScreen[None]):
    DEFAULT_CSS = """
    SaveAsScreen { align: center middle; }
    SaveAsScreen > Vertical { width: 70; max-width: 100%; height: auto; border: round $accent; padding: 0 1; background: $surface; }
    SaveAsScreen #error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="saveas.cancel")]
    saving = False  # the copy runs in its worker

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Save a copy of the campaign as (the copy is made at once; you stay in this file):")
            yield TextField(placeholder="copy.campaign", id="path")
            yield Static("", id="error", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.saving:
            return  # the same name, already on its way
        session = adjutant_of(self).session
        if session is None:  # the app opens this form only with a campaign open
            self.refused(CampaignError("no campaign is open: there is nothing to save"))
            return
        wanted = event.value.strip()

        def save() -> Path:  # in a worker: a big campaign takes a while to copy
            path = session.save_as(wanted)
            remember(str(path))
            return path

        self.saving = True
        self.attempt(save, worker=True, writes=False, then=self._saved)

    def _saved(self, path: Path) -> None:
        self.app.notify(f"Saved a copy as {path}")
        self.dismiss(None)

    def refused(self, exc: Exception) -> None:
        self.saving = False
        self.query_one("#error", Static).update(sentence(str(exc)))

    def succeeded(self, result: object, done: str | None, then=None, *, writes: bool = True) -> None:
        self.saving = False
        if then is not None and self.is_attached:
            then(result)

    def campaign_changed(self) -> None:
        """A copy changes nothing of the campaign shown."""

    def action_cancel(self) -> None:
        if self.saving:
            self.notify("Copying: this closes once the copy is made.", severity="warning")
            return
        self.dismiss(None)

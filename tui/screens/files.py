"""Save a copy of the campaign under a new name."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from campaigns.errors import CampaignError
from campaigns.settings import remember
from tui.screens.base import adjutant_of


class SaveAsScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    SaveAsScreen { align: center middle; }
    SaveAsScreen > Vertical { width: 70; max-width: 100%; height: auto; border: round $accent; padding: 0 1; background: $surface; }
    SaveAsScreen #error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="saveas.cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Save a copy of the campaign as (the copy is made at once; you stay in this file):")
            yield Input(placeholder="copy.campaign", id="path")
            yield Static("", id="error", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        session = adjutant_of(self).session
        try:
            if session is None:  # the app opens this form only with a campaign open
                raise CampaignError("no campaign is open: there is nothing to save")
            path = session.save_as(event.value.strip())
        except CampaignError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        remember(str(path))
        self.app.notify(f"Saved a copy as {path}")
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)

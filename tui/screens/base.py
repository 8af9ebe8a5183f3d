"""What every campaign screen shares: the status line, the footer, and running an action."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from campaigns.errors import CampaignError
from tui.widgets.status import BottomBar

if TYPE_CHECKING:
    from campaigns.session import CampaignSession


class CampaignScreen(Screen[None]):
    """A screen of an open campaign. Subclasses compose `body()` and fill `refresh_view()`."""

    TITLE_TEXT = ""

    @property
    def session(self) -> "CampaignSession":
        return self.app.session  # type: ignore[attr-defined,no-any-return]

    def compose(self) -> ComposeResult:
        yield from self.body()
        yield BottomBar()

    def body(self) -> ComposeResult:
        yield from ()

    shown_version: int | None = None  # the campaign version this screen shows

    def on_screen_resume(self) -> None:
        # Not also on mount: a DataTable filled in both loses its column widths.
        version = self.session.version()
        if version != self.shown_version:
            self.show_campaign()

    def show_campaign(self) -> None:
        """Read the campaign again and redraw the screen and its status line."""
        self.shown_version = self.session.version()
        self.refresh_view()
        for status in self.query("StatusLine"):
            status.refresh_status()  # type: ignore[attr-defined]

    def refresh_view(self) -> None:
        """Read the campaign again and show it."""

    def attempt(self, action: Callable[[], Any], done: str | None = None) -> Any:
        """Run one campaign action; a wrong value or a lost race becomes a notice."""
        try:
            result = action()
        except CampaignError as exc:
            from campaigns.errors import OtherUmpireError

            hint = " F5 shows their change." if isinstance(exc, OtherUmpireError) else ""
            self.notify(f"{exc}{hint}", severity="error", timeout=8)
            return None
        message = done if done is not None else result if isinstance(result, str) else None
        if isinstance(result, list) and result and all(isinstance(r, str) for r in result):
            message = "\n".join(result)
        if message:
            self.notify(message, timeout=6)
        self.app.campaign_changed()  # type: ignore[attr-defined]
        return result

    def with_dice(self, purpose: str, dice: str, then: Callable[[list[int] | None], None], *, typed: bool = False) -> None:
        """Call `then` with the dice typed in (entered mode, or when asked), else with None."""
        if typed or self.session.campaign().dice_mode == "entered":
            from tui.modals.dice_entry import DiceEntryScreen

            def got(values: list[int] | None) -> None:
                if values is not None:
                    then(values)

            self.app.push_screen(DiceEntryScreen(purpose, dice), got)
        else:
            then(None)

    def palette_commands(self) -> list[tuple[str, str, str]]:
        """(name, help, action) of this screen's own actions, for the command palette."""
        # Only the screen's own bindings (they have ids): Textual's focus and copy keys are not actions.
        return [
            (f"{self.TITLE_TEXT}: {b.description}", b.tooltip or b.description, b.action)
            for b in self.BINDINGS
            if isinstance(b, Binding) and b.id and b.description
        ]

"""What every campaign screen shares: the status line, the footer, and running an action."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen

from campaigns.errors import CampaignError
from tui.messages import CampaignChanged
from tui.widgets.status import BottomBar, StatusLine

if TYPE_CHECKING:
    from campaigns.session import CampaignSession
    from tui.app import AdjutantApp


def adjutant_of(node: DOMNode) -> AdjutantApp:
    """The app a screen or widget of Adjutant runs in, typed (a screen that is no CampaignScreen)."""
    return cast("AdjutantApp", node.app)


class CampaignScreen(Screen[None]):
    """A screen of an open campaign. Subclasses compose `body()` and fill `refresh_view()`."""

    TITLE_TEXT = ""

    @property
    def adjutant(self) -> AdjutantApp:
        """The app, typed: every campaign screen runs in an AdjutantApp (the tests' too)."""
        return adjutant_of(self)

    @property
    def session(self) -> CampaignSession:
        session = self.adjutant.session
        if session is None:  # the app shows a campaign screen only with a campaign open
            raise RuntimeError(f"{type(self).__name__} shown with no campaign open")
        return session

    def campaign_changed(self) -> None:
        """Tell the app the stored campaign changed: it redraws the screen on show."""
        self.post_message(CampaignChanged())

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
        for status in self.query(StatusLine):
            status.refresh_status()

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
        self.campaign_changed()
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

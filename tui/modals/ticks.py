"""Tick some items of a list: the generals and units of a stack that move, say."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.tickbox import TickBox


class TicksScreen(ModalScreen[list[str] | None]):
    """Each item a box, ticked or not as given; space ticks, ctrl+s gives the ids ticked."""

    DEFAULT_CSS = """
    TicksScreen { align: center middle; }
    TicksScreen > Vertical { width: 70; max-width: 100%; height: auto; max-height: 90%; border: round $accent; padding: 0 1; background: $surface; }
    TicksScreen VerticalScroll { height: auto; max-height: 20; }
    /* A long unit's name goes on to a second line, not cut at 80 columns. */
    TicksScreen TickBox { width: 100%; height: auto; text-wrap: wrap; }
    """
    BINDINGS = [
        Binding("ctrl+s", "done", "Go on", id="ticks.done"),
        Binding("escape", "cancel", "Cancel", id="ticks.cancel"),
        Binding("down", "app.focus_next", "Next", show=False),
        Binding("up", "app.focus_previous", "Previous", show=False),
    ]

    def __init__(self, title: str, items: list[tuple[str, str, bool]]) -> None:
        """`items`: (id, label, ticked at first)."""
        super().__init__()
        self.title_text = title
        self.items = items

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, markup=False)
            with VerticalScroll():
                for n, (_id, label, ticked) in enumerate(self.items):
                    yield TickBox(label, ticked, id=f"tick-{n}", compact=True)
            yield Static("space ticks · ctrl+s goes on · Esc cancels", classes="muted")

    def on_mount(self) -> None:
        if self.items:
            self.query_one("#tick-0", TickBox).focus()

    def action_done(self) -> None:
        self.dismiss([i for n, (i, _label, _t) in enumerate(self.items) if self.query_one(f"#tick-{n}", TickBox).value])

    def action_cancel(self) -> None:
        self.dismiss(None)

"""History: every change and every roll, newest first, filterable; undo and redo."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Input, Static

from campaigns import history
from tui.screens.base import CampaignScreen
from tui.widgets.cells import plain
from tui.widgets.kept import KeptTable


WHAT_MARGIN = 30  # the columns "#" and "When", cell padding and the scroll bar


class HistoryScreen(CampaignScreen):
    TITLE_TEXT = "History"
    BINDINGS = [
        Binding("slash", "filter", "Filter", id="history.filter", tooltip="Show only the lines holding a word"),
        Binding("d", "dice_only", "Dice only", id="history.dice", tooltip="Show only the dice rolls, or everything"),
    ]
    DEFAULT_CSS = """
    HistoryScreen Input { height: 3; }
    HistoryScreen DataTable { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.dice_only = False

    def body(self) -> ComposeResult:
        yield Static("History: newest first (u undo, y redo)", classes="title")
        yield Input(placeholder="filter: a word of the description, a unit, 'weather'...", id="filter")
        yield KeptTable(id="events", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#events", DataTable).focus()

    def refresh_view(self) -> None:
        text = self.query_one("#filter", Input).value
        table = self.query_one("#events", DataTable)
        table.clear(columns=True)
        table.add_columns("#", "When")
        # What changed wraps within the screen's width rather than running off its edge.
        table.add_column("What", width=max(20, self.app.size.width - WHAT_MARGIN))
        for entry in history.entries(self.session, text, dice_only=self.dice_only):
            table.add_row(*plain(entry.ref, entry.when, entry.text), height=None)

    def on_resize(self) -> None:
        if self.is_current:
            self.refresh_view()

    def on_input_changed(self, _event: Input.Changed) -> None:
        self.refresh_view()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.query_one("#events", DataTable).focus()

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def on_key(self, event) -> None:
        # Escape leaves the filter for the table, as it leaves the search of the order of battle.
        if event.key == "escape" and self.query_one("#filter", Input).has_focus:
            self.query_one("#events", DataTable).focus()
            event.stop()

    def action_dice_only(self) -> None:
        self.dice_only = not self.dice_only
        self.refresh_view()

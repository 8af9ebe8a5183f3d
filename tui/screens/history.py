"""History: every change and every roll, newest first, filterable; undo and redo."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Input, Static

from campaigns import history
from tui.screens.base import CampaignScreen
from tui.widgets.cells import plain
from tui.widgets.kept import KeptTable


class HistoryScreen(CampaignScreen):
    TITLE_TEXT = "History"
    BINDINGS = [
        Binding("slash", "filter", "Filter", id="history.filter", tooltip="Show only the lines holding a word"),
        Binding("d", "dice_only", "Dice only", id="history.dice", tooltip="Show only the dice rolls, or everything"),
        Binding("k", "bookmark", "Bookmark", id="history.bookmark", tooltip="Bookmark the event under the cursor, or take its bookmark off"),
        Binding("a", "note", "Note", id="history.note", tooltip="Write a note on the event under the cursor (kept in the report)"),
    ]
    DEFAULT_CSS = """
    HistoryScreen Input { height: 3; }
    HistoryScreen DataTable { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.dice_only = False
        self.shown_entries: list[history.Entry] = []

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
        table.add_columns("#", "When", "What")
        self.shown_entries = history.entries(self.session, text, dice_only=self.dice_only)
        for entry in self.shown_entries:
            table.add_row(*plain(entry.ref, entry.when, entry.text))

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

    # -- bookmarks and notes (campaigns/notes.py): each one action, undone with u

    def _event_under_cursor(self) -> int | None:
        """The event of the row under the cursor (a roll's row belongs to the event above it)."""
        row = self.query_one("#events", DataTable).cursor_row
        for entry in reversed(self.shown_entries[: row + 1]):
            if entry.ref.startswith("#"):
                return int(entry.ref[1:])
        self.notify("Choose an event (a line starting with #) first.", severity="warning")
        return None

    def action_bookmark(self) -> None:
        from campaigns import notes

        event = self._event_under_cursor()
        if event is not None:
            self.attempt(lambda: notes.toggle_bookmark(self.session, event))

    def action_note(self) -> None:
        from campaigns import notes
        from tui.modals.form import FormScreen

        event = self._event_under_cursor()
        if event is None:
            return

        def written(values: dict[str, str] | None) -> None:
            if values is not None:
                self.attempt(lambda: notes.add_note(self.session, event, values["text"]))

        self.app.push_screen(FormScreen(f"A note on #{event}", [("text", "Note", "", None)]), written)

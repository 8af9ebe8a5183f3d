"""History: every change and every roll, newest first, filterable; undo and redo."""

from __future__ import annotations

import asyncio
from time import monotonic
from typing import Any, NamedTuple, Self

from rich.cells import cell_len
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Region
from textual.widgets import Input, Static

from campaigns import history
from campaigns.errors import CampaignError
from tui.commands import browser_safe
from tui.screens.base import CampaignScreen
from tui.textual_private import draw_soon
from tui.widgets.line_table import LineTable
from tui.workers import back_to

Query = tuple[str, bool, int | None]  # (filter text, dice only, older than this id)
# Events read at a time: as many as the list has lines (each event takes one at
# least, so a page fills it; at least PAGE); the next page is read as the cursor
# reaches the last line. The list draws only the lines in view
# (tui.widgets.line_table), so a keystroke costs what its search of a screenful costs.
PAGE = 10
CHROME = 7  # the lines of the screen that are not the list: title, filter, header, status, keys
HEADERS = ("#", "When", "What")

FILTER_HINT = "filter: what was done or rolled, or a unit: 'weather', 'Ney', 'Brenier'..."
FIRST: Query = ("", False, None)  # what a screen shows first: everything, newest first


class Answer(NamedTuple):
    query: Query
    version: int | None  # the campaign's version when it was read (None: it failed)
    rows: list[history.Entry] | str  # the lines, or why they could not be read
    limit: int  # the events asked for


class FilterBox(Input):
    """The filter: an Input whose text never makes the screen lay itself out again.

    Textual's Input is as wide, to the compositor, as its text: every key changes
    that width, and a change of width lays the whole screen out and draws every
    widget of it again (10-30 ms a key on a loaded machine, more than the search).
    This one is as wide as the box it sits in until its text is longer."""

    # A browser keeps ctrl+w (adjutant serve): deleting a word answers to alt+w too.
    BINDINGS = [Binding(browser_safe("ctrl+w"), "delete_left_word", "Delete left to start of word", show=False)]

    # A key's letter is drawn with the key's answer, in one pass over the screen, rather
    # than alone first (a pass costs as much as the search): the box holds its drawing
    # until the screen shows an answer to its text, at most HOLD seconds after a key;
    # past that (a slow search), it draws the letter alone, as any Input would.
    HOLD = 0.1

    def __init__(self, **kwargs: Any) -> None:
        self.answered = ""  # the text the screen shows an answer to
        self._held = False  # a drawing waits for the answer
        self._since: float | None = None  # when the first drawing of the text not answered yet was held
        self._deadline: asyncio.TimerHandle | None = None  # the loop's own: a Textual timer is a task a key
        super().__init__(**kwargs)  # sets its text, which refreshes it

    @property
    def content_width(self) -> int:
        text = self.value or self.placeholder
        return max(cell_len(text) + 1, self.scrollable_content_region.width)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if self.value != self.answered and not (layout or recompose) and self.is_mounted:
            now = monotonic()
            if self._since is None:
                self._since = now
                self._deadline = asyncio.get_running_loop().call_later(self.HOLD, self._let_go)
            if now < self._since + self.HOLD:
                self._held = True
                return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def show_answer(self, text: str) -> None:
        """The screen shows the answer to `text` (or why it has none): what was held is drawn with it."""
        self.answered = text
        self._since = None
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._let_go()

    def _let_go(self) -> None:
        if self._held:
            self._held = False
            super().refresh()

    def on_unmount(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()


class HistoryScreen(CampaignScreen):
    TITLE_TEXT = "History"
    BINDINGS = [
        Binding("slash", "filter", "Filter", id="history.filter", tooltip="Show only the lines holding a word"),
        Binding("d", "dice_only", "Dice only", id="history.dice", tooltip="Show only the dice rolls, or everything"),
        Binding("k", "bookmark", "Bookmark", id="history.bookmark", tooltip="Bookmark the event under the cursor, or take its bookmark off"),
        Binding("a", "note", "Note", id="history.note", tooltip="Write a note on the event under the cursor (kept in the report)"),
    ]
    UMPIRE_ONLY = frozenset({"bookmark", "note"})
    FIRST_READS = ("history",)  # the newest page, read as the screen is built: k or a right after h act on its lines
    # Read again after an action (a bookmark, a note, an undo), the page holds the keys too: the
    # second k of `k k` is for the line under the cursor among the lines read after the first
    # (the bookmark's own event come in at the top), as typed slowly; it was for the line under
    # the cursor as read before, and took the first bookmark off again.
    READ_AGAIN_HOLDS_KEYS = True
    DEFAULT_CSS = """
    HistoryScreen Input { height: 3; width: 1fr; }
    HistoryScreen LineTable { height: 1fr; }
    """

    def _heading(self) -> str:
        # A side's player undoes nothing (u and y are not offered there).
        keys = self.hint(("undo", "u undo"), ("redo", "y redo"))
        return f"History: newest first ({keys})" if keys else "History: newest first"

    def __init__(self) -> None:
        super().__init__()
        self.dice_only = False
        self._asked: Query | None = None  # the query the worker is answering
        self._wanted: Query | None = None  # the newest query typed meanwhile
        self._oldest: int | None = None  # the id of the oldest line shown, for the next page
        self._full_page = False  # whether the last page was full, so older lines may follow
        self._rows: list[history.Entry] = []  # every line shown, pages included
        self.shown_query: Query | None = None  # what the table shows the answer to
        self._early: Answer | None = None  # the first page, read before the screen showed the campaign

    @property
    def page_size(self) -> int:
        tables = self.query("#events")  # none before the screen is composed
        table = tables.first(LineTable) if tables else None
        lines = table.scrollable_content_region.height - 1 if table and table.size.height else self.app.size.height - CHROME
        return max(lines, PAGE)

    def body(self) -> ComposeResult:
        # The newest page is read while the screen is built: the campaign's first
        # frame on it then holds its lines, drawn once, rather than an empty table
        # drawn, then filled and drawn again once a read started after it answers.
        self._ask(FIRST)
        yield Static(self._heading(), classes="title", id="history-title")
        # What the search index holds (models.search): each action's description and each roll's purpose.
        # A unit moved with its stack is named in neither: the index of the units each event
        # changed finds it (models.event_units).
        yield FilterBox(placeholder=FILTER_HINT, id="filter")
        yield LineTable(id="events")

    def on_mount(self) -> None:
        self.query_one("#events", LineTable).focus()

    def refresh_view(self) -> None:
        query: Query = (self.query_one("#filter", Input).value, self.dice_only, None)
        early, self._early = self._early, None
        if early is not None and early.query == query and early.version == self.shown_version and isinstance(early.rows, list):
            self._show(query, early.rows, early.limit)  # read as the screen was built (body)
        else:
            self._ask(query)

    # -- reading off the UI thread ---------------------------------------------
    #
    # A keystroke never waits for a timer: the filter is read at once when no
    # query runs, and the keystrokes typed while one runs are folded into a single
    # query of the newest text when it ends (a slow database sees one query per
    # answer, never a queue of them).

    def _ask(self, query: Query) -> None:
        self._wanted = query
        if self._asked is None:
            self._asked = query
            self._read(query, self.page_size)
        filters = self.query("#filter")  # none before the screen is composed
        if not (filters and filters.first().has_focus):
            # The keys typed on the lines (k, a, the cursor) wait for the lines they are for:
            # those of `d`, of the next page as the cursor reaches the last line (the cursor
            # keys typed on go down into it, as typed slowly). Keys typed into the filter do
            # not wait: their searches fold into one.
            self._hold_keys_for_reading()

    @work(thread=True, group="history")
    def _read(self, query: Query, limit: int) -> None:
        text, dice_only, before = query
        version: int | None = None
        try:
            version = self.session.version()  # first: the lines read are at least as new
            rows: list[history.Entry] | str = history.entries(
                self.session, text, dice_only=dice_only, before=before, limit=limit, version=version
            )
        except CampaignError as exc:
            rows = str(exc)
        back_to(self, self._answered, Answer(query, version, rows, limit))

    def _answered(self, answer: Answer) -> None:
        self._asked = None
        query, rows = answer.query, answer.rows
        if isinstance(rows, str):
            self.query_one("#filter", FilterBox).show_answer(query[0])  # no answer to wait for: the letter is drawn
            self.notify(rows, severity="error", timeout=8)
        elif self.shown_version is None:
            self._early = answer  # the first page, come before the screen shows the campaign: refresh_view shows it
        elif query == self._wanted and (answer.version or 0) >= self.shown_version:
            self._show(query, rows, answer.limit)
        elif query == self._wanted:
            self._ask(query)  # read before the campaign changed, shown as it is now: read again
            self._reading_goes_on()
            return
        if self._wanted is not None and self._wanted != query:
            self._ask(self._wanted)  # typed meanwhile: its answer replaces this one
            self._reading_goes_on()
        else:
            self._wanted = None

    def _show(self, query: Query, rows: list[history.Entry], limit: int) -> None:
        text, dice_only, before = query
        table = self.query_one("#events", LineTable)
        # Another filter starts at its newest line; a next page, or the same filter read
        # again after an action, keeps the cursor on the line it was on.
        again = before is not None or (self.shown_query is not None and self.shown_query[:2] == query[:2])
        cursor = table.cursor_row if again else 0
        self.shown_query = query
        self._rows = rows if before is None else self._rows + rows
        table.set_rows(HEADERS, [(e.ref, e.when, e.text) for e in self._rows], cursor=cursor)
        heads = [e.ref.strip() for e in rows if e.ref.strip()]  # events, or rolls when dice only (not their lines)
        self._full_page = len(heads) >= limit
        if heads:
            self._oldest = int(heads[-1].lstrip("#d"))
        title = self._heading()
        if text.strip() and history.is_short(text):
            title = f"History: one or two letters look through the newest {history.SHORT_WINDOW:,} lines only"
        self.query_one("#filter", FilterBox).show_answer(text)  # the letter drawn with its answer
        shown = self.query_one("#history-title", Static)
        old = str(shown.content)
        if old != title:  # the same after most keys
            # Each title holds on one line at 80 columns: the screen is laid out again
            # only where one of them wraps (a narrower terminal).
            width = shown.content_size.width
            shown.update(title, layout=not width or max(cell_len(old), cell_len(title)) > width)
        # Drawn as soon as it is shown, not at the next tick of the screen's refresh
        # timer (up to a frame later), as a screen switch is (tui.app).
        draw_soon(self)

    def on_line_table_highlighted(self, event: LineTable.Highlighted) -> None:
        # The next page of older lines is read as the cursor reaches the last one.
        if self._full_page and event.row >= event.table.row_count - 1 and self._asked is None:
            self._full_page = False
            self._ask((self.query_one("#filter", Input).value, self.dice_only, self._oldest))

    # -- keys --------------------------------------------------------------------

    def on_input_changed(self, _event: Input.Changed) -> None:
        self.refresh_view()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self._leave_filter()

    def _leave_filter(self) -> None:
        # The keys typed after leaving the filter are for the lines it finds: they wait for its
        # search still running (`/ weather Enter k` typed at once bookmarks the newest weather,
        # not the line under the cursor before the search). Those typed into it do not: their
        # searches fold into one (_ask).
        self.query_one("#events", LineTable).focus()
        self._hold_keys_for_reading()

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def on_key(self, event) -> None:
        # Escape leaves the filter for the table, as it leaves the search of the order of battle;
        # Down too, as it goes from a pick list's field to its list.
        if event.key in ("escape", "down") and self.query_one("#filter", Input).has_focus:
            self._leave_filter()
            event.stop()

    def action_dice_only(self) -> None:
        self.dice_only = not self.dice_only
        self.refresh_view()

    # -- bookmarks and notes (campaigns/notes.py): each one action, undone with u

    def _event_under_cursor(self) -> int | None:
        """The event of the row under the cursor (a roll's row belongs to the event above it)."""
        row = self.query_one("#events", LineTable).cursor_row
        for entry in reversed(self._rows[: row + 1]):
            if entry.ref.startswith("#"):
                return int(entry.ref[1:])
        self.notify("Choose an event (a line starting with #) first.", severity="warning")
        return None

    def action_bookmark(self) -> None:
        from campaigns import notes

        event = self._event_under_cursor()
        if event is not None:
            self.attempt(lambda: notes.toggle_bookmark(self.session, event), worker=True)

    def action_note(self) -> None:
        from campaigns import notes
        from tui.modals.form import FormScreen

        event = self._event_under_cursor()
        if event is None:
            return

        def written(values: dict[str, str] | None) -> None:
            if values is not None:
                self.attempt(lambda: notes.add_note(self.session, event, values["text"]), worker=True)

        self.app.push_screen(FormScreen(f"A note on #{event}", [("text", "Note", "", None)]), written)

"""The history's list (tui/widgets/line_table.py): a header, rows whose last cell wraps,
a row cursor moved by the DataTable's keys and by a click, and nothing cut or read as markup."""

from __future__ import annotations

import re

from textual.app import App, ComposeResult

from tests.tui.helpers import screen_text
from tests.tui.polling import settled, until
from tui.widgets.line_table import LineTable

LONG = "Attach Blücher's Corps: Brigade Zieten to General Kleist, with the reserve artillery of the corps and its parks"
HEADER = re.compile(r"\s*#\s+When\s+What\s*$")
ROWS = [(f"#{n}", "26 Apr 09:30:00", LONG if n % 3 == 0 else f"Event {n} [bold]not markup[/bold]") for n in range(40, 0, -1)]


class Lines(App):
    def __init__(self) -> None:
        super().__init__()
        self.highlighted: list[int] = []

    def compose(self) -> ComposeResult:
        yield LineTable(id="lines")

    def on_mount(self) -> None:
        table = self.query_one(LineTable)
        table.set_rows(("#", "When", "What"), ROWS)
        table.focus()

    def on_line_table_highlighted(self, event: LineTable.Highlighted) -> None:
        self.highlighted.append(event.row)


async def test_long_cells_wrap_within_the_width_and_nothing_is_cut_or_read_as_markup():
    app = Lines()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one(LineTable)
        await until(pilot, lambda: table.row_count == len(ROWS) and table.widths and "#40" in screen_text(app), "the rows drawn")
        assert sum(w + 2 for w in table.widths) <= 80 - 2  # the columns and a scroll bar
        long_rows = [i for i, row in enumerate(ROWS) if row[2] == LONG]
        for i in range(table.row_count):
            lines = table.lines_of(i)
            assert all(len(line) <= table.widths[2] for line in lines)
            assert " ".join(" ".join(lines).split()) == " ".join(ROWS[i][2].split())  # every word, in order
            assert (len(lines) > 1) == (i in long_rows)
        shown = screen_text(app)
        assert HEADER.match(shown.splitlines()[0])
        assert "Event 40 [bold]not markup[/bold]" in shown
        await pilot.resize_terminal(140, 30)
        # room enough: one line each, once the resize is handled (waited for, not a count of pauses)
        await until(pilot, lambda: all(len(table.lines_of(i)) == 1 for i in range(table.row_count)), "one line a row at 140 columns")


async def test_the_cursor_moves_a_row_at_a_time_a_page_and_to_either_end():
    app = Lines()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one(LineTable)
        await until(pilot, lambda: table.row_count == len(ROWS) and table.widths and "#40" in screen_text(app), "the rows drawn")
        assert table.cursor_row == 0
        await pilot.press("down", "down")
        await until(pilot, lambda: table.cursor_row == 2, "the cursor down two rows")
        await pilot.press("up")
        await until(pilot, lambda: table.cursor_row == 1, "the cursor up a row")
        await pilot.press("end")
        await until(pilot, lambda: table.cursor_row == len(ROWS) - 1, "the cursor on the last row")
        await until(pilot, lambda: "#1 " in screen_text(app), "the table scrolled to show the last row")
        await pilot.press("ctrl+home")
        await until(pilot, lambda: table.cursor_row == 0, "the cursor on the first row")
        await pilot.press("pagedown")
        await until(pilot, lambda: table.cursor_row > 0, "the cursor a page down")
        paged = table.cursor_row
        assert 5 < paged < 20  # about a screenful of lines, the wrapped rows counting for more
        await pilot.press("pageup")
        await until(pilot, lambda: table.cursor_row == 0, "the cursor a page up, on the first row")
        await until(pilot, lambda: app.highlighted[-4:] == [len(ROWS) - 1, 0, paged, 0], "a Highlighted message for each move")


async def test_a_click_moves_the_cursor_to_the_row_under_it():
    app = Lines()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one(LineTable)
        await until(pilot, lambda: table.row_count == len(ROWS) and table.widths and "#40" in screen_text(app), "the rows drawn")
        # Line 0 is the header; rows #40 and #39 take a line each, #39 is on line 2.
        await pilot.click(LineTable, offset=(5, 2))
        await until(pilot, lambda: table.cursor_row == 1, "the cursor on the row clicked")
        await pilot.click(LineTable, offset=(5, 0))  # the header: no row
        await settled(pilot)
        assert table.cursor_row == 1


async def test_new_rows_keep_the_cursor_where_asked_and_within_the_rows():
    app = Lines()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one(LineTable)
        await until(pilot, lambda: table.row_count == len(ROWS) and table.widths and "#40" in screen_text(app), "the rows drawn")
        await pilot.press("end")
        await until(pilot, lambda: table.cursor_row == len(ROWS) - 1, "the cursor on the last row")
        table.set_rows(("#", "When", "What"), ROWS[:5], cursor=table.cursor_row)
        assert table.cursor_row == 4 and table.row_count == 5
        table.set_rows(("#", "When", "What"), [])
        await until(pilot, lambda: table.row_count == 0 and "#" not in "".join(screen_text(app).splitlines()[1:]), "no rows drawn")
        assert HEADER.match(screen_text(app).splitlines()[0])  # the header still


async def test_new_rows_show_line_for_line_as_the_whole_table_drawn_again():
    """New rows draw again only the lines that changed (and lay nothing out while the scroll
    bars stay): what shows is what the table drawn again from nothing shows."""
    app = Lines()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one(LineTable)
        await until(pilot, lambda: table.row_count == len(ROWS) and table.widths and "#40" in screen_text(app), "the rows drawn")
        changed = [(ref, when, f"Changed {ref}" if int(ref[1:]) % 4 == 0 else what) for ref, when, what in ROWS]
        for rows, cursor in ((changed, 0), (changed, 2), (ROWS[3:], 0), (ROWS[:5], 1), (ROWS, 0), (ROWS[1:], 0), ([], 0), (ROWS, 3)):
            table.set_rows(("#", "When", "What"), rows, cursor=cursor)
            await settled(pilot)
            shown = screen_text(app)
            table.refresh()  # every line drawn again
            await settled(pilot)
            assert screen_text(app) == shown
            first = shown.splitlines()[1]
            assert (rows[0][0] in first and rows[0][2][:20] in first) if rows else not first.strip()

"""tui.widgets.cells.fill: the same rows refilled change only the cells that changed."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from tests.tui.polling import until
from tui.widgets.cells import fill, more

HEADERS = ("Name", "SP")


class _Table(App):
    def compose(self) -> ComposeResult:
        yield DataTable(id="t", cursor_type="row")


def _cells(table: DataTable) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_the_same_rows_are_updated_in_place_and_others_replace_them():
    app = _Table()
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one(DataTable)
        fill(table, HEADERS, [("a", ("Ney", 12)), ("b", ("Marmont", 10)), ("c", ("Bertrand", 9))])
        await until(pilot, lambda: table.row_count == 3, "three rows")
        table.move_cursor(row=2)
        rows = dict(table.rows)
        columns = list(table.ordered_columns)

        # An action changed one number: the rows, the columns and the cursor stay.
        fill(table, HEADERS, [("a", ("Ney", 12)), ("b", ("Marmont", 11)), ("c", ("Bertrand", 9))])
        await until(pilot, lambda: _cells(table) == [["Ney", "12"], ["Marmont", "11"], ["Bertrand", "9"]], '_cells(table) == [["Ney", "12"], ["Marmont", "11"], ["Bertrand", "9"]]')
        assert _cells(table) == [["Ney", "12"], ["Marmont", "11"], ["Bertrand", "9"]]
        assert all(table.rows[key] is row for key, row in rows.items())  # the same rows, not made again
        assert all(a is b for a, b in zip(table.ordered_columns, columns))
        assert table.cursor_row == 2

        # Other rows, the same widths: the rows are replaced, the columns kept.
        fill(table, HEADERS, [("d", ("Augereau", 8)), ("e", ("Victor", 7))])
        await until(pilot, lambda: _cells(table) == [["Augereau", "8"], ["Victor", "7"]], '_cells(table) == [["Augereau", "8"], ["Victor", "7"]]')
        assert _cells(table) == [["Augereau", "8"], ["Victor", "7"]]
        assert all(a is b for a, b in zip(table.ordered_columns, columns)) and set(table.rows) != set(rows)

        # A wider name: the columns are made again at their new widths.
        fill(table, HEADERS, [("d", ("Macdonald, duc de Tarente", 8))])
        await until(pilot, lambda: _cells(table) == [["Macdonald, duc de Tarente", "8"]], '_cells(table) == [["Macdonald, duc de Tarente", "8"]]')
        assert _cells(table) == [["Macdonald, duc de Tarente", "8"]]
        assert [c.width for c in table.ordered_columns] == [len("Macdonald, duc de Tarente"), 2]

        # Rows without keys (the history's lines) are never matched up: always replaced.
        fill(table, HEADERS, [(None, ("Ney", 12))])
        fill(table, HEADERS, [(None, ("Ney", 13))])
        await until(pilot, lambda: _cells(table) == [["Ney", "13"]], '_cells(table) == [["Ney", "13"]]')
        assert _cells(table) == [["Ney", "13"]]


async def test_a_named_column_wraps_only_when_the_others_leave_it_too_little_room():
    app = _Table()
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one(DataTable)
        headers = ("Name", "SP", "Where")
        # Room enough: the column is as wide as its widest name, nothing wraps.
        fill(table, headers, [("a", ("Ney", 12, "Dresden"))], wrap_to=60, wrap="Name")
        await until(pilot, lambda: [c.width for c in table.ordered_columns] == [4, 2, 7], '[c.width for c in table.ordered_columns] == [4, 2, 7]')
        assert [c.width for c in table.ordered_columns] == [4, 2, 7]
        assert _cells(table) == [["Ney", "12", "Dresden"]]

        # Too long for what SP and Where leave: the name wraps in its row, SP and Where stay whole.
        name = "XII Corps: 13th and 14th Divisions (Guilleminot, Pacthod), with Bavarians"
        fill(table, headers, [("a", (name, 12, "Dresden"))], wrap_to=60, wrap="Name")
        await until(pilot, lambda: table.ordered_columns[0].width == 60 - 2 - (2 + 2) - (7 + 2) - 2, "the name's column narrowed")
        width = table.ordered_columns[0].width
        assert width == 60 - 2 - (2 + 2) - (7 + 2) - 2
        lines = _cells(table)[0][0].split("\n")
        assert len(lines) > 1 and all(len(line) <= width for line in lines)
        assert " ".join(line.strip() for line in lines) == name
        assert _cells(table)[0][1:] == ["12", "Dresden"]
        assert table.ordered_rows[0].height == len(lines)


async def test_first_adds_a_screenful_and_more_the_rest_at_the_widths_of_them_all():
    app = _Table()
    rows = [(f"k{i}", (f"General {i}", i)) for i in range(30)]
    rows[25] = ("k25", ("Marshal Davout, prince of Eckmühl", 25))  # a widest cell beyond the first rows
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one(DataTable)
        rest = fill(table, HEADERS, rows, first=8)
        await until(pilot, lambda: table.row_count == 8 and len(rest) == 22, 'table.row_count == 8 and len(rest) == 22')
        assert table.row_count == 8 and len(rest) == 22
        assert [c.width for c in table.ordered_columns] == [len("Marshal Davout, prince of Eckmühl"), 2]
        more(table, rest, 10)
        assert table.row_count == 18 and len(rest) == 12
        table.move_cursor(row=15)
        # Refilled with the same rows (after an action): the 18 rows added stay, updated in place.
        kept = dict(table.rows)
        rows[3] = ("k3", ("General 3", 99))
        rest = fill(table, HEADERS, rows, first=8)
        await until(pilot, lambda: table.row_count == 18 and len(rest) == 12, 'table.row_count == 18 and len(rest) == 12')
        assert table.row_count == 18 and len(rest) == 12
        assert all(table.rows[key] is row for key, row in kept.items())
        assert _cells(table)[3] == ["General 3", "99"] and table.cursor_row == 15
        more(table, rest, 100)
        assert table.row_count == 30 and len(rest) == 0
        assert _cells(table)[25] == ["Marshal Davout, prince of Eckmühl", "25"]
        # Without `first`, every row at once, as before.
        assert len(fill(table, HEADERS, rows[:5])) == 0 and table.row_count == 5


class _Counted(list):
    """Rows that remember which of them were read."""

    def __init__(self, rows) -> None:
        super().__init__(rows)
        self.read: set[int] = set()

    def __iter__(self):
        for index in range(len(self)):
            self.read.add(index)
            yield self[index]


async def test_widths_counted_beforehand_read_only_the_rows_added_and_show_the_same():
    rows = [(f"k{i}", (f"General {i}", i)) for i in range(30)]
    rows[25] = ("k25", ("Marshal Davout, prince of Eckmühl", 25))
    widths = [len("Marshal Davout, prince of Eckmühl"), 2]
    shown = {}
    for given in ("counted", "read"):
        app = _Table()
        async with app.run_test(size=(60, 12)) as pilot:
            table = app.query_one(DataTable)
            counted = _Counted(rows)
            rest = fill(table, HEADERS, counted, first=8, widths=widths if given == "counted" else None)
            await until(pilot, lambda t=table: t.row_count == 8, "table.row_count == 8")
            assert len(rest) == 22
            if given == "counted":
                assert counted.read == set(range(8))  # the rest not read yet
            more(table, rest, 10)
            assert table.row_count == 18 and len(rest) == 12
            if given == "counted":
                assert counted.read == set(range(18))
            more(table, rest, 100)
            assert len(rest) == 0
            shown[given] = ([(c.label.plain, c.width) for c in table.ordered_columns], _cells(table))
    assert shown["counted"] == shown["read"]

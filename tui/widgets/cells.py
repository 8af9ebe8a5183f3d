"""Table cells as plain text: names and log lines may hold brackets that are not markup."""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast, overload

from rich.cells import cell_len
from rich.text import Text

from campaigns.text import shown

if TYPE_CHECKING:  # the first screen's LineTable wraps its lines here without a DataTable (its module: 5-10 ms)
    from textual.widgets import DataTable


def plain(*cells: object) -> list[Text]:
    """Cells of text from a campaign: never markup, without control
    characters, so a column is as wide as what it shows."""
    return [Text(shown(cell)) for cell in cells]


@dataclass
class Rest:
    """The rows `fill` was given beyond the first: added by `more` as they come into view.
    Their columns' widths were counted when the table was filled, so adding them
    changes no width and moves nothing already drawn."""

    rows: list[tuple[str | None, list[str]]]
    widths: list[int]
    at: int | None  # the column that wraps, if any
    indent: int
    # With fill's `widths`: the rows not read yet, as given (`left` of them), read as they are added.
    later: Iterator[tuple[str | None, Sequence[object]]] | None = None
    left: int = 0
    limits: list[int | None] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rows) + self.left

    def take(self, count: int) -> list[tuple[str | None, list[str]]]:
        """The next `count` rows (fewer if fewer are left) as plain cells, taken out."""
        count = max(count, 0)
        taken, self.rows = self.rows[:count], self.rows[count:]
        while len(taken) < count and self.left and self.later is not None:
            key, cells = next(self.later)
            self.left -= 1
            taken.append((key, _plain_cells(cells, self.limits)))
        return taken


def _plain_cells(cells: Sequence[object], limits: Sequence[int | None]) -> list[str]:
    """A row's cells as plain strings, each cut to its column's limit (None: no limit)."""
    line = [shown(cell) for cell in cells]
    for index, limit in enumerate(limits):
        if limit is not None and cell_len(line[index]) > limit:
            cut = Text(line[index])
            cut.truncate(limit, overflow="ellipsis")
            line[index] = cut.plain
    return line


def fill(
    table: DataTable,
    headers: Sequence[str],
    rows: Iterable[tuple[str | None, Sequence[object]]],
    widest: Mapping[str, int] | None = None,
    wrap_to: int | None = None,
    wrap: str | None = None,
    narrowest: int | None = None,
    first: int | None = None,
    widths: Sequence[int] | None = None,
) -> Rest:
    """Put `rows` (key, cells) in `table` under `headers`, each column as wide as its widest cell,
    or as `widest` allows (longer cells end in an ellipsis).

    With `wrap_to` (the table's width in cells), the last column takes what the
    others leave and its text wraps onto more lines of its row instead of running
    off the edge: nothing of it is cut.

    With `wrap` (a header) as well, that column wraps instead of the last: it is as
    wide as its widest cell when the others leave room for it, else as wide as they
    leave, so the columns after it stay in view and a table that fits is unchanged.
    `narrowest` is the least it wraps to (MIN_WRAP unless given): a table of many
    figures (the luck by side) gives its names fewer cells rather than run off the edge.

    With `first`, only the first `first` rows are added now (a screenful: the table
    measures and draws each row it is given, some 0.2 ms a row and cell); the others
    are returned, for `more` to add as they scroll into view. Without it, all are added
    and the Rest returned is empty.

    With `widths` as well (each column's widest cell, the header's included, counted
    by the caller over every row as `shown` shows it, limits applied), `rows` (a
    sized collection) is read only as its rows are added: a stack of a thousand
    units makes the text of a screenful of them.

    A DataTable measures new rows only when idle; refilled from a highlight
    event, it can draw them first at the width of the headers and keep that
    drawing. Widths set here are right from the first frame.
    """
    limits = [(widest or {}).get(h) for h in headers]
    if widths is not None and first is not None:
        # Counted beforehand: only the rows added are read, as they are added.
        widths = list(widths)
        texts: list[tuple[str | None, list[str]]] = []
        given = cast(Collection[tuple[str | None, Sequence[object]]], rows)
        later, left = iter(given), len(given)
    else:
        # Every row's cells as plain strings, cut to their column's limit: the widths count
        # them all, while rich Text is made only for the rows added.
        texts = [(key, _plain_cells(cells, limits)) for key, cells in rows]
        widths = [len(h) for h in headers]
        for _, plain_cells in texts:
            widths = [max(w, cell_len(c)) for w, c in zip(widths, plain_cells)]
        later, left = None, 0
    at: int | None = None
    indent = 4 if wrap is None else NAME_INDENT
    if wrap_to is not None and headers:
        at = headers.index(wrap) if wrap is not None else len(headers) - 1
        # Every column is padded by one cell each side; the vertical scroll bar may take two.
        others = sum(w + 2 * table.cell_padding for i, w in enumerate(widths) if i != at)
        room = wrap_to - SCROLL_BAR - others - 2 * table.cell_padding
        if wrap is None:
            widths[at] = max(MIN_WRAP, len(headers[at]), room)
        else:
            widths[at] = min(widths[at], max(narrowest or MIN_WRAP, len(headers[at]), room))
    rest = Rest(texts, widths, at, indent, later, left, limits)
    columns = table.ordered_columns
    same_columns = [(c.label.plain, c.width) for c in columns] == list(zip(headers, widths))
    count = len(rest) if first is None else first
    if same_columns and count < table.row_count <= len(rest):
        count = table.row_count  # as many as were in view (scrolled to) before: the same lines again
    now = _made(rest, count)
    if not same_columns:
        table.clear(columns=True)
        for header, width in zip(headers, widths):
            # Text, not a string: a header is plain words, and a string is read as markup
            # (with emoji codes, a module of its own imported on the first table's first fill).
            table.add_column(Text(header), width=width)
    elif _same_rows(table, now):
        # The same rows, as after most actions: only the cells that changed are
        # drawn again; the table keeps its lines, its cursor and its scrolling.
        for key, cells, _height in now:
            assert key is not None  # _same_rows: every row has its key
            for column, cell in zip(columns, cells):
                if table.get_cell(key, column.key) != cell:
                    table.update_cell(key, column.key, cell)
        return rest
    else:
        table.clear()  # the rows only: the columns stay as they are
    _add(table, now)
    return rest


def more(table: DataTable, rest: Rest, count: int) -> None:
    """The next `count` rows of `rest` added to `table` (fewer if fewer are left)."""
    _add(table, _made(rest, count))


def _made(rest: Rest, count: int) -> list[tuple[str | None, list[Text], int]]:
    """The first `count` rows of `rest` taken out of it, as cells of Text and a height."""
    out = []
    for key, cells in rest.take(count):
        line = [Text(cell) for cell in cells]
        height = 1
        if rest.at is not None:
            lines = wrapped(cells[rest.at], rest.widths[rest.at], rest.indent)
            line[rest.at] = Text("\n".join(lines))
            height = len(lines)
        out.append((key, line, height))
    return out


def _add(table: DataTable, rows: list[tuple[str | None, list[Text], int]]) -> None:
    for key, cells, height in rows:
        table.add_row(*cells, key=key, height=height)


def _same_rows(table: DataTable, now: list[tuple[str | None, list[Text], int]]) -> bool:
    if table.row_count != len(now) or any(key is None for key, _, _ in now):
        return False
    rows = table.ordered_rows
    return [row.key.value for row in rows] == [key for key, _, _ in now] and [row.height for row in rows] == [h for _, _, h in now]


SCROLL_BAR = 2  # cells of a vertical scroll bar, kept free whether or not it shows
MIN_WRAP = 20  # narrower than this, a wrapped column would be a word a line
NAME_INDENT = 2  # a named column has no change lines to tell apart: two cells show the name goes on


def wrapped(text: str, width: int, indent: int = 4) -> list[str]:
    """`text` in lines of at most `width` cells; lines after the first are indented four
    cells more than the text itself, deeper than the history's change lines (two), so
    the rest of an event's description never reads as one of its changes. A column
    named to wrap (a unit's name in a narrow column) indents by `indent`."""
    body = text.lstrip(" ")
    lead = " " * (len(text) - len(body))
    if len(text) <= width or not body:
        return [text]
    return textwrap.wrap(
        body, width, initial_indent=lead, subsequent_indent=lead + " " * indent, break_on_hyphens=False
    ) or [text]


Row = tuple[str, tuple[Any, ...]]  # a table row: its key, its cells


class MadeRows(Sequence[Row]):
    """A long table's rows, each made only when `fill` (or a scroll) reads it: a subclass
    says how many there are (`__len__`) and makes row `index` (0 to len - 1) in `row`."""

    def row(self, index: int) -> Row:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...

    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        if isinstance(index, slice):
            return [self.row(i) for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self.row(index % len(self))

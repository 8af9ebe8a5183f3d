"""A report's long tables (every roll, every action of a turn), drawn as they are read.

rich lays a table out from all its rows at once: a column is as wide as its widest
cell, or its longest word when the page is too narrow for that. A million rolls
cannot be held like that, so a `Rows` is read once, and written twice over:

- read, each row's cells are spooled (in memory up to SPOOL_BYTES, on disk past it),
  and each column keeps only its widest cell and the cell with its longest word,
  which are all that rich's widths depend on;
- rich lays out a table of the header and those few cells: its title, top border
  and header are the table's, and its widths are those of the whole table;
- each spooled row is then drawn at those widths: a row whose cells each fit on one
  line, as nearly all do, is joined here as rich joins it; any other row is drawn by
  rich itself, in a table of its own at the same widths.

The text and the HTML are those of rich drawing the whole table, byte for byte
(tests/campaigns/test_report_streamed.py draws both).
"""

from __future__ import annotations

import io
import pickle
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from html import escape
from typing import IO

from rich import box
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from campaigns.printable import printable

SPOOL_BYTES = 8 * 1024 * 1024
BATCH = 1000  # rows spooled, and lines written, at a time
TOP, HEAD_RULE, BOTTOM = box.HEAVY_HEAD.top_left, box.HEAVY_HEAD.head_row_left, box.HEAVY_HEAD.bottom_left


def _t(value: object) -> Text:
    return Text(printable(value))


def table(title: str | None, headers: Iterable[str], rows: Iterable[Iterable[object]], *, right: Iterable[int] = ()) -> Table:
    """A report's table: every cell is text from `printable` (never markup), folded when too long."""
    drawn = Table(title=printable(title) if title else None, title_justify="left", expand=False)
    aligned = set(right)
    for i, header in enumerate(headers):
        drawn.add_column(header, justify="right" if i in aligned else "left", overflow="fold")
    for row in rows:
        drawn.add_row(*(_t(cell) for cell in row))
    return drawn


@dataclass
class Rows:
    """A table whose rows are read as it is drawn: `rows` is called once, when it is."""

    title: str | None
    headers: Sequence[str]
    rows: Callable[[], Iterable[Sequence[object]]]
    right: Sequence[int] = ()
    none: RenderableType | None = None  # drawn instead of the table when there is no row
    after: RenderableType | None = None  # drawn after the table when there are rows


Draw = Callable[[RenderableType], str]  # a renderable as the report's text or HTML, with the blank line after it


def drawn(rows: Rows, draw: Draw, *, html: bool, width: int) -> Iterator[str]:
    """The table as `draw` would draw `table(...)` of all its rows, a batch of lines at a time."""
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as spool:
        count, extremes = _spooled(rows, spool)
        if not count and rows.none is not None:
            yield draw(rows.none)
            return
        page = draw(table(rows.title, rows.headers, extremes, right=rows.right))
        if not count:  # the header alone, as rich draws an empty table
            yield page
            return
        top = page.index(TOP)
        widths = [len(part) for part in page[top + 1:page.index("\n", top) - 1].split(box.HEAVY_HEAD.top_divider)]
        head = page.index("\n", page.index(HEAD_RULE)) + 1
        yield page[:head]
        right = set(rows.right)
        spool.seek(0)
        by_rich = _Fallback(rows, widths, width)
        for batch in _unspooled(spool, count):
            lines = []
            for cells in batch:
                line = _joined(cells, widths, right)
                lines.append(line if line is not None else by_rich.lines(cells))
            text = "\n".join(lines) + "\n"
            yield escape(text) if html else text
        bottom = page[page.rindex(BOTTOM):]
        yield bottom[:bottom.index("\n") + 1] + "\n"
    if rows.after is not None:
        yield draw(rows.after)


def _spooled(rows: Rows, spool: IO[bytes]) -> tuple[int, list[list[str]]]:
    """Spool the rows' cells, a batch at a time; the row count and the few cells that
    decide the widths: each column's widest cell, and its cell with the longest word."""
    columns = len(rows.headers)
    widest = [""] * columns
    wordiest = [""] * columns
    most = [-1] * columns  # the widest cell's width
    longest = [-1] * columns  # the longest word's
    count = 0
    batch: list[list[str]] = []
    for row in rows.rows():
        cells = [str(cell) if type(cell) is int else printable(cell) for cell in row]
        for i, cell in enumerate(cells):
            plain = cell.isascii() and cell.isprintable()
            size = len(cell) if plain else _measure(cell)[1]
            if size > most[i]:
                most[i], widest[i] = size, cell
            if size > longest[i]:  # a word is never wider than its cell
                word = max(map(len, cell.split()), default=size) if plain else _measure(cell)[0]
                if word > longest[i]:
                    longest[i], wordiest[i] = word, cell
        batch.append(cells)
        count += 1
        if len(batch) >= BATCH:
            pickle.dump(batch, spool, pickle.HIGHEST_PROTOCOL)
            batch = []
    if batch:
        pickle.dump(batch, spool, pickle.HIGHEST_PROTOCOL)
    return count, ([widest, wordiest] if count else [])


def _measure(cell: str) -> tuple[int, int]:
    """rich's measure of a cell of text (Text.__rich_measure__): its longest word, its widest line."""
    lines = cell.splitlines()
    widest = max(cell_len(line) for line in lines) if lines else 0
    words = cell.split()
    return (max(cell_len(word) for word in words) if words else widest), widest


def _unspooled(spool: IO[bytes], count: int) -> Iterator[list[list[str]]]:
    read = 0
    while read < count:
        batch = pickle.load(spool)
        read += len(batch)
        yield batch


def _joined(cells: list[str], widths: list[int], right: set[int]) -> str | None:
    """The row's line as rich draws it, when every cell fits its column on one line;
    None otherwise. rich pads a cell to its width (a right-justified one after its
    trailing spaces are stripped), with a space of padding on each side."""
    parts = []
    for i, cell in enumerate(cells):
        room = widths[i] - 2
        size = len(cell) if cell.isascii() else cell_len(cell)
        if size > room or not cell.isprintable():
            return None
        if i in right:
            if cell.endswith(" "):
                return None
            parts.append(" " * (room - size + 1) + cell + " ")
        else:
            parts.append(" " + cell + " " * (room - size + 1))
    return "│" + "│".join(parts) + "│"


class _Fallback:
    """A row drawn by rich: a table of that row alone, at the widths of the whole table."""

    def __init__(self, rows: Rows, widths: list[int], width: int) -> None:
        self.rows = rows
        self.widths = widths
        self.console = Console(record=True, width=width, file=io.StringIO(), color_system="truecolor", force_terminal=False)

    def lines(self, cells: list[str]) -> str:
        one = Table(show_header=False, expand=False)
        right = set(self.rows.right)
        for i, size in enumerate(self.widths):
            one.add_column(justify="right" if i in right else "left", overflow="fold", width=size - 2)
        one.add_row(*(Text(cell) for cell in cells))
        self.console.print(one)
        lines = self.console.export_text().split("\n")  # not splitlines: a cell may hold U+2028, which is no break to rich
        return "\n".join(lines[1:-2])  # its borders, and the empty text after the last line break, left out

"""Table cells as plain text: names and log lines may hold brackets that are not markup."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence

from rich.text import Text
from textual.widgets import DataTable

from campaigns.text import shown


def plain(*cells: object) -> list[Text]:
    """Cells of text from a campaign: never markup, without control
    characters, so a column is as wide as what it shows."""
    return [Text(shown(cell)) for cell in cells]


def fill(
    table: DataTable,
    headers: Sequence[str],
    rows: Iterable[tuple[str | None, Sequence[object]]],
    widest: Mapping[str, int] | None = None,
    wrap_to: int | None = None,
    wrap: str | None = None,
    narrowest: int | None = None,
) -> None:
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

    A DataTable measures new rows only when idle; refilled from a highlight
    event, it can draw them first at the width of the headers and keep that
    drawing. Widths set here are right from the first frame.
    """
    limits = [(widest or {}).get(h) for h in headers]
    texts = []
    for key, cells in rows:
        line = plain(*cells)
        for text, limit in zip(line, limits):
            if limit is not None:
                text.truncate(limit, overflow="ellipsis")
        texts.append((key, line))
    widths = [len(h) for h in headers]
    for _, cells in texts:
        widths = [max(w, c.cell_len) for w, c in zip(widths, cells)]
    heights = [1] * len(texts)
    if wrap_to is not None and headers:
        at = headers.index(wrap) if wrap is not None else len(headers) - 1
        # Every column is padded by one cell each side; the vertical scroll bar may take two.
        others = sum(w + 2 * table.cell_padding for i, w in enumerate(widths) if i != at)
        room = wrap_to - SCROLL_BAR - others - 2 * table.cell_padding
        if wrap is None:
            widths[at] = max(MIN_WRAP, len(headers[at]), room)
        else:
            widths[at] = min(widths[at], max(narrowest or MIN_WRAP, len(headers[at]), room))
        for index, (_key, cells) in enumerate(texts):
            lines = wrapped(cells[at].plain, widths[at], 4 if wrap is None else NAME_INDENT)
            cells[at] = Text("\n".join(lines))
            heights[index] = len(lines)
    columns = table.ordered_columns
    if [(c.label.plain, c.width) for c in columns] != list(zip(headers, widths)):
        table.clear(columns=True)
        for header, width in zip(headers, widths):
            table.add_column(header, width=width)
    elif _same_rows(table, texts, heights):
        # The same rows, as after most actions: only the cells that changed are
        # drawn again; the table keeps its lines, its cursor and its scrolling.
        for key, cells in [(k, c) for k, c in texts if k is not None]:  # all of them: _same_rows says so
            for column, cell in zip(columns, cells):
                if table.get_cell(key, column.key) != cell:
                    table.update_cell(key, column.key, cell)
        return
    else:
        table.clear()  # the rows only: the columns stay as they are
    for (key, cells), height in zip(texts, heights):
        table.add_row(*cells, key=key, height=height)


def _same_rows(table: DataTable, texts: list[tuple[str | None, list[Text]]], heights: list[int]) -> bool:
    if table.row_count != len(texts) or any(key is None for key, _ in texts):
        return False
    rows = table.ordered_rows
    return [row.key.value for row in rows] == [key for key, _ in texts] and [row.height for row in rows] == heights


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

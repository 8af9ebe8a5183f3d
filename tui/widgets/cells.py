"""Table cells as plain text: names and log lines may hold brackets that are not markup."""

from __future__ import annotations

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
) -> None:
    """Put `rows` (key, cells) in `table` under `headers`, each column as wide as its widest cell,
    or as `widest` allows (longer cells end in an ellipsis).

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
    columns = table.ordered_columns
    if [(c.label.plain, c.width) for c in columns] != list(zip(headers, widths)):
        table.clear(columns=True)
        for header, width in zip(headers, widths):
            table.add_column(header, width=width)
    elif _same_rows(table, texts):
        # The same rows, as after most actions: only the cells that changed are
        # drawn again; the table keeps its lines, its cursor and its scrolling.
        for key, cells in texts:
            for column, cell in zip(columns, cells):
                if table.get_cell(key, column.key) != cell:
                    table.update_cell(key, column.key, cell)
        return
    else:
        table.clear()  # the rows only: the columns stay as they are
    for key, cells in texts:
        table.add_row(*cells, key=key)


def _same_rows(table: DataTable, texts: list[tuple[str | None, list[Text]]]) -> bool:
    if table.row_count != len(texts) or any(key is None for key, _ in texts):
        return False
    return [row.key.value for row in table.ordered_rows] == [key for key, _ in texts]

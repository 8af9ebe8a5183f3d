"""A table laid out in plain text as on its card, with its source and notes."""

from __future__ import annotations

import textwrap

from rules.tables import Table


def grid(table: Table) -> list[list[str]]:
    """Header row then one row per printed row: the cells as printed, `-` for blanks.
    A table with pages gets a first column naming the page."""
    corner = table.rows.label
    heads = [b.label for b in table.columns.bands] if table.columns else [table.title.split(":")[-1].strip()]
    paged = table.pages is not None
    rows = [[table.pages.label, corner, *heads] if paged else [corner, *heads]]  # type: ignore[union-attr]  # paged: the table has pages
    for page, cells_of_page in table.grids():
        for band, cells in zip(table.rows.bands, cells_of_page):
            row = [band.label, *[c or "-" for c in cells]]
            rows.append([page or "", *row] if paged else row)
    return rows


def render_table(table: Table, width: int = 100) -> str:
    rows = grid(table)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    # Long text cells (terrain, command points) would make the grid unreadable:
    # cap each column and wrap inside it.
    cap = max(12, (width - widths[0]) // max(1, len(widths) - 1) - 2)
    widths = [widths[0]] + [min(w, cap) for w in widths[1:]]
    lines = [f"{table.title}  [{table.ruleset}/{table.id}]"]
    if table.dice:
        lines.append(f"Roll: {table.dice}")
    for r, row in enumerate(rows):
        wrapped = [textwrap.wrap(c, widths[i]) or [""] for i, c in enumerate(row)]
        for k in range(max(len(w) for w in wrapped)):
            parts = []
            for i, w in enumerate(wrapped):
                text = w[k] if k < len(w) else ""
                # Short results line up on the right as on a card; sentences read from the left.
                short = len(row[i]) <= 8
                parts.append(text.rjust(widths[i]) if i and short else text.ljust(widths[i]))
            lines.append("  ".join(parts).rstrip())
        if r == 0:
            lines.append("  ".join("-" * w for w in widths))
    for mark, meaning in table.legend.items():
        lines.append(f"{mark} = {meaning}")
    for note in table.card_notes:
        lines.append(f"Card: {note}")
    lines.append(f"Source: {table.source_file}, heading \"{table.source_heading}\"")
    for note in table.notes:
        lines.extend(textwrap.wrap(f"Reading: {note}", width, subsequent_indent="  "))
    return "\n".join(lines)

"""Table cells as plain text: names and log lines may hold brackets that are not markup."""

from __future__ import annotations

from rich.text import Text


def plain(*cells: object) -> list[Text]:
    return [Text(str(cell)) for cell in cells]


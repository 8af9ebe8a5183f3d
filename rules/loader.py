"""Read and validate a rule set's data files (TOML, one folder per rule set).

Every problem in a data file is reported as one sentence naming the file, the
table and, where it applies, the row, so that a person fixing a transcription
knows where to look.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from rules import registry
from rules.errors import RulesError
from rules.tables import Axis, Band, Table


class DataFileError(RulesError):
    pass


def _squash(text: str) -> str:
    return "".join(text.split())


def _band(raw: object, where: str) -> Band:
    if isinstance(raw, str):
        try:
            return Band.parse(raw)
        except ValueError as exc:
            raise DataFileError(f"{where}: {exc}") from None
    if isinstance(raw, dict) and isinstance(raw.get("label"), str):
        values = raw.get("values")
        if not isinstance(values, list) or not values:
            raise DataFileError(f"{where}: band {raw['label']!r} lists no values")
        return Band(raw["label"], names=tuple(values))
    raise DataFileError(f"{where}: a band is a printed heading or {{label, values}}")


def _axis(raw: object, bands: list[object], where: str) -> Axis:
    if not isinstance(raw, dict) or not isinstance(raw.get("axis"), str):
        raise DataFileError(f"{where}: the axis needs a name (axis = \"...\")")
    parsed = tuple(_band(b, f"{where}, band {i + 1}") for i, b in enumerate(bands))
    axis = Axis(raw["axis"], str(raw.get("label", raw["axis"])), parsed)
    if axis.numeric:
        for before, after in zip(parsed, parsed[1:]):
            if before.high is None or after.low is None or after.low <= before.high:
                raise DataFileError(
                    f"{where}: bands {before.label!r} and {after.label!r} overlap or are out of order"
                )
    else:
        seen: set[object] = set()
        for band in parsed:
            if seen & set(band.names):
                raise DataFileError(f"{where}: band {band.label!r} repeats a value")
            seen |= set(band.names)
    return axis


def load_table(path: Path, ruleset: str) -> Table:
    where = f"{path}"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{where}: cannot be read as TOML ({exc})") from None
    table_id = data.get("id")
    if not isinstance(table_id, str):
        raise DataFileError(f"{where}: the table has no id")
    where = f"{path}: table {table_id}"
    source = data.get("source")
    if not isinstance(source, dict) or not {"file", "heading"} <= source.keys():
        raise DataFileError(f"{where}: the table needs [source] with file and heading")
    rows_raw = data.get("row")
    if not isinstance(rows_raw, list) or not rows_raw:
        raise DataFileError(f"{where}: the table has no [[row]] entries")
    columns = None
    if "columns" in data:
        col = data["columns"]
        columns = _axis(col, col.get("bands", []) if isinstance(col, dict) else [], f"{where}, columns")
        if not columns.bands:
            raise DataFileError(f"{where}: the columns list no bands")
    width = len(columns.bands) if columns else 1
    pages = None
    if "pages" in data:
        raw_pages = data["pages"]
        pages = _axis(raw_pages, raw_pages.get("bands", []) if isinstance(raw_pages, dict) else [], f"{where}, pages")
    cells: list[tuple[str, ...]] = []
    printed: list[str] = []
    page_of: list[int] = []
    for i, row in enumerate(rows_raw, start=1):
        label = row.get("band") if isinstance(row, dict) else None
        row_where = f"{where}, row {label if isinstance(label, str) else i}"
        if pages is not None:
            page = row.get("page") if isinstance(row, dict) else None
            try:
                page_of.append(pages.index_of(page))  # type: ignore[arg-type]
            except RulesError:
                raise DataFileError(f"{row_where}: page {page!r} is not one of the table's pages") from None
            row_where += f" (page {page})"
        if not isinstance(row, dict) or "band" not in row or "cells" not in row:
            raise DataFileError(f"{row_where}: a row needs band and cells")
        row_cells = row["cells"]
        if not isinstance(row_cells, list) or not all(isinstance(c, str) for c in row_cells):
            raise DataFileError(f"{row_where}: cells must be a list of strings")
        if len(row_cells) != width:
            raise DataFileError(f"{row_where}: {len(row_cells)} cells for {width} columns")
        if "printed" in row:
            # The card's line, blanks lost, must be what the row reads back as.
            band_label = row["band"] if isinstance(row["band"], str) else row["band"]["label"]
            if _squash(str(row["printed"])) != _squash(band_label + "".join(row_cells)):
                raise DataFileError(
                    f"{row_where}: cells do not read back as the printed line {row['printed']!r}"
                )
        cells.append(tuple(row_cells))
        printed.append(str(row.get("printed", "")))
    page_cells: tuple[tuple[tuple[str, ...], ...], ...] = ()
    bands = [r["band"] for r in rows_raw]
    if pages is not None:
        # Every page repeats the same row bands, in the same order.
        by_page = [[i for i, p in enumerate(page_of) if p == n] for n in range(len(pages.bands))]
        first = [bands[i] for i in by_page[0]]
        for n, indexes in enumerate(by_page):
            if [bands[i] for i in indexes] != first:
                raise DataFileError(f"{where}: page {pages.bands[n].label} does not have the rows of page {pages.bands[0].label}")
        page_cells = tuple(tuple(cells[i] for i in indexes) for indexes in by_page)
        bands = first
        cells = list(page_cells[0])
        printed = [printed[i] for i in by_page[0]]
    rows = _axis(data.get("rows"), bands, f"{where}, rows")
    legend = data.get("legend", {})
    notes = data.get("notes", [])
    if not all(isinstance(n, str) for n in notes):
        raise DataFileError(f"{where}: notes must be strings")
    return Table(
        ruleset=ruleset,
        id=table_id,
        title=str(data.get("title", table_id)),
        source_file=str(source["file"]),
        source_heading=str(source["heading"]),
        rows=rows,
        columns=columns,
        cells=tuple(cells),
        printed_rows=tuple(printed),
        dice=data.get("dice"),
        target=_target(data.get("target"), where),
        legend=dict(legend),
        notes=tuple(notes),
        card_notes=tuple(data.get("card_notes", [])),
        pages=pages,
        page_cells=page_cells,
    )


TARGETS = ("more_than", "at_least", "at_most")


def _target(raw: object, where: str) -> str | None:
    if raw is not None and raw not in TARGETS:
        raise DataFileError(f"{where}: target is one of {', '.join(TARGETS)}, not {raw!r}")
    return raw  # type: ignore[return-value]


def ruleset_ids() -> list[str]:
    """Every rule set found (rules/registry.py), in id order."""
    return registry.ruleset_ids()


def data_file(ruleset: str, name: str) -> Path:
    """A data file of the rule set (options.toml, conversion.toml), in its package's folder."""
    return registry.get_ruleset(ruleset).folder / name


@cache
def load_ruleset(ruleset: str) -> dict[str, Table]:
    folder = registry.get_ruleset(ruleset).folder / "tables"
    tables: dict[str, Table] = {}
    for path in sorted(folder.glob("*.toml")):
        table = load_table(path, ruleset)
        if table.id in tables:
            raise DataFileError(f"{path}: table {table.id} is defined twice in {ruleset}")
        tables[table.id] = table
    return tables


def get_table(ruleset: str, table_id: str) -> Table:
    tables = load_ruleset(ruleset)
    if table_id not in tables:
        raise RulesError(
            f"rule set {ruleset} has no table {table_id!r}; its tables: " + ", ".join(tables)
        )
    return tables[table_id]

"""Read and validate a rule set's data files (TOML, one folder per rule set).

Every problem in a data file is reported as one sentence naming the file, the
table and, where it applies, the row, so that a person fixing a transcription
knows where to look.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError

from rules import registry
from rules.errors import RulesError
from rules.schema import BandSpec, TableFile, Target, faults, keys_at, unknown_key, where_in_file
from rules.tables import Axis, Band, Table


class DataFileError(RulesError):
    pass


def _squash(text: str) -> str:
    return "".join(text.split())


def _band(raw: BandSpec, where: str) -> Band:
    if isinstance(raw, str):
        try:
            return Band.parse(raw)
        except ValueError as exc:
            raise DataFileError(f"{where}: {exc}") from None
    return Band(raw.label, names=tuple(raw.values))


def _band_label(raw: BandSpec) -> str:
    return raw if isinstance(raw, str) else raw.label


def _axis(name: str, label: str | None, bands: list[BandSpec], where: str) -> Axis:
    parsed = tuple(_band(b, f"{where}, band {i + 1}") for i, b in enumerate(bands))
    axis = Axis(name, label or name, parsed)
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


def _table_file(data: dict[str, Any], path: Path) -> TableFile:
    """The file checked against the schema (rules/schema.py), or one sentence naming
    the file, the table and the key or row at fault."""
    try:
        return TableFile.model_validate(data)
    except ValidationError as exc:
        (kind, loc, message), extra = faults(exc)
    unknown = "" if extra is None else unknown_key(extra, keys_at(TableFile, extra[:-1]))
    table_id = data.get("id")
    where = f"{path}: table {table_id}"
    if kind == "extra_forbidden":
        raise DataFileError(f"{where if isinstance(table_id, str) else path}: {unknown}")
    also = f"; {unknown}" if unknown else ""
    if not isinstance(table_id, str):
        raise DataFileError(f"{path}: the table has no id{also}")
    if loc[:1] == ("source",):
        raise DataFileError(f"{where}: the table needs [source] with file and heading{also}")
    if loc == ("row",):
        raise DataFileError(f"{where}: the table has no [[row]] entries{also}")
    if loc[:1] == ("rows",):
        raise DataFileError(f"{where}, rows: the axis needs a name (axis = \"...\"){also}")
    if loc[:1] == ("target",):
        raise DataFileError(f"{where}: target is one of {', '.join(TARGETS)}, not {data.get('target')!r}")
    if loc[:1] == ("row",) and len(loc) >= 3:
        row = data["row"][loc[1]]
        label = row.get("band") if isinstance(row, dict) else None
        label = label if isinstance(label, str) else label.get("label") if isinstance(label, dict) else None
        row_where = f"{where}, row {label if isinstance(label, str) else int(loc[1]) + 1}"
        if kind == "missing" and loc[2] in ("band", "cells"):
            raise DataFileError(f"{row_where}: a row needs band and cells{also}")
        if loc[2] == "cells":
            raise DataFileError(f"{row_where}: cells must be a list of strings")
        raise DataFileError(f"{row_where}, {where_in_file(loc[2:])}: {message}{also}")
    raise DataFileError(f"{where}, {where_in_file(loc)}: {message}{also}")


def load_table(path: Path, ruleset: str) -> Table:
    """The table in `path`, checked against the schema and the card's own arithmetic:
    a fault is one DataFileError naming the file, the table and the key or row."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{path}: cannot be read as TOML ({exc})") from None
    spec = _table_file(data, path)
    where = f"{path}: table {spec.id}"
    columns = None
    if spec.columns is not None:
        columns = _axis(spec.columns.axis, spec.columns.label, spec.columns.bands, f"{where}, columns")
        if not columns.bands:
            raise DataFileError(f"{where}: the columns list no bands")
    width = len(columns.bands) if columns else 1
    pages = None
    if spec.pages is not None:
        pages = _axis(spec.pages.axis, spec.pages.label, spec.pages.bands, f"{where}, pages")
    cells: list[tuple[str, ...]] = []
    printed: list[str] = []
    page_of: list[int] = []
    for row in spec.row:
        row_where = f"{where}, row {_band_label(row.band)}"
        if pages is not None:
            try:
                page_of.append(pages.index_of(row.page))  # type: ignore[arg-type]  # None is refused as outside
            except RulesError:
                raise DataFileError(f"{row_where}: page {row.page!r} is not one of the table's pages") from None
            row_where += f" (page {row.page})"
        if len(row.cells) != width:
            raise DataFileError(f"{row_where}: {len(row.cells)} cells for {width} columns")
        if row.printed is not None:
            # The card's line, blanks lost, must be what the row reads back as.
            if _squash(row.printed) != _squash(_band_label(row.band) + "".join(row.cells)):
                raise DataFileError(f"{row_where}: cells do not read back as the printed line {row.printed!r}")
        cells.append(tuple(row.cells))
        printed.append(row.printed or "")
    page_cells: tuple[tuple[tuple[str, ...], ...], ...] = ()
    bands = [r.band for r in spec.row]
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
    rows = _axis(spec.rows.axis, spec.rows.label, bands, f"{where}, rows")
    return Table(
        ruleset=ruleset,
        id=spec.id,
        title=spec.title or spec.id,
        source_file=spec.source.file,
        source_heading=spec.source.heading,
        rows=rows,
        columns=columns,
        cells=tuple(cells),
        printed_rows=tuple(printed),
        dice=spec.dice,
        target=spec.target,
        legend=dict(spec.legend),
        notes=tuple(spec.notes),
        card_notes=tuple(spec.card_notes),
        pages=pages,
        page_cells=page_cells,
    )


TARGETS = get_args(Target)


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

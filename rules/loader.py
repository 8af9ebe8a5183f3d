"""Read and validate a rule set's data files (TOML, one folder per rule set).

Every problem in a data file is reported as one sentence naming the file, the
table and, where it applies, the row, so that a person fixing a transcription
knows where to look.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, get_args

from rules import registry
from rules.errors import RulesError
from rules.tables import Axis, Band, Table, Target

if TYPE_CHECKING:
    from rules.schema import BandSpec, TableFile


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
    the file, the table and the key or row at fault. A file that is plainly sound (`plain_table_file`)
    is taken without pydantic, whose import is most of a lookup's time; any other is judged by the
    schema itself, which takes it or names its fault."""
    plain = plain_table_file(data)
    if plain is not None:
        return plain  # the schema's fields, as TableFile has them
    from pydantic import ValidationError

    from rules.schema import TableFile, faults, keys_at, unknown_key, where_in_file

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


# -- a table file the schema plainly takes --------------------------------------------------
# TableFile (rules/schema.py) in strict mode, unknown keys refused: here as plain tests that say
# yes only where the schema says yes, and give the same fields, with the same defaults
# (tests/rules/test_plain_table_file.py holds them to it, on every table and on files spoilt
# every way). A no here is no verdict: the schema judges the file.

_TOP = frozenset({"id", "title", "source", "rows", "columns", "pages", "row", "dice", "target", "legend", "notes", "card_notes"})
_INT64 = 1 << 63


def _text(value: Any) -> bool:
    return type(value) is str


def _text_or_none(value: Any) -> bool:
    return value is None or type(value) is str


def _texts(value: Any) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def _text_or_int(value: Any) -> bool:
    return type(value) is str or type(value) is int and -_INT64 <= value < _INT64


def _section(value: Any, required: frozenset[str], allowed: frozenset[str]) -> bool:
    return type(value) is dict and required <= value.keys() <= allowed


def _plain_band(value: Any) -> Any:
    """A band as BandSpec takes it (a text, or {label, values}); None: not plainly."""
    if type(value) is str:
        return value
    if not _section(value, frozenset({"label", "values"}), frozenset({"label", "values"})):
        return None
    values = value["values"]
    if not _text(value["label"]) or type(values) is not list or not values or not all(_text_or_int(v) for v in values):
        return None
    return SimpleNamespace(label=value["label"], values=values)


def _plain_axis(value: Any, *, bands: bool) -> Any:
    keys = frozenset({"axis", "label", "bands"} if bands else {"axis", "label"})
    if not _section(value, frozenset({"axis"}), keys) or not _text(value["axis"]) or not _text_or_none(value.get("label")):
        return None
    axis = SimpleNamespace(axis=value["axis"], label=value.get("label"))
    if bands:
        listed = value.get("bands", [])
        parsed = [_plain_band(band) for band in listed] if type(listed) is list else [None]
        if any(band is None for band in parsed):
            return None
        axis.bands = parsed
    return axis


def _plain_row(value: Any) -> Any:
    if not _section(value, frozenset({"band", "cells"}), frozenset({"band", "cells", "printed", "page"})):
        return None
    band, page = _plain_band(value["band"]), value.get("page")
    if band is None or not _texts(value["cells"]) or not _text_or_none(value.get("printed")):
        return None
    if page is not None and not _text_or_int(page):
        return None
    return SimpleNamespace(band=band, cells=value["cells"], printed=value.get("printed"), page=page)


def plain_table_file(data: Any) -> Any:
    """The fields of a table file the schema (TableFile) plainly takes, defaults filled in as it fills
    them; None for any other file, which the schema itself judges."""
    if not _section(data, frozenset({"id", "source", "rows", "row"}), _TOP):
        return None
    get = data.get
    source, rows, listed = data["source"], _plain_axis(data["rows"], bands=False), data["row"]
    if not _text(data["id"]) or not _text_or_none(get("title")) or not _text_or_none(get("dice")) or rows is None:
        return None
    if not _section(source, frozenset({"file", "heading"}), frozenset({"file", "heading"})) or not (
        _text(source["file"]) and _text(source["heading"])
    ):
        return None
    target = get("target")
    if target is not None and not (type(target) is str and target in TARGETS):
        return None
    legend, notes, card_notes = get("legend", {}), get("notes", []), get("card_notes", [])
    if type(legend) is not dict or not all(_text(k) and _text(v) for k, v in legend.items()):
        return None
    if not _texts(notes) or not _texts(card_notes) or type(listed) is not list or not listed:
        return None
    axes = {}
    for name in ("columns", "pages"):
        axes[name] = None if get(name) is None else _plain_axis(get(name), bands=True)
        if get(name) is not None and axes[name] is None:
            return None
    row = [_plain_row(item) for item in listed]
    if any(item is None for item in row):
        return None
    return SimpleNamespace(
        id=data["id"], title=get("title"), source=SimpleNamespace(file=source["file"], heading=source["heading"]),
        rows=rows, columns=axes["columns"], pages=axes["pages"], row=row, dice=get("dice"), target=target,
        legend=legend, notes=notes, card_notes=card_notes,
    )


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

"""The schema of a rule set's data files, as pydantic models.

A key the schema does not know is refused, never ignored: a misspelt `prnted`
or `card_note` would otherwise drop the card's words without a sound.  The
loaders (rules/loader.py, rules/options.py, rules/conversion.py) validate a
file against its model and turn the first fault into one sentence naming the
file, the table (or option) and the key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.tables import Target

Rounding = Literal["down", "nearest", "up"]


class Strict(BaseModel):
    """Unknown keys refused, no silent conversion of types, frozen once read."""

    # defer_build: a model's validator is built when first used, not on import, so that
    # `adjutant rules lookup` pays only for the models it reads with
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


class Frozen(BaseModel):
    """A rule set's card data as typed frozen objects (data.py's `card()`): unknown
    keys refused; TOML's lists become tuples."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def refusal(path: object, error: ValidationError, model: type[BaseModel]) -> str:
    """One sentence naming the file and the key at fault."""
    (kind, loc, message), extra = faults(error)
    if extra is not None:
        return f"{path}: {unknown_key(extra, keys_at(model, extra[:-1]))}"
    if kind == "missing":
        return f"{path}: {where_in_file(loc[:-1])} needs {loc[-1]}".replace("the top level needs", "needs")
    return f"{path}: {where_in_file(loc)}: {message}"


# -- tables/*.toml -------------------------------------------------------------------


class NamedBand(Strict):
    """A heading that lists its values (the months of one weather column)."""

    label: str
    values: list[str | int] = Field(min_length=1)


BandSpec = str | NamedBand  # a printed heading ("11-15", "81 et +") or {label, values}


class Source(Strict):
    file: str
    heading: str


class RowsSpec(Strict):
    axis: str
    label: str | None = None


class AxisSpec(Strict):
    axis: str
    label: str | None = None
    bands: list[BandSpec] = []


class RowSpec(Strict):
    band: BandSpec
    cells: list[str]
    printed: str | None = None  # the card's line, to check the cells against
    page: str | int | None = None  # for a table with [pages]


class TableFile(Strict):
    id: str
    title: str | None = None
    source: Source
    rows: RowsSpec
    columns: AxisSpec | None = None
    pages: AxisSpec | None = None
    row: list[RowSpec] = Field(min_length=1)
    dice: str | None = None
    target: Target | None = None
    legend: dict[str, str] = {}
    notes: list[str] = []
    card_notes: list[str] = []


# -- options.toml ----------------------------------------------------------------------


class OptionSpec(Strict):
    id: str
    title: str
    choices: dict[str, str] = Field(min_length=1)
    default: str
    reason: str
    source: str
    card: str | list[str] = []  # the card's words this reading rests on


class OptionsFile(Strict):
    option: list[OptionSpec] = []


# -- conversion.toml -------------------------------------------------------------------


class ArtilleryBonusSpec(Strict):
    """The guns of a force's artillery bonus (AB) on the table."""

    units_per_point: int
    size: int | None = None
    reason: str
    source: str | None = None
    notes: list[str] = []


class NamedSpec(Strict):
    """A [[named]] entry of conversion.toml: forces whose name holds one of `words` take `attrs`."""

    arm: Literal["infantry", "cavalry", "artillery"]
    words: list[str]
    attrs: dict[str, Any]
    reason: str


class ConversionFile(Strict):
    label: str
    size_label: str
    sp_per_unit: int
    losses_rounding: Rounding = "nearest"
    source: str
    notes: list[str] = []
    size: dict[Literal["infantry", "cavalry", "artillery"], int]
    quality: dict[str, str]
    leader: dict[str, str]
    defaults: dict[Literal["infantry", "cavalry", "artillery"], dict[str, Any]] = {}
    artillery_bonus: ArtilleryBonusSpec | None = None
    # campaign cohesion -> the card's CW level, for a rule set that rates units so
    # (napoleonic_d10: rules/napoleonic_d10/data.py cw_level_for)
    cw_level: dict[str, int] = {}
    named: list[NamedSpec] = []


# -- faults as sentences -----------------------------------------------------------------

_UNION_TAGS = {"str", "int", "NamedBand", "list[str]"}


def where_in_file(loc: Sequence[str | int]) -> str:
    """`('row', 2, 'cels')` -> "[[row]] 3" (the part of the file holding the key)."""
    parts: list[str] = []
    for item in loc:
        if isinstance(item, str) and item in _UNION_TAGS:
            continue
        if isinstance(item, int):
            if parts:
                parts[-1] = f"[[{parts[-1].strip('[]')}]] {item + 1}"
            continue
        parts.append(f"[{item}]")
    return " ".join(parts) if parts else "the top level"


def faults(error: ValidationError) -> tuple[tuple[str, tuple[str | int, ...], str], tuple[str | int, ...] | None]:
    """(pydantic's type, where, its message) of the fault to report, and where the first
    unknown key is (None when there is none): a misspelt required key is both a key
    missing and a key unknown, and the sentence names both."""
    errors = [(e["type"], tuple(x for x in e["loc"] if not (isinstance(x, str) and x in _UNION_TAGS)), e["msg"])
              for e in error.errors()]
    extra = next((loc for kind, loc, _ in errors if kind == "extra_forbidden"), None)
    other = next((e for e in errors if e[0] != "extra_forbidden"), None)
    return other or errors[0], extra


def unknown_key(loc: Sequence[str | int], allowed: Sequence[str]) -> str:
    """The sentence for a key the schema does not know."""
    section = where_in_file(loc[:-1])
    where = "" if section == "the top level" else f" in {section}"
    known = f" (the keys there are {', '.join(allowed)})" if allowed else ""
    return f"unknown key {loc[-1]!r}{where}{known}"


def keys_at(model: type[BaseModel], loc: Sequence[str | int]) -> list[str]:
    """The keys the schema allows at `loc` (a key's parent), for the sentence."""
    current: Any = model
    for item in loc:
        if isinstance(item, int) or not (isinstance(current, type) and issubclass(current, BaseModel)):
            continue
        field = current.model_fields.get(item)
        if field is None:
            break
        current = _model_in(field.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _model_in(annotation: Any) -> Any:
    """The pydantic model inside `list[X]`, `X | None`, `str | X`, if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_in(arg)
        if found is not None:
            return found
    return None

"""The export format as pydantic models: what a row of each table may hold.

The models are built from the tables themselves (their column types, which
columns may be empty), so a table or column a later migration adds is checked
without a list kept by hand here. What the types cannot say (a die mode is one
of two words, strength points are never negative, a dice record's raw dice are
whole numbers) is stated per column in `DOMAIN` and `SHAPES`.

The same models judge an export being imported, every row `export` writes and
every row `check` reads, so a file `check` calls sound exports, and one it
refuses, `export` refuses for the same reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from functools import cache, lru_cache
from itertools import accumulate
from typing import Annotated, Any

from typing_extensions import TypedDict  # pydantic needs it on Python 3.11

import orjson
from pydantic import (
    AfterValidator,
    BeforeValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    create_model,
)
from sqlalchemy import JSON, Boolean, Column, Date, DateTime, Integer, String, Table, TypeDecorator
from sqlalchemy import BigInteger

from rules.dice import DiceMode, stored_dice
from rules.errors import RulesError
from rules.numbers import MAX_STRENGTH, MAX_TURNS
from rules.options import resolve_options

MAX_TEXT = 100_000  # characters in one text value: an event's description is a sentence, not a book
MAX_JSON_DEPTH = 32  # nesting of a JSON value in a column (an event's changes nest 4 deep)
MAX_JSON_BYTES = 10_000_000  # one JSON value in one column: a battle's whole journal fits many times
INT64 = (-(1 << 63), (1 << 63) - 1)
INT32 = (-(1 << 31), (1 << 31) - 1)  # PostgreSQL's INTEGER
ROW_CONFIG = ConfigDict(extra="forbid", strict=True)  # a row model's, and its columns' shapes'

# Ranges the column types leave open: (table, column) -> pydantic field constraints.
DOMAIN: dict[tuple[str, str], dict[str, Any]] = {
    ("campaign", "id"): {"ge": 1, "le": 1},
    ("campaign", "dice_seed"): {"ge": 0, "le": INT64[1]},
    ("campaign", "dice_next_index"): {"ge": 0},
    ("campaign", "turn"): {"ge": 1, "le": MAX_TURNS},
    ("campaign", "turns"): {"ge": 1, "le": MAX_TURNS},
    ("campaign", "turn_days"): {"ge": 1, "le": 366},
    ("campaign", "version"): {"ge": 0},
    ("unit", "strength_points"): {"ge": 0, "le": MAX_STRENGTH},  # as a scenario and the order of battle's form take them
    ("unit", "cohesion"): {"ge": 0, "le": 99},
    ("unit", "artillery_bonus"): {"ge": -99, "le": 99},
    ("unit", "cavalry_bonus"): {"ge": -99, "le": 99},
    ("general", "rank"): {"ge": 0, "le": 9},
    ("general", "command_value"): {"ge": -9, "le": 99},
    ("general", "tactical_bonus"): {"ge": -99, "le": 99},
    ("dice_roll", "stream_index"): {"ge": 0},
    ("battle", "rounds"): {"ge": 0, "le": 100_000},
    ("turn", "number"): {"ge": 0, "le": MAX_TURNS},
}


# TypedDicts, not models: a million events are checked without a million objects built.
class Modifier(TypedDict):
    value: Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]
    label: Annotated[StrictStr, Field(max_length=MAX_TEXT)]


class Change(TypedDict):
    table: StrictStr
    key: Any
    before: dict[str, Any] | None
    after: dict[str, Any] | None


class Replay(BaseModel):
    """What an undo or redo event holds: the action it undid or redid (models.journal)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    event: StrictInt = Field(ge=1)


class SetupLeader(TypedDict):
    name: StrictStr
    rank: StrictInt
    tactical_bonus: StrictInt


class SetupSide(TypedDict):
    """What the battles read of a side of a battle's set-up (campaigns.battles: _side, _combat_side)."""

    sp_by_arm: dict[StrictStr, StrictInt]
    generals: list[SetupLeader]
    average_cohesion: tuple[StrictInt, Annotated[StrictInt, Field(ge=1)]]  # a fraction: numerator, denominator
    artillery_bonus: StrictInt
    cavalry_bonus: StrictInt


class SetupSides(TypedDict):
    attacker: SetupSide
    defender: SetupSide


def dice_refusal(text: str) -> str | None:
    """Why a roll's dice are not as the dice service stores them, or cannot be weighed by the
    luck (rules.dice.stored_dice, rules.odds.computable); None when they are."""
    return _dice_refusal(text) if len(text) <= 32 else "is longer than any dice expression"


@lru_cache(maxsize=1024)  # a million rolls hold a handful of expressions; a hostile file, any number
def _dice_refusal(text: str) -> str | None:
    from rules.odds import computable  # icepool is not imported by this

    try:
        computable(stored_dice(text))
    except RulesError as error:
        return str(error)
    return None


def _stored_dice(text: str) -> str:
    refusal = dice_refusal(text)
    if refusal is not None:
        raise ValueError(refusal)
    return text


# A roll's dice: one expression as the dice service writes it ("1d6", "3d10kh1", "4d12>=9").
STORED_DICE = Annotated[StrictStr, AfterValidator(_stored_dice)]


# The columns whose contents other code reads item by item.
SHAPES: dict[tuple[str, str], Any] = {
    ("campaign", "dice_mode"): DiceMode,
    ("dice_roll", "mode"): DiceMode,
    ("dice_roll", "dice"): STORED_DICE,
    ("dice_roll", "raw"): list[Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]],
    ("dice_roll", "modifiers"): list[Modifier],
    ("event", "changes"): list[Change] | list[Replay],
    # "general:ID" and "unit:ID" of an activated stack (campaigns/stacks.py)
    ("activation", "members"): list[Annotated[StrictStr, Field(max_length=MAX_TEXT)]],
}


def _iso_date(value: str) -> str:
    date.fromisoformat(value)
    return value


def _iso_datetime(value: str) -> str:
    datetime.fromisoformat(value)
    return value


def _sane_json(value: Any) -> Any:
    """A JSON value of bounded depth and size, text keys, whole numbers within 64 bits.

    orjson does the walk in C: it refuses keys that are not text, numbers past 64
    bits and anything that is not JSON. Non-finite numbers never get this far:
    campaign engines and `import` read JSON with orjson, which refuses NaN and
    Infinity (models.engine)."""
    try:
        encoded = orjson.dumps(value)
    except orjson.JSONEncodeError as error:
        raise ValueError(f"is not JSON ({error})") from None
    if len(encoded) > MAX_JSON_BYTES:
        raise ValueError(f"is longer than {MAX_JSON_BYTES} bytes")
    if _depth(encoded) > MAX_JSON_DEPTH:
        raise ValueError(f"is nested more than {MAX_JSON_DEPTH} deep")
    return value


_NOT_BRACKET = bytes(sorted(set(range(256)) - set(b"[]{}")))
_STEP = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 and -1 as signed bytes


def _depth(encoded: bytes) -> int:
    """How deep the JSON text `encoded` (as orjson writes it) nests its arrays and objects.

    Each step in C, not a step of Python a byte (a long event's changes were 2.5 ms):
    escaped backslashes, then escaped quotes, taken out, every other quote opens a string,
    whose brackets do not count; the brackets outside, as +1 and -1, summed as they come."""
    if encoded.count(b"[") + encoded.count(b"{") <= MAX_JSON_DEPTH:
        return 0  # too few brackets to be too deep, whatever the strings hold: no need to look
    outside = b"".join(encoded.replace(b"\\\\", b"").replace(b'\\"', b"").split(b'"')[::2])
    steps = memoryview(outside.translate(_STEP, _NOT_BRACKET)).cast("b")
    return max(0, max(accumulate(steps), default=0))


SaneJson = Annotated[Any, BeforeValidator(_sane_json)]


def column_type(table: str, column: Column[Any]) -> Any:
    """What one column of `table` may hold, as a row of the export has it: the row model's field,
    and what an undo or redo may write there (models.history_checks)."""
    kind = column.type.impl_instance if isinstance(column.type, TypeDecorator) else column.type
    shape = SHAPES.get((table, column.name))
    if isinstance(kind, Boolean):
        base: Any = StrictBool
    elif isinstance(kind, Integer):
        low, high = INT64 if isinstance(kind, BigInteger) else INT32
        limits = {"ge": low, "le": high, **DOMAIN.get((table, column.name), {})}
        base = Annotated[StrictInt, Field(**limits)]
    elif isinstance(kind, DateTime):
        base = Annotated[StrictStr, Field(max_length=40), AfterValidator(_iso_datetime)]
    elif isinstance(kind, Date):
        base = Annotated[StrictStr, Field(max_length=20), AfterValidator(_iso_date)]
    elif isinstance(kind, JSON):
        # The whole value is checked as JSON first, then against its shape.
        base = Annotated[shape or dict[str, Any], BeforeValidator(_sane_json)]
    elif isinstance(kind, String):
        base = shape or Annotated[StrictStr, Field(max_length=MAX_TEXT)]
    else:
        base = SaneJson
    return base | None if column.nullable else base


@cache  # per Table object: the export's tables live as long as the process, an import's as the import
def row_model(table: Table) -> type[BaseModel]:
    """The model of one row of `table`, as the export writes it (dates as ISO 8601 text)."""
    fields: dict[str, Any] = {}
    for column in table.columns:
        required = not column.nullable and column.server_default is None
        fields[column.name] = (column_type(table.name, column), ... if required else None)
    return create_model(
        f"Row_{table.name}", __config__=ROW_CONFIG, **fields
    )


class BadRow(ValueError):
    """A row that does not fit its table: `reason` says which column and why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def validate_row(table: Table, row: Mapping[str, Any]) -> None:
    """Raise BadRow with one phrase naming the first column that does not fit."""
    try:
        row_model(table).model_validate(dict(row))
    except ValidationError as error:
        raise BadRow(_reason(error)) from None
    for check in ROW_CHECKS.get(table.name, ()):
        try:
            check(row)
        except RulesError as error:
            raise BadRow(f"a value its rule set refuses: {error}") from None


def _campaign_options(row: Mapping[str, Any]) -> None:
    resolve_options(row["ruleset"], row["options"])


def _battle_options(row: Mapping[str, Any]) -> None:
    """The rules options a battle was set up with: the screens and `battles` read them by name.

    The set-up's options are the campaign's (campaigns.battles: the session's options), of
    the rule set the battle's resolver names when the campaign's own tables fight it. A
    battle handed to a tactical rule set names that one instead: its set-up's options are
    then those of the campaign's rule set, which the row does not name, so they must be
    the options of a rule set that runs campaigns (the tactical ones are in `tactical`)."""
    detail = row.get("detail") or {}
    setup, tactical = detail.get("setup"), detail.get("tactical")
    if isinstance(setup, dict) and isinstance(setup.get("options"), dict):
        resolver = str(row.get("resolver"))
        _campaign_ruleset_options(resolver, setup["options"])
    if isinstance(tactical, dict) and isinstance(tactical.get("options"), dict):
        resolve_options(str(tactical.get("ruleset")), tactical["options"])


def _battle_sides(row: Mapping[str, Any]) -> None:
    """The sides of a battle's set-up, as the battles read them: a key lost or a number turned
    to text is a damaged battle, which `check` names, not a command's crash later."""
    setup = (row.get("detail") or {}).get("setup")
    if isinstance(setup, dict) and "sides" in setup:
        try:
            _sides_adapter().validate_python(setup["sides"])
        except ValidationError as error:
            first = error.errors(include_url=False, include_input=False)[0]
            where = ".".join(str(part) for part in first["loc"])
            raise RulesError(f"the battle's set-up has a bad side ({where}: {first['msg'].lower()})") from None


@cache
def _sides_adapter() -> TypeAdapter[SetupSides]:
    return TypeAdapter(SetupSides)


def _campaign_ruleset_options(resolver: str, options: Mapping[str, Any]) -> None:
    from rules.registry import ruleset_ids, tactical_ids

    tactical = set(tactical_ids())
    if resolver not in tactical:
        resolve_options(resolver, options)
        return
    refusals = []
    for ruleset in ruleset_ids():
        if ruleset in tactical:
            continue
        try:
            resolve_options(ruleset, options)
            return
        except RulesError as error:
            refusals.append(error)
    if refusals:
        raise refusals[0]
    raise RulesError("no rule set that runs campaigns is installed to read the battle's set-up options")


def _turn_weather(row: Mapping[str, Any]) -> None:
    """A turn's weather is read against the card's tables (movement, terrain, luck): one they know."""
    from rules.allemagne1813.weather import weather_name
    from rules.loader import get_table

    weather = row.get("weather")
    if isinstance(weather, str):
        get_table("allemagne1813", "movement_weather").lookup(weather=weather_name(weather), unit="infantry")


# What a row's types cannot say but the rules can: options and the weather are read by name.
ROW_CHECKS: dict[str, tuple[Any, ...]] = {
    "campaign": (_campaign_options,), "battle": (_battle_options, _battle_sides), "turn": (_turn_weather,),
}
# The columns those checks read: a change of other columns (an undo's, models.history_checks)
# leaves their verdict as it was.
ROW_CHECKED_COLUMNS: dict[str, frozenset[str]] = {
    "campaign": frozenset({"ruleset", "options"}), "battle": frozenset({"resolver", "detail"}),
    "turn": frozenset({"weather"}),
}


def _reason(error: ValidationError) -> str:
    errors = error.errors(include_url=False, include_input=False)
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    where = ".".join(str(part) for part in first["loc"][:1])
    message = first["msg"][0].lower() + first["msg"][1:]
    if len(first["loc"]) > 1 and first["type"] in ("extra_forbidden", "missing"):
        # within the column's record (a roll's modifiers without "value"): the column is there
        part = "a field it has no use for" if first["type"] == "extra_forbidden" else "a field missing"
        return f"a bad value in column {where!r}: its record holds {part}"
    if first["type"] == "extra_forbidden":
        return f"an unknown column {where!r}"
    if first["type"] == "missing":
        return f"no column {where!r}"
    return f"a bad value in column {where!r}: {message}"

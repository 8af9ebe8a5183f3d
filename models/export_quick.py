"""The export's rows of a SQLite file read a thousand at a time and judged column by column.

`models.export_format` judges one row at a time with a pydantic model: some 20 µs
a row, most of it Python called back per value, which at a million events is
most of an export. Here a batch of raw sqlite3 rows is turned into columns, and
each column is judged and converted by C-level calls over the whole column
(`set(map(type, column))`, `min`/`max`, one regular expression over the column
joined, `map(orjson.loads, column)`, one pydantic call over a JSON column's
values), compiled once per table from the same types, ranges and shapes the
row model is built from.

This judge only ever says "these rows are what the row model would accept, and
here they are as it would write them" or "I cannot tell" (`Unsure`): anything
outside the forms Adjutant itself writes (a date with an offset, a Boolean
stored as 2, text in an integer column, a value near a limit) is left to the
row model, which then accepts it or names the row and the column as before.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from datetime import date
from functools import cache
from itertools import repeat
from operator import add, itemgetter
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

import orjson
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    DateTime,
    Integer,
    String,
    Table,
    TypeDecorator,
)

from models.columns import UTCDateTime
from models.export_shapes import Check, batch_check
from models.export_format import (
    DOMAIN,
    INT32,
    INT64,
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH,
    MAX_TEXT,
    ROW_CHECKS,
    ROW_CONFIG,
    SHAPES,
    STORED_DICE,
    _sane_json,
    dice_refusal,
)

Values = Sequence[Any]
Judge = Callable[[Values], Sequence[Any]]

# A JSON text this short cannot hold JSON more than MAX_JSON_DEPTH deep, and one this
# short cannot grow past MAX_JSON_BYTES when written again (a character is at most
# 4 bytes of UTF-8, a number at most doubles: 1e2 -> 100.0).
SHALLOW_CHARS = 2 * MAX_JSON_DEPTH + 1
SMALL_CHARS = MAX_JSON_BYTES // 8
# JSON texts this short on average in a batch are looked for again (models.export_quick `_json`).
SHORT_JSON = 32

# How SQLAlchemy writes a datetime and a date into SQLite; what it reads back with fromisoformat.
STORED_DATES = r"\d{4}-\d\d-\d\d"
# The time of day within its ranges, so that only the dates need reading (`_real_dates`).
STORED_TIMES = r" (?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}"
# Days every month has, in the years 1000 to 9999: a batch of dates all of this form holds
# only real days, with none to read (`_real_dates`); any other batch is read as before.
EVERY_MONTHS_DATES = r"[1-9]\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])"


class Unsure(Exception):
    """A value outside the forms Adjutant writes: the row model must judge the batch."""


class TableJudge:
    """Raw rows of a table (its columns in `table.columns` order) to the rows the export
    writes; raises Unsure where the row model must look."""

    def __init__(self, table: Table, judges: list[Judge]) -> None:
        self.judges = judges
        # str(): a reflected table's names (export --salvage) are SQLAlchemy's quoted_name, a
        # subclass of str that orjson refuses as a key.
        self.row = _row_maker([str(column.name) for column in table.columns])

    def __call__(self, raw: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
        if not raw:
            return []
        columns = zip(*raw, strict=True)
        return list(map(self.row, *[judge(values) for judge, values in zip(self.judges, columns, strict=True)]))


def table_judge(table: Table, *, depth_in_text: bool = False) -> TableJudge | None:
    """The judge of `table`'s raw rows; None when a column's type is one it does not know.

    `depth_in_text`: how deep a JSON value nests is left to the caller, who reads it from the
    rows' text (models.exchange: the export). Made once per table (a judge holds nothing of the
    rows it judged): the export reads a long table in a few hundred pieces (models.export_split)."""
    return _table_judge(table, depth_in_text)


@cache
def _table_judge(table: Table, depth_in_text: bool) -> TableJudge | None:
    if table.name in ROW_CHECKS:  # rows the rule sets judge too: a handful, left to the row model
        return None
    judges = [_column_judge(table.name, column, depth_in_text) for column in table.columns]
    known = [judge for judge in judges if judge is not None]
    if len(known) != len(judges):
        return None
    return TableJudge(table, known)


def _kind(column: Column[Any]) -> Any:
    return column.type.impl_instance if isinstance(column.type, TypeDecorator) else column.type


def _row_maker(names: list[str]) -> Callable[..., dict[str, Any]]:
    """`lambda p0, p1, ...: {"id": p0, "name": p1, ...}`, compiled once per table: a dict display
    builds a row some three times quicker than dict(zip(names, values)). The names are written
    as Python string literals (repr), so any column name, even a hostile file's, is only data.
    The keys are in the order the export sorts them (orjson's OPT_SORT_KEYS, by code point):
    orjson then finds each row already sorted."""
    parameters = ", ".join(f"p{number}" for number in range(len(names)))
    ordered = sorted(range(len(names)), key=names.__getitem__)
    items = ", ".join(f"{names[number]!r}: p{number}" for number in ordered)
    return eval(f"lambda {parameters}: {{{items}}}", {"__builtins__": {}})


def _column_judge(table: str, column: Column[Any], depth_in_text: bool = False) -> Judge | None:
    kind = _kind(column)
    shape = SHAPES.get((table, column.name))
    judge: Judge | None
    if isinstance(kind, Boolean):
        judge = _booleans
    elif isinstance(kind, Integer):
        low, high = INT64 if isinstance(kind, BigInteger) else INT32
        limits = DOMAIN.get((table, column.name), {})
        judge = _integers(limits.get("ge", low), limits.get("le", high))  # as the row model's Field(**limits)
    elif isinstance(kind, DateTime):
        judge = _datetimes(column)
    elif isinstance(kind, Date):
        judge = _dates if not isinstance(column.type, TypeDecorator) else None
    elif isinstance(kind, JSON):
        adapters = _shape_adapters(table, column.name) if shape is not None else ()
        judge = _json(adapters, _shape_check(table, column.name), depth_in_text)
    elif isinstance(kind, String):
        if shape is None:
            judge = _texts(None)
        elif shape is STORED_DICE:
            judge = _dice
        elif get_origin(shape) is Literal:
            judge = _texts(frozenset(get_args(shape)))
        else:
            judge = None
    else:
        judge = None
    if judge is None or not column.nullable:
        return judge
    return _or_none(judge)


def _or_none(judge: Judge) -> Judge:
    def nullable(values: Values) -> Sequence[Any]:
        if None not in values:
            return judge(values)
        if values.count(None) == len(values):  # a column nobody filled (a roll's battle)
            return values
        judged = iter(judge([value for value in values if value is not None]))
        return [None if value is None else next(judged) for value in values]

    return nullable


# A batch's values are what sqlite3 hands back: int, float, str, bytes or None, never a subclass.
# So `sum` over a column is a whole number exactly when every value is one (any float makes it
# a float; text, bytes and None refuse to be added), and joining a column succeeds exactly when
# every value is text: each a C-level pass, where `set(map(type, values))` calls `type` per value.


def _whole_numbers(values: Values) -> None:
    try:
        total = sum(values)
    except TypeError:
        raise Unsure from None
    if type(total) is not int:
        raise Unsure


def _joined(values: Values, separator: str = "") -> str:
    try:
        return separator.join(values)
    except TypeError:
        raise Unsure from None


def _integers(low: int, high: int) -> Judge:
    def integers(values: Values) -> Values:
        _whole_numbers(values)
        if values and (min(values) < low or max(values) > high):
            raise Unsure
        return values

    return integers


_BOOLEANS = {0: False, 1: True}


def _booleans(values: Values) -> list[bool]:
    # SQLAlchemy reads any number as a Boolean; Adjutant writes only 0 and 1.
    _whole_numbers(values)
    try:
        return list(map(_BOOLEANS.__getitem__, values))
    except KeyError:
        raise Unsure from None


def _texts(allowed: frozenset[str] | None) -> Judge:
    def texts(values: Values) -> Values:
        # No value is longer than the batch's text joined: most batches are cleared by that alone.
        if len(_joined(values)) > MAX_TEXT and max(map(len, values)) > MAX_TEXT:
            raise Unsure
        if allowed is not None and not set(values) <= allowed:
            raise Unsure
        return values

    return texts


def _dice(values: Values) -> Values:
    # A million rolls hold a handful of expressions: each distinct one judged once.
    _joined(values)  # every value text
    if any(map(dice_refusal, set(values))):
        raise Unsure
    return values


def _matching(values: Values, time: str = "") -> str:
    """Every value in the one stored form, a date then `time` (one regular expression over them
    all, joined by newlines, which is returned) on a real day (the 31st of February is refused,
    as `fromisoformat` refuses it)."""
    text = _joined(values, "\n")
    if not values:
        return text
    if _batch_pattern(EVERY_MONTHS_DATES + time).fullmatch(text) is None:
        if _batch_pattern(STORED_DATES + time).fullmatch(text) is None:
            raise Unsure
        _real_dates(values)
    return text


_DAY = itemgetter(slice(0, 10))


def _real_dates(values: Values) -> None:
    """Each distinct day read once: a batch of moments falls on a few days. With its
    time of day in range (STORED_TIMES), a moment is one `datetime.fromisoformat`
    reads exactly when its day is one `date.fromisoformat` reads."""
    try:
        for _ in map(date.fromisoformat, set(map(_DAY, values))):
            pass
    except ValueError:
        raise Unsure from None


@cache
def _batch_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(f"(?:{pattern}\n)*{pattern}", re.ASCII)


def _datetimes(column: Column[Any]) -> Judge | None:
    """ISO 8601 as `datetime.isoformat` writes what SQLAlchemy reads: "2025-01-01T00:00:07+00:00"
    (no microseconds when they are zero), the offset only for the UTC type that adds it."""
    if _utc(column):
        offset = "+00:00"
    elif isinstance(column.type, TypeDecorator):
        return None
    else:
        offset = ""

    def datetimes(values: Values) -> list[str]:
        text = _matching(values, STORED_TIMES) + "\n"
        if not values:
            return []
        return text.replace(" ", "T").replace(".000000\n", "\n").replace("\n", offset + "\n").split("\n")[:-1]

    return datetimes


def _utc(column: Column[Any]) -> bool:
    """A moment read back in UTC (with its offset): the described tables' type (models.columns),
    or SQLModel's own where SQLModel is imported (a class's table: SQLModel builds none otherwise)."""
    sqltypes = sys.modules.get("sqlmodel.sql.sqltypes")
    own = getattr(sqltypes, "UTCDateTime", UTCDateTime)
    return isinstance(column.type, (UTCDateTime, own))


def _dates(values: Values) -> Values:
    _matching(values)
    return values


@cache
def _shape_adapters(table: str, column: str) -> tuple[TypeAdapter[Any], ...]:
    """The shape of one JSON column over a whole batch, with the row model's own strictness.

    A union (an event's changes, or an undo's target) is tried first as its first
    member alone, which most batches are wholly, at half the cost of the union;
    a batch that is not is judged by the union itself."""
    shape = SHAPES[(table, column)]
    first = get_args(shape)[:1] if get_origin(shape) in (Union, UnionType) else ()
    return tuple(TypeAdapter(list[member], config=ROW_CONFIG) for member in (*first, shape))  # type: ignore[valid-type]  # a type made at run time, from the column's shape


@cache
def _shape_check(table: str, column: str) -> Check | None:
    """The C-level check of the same shape (models.export_shapes), first member of a union first;
    None for a column without a shape, or with one it leaves to pydantic."""
    shape = SHAPES.get((table, column))
    if shape is None:
        return None
    first = get_args(shape)[0] if get_origin(shape) in (Union, UnionType) else shape
    return batch_check(first)


def _json(adapters: tuple[TypeAdapter[Any], ...], quick: Check | None = None, depth_in_text: bool = False) -> Judge:
    """JSON text as SQLAlchemy reads it (orjson), sane as `_sane_json` wants it, and of its
    column's shape (a JSON object where none is named): by `quick` where it can tell, else
    by pydantic. With `depth_in_text`, the depth is the caller's to check (`table_judge`)."""
    # A batch this long in all may hold a value to look at closely: one too long, or (with its
    # depth judged here) one long enough to nest too deep.
    bound = SMALL_CHARS if depth_in_text else SHALLOW_CHARS

    def json_values(values: Values) -> list[Any]:
        if not values:
            return []
        total = len(_joined(values))  # text, all of it: orjson would read bytes too
        if total < SHORT_JSON * len(values):
            # Short texts (a roll's raw dice, its modifiers) come again and again: each distinct
            # one is parsed and judged once (every check is of one value at a time), and the
            # rows that hold it share its value.
            distinct = dict.fromkeys(values)
            if len(distinct) < len(values):
                texts = list(distinct)
                return list(map(dict(zip(texts, judged(texts, sum(map(len, texts))))).__getitem__, values))
        return judged(values, total)

    def judged(values: Values, total: int) -> list[Any]:
        # One call per text: joining a batch's texts into one array to parse would need
        # SQLite's json_valid of each first (a text can close and open brackets), which
        # costs more than the calls it saves.
        try:
            parsed = list(map(orjson.loads, values))
        except orjson.JSONDecodeError:
            raise Unsure from None
        if total > bound:
            longest = max(map(len, values))
            deep = not depth_in_text and longest > SHALLOW_CHARS and _brackets(values) > MAX_JSON_DEPTH
            if longest > SMALL_CHARS or deep:
                for text, value in zip(values, parsed, strict=True):
                    if len(text) > SMALL_CHARS or text.count("[") + text.count("{") > MAX_JSON_DEPTH:
                        try:
                            _sane_json(value)  # the exact check, for the few values the bound does not clear
                        except ValueError:
                            raise Unsure from None
        if not adapters:
            if set(map(type, parsed)) != {dict}:
                raise Unsure
        elif not (quick is not None and quick(parsed)) and not any(_valid(adapter, parsed) for adapter in adapters):
            raise Unsure
        return parsed

    return json_values


def _valid(adapter: TypeAdapter[Any], values: list[Any]) -> bool:
    try:
        adapter.validate_python(values)
    except ValidationError:
        return False
    return True


def _brackets(values: Values) -> int:
    """The most opening brackets in one value: a bound on its depth."""
    return max(map(add, map(str.count, values, repeat("[")), map(str.count, values, repeat("{"))))

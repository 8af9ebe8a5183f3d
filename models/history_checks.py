"""What an event's changes may write back, judged whole before an undo or a redo writes anything.

An event's changes are JSON in the event log (models.history). A campaign made by
Adjutant only ever records values its own tables held, but an imported export or a
file from another hand may hold anything there: an import checks each row against
the export format (models.export_format) and an event's changes only as a list of
{"table", "key", "before", "after"}. So every value an undo or a redo would write
(and every key it would look a row up by) is judged here by the same per-column
types and ranges an import judges a row by: SP 0 to 9,999, a turn 1 to 10,000,
an integer within PostgreSQL's INTEGER, the text a text column takes, the JSON
shape a JSON column takes. On top of those, no text with a control character
(an escape, a NUL, a C1 control: what `campaigns.text.shown` strips) is written:
no form types one, and PostgreSQL refuses a NUL that SQLite would store.

A change that does not pass names the event's change and the value in one phrase
(`BadHistory`); the store turns it into one sentence and writes nothing.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy import Connection, Table, and_, select

from models import table_metadata
from models.errors import StoreError
from models.export_format import ROW_CHECKED_COLUMNS, ROW_CHECKS, ROW_CONFIG, BadRow, column_type, validate_row
from models.values import from_json, row_to_json

CHANGE_KEYS = frozenset({"table", "key", "before", "after"})
# Written by Adjutant's bookkeeping alone, never by an action (models.history).
UNWRITTEN_TABLES = frozenset({"event"})
UNWRITTEN_COLUMNS = frozenset({("campaign", "version")})
ONE_ROW_TABLES = frozenset({"campaign"})  # made with the campaign: an action changes it, never adds or removes it
# C0 controls but tab and newline, DEL, C1 controls, lone surrogates: campaigns.text's set.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
SHOWN = 40  # characters of a value a refusal quotes


_SHALLOW = reprlib.Repr()
_SHALLOW.maxlevel = 3


class BadHistory(StoreError):
    """An event whose changes undo or redo cannot write back: the phrase says which and why."""


def shown(value: Any) -> str:
    """A value as a refusal quotes it: Python's repr, which spells out every control character, cut short
    (a value nested too deep for repr, as orjson reads up to 1,024 levels: its first levels)."""
    try:
        text = repr(value)
    except RecursionError:
        text = _SHALLOW.repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def cut(reason: str) -> str:
    """A reason given by pydantic or a rule set, which may quote what a hostile file stored: without
    control characters, and cut short."""
    reason = CONTROL.sub("", reason)
    return reason if len(reason) <= 3 * SHOWN else reason[: 3 * SHOWN - 3] + "..."


def check(connection: Connection, changes: Any, *, undo: bool) -> None:
    """BadHistory unless every change of `changes` can be written back: its `before` on undo,
    its `after` on redo. `connection` reads the rows a rule set judges whole (models.export_format.ROW_CHECKS)."""
    if not isinstance(changes, list):
        raise BadHistory(f"its record of changes is {_kind(changes)}, not a list of changes")
    for number, change in enumerate(changes, start=1):
        try:
            _check(connection, change, undo=undo)
        except BadHistory as error:
            raise BadHistory(f"its change {number} of {len(changes)} {error}") from None


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a text", bool: "a Boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _check(connection: Connection, change: Any, *, undo: bool) -> None:
    if not isinstance(change, dict) or set(change) != CHANGE_KEYS:
        raise BadHistory("is not a change of one row (a table, a key, the row before and after)")
    table = _writable(change["table"])
    key = _key(table, change["key"])
    before, after = change["before"], change["after"]
    for side in (before, after):
        if side is not None and not isinstance(side, dict):
            raise BadHistory(f"holds {_kind(side)} where a row of {table.name} belongs")
    if before is None and after is None:
        raise BadHistory(f"changes nothing in {table.name}")
    target = before if undo else after
    if before is not None and after is not None:
        _update(connection, table, key, before, after, target)
    else:
        row = before if before is not None else after
        if table.name in ONE_ROW_TABLES:
            raise BadHistory(f"would add or remove the {table.name}'s own row, which no action does")
        _columns(table, row)
        disagreeing = [name for name in key if name in row and row[name] != key[name]]
        if disagreeing:
            raise BadHistory(f"has a row whose {disagreeing[0]} is not its key's ({shown(row[disagreeing[0]])})")
        if target is not None:
            whole = {**key, **target}
            try:
                validate_row(table, whole)  # the import's row model, built once for the table
            except BadRow as error:
                _values(table, whole)  # the value at fault, named; else the row's fault (a column missing)
                raise BadHistory(f"would write a row of {table.name} with {cut(error.reason)}") from None
            _texts_plain(table, whole)


def _writable(name: Any) -> Table:
    table = table_metadata().tables.get(name) if isinstance(name, str) else None
    if table is None:
        raise BadHistory(f"names a table no campaign has, {shown(name)}")
    if table.name in UNWRITTEN_TABLES:
        raise BadHistory(f"would write the {table.name} table, which no action writes")
    return table


def _key(table: Table, key: Any) -> dict[str, Any]:
    names = {column.name for column in table.primary_key.columns}
    if not isinstance(key, dict) or set(key) != names:
        raise BadHistory(f"does not name a row of {table.name} by its key ({', '.join(sorted(names))})")
    for name, value in key.items():
        if value is None:
            raise BadHistory(f"names a row of {table.name} with no {name}")
        _value(table, name, value, "names its row by")
    return key


def _columns(table: Table, row: Mapping[str, Any]) -> None:
    for name in row:
        if name not in table.c:
            raise BadHistory(f"names a column {table.name} does not have, {shown(name)}")
        if (table.name, name) in UNWRITTEN_COLUMNS:
            raise BadHistory(f"would write {table.name}.{name}, which only Adjutant's bookkeeping writes")


def _update(
    connection: Connection, table: Table, key: dict[str, Any], before: dict[str, Any], after: dict[str, Any],
    target: dict[str, Any],
) -> None:
    if set(before) != set(after) or not before:
        raise BadHistory(f"does not hold the same columns of {table.name} before and after")
    _columns(table, target)
    keys = [name for name in target if table.c[name].primary_key]
    if keys:
        raise BadHistory(f"would change {table.name}.{keys[0]}, a row's key, which no action changes")
    _values(table, target)
    if not ROW_CHECKED_COLUMNS.get(table.name, frozenset()).isdisjoint(target):
        # A rule set judges what it reads of the row whole: the row as the write would leave it.
        try:
            stored = connection.execute(
                select(table).where(and_(*(table.c[name] == from_json(table.c[name], v) for name, v in key.items())))
            ).mappings().first()
        except ValueError:  # JSON orjson refuses, in the row a hostile file holds
            raise BadHistory(f"would change a row of {table.name} that holds values Adjutant cannot read") from None
        if stored is not None:
            whole = {**row_to_json(table, stored), **target}
            for rule in ROW_CHECKS[table.name]:
                try:
                    rule(whole)
                except Exception as error:  # noqa: BLE001 - a rule set's refusal of any kind is the history's fault here
                    raise BadHistory(f"would write a row of {table.name} its rule set refuses: {cut(str(error))}") from None


def _values(table: Table, row: Mapping[str, Any]) -> None:
    for name, value in row.items():
        _value(table, name, value, "would write")


def _value(table: Table, name: str, value: Any, doing: str) -> None:
    try:
        _adapter(table, name).validate_python(value)
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        message = first["msg"].removeprefix("Value error, ")
        inside = "".join(f"[{shown(part)}]" for part in first["loc"])
        reason = f"{f'at {inside}: ' if inside else ''}{cut(message[:1].lower() + message[1:])}"
        raise BadHistory(f"{doing} {table.name}.{name} = {shown(value)} ({reason})") from None
    _text_plain(table, name, value, doing)


def _texts_plain(table: Table, row: Mapping[str, Any]) -> None:
    for name, value in row.items():
        _text_plain(table, name, value, "would write")


def _text_plain(table: Table, name: str, value: Any, doing: str) -> None:
    if any(CONTROL.search(text) for text in _texts(value)):
        raise BadHistory(f"{doing} {table.name}.{name} = {shown(value)} (text with a control character, which no form types)")


def _texts(value: Any) -> Iterator[str]:
    """Every text in a value: itself, or the keys and texts of a JSON document (already bounded in depth)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item_key, item in value.items():
            yield from _texts(item_key)
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


@cache
def _adapter(table: Table, name: str) -> TypeAdapter[Any]:
    """One column's type as an import's row model has it."""
    return TypeAdapter(column_type(table.name, table.c[name]), config=ROW_CONFIG)

"""The units each event changed, `event_unit` (migration 0013): the history's filter finds the
events that moved a unit with its stack, whose description names the stack's general and not
each unit, without reading every event's changes (a million of them).

One row (unit, event) for each unit an action inserted, updated or deleted (a move, a loss, a
mark). Its primary key in that order answers "the newest events of these units" from the index
alone; `ix_event_unit_event` finds the rows of the events a rewind forgets. Undo and redo events
change no row of their own (they name the action) and have none: the action has them.

No triggers (the schema gate refuses code in a file): the store writes an action's rows with its
event (`record`), a rewind forgets those of the events it forgets (`forget`), and rows written in
bulk (an import) are indexed once at the end (`rebuild`), as the search index and the dice tally
are. Not exported: it is derived from the events, and an import builds it anew. A side's club
role reads none of it (models.access): it tells every move of both sides.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, text

TABLE = "event_unit"
MANY_UNITS = 50  # a word that names more units than this finds them by the events' own words

INSERT = text(f"INSERT INTO {TABLE} (unit, event) VALUES (:unit, :event)")
NEWEST = text(
    f"SELECT DISTINCT event FROM {TABLE} WHERE unit IN :units AND event < :before ORDER BY event DESC LIMIT :limit"
).bindparams(bindparam("units", expanding=True))


def units_changed(changes: Any) -> list[str]:
    """The ids of the units an action's changes insert, update or delete, in order, once each.
    Anything else (an undo's or a redo's reference, a hand-made file's oddities) names none."""
    if not isinstance(changes, list):
        return []
    found: dict[str, None] = {}
    for change in changes:
        if isinstance(change, dict) and change.get("table") == "unit":
            key = change.get("key")
            if isinstance(key, dict) and isinstance(key.get("id"), str):
                found[key["id"]] = None
    return list(found)


def present(connection: Connection) -> bool:
    """Whether the database has the table, remembered once found on a connection (an action must
    not inspect the schema each time; an older schema is asked again, as a migration may come)."""
    if connection.info.get(TABLE):
        return True
    from sqlalchemy import inspect

    found = bool(inspect(connection).has_table(TABLE))
    if found:
        connection.info[TABLE] = True
    return found


def record(connection: Connection, event: int, changes: Any) -> None:
    """Index the units the action `event` changed (in its transaction)."""
    units = units_changed(changes)
    if units and present(connection):
        connection.execute(INSERT, [{"unit": unit, "event": event} for unit in units])


def forget(connection: Connection, first: int) -> None:
    """Forget the rows of the events from `first` on (they are being deleted)."""
    if present(connection):
        connection.execute(text(f"DELETE FROM {TABLE} WHERE event >= :first"), {"first": first})


# Every action's units, read by the database's own JSON functions (as migration 0013 fills the
# table): an import of a million events indexes them without bringing one into Python. A history
# that is not a JSON list (a hand-made file's) names none.
FILL = {
    "sqlite": (
        f"INSERT INTO {TABLE} (unit, event) "
        "SELECT DISTINCT json_extract(c.value, '$.key.id'), e.id FROM event AS e, "
        "json_each(CASE WHEN json_valid(e.changes) AND json_type(e.changes) = 'array' THEN e.changes ELSE '[]' END) AS c "
        "WHERE e.kind NOT IN ('undo', 'redo') AND json_type(c.value) = 'object' "
        "AND json_extract(c.value, '$.table') = 'unit' AND json_type(c.value, '$.key.id') = 'text'"
    ),
    "postgresql": (
        f"INSERT INTO {TABLE} (unit, event) "
        "SELECT DISTINCT c.value -> 'key' ->> 'id', e.id FROM event AS e, "
        "json_array_elements(CASE WHEN json_typeof(e.changes) = 'array' THEN e.changes ELSE '[]'::json END) AS c(value) "
        "WHERE e.kind NOT IN ('undo', 'redo') AND json_typeof(c.value) = 'object' "
        "AND c.value ->> 'table' = 'unit' AND json_typeof(c.value -> 'key' -> 'id') = 'string'"
    ),
}


def rebuild(connection: Connection) -> None:
    """Index every event anew (after rows were written in bulk: an import)."""
    if not present(connection):
        return
    connection.execute(text(f"DELETE FROM {TABLE}"))
    connection.execute(text(FILL[connection.dialect.name]))


def matching_units(connection: Connection, needle: str, among: list[str] | None = None) -> list[str] | None:
    """The ids of the units whose id or name holds `needle` (any case), at most MANY_UNITS; None
    when more do (a word as common as "inf" is no unit's). `among`: only these units."""
    like = "ILIKE" if connection.dialect.name == "postgresql" else "LIKE"  # SQLite's LIKE ignores case
    pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    where = f"(id {like} :p ESCAPE '\\' OR name {like} :p ESCAPE '\\')"
    query = text(f"SELECT id FROM unit WHERE {where}{' AND id IN :among' if among is not None else ''} LIMIT :n")  # noqa: S608 - fixed names
    values: dict[str, object] = {"p": pattern, "n": MANY_UNITS + 1}
    if among is not None:
        if not among:
            return []
        query = query.bindparams(bindparam("among", expanding=True))
        values["among"] = among
    found = list(connection.execute(query, values).scalars())
    return None if len(found) > MANY_UNITS else found


def newest_events(connection: Connection, units: list[str], limit: int, before: int | None = None) -> list[int]:
    """The newest `limit` events that changed one of `units`, older than `before` if given, newest first."""
    if not units or not present(connection):
        return []
    values = {"units": units, "limit": limit, "before": 2**63 - 1 if before is None else before}
    return list(connection.execute(NEWEST, values).scalars())

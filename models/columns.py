"""Each table's columns as plain data, read into SQLAlchemy Core tables for `export` and `check`.

The SQLModel classes (models.tables) define the tables, and `export` needs no more
of them than what is written here: each column's name, type, whether it may be
empty, whether it is part of the key and its default in the database. Building
the classes, with SQLModel and SQLAlchemy's ORM imported for them, is a third of
a second of every `adjutant export`; these tables are built in a few
milliseconds, with the same column types, so rows are read, judged and written
exactly as through the classes' tables.

tests/models/test_columns.py compares this description with the classes' tables
column by column: a migration that changes a table fails it, and it prints the
line to write here.

A column is "name kind", then "key" (part of the primary key), "null" (may be
empty) and "default=TEXT" (its server default), in the table's column order.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Column, Date, DateTime, Integer, MetaData, String, Table
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

TABLES: dict[str, str] = {
    "activation": (
        "id integer key, turn integer, army text, side text, place text, action text, members json, "
        "cost integer, loc text, ruling text, mp_spent integer"
    ),
    "army": "id text key, side text, name text, commander text null",
    "battle": (
        "id integer key, turn integer, location text, participants json, rounds integer, losses json, "
        "result text null, resolver text default=allemagne1813, status text, detail json"
    ),
    "campaign": (
        "id integer key, name text, ruleset text, scenario text, dice_seed bigint, dice_mode text, "
        "dice_next_index integer, turn integer, phase text, start_date date, turn_days integer, turns integer, "
        "options json, version integer, created moment, uid text null, dice_commitment text null, "
        "dice_salt text null, fog_side text null, fog_turn integer null"
    ),
    "command_point_roll": "id integer key, turn integer, army text, points integer, dice_roll integer null",
    "command_point_spend": (
        "id integer key, turn integer, army text, action text, cost integer, balance integer, note text"
    ),
    "dice_roll": (
        "id integer key, event integer null, purpose text, dice text, raw json, modifiers json, result integer, "
        "mode text, stream_index integer null, by text, when moment, battle integer null"
    ),
    "event": "id integer key, when moment, kind text, description text, changes json, undone boolean",
    "event_note": "id integer key, event integer, kind text, text text, when moment",
    "general": (
        "id text key, name text, nation text, army text null, rank integer, command_value integer, "
        "tactical_bonus integer, location text, march_note text, superior text null"
    ),
    "nation": "id text key, side text",
    "pontoon": "id integer key, river text, place_a text, place_b text, turn integer, note text",
    "side": "id text key, name text, position integer",
    "side_order": (
        "id integer key, side text, turn integer, kind text, stack text, place text, detail json, text text, "
        "status text, ruling text, written moment"
    ),
    "sighting": (
        "id integer key, side text, turn integer, place text, enemy_side text, source text, result integer null, "
        "learned json, strength_points integer null, note text"
    ),
    "turn": "number integer key, date date, weather text null, weather_source text null, dice_roll integer null",
    "unit": (
        "id text key, name text, nation text, kind text, general text null, strength_points integer, "
        "cohesion integer, artillery_bonus integer, cavalry_bonus integer, fatigued boolean, entrenched boolean, "
        "out_of_command boolean, location text, march_note text"
    ),
}


class UTCDateTime(TypeDecorator[datetime]):
    """A moment read back in UTC: how SQLModel's UTCDateTime (sqlmodel.sql.sqltypes), the type
    of the classes' `datetime` columns, reads one, without importing SQLModel for it."""

    impl = DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:  # stored in UTC without an offset, as SQLite holds it
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


KINDS: dict[str, Any] = {
    "integer": Integer, "bigint": BigInteger, "boolean": Boolean, "text": String, "date": Date,
    "moment": UTCDateTime, "json": JSON,
}


@cache
def tables() -> list[Table]:
    """Every table of a campaign, by name (the order of the export's keys)."""
    metadata = MetaData()
    return [Table(name, metadata, *map(_column, TABLES[name].split(", "))) for name in sorted(TABLES)]


def _column(spec: str) -> Column[Any]:
    name, kind, *flags = spec.split(" ")
    defaults = [flag.removeprefix("default=") for flag in flags if flag.startswith("default=")]
    return Column(
        name,
        KINDS[kind](),
        primary_key="key" in flags,
        nullable="null" in flags,
        server_default=defaults[0] if defaults else None,
    )

"""Engines for campaign databases, with SQLite set up so that no committed action is lost.

SQLite runs in rollback-journal mode (journal_mode=DELETE) with synchronous=FULL:
between actions the `.campaign` file alone holds every committed action, with no
`-wal` file beside it that a copy, a mail attachment or a network share could
leave behind, and FULL syncs the journal and the file at every commit so that
neither a killed process nor a power cut loses a committed action. WAL with
synchronous=NORMAL would commit faster but can drop the last actions on power
loss, and keeps them in the `-wal` file until a checkpoint. One action commits in
a few milliseconds here (see benchmarks/bench_storage.py), well within budget.

JSON columns are read with orjson: quicker than the standard library, and it
refuses the NaN and Infinity that no campaign holds but a hand-made file might
(models.export_format counts on it). Every connection runs with trusted_schema
off (models.gate explains why).

SQLAlchemy, not the sqlite3 module, emits BEGIN, so DDL (migrations) is
transactional; a write opens with BEGIN IMMEDIATE, taking the write lock at once,
so two umpires on one file queue instead of failing mid-action.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL

WRITE = {"adjutant_write": True}
BUSY_TIMEOUT_SECONDS = 10


def make_engine(url: URL, *, existing: Path | None = None) -> Engine:
    """An engine on `url`. `existing`: the SQLite file the engine opens, which must be there: a
    connection made once it has gone (deleted, or a view of the past being removed as a
    screen still reads it) fails instead of creating an empty file in its place."""
    if url.get_backend_name() != "sqlite":
        return create_engine(url, connect_args={"connect_timeout": BUSY_TIMEOUT_SECONDS})
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS}, json_deserializer=orjson.loads)
    if existing is not None:
        uri = f"{existing.absolute().as_uri()}?mode=rw"

        def _no_creating(_dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> None:
            cargs[:] = [uri]
            cparams.pop("database", None)
            cparams["uri"] = True

        event.listen(engine, "do_connect", _no_creating)
    event.listen(engine, "connect", _set_up_sqlite)
    event.listen(engine, "begin", _begin_sqlite)
    return engine


def read_only_engine(path: Path, *, immutable: bool = False) -> Engine:
    """An engine on a campaign file that SQLite opens read-only: it cannot change a byte.
    `immutable` also ignores the file's journal or WAL files (see models.gate.verify)."""
    uri = f"{path.absolute().as_uri()}?mode=ro" + ("&immutable=1" if immutable else "")
    engine = create_engine(URL.create("sqlite", database=uri, query={"uri": "true"}), json_deserializer=orjson.loads)
    event.listen(engine, "connect", _set_up_read_only)
    event.listen(engine, "begin", _begin_sqlite)
    return engine


def writer(engine: Engine) -> Engine:
    """The engine whose transactions write (BEGIN IMMEDIATE on SQLite)."""
    return engine.execution_options(**WRITE)


def _set_up_sqlite(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None
    harden(dbapi_connection)
    cursor = dbapi_connection.cursor()
    for pragma in ("foreign_keys = ON", "journal_mode = DELETE", "synchronous = FULL"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def harden(connection: sqlite3.Connection) -> None:
    """Run nothing the file asks for: no functions with side effects from its schema, no
    writes to the schema itself, no extensions."""
    connection.execute("PRAGMA trusted_schema = OFF")
    setconfig = getattr(connection, "setconfig", None)  # Python 3.12+
    if setconfig is not None:
        setconfig(sqlite3.SQLITE_DBCONFIG_DEFENSIVE, True)  # type: ignore[attr-defined]  # Python 3.12+, checked above
        setconfig(sqlite3.SQLITE_DBCONFIG_TRUSTED_SCHEMA, False)  # type: ignore[attr-defined]  # Python 3.12+, checked above
    # Without setconfig (Python 3.11), writable_schema stays off, its default, and extension
    # loading stays disabled, Python's default: nothing in Adjutant turns either on.


def _set_up_read_only(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None
    harden(dbapi_connection)


def _begin_sqlite(connection: Any) -> None:
    write = connection.get_execution_options().get("adjutant_write", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

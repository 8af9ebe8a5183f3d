"""The schema version of a campaign and the Alembic migrations that bring it up to date.

Alembic runs from code, on a connection the caller holds inside its own
transaction, so a migration commits or rolls back as a whole. It is imported
only to migrate: opening a campaign at the current schema reads the version
table and the names of the revision files (``NNNN_what.py``), nothing more.

A new campaign starts from an empty database, and from an empty database the
migrations always send the same statements. So the first time a process builds
a schema from nothing, the statements Alembic sends are kept, and the next
empty database of the same kind gets them again as SQL, without Alembic loading
its scripts and compiling every operation (0.17 s of CPU on a file, a tenth of
that after). The statements are kept by what could make them differ: the
database (SQLite, or a PostgreSQL server and the extensions the database has,
since 0003 creates pg_trgm when it can), the revision, and only when none of
them failed.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, event, inspect, text

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "alembic_version"
REVISION_PATTERN = re.compile(r"[0-9]{4}")  # ASCII digits only: str.isdigit() also takes "²"


@cache
def revisions() -> tuple[str, ...]:
    """Every revision, oldest first: "0001", "0002"... (tests check Alembic agrees)."""
    return tuple(
        sorted(path.name[:4] for path in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))
    )


def head() -> str:
    return revisions()[-1]


def is_known(revision: str) -> bool:
    return revision in revisions()


def schema_number(revision: str) -> int:
    """Revisions are named "0001", "0002"...: the number of the schema."""
    return int(revision) if REVISION_PATTERN.fullmatch(revision) else 0


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at; None when it has no Alembic version table."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    return connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


# (what the statements depend on) -> the statements, as the driver was given them, that built
# that schema from nothing: (SQL, parameters or None, executemany)
_Statement = tuple[str, Any, bool]
_FROM_NOTHING: dict[tuple[Any, ...], tuple[_Statement, ...]] = {}
_from_nothing_lock = threading.Lock()


def upgrade(connection: Connection, revision: str = "head") -> None:
    """Migrate inside the caller's transaction on `connection`."""
    target = head() if revision == "head" else revision
    tables = inspect(connection).get_table_names()
    if VERSION_TABLE in tables and current_revision(connection) == target:
        return  # nothing to do: Alembic would load every script to find that out
    if tables:
        _alembic_upgrade(connection, revision)
        return
    key = _empty_key(connection, target)
    with _from_nothing_lock:
        kept = _FROM_NOTHING.get(key)
    if kept is not None:
        cursor = connection.connection.cursor()
        try:
            for statement, parameters, many in kept:
                if many:
                    cursor.executemany(statement, parameters)
                elif parameters is None:
                    cursor.execute(statement)
                else:
                    cursor.execute(statement, parameters)
        finally:
            cursor.close()
        return
    sent: list[_Statement] = []
    failed: list[bool] = []

    def mine(context: Any) -> bool:
        return context is not None and context.root_connection is connection

    def execute(_cursor: Any, statement: str, parameters: Any, context: Any) -> None:
        if mine(context):
            sent.append((statement, parameters, False))

    def execute_no_params(_cursor: Any, statement: str, context: Any) -> None:
        if mine(context):
            sent.append((statement, None, False))

    def executemany(_cursor: Any, statement: str, parameters: Any, context: Any) -> None:
        if mine(context):
            sent.append((statement, parameters, True))

    def error(context: Any) -> None:
        failed.append(True)  # a refused statement (pg_trgm where it cannot be made): keep nothing

    engine = connection.engine
    hooks: list[tuple[str, Callable[..., Any]]] = [("do_execute", execute), ("do_execute_no_params", execute_no_params),
             ("do_executemany", executemany), ("handle_error", error)]
    for name, hook in hooks:
        event.listen(engine, name, hook)
    try:
        _alembic_upgrade(connection, revision)
    finally:
        for name, hook in hooks:
            event.remove(engine, name, hook)
    if not failed:
        with _from_nothing_lock:
            _FROM_NOTHING[key] = tuple(sent)


def _empty_key(connection: Connection, target: str) -> tuple[Any, ...]:
    """What the statements that build `target` on this empty database depend on."""
    dialect = connection.dialect.name
    if dialect == "sqlite":
        return dialect, target
    url = connection.engine.url
    extensions = tuple(connection.exec_driver_sql("SELECT extname FROM pg_extension ORDER BY 1").scalars())
    return dialect, url.host, url.port, url.username, extensions, target


def _alembic_upgrade(connection: Connection, revision: str) -> None:
    from alembic import command

    command.upgrade(alembic_config(connection), revision)


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config

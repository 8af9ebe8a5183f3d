"""The schema version of a campaign and the Alembic migrations that bring it up to date.

Alembic runs from code, on a connection the caller holds inside its own
transaction, so a migration commits or rolls back as a whole. It is imported
only to migrate: opening a campaign at the current schema reads the version
table and the names of the revision files (``NNNN_what.py``), nothing more.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, text

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


def upgrade(connection: Connection, revision: str = "head") -> None:
    """Migrate inside the caller's transaction on `connection`."""
    from alembic import command

    command.upgrade(alembic_config(connection), revision)


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config

"""Alembic migrations of the campaign schema, run by models.schema, never by hand.

Revisions are numbered "0001", "0002"... and each one also writes its number into
SQLite's PRAGMA user_version, so a file's schema can be read from its header
without opening it (models.sqlite_header).
"""

from __future__ import annotations

from alembic import op


def mark_sqlite_schema(number: int) -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"PRAGMA user_version = {int(number)}")

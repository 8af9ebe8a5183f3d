"""An index of the history's text, so the history filter answers without reading every event;
an index that holds the unit totals, so the order of battle is summed without reading every unit.

SQLite: FTS5 tables with the trigram tokenizer over `event.description` and
`dice_roll.purpose` (external content: they hold only the index), filled from
the rows already there. No triggers: campaign files are opened with
`trusted_schema` off, under which a trigger may not write to a virtual table, and
a trigger in a file from someone else is refused by the schema gate anyway. The
store keeps the index in step itself, in the same transaction as each change
(models.search.index_row).

PostgreSQL: GIN indexes with the `pg_trgm` operator class, which `ILIKE
'%word%'` uses. When the extension cannot be created (not installed, or the user
may not create it), full-text GIN indexes instead, which match words by their
beginning; models.search reads which one the database has.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import exc, text

from models.migrations import mark_sqlite_schema

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# Spelled out here, not imported from models.search: a migration stays as it was written.
INDEXED = {"event": "description", "dice_roll": "purpose"}


def upgrade() -> None:
    op.create_index("ix_unit_strength", "unit", ["nation", "general", "kind", "strength_points"])
    if op.get_bind().dialect.name == "sqlite":
        for table, column in INDEXED.items():
            _sqlite_index(table, column)
        mark_sqlite_schema(3)
    else:
        kind = "trgm" if _pg_trgm() else "fts"
        for table, column in INDEXED.items():
            expression = f"{column} gin_trgm_ops" if kind == "trgm" else f"to_tsvector('simple', {column})"
            op.execute(f"CREATE INDEX ix_{table}_{column}_{kind} ON {table} USING gin ({expression})")


def _sqlite_index(table: str, column: str) -> None:
    search = f"{table}_search"
    op.execute(
        f"CREATE VIRTUAL TABLE {search} USING fts5({column}, content='{table}', content_rowid='id', tokenize='trigram')"
    )
    op.execute(f"INSERT INTO {search}({search}) VALUES ('rebuild')")


def _pg_trgm() -> bool:
    """Create pg_trgm if it is not there; False when this server or user cannot."""
    connection = op.get_bind()
    if connection.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")).first():
        return True
    try:
        with connection.begin_nested():  # a refusal must not abort the migration's transaction
            connection.execute(text("CREATE EXTENSION pg_trgm"))
    except exc.DBAPIError:
        return False
    return True


def downgrade() -> None:
    op.drop_index("ix_unit_strength", "unit")
    if op.get_bind().dialect.name == "sqlite":
        for table in INDEXED:
            op.execute(f"DROP TABLE {table}_search")
        mark_sqlite_schema(2)
    else:
        for table, column in INDEXED.items():
            op.execute(f"DROP INDEX IF EXISTS ix_{table}_{column}_trgm")
            op.execute(f"DROP INDEX IF EXISTS ix_{table}_{column}_fts")

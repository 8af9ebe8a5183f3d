"""The undo and redo events found without reading the history: `ix_event_replays`.

The history's marks ("undone #15", "redone #16", campaigns.replays) and what
undo and redo act on (models.journal) read the undo and redo events. With no
index on the kind of event, that read went through every event: 0.1-0.8 s at
a million. A partial index holds the ids of those events only (a few in most
campaigns), so the read is as long as the list of undos and redos.

- `ix_event_replays` on `event(id)` WHERE kind IN ('undo', 'redo'); SQLite and
  PostgreSQL alike. A query finds it when its WHERE holds the same
  `kind IN ('undo', 'redo')`.

Going down, the index goes.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

INDEX = "ix_event_replays"
# Spelled out here, not imported from models.tables: a migration stays as it was written.
REPLAYS = sa.text("kind IN ('undo', 'redo')")


def upgrade() -> None:
    op.create_index(INDEX, "event", ["id"], sqlite_where=REPLAYS, postgresql_where=REPLAYS)
    mark_sqlite_schema(9)


def downgrade() -> None:
    op.drop_index(INDEX, "event")
    mark_sqlite_schema(8)

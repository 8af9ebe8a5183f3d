"""Bookmarks and notes on the history: an umpire marks an event, or writes a note on it.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_note",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event", sa.Integer, sa.ForeignKey("event.id", deferrable=True, initially="DEFERRED"), nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("text", sa.String, nullable=False),
        sa.Column("when", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_event_note_event", "event_note", ["event"])
    mark_sqlite_schema(5)


def downgrade() -> None:
    op.drop_index("ix_event_note_event", "event_note")
    op.drop_table("event_note")
    mark_sqlite_schema(4)

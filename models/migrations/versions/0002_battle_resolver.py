"""Battles name their resolver: the campaign's own combat table or a tactical rule set.

Battles of schema 1 could only be resolved with the Allemagne 1813 combat table,
so they get "allemagne1813".

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("battle") as batch:
        batch.add_column(sa.Column("resolver", sa.String, nullable=False, server_default="allemagne1813"))
    mark_sqlite_schema(2)


def downgrade() -> None:
    with op.batch_alter_table("battle") as batch:
        batch.drop_column("resolver")
    mark_sqlite_schema(1)

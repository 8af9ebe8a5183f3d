"""The stacks counted from an index, not from every unit: `ix_unit_location`.

The map, the battles list and the contacts count each stack's units and SP by
place and side (campaigns.stacks `counted_stacks`), and a place opened on the
map reads its own units. Without an index on the unit's place both read every
unit: about 0.1 s of CPU at 50,000 units for the count and 40 ms for a place,
on every first visit. An index on (location, nation, strength_points) holds all
the count reads, so the count and a place's units come from the index alone.

Going down, the index goes.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

INDEX = "ix_unit_location"


def upgrade() -> None:
    op.create_index(INDEX, "unit", ["location", "nation", "strength_points"])
    mark_sqlite_schema(11)


def downgrade() -> None:
    op.drop_index(INDEX, "unit")
    mark_sqlite_schema(10)

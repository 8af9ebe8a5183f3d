"""The stacks of a side listed from an index, in its order: `ix_unit_stacks`.

The reconnaissance listing (campaigns.listed) counts a side's units by place and
general, with their SP and the width of their longest row. Without an index in
that order SQLite reads every unit of the side and sorts them (about 27,000 rows
a side at 50,000 units, 47-72 ms of CPU on a first visit). An index on (nation,
location, general, kind, strength_points, name) holds every column the listing
reads, in the order it groups them: read in its order, with no sort (both sides of
50,000 units: 61 ms of CPU against 156). Its cost: a unit's SP, place, name, kind,
general or nation changed writes it too (one unit's SP and a commit, 0.79 ms of CPU
against 0.72; 2,000 units' SP in one commit, 119 ms against 91); fatigue and the
other flags are in no index.

`ix_unit_location` (0011, place first) and `ix_unit_strength` (0003, no place)
stay: neither is a prefix of this one, and the stacks count and the order of
battle read them.

Going down, the index goes.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

INDEX = "ix_unit_stacks"
COLUMNS = ["nation", "location", "general", "kind", "strength_points", "name"]


def upgrade() -> None:
    op.create_index(INDEX, "unit", COLUMNS)
    mark_sqlite_schema(12)


def downgrade() -> None:
    op.drop_index(INDEX, "unit")
    mark_sqlite_schema(11)

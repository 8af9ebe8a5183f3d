"""The units each event changed: `event_unit`, so that the history's filter finds the events
that moved a unit with its stack (their description names the stack's general, not each unit).

- `event_unit` (unit, event), its primary key in that order: the newest events of a few units
  read from the index alone (models.event_units says how it is kept in step); WITHOUT ROWID
  on SQLite, the key being the whole row.
- `ix_event_unit_event` (event): the rows of the events a rewind forgets.

Filled here from the events already stored: for every action (not an undo or a redo, which name
their action), each unit its changes insert, update or delete, once. In one statement of the
database's own JSON functions; a history that is not a JSON list (a hand-made file) names none.
It is not exported: `adjutant import` indexes the events anew.

Going down, the table goes.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

# Spelled out here, not imported from models.event_units: a migration stays as it was written.
TABLE = "event_unit"
INDEX = "ix_event_unit_event"
FILL = {
    "sqlite": (
        "INSERT INTO event_unit (unit, event) "
        "SELECT DISTINCT json_extract(c.value, '$.key.id'), e.id FROM event AS e, "
        "json_each(CASE WHEN json_valid(e.changes) AND json_type(e.changes) = 'array' THEN e.changes ELSE '[]' END) AS c "
        "WHERE e.kind NOT IN ('undo', 'redo') AND json_type(c.value) = 'object' "
        "AND json_extract(c.value, '$.table') = 'unit' AND json_type(c.value, '$.key.id') = 'text'"
    ),
    "postgresql": (
        "INSERT INTO event_unit (unit, event) "
        "SELECT DISTINCT c.value -> 'key' ->> 'id', e.id FROM event AS e, "
        "json_array_elements(CASE WHEN json_typeof(e.changes) = 'array' THEN e.changes ELSE '[]'::json END) AS c(value) "
        "WHERE e.kind NOT IN ('undo', 'redo') AND json_typeof(c.value) = 'object' "
        "AND c.value ->> 'table' = 'unit' AND json_typeof(c.value -> 'key' -> 'id') = 'string'"
    ),
}


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("unit", sa.String, nullable=False),
        sa.Column("event", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("unit", "event"),
        sqlite_with_rowid=False,
    )
    op.create_index(INDEX, TABLE, ["event"])
    op.execute(FILL[op.get_bind().dialect.name])
    mark_sqlite_schema(13)


def downgrade() -> None:
    op.drop_index(INDEX, TABLE)
    op.drop_table(TABLE)
    mark_sqlite_schema(12)

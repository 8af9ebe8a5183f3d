"""The luck and the plots read a few thousand rows, not the whole history: `dice_tally`
and partial indexes of `event` and `dice_roll`.

- `dice_tally` (block, dice, modifier, result) -> count: how many stored rolls there are
  of each dice, sum of modifiers and result, in each block of 1,024 events
  (models.tally says how it is kept in step). Filled here from the rolls already stored.
  It is not exported: `adjutant import` counts it anew.
- `ix_event_turn_ends`, `ix_event_forced_marches`, `ix_event_strength_changes` on
  `event(id)`, WHERE description LIKE 'End of turn %', description LIKE 'Forced
  march: %', and CAST(changes AS TEXT) LIKE '%strength_points%': the ends of turns,
  the forced marches and the events that changed a unit's SP, found without reading
  every event. A query finds each when its WHERE holds the same text (models.tables).
- `ix_dice_roll_marches`, `ix_dice_roll_reconnaissance` on `dice_roll(id)`, WHERE
  purpose LIKE 'forced march of %' and purpose LIKE 'reconnaissance, column %': the
  rolls whose luck the campaign reads from what they decided.

Going down, the table and the indexes go.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import json
from collections import Counter

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

# Spelled out here, not imported from models.tables and models.tally: a migration stays as it was written.
INDEXES = {
    "ix_event_turn_ends": "description LIKE 'End of turn %'",
    "ix_event_forced_marches": "description LIKE 'Forced march: %'",
    "ix_event_strength_changes": "CAST(changes AS TEXT) LIKE '%strength_points%'",
}
ROLL_INDEXES = {
    "ix_dice_roll_marches": "purpose LIKE 'forced march of %'",
    "ix_dice_roll_reconnaissance": "purpose LIKE 'reconnaissance, column %'",
}
TABLE = "dice_tally"
BLOCK = 1024
NO_EVENT, NEGATIVE, UNREADABLE = -1, -2, -3

dice_roll = sa.table(
    "dice_roll", sa.column("event", sa.Integer), sa.column("dice", sa.String), sa.column("modifiers", sa.JSON),
    sa.column("result", sa.Integer),
)


def upgrade() -> None:
    for name, where in INDEXES.items():
        op.create_index(name, "event", ["id"], sqlite_where=sa.text(where), postgresql_where=sa.text(where))
    for name, where in ROLL_INDEXES.items():
        op.create_index(name, "dice_roll", ["id"], sqlite_where=sa.text(where), postgresql_where=sa.text(where))
    tally = op.create_table(
        TABLE,
        sa.Column("block", sa.BigInteger, nullable=False),
        sa.Column("dice", sa.String, nullable=False),
        sa.Column("modifier", sa.BigInteger, nullable=False),
        sa.Column("result", sa.BigInteger, nullable=False),
        sa.Column("count", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("block", "dice", "modifier", "result"),
    )
    _fill(op.get_bind(), tally)
    mark_sqlite_schema(10)


def _fill(bind: sa.Connection, tally: sa.Table) -> None:
    stored = sa.cast(dice_roll.c.modifiers, sa.String)
    query = sa.select(dice_roll.c.event, dice_roll.c.dice, stored, dice_roll.c.result, sa.func.count()).group_by(
        dice_roll.c.event, dice_roll.c.dice, stored, dice_roll.c.result
    )
    counts: Counter[tuple[int, str, int, int]] = Counter()
    for event, dice, modifiers, result, count in bind.execute(query):
        counts[_key(event, dice, modifiers, result)] += count
    rows = [{"block": b, "dice": d, "modifier": m, "result": r, "count": n} for (b, d, m, r), n in counts.items()]
    for start in range(0, len(rows), 5000):
        bind.execute(tally.insert(), rows[start:start + 5000])


def _key(event: int | None, dice: str, modifiers: str | None, result: int) -> tuple[int, str, int, int]:
    try:
        modifier = sum(int(m["value"]) for m in json.loads(modifiers)) if modifiers else 0
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError):
        return (UNREADABLE, "", 0, 0)
    if (event is not None and type(event) is not int) or type(result) is not int or not isinstance(dice, str):
        return (UNREADABLE, "", 0, 0)
    block = NO_EVENT if event is None else NEGATIVE if event < 0 else event // BLOCK
    return (block, dice, modifier, result)


def downgrade() -> None:
    op.drop_table(TABLE)
    for name in INDEXES:
        op.drop_index(name, "event")
    for name in ROLL_INDEXES:
        op.drop_index(name, "dice_roll")
    mark_sqlite_schema(9)

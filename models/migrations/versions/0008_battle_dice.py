"""Each dice roll names the battle it was rolled for: `dice_roll.battle`.

A side reads the battles it fought (fog of war, the club's row-level
security), and their dice with them. Until now a battle's rolls were found
only through the history (the actions described "Battle #N at PLACE: ..."),
which no side may read; the column makes them a plain row filter.

- `dice_roll.battle`: the battle's id, None for any other roll; indexed. No
  foreign key, as models.tables says (it would close the cycle battle -> turn ->
  dice_roll).
- Filled for the rolls already stored, from the action that rolled them: an
  action whose description starts "Battle #N at PLACE:" for battle N at PLACE
  (campaigns.battles.title, campaigns.tabletop). The record of those actions
  gets the battle too, so a roll undone and redone later keeps it.
- On PostgreSQL, a club side's role that reads some columns of dice_roll
  (`adjutant club setup`) may read the new one as well: without it the player's
  screens could load no roll at all. Which rows it reads is still the policy's,
  until `club setup` is run again with this version's rules.

Going down, the column and what the history recorded of it go.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

INDEX = "ix_dice_roll_battle"
BATCH = 500

# Only the columns read and written: the JSON type decodes `changes` on SQLite and PostgreSQL alike.
battle = sa.table("battle", sa.column("id", sa.Integer), sa.column("location", sa.String))
event = sa.table(
    "event", sa.column("id", sa.Integer), sa.column("kind", sa.String), sa.column("description", sa.String),
    sa.column("changes", sa.JSON),
)
dice_roll = sa.table("dice_roll", sa.column("id", sa.Integer), sa.column("event", sa.Integer), sa.column("battle", sa.Integer))
# Spelled out here, not imported from campaigns.battles: a migration stays as it was written.
TITLE = re.compile(r"Battle #([0-9]+) at ")


def upgrade() -> None:
    op.add_column("dice_roll", sa.Column("battle", sa.Integer, nullable=True))
    op.create_index(INDEX, "dice_roll", ["battle"])
    bind = op.get_bind()
    places = {row.id: row.location for row in bind.execute(sa.select(battle.c.id, battle.c.location))}
    rolled: dict[int, list[int]] = {}  # battle -> the actions that rolled for it
    for number, description, changes in _battle_actions(bind):
        found = _battle_of(description, places)
        if found is None:
            continue
        rolled.setdefault(found, []).append(number)
        _rewrite(bind, number, changes, found)
    for found, actions in rolled.items():
        for start in range(0, len(actions), BATCH):
            chunk = actions[start : start + BATCH]
            bind.execute(dice_roll.update().where(dice_roll.c.event.in_(chunk)).values(battle=found))
    if bind.dialect.name == "postgresql":
        _grant_to_readers(bind)
    mark_sqlite_schema(8)


def downgrade() -> None:
    bind = op.get_bind()
    for number, _description, changes in _battle_actions(bind):
        _rewrite(bind, number, changes, None)
    op.drop_index(INDEX, "dice_roll")
    with op.batch_alter_table("dice_roll") as batch:
        batch.drop_column("battle")
    mark_sqlite_schema(7)


def _battle_actions(bind: sa.Connection) -> Iterable[tuple[int, str, Any]]:
    """(id, description, changes) of every action whose description names a battle."""
    query = (
        sa.select(event.c.id, event.c.description, event.c.changes)
        .where(event.c.kind == "action", event.c.description.like("Battle #%"))
        .order_by(event.c.id)
    )
    yield from bind.execute(query).all()


def _battle_of(description: str, places: dict[int, str]) -> int | None:
    """The battle an action's description names, "Battle #N at PLACE: ...", when battle N is at PLACE."""
    match = TITLE.match(description)
    if match is None:
        return None
    number = int(match.group(1))
    place = places.get(number)
    if place is None or not description.startswith(f"Battle #{number} at {place}:"):
        return None
    return number


def _rewrite(bind: sa.Connection, number: int, changes: Any, found: int | None) -> None:
    """Mark each roll the action recorded inserting (the rows a redo writes again) with battle
    `found`; None takes the mark away."""
    if not isinstance(changes, list):
        return
    rewritten, touched = [], False
    for change in changes:
        if (isinstance(change, dict) and change.get("table") == "dice_roll" and change.get("before") is None
                and isinstance(change.get("after"), dict)):
            after = {k: v for k, v in change["after"].items() if k != "battle"}
            change = {**change, "after": after if found is None else {**after, "battle": found}}
            touched = True
        rewritten.append(change)
    if touched:
        bind.execute(event.update().where(event.c.id == number).values(changes=rewritten))


def _grant_to_readers(bind: sa.Connection) -> None:
    """Let every role that may read some of dice_roll's columns, and not all, read `battle` too."""
    readers = bind.execute(
        sa.text(
            "SELECT DISTINCT r.rolname FROM pg_attribute a CROSS JOIN LATERAL aclexplode(a.attacl) AS acl "
            "JOIN pg_roles r ON r.oid = acl.grantee "
            "WHERE a.attrelid = 'dice_roll'::regclass AND a.attname = 'purpose' AND acl.privilege_type = 'SELECT' "
            "ORDER BY r.rolname"
        )
    ).scalars()
    quote = bind.dialect.identifier_preparer.quote_identifier
    for role in list(readers):
        bind.execute(sa.text(f"GRANT SELECT (battle) ON dice_roll TO {quote(role)}"))

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
from typing import Any

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

INDEX = "ix_dice_roll_battle"
BATCH = 500  # ids in one IN (...)
REWRITE_BATCH = 50  # events whose changes are read at once (a tabletop action's hold the battle's whole state)

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
    actions = _battle_actions(bind)
    for found, numbers in _by_battle(actions).items():
        for start in range(0, len(numbers), BATCH):
            chunk = numbers[start : start + BATCH]
            bind.execute(dice_roll.update().where(dice_roll.c.event.in_(chunk)).values(battle=found))
    _rewrite(bind, actions, mark=True)
    if bind.dialect.name == "postgresql":
        _grant_to_readers(bind)
    mark_sqlite_schema(8)


def downgrade() -> None:
    bind = op.get_bind()
    _rewrite(bind, _battle_actions(bind), mark=False)
    op.drop_index(INDEX, "dice_roll")
    # SQLite drops the column in place (3.35 and later): a batch copy of the table would break
    # turn.dice_roll's key to it, and the table's SQL goes back to what 0001 wrote.
    op.drop_column("dice_roll", "battle")
    mark_sqlite_schema(7)


def _battle_actions(bind: sa.Connection) -> dict[int, int]:
    """action's event id -> the battle it was taken in, for every action whose description names one.

    Ids and descriptions only: the changes, which may be large, are read later, a few at a time."""
    places = {row.id: row.location for row in bind.execute(sa.select(battle.c.id, battle.c.location))}
    query = sa.select(event.c.id, event.c.description).where(event.c.kind == "action", event.c.description.like("Battle #%"))
    return {number: found for number, description in bind.execute(query) if (found := _battle_of(description, places)) is not None}


def _by_battle(actions: dict[int, int]) -> dict[int, list[int]]:
    grouped: dict[int, list[int]] = {}
    for number, found in sorted(actions.items()):
        grouped.setdefault(found, []).append(number)
    return grouped


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


def _rewrite(bind: sa.Connection, actions: dict[int, int], *, mark: bool) -> None:
    """Mark each roll these actions recorded inserting (the rows a redo writes again) with the
    action's battle; with `mark` False, take the mark away. An action's changes are read only
    when they mention a roll, and a batch at a time."""
    numbers = sorted(actions)
    mentions = sa.cast(event.c.changes, sa.Text).like("%dice_roll%")
    for start in range(0, len(numbers), REWRITE_BATCH):
        chunk = numbers[start : start + REWRITE_BATCH]
        rows = bind.execute(sa.select(event.c.id, event.c.changes).where(event.c.id.in_(chunk), mentions)).all()
        for number, changes in rows:
            rewritten = _marked(changes, actions[number] if mark else None)
            if rewritten is not None:
                bind.execute(event.update().where(event.c.id == number).values(changes=rewritten))


def _marked(changes: Any, found: int | None) -> list | None:
    """The changes with each inserted roll marked with battle `found` (None: unmarked); None if
    they insert no roll."""
    if not isinstance(changes, list):
        return None
    rewritten, touched = [], False
    for change in changes:
        if (isinstance(change, dict) and change.get("table") == "dice_roll" and change.get("before") is None
                and isinstance(change.get("after"), dict)):
            after = {k: v for k, v in change["after"].items() if k != "battle"}
            change = {**change, "after": after if found is None else {**after, "battle": found}}
            touched = True
        rewritten.append(change)
    return rewritten if touched else None


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

"""Tabletop games outside the campaign have status "game", not "pending".

A game started outside the campaign's forces (campaigns/tabletop.new_game) was
stored with status "pending" before the status "game" existed, so the
campaign's Battles phase waited for it. Such a game is recognised by its
tactical battle marked `standalone`; a game already ended ("done") is left as it is.
Going down, those games are "pending" again, as the old code expects.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# Only the columns read and written: the JSON type decodes `detail` on SQLite and PostgreSQL alike.
battle = sa.table("battle", sa.column("id", sa.Integer), sa.column("status", sa.String), sa.column("detail", sa.JSON))


def _standalone(detail: object) -> bool:
    tactical = detail.get("tactical") if isinstance(detail, dict) else None
    return isinstance(tactical, dict) and bool(tactical.get("standalone"))


def _move(old: str, new: str) -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.select(battle.c.id, battle.c.detail).where(battle.c.status == old)).all()
    ids = [row.id for row in rows if _standalone(row.detail)]
    if ids:
        bind.execute(battle.update().where(battle.c.id.in_(ids)).values(status=new))


def upgrade() -> None:
    _move("pending", "game")
    mark_sqlite_schema(7)


def downgrade() -> None:
    _move("game", "pending")
    mark_sqlite_schema(5)

"""Fog of war: what each side has seen of the enemy, the orders it sends back, the dice commitment.

- `sighting`: one row per enemy stack a side saw, on a turn, at a place, with what
  it learned and how (reconnaissance, battle, contact, the umpire's report).
- `side_order`: an order a side wrote in its side file, or queued in the umpire's
  campaign from an imported orders file.
- `campaign.uid`: the campaign's identity, so a despatch and the orders that answer
  it name the campaign they belong to. Filled for existing campaigns here.
- `campaign.dice_commitment` and `dice_salt`: SHA-256 of the seed and a random salt,
  made at creation (existing campaigns have none and say so).
- `campaign.fog_side` and `fog_turn`: set only in a side file (a despatch), which
  side's view it is and of which turn.

Both new tables carry a `side` column, so what a side may read is a row filter
(PostgreSQL row-level security filters on it).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _ref(target: str) -> sa.ForeignKey:
    return sa.ForeignKey(target, deferrable=True, initially="DEFERRED")


CAMPAIGN_COLUMNS = ("uid", "dice_commitment", "dice_salt", "fog_side")


def upgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        for name in CAMPAIGN_COLUMNS:
            batch.add_column(sa.Column(name, sa.String, nullable=True))
        batch.add_column(sa.Column("fog_turn", sa.Integer, nullable=True))
    bind = op.get_bind()
    random_id = "lower(hex(randomblob(16)))" if bind.dialect.name == "sqlite" else "md5(random()::text || clock_timestamp()::text)"
    op.execute(f"UPDATE campaign SET uid = {random_id} WHERE uid IS NULL")
    op.create_table(
        "sighting",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("side", sa.String, _ref("side.id"), nullable=False),
        sa.Column("turn", sa.Integer, _ref("turn.number"), nullable=False),
        sa.Column("place", sa.String, nullable=False),
        sa.Column("enemy_side", sa.String, _ref("side.id"), nullable=False),
        sa.Column("source", sa.String, nullable=False),
        sa.Column("result", sa.Integer, nullable=True),
        sa.Column("learned", sa.JSON, nullable=False),
        sa.Column("strength_points", sa.Integer, nullable=True),
        sa.Column("note", sa.String, nullable=False),
    )
    for column in ("side", "turn", "enemy_side"):
        op.create_index(f"ix_sighting_{column}", "sighting", [column])
    op.create_table(
        "side_order",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("side", sa.String, _ref("side.id"), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("stack", sa.String, nullable=False),
        sa.Column("place", sa.String, nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
        sa.Column("text", sa.String, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("ruling", sa.String, nullable=False),
        sa.Column("written", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_side_order_side", "side_order", ["side"])
    mark_sqlite_schema(6)


def downgrade() -> None:
    op.drop_index("ix_side_order_side", "side_order")
    op.drop_table("side_order")
    for column in ("side", "turn", "enemy_side"):
        op.drop_index(f"ix_sighting_{column}", "sighting")
    op.drop_table("sighting")
    with op.batch_alter_table("campaign") as batch:
        for name in (*CAMPAIGN_COLUMNS, "fog_turn"):
            batch.drop_column(name)
    mark_sqlite_schema(5)

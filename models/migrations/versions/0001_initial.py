"""The first campaign schema: campaign, sides, nations, armies, generals, units,
turns, command points, battles, dice and the event log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPLICATION_ID = 0x41444A54  # "ADJT", as models.sqlite_header expects


def _ref(target: str) -> sa.ForeignKey:
    return sa.ForeignKey(target, deferrable=True, initially="DEFERRED")


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    op.create_table(
        "campaign",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("ruleset", sa.String, nullable=False),
        sa.Column("scenario", sa.String, nullable=False),
        sa.Column("dice_seed", sa.BigInteger, nullable=False),
        sa.Column("dice_mode", sa.String, nullable=False),
        sa.Column("dice_next_index", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("phase", sa.String, nullable=False),
        sa.Column("start_date", sa.Date, nullable=False),
        sa.Column("turn_days", sa.Integer, nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "event",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("when", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("description", sa.String, nullable=False),
        sa.Column("changes", sa.JSON, nullable=False),
        sa.Column("undone", sa.Boolean, nullable=False),
    )
    op.create_index("ix_event_undone", "event", ["undone"])
    op.create_table(
        "side",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
    )
    op.create_table(
        "nation",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("side", sa.String, _ref("side.id"), nullable=False),
    )
    op.create_index("ix_nation_side", "nation", ["side"])
    op.create_table(
        "army",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("side", sa.String, _ref("side.id"), nullable=False),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("commander", sa.String, nullable=True),
    )
    op.create_index("ix_army_side", "army", ["side"])
    op.create_table(
        "general",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("nation", sa.String, _ref("nation.id"), nullable=False),
        sa.Column("army", sa.String, _ref("army.id"), nullable=True),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("command_value", sa.Integer, nullable=False),
        sa.Column("tactical_bonus", sa.Integer, nullable=False),
        sa.Column("location", sa.String, nullable=False),
        sa.Column("superior", sa.String, _ref("general.id"), nullable=True),
    )
    for column in ("nation", "army", "superior"):
        op.create_index(f"ix_general_{column}", "general", [column])
    op.create_table(
        "unit",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("nation", sa.String, _ref("nation.id"), nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("general", sa.String, _ref("general.id"), nullable=True),
        sa.Column("strength_points", sa.Integer, nullable=False),
        sa.Column("cohesion", sa.Integer, nullable=False),
        sa.Column("artillery_bonus", sa.Integer, nullable=False),
        sa.Column("cavalry_bonus", sa.Integer, nullable=False),
        sa.Column("fatigued", sa.Boolean, nullable=False),
        sa.Column("entrenched", sa.Boolean, nullable=False),
        sa.Column("out_of_command", sa.Boolean, nullable=False),
        sa.Column("location", sa.String, nullable=False),
    )
    for column in ("nation", "general"):
        op.create_index(f"ix_unit_{column}", "unit", [column])
    op.create_table(
        "dice_roll",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event", sa.Integer, _ref("event.id"), nullable=True),
        sa.Column("purpose", sa.String, nullable=False),
        sa.Column("dice", sa.String, nullable=False),
        sa.Column("raw", sa.JSON, nullable=False),
        sa.Column("modifiers", sa.JSON, nullable=False),
        sa.Column("result", sa.Integer, nullable=False),
        sa.Column("mode", sa.String, nullable=False),
        sa.Column("stream_index", sa.Integer, nullable=True),
        sa.Column("by", sa.String, nullable=False),
        sa.Column("when", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_dice_roll_event", "dice_roll", ["event"])
    op.create_table(
        "turn",
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("weather", sa.String, nullable=True),
        sa.Column("weather_source", sa.String, nullable=True),
        sa.Column("dice_roll", sa.Integer, _ref("dice_roll.id"), nullable=True),
    )
    op.create_table(
        "command_point_roll",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("turn", sa.Integer, _ref("turn.number"), nullable=False),
        sa.Column("army", sa.String, _ref("army.id"), nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("dice_roll", sa.Integer, _ref("dice_roll.id"), nullable=True),
    )
    op.create_table(
        "command_point_spend",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("turn", sa.Integer, _ref("turn.number"), nullable=False),
        sa.Column("army", sa.String, _ref("army.id"), nullable=False),
        sa.Column("action", sa.String, nullable=False),
        sa.Column("cost", sa.Integer, nullable=False),
        sa.Column("balance", sa.Integer, nullable=False),
        sa.Column("note", sa.String, nullable=False),
    )
    for table in ("command_point_roll", "command_point_spend"):
        op.create_index(f"ix_{table}_turn", table, ["turn"])
        op.create_index(f"ix_{table}_army", table, ["army"])
    op.create_table(
        "battle",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("turn", sa.Integer, _ref("turn.number"), nullable=False),
        sa.Column("location", sa.String, nullable=False),
        sa.Column("participants", sa.JSON, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("losses", sa.JSON, nullable=False),
        sa.Column("result", sa.String, nullable=True),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
    )
    op.create_index("ix_battle_turn", "battle", ["turn"])
    mark_sqlite_schema(1)


def downgrade() -> None:
    for table in (
        "battle",
        "command_point_spend",
        "command_point_roll",
        "turn",
        "dice_roll",
        "unit",
        "general",
        "army",
        "nation",
        "side",
        "event",
        "campaign",
    ):
        op.drop_table(table)

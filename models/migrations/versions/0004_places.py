"""Locations are places: a place of the gazetteer plus a marching note; activations of stacks; pontoons.

A location of schema 2 was free text such as "Kalisch (on the march from Thorn)".
It is split into the place ("Kalisch") and the note in brackets ("on the march
from Thorn"). Whether the place is one the gazetteer knows is checked by the
campaign layer (`adjutant places` names any it does not know, with suggestions):
the migration only splits, so an old file never fails to open over a spelling.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op

from models.migrations import mark_sqlite_schema

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# The same reading as campaigns.gazetteer.split_location, frozen here as of this revision.
_NOTE = re.compile(r"^(?P<place>[^()]*?)\s*\((?P<note>[^()]*)\)\s*$")


def _split(text: str) -> tuple[str, str]:
    match = _NOTE.match(text.strip())
    return (match["place"].strip(), match["note"].strip()) if match else (text.strip(), "")


def _ref(target: str) -> sa.ForeignKey:
    return sa.ForeignKey(target, deferrable=True, initially="DEFERRED")


def upgrade() -> None:
    for table in ("general", "unit"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("march_note", sa.String, nullable=False, server_default=""))
        rows = sa.table(table, sa.column("id", sa.String), sa.column("location", sa.String), sa.column("march_note", sa.String))
        bind = op.get_bind()
        for row_id, location in bind.execute(sa.select(rows.c.id, rows.c.location)).all():
            place, note = _split(location or "")
            if (place, note) != (location, ""):
                bind.execute(rows.update().where(rows.c.id == row_id).values(location=place, march_note=note))
    _split_history()
    op.create_table(
        "activation",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("turn", sa.Integer, _ref("turn.number"), nullable=False),
        sa.Column("army", sa.String, _ref("army.id"), nullable=False),
        sa.Column("side", sa.String, _ref("side.id"), nullable=False),
        sa.Column("place", sa.String, nullable=False),
        sa.Column("action", sa.String, nullable=False),
        sa.Column("members", sa.JSON, nullable=False),
        sa.Column("cost", sa.Integer, nullable=False),
        sa.Column("loc", sa.String, nullable=False),
        sa.Column("ruling", sa.String, nullable=False),
        sa.Column("mp_spent", sa.Integer, nullable=False),
    )
    for column in ("turn", "army", "side"):
        op.create_index(f"ix_activation_{column}", "activation", [column])
    op.create_table(
        "pontoon",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("river", sa.String, nullable=False),
        sa.Column("place_a", sa.String, nullable=False),
        sa.Column("place_b", sa.String, nullable=False),
        sa.Column("turn", sa.Integer, _ref("turn.number"), nullable=False),
        sa.Column("note", sa.String, nullable=False),
    )
    op.create_index("ix_pontoon_turn", "pontoon", ["turn"])
    mark_sqlite_schema(4)


def _split_history() -> None:
    """Split the locations inside the history too, so undoing an old move puts back a place."""
    events = sa.table("event", sa.column("id", sa.Integer), sa.column("changes", sa.JSON))
    bind = op.get_bind()
    for event_id, changes in bind.execute(sa.select(events.c.id, events.c.changes)).all():
        changed = False
        for change in changes or []:
            if change.get("table") not in ("general", "unit"):
                continue
            for values in (change.get("before"), change.get("after")):
                if values and isinstance(values.get("location"), str):
                    place, note = _split(values["location"])
                    if note or place != values["location"]:
                        values["location"], values["march_note"] = place, note
                        changed = True
        if changed:
            bind.execute(events.update().where(events.c.id == event_id).values(changes=changes))


def downgrade() -> None:
    op.drop_table("pontoon")
    op.drop_table("activation")
    for table in ("general", "unit"):
        rows = sa.table(table, sa.column("id", sa.String), sa.column("location", sa.String), sa.column("march_note", sa.String))
        bind = op.get_bind()
        for row_id, location, note in bind.execute(sa.select(rows.c.id, rows.c.location, rows.c.march_note)).all():
            if note:
                bind.execute(rows.update().where(rows.c.id == row_id).values(location=f"{location} ({note})"))
        with op.batch_alter_table(table) as batch:
            batch.drop_column("march_note")
    mark_sqlite_schema(3)

"""The tables of a turn's paperwork: the command points rolled and spent, the stacks
activated, the pontoons built, the umpire's notes on events and the sides' orders.

They are models.tables' own (`from models.tables import SideOrder` works, and
`models.table_metadata()` holds them), kept in a module of their own so that they are
built only when first asked for: the map, the battles and the order of battle read
none of them, and each SQLModel class costs some 5 ms of CPU to build. Each points only
at models.tables' tables (turn, army, side, event, dice_roll), never the other way, so
the tables of models.tables alone are whole: every key they hold names a table built.
"""

# No `from __future__ import annotations`, as in models.tables: annotations evaluated once, as types.
from datetime import datetime
from typing import Any

from sqlalchemy import JSON
from sqlmodel import Field

from models.tables import _ref, _Table


class CommandPointRoll(_Table, table=True):
    """An army's command points for a turn: 1d6 plus the commander-in-chief's CV."""

    __tablename__ = "command_point_roll"

    id: int | None = Field(default=None, primary_key=True)
    turn: int = _ref("turn.number")
    army: str = _ref("army.id")
    points: int
    dice_roll: int | None = _ref("dice_roll.id", nullable=True, index=False)


class CommandPointSpend(_Table, table=True):
    """A line of an army's command-point ledger: what was done, its cost, what is left."""

    __tablename__ = "command_point_spend"

    id: int | None = Field(default=None, primary_key=True)
    turn: int = _ref("turn.number")
    army: str = _ref("army.id")
    action: str
    cost: int
    balance: int
    note: str = ""


class Activation(_Table, table=True):
    """A stack activated for a turn: what it cost its army, and the MP it has marched since.

    `members` lists the "general:ID" and "unit:ID" of the stack when it was
    activated; `loc` is "valid", "none" or "-" (the commander-in-chief's own stack),
    and `ruling` the umpire's reason when he ruled the LOC against the road network.
    """

    __tablename__ = "activation"

    id: int | None = Field(default=None, primary_key=True)
    turn: int = _ref("turn.number")
    army: str = _ref("army.id")
    side: str = _ref("side.id")
    place: str
    action: str  # a row of the command points table: activate_cinc, activate_general, activate_force
    members: list[str] = Field(default_factory=list, sa_type=JSON)
    cost: int
    loc: str
    ruling: str = ""
    mp_spent: int = 0


class Pontoon(_Table, table=True):
    """A pontoon bridge built where a road crosses a river at a ford (card 6.4): the road's
    two places, the river, the turn it was built and the umpire's note."""

    __tablename__ = "pontoon"

    id: int | None = Field(default=None, primary_key=True)
    river: str
    place_a: str
    place_b: str
    turn: int = _ref("turn.number")
    note: str = ""


class EventNote(_Table, table=True):
    """A bookmark or a note an umpire put on an event of the history.

    Adding or removing one is an action of its own, so it can be undone; the
    event it marks may be any event, undone or not.
    """

    __tablename__ = "event_note"

    id: int | None = Field(default=None, primary_key=True)
    event: int = _ref("event.id")
    kind: str  # "bookmark" or "note"
    text: str = ""
    when: datetime


class SideOrder(_Table, table=True):
    """An order a side wrote for the umpire: in its side file, or queued in the campaign.

    `kind` is "move", "forced_march", "command_points", "reconnaissance" or "note";
    `stack` names the side's own stack (a general's id or SIDE@PLACE), `place` where
    to; `status` "written" (in a side file), "queued", "applied" or "refused", with
    the umpire's `ruling`. Row filter for what a side may read: `side`.
    """

    __tablename__ = "side_order"

    id: int | None = Field(default=None, primary_key=True)
    side: str = _ref("side.id")
    turn: int
    kind: str
    stack: str = ""
    place: str = ""
    detail: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    text: str = ""
    status: str = "written"
    ruling: str = ""
    written: datetime

"""Command points: each army rolls 1d6 + CV of its commander-in-chief, then spends.

The balance can never go below zero; every roll and spend is a line of the
turn's ledger and one action.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select, text

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from campaigns.text import TextError, plain_name
from rules.allemagne1813.command import ACTIONS, action_cost, roll_command_points
from rules.errors import RulesError
from rules.loader import get_table

RULESET = "allemagne1813"


def action_label(action: str) -> str:
    """The card's name of a spending; a stored word the card does not print is shown as stored."""
    axis = get_table(RULESET, "command_points").rows
    try:
        return axis.bands[axis.index_of(action)].label
    except RulesError:
        return action


@dataclass(frozen=True)
class LedgerLine:
    action: str
    cost: int
    balance: int
    note: str


@dataclass(frozen=True)
class ArmyPoints:
    army: str
    name: str
    side: str
    commander: str | None
    command_value: int | None
    rolled: int | None  # the points of this turn, None before the roll
    ledger: tuple[LedgerLine, ...] = field(default_factory=tuple)

    @property
    def balance(self) -> int:
        if self.rolled is None:
            return 0
        return self.ledger[-1].balance if self.ledger else self.rolled


# Read as plain rows, not as the SQLModel classes: the screen's first visit would
# otherwise build their ORM machinery and an object a row before it draws anything.
CURRENT = text("SELECT turn FROM campaign WHERE id = 1")
ROLLS = text("SELECT army, points FROM command_point_roll WHERE turn = :turn")
SPENDS = text("SELECT army, action, cost, balance, note FROM command_point_spend WHERE turn = :turn ORDER BY id")
ARMIES = text(
    "SELECT army.id, army.name, army.side, general.name, general.command_value"
    " FROM army LEFT JOIN general ON general.id = army.commander ORDER BY army.side, army.id"
)


def turn_points(session: CampaignSession, turn: int | None = None) -> list[ArmyPoints]:
    with plainly(), session.store.connect() as db:
        turn = turn or db.execute(CURRENT).scalar_one()
        rolls: dict[str, int] = {army_id: points for army_id, points in db.execute(ROLLS, {"turn": turn})}
        spends: dict[str, list[LedgerLine]] = {}
        for army_id, action, cost, balance, note in db.execute(SPENDS, {"turn": turn}):
            spends.setdefault(army_id, []).append(LedgerLine(action, cost, balance, note))
        return [
            ArmyPoints(
                army=army_id, name=name, side=side, commander=commander, command_value=command_value,
                rolled=rolls.get(army_id), ledger=tuple(spends.get(army_id, [])),
            )
            for army_id, name, side, commander, command_value in db.execute(ARMIES)
        ]


def _army(session: CampaignSession, army_id: str) -> ArmyPoints:
    for army in turn_points(session):
        if army.army == army_id:
            return army
    raise CampaignError(f"there is no army {army_id!r}")


def roll(session: CampaignSession, army_id: str, entered: list[int] | None = None) -> str:
    army = _army(session, army_id)
    if army.commander is None or army.command_value is None:
        raise CampaignError(f"{army.name} has no commander-in-chief to roll for")
    if army.rolled is not None:
        raise CampaignError(f"{army.name} has rolled its command points this turn ({army.rolled}); undo to roll again")
    from sqlmodel import col  # with the classes: the screen reads plain rows, and the first visit imports no SQLModel

    from models import Campaign, CommandPointRoll, DiceRoll  # an action's classes, not the screen's: see CURRENT

    with plainly(), session.store.action(f"Command points of {army.name}") as db:
        turn = db.get_one(Campaign, 1).turn
        record = roll_command_points(session.store.dice(), army.commander, army.command_value, entered=entered)
        db.flush()
        dice_row = db.scalars(
            select(col(DiceRoll.id)).where(col(DiceRoll.event) == session.store.current_event).order_by(col(DiceRoll.id).desc())
        ).first()
        db.add(CommandPointRoll(turn=turn, army=army_id, points=record.result, dice_roll=dice_row))
    return f"{army.name}: 1d6 = {record.raw[0]} + CV {army.command_value} = {record.result} PC"


def spend(session: CampaignSession, army_id: str, action: str, valid_loc: bool, note: str = "") -> str:
    try:
        note = plain_name(note, "a note")
    except TextError as exc:
        raise CampaignError(str(exc)) from None
    if action not in ACTIONS:
        raise CampaignError(f"the action is one of {', '.join(ACTIONS)}, not {action!r}")
    army = _army(session, army_id)
    if army.rolled is None:
        raise CampaignError(f"{army.name} has not rolled its command points this turn")
    cost = action_cost(action, valid_loc)
    label = action_label(action)
    if cost is None:
        raise CampaignError(f"'{label}' is not possible without a valid LOC (the card prints '-')")
    if cost > army.balance:
        raise CampaignError(f"{army.name} has {army.balance} PC left; '{label}' costs {cost}")
    balance = army.balance - cost
    loc = "valid LOC" if valid_loc else "no valid LOC"
    from models import Campaign, CommandPointSpend

    with plainly(), session.store.action(f"{army.name} spends {cost} PC: {label} ({loc})") as db:
        turn = db.get_one(Campaign, 1).turn
        db.add(
            CommandPointSpend(
                turn=turn, army=army_id, action=action, cost=cost, balance=balance, note=note or loc
            )
        )
    return f"{army.name}: {label}, {cost} PC; {balance} left"

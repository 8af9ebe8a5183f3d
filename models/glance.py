"""The campaign at a glance: where play stands, each side's and army's strength,
the latest events.

Every query here is bounded by the size of the order of battle, never by the
length of the history, so a campaign a year old opens as fast as a new one.
They are plain SQL on the tables, not queries of the SQLModel classes: the
overview is the first screen of the app, and building those classes and
compiling ORM queries (some 100 ms) would otherwise come before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Date, DateTime, text

from models import journal
from models.oob_rows import ELIMINATED_GROUPS
from models.store import CampaignStore
from models.errors import CampaignFileError


@dataclass(frozen=True)
class SideStrength:
    """A side's armies, generals and units, counted by nation; dummies are units with no SP."""

    id: str
    name: str
    armies: int
    generals: int
    units: int  # present: dummies counted, the eliminated not
    strength_points: int
    dummies: int = 0
    eliminated: int = 0  # off the map at 0 SP (models.oob_rows.ELIMINATED)


@dataclass(frozen=True)
class ArmyStrength:
    """An army with every unit under its generals and their subordinates, and its
    command points of the turn."""

    id: str
    name: str
    side: str
    units: int  # present, not counting dummies nor the eliminated
    dummies: int
    strength_points: int
    commander_id: str | None
    commander: str | None  # the commander-in-chief's name
    command_value: int | None
    points_rolled: int | None  # this turn's command points, None before the roll
    points_left: int
    eliminated: int = 0  # off the map at 0 SP (models.oob_rows.ELIMINATED)


@dataclass(frozen=True)
class RecentEvent:
    id: int
    when: datetime
    kind: str
    description: str
    undone: bool


@dataclass(frozen=True)
class Overview:
    name: str
    scenario: str
    ruleset: str
    turn: int
    turns: int
    phase: str
    date: date
    weather: str | None
    dice_mode: str
    sides: tuple[SideStrength, ...]
    pending_battles: int
    recent_events: tuple[RecentEvent, ...]  # newest first
    can_undo: bool
    can_redo: bool
    armies: tuple[ArmyStrength, ...] = ()  # by side, then army id
    weather_before: str | None = None  # of the turn before this one
    next_turn: bool = False  # whether the calendar has a turn after this one
    next_weather: str | None = None
    pending_battles_this_turn: int = 0


CAMPAIGN = text(
    "SELECT name, scenario, ruleset, turn, turns, phase, start_date, turn_days, dice_mode FROM campaign WHERE id = 1"
).columns(start_date=Date)
TURNS = text("SELECT number, date, weather FROM turn WHERE number BETWEEN :turn - 1 AND :turn + 1").columns(date=Date)
RECENT = text('SELECT id, "when", kind, description, undone FROM event ORDER BY id DESC LIMIT :recent').columns(
    when=DateTime
)
PENDING = text(
    "SELECT count(*), coalesce(sum(CASE WHEN turn = :turn THEN 1 ELSE 0 END), 0) FROM battle WHERE status = 'pending'"
)
SIDES = text("SELECT id, name FROM side ORDER BY position, id")
ARMIES_BY_SIDE = text("SELECT side, count(*) FROM army GROUP BY side")
GENERALS_BY_SIDE = text(
    "SELECT n.side, count(*) FROM general g JOIN nation n ON g.nation = n.id GROUP BY n.side"
)
# One pass over the index ix_unit_strength, never over the units themselves.
UNIT_GROUPS = text(
    "SELECT nation, general, kind = 'dummy', count(*), coalesce(sum(strength_points), 0) "
    "FROM unit GROUP BY nation, general, kind"
)
NATIONS = text("SELECT id, side FROM nation")
ARMIES = text(
    "SELECT a.id, a.name, a.side, a.commander, g.name, g.command_value FROM army a "
    "JOIN side s ON a.side = s.id LEFT JOIN general g ON g.id = a.commander ORDER BY s.position, s.id, a.id"
)
GENERALS = text("SELECT id, army, superior FROM general")
POINTS_ROLLED = text("SELECT army, points FROM command_point_roll WHERE turn = :turn")
POINTS_SPENT = text("SELECT army, balance FROM command_point_spend WHERE turn = :turn ORDER BY id")


@dataclass(frozen=True)
class Status:
    """What the status line shows: two small reads, where the overview makes fifteen."""

    name: str
    turn: int
    turns: int
    phase: str
    date: date
    weather: str | None
    dice_mode: str
    weather_before: str | None = None  # of the turn before: a Rain* there forces this turn's Mud


def _this_turn(c: Any, turns: dict[int, tuple[date, str | None]]) -> tuple[date, str | None]:
    """The day and weather of the campaign's turn: its row's; past the last turn of the calendar there
    is no turn row, so the day is counted on from the start (a hand-edited file may count past any date)."""
    found = turns.get(c.turn)
    if found is not None:
        return found
    try:
        return c.start_date + timedelta(days=(c.turn - 1) * c.turn_days), None
    except (OverflowError, TypeError):
        raise CampaignFileError(
            "the campaign is damaged: its turn's day cannot be counted from its start date and its days per turn"
        ) from None


def status(store: CampaignStore) -> Status:
    with store.connect() as db:
        c = db.execute(CAMPAIGN).one()
        turns = {n: (day, weather) for n, day, weather in db.execute(TURNS, {"turn": c.turn})}
    day, weather = _this_turn(c, turns)
    return Status(c.name, c.turn, c.turns, c.phase, day, weather, c.dice_mode, turns.get(c.turn - 1, (None, None))[1])


def overview(store: CampaignStore, recent: int = 5) -> Overview:
    with store.connect() as db:
        c = db.execute(CAMPAIGN).one()
        turns = {n: (day, weather) for n, day, weather in db.execute(TURNS, {"turn": c.turn})}
        events = tuple(
            RecentEvent(n, when, kind, description, bool(undone))
            for n, when, kind, description, undone in db.execute(RECENT, {"recent": recent})
        )
        pending, pending_now = db.execute(PENDING, {"turn": c.turn}).one()
        groups = db.execute(UNIT_GROUPS).all()  # (nation, general, dummy, count, SP)
        gone = [(n, g, count) for n, g, _kind, count in db.execute(text(ELIMINATED_GROUPS))]  # (nation, general, eliminated)
        day, weather = _this_turn(c, turns)
        return Overview(
            name=c.name,
            scenario=c.scenario,
            ruleset=c.ruleset,
            turn=c.turn,
            turns=c.turns,
            phase=c.phase,
            date=day,
            weather=weather,
            dice_mode=c.dice_mode,
            sides=_sides(db, groups, gone),
            pending_battles=pending,
            recent_events=events,
            can_undo=journal.undo_target(db) is not None,
            can_redo=journal.redo_target(db) is not None,
            armies=_armies(db, c.turn, groups, gone),
            weather_before=turns.get(c.turn - 1, (None, None))[1],
            next_turn=c.turn + 1 in turns,
            next_weather=turns.get(c.turn + 1, (None, None))[1],
            pending_battles_this_turn=pending_now,
        )


def _sides(db: Connection, groups, gone) -> tuple[SideStrength, ...]:
    armies: dict[str, int] = dict(db.execute(ARMIES_BY_SIDE).all())
    generals: dict[str, int] = dict(db.execute(GENERALS_BY_SIDE).all())
    side_of: dict[str, str] = dict(db.execute(NATIONS).all())
    units: dict[str, tuple[int, int, int]] = {}  # side: (units, SP, dummies)
    for nation, _general, dummy, count, points in groups:
        side = side_of[nation]
        before = units.get(side, (0, 0, 0))
        units[side] = (before[0] + count, before[1] + points, before[2] + (count if dummy else 0))
    eliminated: dict[str, int] = {}  # side: units eliminated, counted apart from those present
    for nation, _general, count in gone:
        side = side_of[nation]
        before = units[side]
        units[side] = (before[0] - count, before[1], before[2])
        eliminated[side] = eliminated.get(side, 0) + count
    return tuple(
        SideStrength(
            id=side,
            name=name,
            armies=armies.get(side, 0),
            generals=generals.get(side, 0),
            units=units.get(side, (0, 0, 0))[0],
            strength_points=units.get(side, (0, 0, 0))[1],
            dummies=units.get(side, (0, 0, 0))[2],
            eliminated=eliminated.get(side, 0),
        )
        for side, name in db.execute(SIDES)
    )


def _armies(db: Connection, turn: int, groups, gone) -> tuple[ArmyStrength, ...]:
    # A general serves in the army of the top of his chain of superiors, as in the order of battle.
    generals = {g: (army, superior) for g, army, superior in db.execute(GENERALS)}

    def army_of(general: str) -> str | None:
        seen = set()
        while general in generals and general not in seen:
            seen.add(general)
            army, superior = generals[general]
            if superior not in generals:
                return army
            general = superior
        return None

    counts: dict[str, list[int]] = {}  # army: [units, dummies, SP, eliminated]
    for _nation, general, dummy, count, points in groups:
        army = army_of(general) if general is not None else None
        if army is not None:
            total = counts.setdefault(army, [0, 0, 0, 0])
            total[1 if dummy else 0] += count
            total[2] += points
    for _nation, general, count in gone:  # counted apart from those present
        army = army_of(general) if general is not None else None
        if army is not None:
            counts[army][0] -= count
            counts[army][3] += count
    rolled: dict[str, int] = dict(db.execute(POINTS_ROLLED, {"turn": turn}).all())
    left: dict[str, int] = dict(db.execute(POINTS_SPENT, {"turn": turn}).all())  # the last spend's balance
    out = []
    for army, name, side, commander_id, commander, command_value in db.execute(ARMIES):
        units, dummies, points, eliminated = counts.get(army, (0, 0, 0, 0))
        roll = rolled.get(army)
        out.append(
            ArmyStrength(
                id=army,
                name=name,
                side=side,
                units=units,
                dummies=dummies,
                strength_points=points,
                commander_id=commander_id,
                commander=commander,
                command_value=command_value,
                points_rolled=roll,
                points_left=0 if roll is None else left.get(army, roll),
                eliminated=eliminated,
            )
        )
    return tuple(out)

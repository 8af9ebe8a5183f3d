"""Forced march of a stack: the card's modifiers from the stored state, exact odds, the roll.

The card's modifiers name the unit's cohesion and the table's columns the unit's
SP, so each unit chosen to march rolls for itself; all the rolls and losses of
one forced march are one action.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import text

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from models import Campaign, Turn, Unit
from rules.allemagne1813.forced_march import forced_march_loss, forced_march_modifiers, forced_march_odds
from rules.allemagne1813.weather import weather_name
from rules.dice import Modifier


@dataclass(frozen=True)
class Marcher:
    """A unit that may march: what its roll and its row need."""

    id: str
    name: str
    strength_points: int
    cohesion: int


@dataclass(frozen=True)
class Stack:
    key: str  # the general's id, or "at:LOCATION" for units without a general there
    label: str
    location: str
    general_cvs: tuple[int, ...]
    size: int  # units (dummies not counted): read one stack at a time with units()


@dataclass(frozen=True)
class UnitMarch:
    unit: Marcher
    modifiers: tuple[Modifier, ...]
    odds: dict[int, Fraction]  # SP lost -> chance

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)


# Counted, not read: the screen lists stacks and shows the units of one of them.
GENERALS = text("SELECT id, name, location, command_value FROM general")
COUNTS = text("SELECT general, location, COUNT(*) FROM unit WHERE kind != 'dummy' GROUP BY general, location")
UNITS_OF_GENERAL = text(
    "SELECT id, name, strength_points, cohesion FROM unit WHERE kind != 'dummy' AND general = :general ORDER BY name, id"
)
UNITS_LOOSE_AT = text(
    "SELECT id, name, strength_points, cohesion FROM unit WHERE kind != 'dummy' AND location = :location "
    "AND (general IS NULL OR general NOT IN (SELECT id FROM general)) ORDER BY name, id"
)


def stacks(session: CampaignSession) -> list[Stack]:
    """Each general with the units attached to him, and any loose units by place."""
    with plainly(), session.store.connect() as db:
        generals = {gid: (name, location, cv) for gid, name, location, cv in db.execute(GENERALS)}
        counts = list(db.execute(COUNTS))
    by_general: dict[str, int] = {}
    loose: dict[str, int] = {}
    for general, location, count in counts:
        if general in generals:
            by_general[general] = by_general.get(general, 0) + count
        else:
            loose[location] = loose.get(location, 0) + count
    out = []
    for gid, size in sorted(by_general.items(), key=lambda kv: generals[kv[0]][0]):
        name, location, _cv = generals[gid]
        # Other generals standing in the same place are in the stack too.
        cvs = tuple(cv for oid, (_n, there, cv) in generals.items() if oid == gid or (location and there == location))
        out.append(Stack(gid, f"{name} ({location or 'no location'})", location, cvs, size))
    for location, size in sorted(loose.items()):
        out.append(Stack(f"at:{location}", f"Units without a general at {location or '?'}", location, (), size))
    return out


def units(session: CampaignSession, stack: Stack) -> list[Marcher]:
    """The units of one stack, by name."""
    with plainly(), session.store.connect() as db:
        if stack.key.startswith("at:"):
            rows = db.execute(UNITS_LOOSE_AT, {"location": stack.location})
        else:
            rows = db.execute(UNITS_OF_GENERAL, {"general": stack.key})
        return [Marcher(*row) for row in rows]


def weather_now(session: CampaignSession) -> str | None:
    with plainly(), session.store.read() as db:
        turn = db.get(Turn, db.get_one(Campaign, 1).turn)
        return weather_name(turn.weather) if turn and turn.weather else None


def plan(session: CampaignSession, stack: Stack) -> list[UnitMarch]:
    """Each unit of the stack with its modifiers and the odds of its losses."""
    weather = weather_now(session) or "clear"
    options = session.options()
    out = []
    for unit in units(session, stack):
        mods = tuple(forced_march_modifiers(stack.general_cvs, unit.cohesion, weather))
        out.append(UnitMarch(unit, mods, forced_march_odds(max(unit.strength_points, 1), sum(m.value for m in mods), options)))
    return out


def march(session: CampaignSession, stack: Stack, unit_ids: list[str], entered: dict[str, list[int]] | None = None) -> list[str]:
    """Roll for each chosen unit and take its SP losses, as one action."""
    if not unit_ids:
        raise CampaignError("choose at least one unit to force-march")
    marches = {m.unit.id: m for m in plan(session, stack)}
    unknown = [u for u in unit_ids if u not in marches]
    if unknown:
        raise CampaignError(f"{unknown[0]} is not in the stack of {stack.label}")
    options = session.options()
    lines = []
    with plainly(), session.store.action(f"Forced march: {stack.label}") as db:
        dice = session.store.dice()
        for unit_id in unit_ids:
            plan_ = marches[unit_id]
            record = dice.roll(
                "1d6", f"forced march of {plan_.unit.name}", plan_.modifiers, entered=(entered or {}).get(unit_id)
            )
            unit = db.get_one(Unit, unit_id)
            loss = min(unit.strength_points, forced_march_loss(record.result, max(unit.strength_points, 1), options))
            unit.strength_points -= loss
            mods = "".join(f" {m.value:+d}" for m in plan_.modifiers)
            lines.append(f"{unit.name}: 1d6 = {record.raw[0]}{mods} = {record.result}: {loss} SP lost")
    return lines

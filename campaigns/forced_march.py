"""Forced march of a stack: the card's modifiers from the stored state, exact odds, the roll.

The card's modifiers name the unit's cohesion and the table's columns the unit's
SP, so each unit chosen to march rolls for itself; all the rolls and losses of
one forced march are one action.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from sqlalchemy import String, bindparam, text

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from rules.allemagne1813.forced_march import forced_march_loss, forced_march_modifiers, forced_march_odds
from rules.allemagne1813.weather import weather_name
from rules.dice import Modifier


# Named tuples, not frozen dataclasses: a stack of a thousand units makes a thousand of
# each on the screen's first visit (a frozen dataclass sets each field through
# object.__setattr__, several times the cost).
class Marcher(NamedTuple):
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


class UnitMarch(NamedTuple):
    unit: Marcher
    modifiers: tuple[Modifier, ...]
    odds: dict[int, Fraction]  # SP lost -> chance

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)


# Named, not counted: the screen lists stacks and shows the units of one of them. A
# stack is listed when one real unit is attached to its general (an index lookup per
# general); loose units are found through the generals' index (the ids no general
# has), never by reading every unit: at 50,000 units a count of each stack read the
# whole table (0.2 s), for a number no screen shows.
GENERALS = text(
    "SELECT g.id, g.name, g.location, g.command_value, "
    "EXISTS (SELECT 1 FROM unit u WHERE u.general = g.id AND u.kind != 'dummy') FROM general g"
)
ATTACHED_TO = text("SELECT general FROM unit WHERE general IS NOT NULL GROUP BY general")
LOOSE = text(
    "SELECT location FROM unit WHERE kind != 'dummy' AND (general IS NULL OR general IN :dangling) GROUP BY location"
).bindparams(bindparam("dangling", expanding=True, type_=String))  # typed: an empty list is a set of texts on PostgreSQL
UNITS_OF_GENERAL = text(
    "SELECT id, name, strength_points, cohesion FROM unit WHERE kind != 'dummy' AND general = :general ORDER BY name, id"
)
UNITS_LOOSE_AT = text(
    "SELECT id, name, strength_points, cohesion FROM unit WHERE kind != 'dummy' AND location = :location "
    "AND (general IS NULL OR general NOT IN (SELECT id FROM general)) ORDER BY name, id"
)
WEATHER = text("SELECT c.turn, t.weather FROM campaign c LEFT JOIN turn t ON t.number = c.turn WHERE c.id = 1")


def stacks(session: CampaignSession) -> list[Stack]:
    """Each general with real units attached to him, and any loose units by place."""
    with plainly(), session.store.connect() as db:
        generals = {gid: (name, location, cv, bool(has)) for gid, name, location, cv, has in db.execute(GENERALS)}
        dangling = [gid for (gid,) in db.execute(ATTACHED_TO) if gid not in generals]
        loose = sorted({location for (location,) in db.execute(LOOSE, {"dangling": dangling})}, key=lambda p: (p is None, p or ""))
    at: dict[str, list[int]] = {}  # the command values of the generals standing at each place
    for _name, location, cv, _has in generals.values():
        if location:
            at.setdefault(location, []).append(cv)
    out = []
    for gid, (name, location, cv, has) in sorted(generals.items(), key=lambda kv: kv[1][0]):
        if not has:
            continue
        # Other generals standing in the same place are in the stack too.
        cvs = tuple(at[location]) if location else (cv,)
        out.append(Stack(gid, f"{name} ({location or 'no location'})", location, cvs))
    for location in loose:
        out.append(Stack(f"at:{location}", f"Units without a general at {location or '?'}", location, ()))
    return out


def units(session: CampaignSession, stack: Stack) -> list[Marcher]:
    """The units of one stack, by name."""
    with plainly(), session.store.connect() as db:
        if stack.key.startswith("at:"):
            rows = db.execute(UNITS_LOOSE_AT, {"location": stack.location})
        else:
            rows = db.execute(UNITS_OF_GENERAL, {"general": stack.key})
        return [Marcher._make(row) for row in rows]


def weather_now(session: CampaignSession) -> str | None:
    """The weather of the turn being played, as its tables read it (None: not rolled)."""
    with plainly(), session.store.connect() as db:
        row = db.execute(WEATHER).first()
    if row is None:
        raise CampaignError("the campaign's own row is missing from the file")
    return weather_name(row[1]) if row[1] else None


def plan(session: CampaignSession, stack: Stack, weather: str | None = None) -> list[UnitMarch]:
    """Each unit of the stack with its modifiers and the odds of its losses (`weather`: the
    turn's, as weather_now names it, "clear" if not rolled; read here when not given)."""
    weather = weather or weather_now(session) or "clear"
    options = session.options()
    out = []
    # A stack of a thousand units has a few cohesions and a few (SP, modifier) pairs:
    # each is read off the card and the table once.
    by_cohesion: dict[int, tuple[tuple[Modifier, ...], int]] = {}  # the modifiers and their sum
    odds: dict[tuple[int, int], dict[int, Fraction]] = {}
    for unit in units(session, stack):
        found = by_cohesion.get(unit.cohesion)
        if found is None:
            mods = tuple(forced_march_modifiers(stack.general_cvs, unit.cohesion, weather))
            found = by_cohesion[unit.cohesion] = (mods, sum(m.value for m in mods))
        key = (max(unit.strength_points, 1), found[1])
        chances = odds.get(key)
        if chances is None:
            chances = odds[key] = forced_march_odds(*key, options)
        out.append(UnitMarch(unit, found[0], chances))  # shared by the units of the same SP and modifier, never changed
    return out


def march(session: CampaignSession, stack: Stack, unit_ids: list[str], entered: dict[str, list[int]] | None = None) -> list[str]:
    """Roll for each chosen unit and take its SP losses, as one action."""
    if not unit_ids:
        raise CampaignError("choose at least one unit to force-march")
    marches = {m.unit.id: m for m in plan(session, stack)}
    unknown = [u for u in unit_ids if u not in marches]
    if unknown:
        raise CampaignError(f"{unknown[0]} is not in the stack of {stack.label}")
    from models import Unit  # the ORM, for the action only: the screen reads with plain SQL

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

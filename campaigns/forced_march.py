"""Forced march of a stack: the card's modifiers from the stored state, exact odds, the roll.

The card's modifiers name the unit's cohesion and the table's columns the unit's
SP, so each unit chosen to march rolls for itself; all the rolls and losses of
one forced march are one action.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import select
from sqlmodel import col

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from models import Campaign, General, Turn, Unit
from rules.allemagne1813.forced_march import forced_march_loss, forced_march_modifiers, forced_march_odds
from rules.allemagne1813.weather import weather_name
from rules.dice import Modifier


@dataclass(frozen=True)
class Stack:
    key: str  # the general's id, or "at:LOCATION" for units without a general there
    label: str
    location: str
    general_cvs: tuple[int, ...]
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class UnitMarch:
    unit: Unit
    modifiers: tuple[Modifier, ...]
    odds: dict[int, Fraction]  # SP lost -> chance

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)


def stacks(session: CampaignSession) -> list[Stack]:
    """Each general with the units attached to him, and any loose units by place."""
    with plainly(), session.store.read() as db:
        generals = {g.id: g for g in db.scalars(select(General))}
        units = list(db.scalars(select(Unit).where(col(Unit.kind) != "dummy").order_by(col(Unit.name))))
    by_general: dict[str, list[Unit]] = {}
    loose: dict[str, list[Unit]] = {}
    for unit in units:
        if unit.general in generals:
            by_general.setdefault(unit.general, []).append(unit)
        else:
            loose.setdefault(unit.location, []).append(unit)
    out = []
    for gid, members in sorted(by_general.items(), key=lambda kv: generals[kv[0]].name):
        g = generals[gid]
        # Other generals standing in the same place are in the stack too.
        cvs = tuple(o.command_value for o in generals.values() if o.id == gid or (g.location and o.location == g.location))
        out.append(Stack(gid, f"{g.name} ({g.location or 'no location'})", g.location, cvs, tuple(members)))
    for location, members in sorted(loose.items()):
        out.append(Stack(f"at:{location}", f"Units without a general at {location or '?'}", location, (), tuple(members)))
    return out


def weather_now(session: CampaignSession) -> str | None:
    with plainly(), session.store.read() as db:
        turn = db.get(Turn, db.get_one(Campaign, 1).turn)
        return weather_name(turn.weather) if turn and turn.weather else None


def plan(session: CampaignSession, stack: Stack) -> list[UnitMarch]:
    weather = weather_now(session) or "clear"
    options = session.options()
    out = []
    for unit in stack.units:
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

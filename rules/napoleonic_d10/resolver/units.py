"""A stored Unit read as the card's procedures see it: its class, CW level, leader,
charging arm and casualty steps; and the names of the states a unit carries.

Shaken, disordered and broken are read from the unit's stored states. What the
battle knows beyond the units (who holds the initiative, a turn ended by the
initiative dice) is the battle's own state (initiative.BATTLE_STATE). Results that call for another roll (a surrender
percentage, the ammunition die of a natural 10, the morale checks a hit causes)
are *pending* states: the phase does not end while one waits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from rules.napoleonic_d10.data import Leader, options_of, table
from rules.napoleonic_d10.resolver.prepare import ticked_one
from rules.resolver import Request, Tick, Unit

SHAKEN, DISORDERED, BROKEN = "shaken", "disordered", "broken"
LADDER = (SHAKEN, DISORDERED, BROKEN)  # morale states, mildest first
SMOKE, FIREFIGHT, IN_MELEE, OUT_OF_AMMO = "smoke", "firefight", "melee", "out_of_ammo"
MOVED, ROLLED_TO_MOVE = "moved", "rolled_to_move"
INITIATIVE, TURN_OVER = "initiative", "turn_over"  # keys of the battle's own state
MORALE_DUE, SURRENDERING, AMMO_ROLL = "morale_due", "surrendering", "ammunition_roll"  # pending
REASONS, MELEE_WITH = "_morale_reasons", "_melee_with"  # hidden attributes
STEPS, AP = "steps_lost", "ap_spent"
FAR = 99  # inches typed for "none near"
NONE = "-"


def unit_class(unit: Unit) -> str:
    """Elite, Line or Conscript: the unit's class dice and break point."""
    return str(unit.attr("quality", "line"))


def cw_level(unit: Unit) -> int:
    return int(unit.attr("cw_level", 9))


def steps_taken(unit: Unit) -> int:
    return int(unit.attr(STEPS, 0) or 0)


def castings_per_stand(unit: Unit, options: Mapping[str, str]) -> int:
    """Castings (casualty steps) in one stand: 'Infantry Stands are 3 castings'; others by option."""
    if unit.arm == "infantry":
        note = next(n for n in table("fire").card_notes if "castings" in n)
        return int(re.search(r"(\d+) castings", note)[1])  # type: ignore[index]  # the notes that reach here name their castings
    return int(options_of(options)["castings_per_stand"])


def losses_percent(unit: Unit, options: Mapping[str, str], steps: int | None = None) -> Fraction:
    """Casualty steps lost, as a share of the unit's starting strength in steps."""
    taken = steps_taken(unit) if steps is None else steps
    return min(Fraction(100), Fraction(100 * taken, max(1, unit.start * castings_per_stand(unit, options))))


def leader(unit: Unit) -> Leader | None:
    """The leader attached to the unit (attributes leader_rating, leader_level, leader_at), if any."""
    rating = unit.attr("leader_rating", NONE)
    if rating in (None, NONE):
        return None
    return Leader(rating, unit.attr("leader_level", "division"), unit.attr("leader_at", "brigade"))


def charge_arm(unit: Unit) -> str:
    """The arm as the charge and movement tables name it: cavalry is light or heavy."""
    if unit.arm != "cavalry":
        return unit.arm
    kind = unit.attr("cavalry_type", NONE)
    return f"{'light' if kind in (None, NONE) else kind}_cavalry"


def disordered_or_worse(unit: Unit) -> bool:
    return unit.has(DISORDERED) or unit.has(BROKEN)


def situation_ticks(unit: Unit) -> list[Tick]:
    """The situation columns of local initiative and fire discipline, pre-filled from the unit's states."""
    return [Tick("smoke", "in smoke (In Smk)", checked=unit.has(SMOKE)),
            Tick("firefight", "in a firefight (In FF)", checked=unit.has(FIREFIGHT))]


def situation(request: Request) -> str:
    """normal, smoke or firefight, as ticked."""
    return ticked_one(request, ("smoke", "firefight"), "situation (smoke or firefight)") or "normal"

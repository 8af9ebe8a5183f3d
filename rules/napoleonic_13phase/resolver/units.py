"""A tactical unit as the 13-phase card's procedures read it, and what every resolution shares.

The states a unit carries between resolutions (their words are explained in
`rules/napoleonic_13phase/resolver/__init__.py`) and how long they last, the card's
side and unit type of a unit, the pools of d6 shown before the roll, and the effects that remove a unit.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_13phase.data import RULESET, UnitType, card, unit_type
from rules.napoleonic_13phase.rolls import ToHit
from rules.options import resolve_options
from rules.resolver import Effect, Request, State, Tick, Unit

FRENCH, AUSTRIAN = "french", "austrian"
CASUALTIES, CHARGING, CLOSING, HELD_OFF = "casualties", "charging", "closing", "held_off"
CONTACT, IN_MELEE, LOST_MELEE = "contact", "in_melee", "lost_melee"
HALTED, CHARGE_MARKER, RECALL_FAILED = "halted", "charge_marker", "recall_failed"
FIRED, FIREFIGHT, D6_CASUALTIES = "fired", "firefight", "d6_casualties"
RETIRES = "retires"  # lost a melee, failed its test by 1 or 2 in line: 'loser retires d6”'
# hidden attributes: whom a unit charges, fights or supports, and the battery's last shot
TARGET, OPPONENT, LAST_SHOT = "_charge_target", "_opponent", "_last_shot"
SUPPORTED_BY, FIREFIGHT_WITH = "_supported_by", "_firefight_with"

# the card's distances the words below name, as rules.toml holds them (inches)
BEHIND = card().artillery.behind_inches  # the unit behind an artillery target
SUPPORT = card().melee.support_inches  # a unit supporting artillery
FIREFIGHT_RANGE = card().movement.firefight_inches  # opposing lines locked in a firefight
DOUBLE_BEYOND = card().movement.double_beyond_inches  # a double move away from the enemy

STATES = (
    State(CASUALTIES, "took casualties", "until it checks morale (phase 2 for artillery fire, 4 or 9 for shooting)"),
    State(CHARGING, "charging", "this turn"),
    State(CLOSING, "closing for melee", "this turn: the enemy infantry it charges tests to stand"),
    State(HELD_OFF, "placed 2” away", "this turn: the infantry it charged stood; it may form line"),
    State(CONTACT, "in contact", "until the melee is fought"),
    State(IN_MELEE, "in melee", "until one side routs, is destroyed or recalls; it cannot shoot"),
    State(LOST_MELEE, "lost a melee", "until it checks morale in phase 7 or 12"),
    State(HALTED, "halted", "this turn: Halt. No movement this turn."),
    State(CHARGE_MARKER, "charge marker", "until it recalls in phase 13; it cannot move"),
    State(RECALL_FAILED, "failed to recall", "this turn and the next: it cannot move"),
    State(FIRED, "fired (phase 1)", f"this turn: the unit {BEHIND}” behind its target may be hit"),
    State(FIREFIGHT, "locked in a firefight", f"while the opposing lines stay within {FIREFIGHT_RANGE}”: it cannot move, charge or change formation"),
    State(D6_CASUALTIES, "takes d6 casualties", "until it rolls them: it could not form line when required"),
    State(RETIRES, "retires d6”", "until it rolls the d6”: it lost a melee and failed its test in line"),
)


def options(request: Request) -> dict[str, str]:
    return resolve_options(RULESET, request.options)


def nation(unit: Unit, chosen: Mapping[str, str]) -> str:
    """french or austrian: the card's side this battle side plays (option french_side)."""
    return FRENCH if unit.side == chosen["french_side"] else AUSTRIAN


def side_of(request: Request, unit: Unit | None = None) -> str:
    return nation(unit or request.actor, options(request))


def kind(unit: Unit) -> UnitType:
    """The unit's line on the movement table, checked against its arm."""
    found = unit_type(str(unit.attr("unit_type", "")))
    if found.arm != unit.arm:
        raise RulesError(f"{unit.name} is {unit.arm} but its unit type is {found.id.replace('_', ' ')}: change one of them")
    return found


def phase_number(request: Request) -> int:
    if not request.phase.startswith("phase_"):
        raise RulesError(f"{request.phase!r} is not a phase of the 13-phase turn")
    return int(request.phase.removeprefix("phase_"))


def unit_class(unit: Unit) -> str:
    return str(unit.attr("quality", "veteran"))


def in_line(unit: Unit | None) -> bool:
    return unit is not None and unit.arm == "infantry" and unit.attr("unit_type") == "infantry_line"


def target_row(target: Unit, ticked: frozenset[str], chosen: Mapping[str, str], *, artillery: bool) -> str:
    """The target's row on the to-hit table: its formation, Enfiladed Line, Fortification,
    Charging Cavalry (fire only) or cavalry as the option cavalry_target reads it."""
    found = kind(target)
    if "fortification" in ticked:
        return "fortification"
    if found.arm == "artillery":
        return "artillery"
    if found.arm == "cavalry":
        if target.has(CHARGING) and not artillery:
            return "charging_cavalry"
        return chosen["cavalry_target"]
    assert found.formation is not None
    return "enfiladed_line" if "enfiladed" in ticked else found.formation


def target_ticks(target: Unit | None) -> list[Tick]:
    infantry = target is not None and target.arm == "infantry"
    return [
        Tick("enfiladed", "Enfiladed Line (4+)", excluded=None if in_line(target) else "only a line is enfiladed"),
        Tick("fortification", "target in a Fortification", excluded=None if infantry else "only infantry holds a fortification"),
    ]


# -- pools of d6 and their words ------------------------------------------------------


def pool_dice(to_hit: ToHit) -> str | None:
    """The pool for the dice service, the modifiers already in the number needed."""
    if to_hit.dice == 0 or to_hit.needed > 6:
        return None
    return f"{to_hit.dice}d6>={to_hit.needed}"


def needed(to_hit: ToHit) -> str:
    mods = "".join(f", {m.value:+d} {m.label}" for m in to_hit.modifiers)
    return f"{to_hit.needed_text} on each of {to_hit.dice} dice ({to_hit.printed}{mods})"


def hits(to_hit: ToHit, record: DiceRecord | None, raw: tuple[int, ...] | None = None) -> int:
    dice = raw if raw is not None else (record.raw if record else ())
    return to_hit.read(dice) if to_hit.needed <= 6 else 0


def casualty_words(n: int) -> str:
    return f"{n} {'casualty' if n == 1 else 'casualties'}"


def hit_words(n: int, target: Unit) -> str:
    return f"{n} {'hit' if n == 1 else 'hits'} on {target.name}: {casualty_words(n)}"


def odds(counts: Mapping[int, Fraction], word=casualty_words) -> dict[str, Fraction]:
    return {word(n): p for n, p in counts.items() if p}


def inches(counts: Mapping[int, Fraction]) -> dict[str, Fraction]:
    return {f"{n}”": p for n, p in counts.items() if p}


# -- effects --------------------------------------------------------------------------


def hit_effect(target: Unit, n: int, *, tests: bool = True) -> tuple[Effect, ...]:
    """Casualties on a unit; it carries them to its morale check unless it does not test."""
    if not n:
        return ()
    add = {CASUALTIES: None} if tests and n < target.size else {}
    return (Effect(target.id, lost=n, add=add),)


def ends_melee(unit: Unit, units: Mapping[str, Unit]) -> tuple[Effect, ...]:
    """A unit leaves the table or recalls: whoever fought it is no longer in melee, nor locked
    in a firefight with it."""
    out = []
    for u in units.values():
        if u.removed:
            continue
        if u.attr(OPPONENT) == unit.id:
            out.append(Effect(u.id, clear=(IN_MELEE, CONTACT), set={OPPONENT: None}))
        if u.attr(FIREFIGHT_WITH) == unit.id:
            out.append(Effect(u.id, clear=(FIREFIGHT,), set={FIREFIGHT_WITH: None}))
    return tuple(out)


def removed(unit: Unit, units: Mapping[str, Unit], *, destroyed: bool) -> tuple[Effect, ...]:
    """Rout (no figures lost: the campaign's pursuit counts them) or destroyed (every figure)."""
    lost = unit.size if destroyed else 0
    return (Effect(unit.id, lost=lost, removed=True), *ends_melee(unit, units))


def cannot_move(unit: Unit) -> None:
    if unit.has(HALTED):
        raise RulesError(f"{unit.name}: Halt. No movement this turn.")
    if unit.has(RECALL_FAILED):
        raise RulesError(f"{unit.name} failed to recall: it cannot move this turn")
    if unit.has(CHARGE_MARKER):
        raise RulesError(f"{unit.name}: Units with a charge marker in place cannot move until recalled.")

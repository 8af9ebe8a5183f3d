"""Phases 3 and 8 on the resolver screen: moves (half, double, limbering, the firefight lock and
the 45-degree wheel), changes of formation (also those the results of phases 5, 7, 10 and 12
allow), charges and skirmishers evading them."""

from __future__ import annotations

from typing import Any

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_13phase import movement as moving
from rules.napoleonic_13phase.data import RULESET, card, unit_type
from rules.napoleonic_13phase.data import phase as card_phase
from rules.napoleonic_13phase.resolver.morale import STAND_PHASES
from rules.napoleonic_13phase.resolver.units import (
    AUSTRIAN,
    CHARGE_MARKER,
    CHARGING,
    DOUBLE_BEYOND,
    FIREFIGHT,
    FIREFIGHT_RANGE,
    FRENCH,
    HELD_OFF,
    TARGET,
    cannot_move,
    in_line,
    inches,
    kind,
    phase_number,
    side_of,
)
from rules.napoleonic_13phase.rolls import PlainRoll
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

FORMATIONS = {"column": "infantry_column", "line": "infantry_line", "square": "infantry_square",
              "masse": "battalion_masse"}

_MOVE_TICKS = (
    ("difficult_terrain", "Half movement in difficult terrain"),
    ("outside_command_range", "Half movement outside command range"),
    ("backwards", "Half movement moving backwards"),
    ("over_24_from_enemy", f"Double move if staying over {DOUBLE_BEYOND}” from the enemy"),
    ("first_turn", "1st turn (no double move; turn 1 of the battle counts without the tick)"),
)


def _firefight_tick(actor: Unit) -> Tick:
    return Tick("in_firefight", f"an infantry line locked in a firefight (opposing lines within {FIREFIGHT_RANGE}”)",
                checked=in_line(actor) and actor.has(FIREFIGHT),
                excluded=None if in_line(actor) else "only opposing lines of infantry are locked in a firefight")


def wheel_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("wheel", f"Degrees wheeled ({card().movement.printed['wheel']})", 0, None, 0)]


def _wheel(request: Request) -> int:
    degrees = request.numbers.get("wheel", 0)
    moving.check_wheel(degrees)
    return degrees


def _wheel_words(request: Request) -> str:
    degrees = _wheel(request)
    return f", wheeling {degrees} degrees" if degrees else ""


# -- moves ----------------------------------------------------------------------------------


def move_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    artillery = actor.arm == "artillery"
    return [*(Tick(i, label) for i, label in _MOVE_TICKS), _firefight_tick(actor),
            Tick("into_woods", "into woods"),
            Tick("limbering", "One move to limber/unlimber", excluded=None if artillery else "only artillery limbers")]


def _move(request: Request, *, changing: bool = False) -> moving.Allowance:
    cannot_move(request.actor)
    _wheel(request)
    t = request.ticked
    return moving.movement_allowance(moving.Move(
        phase=phase_number(request),
        side=side_of(request),
        unit=kind(request.actor).id,
        difficult_terrain="difficult_terrain" in t,
        outside_command_range="outside_command_range" in t,
        backwards="backwards" in t,
        changing_formation=changing,
        limbering="limbering" in t,
        over_24_from_enemy="over_24_from_enemy" in t,
        first_turn="first_turn" in t or request.turn == 1,
        in_firefight="in_firefight" in t,
        into_woods="into_woods" in t,
    ), request.options)


def allowance_text(allowance: moving.Allowance) -> str:
    said = [allowance.printed] if allowance.printed else []
    said += [a.effect for a in allowance.applied]
    return f"{float(allowance.inches):g}”" + (f" ({'; '.join(said)})" if said else "")


def move_prepare(request: Request) -> Prepared:
    return Prepared("movement", allowance_text(_move(request)), None)


def move_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    allowance = _move(request)
    actor = request.actor
    if "limbering" in request.ticked:
        limbered = kind(actor).limbered
        after = "artillery" if limbered else "limbered_artillery"
        return Outcome(f"{'unlimbers' if limbered else 'limbers'}: no move", (Effect(actor.id, set={"unit_type": after}),))
    return Outcome(f"moves up to {allowance_text(allowance)}{_wheel_words(request)}")


# -- changes of formation -------------------------------------------------------------------


def formation_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    infantry = actor.arm == "infantry"
    return [Tick(f, f"forms {f}", excluded=None if infantry else "only infantry changes formation") for f in FORMATIONS] + [
        _firefight_tick(actor)]


def _new_formation(request: Request) -> str:
    chosen = [f for f in FORMATIONS if f in request.ticked]
    if len(chosen) != 1:
        raise RulesError("tick the one formation the unit forms")
    after = FORMATIONS[chosen[0]]
    unit_type(after, side_of(request))
    if after == request.actor.attr("unit_type"):
        raise RulesError(f"{request.actor.name} is in {chosen[0]} already")
    return after


def _formation_rule(request: Request) -> str:
    """Where the card allows the change: the whole move of phases 3 and 8, or a result."""
    number, side, actor = phase_number(request), side_of(request), request.actor
    after = _new_formation(request)
    if card_phase(number).kind == "move_and_fire":
        _move(request, changing=True)
        return card().movement.printed["formation"]
    if number in STAND_PHASES and actor.has(HELD_OFF):
        pass_text = get_table(RULESET, "morale_results").lookup(phase=number, result="pass").text
        if after != "infantry_line":
            raise RulesError(f"a charge held off 2” away may only form line: '{pass_text}'")
        return pass_text
    by_result = {
        5: (AUSTRIAN, "battalion_masse", "Stand. May form battalion masse if currently in column."),
        10: (FRENCH, "infantry_square", "Stand. May form square."),
    }
    if number in by_result:
        who, formation, printed = by_result[number]
        if side != who or after != formation or (number == 5 and actor.attr("unit_type") != "infantry_column"):
            raise RulesError(f"in phase {number} the card allows only: {printed}")
        return printed
    if number in (7, 12):
        return "Opponent may make a free formation change."
    raise RulesError(f"formations change in phases 3 and 8, or as a result of phases 5, 7, 10 and 12, not in phase {number}")


def formation_prepare(request: Request) -> Prepared:
    return Prepared("change of formation", _formation_rule(request), None)


def formation_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    rule = _formation_rule(request)
    after = _new_formation(request)
    return Outcome(f"forms {after.replace('_', ' ')} ({rule})", (Effect(request.actor.id, set={"unit_type": after}),))


# -- charges --------------------------------------------------------------------------------


def charge_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    why = None if actor.arm == "infantry" else "charging cavalry make a full move"
    return [Tick("difficult_terrain", "Half movement in difficult terrain", excluded=why),
            Tick("outside_command_range", "Half movement outside command range", excluded=why)]


def _others_on(request: Request) -> int:
    """Friendly units already charging this target this turn (infantry: the other columns)."""
    actor, target = request.actor, request.target
    assert target is not None
    others = [u for u in request.units.values() if u.side == actor.side and u.id != actor.id and not u.removed
              and u.has(CHARGING) and u.attr(TARGET) == target.id]
    return sum(1 for u in others if u.arm == "infantry") if actor.arm == "infantry" else len(others)


def _charge(request: Request) -> dict[str, Any]:
    """What both kinds of charge tell the procedures, once the unit is shown free to move."""
    assert request.target is not None
    cannot_move(request.actor)
    _wheel(request)
    return {"phase": phase_number(request), "side": side_of(request), "unit": kind(request.actor).id,
            "target_unit": kind(request.target).id}


def _infantry_charge(request: Request) -> moving.Allowance:
    return moving.infantry_charge(moving.InfantryCharge(
        **_charge(request),
        other_columns_on_target=_others_on(request),
        difficult_terrain="difficult_terrain" in request.ticked,
        outside_command_range="outside_command_range" in request.ticked,
    ), request.options)


def _cavalry_charge(request: Request) -> PlainRoll:
    return moving.cavalry_charge(moving.CavalryCharge(**_charge(request), others_on_target=_others_on(request)))


def charge_prepare(request: Request) -> Prepared:
    if request.actor.arm == "cavalry":
        bonus = _cavalry_charge(request)
        return Prepared(f"cavalry charge: {card().charge.printed[1].split(' ... ')[0]}",
                        f"full move {bonus.base}” + 2d6” bonus", bonus.roll_of.dice, (("Charge move", inches(bonus.odds)),))
    allowance = _infantry_charge(request)
    return Prepared("infantry charge: Make a normal move into contact with the target.", allowance_text(allowance), None)


def charge_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    actor, target = request.actor, request.target
    assert target is not None
    marks: dict[str, int | None] = {CHARGING: 1}
    wheeling = _wheel_words(request)
    if actor.arm == "cavalry":
        bonus = _cavalry_charge(request)
        assert record is not None
        marks[CHARGE_MARKER] = None
        text = (f"charges {target.name}: {bonus.base + record.result}” ({bonus.base}” + {record.result}” bonus){wheeling}, "
                "fighting every unit contacted; mark the spot where the charge began")
    else:
        text = (f"charges {target.name}: moves up to {allowance_text(_infantry_charge(request))}{wheeling} into contact; "
                f"it tests to close in phase {phase_number(request) + 1}")
    return Outcome(text, (Effect(actor.id, add=marks, set={TARGET: target.id}),))


# -- skirmishers evade --------------------------------------------------------------------------


def _evade(request: Request) -> PlainRoll:
    current = card_phase(phase_number(request))
    side = side_of(request)
    if current.kind != "move_and_fire" or side != current.fires:
        raise RulesError("skirmishers evade the enemy's charge in the phase the enemy moves (French in 3, Austrians in 8)")
    return moving.skirmishers_evade(side, kind(request.actor).id)


def evade_prepare(request: Request) -> Prepared:
    roll = _evade(request)
    return Prepared(roll.roll_of.printed, "2d6” away", roll.roll_of.dice, (("Inches", inches(roll.odds)),),
                    ("Skirmishers shoot first: a Fire resolution.",))


def evade_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    _evade(request)
    assert record is not None
    # out of the charge's way: the chargers no longer have it as their target, so it owes
    # no test to stand (the umpire rules a contact, j, if the charge catches it after all)
    chargers = [Effect(u.id, set={TARGET: None}) for u in request.units.values()
                if u.side != request.actor.side and u.attr(TARGET) == request.actor.id]
    return Outcome(f"moves {record.result}” away from the charge. Destroyed if contacted.", tuple(chargers))

"""Charges and melee: the charge differential read on 'Charge in the Open' or 'Charge
in Cover' and its result on both units, continuing a charge, the ride-down, the
surrender percentage, and the melee rounds that follow a MELEE! result."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_d10 import charge as charging
from rules.napoleonic_d10.data import card, modifier, options_of, table
from rules.napoleonic_d10.resolver.effects import (
    casualties,
    merge,
    morale_due,
    removed,
    worsen,
)
from rules.napoleonic_d10.resolver.prepare import (
    label,
    mods_text,
    scratch,
    ticked_one,
    two_sides,
)
from rules.napoleonic_d10.resolver.units import (
    BROKEN,
    DISORDERED,
    FAR,
    FIREFIGHT,
    IN_MELEE,
    MELEE_WITH,
    SHAKEN,
    SURRENDERING,
    castings_per_stand,
    charge_arm,
    cw_level,
    leader,
    steps_taken,
    unit_class,
)
from rules.napoleonic_d10.rolls import distribution
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

DIRECTIONS = ("charging_flank", "charging_rear")
SECURE = ("secure_flank_1", "secure_flanks_2")
CHARGE_DIRECTIONS: dict[str, Literal["front", "flank", "rear"]] = {"charging_flank": "flank", "charging_rear": "rear"}
CHARGE = card().charge


def charge_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    attacker = {row: label("charge_modifiers", row, side="attacker")
                for row in ("standing_cavalry", "charge_downhill", *DIRECTIONS)}
    secure = modifier("charge_modifiers", "secure_flanks", side="defender")
    return [
        Tick("standing_cavalry", attacker["standing_cavalry"],
             excluded=None if actor.arm == "cavalry" else "'Standing Cav' is for charging cavalry only"),
        Tick("charge_downhill", attacker["charge_downhill"]),
        *(Tick(d, attacker[d]) for d in DIRECTIONS),
        Tick("secure_flank_1", f"defender: {secure.label} {secure.value:+d} (one)"),
        Tick("secure_flanks_2", f"defender: {secure.label} {2 * secure.value:+d} (both)"),
        *(Tick(c, "defender: " + label("charge_modifiers", c, side="defender")) for c in charging.COVER_TABLE),
    ]


def charge_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("closing_casualties", "Closing casualties, % of the attacker (Closing Cas. ea. 10%)", 0, 100, 0),
            Number("next_target", f"Inches from the position occupied to the next target, to continue ({FAR}: none)",
                   0, FAR, FAR)]


def _side(unit: Unit) -> charging.ChargeSide:
    if unit.size < 1:
        raise RulesError(f"{unit.name} has no stands left")
    return charging.ChargeSide(
        charge_arm(unit), unit.attr("formation", "line"), unit.size, cw_level(unit), unit_class(unit),
        shaken=unit.has(SHAKEN), disordered=unit.has(DISORDERED), broken=unit.has(BROKEN), leader=leader(unit),
    )


def _situation(request: Request) -> charging.ChargeSituation:
    assert request.target is not None
    direction = ticked_one(request, DIRECTIONS, "direction (flank or rear)")
    secure = ticked_one(request, SECURE, "number of secure flanks")
    return charging.ChargeSituation(
        _side(request.actor), _side(request.target),
        standing="standing_cavalry" in request.ticked,
        closing_casualties_percent=request.numbers.get("closing_casualties", 0),
        downhill="charge_downhill" in request.ticked,
        direction=CHARGE_DIRECTIONS.get(direction or "", "front"),
        defender_secure_flanks={"secure_flank_1": 1, "secure_flanks_2": 2}.get(secure or "", 0),
        defender_cover=ticked_one(request, charging.COVER_TABLE, "cover for the defender") or "none",
    )


def charge_prepare(request: Request) -> Prepared:
    s = _situation(request)
    check = charging.charge_check(s, request.options)
    title = table(check.table).title
    both = (f"attacker {check.attacker_dice or 'no dice'} ({mods_text(check.attacker_modifiers)}) against "
            f"defender {check.defender_dice or 'no dice'} ({mods_text(check.defender_modifiers)})")
    rolls = () if check.attacker_dice is None or check.defender_dice is None else two_sides(
        request, check.attacker_dice, check.defender_dice)
    return Prepared(f"charge: {title}", f"{both}; differential {check.modifier:+d} plus the dice", None,
                    (("Charge result", check.odds()),), rolls=rolls)


def _continues(request: Request, result: charging.ChargeResult) -> str:
    """'Both infantry and cavalry may continue a charge if...': said when the next target is near enough."""
    attacker, near = request.actor, request.numbers.get("next_target", FAR)
    if near >= FAR or attacker.arm == "artillery" or not result.attacker_may_occupy:
        return ""
    reach = CHARGE.continue_within["cavalry" if attacker.arm == "cavalry" else "infantry"]
    if charging.may_continue_charge(charge_arm(attacker), result, near):
        return f'; {attacker.name} may continue the charge: the next target is less than {reach}" from the position occupied'
    return f'; the next target is not less than {reach}" away: the charge does not continue'


def _charge_effects(request: Request, s: charging.ChargeSituation, result: charging.ChargeResult) -> tuple[list[Effect], str]:
    attacker, defender = request.actor, request.target
    assert defender is not None
    options = request.options
    name = result.name
    loser = attacker if result.loser == charging.ATTACKER else defender
    effects: list[Effect] = []
    text = ""
    if name in CHARGE.kinds["surrender"]:
        effects.append(Effect(loser.id, add={SURRENDERING: None}))
        text = f"; {loser.name} rolls 1d10 for the percentage which surrenders"
    elif name in ("attacker_disintegrates", "defender_routs"):
        effects.append(removed(loser, options))
    elif name in ("attacker_thrown_back_broken", "defender_falls_back_broken"):
        effects.append(worsen(loser, BROKEN, options))
    elif name in ("attacker_staggers", "defender_recoils_disordered"):
        effects.append(worsen(loser, DISORDERED, options))
    elif name == "firefight":
        effects += [Effect(u.id, add={FIREFIGHT: None}) for u in (attacker, defender)]
    elif name == "melee":
        # "All participants of a melee are concidered at least disordered."
        for unit, other in ((attacker, defender), (defender, attacker)):
            effects.append(merge(worsen(unit, DISORDERED, options), Effect(unit.id, add={IN_MELEE: None}, set={MELEE_WITH: other.id})))
        text = "; melee rounds follow"
    ride = charging.may_ride_down(s, result, options)
    if ride:
        text += f"; the cavalry may Ride Down {loser.name}: a round of melee first, its melee modifier {CHARGE.ride_down_modifier}"
    elif ride is None:
        text += "; the umpire says whether the result lies in the dotted line area (Ride Down)"
    return effects, text + _continues(request, result)


def charge_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    s = _situation(request)
    check = charging.charge_check(s, request.options)
    entered: dict[str, Sequence[int]] = {}
    if check.attacker_dice is not None and check.defender_dice is not None:
        assert record is not None
        entered = {"attacker_entered": record.of("attacker"), "defender_entered": record.of("defender")}
    result = charging.resolve_charge(s, scratch(), options=request.options, **entered).result
    effects, more = _charge_effects(request, s, result)
    text = f"{result.text} (differential {result.differential:+d})"
    if result.shift:
        text += f"; Cavalry does not Firefight: shifted {result.shift}"
    return Outcome(text + more, tuple(effects))


def melee_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    infantry_cavalry = target is not None and {actor.arm, target.arm} == {"infantry", "cavalry"}
    ride = Tick("ride_down", f"Ride Down: the infantry's melee modifier {CHARGE.ride_down_modifier}",
                excluded=None if infantry_cavalry else "only cavalry rides down infantry")
    return [ride, *charge_ticks(actor, target)]


def _melee_check(request: Request) -> charging.MeleeCheck:
    assert request.target is not None
    ride = "ride_down" in request.ticked
    if not ride and not (request.actor.has(IN_MELEE) and request.actor.attr(MELEE_WITH) == request.target.id):
        raise RulesError(f"{request.actor.name} is not in a melee with {request.target.name}: melee follows a MELEE! charge result or a ride down")
    return charging.melee_check(_situation(request), request.options, ride_down=ride)


def melee_prepare(request: Request) -> Prepared:
    assert request.target is not None
    check = _melee_check(request)
    odds = check.odds()
    return Prepared(
        "melee: both sides roll 1d10 and add modifiers",
        f"{request.actor.name} ({mods_text(check.attacker_modifiers)}) against {request.target.name} "
        f"({mods_text(check.defender_modifiers)}): the high modified roll wins",
        None,
        (("Melee round", {f"{request.actor.name} wins": odds[charging.ATTACKER],
                          f"{request.target.name} wins": odds[charging.DEFENDER], "equal": odds["equal"]}),),
        rolls=two_sides(request, check.dice, check.dice),
    )


def melee_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    check = _melee_check(request)
    rolled = charging.melee_round(check, scratch(), attacker_entered=record.of("attacker"),
                                  defender_entered=record.of("defender"), options=request.options)
    actor, target = request.actor, request.target
    totals = f"{rolled.attacker_record.result} against {rolled.defender_record.result}"
    if rolled.roll_again:
        return Outcome(f"{totals}: equal modified rolls, the round is rolled again (option melee_tie)")
    winner = {charging.ATTACKER: actor.name, charging.DEFENDER: target.name}.get(rolled.winner or "", None)
    text = f"{totals}: " + (f"{winner} wins" if winner else "equal modified rolls, no winner")
    text += f"; {actor.name} takes {rolled.attacker_steps}, {target.name} takes {rolled.defender_steps} casualty steps; both sides check morale"
    reason = ["Melee: both sides check morale"]
    effects = []
    for unit, steps in ((actor, rolled.attacker_steps), (target, rolled.defender_steps)):
        effect = merge(casualties(unit, steps, request.options), morale_due(unit, reason))
        effects.append(merge(effect, worsen(unit, DISORDERED, request.options)))
    return Outcome(text, tuple(effects))


def surrender_prepare(request: Request) -> Prepared:
    if not request.actor.has(SURRENDERING):
        raise RulesError(f"{request.actor.name} has no charge result that makes it surrender")
    dice = card().dice.surrender
    odds = distribution(dice, lambda n: f"{charging.surrender_percent(n)}%")
    return Prepared("surrender: the percentage of the unit which surrenders", f"{dice} x {CHARGE.surrender_percent_per_pip}%",
                    dice, (("Surrenders", odds),))


def surrender_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    unit, options = request.actor, request.options
    share = Fraction(charging.surrender_percent(record.result), 100)
    per = castings_per_stand(unit, options)
    figures = unit.size * per - steps_taken(unit) % per
    exact = share * figures
    rounding = options_of(options)["surrender_rounding"]
    taken = math.floor(exact) if rounding == "down" else math.ceil(exact) if rounding == "up" else math.floor(exact + Fraction(1, 2))
    effect = merge(removed(unit, options, steps=taken), Effect(unit.id, clear=(SURRENDERING,)))
    return Outcome(f"{int(share * 100)}% surrender ({taken} castings); the remaining figures rout", (effect,))

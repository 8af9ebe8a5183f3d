"""Phases 6 and 11 on the resolver screen: a melee, one unit a side, by the card's matchups;
and the unit 2” behind or beside artillery that fights instead of it."""

from __future__ import annotations

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_13phase import melee as melees
from rules.napoleonic_13phase.data import card
from rules.napoleonic_13phase.data import phase as card_phase
from rules.napoleonic_13phase.resolver.units import (
    CHARGE_MARKER,
    CLOSING,
    CONTACT,
    IN_MELEE,
    LOST_MELEE,
    OPPONENT,
    SUPPORT,
    SUPPORTED_BY,
    casualty_words,
    hits,
    kind,
    needed,
    odds,
    phase_number,
    pool_dice,
    removed,
    side_of,
    unit_class,
)
from rules.napoleonic_13phase.rolls import Hits
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Roll, Tick, Unit

_SUPPORT = 1  # line of [melee] printed


def melee_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    infantry = target is not None and target.arm == "infantry"
    continuing = target is not None and actor.has(IN_MELEE) and actor.attr(OPPONENT) == target.id
    artillery = target is not None and target.arm == "artillery"
    return [
        Tick("defender_defensive", "-1 Enemy in defensive terrain (the defender is: -1 to the attacker's dice)"),
        Tick("attacker_defensive", "-1 Enemy in defensive terrain (the attacker is: -1 to the defender's dice)"),
        Tick("fortification", "the defender is infantry in a Fortification",
             excluded=None if infantry else "only infantry holds a fortification"),
        Tick("continuing", "continuing a melee (not a first combat)", checked=continuing),
        Tick("supported", f"Artillery Supported by a unit {SUPPORT}” behind or beside it (named by 'Support artillery')",
             checked=artillery and target is not None and bool(target.attr(SUPPORTED_BY)),
             excluded=None if artillery else "the defender is not artillery"),
    ]


def melee_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("infantry_contacted", "Infantry units contacted (cavalry passing through)", 1, None, 1)]


def _supporter(request: Request) -> Unit | None:
    """The unit that fights instead of the artillery defending, when 'supported' is ticked."""
    target = request.target
    assert target is not None
    if "supported" not in request.ticked:
        return None
    support = request.units.get(str(target.attr(SUPPORTED_BY)))
    if support is None or support.removed:
        raise RulesError(f"no unit supports {target.name}: name it with 'Support artillery' first (r on the supporting unit)")
    return support


def _combatant(unit: Unit, request: Request, *, defensive: bool, fortification: bool = False,
               supported_by: melees.Combatant | None = None) -> melees.Combatant:
    return melees.Combatant(
        side=side_of(request, unit),
        unit=kind(unit).id,
        unit_class=unit_class(unit),
        figures=unit.size,
        defensive_terrain=defensive,
        fortification=fortification,
        lancers=bool(unit.attr("lancers")),
        supported_by=supported_by,
    )


def _melee(request: Request) -> tuple[melees.MeleePlan, Unit]:
    """The card's plan for the melee, and the unit that fights as the defender."""
    target = request.target
    assert target is not None
    t = request.ticked
    support = _supporter(request)
    backing = _combatant(support, request, defensive="defender_defensive" in t) if support else None
    fight = melees.Melee(
        phase=phase_number(request),
        attacker=_combatant(request.actor, request, defensive="attacker_defensive" in t),
        defender=_combatant(target, request, defensive="defender_defensive" in t, fortification="fortification" in t,
                            supported_by=backing),
        continuing="continuing" in t,
        infantry_contacted=request.numbers.get("infantry_contacted", 1),
    )
    return melees.melee(fight, request.options), support or target


def _melee_rolls(plan: melees.MeleePlan, request: Request, defender: Unit) -> tuple[Roll, ...]:
    """Each side's melee dice, named (read back with DiceRecord.of); a side with none rolls nothing."""
    a, d = plan.attacker_dice, plan.defender_dice
    if a is None or d is None:
        return ()
    return tuple(Roll(part, f"{part} {unit.name}", f"{dice.dice}d6", unit.side)
                 for part, unit, dice in (("attacker", request.actor, a), ("defender", defender, d)) if dice.dice)


def melee_prepare(request: Request) -> Prepared:
    plan, defender = _melee(request)
    notes = (f"{defender.name} fights instead of the Artillery",) if defender is not request.target else ()
    if plan.destroyed is not None:
        return Prepared(f"melee: {plan.matchup.replace('_', ' ')}", plan.printed, None, (("Result", plan.odds()),), notes)
    if plan.pass_through is not None:
        return Prepared("melee: cavalry pass through (Infantry do not roll melee dice)", needed(plan.pass_through),
                        pool_dice(plan.pass_through), (("Cavalry casualties", plan.odds()),), notes)
    a, d = plan.attacker_dice, plan.defender_dice
    assert a is not None and d is not None
    what = f"melee: {request.actor.name}'s {a.dice} dice against {defender.name}'s {d.dice}"
    return Prepared(what, f"attacker {needed(a)}; defender {needed(d)}", None,
                    (("Attacker inflicts", odds(a.odds())), ("Defender inflicts", odds(d.odds())), ("Result", plan.odds())),
                    notes, rolls=_melee_rolls(plan, request, defender))


def melee_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    plan, target = _melee(request)
    actor = request.actor
    if plan.destroyed is not None:
        return Outcome(plan.printed, removed(target, request.units, destroyed=True))
    if plan.pass_through is not None:
        n = hits(plan.pass_through, record)
        effects = (Effect(actor.id, lost=n, add={CHARGE_MARKER: None}, clear=(CONTACT,)), Effect(target.id, clear=(CONTACT,)))
        return Outcome(f"{plan.printed} The cavalry take {casualty_words(n)}.", effects)
    a, d = plan.attacker_dice, plan.defender_dice
    assert a is not None and d is not None
    def rolled(part: str) -> tuple[int, ...]:
        return record.of(part) if record is not None else ()

    result = melees.MeleeResult(plan, attacker_hits=Hits(a, hits(a, None, rolled("attacker")), record),
                                defender_hits=Hits(d, hits(d, None, rolled("defender")), record))
    inflicted, received = result.attacker_hits.hits, result.defender_hits.hits  # type: ignore[union-attr]  # both Hits given just above
    loser = {melees.ATTACKER: actor, melees.DEFENDER: target}.get(str(result.loser))
    changes: list[Effect] = []
    for unit, lost, enemy in ((actor, received, target), (target, inflicted, actor)):
        add: dict[str, int | None] = {IN_MELEE: None}
        if unit is loser:
            add[LOST_MELEE] = 1
        changes.append(Effect(unit.id, lost=lost, add=add, clear=(CONTACT, CLOSING), set={OPPONENT: enemy.id}))
    return Outcome(result.text, tuple(changes))


# -- a unit supports artillery --------------------------------------------------------------------


def support_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("distance", "Inches from the artillery (behind or beside it)", 0, None, 0)]


def _support(request: Request) -> str:
    actor, guns = request.actor, request.target
    assert guns is not None
    printed = card().melee.printed[_SUPPORT]
    if card_phase(phase_number(request)).kind != "melee":
        raise RulesError("a unit supports artillery in the melee phases, 6 and 11")
    if guns.arm != "artillery":
        raise RulesError(f"{guns.name} is not artillery: '{printed}'")
    if actor.arm == "artillery":
        raise RulesError(f"{actor.name} is artillery: artillery is supported by a unit that is not")
    if request.numbers.get("distance", 0) > card().melee.support_inches:
        raise RulesError(f"{actor.name} is too far to support {guns.name}: '{printed}'")
    return printed


def support_prepare(request: Request) -> Prepared:
    return Prepared("a unit supports artillery", _support(request), None)


def support_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    _support(request)
    guns = request.target
    assert guns is not None
    return Outcome(f"{request.actor.name} supports {guns.name}: it fights instead of the Artillery",
                   (Effect(guns.id, set={SUPPORTED_BY: request.actor.id}),))

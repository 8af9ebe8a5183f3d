"""Fire in phases 3 and 8 on the resolver screen: infantry and artillery shooting (4” range,
one die per two figures), the firefight lock of opposing lines within 4”, and squares
firing two dice at the cavalry that contacts them."""

from __future__ import annotations

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_13phase import fire as firing
from rules.napoleonic_13phase import movement as moving
from rules.napoleonic_13phase.data import card, unit_type
from rules.napoleonic_13phase.data import phase as card_phase
from rules.napoleonic_13phase.resolver.units import (
    CHARGING,
    FIREFIGHT,
    FIREFIGHT_WITH,
    IN_MELEE,
    hit_effect,
    hit_words,
    hits,
    kind,
    needed,
    odds,
    options,
    phase_number,
    pool_dice,
    side_of,
    target_row,
    target_ticks,
)
from rules.napoleonic_13phase.rolls import ToHit
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit


def fire_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    cavalry = target is not None and target.arm == "cavalry"
    return [*target_ticks(target),
            Tick("charging_cavalry", "Charging Cavalry (6+)", checked=cavalry and target is not None and target.has(CHARGING),
                 excluded=None if cavalry else "the target is not cavalry")]


def fire_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("distance", "Inches to the target", 0, None, card().fire.range_inches)]


def _fire(request: Request) -> ToHit:
    assert request.target is not None
    if "charging_cavalry" in request.ticked and not request.target.has(CHARGING):
        raise RulesError(f"{request.target.name} has not charged this turn")
    return firing.fire(firing.Fire(
        phase=phase_number(request),
        side=side_of(request),
        unit=kind(request.actor).id,
        figures=request.actor.size,
        target=target_row(request.target, request.ticked, options(request), artillery=False),
        distance=request.numbers.get("distance", card().fire.range_inches),
        continuing_melee=request.actor.has(IN_MELEE),
    ), request.options)


def _pool_prepare(what: str, to_hit: ToHit) -> Prepared:
    return Prepared(what, needed(to_hit), pool_dice(to_hit), (("Casualties", odds(to_hit.odds())),))


def fire_prepare(request: Request) -> Prepared:
    return _pool_prepare(f"fire, one die per two figures ({request.actor.size})", _fire(request))


def _firefight(request: Request, n: int) -> tuple[Effect, ...]:
    """Two opposing lines within 4”: both are locked until one leaves the table (or the umpire
    takes the state off when they are no longer within 4”)."""
    actor, target = request.actor, request.target
    assert target is not None
    distance = request.numbers.get("distance", card().fire.range_inches)
    if n >= target.size or not moving.locked_in_firefight(kind(actor).id, kind(target).id, distance):
        return ()
    return (Effect(actor.id, add={FIREFIGHT: None}, set={FIREFIGHT_WITH: target.id}),
            Effect(target.id, add={FIREFIGHT: None}, set={FIREFIGHT_WITH: actor.id}))


def fire_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    target = request.target
    assert target is not None
    n = hits(_fire(request), record)
    tests = not (target.arm == "cavalry" and target.has(CHARGING))  # 'Charging cavalry do not test'
    text = hit_words(n, target)
    if n and tests:
        text += f"; it checks morale in phase {phase_number(request) + 1}"
    locked = _firefight(request, n)
    if locked:
        text += f". {card().movement.printed['firefight']}"
    return Outcome(text, (*hit_effect(target, n, tests=tests), *locked))


# -- squares contacted ------------------------------------------------------------------------


def _square_fire(request: Request) -> ToHit:
    actor, target = request.actor, request.target
    assert target is not None
    current = card_phase(phase_number(request))
    if current.kind != "move_and_fire":
        raise RulesError("squares fire at cavalry charging them in phases 3 and 8")
    if side_of(request) != current.fires:
        raise RulesError(f"in phase {current.number} the {current.moves} charge: their squares do not fire")
    if kind(actor).formation != "square":
        raise RulesError(f"{actor.name} is not in square: 'Squares contacted fire two dice.'")
    unit_type(kind(actor).id, side_of(request))  # the side's own movement table: the Austrians have no square
    if target.arm != "cavalry" or not target.has(CHARGING):
        raise RulesError(f"{target.name} is not charging cavalry")
    return firing.square_fire()


def square_prepare(request: Request) -> Prepared:
    return _pool_prepare("Squares contacted fire two dice.", _square_fire(request))


def square_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    n = hits(_square_fire(request), record)
    return Outcome(f"{hit_words(n, request.target)} (charging cavalry do not test)",
                   hit_effect(request.target, n, tests=False))

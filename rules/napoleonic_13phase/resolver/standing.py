"""Phases 5 and 10 on the resolver screen: the charged infantry checks morale to stand, and
French Guard infantry held off 2” away may take one casualty and continue the charge."""

from __future__ import annotations

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_13phase import morale as morales
from rules.napoleonic_13phase import movement as moving
from rules.napoleonic_13phase.resolver.morale import (
    STAND_PHASES,
    morale_test,
    prepared,
    rolled,
)
from rules.napoleonic_13phase.resolver.units import (
    CHARGING,
    CLOSING,
    CONTACT,
    HELD_OFF,
    OPPONENT,
    TARGET,
    casualty_words,
    kind,
    phase_number,
    removed,
    side_of,
)
from rules.resolver import Effect, Outcome, Prepared, Request, Tick, Unit


def stand_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    not_column = actor.arm == "infantry" and actor.attr("unit_type") != "infantry_column"
    return [
        Tick("general_attached", "+1 General attached", checked=bool(actor.attr("general"))),
        Tick("flank_or_rear", "-1 Charged in flank/rear"),
        Tick("not_in_column", "-1 Infantry not in column (phase 5; from its formation)", checked=not_column,
             excluded=None if not_column else f"{actor.name} is in column"),
    ]


def _charger(request: Request) -> Unit:
    charger = request.target
    assert charger is not None
    if not charger.has(CHARGING) or charger.attr(TARGET) != request.actor.id:
        raise RulesError(f"{charger.name} has not charged {request.actor.name} this turn")
    if charger.arm == "infantry" and not charger.has(CLOSING):
        raise RulesError(f"{charger.name} has not passed its test to close for melee")
    return charger


def stand_check(request: Request) -> morales.MoraleCheck:
    number = phase_number(request)
    if number not in STAND_PHASES:
        raise RulesError(f"infantry test to stand for melee in phases {' and '.join(map(str, STAND_PHASES))}, not in phase {number}")
    _charger(request)
    return morales.morale_check(morale_test(request, number), request.options)


stand_prepare = prepared(stand_check, "test to stand")


def stand_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    check, outcome, words = rolled(stand_check, request, record)
    actor, charger = request.actor, _charger(request)
    if outcome == morales.ROUT:
        return Outcome(words, (Effect(charger.id, clear=(CLOSING,)), *removed(actor, request.units, destroyed=False)))
    if outcome == morales.PASS and charger.arm == "infantry":
        # 'Charging ... infantry are placed 2” away and may form line if there is enough room.'
        return Outcome(words, (Effect(charger.id, add={HELD_OFF: 1}, clear=(CHARGING, CLOSING)),))
    contact = (Effect(actor.id, add={CONTACT: None}, set={OPPONENT: charger.id}),
               Effect(charger.id, add={CONTACT: None}, clear=(CLOSING,), set={OPPONENT: actor.id}))
    return Outcome(f"{words} {charger.name} contacts {actor.name}: they fight in phase {check.phase.number + 1}.", contact)


# -- phase 5: the French Guard presses its charge ---------------------------------------------


def _guard(request: Request) -> int:
    """The casualties it costs, once the Guard is shown to have been held off by this target."""
    actor, target = request.actor, request.target
    assert target is not None
    if phase_number(request) != 5:
        raise RulesError("French Guard infantry press their charge in phase 5, when the Austrians stand")
    if not actor.attr("guard"):
        raise RulesError(f"{actor.name} is not Guard infantry")
    cost = moving.guard_presses_charge(side_of(request), kind(actor).id)
    if not actor.has(HELD_OFF) or actor.attr(TARGET) != target.id:
        raise RulesError(f"{actor.name} was not placed 2” away from {target.name} by its test to stand this turn")
    return cost


def guard_prepare(request: Request) -> Prepared:
    return Prepared("French Guard infantry may take one casualty and continue the charge",
                    f"{casualty_words(_guard(request))}, no roll", None)


def guard_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    cost = _guard(request)
    actor, target = request.actor, request.target
    assert target is not None
    return Outcome(f"{actor.name} takes {casualty_words(cost)} and continues the charge into {target.name}: they fight in phase 6.",
                   (Effect(actor.id, lost=cost, add={CONTACT: None}, clear=(HELD_OFF,), set={OPPONENT: target.id}),
                    Effect(target.id, add={CONTACT: None}, set={OPPONENT: actor.id})))

"""Phase 3, the charge: the charge of a UC within 5 cm of an enemy, the tests (a)
and (b) (not cumulative), the charged UC's defensive fire or counter-attack, and the
chargers' test."""

from __future__ import annotations

from collections.abc import Mapping

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_uc_um.data import RULESET, card
from rules.napoleonic_uc_um.morale import morale_check, roll_morale
from rules.napoleonic_uc_um.movement import may_charge, turn_actions
from rules.options import resolve_options
from rules.napoleonic_uc_um.resolver.morale import broken_effects, morale_situation
from rules.napoleonic_uc_um.resolver.shown import Given, step_test_prepared, words
from rules.napoleonic_uc_um.resolver.units import (
    CHANGED,
    CHARGED,
    CHARGING,
    COUNTER_CHARGED,
    FIRED,
    FLANK_CHARGE,
    MOVED,
    TESTED_A,
    experience,
    not_broken,
)
from rules.napoleonic_uc_um.rolls import Check
from rules.napoleonic_uc_um.sequence import charge_tests
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

_TEST_STEP = {"test_a": "3.3", "test_b": "3.4", "chargers_test": "3.7"}


def charge_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("distance", "Distance de l'ennemi en cm (distance to the enemy)", 0, 200, 5)]


def charge_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [Tick("flank_or_rear", "sur le flanc ou les arrières (on the flank or rear)")]


def charge_prepare(request: Request) -> Prepared:
    actor = request.actor
    not_broken(actor)
    if actor.arm == "artillery":
        raise RulesError("artillery does not charge")
    if actor.has(CHARGING):
        raise RulesError(f"{actor.name} is already charging")
    reach = card().distances.charge_reach
    distance = request.numbers.get("distance", 5)
    if not may_charge(distance):
        raise RulesError(f"a UC charges an enemy within {reach} cm "
                         f"('Charge pour les UC qui sont à 5 cm d'un ennemi'), not {distance} cm")
    turn_actions(experience(actor), moved=actor.has(MOVED), changed_formation=actor.has(CHANGED),
                 options=request.options).check(charges=True, fired=actor.has(FIRED))
    return Prepared("charge", f"an enemy within {reach} cm", None)


def charge_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    actor, target = request.actor, request.target
    assert target is not None
    flank = "flank_or_rear" in request.ticked
    tests = charge_tests(charging=True, on_foot=actor.arm == "infantry",
                         charging_cavalry_frontally=target.arm == "cavalry" and not flank, charged=actor.has(CHARGED),
                         options=request.options)
    theirs = charge_tests(charged=True, options=request.options)
    add: dict[str, int | None] = {CHARGING: 1}
    if flank:
        add[FLANK_CHARGE] = 1
    return Outcome(f"charges {target.name}{' in the flank or rear' if flank else ''}: it tests at step(s) "
                   f"{', '.join(tests)}; {target.name} tests at step {', '.join(theirs)}",
                   (Effect(actor.id, add=add), Effect(target.id, add={CHARGED: 1})))


def _check_tester(action: str, actor: Unit, target: Unit, options: Mapping[str, str]) -> None:
    """One sentence when this UC does not take this test of the charge sequence against `target`."""
    if action == "test_b":
        if not (actor.has(CHARGED) and target.has(CHARGING)):
            raise RulesError(f"{actor.name} is not charged by {target.name}")
        if actor.has(TESTED_A) and resolve_options(RULESET, options)["non_cumulable"] == "one_test":
            raise RulesError(f"{actor.name} took test (a): the tests (a) and (b) are not cumulative (*** Non cumulable)")
        return
    if not (actor.has(CHARGING) and target.has(CHARGED)):
        raise RulesError(f"{actor.name} is not charging {target.name}")
    if action == "test_a" and (actor.arm != "infantry" or target.arm != "cavalry" or actor.has(FLANK_CHARGE)):
        raise RulesError("test (a) is for UC on foot charging cavalry frontally "
                         "('UC à pied chargeant frontalement la Cavalerie')")


def _charge_test(request: Request) -> Check:
    assert request.target is not None
    not_broken(request.actor)
    _check_tester(request.action, request.actor, request.target, request.options)
    return morale_check(morale_situation(request, _TEST_STEP[request.action]), request.options)


def charge_test_prepare(request: Request) -> Prepared:
    return step_test_prepared(_charge_test(request))


def charge_test_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    result = roll_morale(_charge_test(request), Given(record), options=request.options)
    effects = list(broken_effects(request, [request.actor], bool(result.successes)))
    if request.action == "test_a":
        effects.append(Effect(request.actor.id, add={TESTED_A: 1}))
    return Outcome(words(result), tuple(effects))


def counter_prepare(request: Request) -> Prepared:
    actor, target = request.actor, request.target
    assert target is not None
    not_broken(actor)
    if not (actor.has(CHARGED) and target.has(CHARGING)):
        raise RulesError(f"a counter-attack is by a charged UC against its charger; {actor.name} is not charged by {target.name}")
    if actor.has(FIRED):
        raise RulesError(f"{actor.name} fired: 'Tir défensif ou contre-attaque', not both")
    if actor.arm == "artillery":
        raise RulesError("artillery does not counter-attack")
    return Prepared("contre-attaque (counter-attack)", "no roll", None)


def counter_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    return Outcome(f"contre-attaque (counter-attacks) {request.target.name}",
                   (Effect(request.actor.id, add={COUNTER_CHARGED: 1}),))

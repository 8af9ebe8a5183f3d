"""Phase 3 after the charge: (c) the melee and its hits, the test after the round,
the winner's pursuit or consolidation, a new contact, and the markers taken off the
UC that stood still."""

from __future__ import annotations

from dataclasses import replace

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_uc_um.data import card, factors
from rules.napoleonic_uc_um.melee import (
    MeleeSituation,
    fighting_elements,
    melee_check,
    melee_factors,
    melee_loss_odds,
    roll_melee,
)
from rules.napoleonic_uc_um.morale import (
    morale_check,
    roll_morale,
    who_tests_after_melee,
)
from rules.napoleonic_uc_um.movement import Move
from rules.napoleonic_uc_um.resolver.fire import stored_reason
from rules.napoleonic_uc_um.resolver.morale import flank_numbers, morale_situation
from rules.napoleonic_uc_um.resolver.movement import moved
from rules.napoleonic_uc_um.resolver.shown import (
    Given,
    arm_excluded,
    factor_ticks,
    hits_prepared,
    hits_text,
    step_test_prepared,
    words,
)
from rules.napoleonic_uc_um.resolver.units import (
    CHANGED,
    CHARGING,
    COUNTER_CHARGED,
    DISORDERED,
    FALLEN_BACK,
    FIRE_HITS,
    MELEE_HITS,
    MOVED,
    RALLYING,
    ROUND_LOSSES,
    ROUT,
    cavalry_kind,
    experience,
    not_broken,
    troop,
)
from rules.napoleonic_uc_um.rolls import Check
from rules.napoleonic_uc_um.sequence import (
    advance_after_melee_cm,
    after_melee_test,
    after_pursuit,
    melee_winner,
)
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

# the melee factors that follow from the units' stored arm, kind and formation
_FROM_UNITS = ("cavalry_vs_open_infantry", "lancers_cuirassiers_vs_open_infantry", "against_cuirassiers",
               "enemy_in_cover", "cavalry_vs_solid_square", "cavalry_vs_hollow_square")


def melee_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    excluded = arm_excluded("melee", actor)
    ticked: frozenset[str] = frozenset()
    if target is not None:
        ticked = melee_factors(troop(actor), troop(target), enemy_counter_charged=target.has(COUNTER_CHARGED))
        excluded.update({f: stored_reason(target) for f in _FROM_UNITS if f not in ticked and f not in excluded})
    column = Tick("french_column", "Colonne avec doctrine Française ayant chargée ou contre-chargée "
                  "(column with French doctrine that charged or counter-charged: its 2nd rank fights in round 1)",
                  checked=actor.has(CHARGING) or actor.has(COUNTER_CHARGED))
    if actor.arm != "infantry" or actor.attr("formation") not in ("attack_column", "march_column"):
        column = Tick(column.id, column.label, excluded=f"{actor.name} is not infantry in column")
    return [*factor_ticks("melee", ticked, excluded), column]


def melee_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [
        Number("round", "Tour de combat (round)", 1, 20, 1),
        Number("elements", "EC qui combattent: au contact (1er tour), à 5 cm (autres tours) (EC fighting)",
               0, max(1, actor.size), max(1, actor.size)),
        Number("second_rank", "EC du 2ème rang (second rank, round 1)", 0, max(0, actor.size), 0),
    ]


def _melee(request: Request) -> Check:
    actor, target = request.actor, request.target
    assert target is not None
    not_broken(actor)
    if target.attr(FIRE_HITS):
        raise RulesError(f"{target.name} has fire hits waiting: it rolls its saves first (r on it, Sauvegardes)")
    round_number = request.numbers.get("round", 1)
    count = request.numbers.get("elements", actor.size)
    first = round_number == 1
    elements = fighting_elements(round_number, in_contact=count if first else 0,
                                 second_rank=request.numbers.get("second_rank", 0),
                                 french_column_charged="french_column" in request.ticked,
                                 within_5cm=0 if first else count)
    if elements.count < 1:
        raise RulesError(f"{actor.name} has no element fighting")
    melee_ids = {f.id for f in factors("melee")}
    situation = MeleeSituation(experience(actor), actor.arm, elements.count, round_number, kind=cavalry_kind(actor),
                               disordered=actor.has(DISORDERED), weapon=actor.attr("weapon"),
                               factors=frozenset(request.ticked & melee_ids))
    check = melee_check(situation, request.options)
    return replace(check, notes=elements.reasons + check.notes)


def melee_prepare(request: Request) -> Prepared:
    check = _melee(request)
    what = f"corps à corps (melee), round {request.numbers.get('round', 1)}: {check.dice} dice"
    return hits_prepared(what, check, "melee", melee_loss_odds(check))


def melee_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    result = roll_melee(_melee(request), Given(record))
    target = request.target
    before = int(target.attr(MELEE_HITS, 0) or 0)
    waiting = before + result.successes
    changes: dict[str, int] = {MELEE_HITS: waiting}
    if not before:
        changes[ROUND_LOSSES] = 0  # the first hits on it this round: a new round's losses begin
    return Outcome(hits_text(result, target, waiting, "melee"), (Effect(target.id, set=changes),))


def after_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    theirs = int(target.attr(ROUND_LOSSES, 0) or 0) if target is not None else 0
    return [*flank_numbers(actor, target),
            Number("own_losses", "EC perdus ce tour (EC it lost this round)", 0, 99, int(actor.attr(ROUND_LOSSES, 0) or 0)),
            Number("enemy_losses", "EC perdus par l'ennemi ce tour (EC the enemy lost)", 0, 99, theirs)]


def _after_check(request: Request) -> Check:
    actor, target = request.actor, request.target
    assert target is not None
    not_broken(actor)
    losses = {actor.id: request.numbers.get("own_losses", 0), target.id: request.numbers.get("enemy_losses", 0)}
    if actor.id not in who_tests_after_melee(losses, request.options):
        raise RulesError(f"{actor.name} lost fewer EC than {target.name}: only the side that lost more tests "
                         "(rules option melee_morale_test)")
    return morale_check(morale_situation(request, card().charge.after_melee), request.options)


def after_prepare(request: Request) -> Prepared:
    return step_test_prepared(_after_check(request))


def after_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    result = roll_morale(_after_check(request), Given(record), options=request.options)
    outcome = after_melee_test(bool(result.successes), fall_back="fall_back" in request.ticked)
    said = card().words
    actor = request.actor
    if outcome == "rupture":
        return Outcome(words(result), (Effect(actor.id, add={ROUT: None}),))
    if outcome == "repli":
        return Outcome(f"{said.passed}: {said.fall_back} (passed: falls back)",
                       (Effect(actor.id, add={FALLEN_BACK: 1}),))
    return Outcome(f"{said.passed}: {said.fight_on}, allez à (c) (passed: fights on, back to (c))")


def _melee_outcome(unit: Unit) -> str:
    if unit.has(ROUT) or unit.removed:
        return "rupture"
    return "repli" if unit.has(FALLEN_BACK) else "fight_on"


def pursuit_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [Tick("consolidate", "consolidation (holds the ground instead of pursuing)")]


def _pursuit(request: Request) -> Move | None:
    actor, target = request.actor, request.target
    assert target is not None
    if melee_winner({actor.id: _melee_outcome(actor), target.id: _melee_outcome(target)}) != actor.id:
        raise RulesError(f"{actor.name} is not the vainqueur (winner): {target.name} has not broken or fallen back "
                         "while it fought on")
    if "consolidate" in request.ticked:
        return None
    if actor.arm == "artillery":
        raise RulesError("the card gives artillery no pursuit speed: it consolidates")
    return moved(request, "pursuing")


def pursuit_prepare(request: Request) -> Prepared:
    distance = _pursuit(request)
    if distance is None:
        return Prepared("consolidation", "no move", None)
    return Prepared(f"mouvement de poursuite (pursuit): {distance.reason}", f"{distance.distance_cm} cm", None)


def pursuit_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    distance = _pursuit(request)
    if distance is None:
        return Outcome("consolidation: the vainqueur holds the ground")
    return Outcome(f"poursuite (pursuit): up to {distance.distance_cm} cm ({distance.reason})",
                   (Effect(request.actor.id, add={MOVED: 1}),))


def contact_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [Tick("new_contact", "nouveau contact (new contact)")]


def contact_prepare(request: Request) -> Prepared:
    return Prepared("nouveau contact? (new contact?)", "no roll", None)


def contact_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    if after_pursuit("new_contact" in request.ticked) == card().charge.foot_charging_cavalry:
        return Outcome("nouveau contact: allez à (a) (new contact: the charge sequence again from (a), in this step)")
    cm = advance_after_melee_cm()
    return Outcome(f"pas de nouveau contact: les autres UC du UM peuvent avancer {cm} cm "
                   f"(no new contact: the UM's other UC may advance {cm} cm)")


def still_prepare(request: Request) -> Prepared:
    actor = request.actor
    if actor.has(MOVED) or actor.has(CHANGED) or actor.has(CHARGING) or actor.has(FALLEN_BACK):
        raise RulesError(f"{actor.name} moved this turn: only UC that stood still ('UC immobiles') lose their markers")
    if not (actor.has(DISORDERED) or actor.has(RALLYING)):
        raise RulesError(f"{actor.name} has no disorder or rally marker")
    return Prepared("enlever les pions de désordre et de ralliement (remove markers)", "the UC stood still", None)


def still_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    return Outcome("pions de désordre et de ralliement enlevés (disorder and rally markers removed)",
                   (Effect(request.actor.id, clear=(DISORDERED, RALLYING)),))

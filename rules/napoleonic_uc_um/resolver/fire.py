"""Phase 3 fire ('Tir et Sauvegardes adverses', and the defensive fire of step 3.5)
and the saves of the UC hit: hits wait on the UC hit until it rolls its saves."""

from __future__ import annotations

from dataclasses import replace

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_uc_um.data import RULESET, factors, label
from rules.napoleonic_uc_um.fire import (
    Candidate,
    FireSituation,
    fire_check,
    fire_factors,
    fire_loss_odds,
    priority_targets,
    roll_fire,
    roll_save,
    save_check,
)
from rules.napoleonic_uc_um.morale import must_test
from rules.napoleonic_uc_um.resolver.shown import (
    Given,
    factor_ticks,
    hits_prepared,
    hits_text,
    odds,
    words,
)
from rules.napoleonic_uc_um.resolver.units import (
    CHANGED,
    CHARGED,
    CHARGING,
    COUNTER_CHARGED,
    DISORDERED,
    FIRE_HITS,
    FIRED,
    MELEE_HITS,
    MOVED,
    ROUND_LOSSES,
    chosen,
    experience,
    not_broken,
    troop,
)
from rules.napoleonic_uc_um.rolls import Check
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

# the fire factors that follow from the target's stored arm, kind and formation
_FROM_TARGET = ("target_deployed_artillery", "target_irregular_light_horse", "target_column",
                "target_square", "target_cavalry", "target_limbered_artillery")


def stored_reason(target: Unit) -> str:
    """Why a factor that follows from the target's stored arm and formation cannot be ticked."""
    formation = str(target.attr("formation")).replace("_", " ")  # words, not the stored id ('attack_column')
    return (f"{target.name} is {target.arm}, {formation}"
            f"{', disordered' if target.has(DISORDERED) else ''}: change the unit to tick it")


def fire_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    discipline = actor.attr("fire_discipline", "ordinary")
    weapon = actor.attr("weapon")
    excluded: dict[str, str] = {}
    ticked: frozenset[str] = frozenset()
    if target is not None:
        ticked = fire_factors(
            troop(target), charging=target.has(CHARGING), firer_weapon=weapon, firer_charged=actor.has(CHARGED),
            regimental_artillery=bool(actor.attr("regimental_artillery")),
            fire_discipline="" if discipline == "ordinary" else discipline)
        excluded.update({f: stored_reason(target) for f in _FROM_TARGET if f not in ticked})
    for which in ("good", "poor"):
        if discipline != which:
            excluded[f"{which}_fire_discipline"] = f"{actor.name}'s fire discipline is {discipline}: change the unit to tick it"
    for f in factors("fire"):
        if f.weapons and weapon not in f.weapons:
            excluded[f.id] = f"the card does not count it for a firer with {label('weapons', 'weapon', weapon)}"
    if not actor.attr("regimental_artillery"):
        excluded.setdefault("regimental_artillery", f"{actor.name} has no regimental artillery: change the unit to tick it")
    return [*factor_ticks("fire", ticked, excluded), *priority_ticks(actor, target)]


# -- the card's priority targets a) to e) ------------------------------------------

_CLAIMS = ("priority_a", "priority_b", "priority_c", "priority_d")
NEARER = "nearer_enemy"


def priority_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    """What makes the target a priority of the card (a) to d)), and whether a nearer
    enemy is in sight (then e) names that one, not the target)."""
    printed = get_table(RULESET, "fire_priority")
    out = [Tick(claim, f"{claim[-1]}) {printed.lookup(priority=claim[-1]).text}") for claim in _CLAIMS]
    if target is not None and actor.has(CHARGED) and target.has(CHARGING):
        out[0] = Tick(out[0].id, out[0].label, checked=True)
    if actor.arm != "artillery":
        out[3] = Tick(out[3].id, out[3].label, excluded=f"{actor.name} is not artillery")
    out.append(Tick(NEARER, "une unité ennemie plus proche que la cible (an enemy nearer than the target)"))
    return out


def fire_priority(request: Request) -> str:
    """The card's priority the target is fired at under, such as 'e) L'unité ennemie
    la plus proche.'; one sentence when the priorities name another unit."""
    target = request.target
    assert target is not None
    distance = request.numbers.get("distance", 10)
    candidates = [Candidate(target.name, distance, charging_firer="priority_a" in request.ticked,
                            can_charge_or_fire_at_firer="priority_b" in request.ticked,
                            charging_friend_within_10cm="priority_c" in request.ticked)]
    if NEARER in request.ticked:
        if distance == 0:
            raise RulesError(f"{target.name} is at 0 cm: no enemy is nearer")
        candidates.append(Candidate("une unité ennemie plus proche (a nearer enemy)", 0))
    priority = priority_targets(candidates, artillery_with_general="priority_d" in request.ticked)
    if target.name not in priority.targets:
        raise RulesError(f"{request.actor.name} fires at its priority target, {priority.letter}) {priority.printed} "
                         f"{target.name} is none of a) to d) and a nearer enemy is in sight")
    return f"Cible prioritaire (priority target): {priority.letter}) {priority.printed}"


def fire_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("firing_ec", "EC qui tirent (EC firing)", 1, max(1, actor.size), max(1, actor.size)),
            Number("distance", "Distance en cm (range)", 0, 200, 10, decimal=True)]


def _fire(request: Request) -> Check:
    actor, target = request.actor, request.target
    assert target is not None
    not_broken(actor)
    if actor.has(FIRED):
        raise RulesError(f"{actor.name} has already fired this turn")
    if request.phase == "3.5" or (request.phase == "3.11" and actor.has(CHARGED)):
        if not (actor.has(CHARGED) and target.has(CHARGING)):
            raise RulesError(f"defensive fire is by a charged UC at the UC charging it; {actor.name} is not charged by {target.name}")
        if actor.has(COUNTER_CHARGED):
            raise RulesError(f"{actor.name} counter-attacked: 'Tir défensif ou contre-attaque', not both")
    if target.attr(MELEE_HITS):
        raise RulesError(f"{target.name} has melee hits waiting: it rolls its saves first (r on it, Sauvegardes)")
    fire_ids = {f.id for f in factors("fire")}
    situation = FireSituation(
        experience(actor), actor.attr("weapon"), request.numbers.get("firing_ec", actor.size),
        request.numbers.get("distance", 10), moved=actor.has(MOVED), changed_formation=actor.has(CHANGED),
        disordered=actor.has(DISORDERED), factors=frozenset(request.ticked & fire_ids))
    return fire_check(situation, request.options)


def fire_prepare(request: Request) -> Prepared:
    check = _fire(request)
    check = replace(check, notes=(fire_priority(request), *check.notes))
    weapon = label("weapons", "weapon", request.actor.attr("weapon"))
    return hits_prepared(f"tir (fire), {weapon}: {check.dice} dice", check, "fire", fire_loss_odds(check))


def fire_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    fire_priority(request)
    result = roll_fire(_fire(request), Given(record))
    target = request.target
    waiting = int(target.attr(FIRE_HITS, 0) or 0) + result.successes
    text = hits_text(result, target, waiting, "fire")
    effects = [Effect(request.actor.id, add={FIRED: 1})]
    if result.successes:
        effects.append(Effect(target.id, set={FIRE_HITS: waiting}))
    return Outcome(text, tuple(effects))


def _waiting(unit: Unit) -> tuple[str, int]:
    fire_hits, melee_hits = int(unit.attr(FIRE_HITS, 0) or 0), int(unit.attr(MELEE_HITS, 0) or 0)
    if fire_hits and melee_hits:
        raise RulesError(f"{unit.name} has fire and melee hits waiting: the umpire sets one of them to 0")
    if not (fire_hits or melee_hits):
        raise RulesError(f"{unit.name} has no hits waiting for its saves")
    return ("fire", fire_hits) if fire_hits else ("melee", melee_hits)


def save_prepare(request: Request) -> Prepared:
    attack, hits = _waiting(request.actor)
    check = save_check(attack, hits)
    losses = {hits - k: p for k, p in check.odds.items() if p}
    return Prepared(f"sauvegardes (saves) of {request.actor.name} against {label('save', 'attack', attack)}",
                    f"{check.base_label}, one die per hit", check.expression,
                    (("Sauvegardes (saves)", odds(check.odds)), ("Pertes (EC lost)", dict(sorted(losses.items())))),
                    check.notes)


def save_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    actor = request.actor
    attack, hits = _waiting(actor)
    result = roll_save(save_check(attack, hits), Given(record))
    losses = int(str(result.extra["losses"]))  # roll_save's count of the stands lost
    cleared: dict[str, int] = {FIRE_HITS: 0, MELEE_HITS: 0}
    if attack == "melee":
        cleared[ROUND_LOSSES] = losses
    text = words(result)
    if chosen(request)["loss_unit"] == "figure":
        return Outcome(f"{text}: {losses} figure(s) off; the umpire removes an EC when its figures are gone",
                       (Effect(actor.id, set=cleared),))
    left = actor.size - losses
    if losses and left <= 0:
        text += "; the UC has no EC left"
    elif losses and must_test(actor.start - left, actor.start):
        text += "; it has lost more than half its EC: it tests at Phase 1"
    return Outcome(text, (Effect(actor.id, lost=losses, set=cleared),))

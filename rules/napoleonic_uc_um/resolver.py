"""The French UC/UM card (seed 003) on the resolver screen (see rules/resolver.py).

A unit here is one UC (unité de combat); its size is its EC (éléments combattants,
bases).  Its UM (unité de manœuvre, brigade) and division are the attributes `um`
and `division`; left empty, the UC of one campaign force form one UM and a side's
UC one division.  Each side plays the card's Phases 1 to 3 in its own bound: the card
does not say so, but 'Tir et Sauvegardes adverses' (fire, and the enemy's saves), the
'UC chargés' answering the chargers and the 'vainqueur' pursuing read as one side's
turn that the other answers where the card says so (rules/resolver.py gives a rule
set one sequence, so this reading is not an option).  A state lasting 1 bound ends
when the other side's bound begins.

Hits are kept on the UC hit until it rolls its saves, as the card does them
('Tir et Sauvegardes adverses', '(c) Déterminer les touches et faire les
sauvegardes'): `fire_hits` save on 3+, `melee_hits` on 4+; each hit not saved is
one EC lost (rules option loss_unit).  Steps 3.1, 3.6, 3.8 and 3.9 do not end
while hits of theirs are waiting.  `round_losses` keeps the EC a UC lost in the
last round of melee, for the test of step 3.9 (rules option melee_morale_test).

The card loops back ('allez à (c)' after a test passed, 'Si nouveau contact allez
à (a)'); the checklist only moves forward, so step 3.9 also holds the melee and
its saves of the next round, and step 3.11 the whole charge sequence of a new
contact.  Where the card is silent: a failed test is a rupture (rules option
failed_test_effect) and the UC stays 'en rupture' until the umpire takes the state
off, the card printing no rally; artillery does not charge; a UM is lost to its
division when none of its UC is left on the table out of rupture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_uc_um import quality as split_quality
from rules.napoleonic_uc_um.checks import Check
from rules.napoleonic_uc_um.data import RULESET, card, factors, label
from rules.napoleonic_uc_um.fire import (
    FireSituation,
    fire_check,
    fire_factors,
    fire_loss_odds,
    roll_fire,
    roll_save,
    save_check,
)
from rules.napoleonic_uc_um.melee import (
    MeleeSituation,
    fighting_elements,
    melee_check,
    melee_factors,
    melee_loss_odds,
    roll_melee,
)
from rules.napoleonic_uc_um.morale import (
    MoraleSituation,
    formation_temperament,
    morale_check,
    morale_factors,
    must_test,
    roll_morale,
    who_tests_after_melee,
)
from rules.napoleonic_uc_um.movement import (
    command_distance_cm,
    in_command,
    may_charge,
    move,
    turn_actions,
)
from rules.napoleonic_uc_um.sequence import (
    advance_after_melee_cm,
    after_melee_test,
    after_pursuit,
    charge_tests,
    melee_winner,
    steps,
)
from rules.napoleonic_uc_um.troops import CAVALRY_KINDS, FORMATIONS, Troop
from rules.options import resolve_options
from rules.resolver import (
    ACTIVE,
    BOTH,
    ENEMY,
    INACTIVE,
    NO_TARGET,
    Action,
    Attribute,
    Effect,
    Number,
    Outcome,
    Phase,
    Prepared,
    Request,
    Resolver,
    State,
    Tick,
    Unit,
)

FIRE_HITS, MELEE_HITS, ROUND_LOSSES = "fire_hits", "melee_hits", "round_losses"
DISORDERED, RALLYING, ROUT, FALLEN_BACK = "disordered", "rallying", "rout", "fallen_back"
UNCOMMANDED, MOVED, CHANGED, FIRED = "uncommanded", "moved", "changed_formation", "fired"
CHARGING, FLANK_CHARGE, CHARGED, COUNTER_CHARGED, TESTED_A = (
    "charging", "flank_charge", "charged", "counter_charged", "tested_a")
WEAPONS = ("musket", "rifle", "other", "heavy_artillery", "medium_artillery", "light_artillery")
NONE = "-"


# -- the unit as the card's procedures read it ------------------------------------------


def qualities() -> tuple[str, ...]:
    """Every 'expérience/tempérament' the card's two tables allow, such as 'aguerri/confiant'."""
    experiences = [str(v) for b in get_table(RULESET, "to_hit").rows.bands for v in b.names]
    temperaments = [str(v) for b in get_table(RULESET, "morale").axes[0].bands for v in b.names]
    return tuple(f"{e}/{t}" for e in experiences for t in temperaments)


def experience(unit: Unit) -> str:
    return split_quality(unit.attr("quality", "aguerri/confiant"))[0]


def temperament(unit: Unit) -> str:
    return split_quality(unit.attr("quality", "aguerri/confiant"))[1]


def troop(unit: Unit) -> Troop:
    """The UC as the card's factors see it."""
    kind = unit.attr("kind", NONE)
    return Troop(
        arm=unit.arm,
        kind=kind if unit.arm == "cavalry" and kind != NONE else "",
        formation=unit.attr("formation", "") or "",
        disordered=unit.has(DISORDERED),
        in_cover=bool(unit.attr("in_cover", False)),
    )


def _command_arm(unit: Unit) -> str:
    if unit.arm != "artillery":
        return unit.arm
    return "horse_artillery" if unit.attr("battery") == "horse" else "foot_artillery"


def _speed_kind(unit: Unit, retreating: bool) -> str:
    """The row of table speed for this UC (Généraux ... Artillerie dételée)."""
    formation = unit.attr("formation")
    if unit.arm == "infantry":
        return "infantry_retreating" if retreating else f"infantry_{formation}"
    if unit.arm == "cavalry":
        light = unit.attr("kind") in ("light", "irregular_light_horse")
        base = "light_cavalry" if light else "cavalry"
        return f"{base}_retreating" if retreating else base
    if retreating:
        raise RulesError("the card gives artillery no speed 'en repli'")
    if formation == "unlimbered":
        return "artillery_unlimbered"
    return f"{unit.attr('battery', 'foot')}_artillery_limbered"


def _not_broken(unit: Unit) -> None:
    if unit.has(ROUT):
        raise RulesError(f"{unit.name} is en rupture (broken)")


def _chosen(request: Request) -> dict[str, str]:
    return resolve_options(RULESET, request.options)


# -- showing a check ----------------------------------------------------------------


def _needed(check: Check) -> str:
    """'6 + (Aguerri (seasoned) 4 +, Longue portée (Long range) +2)'."""
    mods = "".join(f", {m.label} {m.value:+d}" for m in check.modifiers)
    shown = f"{check.need} + ({check.base_label}{mods})"
    if check.target != check.need:
        shown += f"; each die needs {check.target} +"
    return shown


def _odds(odds: Mapping[int, Fraction]) -> dict[int, Fraction]:
    return {k: v for k, v in odds.items() if v}


def _pass_odds(check: Check) -> dict[str, Fraction]:
    return {"réussi (passed)": check.odds.get(1, Fraction(0)), "raté (failed)": check.odds.get(0, Fraction(0))}


class _Given:
    """The dice service as the procedures' roll_* functions call it, giving back the
    dice the tabletop already rolled (or the umpire typed) for this resolution."""

    def __init__(self, record: DiceRecord) -> None:
        self.record = record

    def roll(self, dice: str, purpose: str, modifiers: Sequence[object] = (), *,
             entered: Sequence[int] | None = None, by: str = "umpire") -> DiceRecord:
        if dice != self.record.dice:
            raise RulesError(f"the dice rolled were {self.record.dice}, the card needs {dice}")
        return self.record


def _words(result) -> str:
    return f"{result.text} ({result.english})"


# -- ticks ----------------------------------------------------------------------------


def _factor_ticks(check: str, chosen: frozenset[str], excluded: Mapping[str, str]) -> list[Tick]:
    """The card's factors for a check that are ticked (not derived), French with English."""
    return [Tick(f.id, f"{f.value:+d} {f.label}", checked=f.id in chosen and f.id not in excluded,
                 excluded=excluded.get(f.id))
            for f in factors(check) if not f.derived]


def _arm_excluded(check: str, unit: Unit) -> dict[str, str]:
    """Factors the card limits to other arms or kinds of cavalry than this UC's."""
    kind = unit.attr("kind", NONE)
    out = {}
    for f in factors(check):
        if f.arms and unit.arm not in f.arms:
            out[f.id] = f"the card counts it for {' or '.join(f.arms)}, not {unit.arm}"
        elif f.kinds and kind not in f.kinds:
            out[f.id] = f"the card counts it for {' or '.join(f.kinds)}, not {kind}"
    return out


# the fire and melee factors that follow from the units' stored arm, kind and formation
_FIRE_FROM_TARGET = ("target_deployed_artillery", "target_irregular_light_horse", "target_column",
                     "target_square", "target_cavalry", "target_limbered_artillery")
_MELEE_FROM_UNITS = ("cavalry_vs_open_infantry", "lancers_cuirassiers_vs_open_infantry", "against_cuirassiers",
                     "enemy_in_cover", "cavalry_vs_solid_square", "cavalry_vs_hollow_square")


def _stored_reason(target: Unit) -> str:
    return (f"{target.name} is {target.arm}, {target.attr('formation')}"
            f"{', disordered' if target.has(DISORDERED) else ''}: change the unit to tick it")


def _fire_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    discipline = actor.attr("fire_discipline", "ordinary")
    weapon = actor.attr("weapon")
    excluded: dict[str, str] = {}
    chosen: frozenset[str] = frozenset()
    if target is not None:
        chosen = fire_factors(
            troop(target), charging=target.has(CHARGING), firer_weapon=weapon, firer_charged=actor.has(CHARGED),
            regimental_artillery=bool(actor.attr("regimental_artillery")),
            fire_discipline="" if discipline == "ordinary" else discipline)
        excluded.update({f: _stored_reason(target) for f in _FIRE_FROM_TARGET if f not in chosen})
    for which in ("good", "poor"):
        if discipline != which:
            excluded[f"{which}_fire_discipline"] = f"{actor.name}'s fire discipline is {discipline}: change the unit to tick it"
    for f in factors("fire"):
        if f.weapons and weapon not in f.weapons:
            excluded[f.id] = f"the card does not count it for a firer with {label('weapons', 'weapon', weapon)}"
    if not actor.attr("regimental_artillery"):
        excluded.setdefault("regimental_artillery", f"{actor.name} has no regimental artillery: change the unit to tick it")
    return _factor_ticks("fire", chosen, excluded)


def _melee_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    excluded = _arm_excluded("melee", actor)
    chosen: frozenset[str] = frozenset()
    if target is not None:
        chosen = melee_factors(troop(actor), troop(target), enemy_counter_charged=target.has(COUNTER_CHARGED))
        excluded.update({f: _stored_reason(target) for f in _MELEE_FROM_UNITS if f not in chosen and f not in excluded})
    column = Tick("french_column", "Colonne avec doctrine Française ayant chargée ou contre-chargée "
                  "(column with French doctrine that charged or counter-charged: its 2nd rank fights in round 1)",
                  checked=actor.has(CHARGING) or actor.has(COUNTER_CHARGED))
    if actor.arm != "infantry" or actor.attr("formation") not in ("attack_column", "march_column"):
        column = Tick(column.id, column.label, excluded=f"{actor.name} is not infantry in column")
    return [*_factor_ticks("melee", chosen, excluded), column]


def _morale_ticks_for(situation: str):
    """The morale ticks of one test: `situation` says how the actor meets its target."""

    def ticks(actor: Unit, target: Unit | None) -> list[Tick]:
        other = troop(target) if target is not None else None
        facing = "flank" if actor.has(FLANK_CHARGE) else "front"
        chosen = morale_factors(
            troop(actor),
            charging=other if situation == "charging" else None,
            facing=facing,
            charged_by=other if situation == "charged" else None,
            in_contact_with=other if situation == "contact" else None,
            national_characteristic=bool(actor.attr("national_characteristic")),
        )
        excluded = _arm_excluded("morale", actor)
        if facing != "front":
            excluded.update({f.id: "the charge goes in on the flank or rear (* sauf sur le flanc ou les arrières)"
                             for f in factors("morale") if f.front_only})
        out = _factor_ticks("morale", chosen, excluded)
        if situation == "contact":
            out.append(Tick("fall_back", "repli si réussi (fall back if the test is passed, instead of fighting on)"))
        return out

    return ticks


def _morale_situation(request: Request, step: str, tested: str | None = None) -> MoraleSituation:
    actor = request.actor
    morale_ids = {f.id for f in factors("morale")}
    return MoraleSituation(
        temperament=tested or temperament(actor),
        arm=actor.arm,
        step=step,
        factors=frozenset(request.ticked & morale_ids),
        facing="flank" if actor.has(FLANK_CHARGE) else "front",
        covered_flanks=request.numbers.get("covered_flanks", 0) if actor.arm == "artillery" else 0,
    )


def _flank_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    if actor.arm != "artillery":
        return []
    return [Number("covered_flanks", "Flancs couverts par une UC en ordre à 5 cm ou - (flanks covered)", 0, 2, 0)]


# -- Phase 1: loss tests ---------------------------------------------------------------


def _um(unit: Unit) -> str:
    return unit.attr("um") or unit.force or unit.id


def _division(unit: Unit) -> str:
    return unit.attr("division") or unit.side


def _members(request: Request, key) -> list[Unit]:
    return [u for u in request.units.values() if u.side == request.actor.side and key(u) == key(request.actor)]


def _standing(units: Sequence[Unit]) -> list[Unit]:
    return [u for u in units if not u.removed and not u.has(ROUT)]


def _test(request: Request) -> tuple[Check, str, list[Unit]]:
    """The Phase 1 test of the actor's UC, UM or division: the check, what tests, and the UC it breaks."""
    actor = request.actor
    if request.action == "loss_test":
        if not must_test(actor.lost, actor.start):
            raise RulesError(f"{actor.name} has lost {actor.lost} of its {actor.start} EC: "
                             "not more than half ('+ de la moitié'), no test")
        return morale_check(_morale_situation(request, "1.1"), request.options), f"UC {actor.name}", [actor]
    if request.action == "um_test":
        members = _members(request, _um)
        if _chosen(request)["um_strength"] == "uc":
            lost, strength, what = len(members) - len(_standing(members)), len(members), "UC"
        else:
            lost, strength, what = sum(u.lost for u in members), sum(u.start for u in members), "EC"
        name = f"UM {_um(actor)}"
        if not must_test(lost, strength):
            raise RulesError(f"{name} has lost {lost} of its {strength} {what}: not more than half, no test")
        step, body = "1.1", members
    else:
        members = _members(request, _division)
        ums = {_um(u) for u in members}
        lost = len(ums - {_um(u) for u in _standing(members)})
        name = f"division {_division(actor)}"
        if not must_test(lost, len(ums)):
            raise RulesError(f"{name} has lost {lost} of its {len(ums)} UM: not more than half, no test")
        step, body = "1.2", members
    left = _standing(body)
    if not left:
        raise RulesError(f"{name} has no UC left on the table out of rupture to test")
    tested = formation_temperament([temperament(u) for u in left], request.options)
    check = morale_check(_morale_situation(request, step, tested), request.options)
    return check, name, left


def _test_prepare(request: Request) -> Prepared:
    _not_broken(request.actor)
    check, name, _ = _test(request)
    return Prepared(f"test de moral (morale test) of {name}, step {check.step}",
                    _needed(check), check.expression, (("Test", _pass_odds(check)),), check.notes)


def _broken_effects(request: Request, units: Sequence[Unit], passed: bool) -> tuple[Effect, ...]:
    if passed or _chosen(request)["failed_test_effect"] != "rupture":
        return ()
    return tuple(Effect(u.id, add={ROUT: None}) for u in units)


def _test_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    check, name, body = _test(request)
    result = roll_morale(check, _Given(record), options=request.options)
    return Outcome(f"{name}: {_words(result)}", _broken_effects(request, body, bool(result.successes)))


# -- Phase 2: command, movement, formation ------------------------------------------------


def _distance_numbers(label_text: str, default: int):
    def numbers(actor: Unit, target: Unit | None) -> list[Number]:
        return [Number("distance", label_text, 0, 200, default)]

    return numbers


def _command_prepare(request: Request) -> Prepared:
    cm = command_distance_cm(experience(request.actor), _command_arm(request.actor), request.options)
    name = label("command_distance", "experience", experience(request.actor))
    return Prepared(f"distance de commandement (command distance), {name} {request.actor.arm}",
                    f"{cm} cm or less from its général de brigade", None)


def _command_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    actor = request.actor
    distance = request.numbers.get("distance", 0)
    if in_command(experience(actor), _command_arm(actor), distance, request.options):
        return Outcome(f"commandé (commanded) at {distance} cm", (Effect(actor.id, clear=(UNCOMMANDED,)),))
    return Outcome(f"non commandé (uncommanded) at {distance} cm: moves towards its général de brigade (step 2.3)",
                   (Effect(actor.id, add={UNCOMMANDED: 1}),))


def _going_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("bgo_ec", "EC en mauvais terrain (EC in bad going, BGo)", 0, actor.size, 0)]


def _move(request: Request):
    actor = request.actor
    bad = request.numbers.get("bgo_ec", 0)
    return move(_speed_kind(actor, "retreating" in request.ticked), {"gg": actor.size - bad, "bgo": bad}, request.options)


def _move_prepare(request: Request) -> Prepared:
    actor = request.actor
    _not_broken(actor)
    if request.phase == "2.3" and not actor.has(UNCOMMANDED):
        raise RulesError(f"{actor.name} is not marked uncommanded: it moves in step 2.4")
    if request.phase == "2.4" and actor.has(UNCOMMANDED):
        raise RulesError(f"{actor.name} is uncommanded: it moved towards its général de brigade in step 2.3")
    if actor.has(MOVED):
        raise RulesError(f"{actor.name} has already moved this turn")
    turn_actions(experience(actor), moved=True, changed_formation=actor.has(CHANGED), options=request.options)
    moved = _move(request)
    return Prepared(f"mouvement (movement): {moved.reason}", f"{moved.distance_cm} cm", None)


def _move_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    moved = _move(request)
    actions = turn_actions(experience(request.actor), moved=True, changed_formation=request.actor.has(CHANGED),
                           options=request.options)
    return Outcome(f"moves up to {moved.distance_cm} cm ({moved.reason}); then {actions.printed}",
                   (Effect(request.actor.id, add={MOVED: 1}),))


def _formation_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [Tick(f"to_{f}", f"into {f.replace('_', ' ')}",
                 excluded="its present formation" if f == actor.attr("formation") else None)
            for f in FORMATIONS[actor.arm]]


def _new_formation(request: Request) -> str:
    chosen = [t.removeprefix("to_") for t in request.ticked]
    if len(chosen) != 1:
        raise RulesError("tick the one formation the UC changes into")
    return chosen[0]


def _formation_prepare(request: Request) -> Prepared:
    actor = request.actor
    _not_broken(actor)
    new = _new_formation(request)
    if actor.has(CHANGED):
        raise RulesError(f"{actor.name} has already changed formation this turn")
    turn_actions(experience(actor), moved=actor.has(MOVED), changed_formation=True, options=request.options)
    return Prepared(f"changement de formation (change of formation) into {new.replace('_', ' ')}",
                    "no roll", None)


def _formation_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    new = _new_formation(request)
    actions = turn_actions(experience(request.actor), moved=request.actor.has(MOVED), changed_formation=True,
                           options=request.options)
    return Outcome(f"changes into {new.replace('_', ' ')}; then {actions.printed}",
                   (Effect(request.actor.id, add={CHANGED: 1}, set={"formation": new}),))


# -- Phase 3: fire and saves -------------------------------------------------------------


def _fire_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("firing_ec", "EC qui tirent (EC firing)", 1, max(1, actor.size), max(1, actor.size)),
            Number("distance", "Distance en cm (range)", 0, 200, 10)]


def _fire(request: Request) -> Check:
    actor, target = request.actor, request.target
    assert target is not None
    _not_broken(actor)
    if actor.has(FIRED):
        raise RulesError(f"{actor.name} has already fired this turn")
    if request.phase == "3.5" or (request.phase == "3.11" and actor.has(CHARGED)):
        if not (actor.has(CHARGED) and target.has(CHARGING)):
            raise RulesError(f"defensive fire is by a charged UC at the UC charging it; {actor.name} is not charged by {target.name}")
        if actor.has(COUNTER_CHARGED):
            raise RulesError(f"{actor.name} counter-attacked: 'Tir défensif ou contre-attaque', not both")
    if target.attr(MELEE_HITS):
        raise RulesError(f"{target.name} has melee hits waiting: it rolls its saves first")
    situation = FireSituation(
        experience(actor), actor.attr("weapon"), request.numbers.get("firing_ec", actor.size),
        request.numbers.get("distance", 10), moved=actor.has(MOVED), changed_formation=actor.has(CHANGED),
        disordered=actor.has(DISORDERED), factors=frozenset(request.ticked))
    return fire_check(situation, request.options)


def _fire_prepare(request: Request) -> Prepared:
    check = _fire(request)
    weapon = label("weapons", "weapon", request.actor.attr("weapon"))
    return Prepared(f"tir (fire), {weapon}: {check.dice} dice", _needed(check), check.expression,
                    (("Touches (hits)", _odds(check.odds)),
                     ("Pertes après sauvegardes 3+ (EC lost after saves)", _odds(fire_loss_odds(check)))),
                    check.notes)


def _fire_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    result = roll_fire(_fire(request), _Given(record))
    target = request.target
    waiting = int(target.attr(FIRE_HITS, 0) or 0) + result.successes
    text = f"{_words(result)} on {target.name}"
    if waiting:
        text += f"; {waiting} waiting for its sauvegardes (saves) 3+"
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


def _save_prepare(request: Request) -> Prepared:
    attack, hits = _waiting(request.actor)
    check = save_check(attack, hits)
    losses = {hits - k: p for k, p in check.odds.items() if p}
    return Prepared(f"sauvegardes (saves) of {request.actor.name} against {label('save', 'attack', attack)}",
                    f"{check.base_label}, one die per hit", check.expression,
                    (("Sauvegardes (saves)", _odds(check.odds)), ("Pertes (EC lost)", dict(sorted(losses.items())))),
                    check.notes)


def _save_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    actor = request.actor
    attack, hits = _waiting(actor)
    result = roll_save(save_check(attack, hits), _Given(record))
    losses = int(result.extra["losses"])
    cleared: dict[str, int] = {FIRE_HITS: 0, MELEE_HITS: 0}
    if attack == "melee":
        cleared[ROUND_LOSSES] = losses
    text = _words(result)
    if _chosen(request)["loss_unit"] == "figure":
        return Outcome(f"{text}: {losses} figure(s) off; the umpire removes an EC when its figures are gone",
                       (Effect(actor.id, set=cleared),))
    left = actor.size - losses
    if losses and left <= 0:
        text += "; the UC has no EC left"
    elif losses and must_test(actor.start - left, actor.start):
        text += "; it has lost more than half its EC: it tests at Phase 1"
    return Outcome(text, (Effect(actor.id, lost=losses, set=cleared),))


# -- Phase 3: the charge -------------------------------------------------------------


def _charge_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("distance", "Distance de l'ennemi en cm (distance to the enemy)", 0, 200, 5)]


def _charge_prepare(request: Request) -> Prepared:
    actor = request.actor
    _not_broken(actor)
    if actor.arm == "artillery":
        raise RulesError("artillery does not charge")
    if actor.has(CHARGING):
        raise RulesError(f"{actor.name} is already charging")
    distance = request.numbers.get("distance", 5)
    if not may_charge(distance):
        raise RulesError(f"a UC charges an enemy within {card().section('distances')['charge_reach']} cm "
                         f"('Charge pour les UC qui sont à 5 cm d'un ennemi'), not {distance} cm")
    turn_actions(experience(actor), moved=actor.has(MOVED), changed_formation=actor.has(CHANGED),
                 options=request.options).check(charges=True, fired=actor.has(FIRED))
    return Prepared("charge", f"an enemy within {card().section('distances')['charge_reach']} cm", None)


def _charge_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    actor, target = request.actor, request.target
    assert target is not None
    flank = "flank_or_rear" in request.ticked
    tests = charge_tests(charging=True, on_foot=actor.arm == "infantry",
                         charging_cavalry_frontally=target.arm == "cavalry" and not flank, charged=actor.has(CHARGED))
    theirs = charge_tests(charged=True)
    add: dict[str, int | None] = {CHARGING: 1}
    if flank:
        add[FLANK_CHARGE] = 1
    return Outcome(f"charges {target.name}{' in the flank or rear' if flank else ''}: it tests at step(s) "
                   f"{', '.join(tests)}; {target.name} tests at step {', '.join(theirs)}",
                   (Effect(actor.id, add=add), Effect(target.id, add={CHARGED: 1})))


def _check_charge_tester(action: str, actor: Unit, target: Unit) -> None:
    """One sentence when this UC does not take this test of the charge sequence against `target`."""
    if action == "test_b":
        if not (actor.has(CHARGED) and target.has(CHARGING)):
            raise RulesError(f"{actor.name} is not charged by {target.name}")
        if actor.has(TESTED_A):
            raise RulesError(f"{actor.name} took test (a): the tests (a) and (b) are not cumulative (*** Non cumulable)")
        return
    if not (actor.has(CHARGING) and target.has(CHARGED)):
        raise RulesError(f"{actor.name} is not charging {target.name}")
    if action == "test_a" and (actor.arm != "infantry" or target.arm != "cavalry" or actor.has(FLANK_CHARGE)):
        raise RulesError("test (a) is for UC on foot charging cavalry frontally "
                         "('UC à pied chargeant frontalement la Cavalerie')")


def _charge_test(request: Request) -> Check:
    assert request.target is not None
    _not_broken(request.actor)
    _check_charge_tester(request.action, request.actor, request.target)
    return morale_check(_morale_situation(request, _CHARGE_TEST_STEP[request.action]), request.options)


_CHARGE_TEST_STEP = {"test_a": "3.3", "test_b": "3.4", "chargers_test": "3.7"}


def _charge_test_prepare(request: Request) -> Prepared:
    check = _charge_test(request)
    printed = get_table(RULESET, "sequence_of_play").lookup(step=check.step).text
    return Prepared(f"{printed} (step {check.step})", _needed(check), check.expression,
                    (("Test", _pass_odds(check)),), check.notes)


def _charge_test_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    check = _charge_test(request)
    result = roll_morale(check, _Given(record), options=request.options)
    passed = bool(result.successes)
    effects = list(_broken_effects(request, [request.actor], passed))
    if request.action == "test_a":
        effects.append(Effect(request.actor.id, add={TESTED_A: 1}))
    return Outcome(_words(result), tuple(effects))


def _counter_prepare(request: Request) -> Prepared:
    actor, target = request.actor, request.target
    assert target is not None
    _not_broken(actor)
    if not (actor.has(CHARGED) and target.has(CHARGING)):
        raise RulesError(f"a counter-attack is by a charged UC against its charger; {actor.name} is not charged by {target.name}")
    if actor.has(FIRED):
        raise RulesError(f"{actor.name} fired: 'Tir défensif ou contre-attaque', not both")
    if actor.arm == "artillery":
        raise RulesError("artillery does not counter-attack")
    return Prepared("contre-attaque (counter-attack)", "no roll", None)


def _counter_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    return Outcome(f"contre-attaque (counter-attacks) {request.target.name}",
                   (Effect(request.actor.id, add={COUNTER_CHARGED: 1}),))


# -- Phase 3: melee and after ----------------------------------------------------------


def _melee_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [
        Number("round", "Tour de combat (round)", 1, 20, 1),
        Number("elements", "EC qui combattent: au contact (1er tour), à 5 cm (autres tours) (EC fighting)",
               0, max(1, actor.size), max(1, actor.size)),
        Number("second_rank", "EC du 2ème rang (second rank, round 1)", 0, max(0, actor.size), 0),
    ]


def _melee(request: Request) -> Check:
    actor, target = request.actor, request.target
    assert target is not None
    _not_broken(actor)
    if target.attr(FIRE_HITS):
        raise RulesError(f"{target.name} has fire hits waiting: it rolls its saves first")
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
    kind = actor.attr("kind", NONE)
    situation = MeleeSituation(experience(actor), actor.arm, elements.count, round_number,
                               kind=kind if actor.arm == "cavalry" and kind != NONE else "",
                               disordered=actor.has(DISORDERED), weapon=actor.attr("weapon"),
                               factors=frozenset(request.ticked & melee_ids))
    check = melee_check(situation, request.options)
    return replace(check, notes=elements.reasons + check.notes)


def _melee_prepare(request: Request) -> Prepared:
    check = _melee(request)
    return Prepared(f"corps à corps (melee), round {request.numbers.get('round', 1)}: {check.dice} dice",
                    _needed(check), check.expression,
                    (("Touches (hits)", _odds(check.odds)),
                     ("Pertes après sauvegardes 4+ (EC lost after saves)", _odds(melee_loss_odds(check)))),
                    check.notes)


def _melee_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    result = roll_melee(_melee(request), _Given(record))
    target = request.target
    before = int(target.attr(MELEE_HITS, 0) or 0)
    waiting = before + result.successes
    changes: dict[str, int] = {MELEE_HITS: waiting}
    if not before:
        changes[ROUND_LOSSES] = 0  # the first hits on it this round: a new round's losses begin
    text = f"{_words(result)} on {target.name}"
    if waiting:
        text += f"; {waiting} waiting for its sauvegardes (saves) 4+"
    return Outcome(text, (Effect(target.id, set=changes),))


def _after_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    theirs = int(target.attr(ROUND_LOSSES, 0) or 0) if target is not None else 0
    return [*_flank_numbers(actor, target),
            Number("own_losses", "EC perdus ce tour (EC it lost this round)", 0, 99, int(actor.attr(ROUND_LOSSES, 0) or 0)),
            Number("enemy_losses", "EC perdus par l'ennemi ce tour (EC the enemy lost)", 0, 99, theirs)]


def _after_check(request: Request) -> Check:
    actor, target = request.actor, request.target
    assert target is not None
    _not_broken(actor)
    losses = {actor.id: request.numbers.get("own_losses", 0), target.id: request.numbers.get("enemy_losses", 0)}
    if actor.id not in who_tests_after_melee(losses, request.options):
        raise RulesError(f"{actor.name} lost fewer EC than {target.name}: only the side that lost more tests "
                         "(rules option melee_morale_test)")
    return morale_check(_morale_situation(request, card().section("charge")["after_melee"]), request.options)


def _after_prepare(request: Request) -> Prepared:
    check = _after_check(request)
    printed = get_table(RULESET, "sequence_of_play").lookup(step=check.step).text
    return Prepared(f"{printed} (step {check.step})", _needed(check), check.expression,
                    (("Test", _pass_odds(check)),), check.notes)


def _after_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    result = roll_morale(_after_check(request), _Given(record), options=request.options)
    outcome = after_melee_test(bool(result.successes), fall_back="fall_back" in request.ticked)
    words = card().section("words")
    actor = request.actor
    if outcome == "rupture":
        return Outcome(_words(result), (Effect(actor.id, add={ROUT: None}),))
    if outcome == "repli":
        return Outcome(f"{words['passed']}: {words['fall_back']} (passed: falls back)",
                       (Effect(actor.id, add={FALLEN_BACK: 1}),))
    return Outcome(f"{words['passed']}: {words['fight_on']}, allez à (c) (passed: fights on, back to (c))")


def _melee_outcome(unit: Unit) -> str:
    if unit.has(ROUT) or unit.removed:
        return "rupture"
    return "repli" if unit.has(FALLEN_BACK) else "fight_on"


def _pursuit(request: Request):
    actor, target = request.actor, request.target
    assert target is not None
    if melee_winner({actor.id: _melee_outcome(actor), target.id: _melee_outcome(target)}) != actor.id:
        raise RulesError(f"{actor.name} is not the vainqueur (winner): {target.name} has not broken or fallen back "
                         "while it fought on")
    if "consolidate" in request.ticked:
        return None
    if actor.arm == "artillery":
        raise RulesError("the card gives artillery no pursuit speed: it consolidates")
    light = actor.arm == "cavalry" and actor.attr("kind") in ("light", "irregular_light_horse")
    kind = f"{'light_cavalry' if light else actor.arm}_pursuing"
    bad = request.numbers.get("bgo_ec", 0)
    return move(kind, {"gg": actor.size - bad, "bgo": bad}, request.options)


def _pursuit_prepare(request: Request) -> Prepared:
    moved = _pursuit(request)
    if moved is None:
        return Prepared("consolidation", "no move", None)
    return Prepared(f"mouvement de poursuite (pursuit): {moved.reason}", f"{moved.distance_cm} cm", None)


def _pursuit_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    moved = _pursuit(request)
    if moved is None:
        return Outcome("consolidation: the vainqueur holds the ground")
    return Outcome(f"poursuite (pursuit): up to {moved.distance_cm} cm ({moved.reason})",
                   (Effect(request.actor.id, add={MOVED: 1}),))


def _contact_prepare(request: Request) -> Prepared:
    return Prepared("nouveau contact? (new contact?)", "no roll", None)


def _contact_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    if after_pursuit("new_contact" in request.ticked) == card().section("charge")["foot_charging_cavalry"]:
        return Outcome("nouveau contact: allez à (a) (new contact: the charge sequence again from (a), in this step)")
    return Outcome(f"pas de nouveau contact: les autres UC du UM peuvent avancer {advance_after_melee_cm()} cm "
                   f"(no new contact: the UM's other UC may advance {advance_after_melee_cm()} cm)")


def _still_prepare(request: Request) -> Prepared:
    actor = request.actor
    if actor.has(MOVED) or actor.has(CHANGED) or actor.has(CHARGING) or actor.has(FALLEN_BACK):
        raise RulesError(f"{actor.name} moved this turn: only UC that stood still ('UC immobiles') lose their markers")
    if not (actor.has(DISORDERED) or actor.has(RALLYING)):
        raise RulesError(f"{actor.name} has no disorder or rally marker")
    return Prepared("enlever les pions de désordre et de ralliement (remove markers)", "the UC stood still", None)


def _still_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    return Outcome("pions de désordre et de ralliement enlevés (disorder and rally markers removed)",
                   (Effect(request.actor.id, clear=(DISORDERED, RALLYING)),))


# -- the checklist ----------------------------------------------------------------------


_CHARGE_SEQUENCE = ("test_a", "test_b", "fire", "counter_charge", "save", "chargers_test", "melee",
                    "after_melee_test", "pursuit")
# who acts at each step of the card and the resolutions done there
_STEPS = {
    "1.1": (ACTIVE, ("loss_test", "um_test")),
    "1.2": (ACTIVE, ("division_test",)),
    "1.3": (ACTIVE, ()),
    "2.1": (ACTIVE, ()),
    "2.2": (ACTIVE, ("command",)),
    "2.3": (ACTIVE, ("move",)),
    "2.4": (ACTIVE, ("move", "change_formation")),
    "3.1": (ACTIVE, ("fire", "save")),
    "3.2": (ACTIVE, ("charge",)),
    "3.3": (ACTIVE, ("test_a",)),
    "3.4": (INACTIVE, ("test_b",)),
    "3.5": (INACTIVE, ("fire", "counter_charge")),
    "3.6": (ACTIVE, ("save",)),
    "3.7": (ACTIVE, ("chargers_test",)),
    "3.8": (BOTH, ("melee", "save")),
    "3.9": (BOTH, ("after_melee_test", "melee", "save")),
    "3.10": (BOTH, ("pursuit",)),
    "3.11": (BOTH, ("new_contact", *_CHARGE_SEQUENCE)),
    "3.12": (BOTH, ("stand_still",)),
}
# the steps that do not end while hits of this kind wait for their saves
_SAVES_DUE = {"3.1": (FIRE_HITS,), "3.6": (FIRE_HITS,), "3.8": (MELEE_HITS,), "3.9": (MELEE_HITS,),
              "3.11": (FIRE_HITS, MELEE_HITS)}


def _phases() -> tuple[Phase, ...]:
    out = []
    for s in steps():
        acts, actions = _STEPS[s.id]
        out.append(Phase(s.id, f"{s.id} {s.english}", acts, actions, s.french))
    return tuple(out)


def _unfinished(phase: str, units: Mapping[str, Unit]) -> list[str]:
    out = []
    for kind in _SAVES_DUE.get(phase, ()):
        word = "fire" if kind == FIRE_HITS else "melee"
        out += [f"{u.name} has {u.attr(kind)} {word} hits waiting for its saves" for u in units.values()
                if not u.removed and u.attr(kind)]
    return out


def _test_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return _morale_ticks_for("alone")(actor, target)


RESOLVER = Resolver(
    ruleset=RULESET,
    title="French UC/UM rules",
    size_label="EC",
    attributes=(
        Attribute("quality", "Expérience/tempérament", choices=qualities(), default="aguerri/confiant",
                  help="experience (Elite 2+ ... Conscrit 5+ to hit) / temperament (Intrépide 3+ ... Hésitant 5+ morale)"),
        Attribute("formation", "Formation", choices=tuple(dict.fromkeys(f for fs in FORMATIONS.values() for f in fs)),
                  default="line", help="infantry: line, attack_column, march_column, solid_square, hollow_square; "
                  "cavalry: line, column; artillery: limbered (attelée), unlimbered (dételée)"),
        Attribute("kind", "Cavalerie (kind of cavalry)", choices=(NONE, *CAVALRY_KINDS), default=NONE),
        Attribute("weapon", "Arme (weapon)", choices=WEAPONS, default="musket",
                  help="musket (Mousquet), rifle (Carabine), other (Autres armes), heavy/medium/light artillery"),
        Attribute("battery", "Artillerie (battery)", choices=(NONE, "foot", "horse", "irregular"), default=NONE,
                  help="à pied, à cheval, irrégulière: speed limbered, and command distance (option artillery_command_distance)"),
        Attribute("fire_discipline", "Discipline de feu (fire discipline)", choices=("ordinary", "good", "poor"),
                  default="ordinary"),
        Attribute("regimental_artillery", "Artillerie régimentaire (regimental artillery)", kind="bool", default=False),
        Attribute("in_cover", "A couvert (in cover)", kind="bool", default=False),
        Attribute("national_characteristic", "Caractéristique nationale (national characteristic)", kind="bool",
                  default=False),
        Attribute("um", "UM (manoeuvre unit)", kind="text", default="",
                  help="empty: the UC of one campaign force form one UM"),
        Attribute("division", "Division", kind="text", default="", help="empty: all the side's UC form one division"),
        Attribute(FIRE_HITS, "Touches de tir à sauvegarder (fire hits waiting)", kind="int", default=0),
        Attribute(MELEE_HITS, "Touches de corps à corps à sauvegarder (melee hits waiting)", kind="int", default=0),
        Attribute(ROUND_LOSSES, "EC perdus au dernier tour de combat (EC lost in the last melee round)", kind="int",
                  default=0),
    ),
    states=(
        State(DISORDERED, "en désordre (disordered)", "until step 3.12 of a turn it stood still"),
        State(RALLYING, "pion de ralliement (rally marker)", "until step 3.12 of a turn it stood still"),
        State(ROUT, "en rupture (broken)", "until the umpire takes it off: the card prints no rally"),
        State(FALLEN_BACK, "en repli (falling back)", "this bound"),
        State(UNCOMMANDED, "non commandé (uncommanded)", "this bound"),
        State(MOVED, "a bougé (moved)", "this bound"),
        State(CHANGED, "a changé de formation (changed formation)", "this bound"),
        State(FIRED, "a tiré (fired)", "this bound"),
        State(CHARGING, "en charge (charging)", "this bound"),
        State(FLANK_CHARGE, "charge de flanc ou de revers (charging a flank or rear)", "this bound"),
        State(CHARGED, "chargé (charged)", "this bound"),
        State(COUNTER_CHARGED, "a contre-chargé (counter-charged)", "this bound"),
        State(TESTED_A, "a passé le test (a) (took test (a))", "this bound"),
    ),
    phases=_phases(),
    actions=(
        Action("loss_test", "Test de moral, UC (loss test)", NO_TARGET, _test_prepare, _test_resolve,
               numbers=_flank_numbers, ticks=_test_ticks, help="A UC that lost more than half its EC"),
        Action("um_test", "Test de moral, UM (UM loss test)", NO_TARGET, _test_prepare, _test_resolve,
               numbers=_flank_numbers, ticks=_test_ticks,
               help="Pick any UC of the UM: the UM tests with its UC's temperament (option formation_test_temperament)"),
        Action("division_test", "Test de la Division (division test)", NO_TARGET, _test_prepare, _test_resolve,
               numbers=_flank_numbers, ticks=_test_ticks, help="Pick any UC of the division"),
        Action("command", "Distance de commandement (command)", NO_TARGET, _command_prepare, _command_resolve,
               numbers=_distance_numbers("Distance du général de brigade en cm (distance to its brigadier)", 0)),
        Action("move", "Mouvement (move)", NO_TARGET, _move_prepare, _move_resolve, numbers=_going_numbers,
               ticks=lambda a, t: [Tick("retreating", "en repli (retreating)")]),
        Action("change_formation", "Changement de formation (change formation)", NO_TARGET,
               _formation_prepare, _formation_resolve, ticks=_formation_ticks),
        Action("fire", "Tir (fire)", ENEMY, _fire_prepare, _fire_resolve, numbers=_fire_numbers, ticks=_fire_ticks,
               help="In step 3.5, defensive fire of a charged UC at its charger"),
        Action("save", "Sauvegardes (saves)", NO_TARGET, _save_prepare, _save_resolve, acts=BOTH,
               help="The UC hit rolls one die per hit waiting: 3+ against fire, 4+ in melee"),
        Action("charge", "Charge", ENEMY, _charge_prepare, _charge_resolve, numbers=_charge_numbers,
               ticks=lambda a, t: [Tick("flank_or_rear", "sur le flanc ou les arrières (on the flank or rear)")]),
        Action("test_a", "(a) Test de moral, UC à pied chargeant la Cavalerie", ENEMY, _charge_test_prepare,
               _charge_test_resolve, numbers=_flank_numbers, ticks=_morale_ticks_for("charging"),
               help="The foot UC tests; its target is the cavalry it charges"),
        Action("test_b", "(b) Test de moral, UC chargé", ENEMY, _charge_test_prepare, _charge_test_resolve,
               numbers=_flank_numbers, ticks=_morale_ticks_for("charged"), acts=INACTIVE,
               help="The charged UC tests; its target is the UC charging it"),
        Action("counter_charge", "Contre-attaque (counter-attack)", ENEMY, _counter_prepare, _counter_resolve,
               acts=INACTIVE),
        Action("chargers_test", "Test de moral, UC chargeant (chargers' test)", ENEMY, _charge_test_prepare,
               _charge_test_resolve, numbers=_flank_numbers, ticks=_morale_ticks_for("charging"), acts=ACTIVE),
        Action("melee", "(c) Corps à corps (melee)", ENEMY, _melee_prepare, _melee_resolve,
               numbers=_melee_numbers, ticks=_melee_ticks, acts=BOTH),
        Action("after_melee_test", "Test de moral après le combat (after melee)", ENEMY, _after_prepare,
               _after_resolve, numbers=_after_numbers, ticks=_morale_ticks_for("contact"), acts=BOTH),
        Action("pursuit", "Poursuite/consolidation (pursuit)", ENEMY, _pursuit_prepare, _pursuit_resolve,
               numbers=_going_numbers, acts=BOTH,
               ticks=lambda a, t: [Tick("consolidate", "consolidation (holds the ground instead of pursuing)")]),
        Action("new_contact", "Nouveau contact? (new contact?)", NO_TARGET, _contact_prepare, _contact_resolve,
               ticks=lambda a, t: [Tick("new_contact", "nouveau contact (new contact)")]),
        Action("stand_still", "UC immobile: enlever les pions (remove markers)", NO_TARGET, _still_prepare,
               _still_resolve),
    ),
    alternating=True,
    turn_label="bound",
    unfinished=_unfinished,
    shown=(FIRE_HITS, MELEE_HITS),
)

"""Kallistra's ACW card on the resolver screen (see rules/resolver.py).

A unit here is one regiment's stands in one hex (`data.Stands`).  Hits are kept
on the unit hit (`hits`) until the combat table is read for it: under the option
hits_on_one_hex = added (the default) the hits of every firer at one hex in one
step are added and read once, with the resolution "Read the combat table"; the
phase does not end while hits are waiting.  Under "separately" each fire reads
the table at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.dice import Dice, DiceRecord
from rules.errors import RulesError
from rules.kallistra_acw import charge as charging
from rules.kallistra_acw import combat, fire, moves
from rules.kallistra_acw.data import Stands, card
from rules.kallistra_acw.rolls import HitsResult, HitsStep, pool
from rules.kallistra_acw.sequence import steps
from rules.loader import get_table
from rules.resolver import (
    ACTIVE,
    BOTH,
    Acts,
    CHARGER,
    CONTACT,
    ENDS,
    ENEMY,
    INACTIVE,
    MAKES,
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

RULESET = "kallistra_acw"
MOVEMENT = "movement"  # the step of the card's phase 1, where charges are declared and answered
HITS = "hits"  # hits scored on the unit and not yet read on the combat table
DISRUPTED, ROUTING, CHARGING, MOVED = "disrupted", "routing", "charging", "moved"
CHARGED = "charged"  # shown: a charge declared at the unit waits for its response to charge (or evade)
CHARGED_BY = "_charged_by"  # hidden: the chargers whose charge this unit has not yet answered
# A Recoil read off the combat table (option recoil_contact): made at once, the unit is
# "recoiled", out of contact for the rest of the bound; on the table, it "must recoil" until
# its Recoil is taken, and stays in contact till then.
RECOILED, RECOIL_DUE = "recoiled", "recoil_due"


def stands(unit: Unit) -> Stands:
    """The unit as the card's procedures read it."""
    return Stands(
        arm=unit.arm,
        quality=unit.attr("quality", "regular"),
        count=unit.size,
        formation=unit.attr("formation", "line"),
        skirmishing=bool(unit.attr("skirmishing", False)),
        dismounted=bool(unit.attr("dismounted", False)),
        disrupted=unit.has(DISRUPTED),
        weapon=unit.attr("weapon") if unit.arm != "artillery" else None,
        gun=unit.attr("gun") if unit.arm == "artillery" else None,
        moved=unit.has(MOVED),
        charging=unit.has(CHARGING),
    )


def _pct(odds: Mapping[Any, Fraction]) -> dict[Any, Fraction]:
    return {k: v for k, v in odds.items() if v}


# -- fire ------------------------------------------------------------------------

def _printed_modifiers(table: str) -> list[tuple[str, str]]:
    """(situation, "+2 target behind wall") for each row of a modifiers table, as printed."""
    t = get_table(RULESET, table)
    return [(str(band.names[0]), f"{t.lookup(situation=band.names[0]).text} {band.label}") for band in t.rows.bands]


# the small-arms table's situations, as the resolution's tick ids
_COVER_TICK = {"wall": "wall", "fence": "fence", "wood": "wood", "skirmishing_infantry": "skirmishing"}
_SIGHT = (
    ("not_nearest", "the target is not the nearest enemy unit"),
    ("reverse_slope", "the target is on the reverse slope of a hill"),
    ("from_hill", "firing from a hill or slope hex"),
)


def _fire_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    skirmishing = bool(target is not None and target.attr("skirmishing"))
    ticks = [Tick(_COVER_TICK[i], label, checked=(_COVER_TICK[i] == "skirmishing" and skirmishing))
             for i, label in _printed_modifiers("small_arms_modifiers")]
    ticks += [Tick(i, label) for i, label in _SIGHT]
    if actor.arm == "artillery":
        ticks += [
            Tick("through_enemy_skirmishers", "firing through enemy skirmishers at another target"),
            Tick("through_friendly_skirmishers", "firing through friendly skirmishers"),
        ]
    return ticks


def _fire_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [
        Number("range", "Range in hexes", 1, 20, 2),
        Number("over_friends", "Friends shot over, hexes away (0: none)", 0, 20, 0),
    ]


def _shot(request: Request, range_hexes: int | None = None) -> fire.Shot:
    t = request.ticked
    target = request.target
    assert target is not None
    over = request.numbers.get("over_friends", 0)
    return fire.Shot(
        range=range_hexes if range_hexes is not None else request.numbers.get("range", 2),
        target_behind_wall="wall" in t,
        target_behind_fence="fence" in t,
        target_in_wood="wood" in t,
        target_skirmishing="skirmishing" in t,
        target_on_reverse_slope="reverse_slope" in t,
        target_is_nearest="not_nearest" not in t,
        through_enemy_skirmishers="through_enemy_skirmishers" in t,
        through_friendly_skirmishers="through_friendly_skirmishers" in t,
        over_friends_at=over or None,
        from_hill="from_hill" in t,
    )


def _separately(request: Request) -> bool:
    return request.options.get("hits_on_one_hex") == "separately"


def _hits_step(request: Request) -> HitsStep:
    actor = stands(request.actor)
    if request.action == "small_arms_fire":
        return fire.small_arms_fire(actor, _shot(request), request.options)
    if request.action == "canister":
        if request.actor.arm != "artillery":
            raise RulesError("only artillery fires canister")
        return fire.artillery_fire(actor, _shot(request, 1), request.options)
    if request.action == "artillery_fire":
        if request.numbers.get("range", 2) == 1:
            raise RulesError("at 1 hex artillery fires canister, with the small arms (phase 2, simultaneous fire)")
        return fire.artillery_fire(actor, _shot(request), request.options)
    assert request.target is not None
    step = charging.hand_to_hand_step(actor, charging=request.actor.has(CHARGING), overrides=request.options)
    if step is None:
        raise RulesError(f"{request.actor.name} rolls no dice in hand to hand")
    return step


def _prepare_hits(request: Request) -> Prepared:
    step = _hits_step(request)
    target = request.target
    assert target is not None
    waiting = int(target.attr(HITS, 0) or 0)
    odds: list[tuple[str, Mapping[Any, Fraction]]] = [("Hits", _pct(step.odds))]
    total = step.odds if _separately(request) else combat.add_hits_odds({waiting: Fraction(1)}, step.odds)
    heading = "Combat table for the target" + ("" if _separately(request) or not waiting else f" (with the {waiting} hits waiting)")
    odds.append((heading, _pct(combat.combat_odds(total, stands(target), request.options))))
    return Prepared(step.what, step.needed_text, step.dice, tuple(odds))


def _combat_effects(request: Request, unit: Unit, hits: int, *, charged: bool = False) -> tuple[str, tuple[Effect, ...]]:
    """Read the combat table for `hits` on `unit` and say what it does."""
    result = combat.combat_result(hits, stands(unit), request.options)
    after = combat.apply_combat(result, stands(unit), request.options, charged_in_hand_to_hand=charged)
    add: dict[str, int | None] = {}
    if after.disrupted:
        add[DISRUPTED] = None
    if after.rout:
        add[ROUTING] = None
    text = f"{result.text} ({result.column}, {hits} hit{'s' if hits != 1 else ''})"
    if after.last_stand_removed:
        text += "; the last stand in the hex is eliminated"
    removed = after.eliminated
    if after.recoil and not after.eliminated:
        if request.options.get("recoil_contact", "at_once") == "on_the_table":
            add[RECOIL_DUE] = None
            text += "; must recoil one hex, still facing the enemy: in contact until its Recoil is taken"
        elif request.action == "combat" and "at_edge" in request.ticked:
            removed = True
            text += "; forced to recoil from its sides table edge: removed from play"
        else:
            add[RECOILED] = 1  # this bound
            text += "; recoils one hex at once, still facing the enemy: out of contact for the rest of the bound"
    if after.rout:
        text += "; routs: roll its rout move"
    if after.attackers_occupy:
        text += "; the attackers occupy the hex"
    lost = unit.size if removed and not after.eliminated else after.stands_lost
    effect = Effect(unit.id, lost=lost, add=add, set={HITS: 0}, removed=removed)
    return text, (effect,)


def _resolve_hits(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    step = _hits_step(request)
    doubles = 0
    if step.double_needed is not None:
        doubles = Dice.parse(pool(step.dice_count, step.sides, step.double_needed)).read(record.raw, 0)
    result = HitsResult(step, record, doubles)
    target = request.target
    if _separately(request):
        if result.hits == 0:
            return Outcome(f"{result.text}: no effect")
        text, effects = _combat_effects(request, target, result.hits)
        return Outcome(f"{result.text}: {text}", effects)
    waiting = int(target.attr(HITS, 0) or 0)
    total = waiting + result.hits
    text = f"{result.text} on {target.name}" + (f"; {total} waiting to be read on the combat table" if total else "")
    return Outcome(text, (Effect(target.id, set={HITS: total}),) if result.hits else ())


def _prepare_combat(request: Request) -> Prepared:
    hits = int(request.actor.attr(HITS, 0) or 0)
    if not hits:
        raise RulesError(f"{request.actor.name} has no hits waiting to be read")
    result = combat.combat_result(hits, stands(request.actor), request.options)
    return Prepared(f"combat table: {hits} hits on {request.actor.name} ({result.column})", result.text, None)


def _resolve_combat(request: Request, record: DiceRecord | None) -> Outcome:
    hits = int(request.actor.attr(HITS, 0) or 0)
    text, effects = _combat_effects(request, request.actor, hits, charged="charged_in_hand_to_hand" in request.ticked)
    return Outcome(text, effects)


# -- movement phase ----------------------------------------------------------------


_RADIUS = card().command.brigade_radius  # hexes


def _move_prepare(request: Request) -> Prepared:
    if request.actor.has(ROUTING):
        raise RulesError(f"{request.actor.name} is routing: it makes its rout move")
    if "out_of_command" in request.ticked:
        raise RulesError(f"brigade commanders can only move units within {_RADIUS} hexes, "
                         "or in hex to hex contact with one that is")
    move = moves.movement_allowance(stands(request.actor), difficult="difficult" in request.ticked, overrides=request.options)
    return Prepared(f"movement: {move.reason}", f"{move.hexes} hexes" + (f" ({move.cell})" if move.cell else ""), None)


def _move_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    move = moves.movement_allowance(stands(request.actor), difficult="difficult" in request.ticked, overrides=request.options)
    if move.hexes == 0:
        return Outcome(move.reason)
    effects = (Effect(request.actor.id, add={MOVED: 1}),) if request.actor.arm == "artillery" else ()
    text = f"moves up to {move.hexes} hexes ({move.reason})"
    if effects:
        text += "; artillery that moved cannot shoot in this bound"
    return Outcome(text, effects)


def _rally_prepare(request: Request) -> Prepared:
    if not request.actor.has(DISRUPTED):
        raise RulesError("only a disrupted unit rallies")
    return Prepared("rally at the end of its side's movement phase",
                    "not in contact with the enemy", None)


def _rally_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    if moves.rallies(stands(request.actor), in_contact_with_enemy="in_contact" in request.ticked):
        return Outcome("the disruption marker is removed", (Effect(request.actor.id, clear=(DISRUPTED,)),))
    return Outcome("in contact with the enemy: stays disrupted")


def _declare_prepare(request: Request) -> Prepared:
    if request.actor.arm == "artillery":
        raise RulesError("artillery does not charge")
    if request.actor.has(DISRUPTED):
        raise RulesError("disrupted units cannot move, so they cannot charge")
    return Prepared("charge declaration", "the charged unit tests its response", None)


def _declare_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    due = [*request.target.attr(CHARGED_BY, ()), request.actor.id]
    return Outcome(f"charges {request.target.name}: the charged unit responds (Response to charge)",
                   (Effect(request.actor.id, add={CHARGING: 1}),
                    Effect(request.target.id, add={CHARGED: 1}, set={CHARGED_BY: due})))


def _answered(unit: Unit, charger: Unit | None = None) -> Effect:
    """The charge of `charger` (every charge, for an evade) is answered."""
    left = [c for c in unit.attr(CHARGED_BY, ()) if charger is not None and c != charger.id]
    return Effect(unit.id, clear=() if left else (CHARGED,), set={CHARGED_BY: left})


def _response_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    """The response modifiers as printed; being outnumbered 2:1 is counted from the stands."""
    ticks = []
    for situation, label in _printed_modifiers("response_modifiers"):
        if situation == "outnumbered":
            outnumbered = target is not None and target.size >= card().response.outnumbered_ratio * actor.size
            ticks.append(Tick(situation, label, checked=outnumbered, excluded="counted from the stands of both units"))
        else:
            ticks.append(Tick(situation, label))
    return ticks


def _response(request: Request) -> charging.ResponseStep:
    assert request.target is not None
    t = request.ticked
    defence = charging.ChargeDefence(
        uphill_of_chargers="uphill" in t,
        defending_linear_obstacle="linear_obstacle" in t,
        defending_wood="wood" in t,
        brigade_commander_hexes=0 if "brigade_commander" in t else None,
    )
    return charging.response_step(stands(request.actor), request.target.size, defence, request.options)


def _response_prepare(request: Request) -> Prepared:
    assert request.target is not None
    if not request.target.has(CHARGING):
        raise RulesError(f"{request.target.name} has not declared a charge")
    step = _response(request)
    mods = "".join(f", {m.value:+d} {m.label}" for m in step.modifiers)
    odds = {"stands": step.odds[charging.STANDS], "routs" if request.actor.arm != "artillery" else "eliminated": step.odds[charging.ROUTS]}
    return Prepared(f"response to charge, {step.class_label}", f"more than {step.score} on {step.dice} ({step.printed_score}{mods})",
                    step.dice, (("Response", odds),))


def _response_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    step = _response(request)
    stood = record.result > step.score
    answered = _answered(request.actor, request.target)
    if stood:
        return Outcome(charging.STAND_TEXT, (answered,))
    if request.actor.arm == "artillery":
        return Outcome(get_table(RULESET, "rout").lookup(arm="artillery").text,
                       (Effect(request.actor.id, lost=request.actor.size, removed=True), answered))
    text = charging.ROUT_TEXT + ": roll its rout move"
    if request.options.get("failed_response_hex") == "chargers_occupy":
        text += "; the chargers occupy the hex"
    return Outcome(text, (Effect(request.actor.id, add={ROUTING: None}), answered))


def _edge_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("edge", "Hexes to its own table edge", 0, 99, 10)]


def _rout_prepare(request: Request) -> Prepared:
    if not request.actor.has(ROUTING):
        raise RulesError(f"{request.actor.name} is not routing: a rout move follows a failed response to charge "
                         "or a Route on the combat table")
    step = moves.rout_step(stands(request.actor), request.numbers.get("edge", 10))
    odds = (("Hexes routed", _pct(step.odds)),) if step.dice else ()
    return Prepared(f"rout, {request.actor.arm}", step.cell, step.dice, odds)


def _rout_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    step = moves.rout_step(stands(request.actor), request.numbers.get("edge", 10))
    if step.eliminated or step.removed:
        text = step.cell if step.eliminated else "forced to route from its sides table edge: removed from play"
        return Outcome(text, (Effect(request.actor.id, lost=request.actor.size, removed=True),))
    assert record is not None
    distance = record.result + step.plus
    moved = min(distance, step.hexes_to_own_edge) if step.hexes_to_own_edge is not None else distance
    text = f"routs {moved} hex{'es' if moved != 1 else ''}, ignoring terrain effects"
    if moved < distance:
        text += ", stops at its sides table edge"
    return Outcome(text, (Effect(request.actor.id, add={ROUTING: None}),))


def _recoil_prepare(request: Request) -> Prepared:
    if not request.actor.has(RECOIL_DUE):
        at_once = request.options.get("recoil_contact", "at_once") == "at_once"
        raise RulesError(f"{request.actor.name} has no recoil to make: a Recoil read off the combat table "
                         + ("is made as it is read (option recoil_contact)" if at_once else "is taken here"))
    return Prepared("recoil", "one hex away from the attackers", None)


def _recoil_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    move = moves.recoil(stands(request.actor), at_own_table_edge="at_edge" in request.ticked)
    if move.removed:
        return Outcome("forced to recoil from its sides table edge: removed from play",
                       (Effect(request.actor.id, lost=request.actor.size, removed=True, clear=(RECOIL_DUE,)),))
    return Outcome("recoils one hex away from its attackers, still facing the enemy; out of contact",
                   (Effect(request.actor.id, clear=(RECOIL_DUE,)),))


def _evade_ready(request: Request) -> None:
    if not request.actor.has(CHARGED):
        raise RulesError(f"{request.actor.name} has no charge to answer: a unit evades in response to contact")


def _evade_prepare(request: Request) -> Prepared:
    _evade_ready(request)
    move = moves.evade_move(stands(request.actor), request.options)
    return Prepared("evade in response to contact", f"{move.hexes} hexes away from the enemy", None)


def _evade_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    _evade_ready(request)
    move = moves.evade_move(stands(request.actor), request.options)
    return Outcome(f"evades up to {move.hexes} hexes ({move.reason}); its next move is not affected",
                   (_answered(request.actor),))


def _unfinished(phase: str, units: Mapping[str, Unit]) -> list[str]:
    """Hits not yet read stop any step; a declared charge whose response to charge was
    never rolled (nor evaded) stops the movement step, where the card takes the test."""
    out = [f"{u.name} has {u.attr(HITS)} hits to read on the combat table" for u in units.values()
           if not u.removed and u.attr(HITS)]
    out += [f"{u.name} must recoil one hex (Recoil), as the combat table read; in contact until then "
            "(option recoil_contact: on the table)" for u in units.values() if not u.removed and u.has(RECOIL_DUE)]
    if phase == MOVEMENT:
        for unit in units.values():
            chargers = [units[c] for c in unit.attr(CHARGED_BY, ()) if c in units]
            for charger in chargers:
                if not unit.removed and not charger.removed and charger.has(CHARGING):
                    out.append(f"{unit.name} must test its response to the charge of {charger.name} (Response to charge)")
    return out


def _phases() -> tuple[Phase, ...]:
    out = []
    for step in steps():
        acts: Acts = ACTIVE if step.sides == "active" else BOTH
        # the card's charge move and the generals' move are made on the table; nothing is resolved
        actions = [a for a in step.actions if a not in ("charge_move", "general_move")]
        if step.id == "artillery_fire" or step.id == "simultaneous_fire" or step.id == "hand_to_hand":
            actions.append("combat")
        out.append(Phase(step.id, step.title, acts, tuple(actions), step.printed, who=step.who))
    return tuple(out)


RESOLVER = Resolver(
    ruleset=RULESET,
    title="Kallistra's ACW hex rules",
    size_label="stands",
    attributes=(
        Attribute("quality", "Class", choices=("elite", "regular", "militia"), default="regular"),
        Attribute("formation", "Formation", choices=("line", "column", "march_column"), default="line"),
        Attribute("weapon", "Small arms", choices=("SM", "RM", "SR", "RC", "SS", "-"), default="RM",
                  help="SM smoothbore musket, RM rifle musket, SR sharp shooter rifle, RC rifled carbine, SS smoothbore carbine or shotgun",
                  arms=("infantry", "cavalry")),
        Attribute("gun", "Gun", choices=("6lb", "12lb", "3in_rifle", "-"), default="-", arms=("artillery",)),
        Attribute("skirmishing", "Skirmishing", kind="bool", default=False, arms=("infantry",)),
        Attribute("dismounted", "Dismounted", kind="bool", default=False, arms=("cavalry",)),
        Attribute(HITS, "Hits", kind="int", default=0, help="hits waiting to be read on the combat table"),
    ),
    states=(
        State(DISRUPTED, "disrupted", "until it rallies at the end of its side's movement phase, out of contact"),
        State(ROUTING, "routing", "routs to its own table edge; removed if forced to recoil or rout from it"),
        State(CHARGING, "charging", "this turn"),
        State(CHARGED, "charged", "until it tests its response to the charge, or evades"),
        State(MOVED, "moved (artillery)", "this turn: it cannot shoot"),
        State(RECOILED, "recoiled", "this bound: one hex away from its attackers, out of contact"),
        State(RECOIL_DUE, "to recoil", "until its Recoil is taken: still in contact (option recoil_contact)"),
    ),
    phases=_phases(),
    actions=(
        Action("move", "Move", NO_TARGET, _move_prepare, _move_resolve,
               ticks=lambda a, t: [Tick("difficult", "in or into woods, or across a river or linear obstacle"),
                                   Tick("out_of_command", f"more than {_RADIUS} hexes from its brigade commander, not in contact")]),
        Action("rally", "Rally", NO_TARGET, _rally_prepare, _rally_resolve,
               ticks=lambda a, t: [Tick("in_contact", "in contact with the enemy")]),
        Action("declare_charge", "Declare a charge", ENEMY, _declare_prepare, _declare_resolve,
               arms=("infantry", "cavalry"), contact=MAKES),
        Action("response_to_charge", "Response to charge", ENEMY, _response_prepare, _response_resolve,
               ticks=_response_ticks, acts=INACTIVE, reach=CHARGER,
               help="The charged unit tests; its target is the charging unit"),
        Action("evade", "Evade", NO_TARGET, _evade_prepare, _evade_resolve, acts=INACTIVE,
               arms=("infantry", "cavalry"), contact=ENDS),
        Action("artillery_fire", "Artillery fire", ENEMY, _prepare_hits, _resolve_hits,
               numbers=_fire_numbers, ticks=_fire_ticks, arms=("artillery",)),
        Action("small_arms_fire", "Small-arms fire", ENEMY, _prepare_hits, _resolve_hits,
               numbers=_fire_numbers, ticks=_fire_ticks, arms=("infantry", "cavalry")),
        Action("canister", "Canister", ENEMY, _prepare_hits, _resolve_hits,
               numbers=lambda a, t: [], ticks=_fire_ticks, arms=("artillery",)),
        Action("hand_to_hand", "Hand to hand", ENEMY, _prepare_hits, _resolve_hits, reach=CONTACT,
               why="the charging unit and the unit it charged, once the response to charge has not routed it"),
        Action("combat", "Read the combat table", NO_TARGET, _prepare_combat, _resolve_combat,
               ticks=lambda a, t: [Tick("charged_in_hand_to_hand", "the charged unit of a hand to hand"),
                                   Tick("at_edge", "at its own table edge (a Recoil from there removes it)")],
               help="The unit hit reads its waiting hits on the combat table", acts=BOTH),
        Action("rout", "Rout move", NO_TARGET, _rout_prepare, _rout_resolve, numbers=_edge_numbers, anytime=True,
               contact=ENDS),
        Action("recoil", "Recoil", NO_TARGET, _recoil_prepare, _recoil_resolve,
               ticks=lambda a, t: [Tick("at_edge", "at its own table edge")], anytime=True, contact=ENDS),
    ),
    alternating=True,
    turn_label="bound",
    unfinished=_unfinished,
    shown=(HITS,),
    breaks_contact=(ROUTING, RECOILED),
    due=lambda u: ("combat",) * bool(u.attr(HITS)) + ("recoil",) * u.has(RECOIL_DUE),
    # option routed_at_end: a unit routing or removed from play is lost whole
    lost_at_end=lambda u, o: u.start if (u.removed or u.has(ROUTING)) and o.get("routed_at_end", "lost") == "lost" else u.lost,
)

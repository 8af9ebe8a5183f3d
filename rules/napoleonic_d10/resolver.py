"""The d10 battalion card (seed 001) on the resolver screen (see rules/resolver.py).

A unit is one battalion (regiment, battery) of stands; a battery counts tubes.
Words of the card used throughout:

- *class*: Elite, Line or Conscript; it gives the *class dice* (option class_dice)
  rolled for morale, movement, local initiative, skirmish and disruptive terrain;
- *CW level*: the unit's steadiness, the column of the morale table;
- *casualty step*: one casting lost ("Infantry Stands are 3 castings"; cavalry
  and guns by option castings_per_stand). A unit keeps the steps it took
  (`steps_lost`) and loses a stand for each full stand of castings;
- *AP*: ammunition points, counted as spent (`ap_spent`); the card gives no
  starting stock, so being out of ammunition is a state the umpire puts on;
- *IL*: the influence level of a leader attached (table leader_attachment).

The card prints no sequence of play. Its own words give the order read here:
"The two army commanders roll for initiative at the beginning of the turn", the
winner moving first; "All units must roll to move"; charges, with defensive fire
at the chargers ("Def. Fire Range"); fire; melee ("MELEE!" on the charge table);
and morale, which is also checked "every time" one of its causes happens. Both
sides act in every phase of one turn (`alternating` False); the side holding the
initiative acts first in each, which the umpire keeps to.

What the battle knows beyond the units (who holds the initiative, a turn ended
by the initiative dice) is kept as a state on one unit, since the framework
stores states on units only. Results that call for another roll (a surrender
percentage, the ammunition die of a natural 10, the morale checks a hit causes)
are *pending* states: the phase does not end while one waits.

Shaken, disordered and broken are read from the unit's stored states; the
circumstances of the moment (cover, smoke, flank...) are ticks, pre-filled from
stored state where it knows them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import ENTERED, Dice, DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.napoleonic_d10 import charge as charging
from rules.napoleonic_d10 import fire as firing
from rules.napoleonic_d10 import initiative as initiating
from rules.napoleonic_d10 import morale as moraling
from rules.napoleonic_d10 import movement as moving
from rules.napoleonic_d10 import skirmish as skirmishing
from rules.napoleonic_d10.data import (
    RULESET,
    Leader,
    card,
    cell_text,
    cw_level_for,
    modifier,
    options_of,
    table,
    values_of,
)
from rules.napoleonic_d10.rolls import (
    UMPIRE_READS,
    TableRoll,
    distribution,
    natural_ranges,
)
from rules.odds import roll_distribution
from rules.resolver import (
    BOTH,
    ENEMY,
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

SHAKEN, DISORDERED, BROKEN = "shaken", "disordered", "broken"
LADDER = (SHAKEN, DISORDERED, BROKEN)  # morale states, mildest first
SMOKE, FIREFIGHT, IN_MELEE, OUT_OF_AMMO = "smoke", "firefight", "melee", "out_of_ammo"
MOVED, ROLLED_TO_MOVE = "moved", "rolled_to_move"
INITIATIVE, TURN_OVER = "initiative", "turn_over"
MORALE_DUE, SURRENDERING, AMMO_ROLL = "morale_due", "surrendering", "ammunition_roll"  # pending
REASONS, MELEE_WITH = "_morale_reasons", "_melee_with"  # hidden attributes
STEPS, AP = "steps_lost", "ap_spent"
FAR = 99  # inches typed for "no enemy in good order near"
NONE = "-"


# -- the unit as the card reads it ------------------------------------------------------


def _class(unit: Unit) -> str:
    return str(unit.attr("quality", "line"))


def _cw(unit: Unit) -> int:
    return int(unit.attr("cw_level", 9))


def castings_per_stand(unit: Unit, options: Mapping[str, str]) -> int:
    """Castings (casualty steps) in one stand: 'Infantry Stands are 3 castings'; others by option."""
    if unit.arm == "infantry":
        note = next(n for n in table("fire").card_notes if "castings" in n)
        return int(re.search(r"(\d+) castings", note)[1])  # type: ignore[index]
    return int(options_of(options)["castings_per_stand"])


def losses_percent(unit: Unit, options: Mapping[str, str], steps: int | None = None) -> Fraction:
    """Casualty steps lost, as a share of the unit's starting strength in steps."""
    taken = int(unit.attr(STEPS, 0) or 0) if steps is None else steps
    return min(Fraction(100), Fraction(100 * taken, max(1, unit.start * castings_per_stand(unit, options))))


def _leader(unit: Unit) -> Leader | None:
    rating = unit.attr("leader_rating", NONE)
    if rating in (None, NONE):
        return None
    return Leader(rating, unit.attr("leader_level", "division"), unit.attr("leader_at", "brigade"))


def _charge_arm(unit: Unit) -> str:
    if unit.arm != "cavalry":
        return unit.arm
    kind = unit.attr("cavalry_type", NONE)
    return f"{'light' if kind in (None, NONE) else kind}_cavalry"


def _mods_text(mods: Sequence[Modifier]) -> str:
    return ", ".join(f"{m.label} {m.value:+d}" for m in mods) or "no modifiers"


def _label(table_id: str, row: str, **axes: str) -> str:
    m = modifier(table_id, row, **axes)
    return f"{m.label} {m.value:+d}"


def _ticked_one(request: Request, ids: Sequence[str], what: str) -> str | None:
    """The one tick of a group the card counts once (cover...), or None."""
    chosen = [i for i in ids if i in request.ticked]
    if len(chosen) > 1:
        raise RulesError(f"tick one {what} only, not {len(chosen)}")
    return chosen[0] if chosen else None


def _scratch() -> DiceService:
    """A dice service that only re-reads dice already rolled, so the procedures read them."""
    return DiceService(seed=0, mode=ENTERED)


def _split(specs: Sequence[str]) -> str:
    """One roll of all the d10s several rolls need, for the dice service (read back by _parts)."""
    return f"{sum(Dice.parse(s).count for s in specs)}d10"


def _parts(specs: Sequence[str], raw: Sequence[int]) -> list[tuple[int, ...]]:
    out, at = [], 0
    for spec in specs:
        n = Dice.parse(spec).count
        out.append(tuple(raw[at:at + n]))
        at += n
    return out


# -- what results do to units -------------------------------------------------------------


def lasts(printed: str, options: Mapping[str, str]) -> int:
    """Turns a 'Full Turn' or '2 Full Turns' (Duration of Loss) lasts, this turn counted, by option loss_duration."""
    m = re.match(r"^(\d+)?\s*Full Turns?$", printed)
    if not m:
        raise RulesError(f"{printed!r} is not a duration in turns")
    full = int(m[1] or 1)
    return full + 1 if options_of(options)["loss_duration"] == "next_full_turns" else full


def _duration(status: str, options: Mapping[str, str]) -> int:
    return lasts(cell_text("morale_duration", status=status), options)


def worsen(unit: Unit, status: str, options: Mapping[str, str]) -> Effect:
    """A morale state put on: a worse state replaces the milder ones; a unit already worse stays so."""
    rank = LADDER.index(status)
    if any(unit.has(s) for s in LADDER[rank + 1:]):
        return Effect(unit.id)
    return Effect(unit.id, add={status: _duration(status, options)}, clear=tuple(s for s in LADDER[:rank] if unit.has(s)))


def removed(unit: Unit, options: Mapping[str, str], *, surrendered: bool = False, steps: int = 0) -> Effect:
    """The unit taken off the table: every stand lost if it surrendered, or if it routed
    under option routed_stands = lost; otherwise only its casualty steps."""
    hit = casualties(unit, steps, options)
    left = unit.size - hit.lost
    lose_all = surrendered or options_of(options)["routed_stands"] == "lost"
    pending = tuple(s for s in (MORALE_DUE, SURRENDERING, IN_MELEE) if unit.has(s))
    return Effect(unit.id, lost=hit.lost + (left if lose_all else 0), set=hit.set, clear=pending, removed=True)


def casualties(unit: Unit, steps: int, options: Mapping[str, str]) -> Effect:
    """Casualty steps taken: a stand lost for each full stand of castings."""
    per = castings_per_stand(unit, options)
    before = int(unit.attr(STEPS, 0) or 0)
    after = before + steps
    lost = min(unit.size, after // per - before // per)
    return Effect(unit.id, lost=lost, set={STEPS: after} if steps else {})


def _merge(a: Effect, b: Effect) -> Effect:
    """Two effects on one unit as one (the framework applies them in turn; one line reads better)."""
    return Effect(a.unit, a.lost + b.lost, {**a.add, **b.add}, tuple(dict.fromkeys(a.clear + b.clear)),
                  {**a.set, **b.set}, a.removed or b.removed)


def morale_due(unit: Unit, reasons: Sequence[str]) -> Effect:
    """A morale check the unit must take ('Check morale every time')."""
    if not reasons:
        return Effect(unit.id)
    known = [r for r in str(unit.attr(REASONS, "") or "").split("; ") if r]
    return Effect(unit.id, add={MORALE_DUE: None}, set={REASONS: "; ".join(dict.fromkeys(known + list(reasons)))})


def _state_result(unit: Unit, code: str | None, options: Mapping[str, str]) -> tuple[Effect, str]:
    """A morale state printed as SH, DO, DOR, Brok (skirmish, crash through, terrain):
    the state and its Morale Loss Move."""
    if code is None:
        return Effect(unit.id), ""
    entry = card()["morale"]["results"][code]
    move = f'; moves {cell_text("morale_loss_move", result=entry["move"])}' if "move" in entry else ""
    return worsen(unit, entry["status"], options), move


# -- pending rolls and the turn ---------------------------------------------------------------


def _turn_over(units: Mapping[str, Unit]) -> bool:
    return any(u.has(TURN_OVER) for u in units.values())


def _holder(units: Mapping[str, Unit]) -> Unit | None:
    return next((u for u in units.values() if u.has(INITIATIVE)), None)


def _in_turn(prepare: Callable[[Request], Prepared]) -> Callable[[Request], Prepared]:
    """A phase's resolution: refused once the initiative dice have ended the turn."""

    def checked(request: Request) -> Prepared:
        if _turn_over(request.units):
            raise RulesError("the turn has ended (initiative rolls of 17 or more): go on to the next turn")
        return prepare(request)

    return checked


def _unfinished(phase: str, units: Mapping[str, Unit]) -> list[str]:
    out = []
    if phase == "initiative" and not any(u.has(INITIATIVE) or u.has(TURN_OVER) for u in units.values()):
        out.append("the two army commanders roll for initiative at the beginning of the turn")
    for u in units.values():
        if u.removed:
            continue
        if u.has(SURRENDERING):
            out.append(f"{u.name} rolls 1d10 for the percentage of the unit which surrenders")
        if u.has(AMMO_ROLL):
            out.append(f"{u.name} rolled a natural 10: roll again for ammunition")
        if u.has(MORALE_DUE):
            out.append(f"{u.name} must check morale: {u.attr(REASONS) or 'Check morale every time'}")
    return out


# -- initiative ------------------------------------------------------------------------------

_RATED = [str(v) for v in values_of("initiative_modifiers", "modifier") if v != "grand_tac"]


def _initiative_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    ticks = []
    for who, words in (("own", "this side's commander"), ("other", "the other commander")):
        ticks += [Tick(f"{who}_{r}", f"{words}: {_label('initiative_modifiers', r)}") for r in _RATED]
    ticks.append(Tick("holds", "this side holds the initiative (option initiative_tie = holder_keeps)"))
    return ticks


def _initiative_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("grand_tac_own", "Grand-Tac points allotted by this side", 0, 20, 0),
            Number("grand_tac_other", "Grand-Tac points allotted by the other side", 0, 20, 0)]


def _commanders(request: Request) -> tuple[initiating.Commander, initiating.Commander]:
    assert request.target is not None
    own = _ticked_one(request, [f"own_{r}" for r in _RATED], "rating for this side's commander")
    other = _ticked_one(request, [f"other_{r}" for r in _RATED], "rating for the other commander")
    return (
        initiating.Commander(own[4:] if own else "average", request.numbers.get("grand_tac_own", 0), request.actor.side),
        initiating.Commander(other[6:] if other else "average", request.numbers.get("grand_tac_other", 0), request.target.side),
    )


def _initiative_prepare(request: Request) -> Prepared:
    holder = _holder(request.units)
    if request.action == "initiative" and holder is not None:
        raise RulesError(f"initiative was rolled this turn: the {holder.side} moves first")
    if request.action == "contest_initiative" and holder is None:
        raise RulesError("the army commanders roll for initiative at the beginning of the turn, before any contest")
    first, second = _commanders(request)
    odds = initiating.initiative_odds(first, second, request.options)
    spec = card()["dice"]["initiative"]
    mods = (f"{first.name} {_mods_text(initiating.initiative_modifiers(first, request.options))}; "
            f"{second.name} {_mods_text(initiating.initiative_modifiers(second, request.options))}")
    return Prepared(
        f"initiative: each commander rolls {spec}, the {first.name}'s die first",
        f"the high modified die wins ({mods}); combined rolls of {card()['initiative']['turn_ends_at']} or more end the turn",
        _split([spec, spec]),
        (("Initiative", {f"{first.name} wins": odds[initiating.FIRST], f"{second.name} wins": odds[initiating.SECOND],
                         "equal": odds["equal"]}),
         ("The turn ends immediately", {"yes": odds["turn_ends"], "no": 1 - odds["turn_ends"]})),
    )


def _initiative_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    first, second = _commanders(request)
    spec = card()["dice"]["initiative"]
    a, b = _parts([spec, spec], record.raw)
    holder = None
    if options_of(request.options)["initiative_tie"] == "holder_keeps":
        holder = initiating.FIRST if "holds" in request.ticked else initiating.SECOND
    rolled = initiating.roll_initiative(first, second, _scratch(), holder=holder, first_entered=a,
                                        second_entered=b, options=request.options)
    dice = f"{rolled.first_record.result} against {rolled.second_record.result}"
    if rolled.turn_ends:
        return Outcome(f"the combined rolls equal or exceed {card()['initiative']['turn_ends_at']}: the turn ends immediately",
                       (Effect(request.actor.id, add={TURN_OVER: 1}),))
    if rolled.winner is None:
        return Outcome(f"{dice}: equal modified dice, nobody has won: both commanders roll again")
    winner = request.actor if rolled.winner == initiating.FIRST else request.target
    effects = [Effect(u.id, clear=(INITIATIVE,)) for u in request.units.values() if u.has(INITIATIVE) and u.id != winner.id]
    effects.append(Effect(winner.id, add={INITIATIVE: 1}))
    verb = "takes" if request.action == "contest_initiative" and winner is request.actor else "has"
    return Outcome(f"{dice}: the high modified die wins; the {winner.side} {verb} the initiative and moves first",
                   tuple(effects))


# -- movement -------------------------------------------------------------------------------------


def _move_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [
        Tick("vacating_cover", _label("movement_modifiers", "vacating_cover")),
        Tick("in_smoke", _label("movement_modifiers", "in_smoke"), checked=actor.has(SMOKE)),
        Tick("moved_last_turn", _label("movement_modifiers", "moved_last_turn"), checked=actor.states.get(MOVED) == 1),
    ]


def _move_check(request: Request) -> TableRoll:
    u = request.actor
    if u.has(BROKEN):
        raise RulesError(f"{u.name} is broken: it makes its Morale Loss Move ({cell_text('morale_loss_move', result='Brok')})")
    if u.has(ROLLED_TO_MOVE):
        raise RulesError(f"{u.name} has rolled to move this turn")
    s = moving.MovementSituation(
        _class(u), u.attr("co_rating", "average"), _cw(u), shaken=u.has(SHAKEN), disordered=u.has(DISORDERED),
        vacating_cover="vacating_cover" in request.ticked, in_smoke="in_smoke" in request.ticked,
        moved_last_turn="moved_last_turn" in request.ticked,
    )
    return moving.movement_check(s, request.options)


def _roll_prepare(check: TableRoll, heading: str, what: str | None = None) -> Prepared:
    needed = ", ".join(str(r) for r in check.needed())
    return Prepared(what or check.purpose, f"{check.dice} ({_mods_text(check.modifiers)}): {needed}", check.dice,
                    ((heading, check.odds()),))


def _move_prepare(request: Request) -> Prepared:
    return _roll_prepare(_move_check(request), "Movement")


def _distances(unit: Unit, result: str) -> str:
    if unit.arm == "artillery":
        gun = unit.attr("battery", "6pdr")
        parts = []
        for band in table("artillery_movement").columns.bands:  # type: ignore[union-attr]
            step = moving.artillery_move(gun, str(band.names[0]), result)
            parts.append(f"{band.label} " + ("NA" if step.inches is None else f'{_inches(step.inches)}"'))
        return f"{gun} guns: " + "; ".join(parts)
    kind = _charge_arm(unit)
    formation = unit.attr("formation", "line")
    if formation not in ("road", "column", "line", "general", "square") or (formation == "square" and kind != "infantry"):
        formation = "line" if formation != "closed_column" else "column"
    here = moving.movement_distance(kind, formation, result)
    road = moving.movement_distance(kind, "road", result)
    return f'up to {_inches(here)}" in {formation} ({_inches(road)}" on road)'


def _inches(value: Fraction) -> str:
    whole, part = divmod(value, 1)
    if not part:
        return str(int(whole))
    return f"{int(whole)}-{part}" if whole else str(part)


def _move_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    result = _move_check(request).read(record.result)
    unit = request.actor
    if result == card()["movement"]["no_move"]:
        return Outcome(f"{result} (No movement)", (Effect(unit.id, add={ROLLED_TO_MOVE: 1}),))
    return Outcome(f"{result}: moves {_distances(unit, result)}", (Effect(unit.id, add={ROLLED_TO_MOVE: 1, MOVED: 2}),))


# -- local initiative, disruptive terrain ------------------------------------------------------------


def _situation_ticks(unit: Unit) -> list[Tick]:
    return [Tick("smoke", "in smoke (In Smk)", checked=unit.has(SMOKE)),
            Tick("firefight", "in a firefight (In FF)", checked=unit.has(FIREFIGHT))]


def _situation(request: Request) -> str:
    return _ticked_one(request, ("smoke", "firefight"), "situation (smoke or firefight)") or "normal"


def _local_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return _situation_ticks(actor) + [
        Tick("reacting_cavalry_charge", _label("local_initiative_modifiers", "reacting_cavalry_charge")),
        Tick("division_leader_attached", _label("local_initiative_modifiers", "division_leader_attached"),
             checked=_leader(actor) is not None),
    ]


def _local_check(request: Request) -> TableRoll:
    return initiating.local_initiative_check(
        _class(request.actor), _situation(request),
        reacting_cavalry_charge="reacting_cavalry_charge" in request.ticked,
        division_leader_attached="division_leader_attached" in request.ticked, options=request.options,
    )


def _legend(table_id: str, text: str) -> str:
    words = table(table_id).legend.get(text)
    return f"{text} = {words}" if words else text


def _local_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    text = _local_check(request).read(record.result)
    return Outcome(f"{_legend('local_initiative', text)} (only for movement, or for forming square)")


_DEGREES = [band.label for band in table("disruptive_terrain").columns.bands]  # type: ignore[union-attr]


def _terrain_check(request: Request) -> TableRoll:
    degree = _ticked_one(request, [d.lower() for d in _DEGREES], "degree of disruptive terrain")
    if degree is None:
        raise RulesError("tick the degree of the disruptive terrain: D1, D2 or D3")
    return skirmishing.disruption_check(_class(request.actor), degree, request.options)


def _bracket(state: skirmishing.State) -> str:
    if state.number is None:
        return ""
    return f"; ({state.number}): the card does not say what the number in brackets counts, the umpire applies it"


def _printed_state_outcome(request: Request, unit: Unit, printed: str, table_id: str) -> Outcome:
    state = skirmishing.read_state(printed)
    effect, move = _state_result(unit, state.state, request.options)
    if state.smoke:
        effect = _merge(effect, Effect(unit.id, add={SMOKE: None}))
    text = _legend(table_id, printed) + move + _bracket(state)
    return Outcome(text, (effect,) if effect.add or effect.clear else ())


def _terrain_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    printed = _terrain_check(request).read(record.result)
    return _printed_state_outcome(request, request.actor, printed, "disruptive_terrain")


# -- fire ----------------------------------------------------------------------------------------------

_SMALL_ARMS_ONLY = ("additional_ammo", "scrounging_ammo", "initial_volley", "infantry_moved_over_half")
_GUNS_ONLY = ("initial_fire", "ricochet_fire", "canister", "battalion_guns", "battalion_guns_moved_under_half")
_FIRE_COVERS = firing.COVERS


def _guns(unit: Unit) -> bool:
    return unit.arm == "artillery"


def _fire_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    guns = _guns(actor)
    formation = target.attr("formation") if target is not None else None
    at_arty = target is not None and target.arm == "artillery"
    labels = {row: _label("fire_modifiers", row) for row in
              (*_SMALL_ARMS_ONLY, "initial_fire", "ricochet_fire", "battalion_guns_moved_under_half", *_FIRE_COVERS,
               "in_smoke", "flank", "square", "closed_column", "open_order_in_cover")}
    labels["canister"] = "firing canister (Cannister range)"
    labels["battalion_guns"] = "battalion guns"
    ticks = []
    for row in (*_SMALL_ARMS_ONLY, *_GUNS_ONLY):
        wrong = (row in _SMALL_ARMS_ONLY and guns) or (row in _GUNS_ONLY and not guns)
        why = f"a {'small-arms' if row in _SMALL_ARMS_ONLY else 'gun'} modifier, not one for {'guns' if guns else 'small arms'}"
        ticks.append(Tick(row, labels[row], excluded=why if wrong else None))
    ticks += [Tick(c, f"target in {labels[c]}") for c in _FIRE_COVERS]
    ticks += [
        Tick("in_smoke", f"target {labels['in_smoke']}", checked=target is not None and target.has(SMOKE)),
        Tick("flank", f"target's {labels['flank']}"),
        Tick("square", f"target in {labels['square']}", checked=formation == "square"),
        Tick("closed_column", f"target in {labels['closed_column']}", checked=formation == "closed_column"),
        Tick("open_order_in_cover", labels["open_order_in_cover"]),
        Tick("at_artillery", "target is artillery (" + ("Counter Battery" if guns else _label("fire_modifiers", "small_arms_at_artillery")) + ")",
             checked=at_arty),
    ]
    return ticks


def _fire_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    numbers = [Number("distance", "Distance to the target, inches", 0, 40, 2)]
    if _guns(actor):
        numbers += [Number("tubes", "Tubes firing", 1, None, max(1, actor.size)),
                    Number("ap", "AP spent on this fire (1-4)", 1, 4, card()["fire"]["artillery_plain_ap"])]
    else:
        numbers.append(Number("stands", "Stands firing", 1, None, max(1, actor.size)))
    return numbers


def _fire_situation(request: Request) -> firing.FireSituation:
    u, t, ticked = request.actor, request.target, request.ticked
    assert t is not None
    guns = _guns(u)
    weapon = u.attr("gun" if guns else "weapon", NONE)
    if weapon in (None, NONE):
        raise RulesError(f"{u.name} has no fire arms: give it a {'gun' if guns else 'weapon'} first")
    cover = _ticked_one(request, _FIRE_COVERS, "cover for the target")
    moved = "over_half" if "infantry_moved_over_half" in ticked else "under_half" if "battalion_guns_moved_under_half" in ticked else "no"
    return firing.FireSituation(
        weapon=weapon,
        distance=request.numbers.get("distance", 2),
        stands=None if guns else request.numbers.get("stands", u.size),
        tubes=request.numbers.get("tubes", u.size) if guns else None,
        ammunition="canister" if "canister" in ticked else "ball",
        ap=request.numbers.get("ap") if guns else None,
        additional_ammo="additional_ammo" in ticked,
        scrounging_ammo="scrounging_ammo" in ticked,
        initial_volley="initial_volley" in ticked,
        initial_fire="initial_fire" in ticked,
        ricochet_fire="ricochet_fire" in ticked,
        moved=moved,
        battalion_guns="battalion_guns" in ticked,
        shaken=u.has(SHAKEN),
        disordered=u.has(DISORDERED),
        broken=u.has(BROKEN),
        target_cover=cover or firing.NO_COVER,
        target_in_smoke="in_smoke" in ticked,
        target_flank="flank" in ticked,
        target_square="square" in ticked,
        target_closed_column="closed_column" in ticked,
        target_open_order="open_order_in_cover" in ticked,
        target_artillery="at_artillery" in ticked,
    )


def _fire_check(request: Request) -> firing.FireCheck:
    if request.actor.has(AMMO_ROLL):
        raise RulesError(f"{request.actor.name} rolls again for ammunition (a natural 10) before it fires again")
    return firing.fire_check(_fire_situation(request), request.options)


def _fire_prepare(request: Request) -> Prepared:
    check = _fire_check(request)
    needed = ", ".join(str(r) for r in check.needed())
    return Prepared(
        f"{check.purpose} ({check.range})",
        f"{check.dice} ({_mods_text(check.modifiers)}): {needed} casualty steps",
        check.dice,
        (("Casualty steps", check.odds()),),
        (_ammunition_note(check),),
    )


def _ammunition_note(check: firing.FireCheck) -> str:
    ammo = card()["fire"]
    return (f"{check.base_ap} AP spent; a natural {ammo['natural_extra_ap']} spends {ammo['extra_ap']} more, "
            f"a natural {ammo['natural_roll_again']} rolls again")


def _fire_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    check = _fire_check(request)
    natural = record.result
    text = check.read(natural)
    actor, target = request.actor, request.target
    options = request.options
    steps = 0 if text == card()["fire"]["no_effect"] else int(text)
    ap = card()["fire"]
    extra = ap["extra_ap"] if natural == ap["natural_extra_ap"] else 0
    spent = int(actor.attr(AP, 0) or 0) + check.base_ap + extra
    shooter = Effect(actor.id, set={AP: spent}, add={AMMO_ROLL: None} if natural == ap["natural_roll_again"] else {})
    words = f"{text} casualty step{'s' if steps != 1 else ''}" if steps else f"{text} (no effect)"
    words += f"; {check.base_ap + extra} AP spent"
    if natural == ap["natural_roll_again"]:
        words += f"; a natural {natural}: roll again for ammunition"
    hit = casualties(target, steps, options)
    event = moraling.MoraleEvent(
        _class(target), hit=steps > 0,
        losses_before_percent=losses_percent(target, options),
        losses_after_percent=losses_percent(target, options, int(target.attr(STEPS, 0) or 0) + steps),
        fired_on=True, fired_from="flank" if "flank" in request.ticked else "front", fire_range=check.range,
    )
    reasons = moraling.morale_checks_due(event, options)
    if reasons:
        words += f"; {target.name} checks morale: " + "; ".join(reasons)
    return Outcome(words, (shooter, _merge(hit, morale_due(target, reasons))))


def _ammunition_prepare(request: Request) -> Prepared:
    if not request.actor.has(AMMO_ROLL):
        raise RulesError(f"{request.actor.name} has no natural 10 to roll again for")
    tab = table("ammunition_reroll")
    dice = tab.dice or card()["dice"]["fire"]
    odds = distribution(dice, lambda n: tab.lookup(roll=n).text)
    needed = ", ".join(str(r) for r in natural_ranges(dice, lambda n: tab.lookup(roll=n).text))
    return Prepared("ammunition: a natural 10, roll again", f"{dice}: {needed}", dice, (("AP spent", odds),))


def _ammunition_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    cell = table("ammunition_reroll").lookup(roll=record.result)
    spent = int(request.actor.attr(AP, 0) or 0) + int(cell.number)
    return Outcome(f"{cell.text} more spent", (Effect(request.actor.id, set={AP: spent}, clear=(AMMO_ROLL,)),))


# -- fire discipline, skirmish -----------------------------------------------------------------------------


def _discipline_check(request: Request) -> TableRoll:
    return firing.fire_discipline_check(_class(request.actor), _situation(request), request.options)


def _discipline_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    read = firing.read_discipline(_discipline_check(request).read(record.result))
    text = f"{read.text} ({'Firefight' if read.action == 'firefight' else read.action})"
    if read.action == "firefight":
        return Outcome(text, (Effect(request.actor.id, add={FIREFIGHT: None}),))
    return Outcome(text)


def _skirmish_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("screen_mods", "Screen modifiers (the card does not list them)", -20, 20, 0)]


def _skirmish_check(request: Request) -> TableRoll:
    mods = request.numbers.get("screen_mods", 0)
    screen = [Modifier("screen mods", mods)] if mods else []
    return skirmishing.skirmish_check(_class(request.actor), screen, request.options)


def _skirmish_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    printed = _skirmish_check(request).read(record.result)
    return _printed_state_outcome(request, request.actor, printed, "skirmish")


# -- morale, crash through ------------------------------------------------------------------------------------

_MORALE_COVERS = moraling.COVERS


def _morale_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    ticks = [
        Tick("no_div_integrity", _label("morale_modifiers", "no_div_integrity")),
        Tick("out_of_ammo", _label("morale_modifiers", "out_of_ammo"), checked=actor.has(OUT_OF_AMMO)),
        Tick("fired_on_flank", _label("morale_modifiers", "fired_on_flank")),
        Tick("in_firefight", _label("morale_modifiers", "in_firefight"), checked=actor.has(FIREFIGHT)),
        Tick("flanks_covered", _label("morale_modifiers", "flanks_covered")),
    ]
    ticks += [Tick(c, _label("morale_modifiers", c)) for c in _MORALE_COVERS]
    ticks.append(Tick("downhill", _label("morale_modifiers", "downhill")))
    return ticks


def _morale_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("enemy_within", f"Inches to the nearest enemy Inf./Cav. in good order ({FAR}: none near)", 0, FAR, FAR)]


def _morale_situation(request: Request) -> moraling.MoraleSituation:
    u, t = request.actor, request.ticked
    return moraling.MoraleSituation(
        _class(u), _cw(u), shaken=u.has(SHAKEN), disordered=u.has(DISORDERED), broken=u.has(BROKEN),
        no_div_integrity="no_div_integrity" in t, losses_percent=losses_percent(u, request.options),
        out_of_ammo="out_of_ammo" in t, fired_on_flank="fired_on_flank" in t, in_firefight="in_firefight" in t,
        flanks_covered="flanks_covered" in t,
        cover=_ticked_one(request, _MORALE_COVERS, "cover") or moraling.NO_COVER,
        downhill="downhill" in t, leaders=tuple(x for x in (_leader(u),) if x is not None),
    )


@dataclass(frozen=True)
class MoraleRoll:
    """The morale check with option morale_roll_of_twenty: a roll the class dice make
    themselves (20) reads the top row whatever option morale_roll_beyond_table says."""

    check: TableRoll
    options: Mapping[str, str]

    def read(self, natural: int) -> str:
        modified = natural + self.check.modifier
        rows = table("morale").rows
        highest = max(roll_distribution(self.check.dice))
        if options_of(self.options)["morale_roll_of_twenty"] == "top_row" and rows.nearest(modified) < modified <= highest:
            modified = rows.nearest(modified)
        return self.check.read_modified(modified)


def _morale_roll(request: Request) -> MoraleRoll:
    return MoraleRoll(moraling.morale_check(_morale_situation(request), request.options), request.options)


def _morale_prepare(request: Request) -> Prepared:
    roll = _morale_roll(request)
    needed = ", ".join(str(r) for r in natural_ranges(roll.check.dice, roll.read))
    why = request.actor.attr(REASONS)
    return Prepared(
        f"{roll.check.purpose}" + (f": {why}" if why else ""),
        f"{roll.check.dice} ({_mods_text(roll.check.modifiers)}): {needed}",
        roll.check.dice,
        (("Morale", distribution(roll.check.dice, roll.read)),),
    )


def morale_outcome(request: Request, unit: Unit, result: str, enemy_within: int | None) -> Outcome:
    """A morale result on the unit: its state, move and duration, or its removal."""
    options = request.options
    effect = moraling.morale_effect(result, enemy_within)
    clear = Effect(unit.id, clear=(MORALE_DUE,), set={REASONS: ""})
    text = _legend("morale", result)
    if effect.status is None:
        return Outcome(text, (clear,))
    retreat = effect.move is not None or effect.removed
    effects: list[Effect] = []
    if effect.routs_instead:
        text += f' -> no enemy Inf./Cav. in good order within {card()["morale"]["surrender_within"]}": it routs ({effect.move})'
    if effect.removed:
        effects.append(_merge(clear, removed(unit, options, surrendered=effect.status == "surrendered")))
    else:
        effects.append(_merge(clear, worsen(unit, effect.status, options)))
    if retreat and unit.has(IN_MELEE):
        effects[0] = _merge(effects[0], Effect(unit.id, clear=(IN_MELEE,), set={MELEE_WITH: ""}))
        other = request.units.get(str(unit.attr(MELEE_WITH, "")))
        if other is not None and other.has(IN_MELEE):
            effects.append(Effect(other.id, clear=(IN_MELEE,), set={MELEE_WITH: ""}))
            text += f"; the melee with {other.name} ends"
    if effect.status in (BROKEN, "rout", "surrendered"):
        text += f"; {card()['morale']['checks']['friend_breaks']}: they check morale"
    return Outcome(text, tuple(effects))


def _morale_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    roll = _morale_roll(request)
    result = roll.read(record.result)
    if result == UMPIRE_READS:
        modified = record.result + roll.check.modifier
        return Outcome(f"modified roll {modified} is beyond the morale table: the umpire reads the result "
                       "(option morale_roll_beyond_table) and sets the unit's state",
                       (Effect(request.actor.id, clear=(MORALE_DUE,), set={REASONS: ""}),))
    near = request.numbers.get("enemy_within", FAR)
    return morale_outcome(request, request.actor, result, None if near >= FAR else near)


def _crash_check(request: Request) -> TableRoll:
    return moraling.crash_through_check(_morale_situation(request), request.options)


def _crash_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    printed = _crash_check(request).read(record.result)
    return _printed_state_outcome(request, request.actor, printed, "crash_through")


# -- charges and melee ---------------------------------------------------------------------------------------

_DIRECTIONS = ("charging_flank", "charging_rear")
_SECURE = ("secure_flank_1", "secure_flanks_2")
_CHARGE_COVERS = charging.COVER_TABLE


def _charge_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    cavalry = actor.arm == "cavalry"
    attacker = {row: _label("charge_modifiers", row, side="attacker")
                for row in ("standing_cavalry", "charge_downhill", *_DIRECTIONS)}
    secure = modifier("charge_modifiers", "secure_flanks", side="defender")
    ticks = [
        Tick("standing_cavalry", attacker["standing_cavalry"],
             excluded=None if cavalry else "'Standing Cav' is for charging cavalry only"),
        Tick("charge_downhill", attacker["charge_downhill"]),
        *(Tick(d, attacker[d]) for d in _DIRECTIONS),
        Tick("secure_flank_1", f"defender: {secure.label} {secure.value:+d} (one)"),
        Tick("secure_flanks_2", f"defender: {secure.label} {2 * secure.value:+d} (both)"),
        *(Tick(c, "defender: " + _label("charge_modifiers", c, side="defender")) for c in _CHARGE_COVERS),
    ]
    return ticks


def _charge_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("closing_casualties", "Closing casualties, % of the attacker (Closing Cas. ea. 10%)", 0, 100, 0)]


def _side(unit: Unit) -> charging.ChargeSide:
    if unit.size < 1:
        raise RulesError(f"{unit.name} has no stands left")
    formation = unit.attr("formation", "line")
    return charging.ChargeSide(
        _charge_arm(unit), formation, unit.size, _cw(unit), _class(unit),
        shaken=unit.has(SHAKEN), disordered=unit.has(DISORDERED), broken=unit.has(BROKEN), leader=_leader(unit),
    )


def _charge_situation(request: Request) -> charging.ChargeSituation:
    assert request.target is not None
    direction = _ticked_one(request, _DIRECTIONS, "direction (flank or rear)")
    secure = _ticked_one(request, _SECURE, "number of secure flanks")
    return charging.ChargeSituation(
        _side(request.actor), _side(request.target),
        standing="standing_cavalry" in request.ticked,
        closing_casualties_percent=request.numbers.get("closing_casualties", 0),
        downhill="charge_downhill" in request.ticked,
        direction={"charging_flank": "flank", "charging_rear": "rear"}.get(direction or "", "front"),
        defender_secure_flanks={"secure_flank_1": 1, "secure_flanks_2": 2}.get(secure or "", 0),
        defender_cover=_ticked_one(request, _CHARGE_COVERS, "cover for the defender") or "none",
    )


def _charge_prepare(request: Request) -> Prepared:
    s = _charge_situation(request)
    check = charging.charge_check(s, request.options)
    title = table(check.table).title
    both = (f"attacker {check.attacker_dice or 'no dice'} ({_mods_text(check.attacker_modifiers)}) against "
            f"defender {check.defender_dice or 'no dice'} ({_mods_text(check.defender_modifiers)})")
    dice = None if check.attacker_dice is None else _split([check.attacker_dice, check.defender_dice])  # type: ignore[list-item]
    return Prepared(f"charge: {title}", f"{both}; differential {check.modifier:+d} plus the dice", dice,
                    (("Charge result", check.odds()),))


def _charge_effects(request: Request, s: charging.ChargeSituation, result: charging.ChargeResult) -> tuple[list[Effect], str]:
    attacker, defender = request.actor, request.target
    assert defender is not None
    options = request.options
    name = result.name
    loser = attacker if result.loser == charging.ATTACKER else defender
    effects: list[Effect] = []
    text = ""
    if name in card()["charge"]["kinds"]["surrender"]:
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
            effects.append(_merge(worsen(unit, DISORDERED, options), Effect(unit.id, add={IN_MELEE: None}, set={MELEE_WITH: other.id})))
        text = "; melee rounds follow"
    ride = charging.may_ride_down(s, result, options)
    if ride:
        text += f"; the cavalry may Ride Down {loser.name}: a round of melee first, its melee modifier {card()['charge']['ride_down_modifier']}"
    elif ride is None:
        text += "; the umpire says whether the result lies in the dotted line area (Ride Down)"
    return effects, text


def _charge_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    s = _charge_situation(request)
    check = charging.charge_check(s, request.options)
    entered: dict[str, Sequence[int]] = {}
    if check.attacker_dice is not None and check.defender_dice is not None:
        assert record is not None
        a, d = _parts([check.attacker_dice, check.defender_dice], record.raw)
        entered = {"attacker_entered": a, "defender_entered": d}
    rolled = charging.resolve_charge(s, _scratch(), options=request.options, **entered)
    result = rolled.result
    effects, more = _charge_effects(request, s, result)
    text = f"{result.text} (differential {result.differential:+d})"
    if result.shift:
        text += f"; Cavalry does not Firefight: shifted {result.shift}"
    return Outcome(text + more, tuple(effects))


def _melee_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    infantry_cavalry = target is not None and {actor.arm, target.arm} == {"infantry", "cavalry"}
    ride = Tick("ride_down", f"Ride Down: the infantry's melee modifier {card()['charge']['ride_down_modifier']}",
                excluded=None if infantry_cavalry else "only cavalry rides down infantry")
    return [ride, *_charge_ticks(actor, target)]


def _melee_check(request: Request) -> charging.MeleeCheck:
    assert request.target is not None
    ride = "ride_down" in request.ticked
    if not ride and not (request.actor.has(IN_MELEE) and request.actor.attr(MELEE_WITH) == request.target.id):
        raise RulesError(f"{request.actor.name} is not in a melee with {request.target.name}: melee follows a MELEE! charge result or a ride down")
    return charging.melee_check(_charge_situation(request), request.options, ride_down=ride)


def _melee_prepare(request: Request) -> Prepared:
    assert request.target is not None
    check = _melee_check(request)
    odds = check.odds()
    return Prepared(
        "melee: both sides roll 1d10 and add modifiers",
        f"{request.actor.name} ({_mods_text(check.attacker_modifiers)}) against {request.target.name} "
        f"({_mods_text(check.defender_modifiers)}): the high modified roll wins",
        _split([check.dice, check.dice]),
        (("Melee round", {f"{request.actor.name} wins": odds[charging.ATTACKER],
                          f"{request.target.name} wins": odds[charging.DEFENDER], "equal": odds["equal"]}),),
    )


def _melee_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    check = _melee_check(request)
    a, d = _parts([check.dice, check.dice], record.raw)
    rolled = charging.melee_round(check, _scratch(), attacker_entered=a, defender_entered=d, options=request.options)
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
        effect = _merge(casualties(unit, steps, request.options), morale_due(unit, reason))
        effects.append(_merge(effect, worsen(unit, DISORDERED, request.options)))
    return Outcome(text, tuple(effects))


def _surrender_prepare(request: Request) -> Prepared:
    if not request.actor.has(SURRENDERING):
        raise RulesError(f"{request.actor.name} has no charge result that makes it surrender")
    dice = card()["dice"]["surrender"]
    odds = distribution(dice, lambda n: f"{charging.surrender_percent(n)}%")
    return Prepared("surrender: the percentage of the unit which surrenders", f"{dice} x {card()['charge']['surrender_percent_per_pip']}%",
                    dice, (("Surrenders", odds),))


def _surrender_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    unit, options = request.actor, request.options
    share = Fraction(charging.surrender_percent(record.result), 100)
    per = castings_per_stand(unit, options)
    figures = unit.size * per - int(unit.attr(STEPS, 0) or 0) % per
    exact = share * figures
    rounding = options_of(options)["surrender_rounding"]
    taken = math.floor(exact) if rounding == "down" else math.ceil(exact) if rounding == "up" else math.floor(exact + Fraction(1, 2))
    effect = removed(unit, options, steps=taken)
    effect = _merge(effect, Effect(unit.id, clear=(SURRENDERING,)))
    return Outcome(f"{int(share * 100)}% surrender ({taken} castings); the remaining figures rout", (effect,))


# -- the card as the resolver screen shows it -------------------------------------------------------------------

_PRINTED = {
    "initiative": "The two army commanders roll for initiative at the beginning of the turn. To test initiative, the two "
                  "opposing commanders each roll 1d10 and apply any modifiers. The high modified die wins. If during "
                  "initiative, the combined rolls (without modifiers) of the two commanders equals or exceeds 17, the "
                  "turn ends immediately.",
    "movement": " ".join(table("movement").card_notes),
    "charges": "Charge in the Open / Charge in Cover: Attacker, Defender. Def. Fire Range: Small Arms 4\", Artillery Short.",
    "fire": " ".join(table("fire").card_notes),
    "melee": "Both sides roll 1d10 and add modifiers. The high modified roll wins. The loser takes casualty step losses "
             "equal to the difference of the modified die rolls. The winner takes casualty step losses equal to the "
             "difference of the unmodified die rolls. Both sides check morale, and if neither retreats, the melee continues.",
    "morale": "Check morale every time: " + "; ".join(card()["morale"]["checks"].values()),
}

PHASES = (
    Phase("initiative", "Initiative", BOTH, ("initiative",), _PRINTED["initiative"]),
    Phase("movement", "Movement", BOTH, ("move", "disruptive_terrain", "crash_through"), _PRINTED["movement"]),
    Phase("charges", "Charges", BOTH, ("charge", "fire", "fire_discipline", "crash_through"), _PRINTED["charges"]),
    Phase("fire", "Fire", BOTH, ("fire", "skirmish", "fire_discipline"), _PRINTED["fire"]),
    Phase("melee", "Melee", BOTH, ("melee",), _PRINTED["melee"]),
    Phase("morale", "Morale", BOTH, ("morale",), _PRINTED["morale"]),
)


def _rolled(check: Callable[[Request], TableRoll], heading: str) -> Callable[[Request], Prepared]:
    return lambda request: _roll_prepare(check(request), heading)


_RATINGS = tuple(str(v) for v in values_of("movement", "rating"))

RESOLVER = Resolver(
    ruleset=RULESET,
    title="Napoleonic d10 battalion rules",
    size_label="stands",
    attributes=(
        Attribute("quality", "Class", choices=tuple(str(v) for v in values_of("class_dice", "unit_class")), default="line"),
        Attribute("cw_level", "CW level", kind="int", default=9),
        Attribute("formation", "Formation", choices=charging.FORMATIONS, default="line"),
        Attribute("cavalry_type", "Cavalry", choices=("light", "heavy", NONE), default=NONE),
        Attribute("weapon", "Small arms", choices=(*firing.small_arms(), NONE), default=NONE),
        Attribute("gun", "Guns (fire)", choices=(*firing.guns(), NONE), default=NONE),
        Attribute("battery", "Guns (movement)", choices=(*(str(v) for v in values_of("artillery_movement", "gun")), NONE), default=NONE),
        Attribute("co_rating", "CO's rating", choices=_RATINGS, default="average"),
        Attribute("leader_rating", "Leader attached", choices=(*_RATINGS, NONE), default=NONE),
        Attribute("leader_level", "Leader's command level", choices=tuple(str(v) for v in values_of("leader_attachment", "level")),
                  default="division"),
        Attribute("leader_at", "Leader attached at", choices=tuple(str(v) for v in values_of("morale_command", "attached_at")),
                  default="brigade"),
        Attribute(STEPS, "Casualty steps taken", kind="int", default=0),
        Attribute(AP, "AP spent", kind="int", default=0),
    ),
    states=(
        State(SHAKEN, "shaken", cell_text("morale_duration", status="shaken")),
        State(DISORDERED, "disordered", cell_text("morale_duration", status="disordered")),
        State(BROKEN, "broken", cell_text("morale_duration", status="broken")),
        State(SMOKE, "in smoke", "until the umpire clears it (the card gives no duration)"),
        State(FIREFIGHT, "in a firefight", "until the umpire ends it"),
        State(IN_MELEE, "in melee", "until a side retreats after its morale check"),
        State(OUT_OF_AMMO, "out of ammunition", "until resupplied (the umpire)"),
        State(MOVED, "moved", "this turn and the next (Moved Last Turn)"),
        State(ROLLED_TO_MOVE, "rolled to move", "this turn"),
        State(INITIATIVE, "holds the initiative (its side moves first)", "this turn"),
        State(TURN_OVER, "turn ended by the initiative dice", "this turn"),
        State(MORALE_DUE, "must check morale", "until it checks"),
        State(SURRENDERING, "rolls for the percentage which surrenders", "until it rolls"),
        State(AMMO_ROLL, "rolls again for ammunition", "until it rolls"),
    ),
    phases=PHASES,
    actions=(
        Action("initiative", "Initiative", ENEMY, _in_turn(_initiative_prepare), _initiative_resolve,
               numbers=_initiative_numbers, ticks=_initiative_ticks,
               help="A unit of each army stands for its army commander: this side's commander rolls first"),
        Action("contest_initiative", "Contest the initiative", ENEMY, _in_turn(_initiative_prepare), _initiative_resolve,
               numbers=_initiative_numbers, ticks=_initiative_ticks, anytime=True,
               help="A Division or better commander contests the initiative against the active division's commander"),
        Action("move", "Roll to move", NO_TARGET, _in_turn(_move_prepare), _move_resolve, ticks=_move_ticks),
        Action("local_initiative", "Local initiative", NO_TARGET, _in_turn(_rolled(_local_check, "Local initiative")),
               _local_resolve, ticks=_local_ticks, anytime=True),
        Action("disruptive_terrain", "Disruptive terrain", NO_TARGET, _in_turn(_rolled(_terrain_check, "Disruptive terrain")),
               _terrain_resolve, ticks=lambda a, t: [Tick(d.lower(), d) for d in _DEGREES]),
        Action("crash_through", "Crash through", NO_TARGET, _in_turn(_rolled(_crash_check, "Crash through")),
               _crash_resolve, ticks=_morale_ticks),
        Action("charge", "Charge", ENEMY, _in_turn(_charge_prepare), _charge_resolve,
               numbers=_charge_numbers, ticks=_charge_ticks),
        Action("fire", "Fire", ENEMY, _in_turn(_fire_prepare), _fire_resolve, numbers=_fire_numbers, ticks=_fire_ticks),
        Action("fire_discipline", "Fire discipline", NO_TARGET, _in_turn(_rolled(_discipline_check, "Fire discipline")),
               _discipline_resolve, ticks=lambda a, t: _situation_ticks(a)),
        Action("skirmish", "Skirmish combat", ENEMY, _in_turn(_rolled(_skirmish_check, "Skirmish combat")),
               _skirmish_resolve, numbers=_skirmish_numbers,
               help="The unit the skirmish screen fires at rolls its class dice; its target is the enemy screen"),
        Action("melee", "Melee round", ENEMY, _in_turn(_melee_prepare), _melee_resolve, ticks=_melee_ticks),
        Action("morale", "Morale check", NO_TARGET, _morale_prepare, _morale_resolve,
               numbers=_morale_numbers, ticks=_morale_ticks, anytime=True),
        Action("surrender", "Surrender", NO_TARGET, _surrender_prepare, _surrender_resolve, anytime=True),
        Action("ammunition", "Ammunition (a natural 10)", NO_TARGET, _ammunition_prepare, _ammunition_resolve, anytime=True),
    ),
    alternating=False,
    turn_label="turn",
    unfinished=_unfinished,
    converted=lambda arm, cohesion: {"cw_level": cw_level_for(cohesion)},  # conversion.toml [cw_level]
)

"""The French-Austrian 13-phase card on the resolver screen (see rules/resolver.py).

One turn is the card's 13 phases, both sides acting in each (`alternating` False).
The card's sides are nations: the rules option french_side says which side of the
battle plays its French; the other plays its Austrians.  A phase names who acts
("French Move/Austrian Infantry, Artillery Shoot"), so every phase is open to both
sides on the checklist and the card's procedures refuse the side that does not act.

A unit counts figures (crew figures for artillery).  Its `unit_type` is its line on
the movement table (infantry_column, battalion_masse, uhlans, limbered_artillery...):
for infantry that is its formation, which results change.  Words used below:

- *casualties*: a unit hit by fire carries them until it checks morale (phase 2
  for artillery fire, 4 or 9 for shooting); the phase does not end before it does;
- *charging*: a unit that charged this turn, with its target; an infantry column
  that passes its test to close is *closing*, and the enemy infantry it charges
  tests to stand (phases 5 and 10) before the phase ends;
- *in contact*: the charge reached the enemy: the two fight in the next melee
  phase; once they have fought they are *in melee* until one routs, is destroyed
  or recalls; a loser *lost a melee* and checks morale in phase 7 or 12;
- *charge marker*: where charging cavalry began; it must roll to recall in phase 13
  and cannot move until it does.

A routed unit ('Rout. Remove the unit from the game.') leaves the table without
losing figures: the campaign counts it in its own pursuit (conversion.toml).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_13phase import fire as firing
from rules.napoleonic_13phase import melee as melees
from rules.napoleonic_13phase import morale as morales
from rules.napoleonic_13phase import movement as moving
from rules.napoleonic_13phase.data import RULESET, UnitType, card, unit_type
from rules.napoleonic_13phase.data import phase as card_phase
from rules.napoleonic_13phase.rolls import Hits, PlainRoll, ToHit, card_roll
from rules.napoleonic_13phase.sequence import turn_sequence
from rules.options import resolve_options
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

FRENCH, AUSTRIAN = "french", "austrian"
CASUALTIES, CHARGING, CLOSING = "casualties", "charging", "closing"
CONTACT, IN_MELEE, LOST_MELEE = "contact", "in_melee", "lost_melee"
HALTED, CHARGE_MARKER, RECALL_FAILED = "halted", "charge_marker", "recall_failed"
TARGET, OPPONENT, LAST_SHOT = "_charge_target", "_opponent", "_last_shot"  # hidden attributes
FIRED = "fired"

FORMATIONS = {"column": "infantry_column", "line": "infantry_line", "square": "infantry_square",
              "masse": "battalion_masse"}


# -- the unit as the card's procedures read it ---------------------------------------


def options(request: Request) -> dict[str, str]:
    return resolve_options(RULESET, request.options)


def nation(unit: Unit, chosen: Mapping[str, str]) -> str:
    """french or austrian: the card's side this battle side plays (option french_side)."""
    return FRENCH if unit.side == chosen["french_side"] else AUSTRIAN


def kind(unit: Unit) -> UnitType:
    """The unit's line on the movement table, checked against its arm."""
    found = unit_type(str(unit.attr("unit_type", "")))
    if found.arm != unit.arm:
        raise RulesError(f"{unit.name} is {unit.arm} but its unit type is {found.id.replace('_', ' ')}: change one of them")
    return found


def phase_number(request: Request) -> int:
    if not request.phase.startswith("phase_"):
        raise RulesError(f"{request.phase!r} is not a phase of the 13-phase turn")
    return int(request.phase.removeprefix("phase_"))


def _cls(unit: Unit) -> str:
    return str(unit.attr("quality", "veteran"))


def _target_row(target: Unit, ticked: frozenset[str], chosen: Mapping[str, str], *, artillery: bool) -> str:
    """The target's row on the to-hit table: its formation, Enfiladed Line, Fortification,
    Charging Cavalry (fire only) or cavalry as the option cavalry_target reads it."""
    found = kind(target)
    if "fortification" in ticked:
        return "fortification"
    if found.arm == "artillery":
        return "artillery"
    if found.arm == "cavalry":
        if target.has(CHARGING) and not artillery:
            return "charging_cavalry"
        return chosen["cavalry_target"]
    assert found.formation is not None
    return "enfiladed_line" if "enfiladed" in ticked else found.formation


def _pool_dice(to_hit: ToHit) -> str | None:
    """The pool for the dice service, the modifiers already in the number needed."""
    if to_hit.dice == 0 or to_hit.needed > 6:
        return None
    return f"{to_hit.dice}d6>={to_hit.needed}"


def _needed(to_hit: ToHit) -> str:
    mods = "".join(f", {m.value:+d} {m.label}" for m in to_hit.modifiers)
    return f"{to_hit.needed_text} on each of {to_hit.dice} dice ({to_hit.printed}{mods})"


def _hits(to_hit: ToHit, record: DiceRecord | None, raw: tuple[int, ...] | None = None) -> int:
    dice = raw if raw is not None else (record.raw if record else ())
    return to_hit.read(dice) if to_hit.needed <= 6 else 0


def _casualty_words(n: int) -> str:
    return f"{n} {'casualty' if n == 1 else 'casualties'}"


def _hit_effect(target: Unit, hits: int, *, tests: bool = True) -> tuple[Effect, ...]:
    """Casualties on a unit; it carries them to its morale check unless it does not test."""
    if not hits:
        return ()
    add = {CASUALTIES: None} if tests and hits < target.size else {}
    return (Effect(target.id, lost=hits, add=add),)


def _ends_melee(unit: Unit, units: Mapping[str, Unit]) -> tuple[Effect, ...]:
    """A unit leaves the table or recalls: whoever fought it is no longer in melee."""
    return tuple(Effect(u.id, clear=(IN_MELEE, CONTACT), set={OPPONENT: None}) for u in units.values()
                 if u.attr(OPPONENT) == unit.id and not u.removed)


def _removed(unit: Unit, units: Mapping[str, Unit], *, destroyed: bool) -> tuple[Effect, ...]:
    """Rout (no figures lost: the campaign's pursuit counts them) or destroyed (every figure)."""
    lost = unit.size if destroyed else 0
    return (Effect(unit.id, lost=lost, removed=True), *_ends_melee(unit, units))


def _cannot_move(unit: Unit) -> None:
    if unit.has(HALTED):
        raise RulesError(f"{unit.name}: Halt. No movement this turn.")
    if unit.has(RECALL_FAILED):
        raise RulesError(f"{unit.name} failed to recall: it cannot move this turn")
    if unit.has(CHARGE_MARKER):
        raise RulesError(f"{unit.name}: Units with a charge marker in place cannot move until recalled.")


def _odds(counts: Mapping[int, Fraction], word=_casualty_words) -> dict[str, Fraction]:
    return {word(n): p for n, p in counts.items() if p}


def _inches(counts: Mapping[int, Fraction]) -> dict[str, Fraction]:
    return {f"{n}”": p for n, p in counts.items() if p}


# -- phase 1: artillery fire ---------------------------------------------------------

_RANGE_TICKS = (("close_range", "+1 Close Range"), ("long_range", "-1 Long Range"))


def _target_ticks(target: Unit | None) -> list[Tick]:
    infantry = target is not None and target.arm == "infantry"
    in_line = infantry and target is not None and target.attr("unit_type") == "infantry_line"
    return [
        Tick("enfiladed", "Enfiladed Line (4+)", excluded=None if in_line else "only a line is enfiladed"),
        Tick("fortification", "target in a Fortification", excluded=None if infantry else "only infantry holds a fortification"),
    ]


def _artillery_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    pounds = int(actor.attr("gun_pounds", 6) or 0)
    heavy, light = pounds >= card().artillery["heavy_pounds"], pounds <= card().artillery["light_pounds"]
    return [
        *(Tick(i, label) for i, label in _RANGE_TICKS),
        Tick("heavy", "+1 if 12lbs or heavier (its guns)", checked=heavy, excluded=None if heavy else f"its guns are {pounds} lbs"),
        Tick("light", "-1 if 6lbs or lighter (its guns)", checked=light, excluded=None if light else f"its guns are {pounds} lbs"),
        *_target_ticks(target),
    ]


def _range_band(ticked: frozenset[str]) -> str:
    if {"close_range", "long_range"} <= ticked:
        raise RulesError("a target is at close range or at long range, not both")
    return "close" if "close_range" in ticked else "long" if "long_range" in ticked else "medium"


def _battery(request: Request, behind: firing.ArtilleryTarget | None = None) -> firing.ArtilleryShot:
    """The battery's shot at its target, or (behind given) the shot it fired this turn, with the unit behind."""
    actor = request.actor
    if kind(actor).arm != "artillery":
        raise RulesError(f"{actor.name} is not artillery: only artillery fires in phase 1")
    if phase_number(request) != 1:
        raise RulesError("artillery fires at its target in phase 1; in phases 3 and 8 it shoots with the infantry")
    if behind is None:
        assert request.target is not None
        row = _target_row(request.target, request.ticked, options(request), artillery=True)
        band = _range_band(request.ticked)
    else:
        row, band = actor.attr(LAST_SHOT)["row"], actor.attr(LAST_SHOT)["range"]
    shot = firing.ArtilleryFire(
        crew=actor.size,
        gun_pounds=int(actor.attr("gun_pounds", 6) or 0),
        target=row,
        range=band,
        behind=behind,
        level_ground="not_level" not in request.ticked,
        limbered=kind(actor).limbered,
        horse_artillery=bool(actor.attr("horse_artillery")),
    )
    return firing.artillery_fire(shot, request.options)


def _artillery_prepare(request: Request) -> Prepared:
    shot = _battery(request).at_target
    notes = [card().artillery["printed"][2]] if firing.turn_to_face(int(request.actor.attr("gun_pounds", 6) or 0)) else []
    if kind(request.actor).limbered:
        notes.append("Horse artillery may unlimber: it unlimbers to fire.")
    return Prepared(f"artillery fire, one die per crew figure ({request.actor.size})", _needed(shot), _crew_dice(shot),
                    (("Casualties", _odds(shot.odds())),), tuple(notes))


def _crew_dice(shot: ToHit) -> str | None:
    """'Roll one die per crew figure', even when the target cannot be hit: the unit behind may be."""
    if shot.dice and shot.needed > 6:
        return f"{shot.dice}d6"
    return _pool_dice(shot)


def _artillery_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    battery = _battery(request)
    hits = _hits(battery.at_target, record)
    last = {"target": request.target.id, "row": battery.fire.target, "range": battery.fire.range,
            "raw": list(record.raw) if record else []}
    actor = Effect(request.actor.id, add={FIRED: 1}, set={LAST_SHOT: last, **_unlimbered(request.actor)})
    text = f"{hits} {'hit' if hits == 1 else 'hits'} on {request.target.name}: {_casualty_words(hits)}"
    if hits:
        text += "; it checks morale in phase 2"
    return Outcome(text, (actor, *_hit_effect(request.target, hits)))


def _unlimbered(actor: Unit) -> dict[str, str]:
    return {"unit_type": "artillery"} if kind(actor).limbered else {}


def _behind_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [*(Tick(i, label) for i, label in _RANGE_TICKS), *_target_ticks(target),
            Tick("not_level", "not all units, the artillery included, on level ground")]


def _behind_shot(request: Request) -> ToHit:
    assert request.target is not None
    if not request.actor.has(FIRED) or not request.actor.attr(LAST_SHOT):
        raise RulesError(f"{request.actor.name} has not fired this turn: fire at the target first")
    if request.target.id == request.actor.attr(LAST_SHOT)["target"]:
        raise RulesError("the unit behind is another unit than the target")
    chosen = options(request)
    behind = firing.ArtilleryTarget(_target_row(request.target, request.ticked, chosen, artillery=True),
                                    _range_band(request.ticked))
    shot = _battery(request, behind)
    assert shot.at_behind is not None
    return shot.at_behind


def _same_dice(request: Request) -> bool:
    return options(request)["artillery_unit_behind"] == "same_dice"


def _behind_prepare(request: Request) -> Prepared:
    shot = _behind_shot(request)
    if _same_dice(request):
        raw = tuple(request.actor.attr(LAST_SHOT)["raw"])
        return Prepared("the unit 12” behind the target, hit by the same dice", _needed(shot), None,
                        notes=(f"the dice rolled at the target: {' '.join(map(str, raw)) or 'none'}",))
    return Prepared("the unit 12” behind the target, a second roll of the crew dice", _needed(shot), _pool_dice(shot),
                    (("Casualties", _odds(shot.odds())),))


def _behind_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    shot = _behind_shot(request)
    raw = tuple(request.actor.attr(LAST_SHOT)["raw"]) if _same_dice(request) else None
    hits = _hits(shot, record, raw)
    text = f"Unit behind: {hits} {'hit' if hits == 1 else 'hits'} on {request.target.name}: {_casualty_words(hits)}"
    return Outcome(text, _hit_effect(request.target, hits))


# -- morale (phases 2, 4, 7, 9, 12), standing (5, 10) and recall (13) -------------------


def _morale_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    infantry = actor.arm == "infantry"
    return [
        Tick("general_attached", "+1 General attached to unit", checked=bool(actor.attr("general"))),
        Tick("infantry_charging", "-1 Infantry Charging (phases 4 and 9)", checked=infantry and actor.has(CHARGING),
             excluded=None if infantry else "only infantry takes -1 Infantry Charging"),
    ]


def _stand_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    not_column = actor.arm == "infantry" and actor.attr("unit_type") != "infantry_column"
    return [
        Tick("general_attached", "+1 General attached", checked=bool(actor.attr("general"))),
        Tick("flank_or_rear", "-1 Charged in flank/rear"),
        Tick("not_in_column", "-1 Infantry not in column (phase 5; from its formation)", checked=not_column,
             excluded=None if not_column else f"{actor.name} is in column"),
    ]


def _casualty_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("casualties_this_phase", "Casualties that brought about this test (option casualties_counted = this_phase)", 0)]


def _test(request: Request, number: int) -> morales.MoraleTest:
    actor = request.actor
    found = kind(actor)
    cavalry_charging = found.arm == "cavalry" and actor.has(CHARGING)
    return morales.MoraleTest(
        phase=number,
        side=nation(actor, options(request)),
        unit=found.id,
        unit_class=_cls(actor),
        casualties=actor.lost,
        casualties_this_phase=request.numbers.get("casualties_this_phase", 0),
        general_attached="general_attached" in request.ticked,
        charging="infantry_charging" in request.ticked or cavalry_charging,  # charging cavalry: refused in 4 and 9
        charged_in_flank_or_rear="flank_or_rear" in request.ticked,
        in_melee=actor.has(IN_MELEE),
    )


def _morale_check(request: Request) -> morales.MoraleCheck:
    number = phase_number(request)
    if number in _STAND_PHASES:
        raise RulesError(f"in phase {number} the charged infantry checks morale to stand against the unit charging it")
    _has_cause(request.actor, number)
    return morales.morale_check(_test(request, number), request.options)


def _has_cause(unit: Unit, number: int) -> None:
    """The phase's heading says who tests: units that took casualties, charging infantry, losers."""
    if number == 2 and not unit.has(CASUALTIES):
        raise RulesError(f"{unit.name} took no artillery casualties: it does not check morale in phase 2")
    if number in (4, 9) and not unit.has(CASUALTIES) and not (unit.arm == "infantry" and unit.has(CHARGING)):
        raise RulesError(f"{unit.name} took no shooting casualties and is not closing for melee: it does not check morale in phase {number}")
    if number in (7, 12) and not unit.has(LOST_MELEE):
        raise RulesError(f"{unit.name} did not lose a melee: it does not check morale in phase {number}")


def _casualty_note(request: Request) -> str:
    if options(request)["casualties_counted"] == "total":
        return f"-1 per 3 casualties: {request.actor.lost} casualties in the battle"
    return f"-1 per 3 casualties: {request.numbers.get('casualties_this_phase', 0)} casualties this phase"


def _morale_prepare(request: Request) -> Prepared:
    return _test_prepared(request, _morale_check(request), "morale")


def _test_prepared(request: Request, check: morales.MoraleCheck, what: str) -> Prepared:
    mods = "".join(f", {m.value:+d} {m.label}" for m in check.modifiers)
    needed = f"{check.pass_on} or less on 1d6 ({check.test.unit_class.title()} {check.printed}{mods})"
    return Prepared(f"{what}, phase {check.phase.number}: {check.phase.title}", needed, card().morale["dice"],
                    (("Result", check.odds()),), (_casualty_note(request),))


def _result_words(check: morales.MoraleCheck, outcome: str) -> str:
    return f"{check.label(outcome)}: {check.text(outcome)}"


def _morale_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    check = _morale_check(request)
    outcome = check.outcome(record.result)
    actor = request.actor
    tested = (CASUALTIES, LOST_MELEE)
    if outcome == morales.ROUT:
        return Outcome(_result_words(check, outcome), (Effect(actor.id, clear=tested), *_removed(actor, request.units, destroyed=False)))
    number, found = check.phase.number, kind(actor)
    add: dict[str, int | None] = {}
    clear: list[str] = list(tested)
    form: dict[str, str] = {}
    charging_column = found.formation == "column" and actor.has(CHARGING)
    if outcome == morales.PASS:
        if number in (4, 9) and charging_column:
            add[CLOSING] = 1
    elif number == 2:
        add[HALTED] = 1
        if check.test.side == AUSTRIAN and found.formation in ("column", "masse"):
            form["unit_type"] = "infantry_line"
    elif number in (4, 9) and charging_column:
        form["unit_type"] = "infantry_line"
        clear.append(CHARGING)
    elif number in (7, 12) and found.arm == "infantry" and found.formation != "line":
        form["unit_type"] = "infantry_line"
    return Outcome(_result_words(check, outcome), (Effect(actor.id, add=add, clear=tuple(clear), set=form),))


_STAND_PHASES = tuple(p.number for p in turn_sequence() if "in_melee" in p.excluded)


def _charger(request: Request) -> Unit:
    charger = request.target
    assert charger is not None
    if not charger.has(CHARGING) or charger.attr(TARGET) != request.actor.id:
        raise RulesError(f"{charger.name} has not charged {request.actor.name} this turn")
    if charger.arm == "infantry" and not charger.has(CLOSING):
        raise RulesError(f"{charger.name} has not passed its test to close for melee")
    return charger


def _stand_check(request: Request) -> morales.MoraleCheck:
    number = phase_number(request)
    if number not in _STAND_PHASES:
        raise RulesError(f"infantry test to stand for melee in phases {' and '.join(map(str, _STAND_PHASES))}, not in phase {number}")
    _charger(request)
    return morales.morale_check(_test(request, number), request.options)


def _stand_prepare(request: Request) -> Prepared:
    return _test_prepared(request, _stand_check(request), "test to stand")


def _stand_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    check = _stand_check(request)
    outcome = check.outcome(record.result)
    actor, charger = request.actor, _charger(request)
    words = _result_words(check, outcome)
    if outcome == morales.ROUT:
        return Outcome(words, (Effect(charger.id, clear=(CLOSING,)), *_removed(actor, request.units, destroyed=False)))
    if outcome == morales.PASS and charger.arm == "infantry":
        return Outcome(words, (Effect(charger.id, clear=(CHARGING, CLOSING)),))
    contact = (Effect(actor.id, add={CONTACT: None}, set={OPPONENT: charger.id}),
               Effect(charger.id, add={CONTACT: None}, clear=(CLOSING,), set={OPPONENT: actor.id}))
    return Outcome(f"{words} {charger.name} contacts {actor.name}: they fight in phase {check.phase.number + 1}.", contact)


def _guard_prepare(request: Request) -> Prepared:
    assert request.target is not None
    if phase_number(request) != 5:
        raise RulesError("French Guard infantry press their charge in phase 5, when the Austrians stand")
    if not request.actor.attr("guard"):
        raise RulesError(f"{request.actor.name} is not Guard infantry")
    cost = moving.guard_presses_charge(nation(request.actor, options(request)), kind(request.actor).id)
    return Prepared("French Guard infantry may take one casualty and continue the charge", f"{_casualty_words(cost)}, no roll", None)


def _guard_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    cost = moving.guard_presses_charge(nation(request.actor, options(request)), kind(request.actor).id)
    actor, target = request.actor, request.target
    return Outcome(f"{actor.name} takes {_casualty_words(cost)} and continues the charge into {target.name}: they fight in phase 6.",
                   (Effect(actor.id, lost=cost, add={CONTACT: None}, set={OPPONENT: target.id}),
                    Effect(target.id, add={CONTACT: None}, set={OPPONENT: actor.id})))


def _recall_check(request: Request) -> morales.MoraleCheck:
    number = phase_number(request)
    return morales.recall_check(_test(request, number), request.options)


def _recall_prepare(request: Request) -> Prepared:
    return _test_prepared(request, _recall_check(request), "recall")


def _recall_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    check = _recall_check(request)
    outcome = check.outcome(record.result)
    actor = request.actor
    if outcome == morales.PASS:
        effects = (Effect(actor.id, clear=(CHARGE_MARKER, CHARGING, IN_MELEE, CONTACT), set={OPPONENT: None}),
                   *_ends_melee(actor, request.units))
        return Outcome(_result_words(check, outcome), effects)
    # RECALL_FAILED lasts this turn and the next: 'Next turn they cannot move'.
    lost = card().morale["recall_fail_casualties"]
    return Outcome(_result_words(check, outcome), (Effect(actor.id, lost=lost, add={RECALL_FAILED: 2}),))


# -- phases 3 and 8: movement, charges, fire -------------------------------------------

_MOVE_TICKS = (
    ("difficult_terrain", "Half movement in difficult terrain"),
    ("outside_command_range", "Half movement outside command range"),
    ("backwards", "Half movement moving backwards"),
    ("over_24_from_enemy", "Double move if staying over 24” from the enemy"),
    ("first_turn", "1st turn (no double move)"),
    ("in_firefight", "an infantry line locked in a firefight (opposing lines within 4”)"),
    ("into_woods", "into woods"),
)


def _move_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    artillery = actor.arm == "artillery"
    return [*(Tick(i, label) for i, label in _MOVE_TICKS),
            Tick("limbering", "One move to limber/unlimber", excluded=None if artillery else "only artillery limbers")]


def _move(request: Request, *, changing: bool = False) -> moving.Allowance:
    _cannot_move(request.actor)
    t = request.ticked
    return moving.movement_allowance(moving.Move(
        phase=phase_number(request),
        side=nation(request.actor, options(request)),
        unit=kind(request.actor).id,
        difficult_terrain="difficult_terrain" in t,
        outside_command_range="outside_command_range" in t,
        backwards="backwards" in t,
        changing_formation=changing,
        limbering="limbering" in t,
        over_24_from_enemy="over_24_from_enemy" in t,
        first_turn="first_turn" in t,
        in_firefight="in_firefight" in t,
        into_woods="into_woods" in t,
    ), request.options)


def _allowance_text(allowance: moving.Allowance) -> str:
    said = [allowance.printed] if allowance.printed else []
    said += [a.effect for a in allowance.applied]
    return f"{float(allowance.inches):g}”" + (f" ({'; '.join(said)})" if said else "")


def _move_prepare(request: Request) -> Prepared:
    moving.check_wheel(request.numbers.get("wheel", 0))
    return Prepared("movement", _allowance_text(_move(request)), None)


def _move_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    allowance = _move(request)
    actor = request.actor
    if "limbering" in request.ticked:
        limbered = kind(actor).limbered
        after = "artillery" if limbered else "limbered_artillery"
        return Outcome(f"{'unlimbers' if limbered else 'limbers'}: no move", (Effect(actor.id, set={"unit_type": after}),))
    return Outcome(f"moves up to {_allowance_text(allowance)}")


def _formation_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    infantry = actor.arm == "infantry"
    return [Tick(f, f"forms {f}", excluded=None if infantry else "only infantry changes formation") for f in FORMATIONS] + [
        Tick("in_firefight", "an infantry line locked in a firefight (opposing lines within 4”)")]


def _new_formation(request: Request) -> str:
    chosen = [f for f in FORMATIONS if f in request.ticked]
    if len(chosen) != 1:
        raise RulesError("tick the one formation the unit forms")
    after = FORMATIONS[chosen[0]]
    unit_type(after, nation(request.actor, options(request)))
    if after == request.actor.attr("unit_type"):
        raise RulesError(f"{request.actor.name} is in {chosen[0]} already")
    return after


def _formation_rule(request: Request) -> str:
    """Where the card allows the change: the whole move of phases 3 and 8, or a result."""
    number, side = phase_number(request), nation(request.actor, options(request))
    after = _new_formation(request)
    current = card_phase(number)
    if current.kind == "move_and_fire":
        _move(request, changing=True)
        return card().movement["printed"]["formation"]
    by_result = {
        5: (AUSTRIAN, "battalion_masse", "Stand. May form battalion masse if currently in column."),
        10: (FRENCH, "infantry_square", "Stand. May form square."),
    }
    if number in by_result:
        who, formation, printed = by_result[number]
        if side != who or after != formation or (number == 5 and request.actor.attr("unit_type") != "infantry_column"):
            raise RulesError(f"in phase {number} the card allows only: {printed}")
        return printed
    if number in (7, 12):
        return "Opponent may make a free formation change."
    raise RulesError(f"formations change in phases 3 and 8, or as a result of phases 5, 7, 10 and 12, not in phase {number}")


def _formation_prepare(request: Request) -> Prepared:
    return Prepared("change of formation", _formation_rule(request), None)


def _formation_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    rule = _formation_rule(request)
    after = _new_formation(request)
    return Outcome(f"forms {after.replace('_', ' ')} ({rule})", (Effect(request.actor.id, set={"unit_type": after}),))


def _charge_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    infantry = actor.arm == "infantry"
    why = None if infantry else "charging cavalry make a full move"
    return [Tick("difficult_terrain", "Half movement in difficult terrain", excluded=why),
            Tick("outside_command_range", "Half movement outside command range", excluded=why)]


def _others_on(request: Request) -> int:
    """Friendly units already charging this target this turn (infantry: the other columns)."""
    actor, target = request.actor, request.target
    assert target is not None
    others = [u for u in request.units.values() if u.side == actor.side and u.id != actor.id and not u.removed
              and u.has(CHARGING) and u.attr(TARGET) == target.id]
    return sum(1 for u in others if u.arm == "infantry") if actor.arm == "infantry" else len(others)


def _infantry_charge(request: Request) -> moving.Allowance:
    assert request.target is not None
    _cannot_move(request.actor)
    return moving.infantry_charge(moving.InfantryCharge(
        phase=phase_number(request),
        side=nation(request.actor, options(request)),
        unit=kind(request.actor).id,
        target_unit=kind(request.target).id,
        other_columns_on_target=_others_on(request),
        difficult_terrain="difficult_terrain" in request.ticked,
        outside_command_range="outside_command_range" in request.ticked,
    ), request.options)


def _cavalry_charge(request: Request) -> PlainRoll:
    assert request.target is not None
    _cannot_move(request.actor)
    return moving.cavalry_charge(moving.CavalryCharge(
        phase=phase_number(request),
        side=nation(request.actor, options(request)),
        unit=kind(request.actor).id,
        target_unit=kind(request.target).id,
        others_on_target=_others_on(request),
    ))


def _charge_prepare(request: Request) -> Prepared:
    if request.actor.arm == "cavalry":
        bonus = _cavalry_charge(request)
        return Prepared(f"cavalry charge: {card().charge['printed'][1].split(' ... ')[0]}",
                        f"full move {bonus.base}” + 2d6” bonus", bonus.roll_of.dice, (("Charge move", _inches(bonus.odds)),))
    allowance = _infantry_charge(request)
    return Prepared("infantry charge: Make a normal move into contact with the target.", _allowance_text(allowance), None)


def _charge_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    actor, target = request.actor, request.target
    assert target is not None
    marks: dict[str, int | None] = {CHARGING: 1}
    if actor.arm == "cavalry":
        bonus = _cavalry_charge(request)
        assert record is not None
        marks[CHARGE_MARKER] = None
        text = (f"charges {target.name}: {bonus.base + record.result}” ({bonus.base}” + {record.result}” bonus), "
                "fighting every unit contacted; mark the spot where the charge began")
    else:
        text = f"charges {target.name}: moves up to {_allowance_text(_infantry_charge(request))} into contact; it tests to close in phase {phase_number(request) + 1}"
    return Outcome(text, (Effect(actor.id, add=marks, set={TARGET: target.id}),))


def _fire_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    cavalry = target is not None and target.arm == "cavalry"
    return [*_target_ticks(target),
            Tick("charging_cavalry", "Charging Cavalry (6+)", checked=cavalry and target is not None and target.has(CHARGING),
                 excluded=None if cavalry else "the target is not cavalry")]


def _fire_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("distance", "Inches to the target", 0, None, 4)]


def _fire(request: Request) -> ToHit:
    assert request.target is not None
    ticked = set(request.ticked)
    if "charging_cavalry" in ticked and not request.target.has(CHARGING):
        raise RulesError(f"{request.target.name} has not charged this turn")
    return firing.fire(firing.Fire(
        phase=phase_number(request),
        side=nation(request.actor, options(request)),
        unit=kind(request.actor).id,
        figures=request.actor.size,
        target=_target_row(request.target, request.ticked, options(request), artillery=False),
        distance=request.numbers.get("distance", 4),
        continuing_melee=request.actor.has(IN_MELEE),
    ), request.options)


def _pool_prepare(what: str, to_hit: ToHit) -> Prepared:
    return Prepared(what, _needed(to_hit), _pool_dice(to_hit), (("Casualties", _odds(to_hit.odds())),))


def _fire_prepare(request: Request) -> Prepared:
    return _pool_prepare(f"fire, one die per two figures ({request.actor.size})", _fire(request))


def _fire_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    target = request.target
    assert target is not None
    hits = _hits(_fire(request), record)
    tests = not (target.arm == "cavalry" and target.has(CHARGING))  # 'Charging cavalry do not test'
    text = f"{hits} {'hit' if hits == 1 else 'hits'} on {target.name}: {_casualty_words(hits)}"
    if hits and tests:
        text += f"; it checks morale in phase {phase_number(request) + 1}"
    return Outcome(text, _hit_effect(target, hits, tests=tests))


def _square_fire(request: Request) -> ToHit:
    actor, target = request.actor, request.target
    assert target is not None
    current = card_phase(phase_number(request))
    if current.kind != "move_and_fire":
        raise RulesError("squares fire at cavalry charging them in phases 3 and 8")
    if nation(actor, options(request)) != current.fires:
        raise RulesError(f"in phase {current.number} the {current.moves} charge: their squares do not fire")
    if kind(actor).formation != "square":
        raise RulesError(f"{actor.name} is not in square: 'Squares contacted fire two dice.'")
    if target.arm != "cavalry" or not target.has(CHARGING):
        raise RulesError(f"{target.name} is not charging cavalry")
    return firing.square_fire()


def _square_prepare(request: Request) -> Prepared:
    return _pool_prepare("Squares contacted fire two dice.", _square_fire(request))


def _square_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    hits = _hits(_square_fire(request), record)
    return Outcome(f"{hits} {'hit' if hits == 1 else 'hits'} on {request.target.name}: {_casualty_words(hits)} (charging cavalry do not test)",
                   _hit_effect(request.target, hits, tests=False))


def _evade(request: Request) -> PlainRoll:
    current = card_phase(phase_number(request))
    side = nation(request.actor, options(request))
    if current.kind != "move_and_fire" or side != current.fires:
        raise RulesError("skirmishers evade the enemy's charge in the phase the enemy moves (French in 3, Austrians in 8)")
    return moving.skirmishers_evade(side, kind(request.actor).id)


def _evade_prepare(request: Request) -> Prepared:
    roll = _evade(request)
    return Prepared(roll.roll_of.printed, "2d6” away", roll.roll_of.dice, (("Inches", _inches(roll.odds)),),
                    ("Skirmishers shoot first: a Fire resolution.",))


def _evade_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    _evade(request)
    assert record is not None
    return Outcome(f"moves {record.result}” away from the charge. Destroyed if contacted.")


# -- phases 6 and 11: melee -------------------------------------------------------------


def _melee_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    infantry = target is not None and target.arm == "infantry"
    continuing = target is not None and actor.has(IN_MELEE) and actor.attr(OPPONENT) == target.id
    artillery = target is not None and target.arm == "artillery"
    return [
        Tick("defender_defensive", "-1 Enemy in defensive terrain (the defender is: -1 to the attacker's dice)"),
        Tick("attacker_defensive", "-1 Enemy in defensive terrain (the attacker is: -1 to the defender's dice)"),
        Tick("fortification", "the defender is infantry in a Fortification",
             excluded=None if infantry else "only infantry holds a fortification"),
        Tick("continuing", "continuing a melee (not a first combat)", checked=continuing),
        Tick("supported", "Artillery Supported by a unit 2” behind or beside it",
             excluded=None if artillery else "the defender is not artillery"),
    ]


def _melee_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("infantry_contacted", "Infantry units contacted (cavalry passing through)", 1, None, 1)]


def _combatant(unit: Unit, request: Request, *, defensive: bool, fortification: bool = False) -> melees.Combatant:
    return melees.Combatant(
        side=nation(unit, options(request)),
        unit=kind(unit).id,
        unit_class=_cls(unit),
        figures=unit.size,
        defensive_terrain=defensive,
        fortification=fortification,
        lancers=bool(unit.attr("lancers")),
    )


def _melee(request: Request) -> melees.MeleePlan:
    assert request.target is not None
    if "supported" in request.ticked:
        raise RulesError("The supporting unit fights instead of the Artillery: take it as the defender")
    t = request.ticked
    fight = melees.Melee(
        phase=phase_number(request),
        attacker=_combatant(request.actor, request, defensive="attacker_defensive" in t),
        defender=_combatant(request.target, request, defensive="defender_defensive" in t, fortification="fortification" in t),
        continuing="continuing" in t,
        infantry_contacted=request.numbers.get("infantry_contacted", 1),
    )
    return melees.melee(fight, request.options)


def _melee_dice(plan: melees.MeleePlan) -> str | None:
    if plan.pass_through is not None:
        return _pool_dice(plan.pass_through)
    if plan.attacker_dice is None or plan.defender_dice is None:
        return None
    count = plan.attacker_dice.dice + plan.defender_dice.dice
    return f"{count}d6" if count else None


def _melee_prepare(request: Request) -> Prepared:
    plan = _melee(request)
    if plan.destroyed is not None:
        return Prepared(f"melee: {plan.matchup.replace('_', ' ')}", plan.printed, None, (("Result", plan.odds()),))
    if plan.pass_through is not None:
        return Prepared("melee: cavalry pass through (Infantry do not roll melee dice)", _needed(plan.pass_through),
                        _melee_dice(plan), (("Cavalry casualties", plan.odds()),))
    a, d = plan.attacker_dice, plan.defender_dice
    assert a is not None and d is not None
    what = (f"melee: the first {a.dice} dice are {request.actor.name}'s, the next {d.dice} {request.target.name}'s"
            if request.target else "melee")
    return Prepared(what, f"attacker {_needed(a)}; defender {_needed(d)}", _melee_dice(plan),
                    (("Attacker inflicts", _odds(a.odds())), ("Defender inflicts", _odds(d.odds())), ("Result", plan.odds())))


def _melee_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    plan = _melee(request)
    actor, target = request.actor, request.target
    assert target is not None
    if plan.destroyed is not None:
        return Outcome(plan.printed, _removed(target, request.units, destroyed=True))
    if plan.pass_through is not None:
        hits = _hits(plan.pass_through, record)
        effects = (Effect(actor.id, lost=hits, add={CHARGE_MARKER: None}, clear=(CONTACT,)), Effect(target.id, clear=(CONTACT,)))
        return Outcome(f"{plan.printed} The cavalry take {_casualty_words(hits)}.", effects)
    a, d = plan.attacker_dice, plan.defender_dice
    assert a is not None and d is not None
    raw = record.raw if record else ()
    result = melees.MeleeResult(plan, attacker_hits=Hits(a, _hits(a, None, raw[: a.dice]), record),
                                defender_hits=Hits(d, _hits(d, None, raw[a.dice:]), record))
    inflicted, received = result.attacker_hits.hits, result.defender_hits.hits  # type: ignore[union-attr]
    loser = {melees.ATTACKER: actor, melees.DEFENDER: target}.get(str(result.loser))
    effects = []
    for unit, lost, enemy in ((actor, received, target), (target, inflicted, actor)):
        add: dict[str, int | None] = {IN_MELEE: None}
        if unit is loser:
            add[LOST_MELEE] = 1
        effects.append(Effect(unit.id, lost=lost, add=add, clear=(CONTACT, CLOSING), set={OPPONENT: enemy.id}))
    return Outcome(result.text, tuple(effects))


# -- the card's plain rolls ------------------------------------------------------------------


def _plain(roll_id: str):
    def prepare(request: Request) -> Prepared:
        roll = card_roll(roll_id)
        if phase_number(request) not in roll.roll_of.phases:
            raise RulesError(f"{roll.roll_of.printed} is rolled in phases {', '.join(map(str, roll.roll_of.phases))}")
        heading = "Casualties" if roll.roll_of.counts == "casualties" else "Inches"
        odds = _odds(roll.odds) if roll.roll_of.counts == "casualties" else _inches(roll.odds)
        return Prepared(roll.roll_of.printed, roll.roll_of.dice + ("" if roll.roll_of.counts == "casualties" else "”"),
                        roll.roll_of.dice, ((heading, odds),))

    def resolve(request: Request, record: DiceRecord | None) -> Outcome:
        prepare(request)
        assert record is not None
        if card_roll(roll_id).roll_of.counts == "casualties":
            return Outcome(f"takes {_casualty_words(record.result)}", (Effect(request.actor.id, lost=record.result),))
        return Outcome(f"retires {record.result}”; the winner follows up")

    return prepare, resolve


# -- the checklist -----------------------------------------------------------------------------


def _unfinished(phase_id: str, units: Mapping[str, Unit]) -> list[str]:
    """Tests the card makes compulsory in this phase and not yet taken."""
    number = int(phase_id.removeprefix("phase_")) if phase_id.startswith("phase_") else 0
    present = [u for u in units.values() if not u.removed]
    out = []
    if number in (2, 4, 9):
        out += [f"{u.name} took casualties and checks morale" for u in present if u.has(CASUALTIES)]
    if number in (4, 9):
        out += [f"{u.name} checks morale to close for melee" for u in present
                if u.arm == "infantry" and u.has(CHARGING) and u.attr("unit_type") == "infantry_column"
                and not any(u.has(s) for s in (CLOSING, CONTACT, IN_MELEE))]
    if number in _STAND_PHASES:
        for u in present:
            target = units.get(str(u.attr(TARGET)))
            closing = u.has(CLOSING) or (u.arm == "cavalry" and not u.has(CONTACT))
            if (u.has(CHARGING) and closing and target is not None and not target.removed and target.arm == "infantry"
                    and not target.has(IN_MELEE) and not target.has(CONTACT)):
                out.append(f"{target.name} checks morale to stand against {u.name}")
    if number in (7, 12):
        out += [f"{u.name} lost a melee and checks morale" for u in present if u.has(LOST_MELEE)]
    if number == 13:
        # a failed recall lasts 2 turns from the phase it was rolled in: at 2 it was rolled this turn
        out += [f"{u.name} rolls to recall" for u in present
                if u.has(CHARGE_MARKER) and u.states.get(RECALL_FAILED) != 2]
    return out


# -- the resolver ------------------------------------------------------------------------------


_PLAIN_ROLLS = ("loser_retires", "cannot_form_line")  # the card's rolls that are resolutions of their own


def _actions_of(number: int) -> tuple[str, ...]:
    kind_of = card_phase(number).kind
    by_kind = {
        "artillery_fire": ("artillery_fire", "artillery_behind"),
        "move_and_fire": ("move", "change_formation", "charge", "fire", "square_fire", "skirmishers_evade"),
        "melee": ("melee",),
        "recall": ("recall",),
    }
    if kind_of in by_kind:
        return by_kind[kind_of]
    actions = ["stand", "change_formation"] if number in _STAND_PHASES else ["morale"]
    if number == 5:
        actions.append("guard_presses")
    if number in (7, 12):
        actions.append("change_formation")
    actions += [r for r in _PLAIN_ROLLS if number in card().rolls[r].phases]
    return tuple(actions)


def _phases() -> tuple[Phase, ...]:
    out = []
    for p in turn_sequence():
        printed = f"{p.number}. {p.title}" + (f" {p.note}" if p.note else "")
        out.append(Phase(f"phase_{p.number}", f"{p.number}. {p.title}", BOTH, _actions_of(p.number), printed,
                         who=p.checklist))
    return tuple(out)


def _types() -> tuple[str, ...]:
    return tuple(card().units)


_retires = _plain("loser_retires")
_cannot_form = _plain("cannot_form_line")

def _side_names(chosen: Mapping[str, str]) -> dict[str, str]:
    """The card's French and Austrians, as this battle's sides (option french_side)."""
    french = resolve_options(RULESET, chosen)["french_side"]
    austrian = "defender" if french == "attacker" else "attacker"
    return {french: "French", austrian: "Austrian"}


RESOLVER = Resolver(
    side_names=_side_names,
    ruleset=RULESET,
    title="French-Austrian 13-phase rules",
    size_label="figures",
    attributes=(
        Attribute("quality", "Class", choices=tuple(map(str, get_table(RULESET, "morale").rows.values())), default="veteran"),
        Attribute("unit_type", "Unit type (movement table; formation for infantry)", choices=_types(), default="infantry_column"),
        Attribute("gun_pounds", "Guns (lbs)", kind="int", lowest=1, default=6),
        Attribute("horse_artillery", "Horse artillery", kind="bool", default=False),
        Attribute("general", "General attached", kind="bool", default=False),
        Attribute("lancers", "Lancers", kind="bool", default=False, help="uhlans carry lances without the tick"),
        Attribute("guard", "Guard infantry", kind="bool", default=False),
    ),
    states=(
        State(CASUALTIES, "took casualties", "until it checks morale (phase 2 for artillery fire, 4 or 9 for shooting)"),
        State(CHARGING, "charging", "this turn"),
        State(CLOSING, "closing for melee", "this turn: the enemy infantry it charges tests to stand"),
        State(CONTACT, "in contact", "until the melee is fought"),
        State(IN_MELEE, "in melee", "until one side routs, is destroyed or recalls; it cannot shoot"),
        State(LOST_MELEE, "lost a melee", "until it checks morale in phase 7 or 12"),
        State(HALTED, "halted", "this turn: Halt. No movement this turn."),
        State(CHARGE_MARKER, "charge marker", "until it recalls in phase 13; it cannot move"),
        State(RECALL_FAILED, "failed to recall", "this turn and the next: it cannot move"),
        State(FIRED, "fired (phase 1)", "this turn: the unit 12” behind its target may be hit"),
    ),
    phases=_phases(),
    actions=(
        Action("artillery_fire", "Artillery fire", ENEMY, _artillery_prepare, _artillery_resolve, ticks=_artillery_ticks,
               help="One die per crew figure; close or long range on the artillery stick (neither: medium)",
               arms=("artillery",)),
        Action("artillery_behind", "Unit 12” behind the target", ENEMY, _behind_prepare, _behind_resolve, ticks=_behind_ticks,
               help="After the battery's fire: any unit 12” behind the target, all on level ground and in range",
               arms=("artillery",)),
        Action("morale", "Check morale", NO_TARGET, _morale_prepare, _morale_resolve, numbers=_casualty_numbers, ticks=_morale_ticks),
        Action("stand", "Check morale to stand for melee", ENEMY, _stand_prepare, _stand_resolve, numbers=_casualty_numbers,
               ticks=_stand_ticks, help="The charged infantry tests; its target is the unit charging it"),
        Action("guard_presses", "Guard continues the charge", ENEMY, _guard_prepare, _guard_resolve,
               help="French Guard infantry placed 2” away may take one casualty and continue the charge"),
        Action("recall", "Recall cavalry", NO_TARGET, _recall_prepare, _recall_resolve, numbers=_casualty_numbers, ticks=_morale_ticks,
               arms=("cavalry",)),
        Action("move", "Move", NO_TARGET, _move_prepare, _move_resolve, ticks=_move_ticks,
               numbers=lambda a, t: [Number("wheel", "Degrees wheeled", 0, None, 0)]),
        Action("change_formation", "Change formation", NO_TARGET, _formation_prepare, _formation_resolve, ticks=_formation_ticks),
        Action("charge", "Charge", ENEMY, _charge_prepare, _charge_resolve, ticks=_charge_ticks),
        Action("fire", "Fire", ENEMY, _fire_prepare, _fire_resolve, numbers=_fire_numbers, ticks=_fire_ticks),
        Action("square_fire", "Square fires at charging cavalry", ENEMY, _square_prepare, _square_resolve,
               arms=("infantry",)),
        Action("skirmishers_evade", "Skirmishers evade a charge", NO_TARGET, _evade_prepare, _evade_resolve,
               arms=("infantry",)),
        Action("melee", "Fight a melee", ENEMY, _melee_prepare, _melee_resolve, numbers=_melee_numbers, ticks=_melee_ticks,
               help="The actor is the unit that charged (either unit of a melee that goes on)"),
        Action("loser_retires", "Loser retires d6”", NO_TARGET, *_retires),
        Action("cannot_form_line", "d6 casualties (unable to form line)", NO_TARGET, *_cannot_form),
    ),
    alternating=False,
    turn_label="turn",
    unfinished=_unfinished,
)

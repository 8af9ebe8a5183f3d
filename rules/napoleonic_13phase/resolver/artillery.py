"""Phase 1 on the resolver screen: horse artillery unlimbering, the battery's fire at its
target (turning up to 1” to face it) and at the unit 12” behind."""

from __future__ import annotations

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_13phase import fire as firing
from rules.napoleonic_13phase.data import card
from rules.napoleonic_13phase.resolver.units import (
    BEHIND,
    FIRED,
    LAST_SHOT,
    hit_effect,
    hit_words,
    hits,
    kind,
    needed,
    odds,
    options,
    phase_number,
    pool_dice,
    target_row,
    target_ticks,
)
from rules.napoleonic_13phase.rolls import ToHit
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

_RANGE_TICKS = (("close_range", "+1 Close Range"), ("long_range", "-1 Long Range"))
_UNLIMBER, _TURN, _BEHIND = 4, 2, 3  # lines of [artillery] printed


def _printed(line: int) -> str:
    return card().artillery.printed[line]


def _pounds(unit: Unit) -> int:
    return int(unit.attr("gun_pounds", 6) or 0)


def _in_phase_1(request: Request) -> None:
    if kind(request.actor).arm != "artillery":
        raise RulesError(f"{request.actor.name} is not artillery: only artillery fires in phase 1")
    if phase_number(request) != 1:
        raise RulesError("artillery fires at its target in phase 1; in phases 3 and 8 it shoots with the infantry")


# -- horse artillery unlimbers ----------------------------------------------------------


def _unlimber(request: Request) -> str:
    _in_phase_1(request)
    actor = request.actor
    if not actor.attr("horse_artillery"):
        raise RulesError(f"{actor.name} is not horse artillery: '{_printed(_UNLIMBER)}'")
    if not kind(actor).limbered:
        raise RulesError(f"{actor.name} is unlimbered already")
    return _printed(_UNLIMBER)


def unlimber_prepare(request: Request) -> Prepared:
    return Prepared("horse artillery unlimbers", _unlimber(request), None)


def unlimber_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    return Outcome(f"unlimbers ({_unlimber(request)})", (Effect(request.actor.id, set={"unit_type": "artillery"}),))


# -- fire at the target --------------------------------------------------------------------


def artillery_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    pounds = _pounds(actor)
    heavy, light = pounds >= card().artillery.heavy_pounds, pounds <= card().artillery.light_pounds
    return [
        *(Tick(i, label) for i, label in _RANGE_TICKS),
        Tick("heavy", "+1 if 12lbs or heavier (its guns)", checked=heavy, excluded=None if heavy else f"its guns are {pounds} lbs"),
        Tick("light", "-1 if 6lbs or lighter (its guns)", checked=light, excluded=None if light else f"its guns are {pounds} lbs"),
        *target_ticks(target),
    ]


def artillery_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    most = card().artillery.turn_inches
    return [Number("turn", f"Inches turned and moved to face the target (under 12 lbs: up to {most}”)", 0, most, 0)]


def _range_band(ticked: frozenset[str]) -> str:
    if {"close_range", "long_range"} <= ticked:
        raise RulesError("a target is at close range or at long range, not both")
    return "close" if "close_range" in ticked else "long" if "long_range" in ticked else "medium"


def _battery(request: Request, behind: firing.ArtilleryTarget | None = None) -> firing.ArtilleryShot:
    """The battery's shot at its target, or (behind given) the shot it fired this turn, with the unit behind."""
    _in_phase_1(request)
    actor = request.actor
    if behind is None:
        assert request.target is not None
        row = target_row(request.target, request.ticked, options(request), artillery=True)
        band = _range_band(request.ticked)
    else:
        row, band = actor.attr(LAST_SHOT)["row"], actor.attr(LAST_SHOT)["range"]
    shot = firing.ArtilleryFire(
        crew=actor.size,
        gun_pounds=_pounds(actor),
        target=row,
        range=band,
        behind=behind,
        level_ground="not_level" not in request.ticked,
        limbered=kind(actor).limbered,
        horse_artillery=bool(actor.attr("horse_artillery")),
    )
    return firing.artillery_fire(shot, request.options)


def _turned(request: Request) -> int:
    """Inches the battery turns and moves to face its target: 'Unlimbered Artillery less than 12 lbs.'"""
    turn = request.numbers.get("turn", 0)
    if turn > firing.turn_to_face(_pounds(request.actor)):
        raise RulesError(f"{request.actor.name} has {_pounds(request.actor)} lb guns: only '{_printed(_TURN)}'")
    return turn


def _crew_dice(shot: ToHit) -> str | None:
    """'Roll one die per crew figure', even when the target cannot be hit: the unit behind may be."""
    if shot.dice and shot.needed > 6:
        return f"{shot.dice}d6"
    return pool_dice(shot)


def artillery_prepare(request: Request) -> Prepared:
    shot = _battery(request).at_target
    _turned(request)
    notes = [_printed(_TURN)] if firing.turn_to_face(_pounds(request.actor)) else []
    if kind(request.actor).limbered:
        notes.append(f"{_printed(_UNLIMBER).rstrip('.')}: it unlimbers to fire.")
    return Prepared(f"artillery fire, one die per crew figure ({request.actor.size})", needed(shot), _crew_dice(shot),
                    (("Casualties", odds(shot.odds())),), tuple(notes))


def artillery_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    battery = _battery(request)
    turned = _turned(request)
    n = hits(battery.at_target, record)
    last = {"target": request.target.id, "row": battery.fire.target, "range": battery.fire.range,
            "raw": list(record.raw) if record else []}
    unlimbered = {"unit_type": "artillery"} if kind(request.actor).limbered else {}
    actor = Effect(request.actor.id, add={FIRED: 1}, set={LAST_SHOT: last, **unlimbered})
    text = (f"turns and moves {turned}” to face its target; " if turned else "") + hit_words(n, request.target)
    if n:
        text += "; it checks morale in phase 2"
    return Outcome(text, (actor, *hit_effect(request.target, n)))


# -- the unit 12” behind the target --------------------------------------------------------


def behind_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [*(Tick(i, label) for i, label in _RANGE_TICKS), *target_ticks(target),
            Tick("not_level", "not all units, the artillery included, on level ground")]


def _behind_shot(request: Request) -> ToHit:
    assert request.target is not None
    if not request.actor.has(FIRED) or not request.actor.attr(LAST_SHOT):
        raise RulesError(f"{request.actor.name} has not fired this turn: fire at the target first (r on the battery, Artillery fire)")
    if request.target.id == request.actor.attr(LAST_SHOT)["target"]:
        raise RulesError("the unit behind is another unit than the target")
    behind = firing.ArtilleryTarget(target_row(request.target, request.ticked, options(request), artillery=True),
                                    _range_band(request.ticked))
    shot = _battery(request, behind)
    assert shot.at_behind is not None
    return shot.at_behind


def _same_dice(request: Request) -> bool:
    return options(request)["artillery_unit_behind"] == "same_dice"


def behind_prepare(request: Request) -> Prepared:
    shot = _behind_shot(request)
    if _same_dice(request):
        raw = tuple(request.actor.attr(LAST_SHOT)["raw"])
        return Prepared(f"the unit {BEHIND}” behind the target, hit by the same dice", needed(shot), None,
                        notes=(f"the dice rolled at the target: {' '.join(map(str, raw)) or 'none'}",))
    return Prepared(f"the unit {BEHIND}” behind the target, a second roll of the crew dice", needed(shot), pool_dice(shot),
                    (("Casualties", odds(shot.odds())),))


def behind_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert request.target is not None
    shot = _behind_shot(request)
    raw = tuple(request.actor.attr(LAST_SHOT)["raw"]) if _same_dice(request) else None
    n = hits(shot, record, raw)
    return Outcome(f"Unit behind: {hit_words(n, request.target)}", hit_effect(request.target, n))

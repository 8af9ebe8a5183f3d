"""Phase 2: command distance, movement and change of formation, within what each
experience level may do (Mouvement ET/OU Changement de formation)."""

from __future__ import annotations

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_uc_um.data import label
from rules.napoleonic_uc_um.movement import (
    Move,
    command_distance_cm,
    in_command,
    move,
    turn_actions,
)
from rules.napoleonic_uc_um.resolver.units import (
    CHANGED,
    MOVED,
    UNCOMMANDED,
    command_arm,
    experience,
    not_broken,
    speed_kind,
)
from rules.napoleonic_uc_um.troops import FORMATIONS
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit


def command_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("distance", "Distance du général de brigade en cm (distance to its brigadier)", 0, 200, 0)]


def command_prepare(request: Request) -> Prepared:
    cm = command_distance_cm(experience(request.actor), command_arm(request.actor), request.options)
    name = label("command_distance", "experience", experience(request.actor))
    return Prepared(f"distance de commandement (command distance), {name} {request.actor.arm}",
                    f"{cm} cm or less from its général de brigade", None)


def command_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    actor = request.actor
    distance = request.numbers.get("distance", 0)
    if in_command(experience(actor), command_arm(actor), distance, request.options):
        return Outcome(f"commandé (commanded) at {distance} cm", (Effect(actor.id, clear=(UNCOMMANDED,)),))
    return Outcome(f"non commandé (uncommanded) at {distance} cm: moves towards its général de brigade (step 2.3)",
                   (Effect(actor.id, add={UNCOMMANDED: 1}),))


def going_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("bgo_ec", "EC en mauvais terrain (EC in bad going, BGo)", 0, actor.size, 0)]


def moved(request: Request, how: str = "") -> Move:
    """How far the actor moves: the speed of its row in the going holding most of its EC."""
    actor = request.actor
    bad = request.numbers.get("bgo_ec", 0)
    return move(speed_kind(actor, how), {"gg": actor.size - bad, "bgo": bad}, request.options)


def _how(request: Request) -> str:
    return "retreating" if "retreating" in request.ticked else ""


def move_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [Tick("retreating", "en repli (retreating)")]


def move_prepare(request: Request) -> Prepared:
    actor = request.actor
    not_broken(actor)
    if request.phase == "2.3" and not actor.has(UNCOMMANDED):
        raise RulesError(f"{actor.name} is not marked uncommanded: it moves in step 2.4")
    if request.phase == "2.4" and actor.has(UNCOMMANDED):
        raise RulesError(f"{actor.name} is uncommanded: it moved towards its général de brigade in step 2.3")
    if actor.has(MOVED):
        raise RulesError(f"{actor.name} has already moved this turn")
    turn_actions(experience(actor), moved=True, changed_formation=actor.has(CHANGED), options=request.options)
    distance = moved(request, _how(request))
    return Prepared(f"mouvement (movement): {distance.reason}", f"{distance.distance_cm} cm", None)


def move_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    distance = moved(request, _how(request))
    actions = turn_actions(experience(request.actor), moved=True, changed_formation=request.actor.has(CHANGED),
                           options=request.options)
    return Outcome(f"moves up to {distance.distance_cm} cm ({distance.reason}); then {actions.printed}",
                   (Effect(request.actor.id, add={MOVED: 1}),))


def formation_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [Tick(f"to_{f}", f"into {f.replace('_', ' ')}",
                 excluded="its present formation" if f == actor.attr("formation") else None)
            for f in FORMATIONS[actor.arm]]


def _new_formation(request: Request) -> str:
    ticked = [t.removeprefix("to_") for t in request.ticked]
    if len(ticked) != 1:
        raise RulesError("tick the one formation the UC changes into")
    return ticked[0]


def formation_prepare(request: Request) -> Prepared:
    actor = request.actor
    not_broken(actor)
    new = _new_formation(request)
    if actor.has(CHANGED):
        raise RulesError(f"{actor.name} has already changed formation this turn")
    turn_actions(experience(actor), moved=actor.has(MOVED), changed_formation=True, options=request.options)
    return Prepared(f"changement de formation (change of formation) into {new.replace('_', ' ')}",
                    "no roll", None)


def formation_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    new = _new_formation(request)
    actions = turn_actions(experience(request.actor), moved=request.actor.has(MOVED), changed_formation=True,
                           options=request.options)
    return Outcome(f"changes into {new.replace('_', ' ')}; then {actions.printed}",
                   (Effect(request.actor.id, add={CHANGED: 1}, set={"formation": new}),))

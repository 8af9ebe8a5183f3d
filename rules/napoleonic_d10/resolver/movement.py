"""Movement: the roll to move by the CO's rating ('All units must roll to move'), the
distances the result gives by formation or gun, the Terrain Effects on the way,
local initiative and disruptive terrain."""

from __future__ import annotations

from fractions import Fraction

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_d10 import initiative as initiating
from rules.napoleonic_d10 import movement as moving
from rules.napoleonic_d10 import skirmish as skirmishing
from rules.napoleonic_d10.data import band_label, card, cell_text, table, values_of
from rules.napoleonic_d10.resolver.effects import printed_state_outcome
from rules.napoleonic_d10.resolver.prepare import (
    label,
    legend,
    roll_prepare,
    ticked_one,
)
from rules.napoleonic_d10.resolver.units import (
    BROKEN,
    DISORDERED,
    MOVED,
    ROLLED_TO_MOVE,
    SHAKEN,
    SMOKE,
    charge_arm,
    cw_level,
    leader,
    situation,
    situation_ticks,
    unit_class,
)
from rules.napoleonic_d10.rolls import TableRoll
from rules.resolver import Effect, Outcome, Prepared, Request, Tick, Unit

TERRAINS = [str(v) for v in values_of("terrain", "terrain")]
DEGREES = [band.label for band in table("disruptive_terrain").columns.bands]  # type: ignore[union-attr]  # a table with columns (its TOML)


def move_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    ticks = [
        Tick("vacating_cover", label("movement_modifiers", "vacating_cover")),
        Tick("in_smoke", label("movement_modifiers", "in_smoke"), checked=actor.has(SMOKE)),
        Tick("moved_last_turn", label("movement_modifiers", "moved_last_turn"), checked=actor.states.get(MOVED) == 1),
    ]
    arm = band_label("terrain", "arm", actor.arm)
    for terrain in TERRAINS:
        printed = cell_text("terrain", terrain=terrain, arm=actor.arm)
        ticks.append(Tick(terrain, f"Terrain Effects: {band_label('terrain', 'terrain', terrain)} ({arm} {printed})"))
    return ticks


def _move_check(request: Request) -> TableRoll:
    u = request.actor
    if u.has(BROKEN):
        raise RulesError(f"{u.name} is broken: it makes its Morale Loss Move ({cell_text('morale_loss_move', result='Brok')})")
    if u.has(ROLLED_TO_MOVE):
        raise RulesError(f"{u.name} has rolled to move this turn")
    s = moving.MovementSituation(
        unit_class(u), u.attr("co_rating", "average"), cw_level(u), shaken=u.has(SHAKEN), disordered=u.has(DISORDERED),
        vacating_cover="vacating_cover" in request.ticked, in_smoke="in_smoke" in request.ticked,
        moved_last_turn="moved_last_turn" in request.ticked,
    )
    return moving.movement_check(s, request.options)


def move_prepare(request: Request) -> Prepared:
    return roll_prepare(_move_check(request), "Movement")


def _inches(value: Fraction) -> str:
    whole, part = divmod(value, 1)
    if not part:
        return str(int(whole))
    return f"{int(whole)}-{part}" if whole else str(part)


def _distances(unit: Unit, result: str) -> str:
    if unit.arm == "artillery":
        gun = unit.attr("battery", "6pdr")
        shown = []
        for band in table("artillery_movement").columns.bands:  # type: ignore[union-attr]  # a table with columns (its TOML)
            step = moving.artillery_move(gun, str(band.names[0]), result)
            shown.append(f"{band.label} " + ("NA" if step.inches is None else f'{_inches(step.inches)}"'))
        return f"{gun} guns: " + "; ".join(shown)
    kind = charge_arm(unit)
    formation = unit.attr("formation", "line")
    if formation not in ("road", "column", "line", "general", "square") or (formation == "square" and kind != "infantry"):
        formation = "line" if formation != "closed_column" else "column"
    here = moving.movement_distance(kind, formation, result)
    road = moving.movement_distance(kind, "road", result)
    return f'up to {_inches(here)}" in {formation} ({_inches(road)}" on road)'


def _terrain_text(request: Request) -> str:
    """What each ticked terrain does to the move: a share of it, a cost in inches, or no move there."""
    out = []
    for terrain in TERRAINS:
        if terrain not in request.ticked:
            continue
        effect = moving.terrain_effect(terrain, request.actor.arm)
        name = band_label("terrain", "terrain", terrain)
        if not effect.allowed:
            out.append(f"{name}: {effect.printed} (may not move there)")
        elif effect.cost is not None:
            out.append(f'{name}: crossing costs {_inches(effect.cost)}"')
        elif effect.share == 1:
            out.append(f"{name}: {effect.printed} (no effect)")
        else:
            out.append(f"{name}: {effect.printed} of the distance while in it")
    return "".join(f"; {t}" for t in out)


def move_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    result = _move_check(request).read(record.result)
    unit = request.actor
    if result == card().movement.no_move:
        return Outcome(f"{result} (No movement)", (Effect(unit.id, add={ROLLED_TO_MOVE: 1}),))
    return Outcome(f"{result}: moves {_distances(unit, result)}{_terrain_text(request)}",
                   (Effect(unit.id, add={ROLLED_TO_MOVE: 1, MOVED: 2}),))


def local_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return situation_ticks(actor) + [
        Tick("reacting_cavalry_charge", label("local_initiative_modifiers", "reacting_cavalry_charge")),
        Tick("division_leader_attached", label("local_initiative_modifiers", "division_leader_attached"),
             checked=leader(actor) is not None),
    ]


def local_check(request: Request) -> TableRoll:
    return initiating.local_initiative_check(
        unit_class(request.actor), situation(request),
        reacting_cavalry_charge="reacting_cavalry_charge" in request.ticked,
        division_leader_attached="division_leader_attached" in request.ticked, options=request.options,
    )


def local_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    text = local_check(request).read(record.result)
    return Outcome(f"{legend('local_initiative', text)} (only for movement, or for forming square)")


def terrain_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [Tick(d.lower(), d) for d in DEGREES]


def terrain_check(request: Request) -> TableRoll:
    degree = ticked_one(request, [d.lower() for d in DEGREES], "degree of disruptive terrain")
    if degree is None:
        raise RulesError("tick the degree of the disruptive terrain: D1, D2 or D3")
    return skirmishing.disruption_check(unit_class(request.actor), degree, request.options)


def terrain_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    printed = terrain_check(request).read(record.result)
    return printed_state_outcome(request, request.actor, printed, "disruptive_terrain")

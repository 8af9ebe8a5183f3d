"""Movement and charges (phases 3 and 8): allowances by unit type, half, full and double
moves, the firefight lock, wheels, woods, and the charges of infantry and cavalry.

>>> allowance = movement_allowance(Move(3, "french", "light_cavalry", outside_command_range=True))
>>> allowance.inches, [a.effect for a in allowance.applied]
(Fraction(7, 1), ['half (outside command range): 14” becomes 7”'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_13phase.data import RULESET, UnitType, card, check_count, check_side, phase, unit_type
from rules.napoleonic_13phase.rolls import PlainRoll, card_roll
from rules.options import resolve_options


@dataclass(frozen=True)
class Applied:
    """A movement rule the card applied: its line and what it did."""

    printed: str
    effect: str


@dataclass(frozen=True)
class Allowance:
    unit: str
    printed: str  # the table's allowance as printed: "14”"
    inches: Fraction
    applied: tuple[Applied, ...] = ()


@dataclass(frozen=True)
class Move:
    """A unit moving in its side's movement phase (French 3, Austrians 8)."""

    phase: int
    side: str
    unit: str  # unit type: infantry_column, cuirassiers, limbered_artillery...
    difficult_terrain: bool = False
    outside_command_range: bool = False
    backwards: bool = False
    changing_formation: bool = False  # takes the full move
    limbering: bool = False  # limber or unlimber: takes the move
    over_24_from_enemy: bool = False  # staying over 24” from the enemy all move
    first_turn: bool = False
    in_firefight: bool = False  # an infantry line within 4” of an opposing one
    into_woods: bool = False


def _fmt(inches: Fraction) -> str:
    return f"{inches}”" if inches.denominator == 1 else f"{float(inches):g}”"


def _check_mover(phase_number: int, side: str, unit: str) -> UnitType:
    current = phase(phase_number)
    if current.kind != "move_and_fire":
        raise RulesError(f"units move in phases 3 and 8, not in phase {phase_number} ({current.title})")
    check_side(side)
    if side != current.moves:
        people = {"french": "French", "austrian": "Austrians"}
        raise RulesError(f"the {people.get(side, side)} do not move in phase {phase_number}: "
                         f"the {people.get(str(current.moves), current.moves)} move in it")
    return unit_type(unit, side)


def locked_in_firefight(unit: str, enemy_unit: str, distance: Fraction | int) -> bool:
    """'Opposing lines of infantry within 4” of each other are locked in a firefight.'"""
    unit_type(unit)
    unit_type(enemy_unit)
    return unit == enemy_unit == "infantry_line" and 0 <= distance <= card().movement.firefight_inches


def check_wheel(degrees: int | Fraction) -> None:
    """'45 degree limit on wheeling.'"""
    limit = card().movement.wheel_degrees
    if not 0 <= abs(Fraction(degrees)) <= limit:
        raise RulesError(f"a wheel is limited to {limit} degrees, not {degrees}")


def movement_allowance(move: Move, options: Mapping[str, str] | None = None) -> Allowance:
    """Inches the unit may move this phase, with every rule of the card that applied."""
    chosen = resolve_options(RULESET, options)["half_movement"]
    data = card().movement
    printed = data.printed
    kind = _check_mover(move.phase, move.side, move.unit)
    if move.into_woods and kind.arm in data.no_woods_arms:
        raise RulesError(printed["woods"])
    if move.in_firefight and move.unit != "infantry_line":
        raise RulesError("only opposing lines of infantry are locked in a firefight")
    if move.limbering and kind.arm != "artillery":
        raise RulesError("only artillery limbers and unlimbers")
    if move.in_firefight and move.changing_formation:
        raise RulesError(printed["firefight"])
    if move.limbering:
        return Allowance(move.unit, "", Fraction(0), (Applied(printed["limber"], "limbers or unlimbers: no move"),))
    if not kind.limbered and kind.arm == "artillery":
        raise RulesError("unlimbered artillery does not move: limbering takes one move")
    cell = get_table(RULESET, "movement").lookup(unit=move.unit)
    inches = Fraction(cell.number)
    applied: list[Applied] = []
    if move.in_firefight:
        return Allowance(move.unit, cell.text, Fraction(0), (Applied(printed["firefight"], "locked in a firefight: no move"),))
    if move.changing_formation:
        return Allowance(move.unit, cell.text, Fraction(0), (Applied(printed["formation"], "changes formation: no move"),))
    reasons = [
        name
        for name, holds in (
            ("difficult terrain", move.difficult_terrain),
            ("outside command range", move.outside_command_range),
            ("moving backwards", move.backwards),
        )
        if holds
    ]
    # Option half_movement: any reason halves once, or each reason halves again.
    groups = [reasons] if chosen == "once" and reasons else [[r] for r in reasons]
    for group in groups:
        before = inches
        inches /= data.half_divisor
        applied.append(Applied(printed["half"], f"half ({', '.join(group)}): {_fmt(before)} becomes {_fmt(inches)}"))
    if move.over_24_from_enemy:
        if move.first_turn:
            applied.append(Applied(printed["double"], "first turn: no double move"))
        else:
            before = inches
            inches *= data.double_factor
            beyond = data.double_beyond_inches
            applied.append(
                Applied(printed["double"], f"over {beyond}” from the enemy, double: {_fmt(before)} becomes {_fmt(inches)}")
            )
    return Allowance(move.unit, cell.text, inches, tuple(applied))


# ---------------------------------------------------------------------------
# Charges
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class InfantryCharge:
    phase: int
    side: str
    unit: str  # must be infantry_column
    target_unit: str  # the enemy unit type charged
    other_columns_on_target: int = 0  # other infantry columns charging the same target
    difficult_terrain: bool = False
    outside_command_range: bool = False


def infantry_charge(charge: InfantryCharge, options: Mapping[str, str] | None = None) -> Allowance:
    """'May only charge if in column. Make a normal move into contact with the target.'"""
    rules = card().charge
    kind = _check_mover(charge.phase, charge.side, charge.unit)
    if kind.arm != "infantry":
        raise RulesError(f"{charge.unit.replace('_', ' ')} are not infantry: see cavalry_charge")
    if kind.formation != rules.infantry_formation:
        raise RulesError("Infantry may only charge if in column.")
    target = unit_type(charge.target_unit)
    if target.arm in rules.infantry_may_not_charge:
        raise RulesError("Infantry cannot charge cavalry.")
    if check_count(charge.other_columns_on_target, "other columns charging the target"):
        raise RulesError("Multiple infantry columns may not charge the same target.")
    return movement_allowance(
        Move(
            charge.phase,
            charge.side,
            charge.unit,
            difficult_terrain=charge.difficult_terrain,
            outside_command_range=charge.outside_command_range,
        ),
        options,
    )


@dataclass(frozen=True)
class CavalryCharge:
    phase: int
    side: str
    unit: str  # a cavalry unit type
    target_unit: str | None = None  # the first enemy unit it means to contact
    others_on_target: int = 0  # other units of its side contacting the same enemy cavalry


def cavalry_charge(charge: CavalryCharge) -> PlainRoll:
    """'Roll 2d6” bonus movement dice': a full move plus the bonus, with its exact odds.
    Mark the spot where the charge begins: the unit recalls to it in phase 13."""
    kind = _check_mover(charge.phase, charge.side, charge.unit)
    if kind.arm != "cavalry":
        raise RulesError(f"{charge.unit.replace('_', ' ')} are not cavalry: see infantry_charge")
    if charge.target_unit is not None and unit_type(charge.target_unit).arm == "cavalry":
        if check_count(charge.others_on_target, "other units contacting the enemy cavalry"):
            raise RulesError(f"Enemy cavalry may only be contacted by one {charge.side.capitalize()} unit.")
    full_move = get_table(RULESET, "movement").lookup(unit=charge.unit).number
    return card_roll("cavalry_charge_bonus", base=full_move)


def skirmishers_evade(side: str, unit: str = "skirmishers") -> PlainRoll:
    """'Skirmishers in a charge – Shoot, and move 2d6” away. Destroyed if contacted.'"""
    check_side(side)
    if unit_type(unit, side).formation != "skirmishers":
        raise RulesError("only skirmishers shoot and evade a charge")
    return card_roll("skirmishers_evade")


def guard_presses_charge(side: str, unit: str) -> int:
    """Phase 5, Pass: 'French Guard infantry may take one casualty and continue the charge.'
    The casualties it costs."""
    check_side(side)
    if side != "french" or unit_type(unit, side).arm != "infantry":
        raise RulesError("only French Guard infantry may take one casualty and continue the charge")
    return card().charge.guard_casualties

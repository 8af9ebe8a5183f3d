"""The 13-phase card's rules outside its tables, read from rules.toml and checked on load.

Also the checks every procedure shares: a side, a class or a unit type that the
card does not know is one clear RulesError.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from rules.errors import RulesError
from rules.loader import DataFileError, get_table
from rules.schema import Frozen, refusal

RULESET = "napoleonic_13phase"
PATH = Path(__file__).with_name("rules.toml")
KINDS = ("artillery_fire", "morale", "move_and_fire", "melee", "recall")
EXCLUSIONS = ("charging_cavalry", "in_melee")


@dataclass(frozen=True)
class Phase:
    """One phase of the turn: its heading as printed and who acts in it."""

    number: int
    title: str  # the card's heading
    note: str  # the heading's own parenthesis, "" when it has none
    kind: Literal["artillery_fire", "morale", "move_and_fire", "melee", "recall"]
    acting: tuple[str, ...]  # the sides that act
    checklist: str  # who does what, for the umpire's checklist
    moves: str | None = None  # move_and_fire: the side that moves and charges
    fires: str | None = None  # move_and_fire: the side whose infantry and artillery shoot
    tests: tuple[str, ...] = ()  # morale and recall: the sides that test
    arms: tuple[str, ...] = ()  # morale and recall: the arms that test
    excluded: tuple[str, ...] = ()  # units the heading says do not test


@dataclass(frozen=True)
class UnitType:
    """A unit type of the movement tables: infantry_column, uhlans, limbered_artillery..."""

    id: str
    arm: Literal["infantry", "cavalry", "artillery"]
    sides: tuple[str, ...]
    formation: str | None = None  # infantry only: column, line, square, masse, skirmishers
    lancers: bool = False
    limbered: bool = False


@dataclass(frozen=True)
class CardRoll:
    """A plain roll of the card: a distance in inches or a number of casualties."""

    id: str
    dice: str
    counts: Literal["inches", "casualties"]
    phases: tuple[int, ...]
    printed: str


class _Section(Frozen):
    printed: tuple[str, ...] = ()  # the card's words, by line
    notes: tuple[str, ...] = ()  # the readings taken where the card is unclear


class Artillery(_Section):
    dice_per_crew_figure: int
    ranges: tuple[str, ...]  # by the artillery stick
    range_modifier: Mapping[str, str]  # range -> row of the fire modifiers
    heavy_pounds: int
    light_pounds: int
    turn_below_pounds: int
    turn_inches: int
    behind_inches: int


class Fire(_Section):
    range_inches: int
    figures_per_die: int
    shooters: tuple[Literal["infantry", "cavalry", "artillery"], ...]
    square_dice: int
    square_target: str  # the row of fire_to_hit a square's fire reads


class Melee(_Section):
    to_hit: int
    support_inches: int
    pass_through_to_hit: int
    skirmishers_contacted: str


class Movement(Frozen):
    wheel_degrees: int
    firefight_inches: int
    half_divisor: int
    double_factor: int
    double_beyond_inches: int
    no_woods_arms: tuple[Literal["infantry", "cavalry", "artillery"], ...]
    printed: Mapping[str, str]  # the card's words, by rule
    notes: tuple[str, ...] = ()


class Charge(_Section):
    infantry_formation: str
    infantry_may_not_charge: tuple[Literal["infantry", "cavalry", "artillery"], ...]
    guard_casualties: int


class SideOnly(Frozen):
    """A sentence of a morale result printed for one nation's own troops only."""

    phase: int
    nation: str
    printed: str


class Morale(_Section):
    dice: str
    casualties_per_modifier: int
    small_fail_up_to: int
    recall_fail_casualties: int
    side_only: tuple[SideOnly, ...] = ()


class RulesFile(Frozen):
    """rules.toml as written: the sections the procedures read typed, the lists of
    phases, unit types and rolls checked and built into `Card` by `card()`."""

    source: str
    sides: tuple[str, ...]
    arms: tuple[str, ...]
    notes: tuple[str, ...] = ()
    phase: tuple[Mapping[str, Any], ...]
    unit: tuple[Mapping[str, Any], ...]
    units: _Section
    roll: tuple[Mapping[str, Any], ...]
    artillery: Artillery
    fire: Fire
    melee: Melee
    movement: Movement
    charge: Charge
    morale: Morale


@dataclass(frozen=True)
class Card:
    sides: tuple[str, ...]
    arms: tuple[str, ...]
    phases: tuple[Phase, ...]
    units: dict[str, UnitType]
    rolls: dict[str, CardRoll]
    artillery: Artillery
    fire: Fire
    melee: Melee
    movement: Movement
    charge: Charge
    morale: Morale


def _phase(raw: dict, arms: tuple[str, ...], sides: tuple[str, ...]) -> Phase:
    where = f"{PATH}: phase {raw.get('number', '?')}"
    heading = get_table(RULESET, "sequence_of_play")
    number = raw["number"]
    if raw["kind"] not in KINDS:
        raise DataFileError(f"{where}: kind {raw['kind']!r} is not one of {', '.join(KINDS)}")
    named = [*raw["acting"], *raw.get("tests", ()), raw.get("moves", sides[0]), raw.get("fires", sides[0])]
    if not set(named) <= set(sides):
        raise DataFileError(f"{where}: names a side that is not one of {', '.join(sides)}")
    if not set(raw.get("arms", ())) <= set(arms) or not set(raw.get("excluded", ())) <= set(EXCLUSIONS):
        raise DataFileError(f"{where}: an arm or an exclusion the card does not know")
    return Phase(
        number=number,
        title=heading.lookup(phase=number, part="title").raw,
        note=heading.lookup(phase=number, part="note").raw,
        kind=raw["kind"],
        acting=tuple(raw["acting"]),
        checklist=raw["checklist"],
        moves=raw.get("moves"),
        fires=raw.get("fires"),
        tests=tuple(raw.get("tests", ())),
        arms=tuple(raw.get("arms", ())),
        excluded=tuple(raw.get("excluded", ())),
    )


@cache
def card() -> Card:
    try:
        data = tomllib.loads(PATH.read_text(encoding="utf-8"))
        read = RulesFile.model_validate(data)
        sides, arms = tuple(data["sides"]), tuple(data["arms"])
        phases = tuple(_phase(raw, arms, sides) for raw in data["phase"])
        if [p.number for p in phases] != list(range(1, len(phases) + 1)):
            raise DataFileError(f"{PATH}: the phases are not numbered 1, 2, 3... in order")
        units = {}
        for raw in data["unit"]:
            if raw["arm"] not in arms or not set(raw["sides"]) <= set(sides):
                raise DataFileError(f"{PATH}: unit {raw['id']}: unknown arm or side")
            units[raw["id"]] = UnitType(
                id=raw["id"],
                arm=raw["arm"],
                sides=tuple(raw["sides"]),
                formation=raw.get("formation"),
                lancers=bool(raw.get("lancers", False)),
                limbered=bool(raw.get("limbered", False)),
            )
        rolls = {
            raw["id"]: CardRoll(raw["id"], raw["dice"], raw["counts"], tuple(raw["phases"]), raw["printed"])
            for raw in data["roll"]
        }
        return Card(
            sides=sides,
            arms=arms,
            phases=phases,
            units=units,
            rolls=rolls,
            artillery=read.artillery,
            fire=read.fire,
            melee=read.melee,
            movement=read.movement,
            charge=read.charge,
            morale=read.morale,
        )
    except ValidationError as exc:
        raise DataFileError(refusal(PATH, exc, RulesFile)) from None
    except (KeyError, TypeError) as exc:
        raise DataFileError(f"{PATH}: missing or malformed entry {exc}") from None


def phase(number: int) -> Phase:
    phases = card().phases
    if not isinstance(number, int) or not 1 <= number <= len(phases):
        raise RulesError(f"the turn has phases 1 to {len(phases)}, not {number!r}")
    return phases[number - 1]


def check_side(side: str) -> str:
    if side not in card().sides:
        raise RulesError(f"a side is one of {', '.join(card().sides)}, not {side!r}")
    return side


def check_class(unit_class: str) -> str:
    classes = get_table(RULESET, "morale").rows.values()
    if unit_class not in classes:
        raise RulesError(f"a class is one of {', '.join(map(str, classes))}, not {unit_class!r}")
    return unit_class


def unit_type(unit: str, side: str | None = None) -> UnitType:
    """The unit type, checked against the side's own movement table when a side is given."""
    units = card().units
    if unit not in units:
        raise RulesError(f"{unit!r} is not a unit type of this card; it knows " + ", ".join(units))
    found = units[unit]
    if side is not None and check_side(side) not in found.sides:
        raise RulesError(f"the {side} have no {unit.replace('_', ' ')}: it is not on their movement table")
    return found


def check_count(value: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RulesError(f"{what} must be a whole number of 0 or more, not {value!r}")
    return value

"""Movement, and the moves a result forces: recoil, rout and evade; disruption
and rallying; brigade command and generals.

>>> from rules.dice import DiceService
>>> from rules.kallistra_acw.data import Stands
>>> movement_allowance(Stands("cavalry", count=4, formation="march_column")).hexes
7
>>> step = rout_step(Stands("cavalry", count=2), hexes_to_own_edge=5)
>>> result = resolve_rout(step, DiceService(seed=1), entered=[4])
>>> result.distance, result.hexes_moved, result.removed   # 2 hexes + 4, stopped at the edge
(6, 5, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from rules.dice import DiceRecord, DiceService
from rules.errors import RulesError
from rules.kallistra_acw.data import (
    RULESET,
    Stands,
    card,
    check_stands,
    dice_cell,
    options,
    whole,
)
from rules.loader import get_table
from rules.odds import roll_distribution

__all__ = [
    "Movement",
    "Recoil",
    "RoutResult",
    "RoutStep",
    "can_evade",
    "evade_move",
    "general_move",
    "in_command",
    "movement_allowance",
    "rallies",
    "recoil",
    "resolve_rout",
    "rout_step",
]


@dataclass(frozen=True)
class Movement:
    hexes: int
    cell: str  # the movement table's cell, as printed; "" when the unit does not move
    reason: str


def movement_allowance(unit: Stands, *, difficult: bool = False,
                       overrides: Mapping[str, str] | None = None) -> Movement:
    """How many hexes the unit moves in its side's movement phase. `difficult`:
    it moves in or into woods, or crosses a river or a linear obstacle."""
    chosen = options(overrides)
    check_stands(unit, chosen)
    if unit.disrupted:
        return Movement(0, "", "disrupted units cannot move during their sides movement phase, instead they reform")
    formation = unit.formation
    if unit.skirmishing:
        formation = chosen["skirmisher_movement"]
    if difficult:
        formation = "difficult"
    table = get_table(RULESET, "movement")
    cell = table.lookup(arm=unit.arm, formation=formation)
    assert table.columns is not None
    heading = table.columns.bands[table.columns.index_of(formation)].label
    if cell.text == "-":
        return Movement(0, cell.text, f"{unit.arm} cannot move in {heading} ('-' on the movement table)")
    return Movement(cell.number, cell.text, f"{unit.arm}, {heading}")


def general_move() -> int:
    """Hexes a general may move at the end of his side's movement phase."""
    return card().command.general_move


def in_command(hexes_to_brigade_commander: int, *, linked_by_contact: bool = False) -> bool:
    """Whether the brigade commander can move the unit: within 3 hexes of him, or in
    a chain of units in hex-to-hex contact reaching one that is."""
    whole("the hexes to the brigade commander", hexes_to_brigade_commander, 0)
    return linked_by_contact or hexes_to_brigade_commander <= card().command.brigade_radius


def rallies(unit: Stands, *, in_contact_with_enemy: bool) -> bool:
    """At the end of its side's movement phase: is the disruption marker removed?"""
    if not unit.disrupted:
        raise RulesError("only a disrupted unit rallies")
    return not in_contact_with_enemy


@dataclass(frozen=True)
class Recoil:
    hexes: int  # away from the attackers, still facing the enemy
    removed: bool  # at its own table edge, with no hex to recoil into


def recoil(unit: Stands, *, at_own_table_edge: bool = False) -> Recoil:
    """A recoil move: one hex away from the attackers; removed from play at its own table edge."""
    check_stands(unit, options(None))
    if at_own_table_edge:
        return Recoil(0, True)
    return Recoil(card().recoil.hexes, False)


@dataclass(frozen=True)
class RoutStep:
    arm: str
    cell: str  # the rout table's cell, as printed
    dice: str | None  # None when nothing is rolled
    plus: int  # hexes added to the dice
    eliminated: bool  # artillery: eliminated instead of routing
    removed: bool  # already at its own table edge: removed from play
    hexes_to_own_edge: int | None
    odds: Mapping[int, Fraction]  # hexes routed -> chance


@dataclass(frozen=True)
class RoutResult:
    step: RoutStep
    record: DiceRecord | None
    distance: int  # hexes the dice give
    hexes_moved: int  # no farther than its own table edge

    @property
    def removed(self) -> bool:
        return self.step.removed or self.step.eliminated

    @property
    def stopped_at_edge(self) -> bool:
        edge = self.step.hexes_to_own_edge
        return edge is not None and not self.removed and self.hexes_moved == edge

    @property
    def text(self) -> str:
        if self.step.eliminated:
            return self.step.cell
        if self.step.removed:
            return "forced to route from its sides table edge: removed from play"
        text = f"routs {self.hexes_moved} hex{'es' if self.hexes_moved != 1 else ''}, ignoring terrain effects"
        return text + (", stops at its sides table edge" if self.stopped_at_edge else "")


def rout_step(unit: Stands, hexes_to_own_edge: int | None = None) -> RoutStep:
    """The rout of the unit: its dice, or its elimination (artillery) or removal
    (a unit already at its own table edge)."""
    check_stands(unit, options(None))
    if hexes_to_own_edge is not None:
        whole("the hexes to the unit's own table edge", hexes_to_own_edge, 0)
    cell = get_table(RULESET, "rout").lookup(arm=unit.arm).text
    if unit.arm == "artillery":
        return RoutStep(unit.arm, cell, None, 0, True, False, hexes_to_own_edge, {0: Fraction(1)})
    if hexes_to_own_edge == 0:
        return RoutStep(unit.arm, cell, None, 0, False, True, 0, {0: Fraction(1)})
    plus, count, sides = dice_cell(cell)
    dice = f"{count}d{sides}"
    odds: dict[int, Fraction] = {}
    for roll, chance in roll_distribution(dice, plus).items():
        moved = roll if hexes_to_own_edge is None else min(roll, hexes_to_own_edge)
        odds[moved] = odds.get(moved, Fraction(0)) + chance
    return RoutStep(unit.arm, cell, dice, plus, False, False, hexes_to_own_edge, odds)


def resolve_rout(step: RoutStep, dice: DiceService, entered: Sequence[int] | None = None,
                 by: str = "umpire") -> RoutResult:
    if step.dice is None:
        return RoutResult(step, None, 0, 0)
    record = dice.roll(step.dice, f"route, {step.arm}: {step.cell} hexes", entered=entered, by=by)
    distance = record.result + step.plus
    edge = step.hexes_to_own_edge
    return RoutResult(step, record, distance, distance if edge is None else min(distance, edge))


def can_evade(unit: Stands) -> bool:
    """'Only skirmishing infantry (single stand in hex) and cavalry can evade.'"""
    return (unit.arm == "infantry" and unit.skirmishing and unit.count == 1) or unit.arm == "cavalry"


def evade_move(unit: Stands, overrides: Mapping[str, str] | None = None) -> Movement:
    """An evade in response to contact: a normal move away from the enemy, which
    does not affect the unit's movement next bound.  Disruption stops a unit moving
    in its own side's movement phase only; an evade is made in the enemy's."""
    if not can_evade(unit):
        raise RulesError("only skirmishing infantry (single stand in hex) and cavalry can evade")
    move = movement_allowance(replace(unit, disrupted=False), overrides=overrides)
    return Movement(move.hexes, move.cell, f"evade: {move.reason}")

"""Pursuit after a battle: the winner's cavalry bonus (CB) on the pursuit table.

The card: 'There is no pursuit in Mud weather'; 'If the weather is Snow or Rain:
- 1 to the dice' (combat.pursuit_modifiers).  A winner whose CB is below the
table's first column ('1 à 4') does not pursue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.allemagne1813.battle_setup import check_weather
from rules.allemagne1813.combat import RULESET, pursuit_modifiers
from rules.allemagne1813.rolls import cell_odds, column_index, read_cell, read_result
from rules.dice import DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.loader import get_table
from rules.options import resolve_options

TABLE = "pursuit"


@dataclass(frozen=True)
class PursuitStep:
    cavalry_bonus: int
    column: str  # the CB column as printed
    dice: str
    modifiers: tuple[Modifier, ...]
    odds: Mapping[str, Fraction]  # cell as printed -> chance

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def loss_odds(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for text, p in self.odds.items():
            n = read_result(TABLE, text)[0]
            out[n] = out.get(n, Fraction(0)) + p
        return dict(sorted(out.items()))


@dataclass(frozen=True)
class PursuitResult:
    step: PursuitStep
    record: DiceRecord
    row: int  # the printed row the modified roll read
    cell: str  # as printed, '-' for a blank cell
    sp_lost: int  # SP the pursued side loses (no more than it has)


def pursuit_step(
    cavalry_bonus: int, weather: str, options: Mapping[str, str] | None = None
) -> PursuitStep | None:
    """The pursuit roll of a winner with this CB, or None when there is none."""
    chosen = resolve_options(RULESET, options)
    check_weather(weather)
    if not isinstance(cavalry_bonus, int) or isinstance(cavalry_bonus, bool) or cavalry_bonus < 0:
        raise RulesError(f"the cavalry bonus must be a whole number of 0 or more, not {cavalry_bonus!r}")
    mods = pursuit_modifiers(weather)
    table = get_table(RULESET, TABLE)
    assert table.columns is not None and table.dice is not None
    if mods is None or cavalry_bonus < (table.columns.bands[0].low or 0):
        return None
    column = table.columns.index_of(cavalry_bonus)
    odds = cell_odds(TABLE, column, sum(m.value for m in mods), chosen)
    return PursuitStep(cavalry_bonus, table.columns.bands[column].label, table.dice, tuple(mods), odds)


def resolve_pursuit(
    step: PursuitStep,
    dice: DiceService,
    entered: Sequence[int] | None = None,
    options: Mapping[str, str] | None = None,
    *,
    room: int | None = None,
) -> PursuitResult:
    """Roll the pursuit; `room` is the SP the pursued side has left, if known.

    Under roll_below_table = ask_umpire a roll below the table is a RulesError
    after the roll is recorded: the umpire then types the SP lost himself."""
    chosen = resolve_options(RULESET, options)
    record = dice.roll(step.dice, f"pursuit, column {step.column}", step.modifiers, entered=entered)
    row, cell = read_cell(TABLE, column_index(TABLE, step.column), record.result, chosen)
    lost = cell.number if room is None else min(cell.number, room)
    return PursuitResult(step, record, row, cell.text, lost)

"""One modified roll read on one of the battle tables, and its exact odds.

Each table reads a modified roll off its printed rows by a named rules option
(read_roll): the nearest row, or the umpire reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache

from rules.allemagne1813.combat import RULESET, read_roll
from rules.errors import RulesError
from rules.loader import get_table
from rules.odds import roll_distribution
from rules.tables import Cell

# The option each table reads a roll off its rows by.  The artillery and pursuit
# dice only go off their tables downwards (Snow, Rain: -1), so the option for
# rolls below the table is the one that applies to them.
OFF_TABLE_OPTION = {
    "combat": "combat_roll_beyond_table",
    "artillery": "roll_below_table",
    "pursuit": "roll_below_table",
    "reconnaissance": "reconnaissance_roll_beyond_table",
}
UMPIRE_READS = "umpire decides"  # in odds: a roll off the table that the umpire reads
NOTHING = "-"  # a blank cell, or no column: nothing happens


def read_cell(table_id: str, column: int, roll: int, options: Mapping[str, str]) -> tuple[int, Cell]:
    """The printed row a modified roll reads and its cell; RulesError when the
    umpire must read it (option ask_umpire).  `options` are resolved options."""
    key = OFF_TABLE_OPTION[table_id]
    return _read_cell(table_id, column, roll, key, options[key])


@cache
def _read_cell(table_id: str, column: int, roll: int, option: str, choice: str) -> tuple[int, Cell]:
    table = get_table(RULESET, table_id)
    row = read_roll(table_id, roll, option, {option: choice})
    return row, Cell(table.cells[table.rows.index_of(row)][column], table)


def cell_odds(table_id: str, column: int | None, modifier: int, options: Mapping[str, str]) -> dict[str, Fraction]:
    """The exact chance of each cell (as printed, `-` for blank) of one roll;
    a roll the umpire must read counts under UMPIRE_READS, no column under NOTHING.
    `options` are resolved options."""
    key = OFF_TABLE_OPTION[table_id]
    return dict(_cell_odds(table_id, column, modifier, key, options[key]))


@cache
def _cell_odds(table_id: str, column: int | None, modifier: int, option: str, choice: str):
    if column is None:
        return ((NOTHING, Fraction(1)),)
    options = {option: choice}
    table = get_table(RULESET, table_id)
    out: dict[str, Fraction] = {}
    for roll, chance in roll_distribution(table.dice or "", modifier).items():
        try:
            text = read_cell(table_id, column, roll, options)[1].text
        except RulesError:
            text = UMPIRE_READS
        out[text] = out.get(text, Fraction(0)) + chance
    return tuple(out.items())


def column_index(table_id: str, label: str) -> int:
    columns = get_table(RULESET, table_id).columns
    assert columns is not None
    return [b.label for b in columns.bands].index(label)


def read_result(table_id: str, cell_text: str) -> tuple[int, bool]:
    """The number a cell gives (SP lost, or the reconnaissance result) and whether
    it carries the '*' of a morale test, from the cell as printed."""
    legend = get_table(RULESET, table_id).legend
    star = any(cell_text.endswith(mark) for mark in legend)
    digits = cell_text.rstrip("".join(legend)).strip()
    return (int(digits) if digits.isdigit() else 0), star

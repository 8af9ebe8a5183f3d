"""Independent cell-by-cell cross-check of the "Allemagne 1813" tables card.

Every expected value below was read directly from the damaged text copy of the
card, ../shared/seeds/000_af08e2398854582c.txt, WITHOUT looking at the data
files under rules/allemagne1813/.  The printed lines are quoted as they appear
on the card (blank cells lost); the grids are this reader's reconstruction.
A blank cell (the card prints nothing) is written "-" and a star is part of the
cell text ("3*", "Rain*").

Every cell is checked through the public API, `rules.lookup`.
"""

from __future__ import annotations

import re

import pytest

from rules import RulesError, lookup

RS = "allemagne1813"
B = "-"  # a blank cell


def _n(text: str) -> int:
    """Leading integer of a cell's text; a blank (or printed "-") counts 0."""
    m = re.match(r"^[+-]?\d+", text)
    return int(m[0]) if m else 0


def _squash(text: str) -> str:
    return "".join(text.split())


def _reads_back(printed: str, label: str, cells: list[str]) -> bool:
    """My grid row, blanks dropped, must give back the card's printed line."""
    kept = "".join(c for c in cells if c != B)
    return _squash(printed) == _squash(label + kept)


def _band_ends(bands: list[tuple[int, int | None]], beyond: int) -> list[tuple[int, int]]:
    """(value, column index) pairs: the low and the high end of every band; for
    an open upper end (high None), the printed low end and `beyond`."""
    out = []
    for i, (low, high) in enumerate(bands):
        out.append((low, i))
        out.append((high if high is not None else beyond, i))
    return out


# ---------------------------------------------------------------------------
# COMBAT TABLE
#
# Card:
#   dice 1-3 4-6 7-10 11-15 16-21 22-29 30-40 41-60 61-80 81 et +
#   -1 1
#   0 1 1
#   1 1 1 1
#   2 1 1 1 1
#   3 1 1 1 1 2
#   4 1 1 1 1 2 2
#   5 1 1 1 1 2 2 2 *
#   6 1 1 1 1 2 2 3 * 3
#   7 1 1 1 1 2 2 2 * 3 3
#   8 1 1 1 1 2 2 3 * 3 3 4
#   9 1 1 1 2 2 2 * 3 3 4 4
#   10 1 1 2 2 3 * 3 3 4 4 5
#
# Rebuilding the blanks: ten columns; rows -1..8 print 1, 2, ..., 10 values, so
# row r lost 8 - r cells (rows 9 and 10 are full).  Losses grow with the SP
# total, so the cells that vanished are the LEFT ones (small forces, bad rolls
# inflict nothing): every row is right-aligned.  This is confirmed by the stars:
# right-aligned, the starred cells of rows 5..10 fall in columns 10, 9, 8, 7, 6,
# 5 -- one anti-diagonal (roll + column = 15), as the README says they should,
# and every column then only grows with the roll.  Left-aligned, the stars would
# sit in columns 7, 7, 7, 7, 6, 5 and row -1 would give a loss to 1-3 SP but not
# to 81+ SP, which contradicts the table.  Note the starred values alternate
# 2*/3*/2*/3*... down the diagonal: that is what the card prints.
# ---------------------------------------------------------------------------

COMBAT_SP_BANDS = [(1, 3), (4, 6), (7, 10), (11, 15), (16, 21), (22, 29),
                   (30, 40), (41, 60), (61, 80), (81, None)]

COMBAT_PRINTED = {
    -1: "-1 1",
    0: "0 1 1",
    1: "1 1 1 1",
    2: "2 1 1 1 1",
    3: "3 1 1 1 1 2",
    4: "4 1 1 1 1 2 2",
    5: "5 1 1 1 1 2 2 2 *",
    6: "6 1 1 1 1 2 2 3 * 3",
    7: "7 1 1 1 1 2 2 2 * 3 3",
    8: "8 1 1 1 1 2 2 3 * 3 3 4",
    9: "9 1 1 1 2 2 2 * 3 3 4 4",
    10: "10 1 1 2 2 3 * 3 3 4 4 5",
}

#          1-3 4-6 7-10 11-15 16-21 22-29 30-40 41-60 61-80 81+
COMBAT = {
    -1: [B,   B,   B,   B,    B,    B,    B,    B,    B,    "1"],
    0:  [B,   B,   B,   B,    B,    B,    B,    B,    "1",  "1"],
    1:  [B,   B,   B,   B,    B,    B,    B,    "1",  "1",  "1"],
    2:  [B,   B,   B,   B,    B,    B,    "1",  "1",  "1",  "1"],
    3:  [B,   B,   B,   B,    B,    "1",  "1",  "1",  "1",  "2"],
    4:  [B,   B,   B,   B,    "1",  "1",  "1",  "1",  "2",  "2"],
    5:  [B,   B,   B,   "1",  "1",  "1",  "1",  "2",  "2",  "2*"],
    6:  [B,   B,   "1", "1",  "1",  "1",  "2",  "2",  "3*", "3"],
    7:  [B,   "1", "1", "1",  "1",  "2",  "2",  "2*", "3",  "3"],
    8:  ["1", "1", "1", "1",  "2",  "2",  "3*", "3",  "3",  "4"],
    9:  ["1", "1", "1", "2",  "2",  "2*", "3",  "3",  "4",  "4"],
    10: ["1", "1", "2", "2",  "3*", "3",  "3",  "4",  "4",  "5"],
}

COMBAT_CASES = [
    (roll, sp, COMBAT[roll][col])
    for roll in COMBAT
    for sp, col in _band_ends(COMBAT_SP_BANDS, beyond=200)
]


@pytest.mark.parametrize("roll", sorted(COMBAT))
def test_combat_grid_reads_back_as_printed(roll):
    assert _reads_back(COMBAT_PRINTED[roll], str(roll), COMBAT[roll])


@pytest.mark.parametrize(("roll", "sp", "expected"), COMBAT_CASES)
def test_combat_cell(roll, sp, expected):
    assert lookup(RS, "combat", roll=roll, sp=sp).text == expected


def test_combat_stars_lie_on_one_diagonal():
    stars = []
    for roll in range(-1, 11):
        for col, (low, _high) in enumerate(COMBAT_SP_BANDS):
            if "*" in lookup(RS, "combat", roll=roll, sp=low).text:
                stars.append((roll, col))
    # My reading: rows 5..10, columns 10..5 (0-based 9..4).
    assert stars == [(5, 9), (6, 8), (7, 7), (8, 6), (9, 5), (10, 4)]
    assert len({roll + col for roll, col in stars}) == 1
    assert len({roll for roll, _ in stars}) == len(stars)  # one per row


# ---------------------------------------------------------------------------
# ARTILLERY TABLE  (columns: Artillery Bonus)
#
# Card:
#   DICE 1 à 4 5 à 8 9 et +
#   1 - 3
#   4 1 1
#   5 1 1 1
#   6 1 1 2 *
#
# Rebuilding the blanks: three columns.  "1 - 3" is a row band (dice 1 to 3)
# with no cell printed: all three blank.  Row 4 prints two values for three
# columns; a bigger artillery bonus cannot inflict less, so the lost blank is
# the LEFT one (1 à 4) -- right-aligned, as in the combat table.  Rows 5 and 6
# are full.  The star of row 6 belongs to the last value ("2*").
# ---------------------------------------------------------------------------

BONUS_BANDS = [(1, 4), (5, 8), (9, None)]

ARTILLERY_PRINTED = {"1 - 3": "1 - 3", 4: "4 1 1", 5: "5 1 1 1", 6: "6 1 1 2 *"}
ARTILLERY = {  # row band (low, high): cells
    (1, 3): [B, B, B],
    (4, 4): [B, "1", "1"],
    (5, 5): ["1", "1", "1"],
    (6, 6): ["1", "1", "2*"],
}

# ---------------------------------------------------------------------------
# PURSUIT TABLE  (columns: Cavalry Bonus of the pursuing Force)
#
# Card:
#   DICE 1 à 4 5 à 8 9 et +
#   1 - 2
#   3 - 4 1 1
#   5 1 1 1
#   6 1 1 2
#
# Rebuilding the blanks: row bands "1 - 2" (no cell: all blank) and "3 - 4"
# (two values for three columns: blank lost at the left, a bigger cavalry bonus
# never pursues less well).  No star anywhere on this table.
# ---------------------------------------------------------------------------

PURSUIT_PRINTED = {"1 - 2": "1 - 2", "3 - 4": "3 - 4 1 1", 5: "5 1 1 1", 6: "6 1 1 2"}
PURSUIT = {
    (1, 2): [B, B, B],
    (3, 4): [B, "1", "1"],
    (5, 5): ["1", "1", "1"],
    (6, 6): ["1", "1", "2"],
}

# ---------------------------------------------------------------------------
# RECONNAISSANCE TABLE  (columns: differential in cavalry SP)
#
# Card:
#   DICE 1 à 2 3 à 4 5 et +
#   0
#   1 1
#   2 1 1
#   3 1 1 1
#   4 1 1 2
#   5 1 2 2
#   6 2 2 3
#   7 2 2 3
#   8 2 3 4
#
# Rebuilding the blanks: rows 0..8 (single rolls, no open end printed).  Row 0
# prints nothing (all blank); row 1 one value, row 2 two.  A larger differential
# never does worse, so blanks are lost at the LEFT: row 1 = (-, -, 1), row 2 =
# (-, 1, 1).  This keeps every column non-decreasing with the roll and every row
# non-decreasing with the differential.
# ---------------------------------------------------------------------------

DIFF_BANDS = [(1, 2), (3, 4), (5, None)]

RECON_PRINTED = {
    0: "0", 1: "1 1", 2: "2 1 1", 3: "3 1 1 1", 4: "4 1 1 2",
    5: "5 1 2 2", 6: "6 2 2 3", 7: "7 2 2 3", 8: "8 2 3 4",
}
RECON = {
    (0, 0): [B, B, B],
    (1, 1): [B, B, "1"],
    (2, 2): [B, "1", "1"],
    (3, 3): ["1", "1", "1"],
    (4, 4): ["1", "1", "2"],
    (5, 5): ["1", "2", "2"],
    (6, 6): ["2", "2", "3"],
    (7, 7): ["2", "2", "3"],
    (8, 8): ["2", "3", "4"],
}

# ---------------------------------------------------------------------------
# FORCED MARCH TABLE  (columns: Strength Points of the marching stack)
#
# Card:
#   DICE < 5 5 à 8 9 et +
#   1 - 3
#   4 1 1
#   5 1 1 1
#   6 1 1 2
#
# Rebuilding the blanks: same shape as the artillery table.  "1 - 3" is a row
# band with nothing printed (all blank); row 4 has lost its LEFT cell (a smaller
# stack never loses more).  The card prints row 6, not "6 et +", so a roll
# above 6 (possible with the Snow +1 / Mud +2 modifiers) is off the printed
# table; likewise a roll below 1.  "< 5" is open downwards.
# ---------------------------------------------------------------------------

FM_PRINTED = {"1 - 3": "1 - 3", 4: "4 1 1", 5: "5 1 1 1", 6: "6 1 1 2"}
FORCED_MARCH = {
    (1, 3): [B, B, B],
    (4, 4): [B, "1", "1"],
    (5, 5): ["1", "1", "1"],
    (6, 6): ["1", "1", "2"],
}
# (value, column): both ends of each band, and 0 beyond the open "< 5" end.
FM_SP_VALUES = [(0, 0), (1, 0), (4, 0), (5, 1), (8, 1), (9, 2), (200, 2)]


def _small_cases(grid, col_values):
    cases = []
    for (low, high), cells in grid.items():
        for roll in sorted({low, high}):
            for value, col in col_values:
                cases.append((roll, value, cells[col]))
    return cases


_BONUS_VALUES = _band_ends(BONUS_BANDS, beyond=50)
_DIFF_VALUES = _band_ends(DIFF_BANDS, beyond=50)

SMALL_TABLES = [
    ("artillery", "ab", ARTILLERY, _BONUS_VALUES),
    ("pursuit", "cb", PURSUIT, _BONUS_VALUES),
    ("reconnaissance", "differential", RECON, _DIFF_VALUES),
    ("forced_march", "sp", FORCED_MARCH, FM_SP_VALUES),
]

SMALL_CASES = [
    pytest.param(table, axis, roll, value, expected, id=f"{table}-roll{roll}-{axis}{value}")
    for table, axis, grid, col_values in SMALL_TABLES
    for roll, value, expected in _small_cases(grid, col_values)
]


@pytest.mark.parametrize(("table", "axis", "roll", "value", "expected"), SMALL_CASES)
def test_small_table_cell(table, axis, roll, value, expected):
    assert lookup(RS, table, roll=roll, **{axis: value}).text == expected


@pytest.mark.parametrize(
    ("printed", "grid"),
    [
        (ARTILLERY_PRINTED, ARTILLERY),
        (PURSUIT_PRINTED, PURSUIT),
        (RECON_PRINTED, RECON),
        (FM_PRINTED, FORCED_MARCH),
    ],
    ids=["artillery", "pursuit", "reconnaissance", "forced_march"],
)
def test_small_grids_read_back_as_printed(printed, grid):
    for (label, line), cells in zip(printed.items(), grid.values()):
        assert _reads_back(line, str(label), cells), line


# Monotonicity: down every column, the loss never decreases as the roll rises.
MONOTONE = [
    ("combat", "sp", range(-1, 11), [low for low, _ in COMBAT_SP_BANDS]),
    ("artillery", "ab", range(1, 7), [1, 5, 9]),
    ("pursuit", "cb", range(1, 7), [1, 5, 9]),
    ("reconnaissance", "differential", range(0, 9), [1, 3, 5]),
    ("forced_march", "sp", range(1, 7), [1, 5, 9]),
]


@pytest.mark.parametrize(("table", "axis", "rolls", "columns"), MONOTONE,
                         ids=[m[0] for m in MONOTONE])
def test_results_never_decrease_with_the_roll(table, axis, rolls, columns):
    for value in columns:
        numbers = [_n(lookup(RS, table, roll=r, **{axis: value}).text) for r in rolls]
        assert numbers == sorted(numbers), (table, axis, value, numbers)


# ---------------------------------------------------------------------------
# WEATHER TABLE
#
# Card (the heading cells came out as a column of month names, blank lines
# between some of them):
#   January / February // March // April / May / June // Juiy / August //
#   September // October / November / December
#   1 et - Clear Clear Clear Clear
#   2 Clear Clear Clear Clear
#   3 Clear Clear Clear Clear
#   4 Rain * Clear Clear Rain *
#   5 Snow Rain Clear Rain *
#   6 et + Snow Rain * Rain Snow
#   Modifiers: +1 to the dice in January, February, April, September and
#   December. -1 to the dice in March, June and July
#
# Rebuilding: every row prints four results and a weather table has no blank
# cell, so there are four columns.  The six groups of month names separated by
# blank lines must merge in order into four; the merge that fits is the four
# quarters Jan-Mar, Apr-Jun, Jul-Sep, Oct-Dec ({Jan,Feb}+{Mar},
# {Jul,Aug}+{Sep}).  It fits the results (Snow in the winter quarter and in
# Oct-Dec's top row, only Rain in Jul-Sep) and it explains the modifiers: each
# quarter has months pushed towards its neighbour season (March -1, April +1,
# June -1, July -1, September +1, December +1, January/February +1).
# "Juiy" is a misprint of July.  Rows "1 et -" and "6 et +" are open ends.
# ---------------------------------------------------------------------------

WEATHER_COLUMNS = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)]
WEATHER = {
    1: ["Clear", "Clear", "Clear", "Clear"],
    2: ["Clear", "Clear", "Clear", "Clear"],
    3: ["Clear", "Clear", "Clear", "Clear"],
    4: ["Rain*", "Clear", "Clear", "Rain*"],
    5: ["Snow", "Rain", "Clear", "Rain*"],
    6: ["Snow", "Rain*", "Rain", "Snow"],
}
WEATHER_ROLLS = {-3: 1, 0: 1, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 6, 10: 6}
WEATHER_CASES = [
    (roll, month, WEATHER[row][col])
    for roll, row in WEATHER_ROLLS.items()
    for col, months in enumerate(WEATHER_COLUMNS)
    for month in months
]


@pytest.mark.parametrize(("roll", "month", "expected"), WEATHER_CASES)
def test_weather_cell(roll, month, expected):
    assert lookup(RS, "weather", roll=roll, month=month).text == expected


MONTH_MODIFIER = {
    1: "+1", 2: "+1", 3: "-1", 4: "+1", 5: "0", 6: "-1",
    7: "-1", 8: "0", 9: "+1", 10: "0", 11: "0", 12: "+1",
}


@pytest.mark.parametrize(("month", "expected"), sorted(MONTH_MODIFIER.items()))
def test_weather_month_modifier(month, expected):
    assert lookup(RS, "weather_month_modifier", month=month).text == expected


# ---------------------------------------------------------------------------
# MOVEMENT TABLE
#
# Card:
#   Generals 8 / Cavalry 8 / Infantry 6 / Reserve artillery 6
#   * Reduce by 1 MP if the unit is out of command
#   Weather effects:
#   Rain and Snow: -1PM for all
#   Mud: -1PM for infantry and generals, -2PM for the cavalry,
#        -3PM for reserve artillery
#
# (The TERRAIN EFFECTS table on the same card says for Mud "-2 MP for cavalry
# and generals"; the brief asks for the MOVEMENT table's list, so generals in
# Mud read -1 here.  That conflict is for the umpire, not settled by this test.)
# Clear weather has no printed effect: "0".
# ---------------------------------------------------------------------------

MOVEMENT = {"general": "8", "cavalry": "8", "infantry": "6", "artillery": "6"}
MOVEMENT_WEATHER = {
    "clear": {"general": "0", "cavalry": "0", "infantry": "0", "artillery": "0"},
    "rain": {"general": "-1", "cavalry": "-1", "infantry": "-1", "artillery": "-1"},
    "snow": {"general": "-1", "cavalry": "-1", "infantry": "-1", "artillery": "-1"},
    "mud": {"general": "-1", "cavalry": "-2", "infantry": "-1", "artillery": "-3"},
}


@pytest.mark.parametrize(("unit", "expected"), sorted(MOVEMENT.items()))
def test_movement_allowance(unit, expected):
    assert lookup(RS, "movement", unit=unit).text == expected


@pytest.mark.parametrize(
    ("weather", "unit", "expected"),
    [(w, u, v) for w, row in MOVEMENT_WEATHER.items() for u, v in row.items()],
)
def test_movement_weather(weather, unit, expected):
    assert lookup(RS, "movement_weather", weather=weather, unit=unit).text == expected


# ---------------------------------------------------------------------------
# COMMAND POINTS
#
# Card:
#   Activate the commander-in-chief together with all the units with him 0 PC -
#   Activate a subordinate general with a stack of units 0 PC 1 PC
#   Activate a force without a general 1 PC 2 PC
#   Construct an entrenchment 2 PC 2 PC
# Columns: "If a valid LOC to the commander-in-chief", "No valid LOC to the
# commander-in-chief".  No cell was lost here: every row shows two costs, the
# first row's second cost being a printed "-".
# ---------------------------------------------------------------------------

COMMAND_POINTS = {
    "activate_cinc": {"valid": "0 PC", "none": "-"},
    "activate_general": {"valid": "0 PC", "none": "1 PC"},
    "activate_force": {"valid": "1 PC", "none": "2 PC"},
    "entrench": {"valid": "2 PC", "none": "2 PC"},
}


@pytest.mark.parametrize(
    ("action", "loc", "expected"),
    [(a, loc, v) for a, row in COMMAND_POINTS.items() for loc, v in row.items()],
)
def test_command_points(action, loc, expected):
    assert lookup(RS, "command_points", action=action, loc=loc).text == expected


# ---------------------------------------------------------------------------
# STACKING (maximum composition of stacks for movement, without the C-in-C)
#
# Card:  2 infantry + 1 cavalry / 1 infantry + 2 cavalry / 3 cavalry
# ---------------------------------------------------------------------------

STACKING = {
    1: {"infantry": "2", "cavalry": "1"},
    2: {"infantry": "1", "cavalry": "2"},
    3: {"infantry": "0", "cavalry": "3"},
}


@pytest.mark.parametrize(
    ("composition", "arm", "expected"),
    [(c, arm, v) for c, row in STACKING.items() for arm, v in row.items()],
)
def test_stacking(composition, arm, expected):
    assert lookup(RS, "stacking", composition=composition, arm=arm).text == expected


# ---------------------------------------------------------------------------
# Values off the printed table raise RulesError.
# ---------------------------------------------------------------------------

OFF_TABLE = [
    ("combat", {"roll": 11, "sp": 10}),
    ("combat", {"roll": -2, "sp": 10}),
    ("combat", {"roll": 5, "sp": 0}),
    ("combat", {"roll": 5, "sp": -4}),
    ("artillery", {"roll": 0, "ab": 5}),
    ("artillery", {"roll": 7, "ab": 5}),
    ("artillery", {"roll": 4, "ab": 0}),
    ("pursuit", {"roll": 0, "cb": 5}),
    ("pursuit", {"roll": 7, "cb": 5}),
    ("pursuit", {"roll": 4, "cb": 0}),
    ("reconnaissance", {"roll": -1, "differential": 3}),
    ("reconnaissance", {"roll": 9, "differential": 3}),
    ("reconnaissance", {"roll": 4, "differential": 0}),
    ("forced_march", {"roll": 0, "sp": 5}),
    ("forced_march", {"roll": 7, "sp": 5}),
    ("weather", {"roll": 3, "month": 0}),
    ("weather", {"roll": 3, "month": 13}),
    ("weather_month_modifier", {"month": 0}),
    ("weather_month_modifier", {"month": 13}),
    ("movement", {"unit": "dummy"}),
    ("movement_weather", {"weather": "fog", "unit": "infantry"}),
    ("movement_weather", {"weather": "rain", "unit": "dummy"}),
    ("command_points", {"action": "forage", "loc": "valid"}),
    ("command_points", {"action": "entrench", "loc": "maybe"}),
    ("stacking", {"composition": 0, "arm": "infantry"}),
    ("stacking", {"composition": 4, "arm": "cavalry"}),
    ("stacking", {"composition": 1, "arm": "artillery"}),
    ("combat", {"roll": 5}),  # missing axis
    ("combat", {"roll": 5, "sp": 10, "ab": 3}),  # unknown axis
]


@pytest.mark.parametrize(("table", "axes"), OFF_TABLE,
                         ids=[f"{t}-{'-'.join(f'{k}{v}' for k, v in a.items())}" for t, a in OFF_TABLE])
def test_off_the_table_raises(table, axes):
    with pytest.raises(RulesError):
        lookup(RS, table, **axes)

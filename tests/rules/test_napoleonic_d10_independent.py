"""An independent reading of the napoleonic_d10 card, checked cell by cell.

The card is the damaged text copy ../shared/seeds/001_c4de82bc21018f2c.txt.
These grids were read from the card alone, without looking at the rule set's
data, its `rules show` layout or its other tests, and are compared with the
code only through the public API, `rules.lookup`. The tables are the three
that issue 9 names under "Tables checked by lookup": morale, fire and
crash_through.

On this card `³�` stands for a lost ≥ or ≤: a leading `³�13` is "≥13" and a
trailing `0³�` is "≤0" (the same pattern as the movement heading
`³�12 ... 2³�` and the skirmish heading `³�8 ... 1³�`).

Every cell is checked at every whole value of its band, so the band edges are
checked too; an open end printed on the card ("≥13", "15+", "12+", "3-") is
checked a little beyond the printed number as well.
"""

from __future__ import annotations

import pytest

from rules import lookup

RS = "napoleonic_d10"


def _values(band: tuple[int, int]) -> range:
    low, high = band
    return range(low, high + 1)


# ---------------------------------------------------------------------------
# MORALE  morale(roll, cw)
#
# Card (first lines of the file):
#   ³�13 11–12 9–10 7–8 5–6 3–4 1–2 0³�
#
#   18–19 NE NE NE NE NE NE NE SH
#   16–17 NE NE NE NE NE NE SH SH
#   14–15 NE NE NE NE NE NE SH DO
#   12–13 NE NE NE NE NE SH DO DOR
#   9–11 NE NE NE NE SH DO DOR Brok
#   6–8 NE NE NE SH DO DOR Brok Rout
#   3–5 NE DO DOR Brok Brok Rout Rout Surr
#   0–2 NE DOR Brok Brok Rout Rout Surr Surr
#
#   CW
#   level
#
#   ROLL DICE PER CLASS
#
# Reading: eight column headings, CW level ≥13 down to ≤0; eight rows of the
# modified roll, 18–19 down to 0–2. Every row keeps all eight cells, so no
# blank cell was lost and nothing had to be rebuilt. The grid is consistent
# with itself: results only worsen to the right (lower CW) and downwards
# (lower roll). The CW level runs 0–19 on this card (the movement modifiers
# print "15–19 CW +1" and "0–7 CW -1"), so "≥13" covers 13–19 and "≤0" is 0.
# The roll rows are printed closed at both ends (0–2 and 18–19, no "+" or
# "-"), so only 0–19 is checked, as issue 9 states.

MORALE_CW = [(13, 19), (11, 12), (9, 10), (7, 8), (5, 6), (3, 4), (1, 2), (0, 0)]
MORALE = {
    (18, 19): ["NE", "NE", "NE", "NE", "NE", "NE", "NE", "SH"],
    (16, 17): ["NE", "NE", "NE", "NE", "NE", "NE", "SH", "SH"],
    (14, 15): ["NE", "NE", "NE", "NE", "NE", "NE", "SH", "DO"],
    (12, 13): ["NE", "NE", "NE", "NE", "NE", "SH", "DO", "DOR"],
    (9, 11): ["NE", "NE", "NE", "NE", "SH", "DO", "DOR", "Brok"],
    (6, 8): ["NE", "NE", "NE", "SH", "DO", "DOR", "Brok", "Rout"],
    (3, 5): ["NE", "DO", "DOR", "Brok", "Brok", "Rout", "Rout", "Surr"],
    (0, 2): ["NE", "DOR", "Brok", "Brok", "Rout", "Rout", "Surr", "Surr"],
}

MORALE_CASES = [
    pytest.param(roll, cw, text, id=f"roll{roll}-cw{cw}")
    for rolls, row in MORALE.items()
    for cws, text in zip(MORALE_CW, row, strict=True)
    for roll in _values(rolls)
    for cw in _values(cws)
]
# The printed open end "≥13" beyond the card's CW scale.
MORALE_OPEN_CASES = [
    pytest.param(roll, 25, MORALE[rolls][0], id=f"roll{roll}-cw25")
    for rolls in MORALE
    for roll in _values(rolls)
]


def test_morale_grid_shape():
    rolls = sorted(v for band in MORALE for v in _values(band))
    assert rolls == list(range(20))
    cws = sorted(v for band in MORALE_CW for v in _values(band))
    assert cws == list(range(20))
    assert all(len(row) == len(MORALE_CW) for row in MORALE.values())


@pytest.mark.parametrize(("roll", "cw", "expected"), MORALE_CASES)
def test_morale(roll, cw, expected):
    assert lookup(RS, "morale", roll=roll, cw=cw).text == expected


@pytest.mark.parametrize(("roll", "cw", "expected"), MORALE_OPEN_CASES)
def test_morale_open_top_cw(roll, cw, expected):
    assert lookup(RS, "morale", roll=roll, cw=cw).text == expected


# ---------------------------------------------------------------------------
# FIRE  fire(roll, stands)
#
# Card:
#   15+ 14 13 12–10 9–7 6–4 3 2 1 0
#
#   Half 1 1 0 0 0 0 0 0 0 0 1
#   1 3 3 2 2 1 1 0 0 0 0 2
#   2 5 4 4 3 3 2 2 1 1 0 4
#   3 6 5 5 4 4 3 3 2 2 1 6
#   4 7 6 6 5 5 4 4 3 3 2 8
#   5 8 7 7 6 6 5 5 4 4 3 10
#   6 9 8 8 7 7 6 6 5 5 4 12
#   7 10 9 9 8 8 7 7 6 6 5
#   8 11 10 10 9 9 8 8 7 7 6
#   9 12 11 11 10 10 9 9 8 8 7
#
#   inf/cav
#   stands
#
#   Roll 1d10 plus Mods Arty
#   tubes
#   ...
#   • Rolls modified to 0³� = NE
#
# Reading: ten roll columns, 15+ down to 0 (12–10, 9–7 and 6–4 are the bands
# 10–12, 7–9 and 4–6). Rows Half to 6 carry twelve numbers: the row label,
# ten cells, and a last number (1, 2, 4, 6, 8, 10, 12) that is the separate
# "Arty tubes" column on the right of the table (the tubes that fire on that
# stands line), not a cell of the roll grid; rows 7 to 9 have no tubes entry
# and carry exactly ten cells. So no cell was lost. Each row only falls from
# left to right and each column only grows with the stands, as a casualty
# table should. The note "Rolls modified to 0³� = NE" makes a roll modified
# to 0 or less NE, yet the 0 column prints casualties (1 to 7 from 3 stands
# up): the lookup reads the column as printed, and whether the fire roll ever
# reaches it is option fire_roll_zero (default: the note, NE), checked in
# test_napoleonic_d10_procedures.py.

FIRE_ROLLS = [(15, 15), (14, 14), (13, 13), (10, 12), (7, 9), (4, 6), (3, 3), (2, 2), (1, 1), (0, 0)]
FIRE = {
    "half": [1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
    1: [3, 3, 2, 2, 1, 1, 0, 0, 0, 0],
    2: [5, 4, 4, 3, 3, 2, 2, 1, 1, 0],
    3: [6, 5, 5, 4, 4, 3, 3, 2, 2, 1],
    4: [7, 6, 6, 5, 5, 4, 4, 3, 3, 2],
    5: [8, 7, 7, 6, 6, 5, 5, 4, 4, 3],
    6: [9, 8, 8, 7, 7, 6, 6, 5, 5, 4],
    7: [10, 9, 9, 8, 8, 7, 7, 6, 6, 5],
    8: [11, 10, 10, 9, 9, 8, 8, 7, 7, 6],
    9: [12, 11, 11, 10, 10, 9, 9, 8, 8, 7],
}

FIRE_CASES = [
    pytest.param(roll, stands, str(steps), id=f"roll{roll}-stands{stands}")
    for stands, row in FIRE.items()
    for rolls, steps in zip(FIRE_ROLLS, row, strict=True)
    for roll in _values(rolls)
]
# The printed open end "15+".
FIRE_OPEN_CASES = [
    pytest.param(roll, stands, str(row[0]), id=f"roll{roll}-stands{stands}")
    for stands, row in FIRE.items()
    for roll in (16, 20, 25)
]


def test_fire_grid_shape():
    rolls = sorted(v for band in FIRE_ROLLS for v in _values(band))
    assert rolls == list(range(16))
    assert all(len(row) == len(FIRE_ROLLS) for row in FIRE.values())
    rows = list(FIRE.values())
    for row in rows:  # falls as the roll falls
        assert all(a >= b for a, b in zip(row, row[1:]))
    for upper, lower in zip(rows, rows[1:]):  # grows with the stands
        assert all(a <= b for a, b in zip(upper, lower))


@pytest.mark.parametrize(("roll", "stands", "expected"), FIRE_CASES + FIRE_OPEN_CASES)
def test_fire(roll, stands, expected):
    assert lookup(RS, "fire", roll=roll, stands=stands).text == expected


# ---------------------------------------------------------------------------
# CRASH THROUGH  crash_through(roll)
#
# Card:
#   Crash Through
#   12+ NE
#
#   10-11 Smk
#
#   4-9 Smk/Shaken
#
#   3- Smk/DO
#
# Reading: four bands of the modified roll, open at both ends: 12 or more is
# NE, 10–11 Smk, 4–9 Smk/Shaken, 3 or less Smk/DO. Nothing was lost. A
# modified roll can fall below 0, and "3-" covers it too.

CRASH_THROUGH = [
    ((12, 25), "NE"),
    ((10, 11), "Smk"),
    ((4, 9), "Smk/Shaken"),
    ((-5, 3), "Smk/DO"),
]

CRASH_CASES = [
    pytest.param(roll, text, id=f"roll{roll}")
    for rolls, text in CRASH_THROUGH
    for roll in _values(rolls)
]


@pytest.mark.parametrize(("roll", "expected"), CRASH_CASES)
def test_crash_through(roll, expected):
    assert lookup(RS, "crash_through", roll=roll).text == expected

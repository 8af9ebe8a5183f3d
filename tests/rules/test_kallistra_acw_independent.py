"""Independent cross-check of the kallistra_acw tables (seed 002).

Read from ../shared/seeds/002_4559601f68b00eee.txt alone, without the
rule set's data, code or tests, for the tables issue 6 names under "Tables
checked by lookup". Each grid below is this reading, written out in full; every
cell is checked through ``rules.lookup``. ``-`` stands for a blank (or printed
``-``) cell: the weapon cannot reach, the arm cannot move there.

Where this reading disagrees with the code, the case is kept with this
reading's value and marked ``xfail(strict=True)`` with both readings.
"""

import pytest

import rules

RULESET = "kallistra_acw"


# ---------------------------------------------------------------------------
# small_arms(weapon, range, class)
#
# The card, as extracted:
#
#   Firing (small arms) 1 x D12 per stand
#   Range
#   1 hex
#   Weapon
#   E  R  2 hex  M  E  R  3 hex  M  E  R  4 hex  M
#   Smoothbore musket (SM)
#   5+ 6+ 7+
#   10+ 11+ 12+
#   Rifle musket (RM)
#   4+ 5+ 6+
#   6+ 7+ 8+
#   9+ 10+ 11+
#   Sharp shooter rifle (SR)
#   3+ 4+ 5+
#   4+ 5+ 6+
#   7+ 8+ 9+
#   Rifled carbine (RC)
#   2+ 3+ 4+
#   5+ 6+ 7+
#   10+ 11+ 12+
#   Smoothbore carbine or shotgun (SS)
#   6+ 7+ 8+
#   10+ 11+ 12+
#   +2 target behind wall, + 1 behind fence, +2 target in wood, +2 skirmishing infantry
#
#   E
#   9+
#   -
#
#   R
#
#   M
#
#   10+ 11+
#   -
#
# Reading. Four range groups (1, 2, 3, 4 hex) of three classes (E, R, M):
# twelve columns. Each row's triples are E/R/M of consecutive range groups
# starting at 1 hex (within a triple E < R < M; along a row the numbers only
# grow with range, so the blanks are at the long end, never in the middle).
# SM and SS print two triples (1 and 2 hex), RM, SR and RC three (1-3 hex).
#
# The 4 hex column came loose and was printed after the modifiers line: its
# E cells are "9+" then "-", its R and M cells "10+ 11+" then "-". So two
# rows have something printed at 4 hex: first "9+ 10+ 11+", then dashes.
# "9+ 10+ 11+" can only follow SR's 3 hex "7+ 8+ 9+" (RM's 3 hex is already
# 9+ 10+ 11+ and RC's 10+ 11+ 12+, so neither could keep growing to 9+ at
# 4 hex); the sharp shooter rifle is the long-range weapon. The dashes come
# after it, i.e. on RC (printed "-" at 4 hex). Every other 4 hex cell is
# blank. Blank and "-" both read "-" through lookup, so which row carries
# the printed dashes does not change any cell.

CLASSES = ("E", "R", "M")

SMALL_ARMS = {
    #       1 hex                2 hex                   3 hex                   4 hex
    "SM": (("5+", "6+", "7+"), ("10+", "11+", "12+"), ("-", "-", "-"), ("-", "-", "-")),
    "RM": (("4+", "5+", "6+"), ("6+", "7+", "8+"), ("9+", "10+", "11+"), ("-", "-", "-")),
    "SR": (("3+", "4+", "5+"), ("4+", "5+", "6+"), ("7+", "8+", "9+"), ("9+", "10+", "11+")),
    "RC": (("2+", "3+", "4+"), ("5+", "6+", "7+"), ("10+", "11+", "12+"), ("-", "-", "-")),
    "SS": (("6+", "7+", "8+"), ("10+", "11+", "12+"), ("-", "-", "-"), ("-", "-", "-")),
}

SMALL_ARMS_CASES = [
    (weapon, rng, cls, bands[rng - 1][i])
    for weapon, bands in SMALL_ARMS.items()
    for rng in (1, 2, 3, 4)
    for i, cls in enumerate(CLASSES)
]

# Disagreements with the code, if any: (weapon, range, class) -> reason.
SMALL_ARMS_DISAGREE: dict[tuple[str, int, str], str] = {}


def _cases(cases, disagree, key_len):
    out = []
    for case in cases:
        key = case[:key_len]
        marks = []
        if key in disagree:
            marks.append(pytest.mark.xfail(strict=True, reason=disagree[key]))
        out.append(pytest.param(*case, marks=marks, id="-".join(str(k) for k in key)))
    return out


@pytest.mark.parametrize(
    "weapon, rng, cls, expected", _cases(SMALL_ARMS_CASES, SMALL_ARMS_DISAGREE, 3)
)
def test_small_arms(weapon, rng, cls, expected):
    cell = rules.lookup(RULESET, "small_arms", weapon=weapon, range=rng, **{"class": cls})
    assert cell.text == expected


# ---------------------------------------------------------------------------
# charge(troop)
#
#   Charging into contact (1D12 per stand)[Up to 6 stands max per hex for
#   infantry, and 4 for cavalry.]
#   Troop Type
#   D12 score to hit
#   Elite infantry
#   Regular infantry
#   Militia
#   Mounted Cavalry
#   Dismounted Cavalry
#   5+
#   7+
#   9+
#   4+
#   8+
#
# Reading: five troop types, five scores, in the same order (column-wise
# extraction of a two-column table with no blank cells).

CHARGE = {
    "elite_infantry": "5+",
    "regular_infantry": "7+",
    "militia": "9+",
    "mounted_cavalry": "4+",
    "dismounted_cavalry": "8+",
}

CHARGE_DISAGREE: dict[tuple[str], str] = {}


@pytest.mark.parametrize(
    "troop, expected", _cases(list(CHARGE.items()), CHARGE_DISAGREE, 1)
)
def test_charge(troop, expected):
    assert rules.lookup(RULESET, "charge", troop=troop).text == expected


# ---------------------------------------------------------------------------
# stand(class)
#
#   Role 1D6. The charged unit must achieve a score greater than
#   shown below to stand.
#   Elite/Veteran 2
#   Regular
#   3
#   Green/Militia 4
#
# Reading: the score to beat (the roll must be greater than it).

STAND = {"elite": "2", "regular": "3", "green": "4"}

STAND_DISAGREE: dict[tuple[str], str] = {}


@pytest.mark.parametrize("cls, expected", _cases(list(STAND.items()), STAND_DISAGREE, 1))
def test_stand(cls, expected):
    assert rules.lookup(RULESET, "stand", **{"class": cls}).text == expected


# ---------------------------------------------------------------------------
# combat(hits, class)
#
#   Combat Table
#   Number
#   of Hits
#   Elite/Veteran  Regular  Militia/Recruit Green  Artillery  Mounted Cavalry
#
#   1  No effect | No effect | Disrupted | No effect | Disrupted
#   2  No effect | Disrupted | 1 stand lost, Recoil, Disrupted | Disrupted |
#      1 stand lost, Disrupted
#   3  1 stand lost | 1 stand lost, Disrupted | 2 stands lost, Route, Disrupted |
#      1 stand lost, Disrupted | 2 stands lost, Route, Disrupted
#   4  1 stand lost, Recoil | 1 stand lost, Recoil, Disrupted |
#      3 stands lost, Route, Disrupted | 2 stands lost, Disrupted |
#      3 stands lost, Disrupted
#   5  2 stands lost, Recoil, Disrupted | 2 stands lost, Route, Disrupted |
#      4 stands lost, Route, Disrupted | 3 stands lost, Disrupted | Eliminated
#   6  3 stands lost, Route, Disrupted | 3 stands lost, Route, Disrupted |
#      5 stands lost, Eliminated | Eliminated | Eliminated
#   7  4 stands lost, Route, Disrupted | 4 stands lost, Route, disrupted |
#      Eliminated | Eliminated | Eliminated
#   8  Eliminated | Eliminated | Eliminated | Eliminated | Eliminated
#
# (The extraction puts each cell on its own lines, the lines of one cell
# broken at the commas; "|" above marks the cell boundaries.) Reading: five
# class columns ("Militia/Recruit" and "Green" are the two lines of one
# heading: every row has exactly five cells), no blank cell anywhere. A cell's
# lines are joined with a space. The card's own oddities are kept as printed:
# Mounted Cavalry 4 hits has no Route while 3 hits has; Militia 6 hits reads
# "5 stands lost, Eliminated"; Regular 7 hits prints "disrupted" in lower case.

COMBAT_CLASSES = ("elite", "regular", "militia", "artillery", "cavalry")

COMBAT = {
    1: ("No effect", "No effect", "Disrupted", "No effect", "Disrupted"),
    2: (
        "No effect",
        "Disrupted",
        "1 stand lost, Recoil, Disrupted",
        "Disrupted",
        "1 stand lost, Disrupted",
    ),
    3: (
        "1 stand lost",
        "1 stand lost, Disrupted",
        "2 stands lost, Route, Disrupted",
        "1 stand lost, Disrupted",
        "2 stands lost, Route, Disrupted",
    ),
    4: (
        "1 stand lost, Recoil",
        "1 stand lost, Recoil, Disrupted",
        "3 stands lost, Route, Disrupted",
        "2 stands lost, Disrupted",
        "3 stands lost, Disrupted",
    ),
    5: (
        "2 stands lost, Recoil, Disrupted",
        "2 stands lost, Route, Disrupted",
        "4 stands lost, Route, Disrupted",
        "3 stands lost, Disrupted",
        "Eliminated",
    ),
    6: (
        "3 stands lost, Route, Disrupted",
        "3 stands lost, Route, Disrupted",
        "5 stands lost, Eliminated",
        "Eliminated",
        "Eliminated",
    ),
    7: (
        "4 stands lost, Route, Disrupted",
        "4 stands lost, Route, disrupted",
        "Eliminated",
        "Eliminated",
        "Eliminated",
    ),
    8: ("Eliminated",) * 5,
}

COMBAT_CASES = [
    (hits, cls, row[i])
    for hits, row in COMBAT.items()
    for i, cls in enumerate(COMBAT_CLASSES)
]

COMBAT_DISAGREE: dict[tuple[int, str], str] = {}


@pytest.mark.parametrize("hits, cls, expected", _cases(COMBAT_CASES, COMBAT_DISAGREE, 2))
def test_combat(hits, cls, expected):
    assert rules.lookup(RULESET, "combat", hits=hits, **{"class": cls}).text == expected


# ---------------------------------------------------------------------------
# movement(arm, formation)
#
#   Movement
#   Infantry
#   Cavalry
#   Artillery
#
#   Line
#
#   Column
#
#   March Column
#   along road
#
#   Woods, River,
#   Linear obstacle
#
#   2
#   4
#   2
#
#   3
#   5
#   3
#
#   4
#   7
#   5
#
#   1
#   1
#   -
#
# Reading: four groups of three numbers = four formation columns of three arm
# rows, extracted column by column (three rows of four would be three groups
# of four). So Line 2/4/2, Column 3/5/3, March column 4/7/5, Woods/River/
# Linear obstacle 1/1/- for infantry/cavalry/artillery. Each arm's moves grow
# line < column < march column, which confirms the orientation; artillery's
# printed "-" in woods etc. means it cannot move there.

MOVEMENT_FORMATIONS = ("line", "column", "march_column", "difficult")

MOVEMENT = {
    "infantry": ("2", "3", "4", "1"),
    "cavalry": ("4", "5", "7", "1"),
    "artillery": ("2", "3", "5", "-"),
}

MOVEMENT_CASES = [
    (arm, formation, row[i])
    for arm, row in MOVEMENT.items()
    for i, formation in enumerate(MOVEMENT_FORMATIONS)
]

MOVEMENT_DISAGREE: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize(
    "arm, formation, expected", _cases(MOVEMENT_CASES, MOVEMENT_DISAGREE, 2)
)
def test_movement(arm, formation, expected):
    assert rules.lookup(RULESET, "movement", arm=arm, formation=formation).text == expected

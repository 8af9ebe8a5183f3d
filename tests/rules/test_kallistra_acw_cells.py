"""Every cell of the tables of Kallistra's ACW hex rules, checked against the card.

The card is the damaged text copy ../shared/seeds/002_4559601f68b00eee.txt.
Each block below quotes the card's lines as they survive (blank cells lost,
columns printed one after the other), then writes the grid as read, line by
line, and checks every cell through the public API, `rules.lookup`.
A blank cell (the card prints nothing) and a printed "-" both read "-".
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import pairwise

import pytest

from rules import RulesError, get_table, load_ruleset, lookup
from rules.layout import render_table
from rules.odds import roll_distribution, table_distribution

RS = "kallistra_acw"
B = "-"  # a blank cell, or the card's "-": the weapon cannot reach, the arm cannot move


def _n(text: str) -> int:
    m = re.match(r"^[+-]?\d+", text)
    return int(m[0]) if m else 0


def _squash(text: str) -> str:
    return "".join(text.split())


# ---------------------------------------------------------------------------
# FIRING (SMALL ARMS)  small_arms(weapon, range, class)
#
# Card:
#   Range / 1 hex / Weapon / E R / 2 hex / M / E R / 3 hex / M / E R / 4 hex / M
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
#   E / 9+ / -  /  R / M / 10+ 11+ / -
#
# Reading: each weapon's groups of three (E R M) fill the ranges from 1 hex on;
# a weapon reaches no range past its last group.  The 4 hex column, thrown after
# the modifier line, holds "9+ 10+ 11+" and "-": the 9+ row is the sharpshooter
# rifle (7+ at 3 hex; every weapon's number gets worse with each hex), the "-"
# the rifled carbine.  Either way every other 3-4 hex cell reads "-".
# ---------------------------------------------------------------------------

SMALL_ARMS_PRINTED = {
    "SM": ["5+ 6+ 7+", "10+ 11+ 12+"],
    "RM": ["4+ 5+ 6+", "6+ 7+ 8+", "9+ 10+ 11+"],
    "SR": ["3+ 4+ 5+", "4+ 5+ 6+", "7+ 8+ 9+", "9+ 10+ 11+"],  # the last from the 4 hex column
    "RC": ["2+ 3+ 4+", "5+ 6+ 7+", "10+ 11+ 12+"],
    "SS": ["6+ 7+ 8+", "10+ 11+ 12+"],
}

#                 E      R      M
SMALL_ARMS = {
    "SM": {1: ["5+", "6+", "7+"], 2: ["10+", "11+", "12+"], 3: [B, B, B], 4: [B, B, B]},
    "RM": {1: ["4+", "5+", "6+"], 2: ["6+", "7+", "8+"], 3: ["9+", "10+", "11+"], 4: [B, B, B]},
    "SR": {1: ["3+", "4+", "5+"], 2: ["4+", "5+", "6+"], 3: ["7+", "8+", "9+"], 4: ["9+", "10+", "11+"]},
    "RC": {1: ["2+", "3+", "4+"], 2: ["5+", "6+", "7+"], 3: ["10+", "11+", "12+"], 4: [B, B, B]},
    "SS": {1: ["6+", "7+", "8+"], 2: ["10+", "11+", "12+"], 3: [B, B, B], 4: [B, B, B]},
}
CLASSES = ["E", "R", "M"]

SMALL_ARMS_CASES = [
    (weapon, rng, cls, SMALL_ARMS[weapon][rng][i])
    for weapon in SMALL_ARMS
    for rng in range(1, 5)
    for i, cls in enumerate(CLASSES)
]


@pytest.mark.parametrize("weapon", sorted(SMALL_ARMS))
def test_small_arms_grid_reads_back_as_printed(weapon):
    printed_cells = [c for rng in range(1, 5) for c in SMALL_ARMS[weapon][rng] if c != B]
    assert _squash(" ".join(printed_cells)) == _squash(" ".join(SMALL_ARMS_PRINTED[weapon]))


@pytest.mark.parametrize(("weapon", "rng", "cls", "expected"), SMALL_ARMS_CASES)
def test_small_arms_cell(weapon, rng, cls, expected):
    assert lookup(RS, "small_arms", weapon=weapon, range=rng, **{"class": cls}).text == expected


@pytest.mark.parametrize("weapon", sorted(SMALL_ARMS))
def test_small_arms_gets_harder_with_range_and_worse_class(weapon):
    for rng in range(1, 5):
        row = [_n(lookup(RS, "small_arms", weapon=weapon, range=rng, **{"class": c}).text) for c in CLASSES]
        if row[0]:
            assert row[0] < row[1] < row[2]  # E shoots better than R, R than M
    for cls in CLASSES:
        col = [_n(lookup(RS, "small_arms", weapon=weapon, range=r, **{"class": cls}).text) for r in range(1, 5)]
        reached = [v for v in col if v]
        assert col[: len(reached)] == reached  # no gap: a weapon reaches every shorter range
        assert all(a < b for a, b in pairwise(reached))  # strictly harder each hex


def test_small_arms_reach():
    reach = {w: max(r for r in range(1, 5) if SMALL_ARMS[w][r][0] != B) for w in SMALL_ARMS}
    assert reach == {"SM": 2, "RM": 3, "SR": 4, "RC": 3, "SS": 2}


@pytest.mark.parametrize("bad", [{"weapon": "XX", "range": 1, "class": "E"},
                                 {"weapon": "SM", "range": 5, "class": "E"},
                                 {"weapon": "SM", "range": 0, "class": "E"},
                                 {"weapon": "SM", "range": 1, "class": "elite"}])
def test_small_arms_values_off_the_card(bad):
    with pytest.raises(RulesError):
        lookup(RS, "small_arms", **bad)


# ---------------------------------------------------------------------------
# SMALL-ARMS MODIFIERS  small_arms_modifiers(situation)
#
# Card:
#   +2 target behind wall, + 1 behind fence, +2 target in wood, +2 skirmishing infantry
# ---------------------------------------------------------------------------

SMALL_ARMS_MODIFIERS = {"wall": "+2", "fence": "+1", "wood": "+2", "skirmishing_infantry": "+2"}


@pytest.mark.parametrize(("situation", "expected"), SMALL_ARMS_MODIFIERS.items())
def test_small_arms_modifier_cell(situation, expected):
    assert lookup(RS, "small_arms_modifiers", situation=situation).text == expected


# ---------------------------------------------------------------------------
# CHARGING INTO CONTACT  charge(troop)
#
# Card:
#   Charging into contact (1D12 per stand)[Up to 6 stands max per hex for infantry, and 4 for cavalry.]
#   Troop Type / D12 score to hit
#   Elite infantry / Regular infantry / Militia / Mounted Cavalry / Dismounted Cavalry
#   5+ / 7+ / 9+ / 4+ / 8+
#
# Reading: the n-th score belongs to the n-th troop type.
# ---------------------------------------------------------------------------

CHARGE = {
    "elite_infantry": "5+",
    "regular_infantry": "7+",
    "militia": "9+",
    "mounted_cavalry": "4+",
    "dismounted_cavalry": "8+",
}


@pytest.mark.parametrize(("troop", "expected"), CHARGE.items())
def test_charge_cell(troop, expected):
    assert lookup(RS, "charge", troop=troop).text == expected


def test_charge_better_infantry_hits_more_easily():
    scores = [_n(lookup(RS, "charge", troop=t).text) for t in ("elite_infantry", "regular_infantry", "militia")]
    assert scores == sorted(scores) and len(set(scores)) == 3


def test_charge_unknown_troop():
    with pytest.raises(RulesError, match="troop"):
        lookup(RS, "charge", troop="artillery")


# ---------------------------------------------------------------------------
# RESPONSE TO CHARGE  stand(class), response_modifiers(situation)
#
# Card:
#   Role 1D6. The charged unit must achieve a score greater than shown below to stand.
#   Elite/Veteran 2
#   Regular
#   3
#   Green/Militia 4
#   Modifiers:- -1 uphill of chargers, -2 defending linear obstacle, -1 defending wood hex,
#   -1 brigade commander within 2 hexes, +2 outnumbered 2:1 by chargers.
# ---------------------------------------------------------------------------

STAND_PRINTED = {"elite": "Elite/Veteran 2", "regular": "Regular 3", "green": "Green/Militia 4"}
STAND = {"elite": "2", "veteran": "2", "regular": "3", "green": "4", "militia": "4"}

RESPONSE_MODIFIERS = {
    "uphill": "-1",
    "linear_obstacle": "-2",
    "wood": "-1",
    "brigade_commander": "-1",
    "outnumbered": "+2",
}


@pytest.mark.parametrize(("cls", "expected"), STAND.items())
def test_stand_cell(cls, expected):
    assert lookup(RS, "stand", **{"class": cls}).text == expected


def test_stand_rows_read_back_as_printed():
    table = get_table(RS, "stand")
    for band, printed in zip(table.rows.bands, STAND_PRINTED.values()):
        assert _squash(printed) == _squash(band.label + table.lookup(**{"class": band.names[0]}).text)


def test_stand_worse_class_needs_more():
    assert [int(STAND[c]) for c in ("elite", "regular", "green")] == [2, 3, 4]


@pytest.mark.parametrize(("situation", "expected"), RESPONSE_MODIFIERS.items())
def test_response_modifier_cell(situation, expected):
    assert lookup(RS, "response_modifiers", situation=situation).text == expected


# ---------------------------------------------------------------------------
# COMBAT TABLE  combat(hits, class)
#
# Card (each cell on its own lines, none blank):
#   Number of Hits | Elite/Veteran | Regular | Militia/Recruit Green | Artillery | Mounted Cavalry
#   1  No effect | No effect | Disrupted | No effect | Disrupted
#   2  No effect | Disrupted | 1 stand lost, Recoil, Disrupted | Disrupted | 1 stand lost, Disrupted
#   3  1 stand lost | 1 stand lost, Disrupted | 2 stands lost, Route, Disrupted | 1 stand lost, Disrupted
#      | 2 stands lost, Route, Disrupted
#   4  1 stand lost, Recoil | 1 stand lost, Recoil, Disrupted | 3 stands lost, Route, Disrupted
#      | 2 stands lost, Disrupted | 3 stands lost, Disrupted
#   5  2 stands lost, Recoil, Disrupted | 2 stands lost, Route, Disrupted | 4 stands lost, Route, Disrupted
#      | 3 stands lost, Disrupted | Eliminated
#   6  3 stands lost, Route, Disrupted | 3 stands lost, Route, Disrupted | 5 stands lost, Eliminated
#      | Eliminated | Eliminated
#   7  4 stands lost, Route, Disrupted | 4 stands lost, Route, disrupted | Eliminated | Eliminated | Eliminated
#   8  Eliminated | Eliminated | Eliminated | Eliminated | Eliminated
# ---------------------------------------------------------------------------

COMBAT_CLASSES = ["elite", "regular", "militia", "artillery", "cavalry"]
COMBAT = {
    1: ["No effect", "No effect", "Disrupted", "No effect", "Disrupted"],
    2: ["No effect", "Disrupted", "1 stand lost, Recoil, Disrupted", "Disrupted", "1 stand lost, Disrupted"],
    3: ["1 stand lost", "1 stand lost, Disrupted", "2 stands lost, Route, Disrupted", "1 stand lost, Disrupted",
        "2 stands lost, Route, Disrupted"],
    4: ["1 stand lost, Recoil", "1 stand lost, Recoil, Disrupted", "3 stands lost, Route, Disrupted",
        "2 stands lost, Disrupted", "3 stands lost, Disrupted"],
    5: ["2 stands lost, Recoil, Disrupted", "2 stands lost, Route, Disrupted", "4 stands lost, Route, Disrupted",
        "3 stands lost, Disrupted", "Eliminated"],
    6: ["3 stands lost, Route, Disrupted", "3 stands lost, Route, Disrupted", "5 stands lost, Eliminated",
        "Eliminated", "Eliminated"],
    7: ["4 stands lost, Route, Disrupted", "4 stands lost, Route, disrupted", "Eliminated", "Eliminated",
        "Eliminated"],
    8: ["Eliminated"] * 5,
}
SYNONYMS = {"veteran": "elite", "recruit": "militia", "green": "militia", "mounted_cavalry": "cavalry"}

COMBAT_CASES = [(hits, cls, COMBAT[hits][i]) for hits in COMBAT for i, cls in enumerate(COMBAT_CLASSES)]


@pytest.mark.parametrize(("hits", "cls", "expected"), COMBAT_CASES)
def test_combat_cell(hits, cls, expected):
    assert lookup(RS, "combat", hits=hits, **{"class": cls}).text == expected


@pytest.mark.parametrize(("synonym", "cls"), SYNONYMS.items())
def test_combat_class_synonyms_read_their_column(synonym, cls):
    for hits in COMBAT:
        assert lookup(RS, "combat", hits=hits, **{"class": synonym}).text == COMBAT[hits][COMBAT_CLASSES.index(cls)]


def _severity(text: str) -> float:
    if "Eliminated" in text:
        return float("inf")
    m = re.match(r"(\d+) stands? lost", text)
    return int(m[1]) if m else 0


@pytest.mark.parametrize("cls", COMBAT_CLASSES)
def test_combat_more_hits_never_cost_fewer_stands(cls):
    col = [_severity(lookup(RS, "combat", hits=h, **{"class": cls}).text) for h in range(1, 9)]
    assert col == sorted(col)


def test_combat_worse_class_never_loses_fewer_stands():
    for hits in COMBAT:
        row = [_severity(COMBAT[hits][i]) for i in range(3)]  # elite, regular, militia
        assert row == sorted(row)


def test_combat_rows_read_back_as_the_printed_row():
    table = get_table(RS, "combat")
    for band, printed in zip(table.rows.bands, table.printed_rows):
        assert printed, "every combat row carries the card's line"
        assert _squash(printed) == _squash(band.label + "".join(COMBAT[int(band.label)]))


@pytest.mark.parametrize("bad", [{"hits": 0, "class": "elite"}, {"hits": 9, "class": "elite"},
                                 {"hits": 1, "class": "dismounted_cavalry"}])
def test_combat_values_off_the_card(bad):
    with pytest.raises(RulesError):
        lookup(RS, "combat", **bad)


def test_combat_odds_for_a_pool_sum_to_one():
    # Hits 1-8 only: a pool that always hits at least once, e.g. 3d12>=1 + nothing
    table = get_table(RS, "combat")
    dist = table_distribution(table, 0, dice="8d12>=1", roll_axis="hits", **{"class": "regular"})
    assert dist == {"Eliminated": 1}
    dist = table_distribution(table, 0, dice="1d6", roll_axis="hits", **{"class": "militia"})
    assert sum(dist.values()) == 1
    assert dist["Disrupted"] == Fraction(1, 6)


# ---------------------------------------------------------------------------
# MOVEMENT  movement(arm, formation)
#
# Card:
#   Movement / Infantry / Cavalry / Artillery
#   Line / Column / March Column along road / Woods, River, Linear obstacle
#   2 4 2
#   3 5 3
#   4 7 5
#   1 1 -
#
# Reading: four groups for four headings, each group Infantry, Cavalry, Artillery.
# ---------------------------------------------------------------------------

FORMATIONS = ["line", "column", "march_column", "difficult"]
MOVEMENT_PRINTED = ["2 4 2", "3 5 3", "4 7 5", "1 1 -"]  # one group per formation
MOVEMENT = {
    "infantry": ["2", "3", "4", "1"],
    "cavalry": ["4", "5", "7", "1"],
    "artillery": ["2", "3", "5", "-"],
}


def test_movement_groups_are_the_columns():
    arms = list(MOVEMENT)
    for i, group in enumerate(MOVEMENT_PRINTED):
        assert group.split() == [MOVEMENT[a][i] for a in arms]


@pytest.mark.parametrize(("arm", "formation", "expected"),
                         [(a, f, MOVEMENT[a][i]) for a in MOVEMENT for i, f in enumerate(FORMATIONS)])
def test_movement_cell(arm, formation, expected):
    assert lookup(RS, "movement", arm=arm, formation=formation).text == expected


@pytest.mark.parametrize("arm", sorted(MOVEMENT))
def test_movement_line_column_march_column_get_faster(arm):
    line, column, march = (int(MOVEMENT[arm][i]) for i in range(3))
    assert line < column < march


# ---------------------------------------------------------------------------
# ARTILLERY FIRING  artillery(gun, fire), artillery_dice(stands)
#
# Card:
#   6lb field gun / 12lb Napoleon / 3" Rifle
#   Canister (1 Hex)per gun / Short Range / Long Range
#   4+H, 11+HH / 4+H, 10+HH / 4+H, 11+HH
#   7+ (2-3 hexes) / 5+ (2-4 hexes) / 5+ (2-4 hexes)
#   9+ (4-5 hexes) / 8+ (4-7 hexes) / 8+ (4-9 hexes)
#   Artillery Firing (1D12 for 1/2 stands in hex. 2D12 3/4 stands, 3D12 5/6 stands)
#
# Reading: the three groups are the three columns, each top to bottom 6lb, 12lb, 3".
# ---------------------------------------------------------------------------

GUNS = ["6lb", "12lb", "3in_rifle"]
ARTILLERY_PRINTED = {
    "canister": ["4+H, 11+HH", "4+H, 10+HH", "4+H, 11+HH"],
    "short": ["7+ (2-3 hexes)", "5+ (2-4 hexes)", "5+ (2-4 hexes)"],
    "long": ["9+ (4-5 hexes)", "8+ (4-7 hexes)", "8+ (4-9 hexes)"],
}


@pytest.mark.parametrize(("gun", "fire", "expected"),
                         [(g, f, cells[i]) for f, cells in ARTILLERY_PRINTED.items() for i, g in enumerate(GUNS)])
def test_artillery_cell(gun, fire, expected):
    assert lookup(RS, "artillery", gun=gun, fire=fire).text == expected


def test_artillery_long_range_is_harder_and_farther():
    for gun in GUNS:
        short = lookup(RS, "artillery", gun=gun, fire="short").text
        long_ = lookup(RS, "artillery", gun=gun, fire="long").text
        assert _n(short) < _n(long_)
        s_low, s_high = map(int, re.search(r"\((\d+)-(\d+)", short).groups())
        l_low, l_high = map(int, re.search(r"\((\d+)-(\d+)", long_).groups())
        assert s_low == 2 and l_low >= s_high and l_high > s_high


@pytest.mark.parametrize(("stands", "expected"), [(1, "1D12"), (2, "1D12"), (3, "2D12"), (4, "2D12"),
                                                  (5, "3D12"), (6, "3D12")])
def test_artillery_dice_cell(stands, expected):
    assert lookup(RS, "artillery_dice", stands=stands).text == expected


@pytest.mark.parametrize("stands", [0, 7])
def test_artillery_dice_off_the_card(stands):
    with pytest.raises(RulesError):
        lookup(RS, "artillery_dice", stands=stands)


# ---------------------------------------------------------------------------
# MAXIMUM NUMBER OF STANDS IN A HEX  hex_limit(arm, formation)
#
# Card:
#   Maximum number of stands in a hex – Infantry 6 (4 in column), Cavalry 4, Artillery 3 (2 in column)
# ---------------------------------------------------------------------------

HEX_LIMIT = {"infantry": ("6", "4"), "cavalry": ("4", "4"), "artillery": ("3", "2")}


@pytest.mark.parametrize(("arm", "formation", "expected"),
                         [(a, f, HEX_LIMIT[a][0 if f == "line" else 1]) for a in HEX_LIMIT
                          for f in ("line", "column", "march_column")])
def test_hex_limit_cell(arm, formation, expected):
    assert lookup(RS, "hex_limit", arm=arm, formation=formation).text == expected


# ---------------------------------------------------------------------------
# ROUTE  rout(arm)
#
# Card:
#   If the test is failed all the stands in the hex must route. Infantry 1D6, Cavalry 2 hexes + 1D6.
#   The distance they route is given by 1D6 for infantry and 2 hexes + (1D6) for cavalry.
#   Artillery do not route, they are simply eliminated.
# ---------------------------------------------------------------------------

ROUT = {"infantry": "1D6", "cavalry": "2 hexes + 1D6", "artillery": "Artillery do not route, they are simply eliminated"}


@pytest.mark.parametrize(("arm", "expected"), ROUT.items())
def test_rout_cell(arm, expected):
    assert lookup(RS, "rout", arm=arm).text == expected


# ---------------------------------------------------------------------------
# SEQUENCE OF PLAY  sequence(phase)
#
# Card:
#   1. Side 'A' moves or removes disruption markers as units rally (and declares charges into contact by placing
#   charge marker in hex)
#   2. Side 'A' artillery fire. Both sides (A&B) fire small arms + artillery canister simultaneously.
#   3. Chargers making contact fight hand to hand if charged unit stan
# ---------------------------------------------------------------------------

SEQUENCE = {
    1: "Side ‘A’ moves or removes disruption markers as units rally (and declares charges into contact by placing "
       "charge marker in hex)",
    2: "Side ‘A’ artillery fire. Both sides (A&B) fire small arms + artillery canister simultaneously.",
    3: "Chargers making contact fight hand to hand if charged unit stan",
}


@pytest.mark.parametrize(("phase", "expected"), SEQUENCE.items())
def test_sequence_cell(phase, expected):
    assert lookup(RS, "sequence", phase=phase).text == expected


# ---------------------------------------------------------------------------
# The rule set as a whole
# ---------------------------------------------------------------------------

ISSUE_TABLES = {
    "small_arms": ["weapon", "range", "class"],
    "charge": ["troop"],
    "stand": ["class"],
    "combat": ["hits", "class"],
    "movement": ["arm", "formation"],
}


@pytest.mark.parametrize(("table_id", "axes"), ISSUE_TABLES.items())
def test_the_issue_tables_have_its_axes(table_id, axes):
    assert sorted(a.name for a in get_table(RS, table_id).axes) == sorted(axes)


@pytest.mark.parametrize("table_id", sorted(load_ruleset(RS)))
def test_every_table_names_its_source_and_readings(table_id):
    table = get_table(RS, table_id)
    assert table.source_file == "002_4559601f68b00eee.txt"
    assert table.source_heading
    assert table.notes
    assert "Source: 002_4559601f68b00eee.txt" in render_table(table)


def test_the_d12_and_d6_odds_sum_to_one():
    for expr in ("1d12", "1d6", "3d12>=7", "6d12>=5"):
        assert sum(roll_distribution(expr).values()) == 1

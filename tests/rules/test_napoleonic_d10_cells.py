"""Cell-by-cell check of the napoleonic_d10 tables against the card.

Every expected value below is written from the damaged text copy of the card,
../shared/seeds/001_c4de82bc21018f2c.txt: each grid quotes the card's printed
lines (blank cells lost, en dashes and the broken '³�' glyph as the copy has
them) and rebuilds the grid from them in the test, by the reading written
beside it.  Every cell is checked through the public API, `rules.lookup`, at
both ends of every printed band and past every open end.

A blank cell (the card prints nothing) is written "-".
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from rules import RulesError, load_ruleset, lookup
from rules.odds import NEAREST, table_distribution

RS = "napoleonic_d10"
B = "-"
FAR = 60  # a value well past an open end


def look(table: str, **axes: int | str) -> str:
    return lookup(RS, table, **axes).text


def band(text: str) -> tuple[int | None, int | None]:
    """A printed heading as (low, high); None for an open end. Handles the card's
    '³�13' (13 and more), '0³�' (0 and less), '15+', '3-', '-12+' (-12 and less),
    '12–10', '-1 to -2', '0 – 5'."""
    t = text.replace("\u00b3\ufffd", "≥").replace("–", "-").replace(" ", "")
    if t.startswith("≥"):
        return int(t[1:]), None
    if t.endswith(("≥", "≤")):
        return None, int(t[:-1])
    if t.endswith("+"):
        n = int(t[:-1])
        return (None, n) if n < 0 else (n, None)
    if re.fullmatch(r"\d+-", t):
        return None, int(t[:-1])
    if m := re.fullmatch(r"(-?\d+)(?:-|to)(-?\d+)", t):
        a, b = int(m[1]), int(m[2])
        return min(a, b), max(a, b)
    return int(t), int(t)


def probes(text: str) -> list[int]:
    """Both ends of a printed band, and a value far past an open end."""
    low, high = band(text)
    if low is None:
        return [high, high - 1, -FAR]  # type: ignore[operator]
    if high is None:
        return [low, low + 1, FAR]
    return sorted({low, high})


# ---------------------------------------------------------------------------
# MORALE (untitled on the card, under "CW level" / "ROLL DICE PER CLASS")
#
#   ³�13 11–12 9–10 7–8 5–6 3–4 1–2 0³�
#   18–19 NE NE NE NE NE NE NE SH
#   ...
# Eight headings, eight cells on every line: nothing lost. '³�' before 13 is ≥,
# after 0 it is ≤ (0 and less).
# ---------------------------------------------------------------------------

MORALE_HEADINGS = "³�13 11–12 9–10 7–8 5–6 3–4 1–2 0³�".split()
MORALE = """\
18–19 NE NE NE NE NE NE NE SH
16–17 NE NE NE NE NE NE SH SH
14–15 NE NE NE NE NE NE SH DO
12–13 NE NE NE NE NE SH DO DOR
9–11 NE NE NE NE SH DO DOR Brok
6–8 NE NE NE SH DO DOR Brok Rout
3–5 NE DO DOR Brok Brok Rout Rout Surr
0–2 NE DOR Brok Brok Rout Rout Surr Surr"""
SEVERITY = ["NE", "SH", "DO", "DOR", "Brok", "Rout", "Surr"]


def _morale_lines():
    for line in MORALE.splitlines():
        label, *cells = line.split()
        assert len(cells) == len(MORALE_HEADINGS)
        yield label, cells


@pytest.mark.parametrize("label, cells", list(_morale_lines()))
def test_morale_every_cell(label, cells):
    low, high = band(label)
    for roll in range(low, high + 1):  # type: ignore[arg-type]
        for heading, expected in zip(MORALE_HEADINGS, cells):
            for cw in probes(heading):
                assert look("morale", roll=roll, cw=cw) == expected, (roll, heading, cw)


def test_morale_worsens_down_the_rolls_and_the_cw_levels():
    for roll in range(19):
        for cw in range(-3, 16):
            here = SEVERITY.index(look("morale", roll=roll, cw=cw))
            assert SEVERITY.index(look("morale", roll=roll + 1, cw=cw)) <= here
            assert SEVERITY.index(look("morale", roll=roll, cw=cw + 1)) <= here


def test_morale_prints_no_open_end_on_its_rolls():
    for roll in (-1, 20):
        with pytest.raises(RulesError):
            lookup(RS, "morale", roll=roll, cw=5)


# Crash Through
#   12+ NE / 10-11 Smk / 4-9 Smk/Shaken / 3- Smk/DO
CRASH = ["12+ NE", "10-11 Smk", "4-9 Smk/Shaken", "3- Smk/DO"]


@pytest.mark.parametrize("line", CRASH)
def test_crash_through_every_cell(line):
    label, expected = line.split(" ", 1)
    low, high = band(label)
    rolls = range(low, high + 1) if low is not None and high is not None else probes(label)
    for roll in rolls:
        assert look("crash_through", roll=roll) == expected


# Status/Situation and Cover (morale modifiers); the card's lines with the ids.
MORALE_MODIFIERS = {
    "No Div Integrity -2": "no_div_integrity",
    "Shaken -2": "shaken",
    "Disordered -3": "disordered",
    "Broken -4": "broken",
    "50% or more losses -5": "losses_50",
    "Out-of-Ammo -3": "out_of_ammo",
    "Fired on Flank -5": "fired_on_flank",
    "In Firefight +1": "in_firefight",
    "Flanks Covered +1": "flanks_covered",
    "Sparse Cover +1": "sparse_cover",
    "Light Cover +2": "light_cover",
    "Medium Cover +3": "medium_cover",
    "Heavy Cover +4": "heavy_cover",
    "Entrenched +5": "entrenched",
    "Downhill -1": "downhill",
}


def _last_word(line: str) -> str:
    return line.rsplit(" ", 1)[1]


@pytest.mark.parametrize("line, row", MORALE_MODIFIERS.items())
def test_morale_modifiers_every_cell(line, row):
    assert look("morale_modifiers", modifier=row) == _last_word(line)


def test_morale_modifiers_cover_grows():
    values = [lookup(RS, "morale_modifiers", modifier=r).number
              for r in ("sparse_cover", "light_cover", "medium_cover", "heavy_cover", "entrenched")]
    assert values == sorted(values) and len(set(values)) == 5


# Command:  "Div at Rgt or Bde IL" / "Corps/Army…" / "(at regt) IL+1" / "(at Bde) IL"
@pytest.mark.parametrize(
    "level, attached_at, expected",
    [("division", "regiment", "IL"), ("division", "brigade", "IL"),
     ("corps", "regiment", "IL+1"), ("corps", "brigade", "IL"),
     ("army", "regiment", "IL+1"), ("army", "brigade", "IL")],
)
def test_morale_command_every_cell(level, attached_at, expected):
    assert look("morale_command", level=level, attached_at=attached_at) == expected


# Leader Attachment
#   DIV CORPS ARMY
LEADERS = ["Sup 9 7 5", "Exc 8 6 4", "Good 7 5 3", "Avg 6 4 2", "Poor 5 3 1"]
RATING = {"Sup": "superior", "Exc": "excellent", "Good": "good", "Avg": "average", "Poor": "poor"}


@pytest.mark.parametrize("line", LEADERS)
def test_leader_attachment_every_cell(line):
    label, *cells = line.split()
    for level, expected in zip(("division", "corps", "army"), cells):
        assert look("leader_attachment", rating=RATING[label], level=level) == expected


# Morale Loss Move / Duration of Loss
@pytest.mark.parametrize("line", ['DOR 5" back/facing', 'Brok 10" back/away', 'Rout 12" back/remove'])
def test_morale_loss_move_every_cell(line):
    result, expected = line.split(" ", 1)
    assert look("morale_loss_move", result=result) == expected


@pytest.mark.parametrize(
    "line, status",
    [("Shaken Full Turn", "shaken"), ("Disordered Full Turn", "disordered"),
     ("Broken 2 Full Turns", "broken"), ("Rout Unit Removed", "rout")],
)
def test_morale_duration_every_cell(line, status):
    assert look("morale_duration", status=status) == line.split(" ", 1)[1]


# "(30% ELITE, 20% LINE, 10% CONSCRIPT)"
@pytest.mark.parametrize("unit_class, expected", [("elite", "30%"), ("line", "20%"), ("conscript", "10%")])
def test_break_point_every_cell(unit_class, expected):
    assert look("break_point", unit_class=unit_class) == expected


# "class class class / Elite Line Conscript / 3d-d 2d 1d10"
@pytest.mark.parametrize("unit_class, expected", [("elite", "3d-d"), ("line", "2d"), ("conscript", "1d10")])
def test_class_dice_every_cell(unit_class, expected):
    assert look("class_dice", unit_class=unit_class) == expected


# ---------------------------------------------------------------------------
# CHARGES
#
# The results came out as one list, defender/attacker alternating from the
# surrender down to FIREFIGHT, FIREFIGHT, MELEE!; the differentials as
# "0 / -1 to -2 ... -12+" and "1 to 2 ... 11+" (open) and "0 – 5 / -1 to -2 ...
# -12+" and "6 ... 11+" (cover). Reading: MELEE! at 0 (0-5 in cover), the
# defender's results outward on the positive side, the attacker's on the
# negative side, FIREFIGHT next to MELEE! on both.
# ---------------------------------------------------------------------------

RESULTS = [  # (defender's, attacker's) from the outermost row inward, as printed
    ("The defender rolls 1d10 to determine the percentage of the unit which surrenders. The remaining figures rout. Attacker may occupy.",
     "The attacker rolls 1d10 to determine the percentage of the unit which surrenders. The remaining figures rout. Attacker may occupy."),
    ("Defender routs. Attacker may continue", "Attacker disintegrates nto a rout"),
    ("Defender falls back broken. Attacker may occupy and fire.", "Attacker is thrown back broken"),
    ("Defender recoils disordered. Attacker may occupy and fire.", 'Attacker staggers to a halt at 4", disordered and may fire'),
    ('Defender recoils 2". Attacker may occupy and fire.', 'Attacker halts at 3" and may fire'),
    ("FIREFIGHT", "FIREFIGHT"),
]
NEGATIVE = ["-12+", "-10 to -11", "-8 to -9", "-5 to -7", "-3 to -4", "-1 to -2"]  # outermost first
POSITIVE = {"charge_open": ["11+", "9 to 10", "7 to 8", "5 to 6", "3 to 4", "1 to 2"],
            "charge_cover": ["11+", "10", "9", "8", "7", "6"]}
MELEE_AT = {"charge_open": "0", "charge_cover": "0 – 5"}


@pytest.mark.parametrize("table_id", ["charge_open", "charge_cover"])
def test_charge_every_differential(table_id):
    expected: dict[int, str] = {}
    for (defender, attacker), neg, pos in zip(RESULTS, NEGATIVE, POSITIVE[table_id]):
        for label, text in ((neg, attacker), (pos, defender)):
            low, high = band(label)
            for d in range(low if low is not None else -FAR, (high if high is not None else FAR) + 1):
                expected[d] = text
    low, high = band(MELEE_AT[table_id])
    for d in range(low, high + 1):  # type: ignore[arg-type]
        expected[d] = "MELEE!"
    assert sorted(expected) == list(range(-FAR, FAR + 1))  # every differential has a result
    for d, text in expected.items():
        assert look(table_id, differential=d) == text, d


CHARGE_ATTACKER = {  # the card's Attacker list; "+6" read as Cav vs. Inf Line's value
    "shaken": "-2", "disordered": "-4", "standing_cavalry": "-3", "rout_broken": "NA",
    "closing_casualties": "-2", "mass_1_5x": "+2", "mass_2x": "+3", "mass_3x": "+4", "mass_4x": "+5",
    "charge_downhill": "+1", "cav_vs_inf_line": "+6", "cav_vs_general": "+7", "cav_vs_inf_column": "+4",
    "cav_vs_square": "-5", "cav_vs_closed_column": "-2", "heavy_vs_light_cavalry": "+4",
    "inf_vs_square": "+4", "leader_attached": "+IL", "charging_flank": "+6", "charging_rear": "+8",
    "cw_difference": "±1",
}
CHARGE_DEFENDER = {  # the card's Defender list
    "shaken": "-2", "disordered": "-4", "rout_broken": "-9", "mass_1_5x": "+2", "mass_2x": "+3",
    "mass_3x": "+4", "mass_4x": "+5", "secure_flanks": "+1", "general_order": "-2",
    "light_cover": "+1", "medium_cover": "+3", "heavy_cover": "+5",
}


def test_charge_modifiers_every_cell():
    rows = set(CHARGE_ATTACKER) | set(CHARGE_DEFENDER)
    assert set(load_ruleset(RS)["charge_modifiers"].rows.values()) == rows
    for row in rows:
        assert look("charge_modifiers", modifier=row, side="attacker") == CHARGE_ATTACKER.get(row, B)
        assert look("charge_modifiers", modifier=row, side="defender") == CHARGE_DEFENDER.get(row, B)


# ---------------------------------------------------------------------------
# FIRE  "Roll 1d10 plus Mods", inf/cav stands down the side, Arty tubes at the end
#
#   15+ 14 13 12–10 9–7 6–4 3 2 1 0
# Ten results on every line (and the tubes on lines Half to 6): nothing lost.
# ---------------------------------------------------------------------------

FIRE_HEADINGS = "15+ 14 13 12–10 9–7 6–4 3 2 1 0".split()
FIRE = """\
Half 1 1 0 0 0 0 0 0 0 0 1
1 3 3 2 2 1 1 0 0 0 0 2
2 5 4 4 3 3 2 2 1 1 0 4
3 6 5 5 4 4 3 3 2 2 1 6
4 7 6 6 5 5 4 4 3 3 2 8
5 8 7 7 6 6 5 5 4 4 3 10
6 9 8 8 7 7 6 6 5 5 4 12
7 10 9 9 8 8 7 7 6 6 5
8 11 10 10 9 9 8 8 7 7 6
9 12 11 11 10 10 9 9 8 8 7"""


def _stands(label: str) -> list[int | str]:
    return ["half", "Half"] if label == "Half" else [int(label), label]


@pytest.mark.parametrize("line", FIRE.splitlines())
def test_fire_every_cell(line):
    label, *numbers = line.split()
    results, tubes = numbers[:10], numbers[10:]
    for heading, expected in zip(FIRE_HEADINGS, results):
        low, high = band(heading)
        rolls = range(low, high + 1) if high is not None else probes(heading)
        for roll in rolls:
            for stands in _stands(label):
                assert look("fire", roll=roll, stands=stands) == expected, (label, heading, roll)
    if tubes:
        assert look("fire_tubes", tubes=int(tubes[0])) == label


def test_fire_grows_with_roll_and_stands():
    order: list[int | str] = ["half", *range(1, 10)]
    for roll in range(16):
        steps = [lookup(RS, "fire", roll=roll, stands=s).number for s in order]
        assert steps == sorted(steps)
        if roll:
            below = [lookup(RS, "fire", roll=roll - 1, stands=s).number for s in order]
            assert all(a >= b for a, b in zip(steps, below))


@pytest.mark.parametrize("axes", [{"roll": -1, "stands": 3}, {"roll": 5, "stands": 10}, {"roll": 5, "stands": 0}])
def test_fire_off_the_card(axes):
    with pytest.raises(RulesError):
        lookup(RS, "fire", **axes)


def test_fire_tubes_has_no_odd_lines():
    for tubes in (3, 5, 7, 9, 11, 13):
        with pytest.raises(RulesError):
            lookup(RS, "fire_tubes", tubes=tubes)


# Fire Discipline       Normal Smoke Firefight
FIRE_DISCIPLINE = """\
10+ free free free
9 free 1" fire fire
8 free 2" fire FF
7 1" fire 4" fire FF
6 2" fire 1" FF FF
5 4" fire 2" FF FF
4 1" FF 4" FF FF
3 2" FF 4" FF FF
2- 4" FF 4" FF FF"""


def _discipline_cells(rest: str) -> list[str]:
    # a cell is 'free', 'fire', 'FF' or a distance followed by 'fire' or 'FF'
    return re.findall(r'\d+" (?:fire|FF)|free|fire|FF', rest)


@pytest.mark.parametrize("line", FIRE_DISCIPLINE.splitlines())
def test_fire_discipline_every_cell(line):
    label, rest = line.split(" ", 1)
    cells = _discipline_cells(rest)
    assert len(cells) == 3
    for roll in probes(label):
        for situation, expected in zip(("normal", "smoke", "firefight"), cells):
            assert look("fire_discipline", roll=roll, situation=situation) == expected


def test_smoke_is_normal_two_rolls_worse():
    for roll in range(2, 9):
        assert look("fire_discipline", roll=roll, situation="smoke") == look("fire_discipline", roll=roll - 2, situation="normal")


# Infantry Range/Effect
SMALL_ARMS = {
    "musket": ['Close Action 1" +2', 'Short 2" NE', 'Medium 4" -3', 'Long 5" -6', 'Extreme 6" -9'],
    "rifle": ['Close Action 1" +2', 'Short 2" NE', 'Medium 4" -3', 'Long 6" -6', 'Extreme 8" -9'],
}
RANGE_IDS = {"Close Action": "close_action", "Short": "short", "Medium": "medium", "Long": "long", "Extreme": "extreme",
             "Cannister": "canister", "Short, Ball": "short_ball"}


def _range_line(line: str) -> tuple[str, str, str]:
    m = re.fullmatch(r'(.+?) (\S+") (\S+)', line)
    assert m, line
    return RANGE_IDS[m[1]], m[2], m[3]


@pytest.mark.parametrize("weapon", SMALL_ARMS)
def test_range_small_arms_every_cell(weapon):
    for line in SMALL_ARMS[weapon]:
        rng, reach, effect = _range_line(line)
        assert look("range_small_arms", weapon=weapon, range=rng, value="reach") == reach
        assert look("range_small_arms", weapon=weapon, range=rng, value="effect") == effect


# Artillery Range/Effect: one block per class of guns, the guns it names
ARTILLERY = {
    ("12pdr",): ['Cannister 0–6" +7', 'Short, Ball 0–12" NE', 'Long 13–18" -2', 'Extreme 19–40" -9'],
    ("8pdr", "9pdr", "austrian_12pdr"): ['Cannister 0–5" +6', 'Short, Ball 0–10" NE', 'Long 11–14" -2', 'Extreme 15–30" -9'],
    ("6pdr", "7pdr_howitzer"): ['Cannister 0–4" +5', 'Short, Ball 0–8" NE', 'Long 9–12" -3', 'Extreme 13–28" -9'],
    ("3pdr", "4pdr", "austrian_6pdr"): ['Cannister 0–3" +3', 'Short, Ball 0–6" NE', 'Long 7–12" -3', 'Extreme 13–19" -9'],
    ("austrian_3pdr",): ['Cannister 0–3" +3', 'Short, Ball 0–6" NE', 'Long 7–9" -3', 'Extreme 10–15" -9'],
}


@pytest.mark.parametrize("guns", ARTILLERY)
def test_range_artillery_every_cell(guns):
    for gun in guns:
        for line in ARTILLERY[guns]:
            rng, reach, effect = _range_line(line)
            assert look("range_artillery", gun=gun, range=rng, value="reach") == reach
            assert look("range_artillery", gun=gun, range=rng, value="effect") == effect


FIRE_MODIFIERS = {
    "Add’l ammo pt. +1": "additional_ammo", "Scrounging ammo -3": "scrounging_ammo", "Initial Volley +2": "initial_volley",
    "4 AP ROF +2": "rof_4_ap", "3 AP ROF +1": "rof_3_ap", "1 AP ROF -1": "rof_1_ap", "Initial Fire +1": "initial_fire",
    "Ricochet Fire -2": "ricochet_fire", "Infantry over half -1": "infantry_moved_over_half",
    "Btn Guns under half -1": "battalion_guns_moved_under_half", "Btn Guns over half NA": "battalion_guns_moved_over_half",
    "Shaken -2": "shaken", "Disordered -4": "disordered", "Rout/Broken NA": "rout_broken",
    "Sparse Cover -1": "sparse_cover", "Light Cover -3": "light_cover", "Medium Cover -5": "medium_cover",
    "Heavy Cover -8": "heavy_cover", "In Smoke -2": "in_smoke", "Flank +5": "flank", "Square +5": "square",
    "Closed Column +3": "closed_column", "Open Order troops in cover -5": "open_order_in_cover",
    "Counter Battery… (ball) -7": "counter_battery_ball", "(cannister) -4": "counter_battery_canister",
    "Small Arms at Arty -5": "small_arms_at_artillery",
}


@pytest.mark.parametrize("line, row", FIRE_MODIFIERS.items())
def test_fire_modifiers_every_cell(line, row):
    assert look("fire_modifiers", modifier=row) == _last_word(line)


def test_fire_modifiers_rows_are_the_cards():
    assert set(load_ruleset(RS)["fire_modifiers"].rows.values()) == set(FIRE_MODIFIERS.values())


# Def. Fire Range: Small Arms 4" / Artillery Short
def test_defensive_fire_range_every_cell():
    assert look("defensive_fire_range", fire="small_arms") == '4"'
    assert look("defensive_fire_range", fire="artillery") == "Short"


# "A natural roll of 10, roll again (1-7 = 1 AP, 8-9 = 2 AP, 10 = 3 AP)"
def test_ammunition_reroll_every_cell():
    for part in "1-7 = 1 AP, 8-9 = 2 AP, 10 = 3 AP".split(", "):
        label, expected = part.split(" = ")
        low, high = band(label)
        for roll in range(low, high + 1):  # type: ignore[arg-type]
            assert look("ammunition_reroll", roll=roll) == expected


# ---------------------------------------------------------------------------
# MOVEMENT by CO's rating
#
#   ³�12 11 10 9 8 7 6 5 4 3 2³�
#   Superior 1.25 1.25 Full Full 3/4 NM
#   ...
# Eleven headings, six or seven cells a line. Reading: every line right-aligned
# (its last cell under 2≤), the high rolls left blank.
# ---------------------------------------------------------------------------

MOVEMENT_HEADINGS = "³�12 11 10 9 8 7 6 5 4 3 2³�".split()
MOVEMENT = """\
Superior 1.25 1.25 Full Full 3/4 NM
Excellent 1.25 1.25 Full Full 3/4 NM NM
Good 1.25 Full Full 3/4 3/4 NM NM
Average Full Full 3/4 1/2 NM NM
Poor Full Full 3/4 3/4 1/2 NM NM"""
MOVE_ORDER = ["NM", "1/2", "3/4", "Full", "1.25"]


def _movement_grid() -> dict[str, list[str]]:
    grid = {}
    for line in MOVEMENT.splitlines():
        label, *cells = line.split()
        grid[label.lower()] = [B] * (len(MOVEMENT_HEADINGS) - len(cells)) + cells
    return grid


def test_movement_every_cell():
    for rating, cells in _movement_grid().items():
        for heading, expected in zip(MOVEMENT_HEADINGS, cells):
            for roll in probes(heading):
                assert look("movement", roll=roll, rating=rating) == expected, (rating, heading)


def test_movement_right_aligned_reading_is_monotone():
    """Blanks read as the line's best result: every roll worse from Superior to
    Poor, every rating worse from a high roll to a low one."""
    grid = _movement_grid()
    filled = {}
    for rating, cells in grid.items():
        best = next(c for c in cells if c != B)
        filled[rating] = [MOVE_ORDER.index(best if c == B else c) for c in cells]
    ratings = list(filled)
    for column in range(len(MOVEMENT_HEADINGS)):
        down = [filled[r][column] for r in ratings]
        assert down == sorted(down, reverse=True)
    for row in filled.values():
        assert row == sorted(row, reverse=True)


MOVEMENT_MODIFIERS = {
    "15–19 CW +1": "cw_15_19", "0–7 CW -1": "cw_0_7", "Shaken -1": "shaken", "Disordered -2": "disordered",
    "Vacating Cover -2": "vacating_cover", "In Smoke -1": "in_smoke", "Moved Last Turn +1": "moved_last_turn",
}


@pytest.mark.parametrize("line, row", MOVEMENT_MODIFIERS.items())
def test_movement_modifiers_every_cell(line, row):
    assert look("movement_modifiers", modifier=row) == _last_word(line)


# Artillery Movement Distances
#   Road Field Limber+Move or Move+Unlimber  Move+Unlimber+Fire  Limber+Move+Unlimber+Fire  Prolong/AP
ARTILLERY_MOVEMENT = {
    "12pdr_heavy": '12pdr Heavy 12" 3" 1" NA NA               1/2"',
    "12pdr_light": '12pdr Light 16" 5" 3" NA NA                1"',
    "8-9pdr": '8–9pdr 16" 7" 5" NA NA                1"',
    "6pdr": '6pdr 18" 8" 6" 2" NA             1-1/2"',
    "3-4pdr": '3–4pdr 20" 9" 7" 2" NA                2"',
    "8-9pdr_horse": '8–9pdr Horse 29" 13" 11" 8" (2 AP’s) 6" (1 AP)           as foot',
    "3-6pdr_horse": '3–6pdr Horse 30" 14" 12" 9" (2 AP’s) 7" (1 AP)                2"',
}
MOVES = ["road", "field", "limber_move", "move_unlimber_fire", "limber_move_unlimber_fire", "prolong"]


@pytest.mark.parametrize("gun", ARTILLERY_MOVEMENT)
def test_artillery_movement_every_cell(gun):
    line = ARTILLERY_MOVEMENT[gun]
    cells = re.findall(r'\d+(?:-\d+/\d+|/\d+)?"(?: \(\d+ AP’?s?\))?|NA|as foot', line.split("pdr", 1)[1])
    assert len(cells) == 6, cells
    for move, expected in zip(MOVES, cells):
        assert look("artillery_movement", gun=gun, move=move) == expected
    assert look("artillery_movement", gun=gun, move="move_unlimber") == cells[2]


# Terrain Effects (INF/CAV ART)
TERRAIN = {
    "light_woods": "Light Woods 3/4 1/2", "heavy_woods": "Heavy Woods 1/4 NM",
    "linear_obstacle": 'Linear Obstical 1" 3"', "ford": "Ford 1/2 1/4",
    "gradual_slope": "Gradual Slope NE NE", "slope": "Slope 3/4 1/2", "steep_slope": "Steep Slope 1/2 1/4",
}


@pytest.mark.parametrize("terrain", TERRAIN)
def test_terrain_every_cell(terrain):
    inf_cav, art = TERRAIN[terrain].split()[-2:]
    assert look("terrain", terrain=terrain, arm="infantry") == inf_cav
    assert look("terrain", terrain=terrain, arm="cavalry") == inf_cav
    assert look("terrain", terrain=terrain, arm="artillery") == art


# Infantry & Cavalry Movement: Road Column Line General Square(inf)/Charge(cav)
FORMATIONS = {
    "infantry": 'Infantry 18" 8" 4" 6" 1"',
    "light_cavalry": 'Lt. Cav. 30" 15" 11" 13" +8"',
    "heavy_cavalry": 'Hvy. Cav. 24" 12" 9" 10" +8"',
}


@pytest.mark.parametrize("kind", FORMATIONS)
def test_formation_movement_every_cell(kind):
    cells = FORMATIONS[kind].split()[-5:]
    for formation, expected in zip(["road", "column", "line", "general", "square"], cells):
        assert look("formation_movement", kind=kind, formation=formation) == expected
    assert look("formation_movement", kind=kind, formation="charge") == cells[4]


# Disruptive Terrain: ³�6 5 4 3 2³�
DISRUPTIVE_HEADINGS = "³�6 5 4 3 2³�".split()
DISRUPTIVE = ["D1 NE NE NE SH DO", "D2 NE NE SH DO DO(20)", "D3 NE SH DO DO(20) DO(40)"]


@pytest.mark.parametrize("line", DISRUPTIVE)
def test_disruptive_terrain_every_cell(line):
    label, *cells = line.split()
    assert len(cells) == len(DISRUPTIVE_HEADINGS)
    for heading, expected in zip(DISRUPTIVE_HEADINGS, cells):
        for roll in probes(heading):
            assert look("disruptive_terrain", roll=roll, disruption=label) == expected
            assert look("disruptive_terrain", roll=roll, disruption=label.lower()) == expected


# ---------------------------------------------------------------------------
# INITIATIVE, COMMAND, SKIRMISH
# ---------------------------------------------------------------------------

# "Grand-Tac ?" / "Attached: Superior +3 / Excellent +2 / Good +1 / Poor -1"
@pytest.mark.parametrize(
    "row, expected", [("grand_tac", "?"), ("superior", "+3"), ("excellent", "+2"), ("good", "+1"), ("poor", "-1")]
)
def test_initiative_modifiers_every_cell(row, expected):
    assert look("initiative_modifiers", modifier=row) == expected


# Local Initiative: "9 8 7 6 5 4", read 9 and more, 4 and less
LOCAL_HEADINGS = ["9+", "8", "7", "6", "5", "4-"]
LOCAL = {"normal": "Normal AA AA AA NA NA —", "smoke": "In Smk AA AA NA NA — —", "firefight": "In FF AA NA NA — — —"}


@pytest.mark.parametrize("situation", LOCAL)
def test_local_initiative_every_cell(situation):
    cells = LOCAL[situation].split()[-6:]
    for heading, expected in zip(LOCAL_HEADINGS, cells):
        for roll in probes(heading):
            assert look("local_initiative", roll=roll, situation=situation) == expected


@pytest.mark.parametrize(
    "line, row",
    [("Reacting a cavalry charge -1", "reacting_cavalry_charge"), ("Division or better leader attached +1", "division_leader_attached")],
)
def test_local_initiative_modifiers_every_cell(line, row):
    assert look("local_initiative_modifiers", modifier=row) == _last_word(line)


@pytest.mark.parametrize("line, level", [('Divisional 15"', "division"), ('Corps 24"', "corps"), ('Army 36"', "army")])
def test_command_radius_every_cell(line, level):
    assert look("command_radius", level=level) == _last_word(line)


# Skirmish Combat: "Class Dice ± screen mods", ³�8 7 6 5 2–4 1³�
SKIRMISH_HEADINGS = "³�8 7 6 5 2–4 1³�".split()
SKIRMISH = {
    "elite": "Elite NE NE Smk Smk SH(20) DO(40)",
    "line": "Line NE NE Smk SH(20) DO(40) DOR(40)",
    "conscript": "Cons. NE Smk SH(20) DO(40) DOR(40) DOR(40)",
}


@pytest.mark.parametrize("unit_class", SKIRMISH)
def test_skirmish_every_cell(unit_class):
    cells = SKIRMISH[unit_class].split()[1:]
    assert len(cells) == len(SKIRMISH_HEADINGS)
    for heading, expected in zip(SKIRMISH_HEADINGS, cells):
        low, high = band(heading)
        rolls = range(low, high + 1) if low is not None and high is not None else probes(heading)
        for roll in rolls:
            assert look("skirmish", roll=roll, unit_class=unit_class) == expected


SKIRMISH_ORDER = ["NE", "Smk", "SH(20)", "DO(40)", "DOR(40)"]


def test_skirmish_worsens_with_the_class_and_the_roll():
    for roll in range(10):
        row = [SKIRMISH_ORDER.index(look("skirmish", roll=roll, unit_class=c)) for c in SKIRMISH]
        assert row == sorted(row)
        above = [SKIRMISH_ORDER.index(look("skirmish", roll=roll + 1, unit_class=c)) for c in SKIRMISH]
        assert all(a <= b for a, b in zip(above, row))


def test_disruption_worsens_with_the_degree_and_the_roll():
    order = ["NE", "SH", "DO", "DO(20)", "DO(40)"]
    for roll in range(1, 8):
        row = [order.index(look("disruptive_terrain", roll=roll, disruption=d)) for d in ("D1", "D2", "D3")]
        assert row == sorted(row)
        above = [order.index(look("disruptive_terrain", roll=roll + 1, disruption=d)) for d in ("D1", "D2", "D3")]
        assert all(a <= b for a, b in zip(above, row))


def test_local_initiative_smoke_and_firefight_are_normal_one_and_two_rolls_worse():
    for roll in range(4, 10):
        assert look("local_initiative", roll=roll, situation="smoke") == look("local_initiative", roll=roll - 1, situation="normal")
        assert look("local_initiative", roll=roll, situation="firefight") == look("local_initiative", roll=roll - 2, situation="normal")


# ---------------------------------------------------------------------------
# Exact odds: every rolled table sums to 1, on its own dice and the others'
# ---------------------------------------------------------------------------

ROLLED = {
    "morale": ("cw", [-1, 0, 4, 8, 13, 20]),
    "fire": ("stands", ["half", 1, 5, 9]),
    "crash_through": (None, []),
    "fire_discipline": ("situation", ["normal", "smoke", "firefight"]),
    "movement": ("rating", ["superior", "excellent", "good", "average", "poor"]),
    "disruptive_terrain": ("disruption", ["D1", "D2", "D3"]),
    "local_initiative": ("situation", ["normal", "smoke", "firefight"]),
    "skirmish": ("unit_class", ["elite", "line", "conscript"]),
    "ammunition_reroll": (None, []),
}


@pytest.mark.parametrize("table_id", ROLLED)
@pytest.mark.parametrize("dice", [None, "1d10", "3d10kh2", "2d10kh1"])
@pytest.mark.parametrize("modifier", [-6, 0, 5])
def test_odds_sum_to_one(table_id, dice, modifier):
    table = load_ruleset(RS)[table_id]
    axis, values = ROLLED[table_id]
    if table_id == "ammunition_reroll" and (dice or modifier):
        return  # a plain 1d10, never modified
    for value in values or [None]:
        fixed = {axis: value} if axis else {}
        dist = table_distribution(table, modifier, dice=dice, beyond=NEAREST, **fixed)
        assert sum(dist.values()) == Fraction(1)


def test_every_table_with_dice_is_in_the_odds_check():
    assert {t.id for t in load_ruleset(RS).values() if t.dice} == set(ROLLED)


def test_every_table_names_its_source():
    for table in load_ruleset(RS).values():
        assert table.source_file == "001_c4de82bc21018f2c.txt" and table.source_heading


def test_issue_lookups():
    """The calls the issue names: morale(roll, cw), fire(roll, stands), crash_through(roll)."""
    assert [a.name for a in load_ruleset(RS)["morale"].axes] == ["roll", "cw"]
    assert [a.name for a in load_ruleset(RS)["fire"].axes] == ["roll", "stands"]
    assert [a.name for a in load_ruleset(RS)["crash_through"].axes] == ["roll"]
    assert lookup(RS, "morale", roll=0, cw=0).text == "Surr"
    assert lookup(RS, "fire", roll=0, stands="half").text == "0"
    assert lookup(RS, "crash_through", roll=-3).text == "Smk/DO"


def test_the_command_line_reads_the_tables(capsys):
    from tui.cli import main

    assert main(["rules", "lookup", RS, "fire", "roll=11", "stands=7"]) == 0
    assert capsys.readouterr().out.strip() == "8"
    assert main(["rules", "lookup", RS, "fire", "roll=11", "stands=half"]) == 0
    assert capsys.readouterr().out.strip() == "0"
    assert main(["rules", "lookup", RS, "morale", "roll=12", "cw=-2"]) == 0
    assert capsys.readouterr().out.startswith("DOR")
    assert main(["rules", "odds", RS, "morale", "cw=7", "--beyond", "nearest"]) == 0
    assert "SH" in capsys.readouterr().out
    for table in load_ruleset(RS):
        assert main(["rules", "show", RS, table]) == 0
    assert "Reading:" in capsys.readouterr().out


CHECKED = {
    "morale", "crash_through", "morale_modifiers", "morale_command", "leader_attachment", "morale_loss_move",
    "morale_duration", "break_point", "class_dice", "charge_open", "charge_cover", "charge_modifiers", "fire",
    "fire_tubes", "fire_discipline", "range_small_arms", "range_artillery", "fire_modifiers",
    "defensive_fire_range", "ammunition_reroll", "movement", "movement_modifiers", "artillery_movement",
    "terrain", "formation_movement", "disruptive_terrain", "initiative_modifiers", "local_initiative",
    "local_initiative_modifiers", "command_radius", "skirmish",
}


def test_every_table_is_checked_here():
    """Each table of the rule set has its every-cell test above (and no other table exists)."""
    assert set(load_ruleset(RS)) == CHECKED

"""Cell-by-cell check of the French-Austrian 13-phase card ("V. A15").

Every expected value below is read from the damaged text copy of the card,
../shared/seeds/004_3c19d583169bac2b.txt: the card's lines are quoted as they
appear there (blank cells lost, neighbouring columns run together), then the grid
this reader rebuilds from them. A blank cell (the card prints nothing) is "-".
Every cell is checked through the public API, `rules.lookup`, and every value of
every axis is named.

The inch mark is the card's own character, ” (U+201D).
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from rules import RulesError, lookup
from rules.loader import load_ruleset
from rules.napoleonic_13phase.fire import ArtilleryFire, Fire, artillery_fire, fire
from rules.napoleonic_13phase.melee import Combatant, Melee, melee
from rules.napoleonic_13phase.morale import MoraleTest, morale_check

RS = "napoleonic_13phase"
B = "-"  # a blank cell


def _n(text: str) -> int:
    m = re.match(r"^[+-]?\d+", text)
    return int(m[0]) if m else 0


def test_the_rule_set_has_exactly_these_tables():
    assert sorted(load_ruleset(RS)) == sorted(
        [
            "sequence_of_play",
            "artillery_to_hit",
            "artillery_modifiers",
            "morale",
            "morale_modifiers",
            "morale_results",
            "recall_results",
            "movement",
            "fire_to_hit",
            "melee_dice",
            "melee_modifiers",
            "melee_results",
        ]
    )


def test_every_table_names_the_card_and_a_heading():
    for table in load_ruleset(RS).values():
        assert table.source_file == "004_3c19d583169bac2b.txt"
        assert table.source_heading
        assert table.notes, f"{table.id} explains no reading"


# ---------------------------------------------------------------------------
# artillery_to_hit(target)  -- phase 1
#
# Card:
#   Target To Hit Arc of Fire:  None! Fire directly ahead.
#   Column/Square/Battalion
#   Masse/Enfiladed Line
#   4+ Modifiers
#   Line 5+ +1 Close Range +1 if 12lbs or heavier
#   Skirmisher/Fortification/
#   Artillery
#   6 -1  Long Range - 1 if 6lbs or lighter
#
# Three target rows: Column/Square/Battalion Masse/Enfiladed Line 4+; Line 5+;
# Skirmisher/Fortification/Artillery 6 (printed without '+'). The rest of each line
# is the modifier list beside the table.
# ---------------------------------------------------------------------------

ARTILLERY_TO_HIT = {
    "column": "4+",
    "square": "4+",
    "masse": "4+",
    "enfiladed_line": "4+",
    "line": "5+",
    "skirmishers": "6",
    "fortification": "6",
    "artillery": "6",
}


@pytest.mark.parametrize("target, printed", ARTILLERY_TO_HIT.items())
def test_artillery_to_hit(target, printed):
    assert lookup(RS, "artillery_to_hit", target=target).text == printed


def test_artillery_to_hit_harder_for_thinner_targets():
    """Dense formations are hit on 4+, a line on 5+, dispersed or covered targets on 6."""
    order = ["column", "line", "skirmishers"]
    numbers = [_n(ARTILLERY_TO_HIT[t]) for t in order]
    assert numbers == sorted(numbers) == [4, 5, 6]


# ---------------------------------------------------------------------------
# artillery_modifiers(modifier)  -- phase 1
#
# Card (beside the to-hit table):
#   4+ Modifiers
#   Line 5+ +1 Close Range +1 if 12lbs or heavier
#   6 -1  Long Range - 1 if 6lbs or lighter
# ---------------------------------------------------------------------------

ARTILLERY_MODIFIERS = {
    "close_range": "+1",
    "12lbs_or_heavier": "+1",
    "long_range": "-1",
    "6lbs_or_lighter": "-1",
}


@pytest.mark.parametrize("modifier, printed", ARTILLERY_MODIFIERS.items())
def test_artillery_modifiers(modifier, printed):
    assert lookup(RS, "artillery_modifiers", modifier=modifier).text == printed


# ---------------------------------------------------------------------------
# morale(class)  -- phases 2, 4, 5, 7, 9, 10, 12, 13, all the same
#
# Card (phase 2):
#   Elite:  6 or less Modifiers
#   Veteran:  5 or less -1 per 3 casualties
#   Conscript:  4 or less +1 General attached to unit
# ---------------------------------------------------------------------------

MORALE = {"elite": "6 or less", "veteran": "5 or less", "conscript": "4 or less"}


@pytest.mark.parametrize("unit_class, printed", MORALE.items())
def test_morale(unit_class, printed):
    assert lookup(RS, "morale", **{"class": unit_class}).text == printed


def test_morale_better_class_passes_more():
    values = [_n(MORALE[c]) for c in ("conscript", "veteran", "elite")]
    assert values == sorted(values)


# ---------------------------------------------------------------------------
# morale_modifiers(modifier, phase)
#
# Card, the 'Modifiers' beside each morale block:
#   2.  -1 per 3 casualties / +1 General attached to unit
#   4.  -1 per 3 casualties -1 Infantry Charging / +1 General attached to unit
#   5.  -1 per 3 casualties - 1 Infantry not in column / +1 General attached - 1 Charged in flank/rear
#   7.  -1 per 3 casualties / +1 General attached to unit
#   9.  -1 per 3 casualties - 1 Infantry Charging / +1 General attached to unit
#   10. -1 per 3 casualties - 1 Charged in flank/rear / +1 General attached to unit.
#   12. -1 per 3 casualties / +1 General attached to unit
#   13. -1 per 3 casualties / +1 General attached to unit
# ---------------------------------------------------------------------------

MORALE_PHASES = [2, 4, 5, 7, 9, 10, 12, 13]
MORALE_MODIFIERS = {
    #                           2     4     5     7     9    10    12    13
    "per_3_casualties":       ["-1", "-1", "-1", "-1", "-1", "-1", "-1", "-1"],
    "general_attached":       ["+1", "+1", "+1", "+1", "+1", "+1", "+1", "+1"],
    "infantry_charging":      [B,    "-1", B,    B,    "-1", B,    B,    B],
    "infantry_not_in_column": [B,    B,    "-1", B,    B,    B,    B,    B],
    "charged_in_flank_or_rear": [B,  B,    "-1", B,    B,    "-1", B,    B],
}


@pytest.mark.parametrize(
    "modifier, phase, printed",
    [(m, p, cells[i]) for m, cells in MORALE_MODIFIERS.items() for i, p in enumerate(MORALE_PHASES)],
)
def test_morale_modifiers(modifier, phase, printed):
    assert lookup(RS, "morale_modifiers", modifier=modifier, phase=phase).text == printed


@pytest.mark.parametrize("phase", [1, 3, 6, 8, 11, 14])
def test_morale_modifiers_have_no_column_for_other_phases(phase):
    with pytest.raises(RulesError):
        lookup(RS, "morale_modifiers", modifier="general_attached", phase=phase)


# ---------------------------------------------------------------------------
# morale_results(phase, result)
#
# Card (line breaks of the copy joined):
#  2.  Pass Carry On
#      Fail by 1 or 2 Halt.  No movement this turn.  Austrian infantry columns and battalion masse
#      form line.  (Take d6 casualties if within 3” of another Austrian infantry column to the flank.)
#      Fail by 3+ Rout.  Remove the unit from the game.
#  4.  Pass En Evant!  Continue to phase 5.
#      Fail by 1 or 2 Charging infantry columns form line 2” from target.  (d6 casualties if unable to
#      form line).  Others stand in place.
#  5.  Pass Stand.  May form battalion masse if currently in column.  Charging French infantry are
#      placed 2” away and may form line if there is enough room.  French Guard infantry may take one
#      casualty and continue the charge.
#      Fail by 1 or 2 Stand.  May not change formation.  The charging French unit moves into contact.
#      Fight in phase 6.
#  7.  Pass Units continue to fight in phase 11.
#      Fail by 1 or 2 Infantry not in line form line 2” back from the enemy. Opponent may make a free
#      formation change.  If already in line, loser retires d6” and the winner follows up and fighting
#      continues in phase 11.  If a unit is unable to form line for any reason when required, it takes
#      d6 casualties. Cavalry remain in place and fight in phase 11.
#  9.  Pass Charge!  (Or Carry On)
#      Fail by 1 or 2 Charging infantry columns form line 2” from target.  (d6 casualties if unable to
#      form line or another Austrian infantry column within 3” of the flank). Others stand in place.
#  10. Pass Stand.  May form square.  Charging Austrian infantry are placed 2” away and may form line
#      if there is enough room.
#      Fail by 1 or 2 Stand.  May not change formation.  The charging Austrian unit moves into
#      contact.  Fight in phase 11.
#  12. Pass Infantry units continue to fight next turn in phase 6. Cavalry remains in place and will
#      roll for recall in phase 13 if it initiated a charge this turn.
#      Fail by 1 or 2 Infantry not in line form line 2” back from the enemy. Opponent may make a free
#      formation change.  If already in line, loser retires d6” and the winner follows up and fighting
#      continues in phase 6.  If a unit is unable to form line for any reason when required, it takes
#      d6 casualties. Cavalry remains in place and will roll for recall in phase 13 if it initiated a
#      charge this turn.
#  every phase: Fail by 3+ Rout.  Remove the unit from the game.   (phases 5, 10: 'Rout.   Remove')
# ---------------------------------------------------------------------------

ROUT = "Rout. Remove the unit from the game."
MORALE_RESULTS = {
    2: (
        "Carry On",
        "Halt. No movement this turn. Austrian infantry columns and battalion masse form line. "
        "(Take d6 casualties if within 3” of another Austrian infantry column to the flank.)",
    ),
    4: (
        "En Evant! Continue to phase 5.",
        "Charging infantry columns form line 2” from target. (d6 casualties if unable to form line). "
        "Others stand in place.",
    ),
    5: (
        "Stand. May form battalion masse if currently in column. Charging French infantry are placed 2” "
        "away and may form line if there is enough room. French Guard infantry may take one casualty and "
        "continue the charge.",
        "Stand. May not change formation. The charging French unit moves into contact. Fight in phase 6.",
    ),
    7: (
        "Units continue to fight in phase 11.",
        "Infantry not in line form line 2” back from the enemy. Opponent may make a free formation change. "
        "If already in line, loser retires d6” and the winner follows up and fighting continues in phase 11. "
        "If a unit is unable to form line for any reason when required, it takes d6 casualties. "
        "Cavalry remain in place and fight in phase 11.",
    ),
    9: (
        "Charge! (Or Carry On)",
        "Charging infantry columns form line 2” from target. (d6 casualties if unable to form line or "
        "another Austrian infantry column within 3” of the flank). Others stand in place.",
    ),
    10: (
        "Stand. May form square. Charging Austrian infantry are placed 2” away and may form line if there "
        "is enough room.",
        "Stand. May not change formation. The charging Austrian unit moves into contact. Fight in phase 11.",
    ),
    12: (
        "Infantry units continue to fight next turn in phase 6. Cavalry remains in place and will roll for "
        "recall in phase 13 if it initiated a charge this turn.",
        "Infantry not in line form line 2” back from the enemy. Opponent may make a free formation change. "
        "If already in line, loser retires d6” and the winner follows up and fighting continues in phase 6. "
        "If a unit is unable to form line for any reason when required, it takes d6 casualties. "
        "Cavalry remains in place and will roll for recall in phase 13 if it initiated a charge this turn.",
    ),
}


@pytest.mark.parametrize(
    "phase, result, printed",
    [
        (p, r, text)
        for p, (passed, small) in MORALE_RESULTS.items()
        for r, text in (("pass", passed), ("fail_1_2", small), ("fail_3_plus", ROUT))
    ],
)
def test_morale_results(phase, result, printed):
    assert lookup(RS, "morale_results", phase=phase, result=result).text == printed


# ---------------------------------------------------------------------------
# recall_results(result)  -- phase 13
#
# Card:
#   Pass The cavalry unit is picked up and placed at the spot where they began the charge in their
#   original formation and facing.  If the unit did not initiate the charge it remains in place.
#   Fail Cavalry take one casualty.  Next turn they cannot move, but may fight if charged or if
#   continuing a melee from phase 11.  They must roll again to recall in phase 13 next turn.
# ---------------------------------------------------------------------------

RECALL = {
    "pass": "The cavalry unit is picked up and placed at the spot where they began the charge in their "
    "original formation and facing. If the unit did not initiate the charge it remains in place.",
    "fail": "Cavalry take one casualty. Next turn they cannot move, but may fight if charged or if "
    "continuing a melee from phase 11. They must roll again to recall in phase 13 next turn.",
}


@pytest.mark.parametrize("result, printed", RECALL.items())
def test_recall_results(result, printed):
    assert lookup(RS, "recall_results", result=result).text == printed


# ---------------------------------------------------------------------------
# movement(unit)  -- phases 3 (French) and 8 (Austrians)
#
# Card, phase 3:                                   Card, phase 8:
#   Inf. Column/Skirmishers 8”                       Infantry Column/Skirmishers 8”
#   Infantry Line/Square 4”                          Infantry Line 4”
#   Cuirassiers/Carabiniers/Dragoons 10”             Infantry Battalion Masse 0”
#   Light Cavalry 14”                                Cuirassiers 10”
#   Limbered Artillery  (One move to                 Hussars/Uhlans/Light Dragoons/Chevauxlegers 14”
#     limber/unlimber) 10”                           Limbered Artillery  (One move to limber/unlimber) 10”
# ---------------------------------------------------------------------------

MOVEMENT = {
    "infantry_column": "8”",
    "skirmishers": "8”",
    "infantry_line": "4”",
    "infantry_square": "4”",
    "battalion_masse": "0”",
    "cuirassiers": "10”",
    "carabiniers": "10”",
    "dragoons": "10”",
    "light_cavalry": "14”",
    "hussars": "14”",
    "uhlans": "14”",
    "light_dragoons": "14”",
    "chevauxlegers": "14”",
    "limbered_artillery": "10”",
}


@pytest.mark.parametrize("unit, printed", MOVEMENT.items())
def test_movement(unit, printed):
    assert lookup(RS, "movement", unit=unit).text == printed


def test_movement_cavalry_outpaces_infantry_and_light_outpaces_heavy():
    n = {u: _n(v) for u, v in MOVEMENT.items()}
    assert n["light_cavalry"] > n["cuirassiers"] > n["infantry_column"] > n["infantry_line"] > n["battalion_masse"]


def test_movement_has_no_row_for_unlimbered_artillery():
    with pytest.raises(RulesError):
        lookup(RS, "movement", unit="artillery")


# ---------------------------------------------------------------------------
# fire_to_hit(target)  -- phases 3 and 8
#
# Card, phase 3:
#   Target    (4”  range and roll one die per two figures, artillery too) To Hit
#   Column/Square/Enfiladed Line 4+
#   Line/Artillery 5+
#   Skirmishers/Fortification/Charging Cavalry 6+
# Card, phase 8: the same, but 'Column/Masse/Enfiladed Line 4+'.
# ---------------------------------------------------------------------------

FIRE_TO_HIT = {
    "column": "4+",
    "square": "4+",
    "masse": "4+",
    "enfiladed_line": "4+",
    "line": "5+",
    "artillery": "5+",
    "skirmishers": "6+",
    "fortification": "6+",
    "charging_cavalry": "6+",
}


@pytest.mark.parametrize("target, printed", FIRE_TO_HIT.items())
def test_fire_to_hit(target, printed):
    assert lookup(RS, "fire_to_hit", target=target).text == printed


def test_fire_and_artillery_agree_except_on_artillery_targets():
    """The two to-hit tables give the same number for every target but artillery
    (5+ for musketry at 4”, 6 for the guns in phase 1)."""
    for target, printed in ARTILLERY_TO_HIT.items():
        if target != "artillery":
            assert _n(FIRE_TO_HIT[target]) == _n(printed)


# ---------------------------------------------------------------------------
# melee_dice(class, formation)  -- phases 6 and 11
#
# Card:
#   Determine # of dice Infantry Column Line/Square/Masse and all
#   Cavalry
#   Elite 1 die per figure 2 dice per 3 figures
#   Veteran 2 dice per 3 figures 1 die per 2 figures
#   Conscript 1 die per 2 figures 1 die per 3 figures
# ---------------------------------------------------------------------------

MELEE_DICE = {
    "elite": ("1 die per figure", "2 dice per 3 figures"),
    "veteran": ("2 dice per 3 figures", "1 die per 2 figures"),
    "conscript": ("1 die per 2 figures", "1 die per 3 figures"),
}
NOT_COLUMN = ["infantry_line", "infantry_square", "battalion_masse", "cavalry"]


@pytest.mark.parametrize(
    "unit_class, formation, printed",
    [(c, "infantry_column", col) for c, (col, _) in MELEE_DICE.items()]
    + [(c, f, other) for c, (_, other) in MELEE_DICE.items() for f in NOT_COLUMN],
)
def test_melee_dice(unit_class, formation, printed):
    assert lookup(RS, "melee_dice", **{"class": unit_class, "formation": formation}).text == printed


def _rate(text: str) -> Fraction:
    m = re.match(r"(\d+) di(?:e|ce) per (?:(\d+) )?figure", text)
    assert m
    return Fraction(int(m[1]), int(m[2] or 1))


def test_melee_dice_rate_grows_with_class_and_column():
    for col in range(2):
        rates = [_rate(MELEE_DICE[c][col]) for c in ("conscript", "veteran", "elite")]
        assert rates == sorted(rates)
    for column, other in MELEE_DICE.values():
        assert _rate(column) > _rate(other)
    # One step of class is worth the column: each class in line fights as the next lower in column.
    assert MELEE_DICE["elite"][1] == MELEE_DICE["veteran"][0]
    assert MELEE_DICE["veteran"][1] == MELEE_DICE["conscript"][0]


# ---------------------------------------------------------------------------
# melee_modifiers(modifier)
#
# Card:
#   BASE 4+ TO HIT                                              Melee Modifiers:
#   Enemy in defensive terrain -1
#   Vs. Cuirassiers or first combat vs. Lancers -1
#   Lancers continuing a melee -1
# ---------------------------------------------------------------------------

MELEE_MODIFIERS = {
    "enemy_in_defensive_terrain": "-1",
    "vs_cuirassiers": "-1",
    "first_combat_vs_lancers": "-1",
    "lancers_continuing_melee": "-1",
}


@pytest.mark.parametrize("modifier, printed", MELEE_MODIFIERS.items())
def test_melee_modifiers(modifier, printed):
    assert lookup(RS, "melee_modifiers", modifier=modifier).text == printed


# ---------------------------------------------------------------------------
# melee_results(matchup, phase)
#
# Card, phase 6:
#   Melee Results
#   Infantry vs. Infantry
#   Cavalry vs. Cavalry
#   Unit loses if it receives more casualties than it inflicts and must test morale in phase 7.
#   Ties continue to fight next in phase 11.
#   Infantry or Cavalry vs. Unsupported Artillery    Artillery destroyed
#   Cavalry vs. Infantry Column or Line              Infantry destroyed
#   Cavalry vs. Infantry Square/Masse/Fortification (Infantry do not roll melee dice)
#   Cavalry pass through full movement distance, placed where they fit past the enemy and take a
#   casualty on a 4+ for each infantry unit contacted.  Must roll to recall in phase 13.
# Card, phase 11: the same, but the first text reads
#   Unit loses if it receives more casualties than it inflicts and must test morale in phase 12.
#   Infantry units that tie continue to fight next turn in phase 6.  Cavalry units that tie test
#   for recall in phase 13.
# ---------------------------------------------------------------------------

PASS_THROUGH = (
    "Cavalry pass through full movement distance, placed where they fit past the enemy and take a "
    "casualty on a 4+ for each infantry unit contacted. Must roll to recall in phase 13."
)
MELEE_RESULTS = {
    "infantry_vs_infantry": (
        "Unit loses if it receives more casualties than it inflicts and must test morale in phase 7. "
        "Ties continue to fight next in phase 11.",
        "Unit loses if it receives more casualties than it inflicts and must test morale in phase 12. "
        "Infantry units that tie continue to fight next turn in phase 6. "
        "Cavalry units that tie test for recall in phase 13.",
    ),
    "vs_unsupported_artillery": ("Artillery destroyed", "Artillery destroyed"),
    "cavalry_vs_column_or_line": ("Infantry destroyed", "Infantry destroyed"),
    "cavalry_vs_square_masse_or_fortification": (PASS_THROUGH, PASS_THROUGH),
}
MELEE_RESULTS["cavalry_vs_cavalry"] = MELEE_RESULTS["infantry_vs_infantry"]


@pytest.mark.parametrize(
    "matchup, phase, printed",
    [(m, p, texts[i]) for m, texts in MELEE_RESULTS.items() for i, p in enumerate((6, 11))],
)
def test_melee_results(matchup, phase, printed):
    assert lookup(RS, "melee_results", matchup=matchup, phase=phase).text == printed


# ---------------------------------------------------------------------------
# sequence_of_play(phase, part)
#
# Card, the numbered headings:
#   1. Adjust and Fire Artillery, Roll for Reserves   V. A15
#   2. Check Morale for Artillery Casualties
#   3. French Move/Austrian Infantry, Artillery Shoot
#   4. French check morale for shooting casualties and to close for melee (Charging cavalry do not test)
#   5. Austrian Infantry Check Morale to Stand for Melee - (Infantry in melee and Cavalry do not test)
#   6.  Fight Melees (One unit per side fights if in contact with the enemy.)
#   7. Check Morale for Losing Melees
#   8. Austrians Move/French Infantry, Artillery Shoot
#   9. Austrians check morale for shooting casualties and to close for melee (Charging cavalry do not test)
#   10. French Infantry Check Morale to Stand for Melee – (Infantry in melee and Cavalry do not test)
#   11.  Fight Melees (One unit per side fights if in contact with the enemy.)
#   12. Check Morale for Losing Melees
#   13.  Recall Cavalry (Cavalry not obligated to roll for recall may still choose to roll.  Units with
#        a charge marker in place cannot move until recalled. )
# ---------------------------------------------------------------------------

MELEE_NOTE = "(One unit per side fights if in contact with the enemy.)"
SEQUENCE = {
    1: ("Adjust and Fire Artillery, Roll for Reserves", B),
    2: ("Check Morale for Artillery Casualties", B),
    3: ("French Move/Austrian Infantry, Artillery Shoot", B),
    4: ("French check morale for shooting casualties and to close for melee", "(Charging cavalry do not test)"),
    5: ("Austrian Infantry Check Morale to Stand for Melee", "- (Infantry in melee and Cavalry do not test)"),
    6: ("Fight Melees", MELEE_NOTE),
    7: ("Check Morale for Losing Melees", B),
    8: ("Austrians Move/French Infantry, Artillery Shoot", B),
    9: ("Austrians check morale for shooting casualties and to close for melee", "(Charging cavalry do not test)"),
    10: ("French Infantry Check Morale to Stand for Melee", "– (Infantry in melee and Cavalry do not test)"),
    11: ("Fight Melees", MELEE_NOTE),
    12: ("Check Morale for Losing Melees", B),
    13: (
        "Recall Cavalry",
        "(Cavalry not obligated to roll for recall may still choose to roll. Units with a charge marker "
        "in place cannot move until recalled. )",
    ),
}


@pytest.mark.parametrize(
    "phase, part, printed",
    [(p, part, cells[i]) for p, cells in SEQUENCE.items() for i, part in enumerate(("title", "note"))],
)
def test_sequence_of_play(phase, part, printed):
    assert lookup(RS, "sequence_of_play", phase=phase, part=part).text == printed


@pytest.mark.parametrize("phase", [0, 14])
def test_sequence_has_thirteen_phases(phase):
    with pytest.raises(RulesError):
        lookup(RS, "sequence_of_play", phase=phase, part="title")


# ---------------------------------------------------------------------------
# Values off the card are refused, and the odds the procedures give sum to 1.
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, axes",
    [
        ("artillery_to_hit", {"target": "cavalry"}),
        ("fire_to_hit", {"target": "charging cavalry"}),
        ("morale", {"class": "guard"}),
        ("movement", {"unit": "lancers"}),
        ("melee_dice", {"class": "elite", "formation": "skirmishers"}),
        ("melee_results", {"matchup": "infantry_vs_cavalry", "phase": 6}),
        ("morale_results", {"phase": 13, "result": "pass"}),
        ("recall_results", {"result": "fail_3_plus"}),
    ],
)
def test_values_off_the_card_are_refused(table, axes):
    with pytest.raises(RulesError):
        lookup(RS, table, **axes)


def test_odds_sum_to_one():
    odds = [
        artillery_fire(ArtilleryFire(crew=3, gun_pounds=12, target="line", range="close")).at_target.odds(),
        fire(Fire(3, "austrian", "infantry_line", 9, "column", 4)).odds(),
        morale_check(MoraleTest(2, "french", "infantry_column", "conscript", casualties=5)).odds(),
        melee(Melee(6, Combatant("french", "infantry_column", "elite", 6), Combatant("austrian", "infantry_line", "veteran", 8))).odds(),
    ]
    for dist in odds:
        assert sum(dist.values()) == 1

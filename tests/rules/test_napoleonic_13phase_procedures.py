"""The procedures of the French-Austrian 13-phase card, checked against the card.

Every test quotes the card's line it checks (from ../shared/seeds/004_3c19d583169bac2b.txt)
and works the expected numbers out by hand in the comments, not from the data files.
Where the card is silent the product uses a named rules option
(rules/napoleonic_13phase/options.toml); those tests check its default and its alternative.
"""

from __future__ import annotations

import doctest
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import RulesError
from rules.conversion import load_conversion, sp_lost, tactical_order
from rules.dice import ENTERED, DiceError, DiceService
import rules.napoleonic_13phase as package
from rules.napoleonic_13phase import fire as fire_module
from rules.napoleonic_13phase import melee as melee_module
from rules.napoleonic_13phase import morale as morale_module
from rules.napoleonic_13phase import movement as movement_module
from rules.napoleonic_13phase import sequence as sequence_module
from rules.napoleonic_13phase.fire import (
    ArtilleryFire,
    ArtilleryTarget,
    Fire,
    artillery_fire,
    fire,
    fire_dice,
    square_fire,
    turn_to_face,
)
from rules.napoleonic_13phase.melee import Combatant, Melee, dice_for, melee
from rules.napoleonic_13phase.morale import MoraleTest, morale_check, recall_check
from rules.napoleonic_13phase.movement import (
    CavalryCharge,
    InfantryCharge,
    Move,
    cavalry_charge,
    check_wheel,
    guard_presses_charge,
    infantry_charge,
    locked_in_firefight,
    movement_allowance,
    skirmishers_evade,
)
from rules.napoleonic_13phase.rolls import card_roll
from rules.napoleonic_13phase.sequence import next_phase, phase, turn_sequence
from rules.options import resolve_options

RS = "napoleonic_13phase"
ROUT = "Rout. Remove the unit from the game."


def dice() -> DiceService:
    return DiceService(seed=13)


def values(mods) -> list[tuple[str, int]]:
    return [(m.label, m.value) for m in mods]


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    """Hits of n dice that each hit with chance p, by hand (the binomial law)."""
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


@pytest.mark.parametrize(
    "module", [package, sequence_module, fire_module, morale_module, movement_module, melee_module]
)
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


# ===========================================================================
# The 13-phase turn
# ===========================================================================


def test_thirteen_phases_with_the_card_headings():
    phases = turn_sequence()
    assert [p.number for p in phases] == list(range(1, 14))
    assert phases[0].title == "Adjust and Fire Artillery, Roll for Reserves"
    assert phases[12].title == "Recall Cavalry"


def test_phase_3_the_french_move_and_the_austrians_shoot():
    """'3. French Move/Austrian Infantry, Artillery Shoot'"""
    assert (phase(3).moves, phase(3).fires) == ("french", "austrian")


def test_phase_8_the_austrians_move_and_the_french_shoot():
    """'8. Austrians Move/French Infantry, Artillery Shoot'"""
    assert (phase(8).moves, phase(8).fires) == ("austrian", "french")


@pytest.mark.parametrize(
    "number, tests, arms",
    [
        (2, ("french", "austrian"), ("infantry", "cavalry", "artillery")),
        (4, ("french",), ("infantry", "cavalry", "artillery")),  # 'French check morale for shooting casualties'
        (5, ("austrian",), ("infantry",)),  # 'Austrian Infantry Check Morale to Stand for Melee'
        (9, ("austrian",), ("infantry", "cavalry", "artillery")),
        (10, ("french",), ("infantry",)),  # 'French Infantry Check Morale to Stand for Melee'
        (13, ("french", "austrian"), ("cavalry",)),  # 'Recall Cavalry'
    ],
)
def test_who_tests_in_each_morale_phase(number, tests, arms):
    assert (phase(number).tests, phase(number).arms) == (tests, arms)


@pytest.mark.parametrize("number, kind", [(1, "artillery_fire"), (6, "melee"), (11, "melee"), (7, "morale"), (12, "morale")])
def test_phase_kinds(number, kind):
    assert phase(number).kind == kind


def test_next_phase_wraps_to_the_next_turn():
    assert next_phase(1, 1) == (1, 2)
    assert next_phase(3, 13) == (4, 1)


@pytest.mark.parametrize("number", [0, 14, "3"])
def test_no_such_phase(number):
    with pytest.raises(RulesError, match="phases 1 to 13"):
        phase(number)


# ===========================================================================
# Phase 1: artillery fire
# ===========================================================================


def test_artillery_close_range_heavy_guns_at_column():
    """'Column/Square/Battalion Masse/Enfiladed Line 4+'; '+1 Close Range +1 if 12lbs or heavier';
    'Roll one die per crew figure.'"""
    shot = artillery_fire(ArtilleryFire(crew=4, gun_pounds=12, target="column", range="close"))
    hit = shot.at_target
    assert hit.dice == 4  # 4 crew figures, one die each
    assert values(hit.modifiers) == [("Close Range", 1), ("if 12lbs or heavier", 1)]
    # 4+ with +1 +1: a die of 2 reads 4: needs 2+, hits 5 times in 6.
    assert (hit.needed, hit.needed_text) == (2, "2+")
    assert hit.odds() == binomial(4, Fraction(5, 6))
    assert hit.odds()[4] == Fraction(625, 1296)


def test_artillery_medium_range_8lb_at_line_has_no_modifier():
    """'Line 5+'; 8 lb guns are neither 12lbs or heavier nor 6lbs or lighter."""
    hit = artillery_fire(ArtilleryFire(crew=3, gun_pounds=8, target="line", range="medium")).at_target
    assert (hit.modifiers, hit.needed_text) == ((), "5+")
    assert hit.odds() == binomial(3, Fraction(1, 3))


def test_artillery_long_range_light_guns_cannot_hit_skirmishers():
    """'Skirmisher/Fortification/Artillery 6'; '-1 Long Range - 1 if 6lbs or lighter':
    6 + 1 + 1 = a die of 8 needed."""
    hit = artillery_fire(ArtilleryFire(crew=4, gun_pounds=6, target="skirmishers", range="long")).at_target
    assert values(hit.modifiers) == [("Long Range", -1), ("if 6lbs or lighter", -1)]
    assert hit.needed_text == "cannot hit"
    assert hit.odds() == {0: 1}


def test_artillery_hits_from_entered_dice_are_recorded():
    # 4+ at close range with 12-pounders: 2+. Dice 1, 2, 3, 6: three hits.
    shot = artillery_fire(ArtilleryFire(crew=4, gun_pounds=12, target="square", range="close"))
    result = shot.roll(dice(), entered=[1, 2, 3, 6])
    assert result.target.hits == 3
    record = result.target.record
    assert record.mode == ENTERED and record.raw == (1, 2, 3, 6)
    assert [m.label for m in record.modifiers] == ["Close Range", "if 12lbs or heavier"]
    assert result.text.startswith("Target: 3 hits")


def test_artillery_unit_behind_same_dice_by_default():
    """'also hitting any unit 12” behind that target as long as all units (including the artillery)
    are on level ground and in range'. Option artillery_unit_behind, default same_dice."""
    shot = artillery_fire(
        ArtilleryFire(crew=4, gun_pounds=12, target="column", range="close", behind=ArtilleryTarget("line", "medium"))
    )
    assert shot.same_dice
    # Target: 4+ +1 +1 = 2+: dice 2, 3, 5, 6 all hit.  Behind: 5+ +1 (12lbs) = 4+: 5 and 6 hit.
    result = shot.roll(dice(), entered=[2, 3, 5, 6])
    assert (result.target.hits, result.behind.hits) == (4, 2)
    assert result.behind.record is result.target.record  # one roll


def test_artillery_unit_behind_roll_again_option():
    shot = artillery_fire(
        ArtilleryFire(crew=2, gun_pounds=8, target="column", range="medium", behind=ArtilleryTarget("column", "long")),
        {"artillery_unit_behind": "roll_again"},
    )
    result = shot.roll(dice(), entered=[4, 4], entered_behind=[4, 5])
    # Behind at long range: 4+ -1 = 5+: only the 5 hits.
    assert (result.target.hits, result.behind.hits) == (2, 1)
    assert result.behind.record is not result.target.record


def test_artillery_unit_behind_only_on_level_ground():
    with pytest.raises(RulesError, match="level ground"):
        artillery_fire(
            ArtilleryFire(crew=2, gun_pounds=8, target="column", range="close",
                          behind=ArtilleryTarget("line", "close"), level_ground=False)
        )


def test_horse_artillery_may_unlimber_to_fire_foot_artillery_may_not():
    """'Horse artillery may unlimber.'"""
    shot = artillery_fire(ArtilleryFire(crew=2, gun_pounds=6, target="line", range="close", limbered=True, horse_artillery=True))
    assert shot.unlimbers
    with pytest.raises(RulesError, match="only horse artillery"):
        artillery_fire(ArtilleryFire(crew=2, gun_pounds=6, target="line", range="close", limbered=True))


@pytest.mark.parametrize("pounds, inches", [(3, 1), (6, 1), (8, 1), (12, 0)])
def test_turn_to_face(pounds, inches):
    """'Unlimbered Artillery less than 12 lbs. may turn and move 1” to face their target.'"""
    assert turn_to_face(pounds) == inches
    assert turn_to_face(pounds, limbered=True) == 0


@pytest.mark.parametrize(
    "fire_kw, message",
    [
        ({"range": "point blank"}, "artillery range"),
        ({"target": "cavalry"}, "target"),
        ({"gun_pounds": 0}, "pounds"),
        ({"crew": -1}, "crew figures"),
    ],
)
def test_artillery_bad_input(fire_kw, message):
    kw = {"crew": 2, "gun_pounds": 8, "target": "line", "range": "close", **fire_kw}
    with pytest.raises(RulesError, match=message):
        artillery_fire(ArtilleryFire(**kw))


def test_artillery_entered_dice_must_fit_the_crew():
    shot = artillery_fire(ArtilleryFire(crew=3, gun_pounds=8, target="line", range="close"))
    with pytest.raises(DiceError):
        shot.roll(dice(), entered=[4, 4])
    with pytest.raises(DiceError):
        shot.roll(dice(), entered=[4, 4, 7])


# ===========================================================================
# Phases 3 and 8: infantry and artillery fire
# ===========================================================================


def test_infantry_fire_one_die_per_two_figures():
    """'(4” range and roll one die per two figures, artillery too)'; 'Line/Artillery 5+'."""
    hit = fire(Fire(3, "austrian", "infantry_line", 9, "line", 4))
    # 9 figures: 4 dice (option fire_odd_figure, default round_down); 5+ hits 1 in 3.
    assert (hit.dice, hit.needed_text) == (4, "5+")
    assert hit.odds() == binomial(4, Fraction(1, 3))
    assert hit.odds()[0] == Fraction(16, 81)


@pytest.mark.parametrize("figures, down, up", [(8, 4, 4), (9, 4, 5), (1, 0, 1), (0, 0, 0)])
def test_fire_odd_figure_option(figures, down, up):
    assert fire_dice(figures) == down
    assert fire_dice(figures, {"fire_odd_figure": "round_up"}) == up


def test_artillery_too_fires_in_phase_8():
    # French guns in phase 8, 4 crew figures: 2 dice, at an Austrian masse: 4+.
    hit = fire(Fire(8, "french", "artillery", 4, "masse", 3))
    assert (hit.dice, hit.needed_text) == (2, "4+")


def test_fire_at_charging_cavalry_and_skirmishers_needs_6():
    """'Skirmishers/Fortification/Charging Cavalry 6+'"""
    for target in ("charging_cavalry", "skirmishers", "fortification"):
        assert fire(Fire(8, "french", "infantry_column", 6, target, 2)).needed_text == "6+"


def test_squares_contacted_fire_two_dice_at_charging_cavalry():
    """'Squares contacted fire two dice.' read against 'Charging Cavalry 6+'."""
    hit = square_fire()
    assert (hit.dice, hit.needed_text) == (2, "6+")
    assert hit.odds() == {0: Fraction(25, 36), 1: Fraction(10, 36), 2: Fraction(1, 36)}


def test_fire_entered_dice():
    hit = fire(Fire(3, "austrian", "infantry_column", 6, "column", Fraction(7, 2)))
    # 3 dice at 4+: 3, 4 and 6 give two hits.
    assert hit.roll(dice(), entered=[3, 4, 6]).hits == 2


@pytest.mark.parametrize(
    "shot, message",
    [
        (Fire(3, "french", "infantry_line", 8, "line", 4), "do not shoot in phase 3"),
        (Fire(4, "austrian", "infantry_line", 8, "line", 4), "phases 3 and 8"),
        (Fire(3, "austrian", "infantry_line", 8, "line", 5), "4” range"),
        (Fire(3, "austrian", "hussars", 8, "line", 2), "do not shoot"),
        (Fire(3, "austrian", "limbered_artillery", 4, "line", 2), "do not shoot"),
        (Fire(3, "austrian", "infantry_line", 8, "line", 2, continuing_melee=True), "continuing a previous melee"),
        (Fire(3, "austrian", "infantry_square", 8, "line", 2), "the austrian have no infantry square"),
        (Fire(3, "austrian", "infantry_line", 8, "cavalry", 2), "target"),
        (Fire(3, "prussian", "infantry_line", 8, "line", 2), "side"),
    ],
)
def test_fire_bad_input(shot, message):
    with pytest.raises(RulesError, match=message):
        fire(shot)


# ===========================================================================
# Morale
# ===========================================================================


def test_phase_2_veteran_with_casualties_and_a_general():
    """'Veteran: 5 or less'; '-1 per 3 casualties'; '+1 General attached to unit'."""
    check = morale_check(MoraleTest(2, "austrian", "infantry_column", "veteran", casualties=4, general_attached=True))
    # 5, -1 for 3 of the 4 casualties, +1 general: pass on 5 or less.
    assert check.printed == "5 or less"
    assert values(check.modifiers) == [("per 3 casualties", -1), ("General attached to unit", 1)]
    assert check.pass_on == 5
    assert check.odds() == {"Pass": Fraction(5, 6), "Fail by 1 or 2": Fraction(1, 6)}
    assert check.roll(dice(), entered=[5]).text == "Carry On"
    failed = check.roll(dice(), entered=[6])
    assert failed.label == "Fail by 1 or 2"
    assert failed.text.startswith("Halt. No movement this turn. Austrian infantry columns and battalion masse form line.")


def test_phase_4_french_infantry_charging():
    """Phase 4: '-1 per 3 casualties -1 Infantry Charging'; 'Fail by 3+ Rout. Remove the unit from the game.'"""
    check = morale_check(MoraleTest(4, "french", "infantry_column", "veteran", casualties=3, charging=True))
    # 5 - 1 - 1 = 3: dice 1-3 pass, 4-5 fail by 1 or 2, 6 fails by 3.
    assert check.pass_on == 3
    assert check.odds() == {"Pass": Fraction(1, 2), "Fail by 1 or 2": Fraction(1, 3), "Fail by 3+": Fraction(1, 6)}
    assert check.roll(dice(), entered=[1]).text == "En Evant! Continue to phase 5."
    routed = check.roll(dice(), entered=[6])
    assert (routed.label, routed.text, routed.removed) == ("Fail by 3+", ROUT, True)


def test_phase_4_shot_at_cavalry_test_charging_cavalry_do_not():
    """'(Charging cavalry do not test)'"""
    assert morale_check(MoraleTest(4, "french", "cuirassiers", "elite", casualties=1)).pass_on == 6
    with pytest.raises(RulesError, match="charging cavalry do not test"):
        morale_check(MoraleTest(4, "french", "cuirassiers", "elite", charging=True))


def test_phase_5_austrian_line_charged_in_flank():
    """Phase 5: '- 1 Infantry not in column'; '- 1 Charged in flank/rear'."""
    check = morale_check(MoraleTest(5, "austrian", "infantry_line", "elite", charged_in_flank_or_rear=True))
    # 6 - 1 - 1 = 4.
    assert values(check.modifiers) == [("Infantry not in column", -1), ("Charged in flank/rear", -1)]
    assert check.pass_on == 4
    passed = check.roll(dice(), entered=[4])
    assert passed.text.startswith("Stand. May form battalion masse if currently in column.")
    assert "French Guard infantry may take one casualty" in passed.text


def test_phase_5_austrian_column_has_no_formation_modifier():
    check = morale_check(MoraleTest(5, "austrian", "infantry_column", "conscript"))
    assert (check.modifiers, check.pass_on) == ((), 4)


def test_phase_10_french_line_has_no_formation_modifier():
    """Phase 10 lists '- 1 Charged in flank/rear' but not 'Infantry not in column'."""
    check = morale_check(MoraleTest(10, "french", "infantry_line", "veteran", charged_in_flank_or_rear=True))
    assert values(check.modifiers) == [("Charged in flank/rear", -1)]
    assert check.roll(dice(), entered=[4]).text.startswith("Stand. May form square.")


def test_phase_9_austrian_charge_pass_reads_charge():
    check = morale_check(MoraleTest(9, "austrian", "infantry_column", "veteran", charging=True))
    assert check.pass_on == 4  # 5 - 1 Infantry Charging
    assert check.roll(dice(), entered=[2]).text == "Charge! (Or Carry On)"


@pytest.mark.parametrize("number, pass_text", [(7, "Units continue to fight in phase 11."),
                                               (12, "Infantry units continue to fight next turn in phase 6.")])
def test_losing_a_melee(number, pass_text):
    check = morale_check(MoraleTest(number, "french", "infantry_line", "elite", casualties=2))
    # 2 casualties: no full 3, no modifier. Elite 6 or less always passes.
    assert check.modifiers == ()
    assert check.odds() == {"Pass": 1}
    assert check.roll(dice(), entered=[6]).text.startswith(pass_text)


@pytest.mark.parametrize("casualties, pass_on", [(0, 5), (2, 5), (3, 4), (5, 4), (6, 3), (9, 2)])
def test_minus_one_per_full_three_casualties(casualties, pass_on):
    assert morale_check(MoraleTest(7, "austrian", "cuirassiers", "veteran", casualties=casualties)).pass_on == pass_on


def test_casualties_counted_option():
    """Option casualties_counted: every casualty of the battle (default) or this phase's only."""
    test = MoraleTest(2, "french", "infantry_column", "veteran", casualties=7, casualties_this_phase=2)
    assert morale_check(test).pass_on == 3  # 5 - 2 (7 casualties: two full threes)
    assert morale_check(test, {"casualties_counted": "this_phase"}).pass_on == 5  # 2: no full three


def test_a_pass_value_of_zero_always_fails():
    # Conscript 4, 12 casualties: -4. Die 1 fails by 1, 2 by 2, 3-6 by 3 or more.
    check = morale_check(MoraleTest(12, "austrian", "infantry_line", "conscript", casualties=12))
    assert check.pass_on == 0
    assert check.odds() == {"Fail by 1 or 2": Fraction(1, 3), "Fail by 3+": Fraction(2, 3)}


def test_morale_roll_record_keeps_the_die_and_names_the_pass_value():
    result = morale_check(MoraleTest(2, "french", "infantry_column", "veteran", casualties=3)).roll(dice())
    record = result.record
    assert record.dice == "1d6" and record.modifiers == () and record.result == record.raw[0]
    assert record.purpose.endswith("pass on 4 or less")


@pytest.mark.parametrize(
    "test, message",
    [
        (MoraleTest(3, "french", "infantry_line", "elite"), "no morale check"),
        (MoraleTest(4, "austrian", "infantry_line", "elite"), "austrian do not test morale in phase 4"),
        (MoraleTest(5, "austrian", "hussars", "elite"), "only infantry"),
        (MoraleTest(5, "austrian", "infantry_line", "elite", in_melee=True), "already in melee"),
        (MoraleTest(10, "french", "infantry_line", "elite", in_melee=True), "already in melee"),
        (MoraleTest(2, "french", "infantry_line", "elite", charged_in_flank_or_rear=True), "flank or rear"),
        (MoraleTest(2, "french", "infantry_column", "elite", charging=True), "infantry charging"),
        (MoraleTest(4, "french", "artillery", "elite", charging=True), "artillery do not charge"),
        (MoraleTest(2, "french", "infantry_line", "guard"), "class"),
        (MoraleTest(2, "french", "infantry_line", "elite", casualties=-1), "casualties"),
        (MoraleTest(2, "french", "battalion_masse", "elite"), "the french have no battalion masse"),
        (MoraleTest(13, "french", "infantry_line", "elite"), "only cavalry"),
    ],
)
def test_morale_bad_input(test, message):
    with pytest.raises(RulesError, match=message):
        morale_check(test)


def test_morale_die_typed_in_must_be_a_d6():
    check = morale_check(MoraleTest(2, "french", "infantry_line", "elite"))
    with pytest.raises(DiceError):
        check.roll(dice(), entered=[7])


# ===========================================================================
# Phase 13: recall cavalry
# ===========================================================================


def test_recall_pass_and_fail():
    """'Pass The cavalry unit is picked up and placed at the spot where they began the charge';
    'Fail Cavalry take one casualty.'"""
    check = recall_check(MoraleTest(13, "austrian", "uhlans", "conscript", casualties=6, general_attached=True))
    # 4 - 2 + 1 = 3: pass on 3 or less; every failure is 'Fail', by however much.
    assert check.pass_on == 3
    assert check.odds() == {"Pass": Fraction(1, 2), "Fail": Fraction(1, 2)}
    passed = check.roll(dice(), entered=[3])
    assert passed.text.startswith("The cavalry unit is picked up") and passed.casualties == 0
    failed = check.roll(dice(), entered=[6])
    assert (failed.label, failed.casualties, failed.removed) == ("Fail", 1, False)
    assert failed.text.startswith("Cavalry take one casualty.")


def test_recall_only_in_phase_13():
    with pytest.raises(RulesError, match="phase 13"):
        recall_check(MoraleTest(12, "austrian", "uhlans", "conscript"))


# ===========================================================================
# Phases 3 and 8: movement
# ===========================================================================


@pytest.mark.parametrize(
    "number, side, unit, inches",
    [
        (3, "french", "infantry_column", 8),
        (3, "french", "skirmishers", 8),
        (3, "french", "infantry_square", 4),
        (3, "french", "dragoons", 10),
        (3, "french", "light_cavalry", 14),
        (8, "austrian", "battalion_masse", 0),
        (8, "austrian", "chevauxlegers", 14),
        (8, "austrian", "limbered_artillery", 10),
    ],
)
def test_movement_allowances(number, side, unit, inches):
    assert movement_allowance(Move(number, side, unit)).inches == inches


def test_half_movement_in_difficult_terrain():
    """'Half movement in difficult terrain, outside command range, or moving backwards.'"""
    allowance = movement_allowance(Move(3, "french", "infantry_column", difficult_terrain=True))
    assert allowance.inches == 4  # 8 / 2
    assert allowance.applied[0].printed.startswith("Half movement")


def test_half_movement_option_once_or_each():
    move = Move(8, "austrian", "cuirassiers", difficult_terrain=True, outside_command_range=True)
    assert movement_allowance(move).inches == 5  # 10 / 2, once
    assert movement_allowance(move, {"half_movement": "each"}).inches == Fraction(5, 2)  # 10 / 2 / 2


def test_double_move_over_24_inches_from_the_enemy_except_first_turn():
    """'Double move if staying over 24” from the enemy, except 1st turn!'"""
    assert movement_allowance(Move(3, "french", "infantry_column", over_24_from_enemy=True)).inches == 16
    first = movement_allowance(Move(3, "french", "infantry_column", over_24_from_enemy=True, first_turn=True))
    assert first.inches == 8 and first.applied[0].effect == "first turn: no double move"


def test_half_and_double_multiply():
    # Light cavalry 14” moving backwards (half: 7”) and staying over 24” away (double: 14”).
    move = Move(3, "french", "light_cavalry", backwards=True, over_24_from_enemy=True)
    assert movement_allowance(move).inches == 14


def test_full_move_to_change_formation_and_to_limber():
    """'Full move to change formation.'; 'Limbered Artillery (One move to limber/unlimber)'"""
    assert movement_allowance(Move(3, "french", "infantry_column", changing_formation=True)).inches == 0
    assert movement_allowance(Move(8, "austrian", "artillery", limbering=True)).inches == 0
    assert movement_allowance(Move(8, "austrian", "limbered_artillery", limbering=True)).inches == 0


def test_firefight_lock():
    """'Opposing lines of infantry within 4” of each other are locked in a firefight and cannot move,
    charge or change formation.'"""
    assert locked_in_firefight("infantry_line", "infantry_line", 4)
    assert not locked_in_firefight("infantry_line", "infantry_line", Fraction(9, 2))
    assert not locked_in_firefight("infantry_column", "infantry_line", 2)
    assert movement_allowance(Move(3, "french", "infantry_line", in_firefight=True)).inches == 0
    with pytest.raises(RulesError, match="firefight"):
        movement_allowance(Move(3, "french", "infantry_line", in_firefight=True, changing_formation=True))


@pytest.mark.parametrize("degrees", [0, 30, 45, -45])
def test_wheel_up_to_45_degrees(degrees):
    """'45 degree limit on wheeling.'"""
    check_wheel(degrees)


def test_wheel_past_45_degrees_refused():
    with pytest.raises(RulesError, match="45 degrees"):
        check_wheel(46)


@pytest.mark.parametrize(
    "move, message",
    [
        (Move(3, "austrian", "infantry_line"), "Austrians do not move in phase 3: the French move in it"),
        (Move(1, "french", "infantry_line"), "phases 3 and 8"),
        (Move(3, "french", "dragoons", into_woods=True), "stay out of woods"),
        (Move(8, "austrian", "limbered_artillery", into_woods=True), "stay out of woods"),
        (Move(3, "french", "infantry_column", in_firefight=True), "only opposing lines"),
        (Move(3, "french", "infantry_column", limbering=True), "only artillery"),
        (Move(3, "french", "artillery"), "unlimbered artillery does not move"),
        (Move(3, "french", "battalion_masse"), "the french have no battalion masse"),
        (Move(8, "austrian", "infantry_square"), "the austrian have no infantry square"),
        (Move(3, "french", "lancers"), "not a unit type"),
    ],
)
def test_movement_bad_input(move, message):
    with pytest.raises(RulesError, match=message):
        movement_allowance(move)


def test_infantry_in_woods_is_fine():
    assert movement_allowance(Move(3, "french", "skirmishers", into_woods=True)).inches == 8


# ===========================================================================
# Charges
# ===========================================================================


def test_infantry_charge_is_a_normal_move_in_column():
    """'Infantry Charges – May only charge if in column. Make a normal move into contact with the target.'"""
    assert infantry_charge(InfantryCharge(3, "french", "infantry_column", "infantry_line")).inches == 8
    rough = infantry_charge(InfantryCharge(8, "austrian", "infantry_column", "artillery", difficult_terrain=True))
    assert rough.inches == 4


@pytest.mark.parametrize(
    "charge, message",
    [
        (InfantryCharge(3, "french", "infantry_line", "infantry_line"), "only charge if in column"),
        (InfantryCharge(3, "french", "infantry_column", "hussars"), "cannot charge cavalry"),
        (InfantryCharge(3, "french", "infantry_column", "infantry_line", other_columns_on_target=1), "Multiple infantry columns"),
        (InfantryCharge(3, "french", "cuirassiers", "infantry_line"), "not infantry"),
    ],
)
def test_infantry_charge_refused(charge, message):
    with pytest.raises(RulesError, match=message):
        infantry_charge(charge)


def test_cavalry_charge_full_move_plus_2d6():
    """'Cavalry Charges – Roll 2d6” bonus movement dice.' 'Charging cavalry make a full move'."""
    charge = cavalry_charge(CavalryCharge(3, "french", "cuirassiers", "infantry_line"))
    odds = charge.odds
    # 10” + 2d6: 12” to 22”, 17” the likeliest (6 ways in 36).
    assert (min(odds), max(odds)) == (12, 22)
    assert odds[17] == Fraction(6, 36) and sum(odds.values()) == 1
    assert charge.roll(dice(), entered=[3, 4]).result == 17


def test_enemy_cavalry_contacted_by_one_unit_only():
    """'Enemy cavalry may only be contacted by one French unit.'"""
    with pytest.raises(RulesError, match="one French unit"):
        cavalry_charge(CavalryCharge(3, "french", "light_cavalry", "hussars", others_on_target=1))


def test_cavalry_charge_only_for_cavalry():
    with pytest.raises(RulesError, match="not cavalry"):
        cavalry_charge(CavalryCharge(3, "french", "infantry_column"))


def test_skirmishers_evade_2d6():
    """'Skirmishers in a charge – Shoot, and move 2d6” away.'"""
    evade = skirmishers_evade("austrian")
    assert evade.odds[7] == Fraction(1, 6)
    with pytest.raises(RulesError, match="only skirmishers"):
        skirmishers_evade("austrian", "infantry_line")


def test_french_guard_continues_the_charge_for_one_casualty():
    """Phase 5 Pass: 'French Guard infantry may take one casualty and continue the charge.'"""
    assert guard_presses_charge("french", "infantry_column") == 1
    with pytest.raises(RulesError, match="French Guard"):
        guard_presses_charge("austrian", "infantry_column")


def test_d6_casualties_and_d6_retreat():
    """'it takes d6 casualties'; 'loser retires d6”'."""
    assert card_roll("cannot_form_line").odds == {n: Fraction(1, 6) for n in range(1, 7)}
    assert card_roll("loser_retires").roll(dice(), entered=[5]).result == 5
    with pytest.raises(RulesError, match="no roll"):
        card_roll("forced_march")


# ===========================================================================
# Phases 6 and 11: melee
# ===========================================================================


@pytest.mark.parametrize(
    "figures, unit_class, formation, expected",
    [
        (7, "elite", "infantry_column", 7),  # 1 die per figure
        (6, "elite", "infantry_line", 4),  # 2 dice per 3 figures: 2 x 2
        (7, "elite", "cavalry", 4),  # 2 x 2, one extra figure: no die
        (8, "veteran", "infantry_column", 5),  # 2 x 2, two extra figures: one die
        (2, "veteran", "infantry_column", 1),  # two figures alone: one die
        (1, "veteran", "infantry_column", 0),
        (7, "veteran", "battalion_masse", 3),  # 1 die per 2 figures, no rounding up
        (5, "conscript", "infantry_column", 2),
        (8, "conscript", "infantry_square", 2),  # 1 die per 3 figures
        (0, "elite", "infantry_column", 0),
    ],
)
def test_melee_dice_no_rounding_up(figures, unit_class, formation, expected):
    """'No rounding up, except “2 dice per 3 figures” still allows one die if there are two extra figures.'"""
    assert dice_for(figures, unit_class, formation) == expected


def infantry(side, unit="infantry_column", unit_class="veteran", figures=6, **kw) -> Combatant:
    return Combatant(side, unit, unit_class, figures, **kw)


def test_infantry_against_infantry_one_die_each():
    """'BASE 4+ TO HIT'; 'Unit loses if it receives more casualties than it inflicts'."""
    # Elite column of 1 figure: 1 die. Conscript column of 2 figures: 1 die. Each hits on 4+.
    plan = melee(Melee(6, infantry("french", unit_class="elite", figures=1),
                       infantry("austrian", unit_class="conscript", figures=2)))
    assert plan.matchup == "infantry_vs_infantry"
    assert (plan.attacker_dice.dice, plan.defender_dice.dice) == (1, 1)
    # The attacker loses on (miss, hit): 1/2 x 1/2. The same for the defender. Tie otherwise.
    assert plan.odds() == {"attacker loses": Fraction(1, 4), "defender loses": Fraction(1, 4), "tie": Fraction(1, 2)}


def test_melee_result_in_the_card_words():
    plan = melee(Melee(6, infantry("french", figures=6), infantry("austrian", "infantry_line", figures=8)))
    # Veteran column 6 figures: 4 dice. Veteran line 8 figures: 4 dice.
    result = plan.roll(dice(), entered_attacker=[4, 5, 1, 1], entered_defender=[6, 1, 1, 1])
    assert (result.attacker_hits.hits, result.defender_hits.hits, result.loser) == (2, 1, "defender")
    assert result.text.startswith("Attacker inflicts 2, defender inflicts 1: defender loses. Unit loses if")
    assert "must test morale in phase 7" in result.text


def test_phase_11_ties():
    plan = melee(Melee(11, infantry("french"), infantry("austrian"), continuing=True))
    result = plan.roll(dice(), entered_attacker=[4, 1, 1, 1], entered_defender=[5, 1, 1, 1])
    assert result.loser == "tie"
    assert "Infantry units that tie continue to fight next turn in phase 6." in result.text


def test_enemy_in_defensive_terrain():
    """'Enemy in defensive terrain -1'"""
    plan = melee(Melee(6, infantry("austrian"), infantry("french", "infantry_line", defensive_terrain=True)))
    assert values(plan.attacker_dice.modifiers) == [("Enemy in defensive terrain", -1)]
    assert plan.attacker_dice.needed_text == "5+"
    assert plan.defender_dice.modifiers == ()


def test_against_cuirassiers():
    """'Vs. Cuirassiers or first combat vs. Lancers -1'"""
    plan = melee(Melee(6, Combatant("french", "cuirassiers", "elite", 6), Combatant("austrian", "cuirassiers", "veteran", 6)))
    assert plan.matchup == "cavalry_vs_cavalry"
    # Elite cavalry 6 figures: 4 dice; veteran: 3. Both fight cuirassiers: 5+.
    assert (plan.attacker_dice.dice, plan.defender_dice.dice) == (4, 3)
    assert plan.attacker_dice.needed_text == plan.defender_dice.needed_text == "5+"


def test_modifiers_add_up():
    plan = melee(Melee(6, Combatant("austrian", "hussars", "elite", 6),
                       Combatant("french", "cuirassiers", "elite", 6, defensive_terrain=True)))
    assert plan.attacker_dice.modifier == -2 and plan.attacker_dice.needed_text == "6+"


def test_lancers_first_combat_and_continuing_by_option():
    """'Vs. Cuirassiers or first combat vs. Lancers -1'; 'Lancers continuing a melee -1'
    (option lancers_continuing, default: the lancers' own dice)."""
    hussars, uhlans = Combatant("french", "light_cavalry", "veteran", 6), Combatant("austrian", "uhlans", "veteran", 6)
    first = melee(Melee(6, hussars, uhlans))
    assert values(first.attacker_dice.modifiers) == [("Vs. Cuirassiers or first combat vs. Lancers", -1)]
    assert first.defender_dice.modifiers == ()
    again = melee(Melee(11, hussars, uhlans, continuing=True))
    assert again.attacker_dice.modifiers == ()
    assert values(again.defender_dice.modifiers) == [("Lancers continuing a melee", -1)]
    other = melee(Melee(11, hussars, uhlans, continuing=True), {"lancers_continuing": "opponents_dice"})
    assert values(other.attacker_dice.modifiers) == [("Lancers continuing a melee", -1)]
    assert other.defender_dice.modifiers == ()


def test_french_lancers_by_tick():
    lancers = Combatant("french", "light_cavalry", "elite", 6, lancers=True)
    plan = melee(Melee(6, Combatant("austrian", "hussars", "veteran", 6), lancers))
    assert plan.attacker_dice.modifier == -1


def test_cavalry_against_column_or_line_destroys_the_infantry():
    """'Cavalry vs. Infantry Column or Line  Infantry destroyed'"""
    plan = melee(Melee(6, Combatant("french", "dragoons", "veteran", 6), infantry("austrian", "infantry_line")))
    assert (plan.matchup, plan.destroyed, plan.printed) == ("cavalry_vs_column_or_line", "defender", "Infantry destroyed")
    assert plan.odds() == {"Infantry destroyed": 1}
    result = plan.roll(dice())
    assert result.records == [] and result.text == "Infantry destroyed"


def test_cavalry_pass_through_a_masse():
    """'Cavalry pass through full movement distance ... take a casualty on a 4+ for each infantry unit
    contacted.' '(Infantry do not roll melee dice)'"""
    plan = melee(Melee(6, Combatant("french", "cuirassiers", "elite", 8), infantry("austrian", "battalion_masse"),
                       infantry_contacted=3))
    assert plan.matchup == "cavalry_vs_square_masse_or_fortification"
    assert plan.pass_through.dice == 3 and plan.pass_through.needed_text == "4+"
    # Each of 3 dice a casualty on 4+: binomial(3, 1/2) = 1/8, 3/8, 3/8, 1/8.
    assert plan.odds() == {"0 casualties": Fraction(1, 8), "1 casualty": Fraction(3, 8),
                           "2 casualties": Fraction(3, 8), "3 casualties": Fraction(1, 8)}
    result = plan.roll(dice(), entered_attacker=[4, 2, 6])
    assert result.pass_through.hits == 2 and result.text.endswith("The cavalry take 2 casualties.")


def test_cavalry_pass_through_a_square_or_fortification():
    square = melee(Melee(11, Combatant("austrian", "hussars", "elite", 8), infantry("french", "infantry_square")))
    fort = melee(Melee(6, Combatant("austrian", "hussars", "elite", 8), infantry("french", "infantry_line", fortification=True)))
    assert square.pass_through is not None and fort.pass_through is not None


def test_unsupported_artillery_is_destroyed():
    """'Infantry or Cavalry vs. Unsupported Artillery  Artillery destroyed'"""
    plan = melee(Melee(6, infantry("french"), Combatant("austrian", "artillery", "veteran", 4)))
    assert (plan.matchup, plan.printed, plan.destroyed) == ("vs_unsupported_artillery", "Artillery destroyed", "defender")


def test_supported_artillery_the_supporting_unit_fights():
    """'Artillery Supported by a unit 2” behind or beside it. The supporting unit fights instead of the Artillery.'"""
    support = infantry("austrian", "infantry_line", figures=8)
    plan = melee(Melee(6, infantry("french"), Combatant("austrian", "artillery", "veteran", 4, supported_by=support)))
    assert plan.matchup == "infantry_vs_infantry" and plan.defender == support
    assert plan.defender_dice.dice == 4  # veteran line, 8 figures: 1 die per 2


def test_skirmishers_contacted_are_destroyed():
    """'Skirmishers in a charge – Shoot, and move 2d6” away. Destroyed if contacted.'"""
    plan = melee(Melee(6, Combatant("french", "dragoons", "veteran", 6), infantry("austrian", "skirmishers")))
    assert (plan.printed, plan.destroyed) == ("Destroyed if contacted.", "defender")


@pytest.mark.parametrize(
    "fight, message",
    [
        (Melee(6, infantry("french"), Combatant("austrian", "hussars", "veteran", 6)), "Infantry cannot charge cavalry"),
        (Melee(6, Combatant("french", "artillery", "veteran", 4), infantry("austrian")), "artillery do not charge"),
        (Melee(6, infantry("french"), infantry("french")), "between the two sides"),
        (Melee(7, infantry("french"), infantry("austrian")), "phases 6 and 11"),
        (Melee(6, infantry("french", "skirmishers"), infantry("austrian")), "no melee dice"),
        (Melee(6, Combatant("french", "uhlans", "veteran", 6), infantry("austrian")), "the french have no uhlans"),
        (Melee(6, infantry("french", figures=-2), infantry("austrian")), "figures"),
        (Melee(6, infantry("french", unit_class="militia"), infantry("austrian")), "class"),
        (Melee(6, infantry("french"), Combatant("austrian", "artillery", "veteran", 4,
                                                 supported_by=Combatant("french", "infantry_line", "veteran", 6))),
         "its own side"),
    ],
)
def test_melee_bad_input(fight, message):
    with pytest.raises(RulesError, match=message):
        melee(fight)


def test_melee_without_dice_takes_no_dice():
    plan = melee(Melee(6, infantry("french"), Combatant("austrian", "artillery", "veteran", 4)))
    with pytest.raises(RulesError, match="no dice"):
        plan.roll(dice(), entered_attacker=[4])


# ===========================================================================
# Options and the hand-off conversion
# ===========================================================================


def test_option_defaults():
    assert resolve_options(RS) == {
        "casualties_counted": "total",
        "half_movement": "once",
        "artillery_unit_behind": "same_dice",
        "fire_odd_figure": "round_down",
        "lancers_continuing": "lancers_dice",
        "french_side": "attacker",
        "cavalry_target": "line",
        "routed_at_end": "lost",
    }


@pytest.mark.parametrize("overrides", [{"half_movement": "twice"}, {"natural_six": "hits"}])
def test_bad_options_refused(overrides):
    with pytest.raises(RulesError):
        movement_allowance(Move(3, "french", "infantry_column"), overrides)


def test_conversion_loads_and_converts():
    conversion = load_conversion(RS)
    assert conversion.size == {"infantry": 12, "cavalry": 8, "artillery": 4}
    assert any("editorial" in note for note in conversion.notes)
    order = tactical_order(
        conversion,
        [("ii", "II Corps", "infantry", 2, 3), ("g", "Guard", "infantry", 1, 6), ("c", "Cavalry", "cavalry", 1, 2)],
        [("Ney", 3)],
    )
    assert [(u.name, u.size, u.quality) for u in order.units] == [
        ("II Corps battalion 1", 12, "veteran"),
        ("II Corps battalion 2", 12, "veteran"),
        ("Guard", 12, "elite"),
        ("Cavalry", 8, "conscript"),
    ]
    assert order.leaders == [("Ney", "general")]
    # 6 of 12 infantry figures: half an SP, rounded to the nearest (half up): 1. Five: 0.
    assert sp_lost(conversion, "infantry", 6) == 1
    assert sp_lost(conversion, "infantry", 5) == 0


def test_every_class_the_conversion_gives_is_on_the_card():
    conversion = load_conversion(RS)
    for unit_class in conversion.quality.values():
        assert morale_check(MoraleTest(2, "french", "infantry_line", unit_class)).printed.endswith("or less")


# ===========================================================================
# Properties
# ===========================================================================

CLASSES = st.sampled_from(["elite", "veteran", "conscript"])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 30), CLASSES, st.sampled_from(["infantry_column", "infantry_line", "cavalry"]))
def test_property_more_figures_never_fewer_melee_dice(figures, unit_class, formation):
    assert dice_for(figures + 1, unit_class, formation) >= dice_for(figures, unit_class, formation)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 20), CLASSES, st.booleans(), st.sampled_from([2, 4, 7, 9, 12]))
def test_property_morale_odds_exact_and_casualties_never_help(casualties, unit_class, general, number):
    side = "austrian" if number == 9 else "french"
    check = morale_check(MoraleTest(number, side, "infantry_line", unit_class, casualties=casualties, general_attached=general))
    worse = morale_check(MoraleTest(number, side, "infantry_line", unit_class, casualties=casualties + 3, general_attached=general))
    assert sum(check.odds().values()) == 1
    assert worse.odds().get("Pass", 0) <= check.odds().get("Pass", 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), CLASSES, CLASSES, st.booleans(), st.booleans())
def test_property_melee_odds_sum_to_one(fig_a, fig_d, class_a, class_d, terrain, continuing):
    plan = melee(Melee(11, Combatant("austrian", "uhlans", class_a, fig_a),
                       Combatant("french", "cuirassiers", class_d, fig_d, defensive_terrain=terrain),
                       continuing=continuing))
    assert sum(plan.odds().values()) == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 8), st.sampled_from(["close", "medium", "long"]), st.sampled_from([3, 6, 8, 12]),
       st.sampled_from(["column", "line", "skirmishers"]))
def test_property_artillery_odds_exact_and_closer_never_worse(crew, range_band, pounds, target):
    shot = artillery_fire(ArtilleryFire(crew=crew, gun_pounds=pounds, target=target, range=range_band)).at_target
    close = artillery_fire(ArtilleryFire(crew=crew, gun_pounds=pounds, target=target, range="close")).at_target
    assert sum(shot.odds().values()) == 1
    assert close.needed <= shot.needed

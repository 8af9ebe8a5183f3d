"""The procedures of "Allemagne 1813" checked against the tables card.

Every test quotes the line of the card it checks, from the text copy
../shared/seeds/000_af08e2398854582c.txt ("combat modifieRS", "Weather
Modifiers", "aRtilleRY table", "PURSUit table", "WeatHeR table", "movement
table", "teRRain effectS", "foRced maRcH table", "command PointS"), then calls
the procedure.  Where the card is silent the product uses a named rules option
(rules/allemagne1813/options.toml); those tests name the option and check both
its default and its alternative.

Expected values are worked out here from the card, not read from the data files.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import RulesError
from rules.allemagne1813.combat import (
    CombatSide,
    Leader,
    artillery_fires,
    artillery_modifiers,
    battle_rounds,
    cohesion_modifier,
    column_shift,
    combat_column,
    commanding_leader,
    dice_modifiers,
    modified_sp,
    pursuit_modifiers,
    read_roll,
    whole_sp,
)
from rules.allemagne1813.command import action_cost, roll_command_points
from rules.allemagne1813.data import Situation
from rules.allemagne1813.forced_march import (
    forced_march_loss,
    forced_march_modifiers,
    forced_march_odds,
)
from rules.allemagne1813.movement import movement_points, stack_fits
from rules.allemagne1813.weather import month_modifier, mud_is_forced, roll_weather
from rules.dice import ENTERED, ROLLED, DiceError, DiceService, Modifier
from rules.options import resolve_options

RS = "allemagne1813"

# The card's combat columns, left to right (index 0 .. 9).
COLUMNS = ["1-3", "4-6", "7-10", "11-15", "16-21", "22-29", "30-40", "41-60", "61-80", "81 et +"]
LAST = len(COLUMNS) - 1


def side(infantry: int = 0, cavalry: int = 0, artillery: int = 0, **kw) -> CombatSide:
    return CombatSide({"infantry": infantry, "cavalry": cavalry, "artillery": artillery}, **kw)


def total(mods) -> int:
    return sum(m.value for m in mods)


def labels(mods) -> set[str]:
    return {m.label for m in mods}


# ===========================================================================
# Combat: modifiers to the number of SP
# ===========================================================================


def test_fatigued_attacker_halves_attacker_sp():
    """'Fatigued Attacker: A x 0.5'"""
    force = side(infantry=12, cavalry=6, artillery=2)
    tired = Situation(attacker_fatigued=True)
    assert modified_sp("attacker", force, tired).value == Fraction(20, 2)
    # A only: the defender facing a fatigued attacker keeps his SP.
    assert modified_sp("defender", force, tired).value == 20
    assert modified_sp("attacker", force, Situation()).value == 20


def test_fortified_city_quarters_attacker_sp():
    """'Defender in a fortified city: A x 0.25'"""
    force = side(infantry=13, cavalry=3)
    city = Situation(defender_in_fortified_city=True)
    assert modified_sp("attacker", force, city).value == Fraction(16, 4)
    assert modified_sp("defender", force, city).value == 16


@pytest.mark.parametrize(
    "situation",
    [Situation(defender_in_mountain=True), Situation(defender_in_defensive_terrain=True)],
    ids=["mountain", "defensive terrain"],
)
@pytest.mark.parametrize("role", ["attacker", "defender"])
def test_cavalry_halved_in_mountain_or_defensive_terrain(situation, role):
    """'SP of cavalry in mountains or defensive terrain: A and D x 0.5'

    Both sides, and only the cavalry: infantry and artillery keep their SP."""
    force = side(infantry=10, cavalry=7, artillery=3)
    worked = modified_sp(role, force, situation)
    assert worked.value == 10 + Fraction(7, 2) + 3
    assert [a.id for a in worked.applied] == ["cavalry_in_rough_ground"]
    assert "cavalry" in worked.applied[0].effect


def test_no_cavalry_no_cavalry_multiplier():
    """'SP of cavalry in mountains or defensive terrain: A and D x 0.5' (only cavalry)"""
    force = side(infantry=9, artillery=2)
    assert modified_sp("defender", force, Situation(defender_in_mountain=True)).value == 11


def test_sp_multipliers_are_cumulative():
    """'These multipliers are cumulative.'

    A fatigued attacker's cavalry attacking a fortified city in a mountain:
    x0.5 (fatigued) * x0.25 (fortified city) * x0.5 (cavalry in mountain) = x1/16;
    his infantry only x0.5 * x0.25 = x1/8."""
    force = side(infantry=16, cavalry=32)
    situation = Situation(
        attacker_fatigued=True, defender_in_fortified_city=True, defender_in_mountain=True
    )
    worked = modified_sp("attacker", force, situation)
    assert worked.value == Fraction(16, 8) + Fraction(32, 16)  # 2 + 2
    cavalry_lines = sorted(a.id for a in worked.applied if a.effect.startswith("cavalry"))
    assert cavalry_lines == ["cavalry_in_rough_ground", "fatigued_attacker", "fortified_city"]
    # The defender in the same battle: only his cavalry is halved.
    assert modified_sp("defender", force, situation).value == 16 + 16


@pytest.mark.parametrize(
    "sp, down, nearest",
    [
        (Fraction(15, 2), 7, 8),  # 7.5
        (Fraction(29, 4), 7, 7),  # 7.25
        (Fraction(31, 4), 7, 8),  # 7.75
        (Fraction(1, 2), 0, 1),
        (Fraction(1, 4), 0, 0),
        (Fraction(8), 8, 8),
    ],
)
def test_whole_sp_rounding_by_option(sp, down, nearest):
    """'Modifiers to the number of SP: ... A x 0.5 ... A x 0.25' give fractions;
    the card's columns are whole numbers.  Option sp_fractions: round_down
    (default, drop the fraction) or round_nearest (halves up)."""
    assert whole_sp(sp) == down
    assert whole_sp(sp, {"sp_fractions": "round_down"}) == down
    assert whole_sp(sp, {"sp_fractions": "round_nearest"}) == nearest


def test_sp_fractions_default_is_round_down():
    """'A x 0.5' on 15 SP gives 7.5: the default drops the half."""
    assert resolve_options(RS)["sp_fractions"] == "round_down"
    worked = modified_sp("attacker", side(infantry=15), Situation(attacker_fatigued=True))
    assert whole_sp(worked.value) == 7


_bools = st.booleans()
_facts = st.fixed_dictionaries(
    {
        name: _bools
        for name in (
            "flank_attack", "defender_encircled", "defender_in_mountain", "defender_in_defensive_terrain",
            "defender_entrenched", "defender_in_fortified_city", "attacker_crosses_bridge",
            "defence_in_open_terrain", "attacker_fatigued",
        )
    }
).filter(  # open terrain with mountain or defensive terrain is refused (test_open_terrain_excludes_...)
    lambda f: not (f["defence_in_open_terrain"] and (f["defender_in_mountain"] or f["defender_in_defensive_terrain"]))
)
_situations = st.builds(
    lambda facts, weather: Situation(weather=weather, **facts), _facts, st.sampled_from(["clear", "rain", "mud", "snow"])
)
_sp = st.integers(min_value=0, max_value=200)


@given(
    situation=_situations,
    role=st.sampled_from(["attacker", "defender"]),
    inf=_sp,
    cav=_sp,
    art=_sp,
)
def test_property_multipliers_never_increase_sp_and_match_the_card(situation, role, inf, cav, art):
    """'These multipliers are cumulative.' Every multiplier is below 1, so the SP
    never grow; the result is the product of the card's lines, arm by arm."""
    force = side(infantry=inf, cavalry=cav, artillery=art)
    value = modified_sp(role, force, situation).value
    assert 0 <= value <= force.strength_points
    attacker = role == "attacker"
    common = Fraction(1)
    if attacker and situation.attacker_fatigued:
        common *= Fraction(1, 2)
    if attacker and situation.defender_in_fortified_city:
        common *= Fraction(1, 4)
    cavalry = common
    if situation.defender_in_mountain or situation.defender_in_defensive_terrain:
        cavalry *= Fraction(1, 2)
    assert value == (inf + art) * common + cav * cavalry
    for option in ("round_down", "round_nearest"):
        assert whole_sp(value, {"sp_fractions": option}) <= force.strength_points


# ===========================================================================
# Combat: modifiers to columns
# ===========================================================================


@pytest.mark.parametrize(
    "line, situation, attacker, defender",
    [
        ("Flank attack: A + 2R", Situation(flank_attack=True), 2, 0),
        ("Defender encircled: A + 3R", Situation(defender_encircled=True), 3, 0),
        ("Defender in mountain: A –1L", Situation(defender_in_mountain=True), -1, 0),
        (
            "Defender in defensive terrain: A –1L and D +1R",
            Situation(defender_in_defensive_terrain=True),
            -1,
            1,
        ),
        ("Defender entrenched: A –1L", Situation(defender_entrenched=True), -1, 0),
        ("(nothing applies)", Situation(), 0, 0),
    ],
)
@pytest.mark.parametrize("round_number", [1, 2, 3])
def test_each_column_shift_line(line, situation, attacker, defender, round_number):
    """Modifiers to Columns (R = right, L = left), one line at a time."""
    assert column_shift("attacker", situation, round_number).value == attacker, line
    assert column_shift("defender", situation, round_number).value == defender, line


def test_column_shift_applied_lines_quote_the_card():
    """'Defender in defensive terrain: A -1L and D +1R' is shown as applied."""
    worked = column_shift("defender", Situation(defender_in_defensive_terrain=True), 1)
    assert [a.id for a in worked.applied] == ["defensive_terrain"]
    assert "D +1R" in worked.applied[0].printed


@pytest.mark.parametrize("round_number, shift", [(1, 0), (2, 0), (3, 0), (4, -1)])
def test_fourth_round_shifts_both_sides_left(round_number, shift):
    """'Fourth round of combat in a battle: A -1L and D -1L' (only the fourth)."""
    assert column_shift("attacker", Situation(), round_number).value == shift
    assert column_shift("defender", Situation(), round_number).value == shift


def test_column_shifts_are_cumulative():
    """'These adjustments are cumulative, EXCEPT flank attacks on encircled defenders.'

    Flank attack on a defender in a mountain, in defensive terrain and
    entrenched, round 4: A +2 -1 -1 -1 -1 = -2; D +1 -1 = 0."""
    situation = Situation(
        flank_attack=True,
        defender_in_mountain=True,
        defender_in_defensive_terrain=True,
        defender_entrenched=True,
    )
    assert column_shift("attacker", situation, 4).value == -2
    assert column_shift("defender", situation, 4).value == 0
    assert column_shift("attacker", situation, 1).value == -1
    assert column_shift("defender", situation, 1).value == 1
    # Encircled defender in a mountain: +3 -1.
    assert column_shift("attacker", Situation(defender_encircled=True, defender_in_mountain=True), 1).value == 2


def test_flank_and_encircled_do_not_combine_default_encircled_only():
    """'... cumulative, EXCEPT flank attacks on encircled defenders.'
    Option flank_and_encircled, default encircled_only: +3R, not +5R."""
    situation = Situation(flank_attack=True, defender_encircled=True)
    worked = column_shift("attacker", situation, 1)
    assert worked.value == 3
    assert [a.id for a in worked.applied] == ["encircled"]
    assert column_shift("attacker", situation, 1, {"flank_and_encircled": "encircled_only"}).value == 3


def test_flank_and_encircled_option_flank_only():
    """'... EXCEPT flank attacks on encircled defenders.' With flank_only: +2R."""
    situation = Situation(flank_attack=True, defender_encircled=True)
    worked = column_shift("attacker", situation, 1, {"flank_and_encircled": "flank_only"})
    assert worked.value == 2
    assert [a.id for a in worked.applied] == ["flank_attack"]
    # The exception still lets the other shifts add up: + mountain, + round 4.
    situation = Situation(flank_attack=True, defender_encircled=True, defender_in_mountain=True)
    assert column_shift("attacker", situation, 4, {"flank_and_encircled": "flank_only"}).value == 0
    assert column_shift("attacker", situation, 4).value == 1


@given(situation=_situations, round_number=st.integers(1, 4))
def test_property_flank_and_encircled_never_make_five(situation, round_number):
    """'These adjustments are cumulative, EXCEPT flank attacks on encircled defenders.'

    The attacker's shift is bounded by the card's lines: at most +3R (encircled),
    at least -1 -1 -1 -1 = -4L; the defender's between -1L and +1R."""
    a = column_shift("attacker", situation, round_number).value
    d = column_shift("defender", situation, round_number).value
    assert -4 <= a <= 3
    assert -1 <= d <= 1


# ===========================================================================
# Combat: the column of the combat table
# ===========================================================================


@pytest.mark.parametrize(
    "sp, column",
    [
        (1, "1-3"), (3, "1-3"), (4, "4-6"), (6, "4-6"), (7, "7-10"), (10, "7-10"),
        (11, "11-15"), (15, "11-15"), (16, "16-21"), (21, "16-21"), (22, "22-29"),
        (29, "22-29"), (30, "30-40"), (35, "30-40"), (40, "30-40"), (41, "41-60"),
        (60, "41-60"), (61, "61-80"), (80, "61-80"), (81, "81 et +"), (250, "81 et +"),
    ],
)
def test_combat_column_maps_sp_to_the_printed_bands(sp, column):
    """'dice 1-3 4-6 7-10 11-15 16-21 22-29 30-40 41-60 61-80 81 et +'"""
    assert combat_column(sp, 0) == COLUMNS.index(column)


def test_sp_35_reads_column_30_40():
    """'30-40' is the seventh printed column: index 6."""
    assert combat_column(35, 0) == 6


@pytest.mark.parametrize("shift, column", [(1, "41-60"), (2, "61-80"), (-1, "22-29"), (-3, "11-15")])
def test_shifts_move_the_column(shift, column):
    """'Modifiers to Columns (R= right, L= Left)': 35 SP, shifted."""
    assert combat_column(35, shift) == COLUMNS.index(column)


@pytest.mark.parametrize("sp, shift", [(35, 3), (35, 10), (81, 1), (70, 2), (500, 5)])
def test_shift_right_stops_at_81_et_plus(sp, shift):
    """'81 et +' is the last column: shifting past it reads it."""
    assert combat_column(sp, shift) == LAST


@pytest.mark.parametrize("sp, shift", [(2, -1), (5, -2), (35, -9)])
def test_shift_left_of_first_column_by_option(sp, shift):
    """'1-3' is the first column. Option column_below_table: first_column (default)
    reads it; no_fire inflicts no loss."""
    assert combat_column(sp, shift) == 0
    assert combat_column(sp, shift, {"column_below_table": "first_column"}) == 0
    assert combat_column(sp, shift, {"column_below_table": "no_fire"}) is None


def test_shift_that_just_reaches_first_column_fires_under_no_fire():
    """'1-3': a shift that lands on the first column is on the table."""
    assert combat_column(5, -1, {"column_below_table": "no_fire"}) == 0


@pytest.mark.parametrize("sp", [0, -1])
def test_sp_below_one_by_option(sp):
    """'1-3' is the lowest printed SP: a force under 1 SP reads it by default,
    and inflicts nothing under column_below_table = no_fire."""
    assert combat_column(sp, 0) == 0
    assert combat_column(sp, 0, {"column_below_table": "no_fire"}) is None
    assert combat_column(sp, 2, {"column_below_table": "no_fire"}) is None


@given(
    sp=st.integers(min_value=-5, max_value=1000),
    shift=st.integers(min_value=-15, max_value=15),
    below=st.sampled_from(["first_column", "no_fire"]),
)
def test_property_column_never_leaves_the_table(sp, shift, below):
    """The combat table has ten columns, '1-3' to '81 et +'."""
    column = combat_column(sp, shift, {"column_below_table": below})
    if below == "first_column":
        assert column is not None
    if column is None:
        assert below == "no_fire"
    else:
        assert 0 <= column <= LAST


@given(sp=st.integers(min_value=1, max_value=300), shift=st.integers(min_value=-12, max_value=11))
def test_property_shift_right_never_reads_a_weaker_column(sp, shift):
    """'R= right': a shift one more to the right never reads a column to the left."""
    assert combat_column(sp, shift + 1) >= combat_column(sp, shift)


# ===========================================================================
# Combat: modifiers to the dice
# ===========================================================================


def test_commanding_leader_is_highest_rank():
    """'Tactical bonus of the leader with the highest Rank'"""
    ney = Leader("Ney", rank=3, tactical_bonus=1)
    murat = Leader("Murat", rank=2, tactical_bonus=3)
    assert commanding_leader([murat, ney]) == ney
    own = side(infantry=10, leaders=[murat, ney])
    mods = dice_modifiers("attacker", own, side(infantry=10), Situation(), 1)
    assert total(mods) == 1
    assert any("Ney" in m.label for m in mods)


def test_equal_rank_takes_the_better_bonus():
    """'(if equal in rank, the better bonus)'"""
    a = Leader("Marmont", rank=2, tactical_bonus=1)
    b = Leader("Bertrand", rank=2, tactical_bonus=2)
    assert commanding_leader([a, b]) == b
    assert commanding_leader([b, a]) == b
    own = side(infantry=10, leaders=[a, b])
    assert total(dice_modifiers("defender", own, side(infantry=10), Situation(), 1)) == 2


def test_no_leader_no_tactical_bonus():
    """'Tactical bonus of the leader ...': a force without a leader has none."""
    assert commanding_leader([]) is None
    assert dice_modifiers("attacker", side(infantry=5), side(infantry=5), Situation(), 1) == []


COHESIVE = Fraction(7, 2)  # 3.5
SHAKY = Fraction(2)  # difference 1.5


def test_cohesion_difference_default_better_side():
    """'Difference in average cohesion' -- option cohesion_difference, default
    better_side: only the side with the better average adds the difference,
    rounded toward zero (option average_cohesion, default): 1.5 gives +1."""
    good = side(infantry=10, average_cohesion=COHESIVE)
    poor = side(infantry=10, average_cohesion=SHAKY)
    assert total(dice_modifiers("attacker", good, poor, Situation(), 1)) == 1
    assert dice_modifiers("defender", poor, good, Situation(), 1) == []
    assert total(dice_modifiers("defender", good, poor, Situation(), 1)) == 1


def test_cohesion_difference_both_signed():
    """'Difference in average cohesion' -- option both_signed: each side adds its
    own average minus the enemy's: +1 and -1 for a difference of 1.5."""
    opts = {"cohesion_difference": "both_signed"}
    good = side(infantry=10, average_cohesion=COHESIVE)
    poor = side(infantry=10, average_cohesion=SHAKY)
    assert total(dice_modifiers("attacker", good, poor, Situation(), 1, opts)) == 1
    assert total(dice_modifiers("defender", poor, good, Situation(), 1, opts)) == -1


def test_average_cohesion_round_nearest():
    """'Difference in average cohesion' -- option average_cohesion = round_nearest:
    1.5 gives 2 (halves away from zero), and -1.5 gives -2 under both_signed."""
    good = side(infantry=10, average_cohesion=COHESIVE)
    poor = side(infantry=10, average_cohesion=SHAKY)
    nearest = {"average_cohesion": "round_nearest"}
    assert total(dice_modifiers("attacker", good, poor, Situation(), 1, nearest)) == 2
    assert dice_modifiers("defender", poor, good, Situation(), 1, nearest) == []
    both = {**nearest, "cohesion_difference": "both_signed"}
    assert total(dice_modifiers("defender", poor, good, Situation(), 1, both)) == -2


@pytest.mark.parametrize(
    "difference, toward_zero, nearest",
    [
        (Fraction(3, 2), 1, 2),
        (Fraction(-3, 2), -1, -2),
        (Fraction(5, 4), 1, 1),
        (Fraction(-7, 4), -1, -2),
        (Fraction(1, 3), 0, 0),
        (Fraction(0), 0, 0),
        (Fraction(2), 2, 2),
    ],
)
def test_cohesion_modifier_rounding(difference, toward_zero, nearest):
    """'Difference in average cohesion' made a whole die modifier (option average_cohesion)."""
    assert cohesion_modifier(difference) == toward_zero
    assert cohesion_modifier(difference, {"average_cohesion": "round_nearest"}) == nearest


@given(
    a=st.fractions(min_value=0, max_value=6, max_denominator=12),
    b=st.fractions(min_value=0, max_value=6, max_denominator=12),
)
def test_property_cohesion_modifier_never_exceeds_the_difference(a, b):
    """'Difference in average cohesion': rounded toward zero, a side never gets more
    than the difference it has; under both_signed the two sides' modifiers cancel."""
    m = cohesion_modifier(a - b)
    assert abs(m) <= abs(a - b)
    opts = {"cohesion_difference": "both_signed"}
    x, y = side(infantry=1, average_cohesion=a), side(infantry=1, average_cohesion=b)
    att = total(dice_modifiers("attacker", x, y, Situation(), 1, opts))
    dfn = total(dice_modifiers("defender", y, x, Situation(), 1, opts))
    assert att == -dfn


def test_bridge_attacker_minus_two():
    """'Attacking across a bridge: A -2 (*)'"""
    situation = Situation(attacker_crosses_bridge=True)
    even = side(infantry=10)
    assert total(dice_modifiers("attacker", even, even, situation, 1)) == -2
    assert dice_modifiers("defender", even, even, situation, 1) == []


@pytest.mark.parametrize(
    "rough, named",
    [
        ({"defender_in_mountain": True}, "'Defender in mountain'"),
        ({"defender_in_defensive_terrain": True}, "'Defender in defensive terrain'"),
        (
            {"defender_in_mountain": True, "defender_in_defensive_terrain": True},
            "'Defender in mountain' and 'Defender in defensive terrain'",
        ),
    ],
)
def test_open_terrain_excludes_mountain_and_defensive_terrain(rough, named):
    """'Defence is open terrain: D +1' cannot hold with 'Defender in mountain: A –1L' or
    'Defender in defensive terrain: A –1L and D +1R': with all three the defender got
    the open-terrain die and the attacker -2L. One sentence names the card's lines."""
    with pytest.raises(RulesError) as caught:
        Situation(defence_in_open_terrain=True, **rough)
    assert str(caught.value) == (
        f"the card's 'Defence is open terrain: D +1' excludes {named}: the defender cannot be in both"
    )
    Situation(**rough)  # without open terrain, the card's cumulative lines stand


def test_open_terrain_defender_plus_one():
    """'Defence is open terrain: D +1'"""
    situation = Situation(defence_in_open_terrain=True)
    even = side(infantry=10)
    assert total(dice_modifiers("defender", even, even, situation, 1)) == 1
    assert dice_modifiers("attacker", even, even, situation, 1) == []


@pytest.mark.parametrize("round_number, value", [(1, 0), (2, 0), (3, -1), (4, -1)])
def test_third_and_fourth_round(round_number, value):
    """'Third and Fourth round of combat in a battle: A-1 and D-1'"""
    even = side(infantry=10)
    assert total(dice_modifiers("attacker", even, even, Situation(), round_number)) == value
    assert total(dice_modifiers("defender", even, even, Situation(), round_number)) == value


def test_dice_modifiers_are_cumulative():
    """'These modifiers are cumulative'

    Attacker: leader +2, cohesion 4 against 2 (+2), across a bridge (-2),
    round 3 (-1) = +1.  Defender in open terrain: leader +1, no cohesion bonus
    (the worse side, default), open terrain +1, round 3 -1 = +1."""
    attacker = side(infantry=20, leaders=[Leader("Davout", 3, 2)], average_cohesion=Fraction(4))
    defender = side(infantry=20, leaders=[Leader("Blücher", 3, 1)], average_cohesion=Fraction(2))
    situation = Situation(attacker_crosses_bridge=True, defence_in_open_terrain=True)
    a = dice_modifiers("attacker", attacker, defender, situation, 3)
    d = dice_modifiers("defender", defender, attacker, situation, 3)
    assert sorted(m.value for m in a) == [-2, -1, 2, 2]
    assert total(a) == 1
    assert sorted(m.value for m in d) == [-1, 1, 1]
    assert total(d) == 1


# ===========================================================================
# Weather: battles, artillery, pursuit
# ===========================================================================


def test_snow_reduces_battle_rounds_by_one():
    """'If the weather is Snow ("Neige"), the number of rounds in each battle is
    reduced by one (the minimum remains 1)' -- four rounds ('Fourth round of
    combat in a battle') become three."""
    assert battle_rounds("clear") == 4
    assert battle_rounds("rain") == 4
    assert battle_rounds("mud") == 4
    assert battle_rounds("snow") == 3
    assert battle_rounds("snow") >= 1


def test_battle_rounds_is_a_named_option():
    """The card names no number of rounds, only a 'Fourth round of combat in a battle';
    option battle_rounds: 4 by default, or 6 with the fifth and sixth fought as the fourth."""
    six = {"battle_rounds": "6"}
    assert battle_rounds("clear", six) == 6 and battle_rounds("snow", six) == 5
    # Round 5 under "6" takes the fourth round's shift (A -1L and D -1L) and
    # dice modifier (A-1 and D-1), as round 4 does.
    for n in (4, 5, 6):
        assert column_shift("attacker", Situation(), n, six).value == -1
        assert [m.value for m in dice_modifiers("attacker", side(10), side(10), Situation(), n, six)] == [-1]
    # Even rounds after the fourth fire: 'only used during even rounds of a battle'.
    assert [artillery_fires(n) for n in (5, 6)] == [False, True]


@pytest.mark.parametrize("round_number, fires", [(1, False), (2, True), (3, False), (4, True)])
def test_artillery_fires_in_even_rounds(round_number, fires):
    """'This table is only used during even rounds of a battle (2nd and 4th)'"""
    assert artillery_fires(round_number) is fires


@pytest.mark.parametrize("weather, value", [("clear", 0), ("rain", 0), ("mud", 0), ("snow", -1)])
def test_artillery_snow_minus_one(weather, value):
    """Artillery table 'Modifiers: If the weather is Snow: -1 to the dice'"""
    mods = artillery_modifiers(weather)
    assert total(mods) == value
    assert len(mods) == (1 if value else 0)


def test_artillery_roll_below_table_reads_lowest_row():
    """Artillery '1 - 3' (blank) is the lowest printed row: a 1 in snow is 0,
    read there by the option roll_below_table (default nearest_row)."""
    assert read_roll("artillery", 0, "roll_below_table") == 1
    with pytest.raises(RulesError):
        read_roll("artillery", 0, "roll_below_table", {"roll_below_table": "ask_umpire"})


def test_no_pursuit_in_mud():
    """'There is no pursuit in Mud weather'"""
    assert pursuit_modifiers("mud") is None


@pytest.mark.parametrize("weather, value", [("clear", 0), ("rain", -1), ("snow", -1)])
def test_pursuit_weather_modifier(weather, value):
    """Pursuit table 'Modifiers: If the weather is Snow or Rain: - 1 to the dice'"""
    mods = pursuit_modifiers(weather)
    assert mods is not None
    assert total(mods) == value
    if weather == "clear":
        assert mods == []


@pytest.mark.parametrize("roll, row", [(11, 10), (13, 10), (-2, -1), (-5, -1), (4, 4)])
def test_combat_roll_beyond_printed_rows_reads_nearest(roll, row):
    """The combat table prints rows '-1' to '10' and no 'et +': option
    combat_roll_beyond_table (default nearest_row) reads the nearest printed row;
    ask_umpire stops."""
    assert read_roll("combat", roll, "combat_roll_beyond_table") == row
    if roll != row:
        with pytest.raises(RulesError):
            read_roll("combat", roll, "combat_roll_beyond_table", {"combat_roll_beyond_table": "ask_umpire"})


# ===========================================================================
# Weather roll
# ===========================================================================


@pytest.mark.parametrize(
    "month, value",
    [(1, 1), (2, 1), (3, -1), (4, 1), (5, 0), (6, -1), (7, -1), (8, 0), (9, 1), (10, 0), (11, 0), (12, 1)],
)
def test_month_modifier(month, value):
    """'+1 to the dice in January, February, April, September and December.
    -1 to the dice in March, June and July'"""
    assert month_modifier(month).value == value


@pytest.mark.parametrize(
    "month, die, printed",
    [
        (10, 4, "Rain*"),  # October: 4 + 0 -> 'Rain *'
        (10, 3, "Clear"),
        (10, 5, "Rain*"),
        (10, 6, "Snow"),
        (1, 5, "Snow"),  # January: 5 + 1 = 6 -> '6 et +' Snow
        (1, 3, "Rain*"),  # January: 3 + 1 = 4 -> 'Rain *'
        (3, 5, "Rain*"),  # March: 5 - 1 = 4 -> 'Rain *'
        (3, 1, "Clear"),  # March: 1 - 1 = 0 -> '1 et -'
        (5, 5, "Rain"),  # May: 5 -> Rain
        (6, 6, "Rain"),  # June: 6 - 1 = 5 -> Rain
        (4, 5, "Rain*"),  # April: 5 + 1 = 6 -> 'Rain *'
        (7, 6, "Clear"),  # July: 6 - 1 = 5 -> Clear
        (9, 5, "Rain"),  # September: 5 + 1 = 6 -> Rain
        (12, 6, "Snow"),  # December: 6 + 1 = 7 -> '6 et +'
    ],
)
def test_entered_weather_dice(month, die, printed):
    """'WeatHeR table' read with the die the players rolled, plus the month's modifier."""
    dice = DiceService(seed=1)
    weather = roll_weather(dice, month, None, entered=[die])
    assert weather.printed == printed
    assert not weather.forced
    assert weather.record is not None
    assert weather.record.mode == ENTERED
    assert weather.record.raw == (die,)
    assert weather.record.result == die + month_modifier(month).value
    assert dice.next_index == 0  # typed-in dice do not use the stream


def test_october_four_is_rain_star_and_next_turn_is_mud():
    """'If the result is Rain*, the turn in progress in a normal Rain turn, but the
    following turn will be a Mud turn (without throwing the dice).'"""
    dice = DiceService(seed=1813)
    this_turn = roll_weather(dice, 10, None, entered=[4])
    assert this_turn.printed == "Rain*"
    assert this_turn.name == "rain"  # a normal Rain turn
    assert this_turn.next_turn_mud
    assert mud_is_forced("Rain*")


def test_turn_after_rain_star_is_mud_without_a_roll():
    """'... the following turn will be a Mud turn (without throwing the dice)'"""
    seen = []
    dice = DiceService(seed=1813, recorder=seen.append)
    before = dice.next_index
    weather = roll_weather(dice, 10, "Rain*")
    assert weather.printed == "Mud"
    assert weather.name == "mud"
    assert weather.forced
    assert weather.record is None  # no dice record
    assert dice.next_index == before  # no dice consumed
    assert dice.history == [] and seen == []
    # Not even a typed-in die is asked for.
    assert roll_weather(dice, 10, "Rain*", entered=[6]).printed == "Mud"
    assert dice.history == []


def test_after_the_mud_turn_the_dice_roll_again():
    """'After the turn of Mud, return to using the dice to generate the weather.'"""
    dice = DiceService(seed=1813)
    mud = roll_weather(dice, 11, "Rain*")
    assert mud.printed == "Mud" and not mud.next_turn_mud
    after = roll_weather(dice, 11, mud.printed)
    assert not after.forced
    assert after.record is not None and after.record.mode == ROLLED
    assert after.record.index == 0
    assert dice.next_index == 1
    assert after.printed in {"Clear", "Rain", "Rain*", "Snow"}


@pytest.mark.parametrize("previous", [None, "Clear", "Rain", "Snow", "Mud"])
def test_only_rain_star_forces_mud(previous):
    """'If the result is Rain*, ... the following turn will be a Mud turn' -- and
    only then."""
    assert not mud_is_forced(previous)
    dice = DiceService(seed=7)
    assert not roll_weather(dice, 10, previous).forced
    assert dice.next_index == 1


@pytest.mark.parametrize("month", range(1, 13))
def test_rolled_weather_is_seeded_and_modified_by_month(month):
    """'Modifiers: +1 to the dice in January, ...' on a seeded roll."""
    a = roll_weather(DiceService(seed=42), month, None)
    b = roll_weather(DiceService(seed=42), month, None)
    assert a == b
    record = a.record
    assert record.result == record.raw[0] + month_modifier(month).value
    assert total(record.modifiers) == month_modifier(month).value


@pytest.mark.parametrize("bad", [[0], [7], [-1], [4, 4]])
def test_entered_weather_dice_outside_one_to_six_refused(bad):
    """'WeatHeR table' is read with 1d6: a d6 shows 1 to 6."""
    with pytest.raises(DiceError):
        roll_weather(DiceService(seed=1), 10, None, entered=bad)


# ===========================================================================
# Movement
# ===========================================================================


@pytest.mark.parametrize(
    "unit, mp", [("general", 8), ("cavalry", 8), ("infantry", 6), ("artillery", 6)]
)
def test_movement_points_in_clear_weather(unit, mp):
    """'Generals 8', 'Cavalry 8', 'Infantry 6', 'Reserve artillery 6'"""
    assert movement_points(unit, "clear").total == mp


@pytest.mark.parametrize(
    "unit, mp", [("general", 7), ("cavalry", 7), ("infantry", 5), ("artillery", 5)]
)
def test_out_of_command_minus_one(unit, mp):
    """'* Reduce by 1 MP if the unit is out of command'"""
    worked = movement_points(unit, "clear", out_of_command=True)
    assert worked.out_of_command == -1
    assert worked.total == mp


@pytest.mark.parametrize("weather", ["rain", "snow"])
@pytest.mark.parametrize(
    "unit, mp", [("general", 7), ("cavalry", 7), ("infantry", 5), ("artillery", 5)]
)
def test_rain_and_snow_minus_one_for_all(weather, unit, mp):
    """'Rain and Snow: -1PM for all'"""
    assert movement_points(unit, weather).total == mp


@pytest.mark.parametrize("unit, mp", [("infantry", 5), ("cavalry", 6), ("artillery", 3)])
def test_mud(unit, mp):
    """'Mud: -1PM for infantry and generals, -2PM for the cavalry, -3PM for reserve artillery'"""
    assert movement_points(unit, "mud").total == mp


def test_generals_in_mud_default_terrain_table():
    """Terrain effects, Mud: '-2 MP for cavalry and generals' against the movement
    table's '-1PM for infantry and generals'.  Option mud_general_mp, default
    terrain_table: -2."""
    assert resolve_options(RS)["mud_general_mp"] == "terrain_table"
    assert movement_points("general", "mud").weather == -2
    assert movement_points("general", "mud").total == 6
    assert movement_points("general", "mud", options={"mud_general_mp": "terrain_table"}).total == 6


def test_generals_in_mud_movement_table_option():
    """Movement table 'Mud: -1PM for infantry and generals' (mud_general_mp = movement_table)."""
    worked = movement_points("general", "mud", options={"mud_general_mp": "movement_table"})
    assert worked.weather == -1
    assert worked.total == 7


@pytest.mark.parametrize("unit", ["infantry", "cavalry", "artillery"])
def test_mud_general_option_does_not_touch_other_units(unit):
    """The option concerns only generals."""
    assert (
        movement_points(unit, "mud", options={"mud_general_mp": "movement_table"}).total
        == movement_points(unit, "mud", options={"mud_general_mp": "terrain_table"}).total
    )


def test_out_of_command_and_weather_add_up():
    """'* Reduce by 1 MP if the unit is out of command' and 'Mud: ... -3PM for
    reserve artillery': 6 - 1 - 3 = 2."""
    assert movement_points("artillery", "mud", out_of_command=True).total == 2
    assert movement_points("infantry", "snow", out_of_command=True).total == 4


# ===========================================================================
# Stacking
# ===========================================================================


@pytest.mark.parametrize("inf, cav", [(5, 0), (3, 3), (0, 6), (10, 10)])
def test_no_limit_with_commander_in_chief(inf, cav):
    """'There is no limit if the commander-in-chief is in the stack'"""
    assert stack_fits(inf, cav, commander_in_chief=True)
    assert stack_fits(inf, cav, 4, commander_in_chief=True)


@pytest.mark.parametrize(
    "inf, cav, fits",
    [
        (2, 1, True),  # '2 infantry + 1 cavalry'
        (1, 2, True),  # '1 infantry + 2 cavalry'
        (0, 3, True),  # '3 cavalry'
        (2, 0, True),
        (1, 1, True),
        (0, 0, True),
        (3, 0, False),  # three infantry: no composition allows it
        (2, 2, False),
        (1, 3, False),
        (0, 4, False),
        (3, 1, False),
    ],
)
def test_stacking_compositions(inf, cav, fits):
    """'2 infantry + 1 cavalry', '1 infantry + 2 cavalry', '3 cavalry'"""
    assert stack_fits(inf, cav) is fits


@pytest.mark.parametrize(
    "inf, cav, dummies, either, as_infantry, as_cavalry",
    [
        (2, 0, 1, True, False, True),  # 2 inf + dummy: fits as cavalry (2+1)
        (1, 0, 2, True, False, True),  # 1 inf + 2 dummies: 1 inf + 2 cav
        (1, 1, 1, True, True, True),  # 2+1 or 1+2
        (0, 0, 3, True, False, True),  # 3 dummies: 3 cavalry
        (0, 2, 1, True, True, True),  # 1 inf + 2 cav, or 3 cav
        (2, 1, 1, False, False, False),  # a full stack has no room left
        (0, 3, 1, False, False, False),
        (2, 0, 2, False, False, False),
    ],
)
def test_dummies_count_for_stacking(inf, cav, dummies, either, as_infantry, as_cavalry):
    """'Note: reserve artillery and generals do not count for stacking, but Dummies do.'
    Option dummy_stacking: either (default), infantry, cavalry."""
    assert stack_fits(inf, cav, dummies) is either
    assert stack_fits(inf, cav, dummies, options={"dummy_stacking": "either"}) is either
    assert stack_fits(inf, cav, dummies, options={"dummy_stacking": "infantry"}) is as_infantry
    assert stack_fits(inf, cav, dummies, options={"dummy_stacking": "cavalry"}) is as_cavalry


_count = st.integers(min_value=0, max_value=5)


@given(
    inf=_count,
    cav=_count,
    dummies=_count,
    choice=st.sampled_from(["either", "infantry", "cavalry"]),
)
def test_property_stacking_never_beyond_three_and_removing_a_unit_still_fits(inf, cav, dummies, choice):
    """'2 infantry + 1 cavalry', '1 infantry + 2 cavalry', '3 cavalry': no stack
    holds more than three counting units or more than two infantry; a stack that
    fits still fits without one of its units."""
    opts = {"dummy_stacking": choice}
    fits = stack_fits(inf, cav, dummies, options=opts)
    if fits:
        assert inf + cav + dummies <= 3
        assert inf <= 2
        if inf:
            assert stack_fits(inf - 1, cav, dummies, options=opts)
        if cav:
            assert stack_fits(inf, cav - 1, dummies, options=opts)
        if dummies:
            assert stack_fits(inf, cav, dummies - 1, options=opts)
    # A dummy counted as either arm is never stricter than a fixed choice.
    if fits:
        assert stack_fits(inf, cav, dummies, options={"dummy_stacking": "either"})


# ===========================================================================
# Forced march
# ===========================================================================


@pytest.mark.parametrize(
    "cvs, value",
    [([3], -1), ([4], -1), ([2], 0), ([5], 0), ([1], 0), ([], 0), ([2, 3], -1), ([3, 4], -1), ([2, 5], 0)],
)
def test_forced_march_general_cv_3_or_4(cvs, value):
    """'General with a CV of 3 or 4 in the stack: -1' (once per stack; not CV 2 or 5)"""
    assert total(forced_march_modifiers(cvs, 2, "clear")) == value


@pytest.mark.parametrize("cohesion, value", [(1, 0), (3, 0), (4, -1), (5, -1), (6, -1)])
def test_forced_march_cohesion_4_or_more(cohesion, value):
    """'Unit Cohesion 4 or +: -1'"""
    assert total(forced_march_modifiers([], cohesion, "clear")) == value


@pytest.mark.parametrize("weather, value", [("clear", 0), ("rain", 0), ("snow", 1), ("mud", 2)])
def test_forced_march_weather(weather, value):
    """'Snow: +1', 'Mud: +2'"""
    assert total(forced_march_modifiers([], 2, weather)) == value


def test_forced_march_modifiers_add_up():
    """'Dice Modifiers: General with a CV of 3 or 4 in the stack: -1; Unit Cohesion
    4 or +: -1; Snow: +1; Mud: +2' -- all of them at once: -1 -1 +2 = 0."""
    mods = forced_march_modifiers([4], 5, "mud")
    assert sorted(m.value for m in mods) == [-1, -1, 2]
    assert total(mods) == 0


# The card's forced march table, read right-aligned:
#   DICE  < 5   5 à 8   9 et +
#   1-3    -      -       -
#   4      -      1       1
#   5      1      1       1
#   6      1      1       2
FORCED = {
    1: (0, 0, 0),
    2: (0, 0, 0),
    3: (0, 0, 0),
    4: (0, 1, 1),
    5: (1, 1, 1),
    6: (1, 1, 2),
}
SP_OF_COLUMN = [(1, 0), (4, 0), (5, 1), (8, 1), (9, 2), (20, 2)]


@pytest.mark.parametrize("roll", range(1, 7))
@pytest.mark.parametrize("sp, column", SP_OF_COLUMN)
def test_forced_march_losses_by_the_table(roll, sp, column):
    """'1 - 3' / '4 1 1' / '5 1 1 1' / '6 1 1 2' -- 'The result gives the number of SP lost'"""
    assert forced_march_loss(roll, sp) == FORCED[roll][column]


@pytest.mark.parametrize("roll", [7, 8])
@pytest.mark.parametrize("sp, column", SP_OF_COLUMN)
def test_forced_march_roll_above_six_reads_row_six(roll, sp, column):
    """'Snow: +1', 'Mud: +2' can take the die to 7 or 8, past row '6 1 1 2'.
    Option roll_above_table, default nearest_row: read row 6; ask_umpire stops."""
    assert forced_march_loss(roll, sp) == FORCED[6][column]
    with pytest.raises(RulesError):
        forced_march_loss(roll, sp, {"roll_above_table": "ask_umpire"})


@pytest.mark.parametrize("roll", [0, -1])
def test_forced_march_roll_below_one_reads_no_loss(roll):
    """'1 - 3' (blank) is the lowest row: -1 -1 can take a 1 to -1.  Option
    roll_below_table, default nearest_row: no loss; ask_umpire stops."""
    assert forced_march_loss(roll, 12) == 0
    with pytest.raises(RulesError):
        forced_march_loss(roll, 12, {"roll_below_table": "ask_umpire"})


def test_forced_march_odds_hand_computed():
    """'The result gives the number of SP lost', with the odds of each loss.

    Hand computation, each face of the d6 is 1/6:

    (a) 9 SP in Mud (+2): modified rolls 3,4,5,6,7,8; column '9 et +'.
        3 -> row 1-3 -> 0;  4 -> 1;  5 -> 1;  6 -> 2;  7, 8 -> row 6 -> 2.
        P(0) = 1/6, P(1) = 2/6 = 1/3, P(2) = 3/6 = 1/2.

    (b) 4 SP with a CV 3 general (-1): modified rolls 0..5; column '< 5'.
        0 -> row 1-3 (nearest) -> 0;  1,2,3 -> 0;  4 -> blank -> 0;  5 -> 1.
        P(0) = 5/6, P(1) = 1/6.

    (c) 6 SP, no modifier: rolls 1..6; column '5 à 8'.
        1,2,3 -> 0;  4,5,6 -> 1.   P(0) = 1/2, P(1) = 1/2.

    (d) 12 SP in Snow (+1) with cohesion 4 (-1): modifier 0, as (c) but column
        '9 et +': 1,2,3 -> 0; 4,5 -> 1; 6 -> 2.  P(0)=1/2, P(1)=1/3, P(2)=1/6.
    """
    assert forced_march_odds(9, 2) == {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 2)}
    assert forced_march_odds(4, -1) == {0: Fraction(5, 6), 1: Fraction(1, 6)}
    assert forced_march_odds(6, 0) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    modifier = total(forced_march_modifiers([], 4, "snow"))
    assert modifier == 0
    assert forced_march_odds(12, modifier) == {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}


@given(sp=st.integers(min_value=1, max_value=30), modifier=st.integers(min_value=-2, max_value=3))
def test_property_forced_march_odds_sum_to_one(sp, modifier):
    """'The result gives the number of SP lost': every roll gives a loss of 0, 1 or 2,
    and the chances add up to 1; a better modifier never raises the expected loss."""
    odds = forced_march_odds(sp, modifier)
    assert sum(odds.values()) == 1
    assert set(odds) <= {0, 1, 2}
    worse = forced_march_odds(sp, modifier + 1)
    expect = sum(k * p for k, p in odds.items())
    assert expect <= sum(k * p for k, p in worse.items())


# ===========================================================================
# Command points
# ===========================================================================


def test_command_points_entered_die_plus_cv():
    """'The player throws 1d6 and adds the CV of the commander-in-chief of that army.'
    A typed-in 3 with CV 2 gives 5."""
    dice = DiceService(seed=1813)
    record = roll_command_points(dice, "Napoleon", 2, entered=[3])
    assert record.result == 5
    assert record.raw == (3,)
    assert record.modifiers == (Modifier("CV of Napoleon", 2),)
    assert record.mode == ENTERED
    assert dice.next_index == 0


@pytest.mark.parametrize("seed", [0, 1, 1813, 99999])
@pytest.mark.parametrize("cv", [1, 2, 3, 4, 5])
def test_command_points_seeded_roll(seed, cv):
    """'The player throws 1d6 and adds the CV of the commander-in-chief'"""
    dice = DiceService(seed=seed)
    record = roll_command_points(dice, "Blücher", cv)
    assert record.mode == ROLLED and record.index == 0
    assert 1 <= record.raw[0] <= 6
    assert record.result == record.raw[0] + cv
    again = roll_command_points(DiceService(seed=seed), "Blücher", cv)
    assert again.raw == record.raw and again.result == record.result


@pytest.mark.parametrize("bad", [[0], [7]])
def test_command_points_entered_die_outside_d6_refused(bad):
    """'The player throws 1d6'"""
    with pytest.raises(DiceError):
        roll_command_points(DiceService(seed=1), "Napoleon", 3, entered=bad)


@pytest.mark.parametrize(
    "action, valid, none",
    [
        ("activate_cinc", 0, None),  # '... all the units with him 0 PC -'
        ("activate_general", 0, 1),  # '... with a stack of units 0 PC 1 PC'
        ("activate_force", 1, 2),  # 'Activate a force without a general 1 PC 2 PC'
        ("entrench", 2, 2),  # 'Construct an entrenchment 2 PC 2 PC'
    ],
)
def test_action_costs(action, valid, none):
    """'aCtiONS CaRRieD Out CoSt In PC': with a valid LOC / no valid LOC."""
    assert action_cost(action, True) == valid
    assert action_cost(action, False) == none


# ===========================================================================
# Named options
# ===========================================================================


def test_every_option_in_options_toml_has_a_default():
    """Where the card is silent, 'a default that is named, explained and can be changed'."""
    chosen = resolve_options(RS)
    assert chosen["sp_fractions"] == "round_down"
    assert chosen["flank_and_encircled"] == "encircled_only"
    assert chosen["column_below_table"] == "first_column"
    assert chosen["cohesion_difference"] == "better_side"
    assert chosen["average_cohesion"] == "round_toward_zero"
    assert chosen["mud_general_mp"] == "terrain_table"
    assert chosen["dummy_stacking"] == "either"
    assert chosen["roll_above_table"] == "nearest_row"
    assert chosen["roll_below_table"] == "nearest_row"
    assert chosen["combat_roll_beyond_table"] == "nearest_row"


@pytest.mark.parametrize(
    "overrides",
    [{"no_such_option": "x"}, {"sp_fractions": "round_up"}, {"SP_FRACTIONS": "round_down"}],
    ids=["unknown name", "unknown choice", "name is case-sensitive"],
)
def test_resolve_options_refuses_unknown(overrides):
    """A named option must be one the rule set has, with one of its choices."""
    with pytest.raises(RulesError):
        resolve_options(RS, overrides)


BAD_NAME = {"no_such_option": "x"}
BAD_CHOICE = {"sp_fractions": "round_up"}

PROCEDURES = [
    pytest.param(lambda o: whole_sp(Fraction(15, 2), o), id="whole_sp"),
    pytest.param(lambda o: column_shift("attacker", Situation(), 1, o), id="column_shift"),
    pytest.param(lambda o: combat_column(35, 0, o), id="combat_column"),
    pytest.param(lambda o: cohesion_modifier(Fraction(3, 2), o), id="cohesion_modifier"),
    pytest.param(
        lambda o: dice_modifiers("attacker", side(infantry=1), side(infantry=1), Situation(), 1, o),
        id="dice_modifiers",
    ),
    pytest.param(lambda o: movement_points("general", "mud", options=o), id="movement_points-general-mud"),
    pytest.param(lambda o: stack_fits(1, 1, 1, options=o), id="stack_fits"),
    pytest.param(lambda o: forced_march_loss(8, 9, o), id="forced_march_loss-off-table"),
    pytest.param(
        lambda o: movement_points("infantry", "clear", options=o),
        id="movement_points-infantry-clear",
    ),
    pytest.param(
        lambda o: stack_fits(1, 1, commander_in_chief=True, options=o),
        id="stack_fits-with-commander-in-chief",
    ),
    pytest.param(lambda o: forced_march_loss(5, 9, o), id="forced_march_loss-on-table"),
    pytest.param(lambda o: forced_march_odds(9, 0, o), id="forced_march_odds-on-table"),
    pytest.param(
        lambda o: read_roll("combat", 5, "combat_roll_beyond_table", o), id="read_roll-on-table"
    ),
]


@pytest.mark.parametrize("bad", [BAD_NAME, BAD_CHOICE], ids=["unknown name", "unknown choice"])
@pytest.mark.parametrize("call", PROCEDURES)
def test_procedures_refuse_unknown_options(call, bad):
    """'Where a card is silent or ambiguous, the product ... uses a default that is
    named, explained and can be changed. It never guesses quietly.' (seeds README)
    An unknown option name or choice given to a procedure raises RulesError."""
    with pytest.raises(RulesError):
        call(bad)


def test_forced_march_odds_kept_per_sp_modifier_and_options():
    """Read off the table once for each SP, modifier and options: each answer stays its own."""
    mine = forced_march_odds(9, 2)
    mine[0] = Fraction(1)
    assert forced_march_odds(9, 2) == {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 2)}
    with pytest.raises(RulesError):  # a bad option still refused, asked again
        forced_march_odds(9, 2, {"no_such_option": "x"})
    with pytest.raises(RulesError):
        forced_march_odds(9, 2, {"no_such_option": "x"})

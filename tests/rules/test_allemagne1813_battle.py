"""The battle procedure of "Allemagne 1813" fought step by step, checked by hand.

Each worked example quotes the card (../shared/seeds/000_af08e2398854582c.txt:
"combat table", "combat modifieRS", "aRtilleRY table", "PURSUit table",
"ReconnaiSSance table", "Weather Modifiers") and shows the arithmetic in
comments: SP after the multipliers, the printed column, the shifts, the dice
modifiers, the row read and the cell.  Where the card is silent the procedure
follows a named rules option (rules/allemagne1813/options.toml); those tests
name it.  Expected values come from the card, not from the data files.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules import RulesError
from rules.allemagne1813.battle import MORALE, UMPIRE_RESULT, Battle
from rules.allemagne1813.battle_rolls import BattleSetup, Roll
from rules.allemagne1813.combat import CombatSide, Leader
from rules.allemagne1813.data import Situation
from rules.allemagne1813.losses import loss_order, lost_by_arm
from rules.allemagne1813.pursuit import pursuit_step, resolve_pursuit
from rules.allemagne1813.reconnaissance import reconnaissance_step, resolve_reconnaissance
from rules.dice import ENTERED, DiceService

A, D = "attacker", "defender"
NAPOLEON = Leader("Napoleon", 5, 2)


def side(infantry=0, cavalry=0, artillery=0, *, leaders=(), cohesion=3, ab=0, cb=0) -> CombatSide:
    arms = {"infantry": infantry, "cavalry": cavalry, "artillery": artillery}
    return CombatSide(
        {k: v for k, v in arms.items() if v}, tuple(leaders), Fraction(cohesion), ab, cb
    )


def take(battle: Battle, dice: DiceService, die: int, *, kind: str, side: str, round_number: int):
    """Resolve the next step with a die typed in, after checking it is the one expected."""
    step = battle.next_step()
    assert step is not None
    assert (step.kind, step.side, step.round_number) == (kind, side, round_number)
    return step, battle.resolve(step, dice, entered=[die])


def mods(step) -> dict[str, int]:
    return {m.label: m.value for m in step.modifiers}


# ===========================================================================
# A whole battle by hand
# ===========================================================================


def test_worked_battle_napoleon_against_defensive_terrain():
    """Attacker: 29 infantry + 6 cavalry = 35 SP, Napoleon (rank 5, tactical bonus 2),
    average cohesion 4, artillery bonus 5, cavalry bonus 6.  Defender: 20 infantry,
    a rank-3 leader with tactical bonus 1, cohesion 3, no artillery bonus (so no
    artillery roll).  Defender in defensive terrain, clear weather.  Default
    options: simultaneous losses, artillery with the combat roll, proportional
    loss allocation, the umpire records morale tests, more losses inflicted wins."""
    attacker = side(29, 6, leaders=[NAPOLEON], cohesion=4, ab=5, cb=6)
    defender = side(20, leaders=[Leader("Blücher", 3, 1)], cohesion=3)
    battle = Battle(attacker, defender, Situation(defender_in_defensive_terrain=True))
    dice = DiceService(seed=1, mode=ENTERED)
    assert battle.rounds == 4

    # --- Round 1 ---------------------------------------------------------
    # Attacker SP: 'SP of cavalry in mountains or defensive terrain: A and D x 0.5'
    #   29 + 6 x 0.5 = 32 -> printed column 30-40;
    #   'Defender in defensive terrain: A –1L' -> 22-29.
    # Dice: 'Tactical bonus of the leader with the highest Rank' +2 (Napoleon);
    #   'Difference in average cohesion' 4 - 3 = +1 (the better side adds it,
    #   option cohesion_difference) -> +3.  Die 4 + 3 = 7: row 7, column 22-29 = 2.
    step, result = take(battle, dice, 4, kind="combat", side=A, round_number=1)
    assert step.strength_points == 32 and step.whole_sp == 32
    assert step.column == "22-29"
    assert mods(step) == {"tactical bonus (Napoleon)": 2, "difference in average cohesion": 1}
    assert {a.id for a in step.applied} == {"cavalry_in_rough_ground", "defensive_terrain"}
    assert (result.die, result.modified_roll) == (4, 7)
    assert (result.row, result.cell, result.sp_lost, result.morale_test) == (7, "2", 2, False)
    # Defender SP 20 -> 16-21; 'D +1R' -> 22-29.  Dice: tactical bonus +1, no
    # cohesion bonus (the worse side) -> +1.  Die 5 + 1 = 6: row 6, 22-29 = 1.
    # Both rolls read the SP at the start of the round (option simultaneous_losses).
    step, result = take(battle, dice, 5, kind="combat", side=D, round_number=1)
    assert (step.strength_points, step.column, step.modifier) == (20, "22-29", 1)
    assert (result.row, result.cell, result.sp_lost) == (6, "1", 1)
    # Proportional allocation (D'Hondt): the first SP lost is infantry's (29/1 > 6/1).
    assert result.lost_by_arm == {"infantry": 1}
    assert (battle.sp_lost(A), battle.sp_lost(D)) == (1, 2)

    # --- Round 2: the artillery table too ('2nd and 4th') -----------------
    # Attacker 28 infantry + 6 cavalry: 28 + 3 = 31 -> 30-40, -1L -> 22-29, +3.
    # Die 6 + 3 = 9: row 9, column 22-29 = '2*': the defender loses 2 and takes
    # the 'Immediate mandatory Morale Test' before anything else is rolled.
    step, result = take(battle, dice, 6, kind="combat", side=A, round_number=2)
    assert (step.strength_points, step.column, step.modifier) == (31, "22-29", 3)
    assert (result.row, result.cell, result.sp_lost, result.morale_test) == (9, "2*", 2, True)
    test = battle.next_step()
    assert (test.kind, test.side, test.dice) == (MORALE, D, None)  # the umpire records it
    battle.record_morale(D, passed=True)
    # Defender 18 SP -> 16-21, +1R -> 22-29, +1.  Die 2 + 1 = 3: row 3, 22-29 = 1.
    step, result = take(battle, dice, 2, kind="combat", side=D, round_number=2)
    assert (step.strength_points, step.column) == (18, "22-29")
    assert (result.row, result.cell, result.sp_lost) == (3, "1", 1)
    # Attacker's artillery: AB 5 -> column '5 à 8', no modifier in clear weather.
    # Die 4: row 4, column 5 à 8 = 1.  The defender (AB 0) has no artillery roll.
    step, result = take(battle, dice, 4, kind="artillery", side=A, round_number=2)
    assert (step.column, step.modifiers) == ("5 à 8", ())
    assert (result.row, result.cell, result.sp_lost) == (4, "1", 1)
    assert (battle.sp_lost(A), battle.sp_lost(D)) == (2, 5)

    # --- Round 3: 'Third and Fourth round of combat in a battle: A-1 and D-1' --
    # Attacker 27 + 3 = 30 -> 30-40, -1L -> 22-29; +2 +1 -1 = +2.
    # Die 3 + 2 = 5: row 5, column 22-29 = 1.
    step, result = take(battle, dice, 3, kind="combat", side=A, round_number=3)
    assert (step.strength_points, step.column, step.modifier) == (30, "22-29", 2)
    assert "third and fourth round" in mods(step)
    assert (result.row, result.cell, result.sp_lost) == (5, "1", 1)
    # Defender 15 SP -> 11-15, +1R -> 16-21; +1 -1 = 0.  Die 6: row 6, 16-21 = 1.
    step, result = take(battle, dice, 6, kind="combat", side=D, round_number=3)
    assert (step.strength_points, step.column, step.modifier) == (15, "16-21", 0)
    assert (result.row, result.cell, result.sp_lost) == (6, "1", 1)

    # --- Round 4: 'Fourth round ...: A -1L and D -1L', artillery again ------
    # Attacker 26 + 3 = 29 -> 22-29 (the loss moved the column), -1L -1L -> 11-15;
    # +2.  Die 5 + 2 = 7: row 7, column 11-15 = 1.
    step, result = take(battle, dice, 5, kind="combat", side=A, round_number=4)
    assert (step.strength_points, step.column, step.modifier) == (29, "11-15", 2)
    assert {a.id for a in step.applied} >= {"defensive_terrain", "fourth_round"}
    assert (result.row, result.cell, result.sp_lost) == (7, "1", 1)
    # Defender 14 SP -> 11-15, +1R -1L -> 11-15; 0.  Die 4: row 4, 11-15 blank.
    step, result = take(battle, dice, 4, kind="combat", side=D, round_number=4)
    assert (step.strength_points, step.column) == (14, "11-15")
    assert (result.row, result.cell, result.sp_lost) == (4, "-", 0)
    # Artillery AB 5, die 6: row 6, column 5 à 8 = 1.
    step, result = take(battle, dice, 6, kind="artillery", side=A, round_number=4)
    assert (result.row, result.cell, result.sp_lost) == (6, "1", 1)

    # --- The end: four rounds fought; the attacker inflicted 8 SP, lost 3 ----
    assert battle.next_step() is None and battle.finished
    outcome = battle.outcome
    assert (outcome.winner, outcome.loser, outcome.rounds_fought) == (A, D, 4)
    assert outcome.sp_lost == {A: 3, D: 8}
    assert outcome.beaten == ()
    assert "inflicted more losses" in outcome.reason
    # The attacker's three losses, proportional: infantry 29/1, 29/2, 29/3 all beat cavalry 6/1.
    assert battle.lost_by_arm(A) == {"infantry": 3, "cavalry": 0}

    # --- Pursuit: the winner's CB 6 -> column '5 à 8'; clear: no modifier ----
    # Die 3: row '3 - 4', column 5 à 8 = 1.
    chase = battle.pursuit()
    assert (chase.column, chase.modifiers) == ("5 à 8", ())
    pursued = battle.resolve_pursuit(chase, dice, entered=[3])
    assert (pursued.row, pursued.cell, pursued.sp_lost) == (3, "1", 1)
    assert battle.sp_lost(D) == 9 and battle.strength(D) == {"infantry": 11}
    assert battle.pursuit() is None  # one pursuit only


def test_every_roll_is_recorded_with_its_purpose_and_modifiers():
    battle = Battle(side(35, leaders=[NAPOLEON], cohesion=4), side(20))
    dice = DiceService(seed=7)
    step = battle.next_step()
    result = battle.resolve(step, dice)
    record = dice.history[-1]
    assert record is result.record and record.dice == "1d6"
    assert "round 1" in record.purpose and "attacker combat" in record.purpose and "30-40" in record.purpose
    assert record.modifiers == step.modifiers
    assert record.result == record.raw[0] + step.modifier


# ===========================================================================
# Rounds and the artillery table
# ===========================================================================


def _fight(battle: Battle, dice: DiceService) -> list:
    """Fight to the end, every morale test passed."""
    steps = []
    while (step := battle.next_step()) is not None:
        steps.append(step)
        if step.kind == MORALE:
            battle.record_morale(step.side, True)
        else:
            battle.resolve(step, dice)
    return steps


def test_snow_takes_one_round_away():
    """'If the weather is Snow (Neige), the number of rounds in each battle is
    reduced by one (the minimum remains 1)': three rounds; the artillery table
    ('2nd and 4th') then comes in round 2 only, at -1 ('If the weather is Snow:
    -1 to the dice')."""
    battle = Battle(side(60, ab=9), side(60, ab=9), Situation(weather="snow"))
    steps = _fight(battle, DiceService(seed=3))
    assert battle.rounds == 3
    assert max(s.round_number for s in steps) == 3 and battle.outcome.rounds_fought == 3
    artillery = [s for s in steps if s.kind == "artillery"]
    assert {s.round_number for s in artillery} == {2}
    assert all(s.modifier == -1 for s in artillery)
    # No round 4, so no 'Fourth round' shift was ever applied.
    assert not any(a.id == "fourth_round" for s in steps for a in s.applied)


@pytest.mark.parametrize("weather", ["clear", "rain", "mud"])
def test_four_rounds_and_artillery_in_rounds_two_and_four_only(weather):
    """'This table is only used during even rounds of a battle (2nd and 4th)'."""
    battle = Battle(side(80, ab=6), side(80, ab=2), Situation(weather=weather))
    steps = _fight(battle, DiceService(seed=11))
    kinds = [(s.round_number, s.kind, s.side) for s in steps if s.kind != MORALE]
    assert kinds == [
        (1, "combat", A), (1, "combat", D),
        (2, "combat", A), (2, "combat", D), (2, "artillery", A), (2, "artillery", D),
        (3, "combat", A), (3, "combat", D),
        (4, "combat", A), (4, "combat", D), (4, "artillery", A), (4, "artillery", D),
    ]  # fmt: skip


def test_no_artillery_roll_without_an_artillery_bonus():
    """The artillery table's first column is '1 à 4': a side with AB 0 has no roll."""
    battle = Battle(side(40, ab=0), side(40, ab=1))
    steps = _fight(battle, DiceService(seed=5))
    assert {(s.side, s.column) for s in steps if s.kind == "artillery"} == {(D, "1 à 4")}


def test_artillery_before_combat_moves_the_combat_column():
    """Option artillery_timing = before_combat: the artillery's losses apply before
    the combat rolls of the same round.  Defender 22 SP ('22-29').  Every die is a
    1 (row 1: blank in '22-29' and '30-40', and at AB '9 et +') except the
    attacker's artillery in round 2 (AB 9, '9 et +'): 6, row 6 = '2*', so the
    defender has 20 SP and his round-2 combat roll reads '16-21'.  With the
    default (with_combat) it reads the 22 SP of the start of the round: '22-29'."""
    for timing, column in [("before_combat", "16-21"), ("with_combat", "22-29")]:
        battle = Battle(side(40, ab=9), side(22), options={"artillery_timing": timing})
        dice = DiceService(seed=1, mode=ENTERED)
        seen = None
        while (step := battle.next_step()).round_number <= 2 and seen is None:
            if step.kind == MORALE:
                battle.record_morale(step.side, True)
                continue
            if (step.kind, step.side, step.round_number) == ("combat", D, 2):
                seen = step.column
            battle.resolve(step, dice, entered=[6 if step.kind == "artillery" else 1])
        assert seen == column, timing


def test_attacker_first_applies_his_losses_before_the_defender_rolls():
    """Option simultaneous_losses = attacker_first.  Defender 22 SP: the attacker
    (40 SP, '30-40', no modifier) rolls 6: row 6, '2' -> 20 SP, and the
    defender's roll of the same round reads '16-21' instead of '22-29'."""
    for choice, column in [("attacker_first", "16-21"), ("simultaneous", "22-29")]:
        battle = Battle(side(40), side(22), options={"simultaneous_losses": choice})
        dice = DiceService(seed=1, mode=ENTERED)
        assert battle.resolve(battle.next_step(), dice, entered=[6]).cell == "2"
        assert battle.next_step().column == column, choice


# ===========================================================================
# The morale test of a '*'
# ===========================================================================


def _star_battle(**options) -> tuple[Battle, DiceService]:
    """Attacker 35 SP ('30-40') with Napoleon (+2) and cohesion 4 against 3 (+1):
    die 5 + 3 = 8, row 8, column 30-40 = '3*'."""
    battle = Battle(side(35, leaders=[NAPOLEON], cohesion=4), side(20, cohesion=3), options=options)
    dice = DiceService(seed=1, mode=ENTERED)
    result = battle.resolve(battle.next_step(), dice, entered=[5])
    assert (result.cell, result.sp_lost, result.morale_test) == ("3*", 3, True)
    return battle, dice


def test_star_stops_for_the_umpire_to_record_the_morale_test():
    """'* = Immediate mandatory Morale Test' -- option morale_test, default
    umpire_records: the card prints no morale table, so the next step is the
    defender's test and nothing else can be rolled until the umpire records it."""
    battle, dice = _star_battle()
    step = battle.next_step()
    assert (step.kind, step.side, step.dice, step.round_number) == (MORALE, D, None, 1)
    with pytest.raises(RulesError, match="record_morale"):
        battle.resolve(step, dice, entered=[1])
    with pytest.raises(RulesError, match="defender's, not the attacker's"):
        battle.record_morale(A, True)
    battle.record_morale(D, True)
    assert battle.next_step().kind == "combat" and battle.next_step().side == D


def test_failed_morale_test_ends_the_battle_with_that_side_beaten():
    """Option failed_morale_test, default side_beaten.  Both rolls of a round read
    the same SP, so the defender still fires back in round 1; then the battle ends."""
    battle, dice = _star_battle()
    battle.record_morale(D, False)
    step = battle.next_step()
    assert (step.kind, step.side) == ("combat", D)  # the round's other roll
    battle.resolve(step, dice, entered=[6])  # 20 SP, 16-21, +0: row 6 = 1
    assert battle.finished
    outcome = battle.outcome
    assert (outcome.winner, outcome.loser, outcome.rounds_fought, outcome.beaten) == (A, D, 1, (D,))
    assert outcome.sp_lost == {A: 1, D: 3}
    assert "failed its morale test" in outcome.reason
    assert battle.morale_failures == [(1, D)]


def test_failed_morale_test_recorded_only_goes_on():
    """Option failed_morale_test = recorded_only: the failure is recorded, the battle goes on."""
    battle, dice = _star_battle(failed_morale_test="recorded_only")
    battle.record_morale(D, False)
    battle.resolve(battle.next_step(), dice, entered=[6])
    assert not battle.finished and battle.round_number == 2
    assert battle.morale_failures == [(1, D)]


@pytest.mark.parametrize("die, passed", [(1, True), (3, True), (4, False), (6, False)])
def test_cohesion_d6_rolls_the_test(die, passed):
    """Option morale_test = cohesion_d6: 1d6, passed when the die is at most the
    average cohesion (the defender's is 3): 3 passes, 4 fails; the chance to pass is 3/6."""
    battle, dice = _star_battle(morale_test="cohesion_d6")
    step = battle.next_step()
    assert (step.kind, step.dice) == (MORALE, "1d6")
    assert step.odds == {"pass": Fraction(1, 2), "fail": Fraction(1, 2)}
    with pytest.raises(RulesError, match="rolled"):
        battle.record_morale(D, True)
    assert battle.resolve(step, dice, entered=[die]).passed is passed


def test_no_morale_test_for_a_side_with_no_sp_left():
    """A '3*' against a side of 3 SP leaves it nothing: it is beaten, with no test."""
    battle = Battle(side(35, leaders=[NAPOLEON], cohesion=4), side(3, cohesion=3))
    dice = DiceService(seed=1, mode=ENTERED)
    result = battle.resolve(battle.next_step(), dice, entered=[5])
    assert (result.cell, result.sp_lost, result.morale_test) == ("3*", 3, False)
    battle.resolve(battle.next_step(), dice, entered=[1])
    assert battle.outcome.winner == A and "lost its last SP" in battle.outcome.reason


def test_losses_never_exceed_the_sp_a_side_has():
    """A '3' against a side of 2 SP takes 2."""
    battle = Battle(side(35, leaders=[NAPOLEON], cohesion=4), side(2, cohesion=3))
    result = battle.resolve(battle.next_step(), DiceService(seed=1, mode=ENTERED), entered=[6])
    assert (result.cell, result.sp_lost) == ("3", 2)


# ===========================================================================
# The end of the battle: the winner (option battle_winner)
# ===========================================================================


def _quiet_battle(**options) -> Battle:
    """4 SP against 4 SP ('4-6'), every die a 1: row 1 is blank in '4-6'; nobody loses."""
    battle = Battle(side(4), side(4), options=options)
    dice = DiceService(seed=1, mode=ENTERED)
    while (step := battle.next_step()) is not None:
        battle.resolve(step, dice, entered=[1])
    return battle


def test_equal_losses_the_defender_holds():
    battle = _quiet_battle()
    assert battle.outcome.winner == D and battle.outcome.sp_lost == {A: 0, D: 0}
    assert "equal losses" in battle.outcome.reason


def test_the_winners_reason_says_its_figures_are_the_rounds_not_the_pursuit():
    """Equal losses in the rounds (0 to 0): the defender holds and pursues with CB 6, column
    '5 à 8'; die 3: row '3 - 4' = 1 SP more for the attacker. The reason, shown and stored
    after the pursuit, must not read as if the attacker had lost nothing: its figures are
    the rounds'."""
    battle = Battle(side(4), side(4, cb=6))
    dice = DiceService(seed=1, mode=ENTERED)
    while (step := battle.next_step()) is not None:
        battle.resolve(step, dice, entered=[1])
    chase = battle.pursuit()
    assert chase is not None and chase.column == "5 à 8"
    assert battle.resolve_pursuit(chase, dice, entered=[3]).sp_lost == 1
    assert (battle.sp_lost(A), battle.sp_lost(D)) == (1, 0)
    assert battle.outcome.reason == (
        "the defender held its ground on equal losses in the rounds (0 SP lost to 0 before any pursuit; option battle_winner)"
    )


def test_defender_holds_option():
    """battle_winner = defender_holds: an attacker who inflicted more still loses
    unless the defender broke.  35 SP vs 20: round 1 the attacker rolls 6 + 3 = 9
    ('3' in 30-40), the defender 1 (row 1, blank in 16-21); then all 1s."""
    battle = Battle(
        side(35, leaders=[NAPOLEON], cohesion=4), side(20), options={"battle_winner": "defender_holds"}
    )
    dice = DiceService(seed=1, mode=ENTERED)
    battle.resolve(battle.next_step(), dice, entered=[6])
    while (step := battle.next_step()) is not None:
        battle.resolve(step, dice, entered=[1])
    assert battle.outcome.sp_lost[D] > battle.outcome.sp_lost[A]
    assert battle.outcome.winner == D


# ===========================================================================
# Losses by arm (option loss_allocation)
# ===========================================================================


def test_proportional_allocation_is_dhondt():
    """20 infantry, 10 cavalry, 5 artillery.  Each SP from the arm with the most SP
    per loss already taken (sp / (lost + 1)), ties to infantry, cavalry, artillery:
    1st inf (20), 2nd inf (10 = cav 10, infantry first), 3rd cav (10 > 6.7),
    4th inf (6.7 > 5 = 5), 5th inf (5 = 5 = 5: infantry), 6th cav (5 = 5, cav before art),
    7th art (5 > 4 and 3.3)."""
    order = loss_order({"infantry": 20, "cavalry": 10, "artillery": 5})
    assert order[:7] == ("infantry", "infantry", "cavalry", "infantry", "infantry", "cavalry", "artillery")
    assert lost_by_arm(order, 35) == {"infantry": 20, "cavalry": 10, "artillery": 5}


def test_infantry_first_allocation():
    order = loss_order({"infantry": 2, "cavalry": 1, "artillery": 1}, {"loss_allocation": "infantry_first"})
    assert order == ("infantry", "infantry", "cavalry", "artillery")


def test_lost_cavalry_moves_the_column_in_defensive_terrain():
    """Cavalry counts half in defensive terrain, so which arm loses the SP matters.
    10 infantry + 10 cavalry after 10 SP lost:
    proportional takes 5 of each: 5 + 5 x 0.5 = 7.5, read 7 (option sp_fractions)
      -> '7-10', 'Defender in defensive terrain: A –1L' -> '4-6';
    infantry_first takes the 10 infantry: 10 x 0.5 = 5 -> '4-6', -1L -> '1-3'."""
    sit = Situation(defender_in_defensive_terrain=True)
    for choice, column in [("proportional", "4-6"), ("infantry_first", "1-3")]:
        setup = BattleSetup(side(10, 10), side(10), sit, {"loss_allocation": choice})
        assert setup.fire(Roll(1, A, "combat"), 10).column_label == column, choice


# ===========================================================================
# Pursuit
# ===========================================================================


def test_no_pursuit_in_mud():
    """'There is no pursuit in Mud weather'."""
    assert pursuit_step(9, "mud") is None
    battle = _quiet_battle_in("mud")
    assert battle.finished and battle.pursuit() is None


def _quiet_battle_in(weather: str) -> Battle:
    battle = Battle(side(4, cb=6), side(4, cb=6), Situation(weather=weather))
    dice = DiceService(seed=1, mode=ENTERED)
    while (step := battle.next_step()) is not None:
        battle.resolve(step, dice, entered=[1])
    return battle


@pytest.mark.parametrize("weather", ["rain", "snow"])
def test_pursuit_minus_one_in_rain_or_snow(weather):
    """'If the weather is Snow or Rain: - 1 to the dice'.  CB 9 ('9 et +'): die 6 - 1
    = 5, row 5 = 1 (not row 6's 2); die 1 - 1 = 0 is below the table and reads its
    lowest row '1 - 2', blank (option roll_below_table)."""
    step = pursuit_step(9, weather)
    assert (step.column, step.modifier) == ("9 et +", -1)
    dice = DiceService(seed=1, mode=ENTERED)
    assert resolve_pursuit(step, dice, [6]).cell == "1"
    low = resolve_pursuit(step, dice, [1])
    assert (low.row, low.cell, low.sp_lost) == (1, "-", 0)
    # Exact odds by hand: dice 1..6 -> modified 0..5 -> '-', '-', '-', '1', '1', '1'.
    assert step.loss_odds == {0: Fraction(1, 2), 1: Fraction(1, 2)}


def test_pursuit_needs_a_cavalry_bonus():
    """The pursuit table's first column is '1 à 4': a CB of 0 has no pursuit."""
    assert pursuit_step(0, "clear") is None
    assert pursuit_step(1, "clear").column == "1 à 4"


# ===========================================================================
# Reconnaissance
# ===========================================================================


def test_reconnaissance_worked_example():
    """'Differential in of Cavalry SP': 7 cavalry SP against 2 = 5 -> column '5 et +'.
    '+ Average Cohesion of the unit(s) making the reconnaissance – Average Cohesion
    of the screening units': 4 - 5/2 = 3/2, rounded toward zero (option
    average_cohesion) = +1.  Die 3 + 1 = 4: row 4, column 5 et + = 2."""
    step = reconnaissance_step(7, 2, 4, Fraction(5, 2))
    assert (step.differential, step.column, step.modifier) == (5, "5 et +", 1)
    result = resolve_reconnaissance(step, DiceService(seed=1, mode=ENTERED), [3])
    assert (result.row, result.cell, result.result) == (4, "2", 2)
    # With round_nearest, 3/2 -> +2: the same die reads row 5 = 2.
    near = reconnaissance_step(7, 2, 4, Fraction(5, 2), {"average_cohesion": "round_nearest"})
    assert near.modifier == 2


def test_reconnaissance_off_the_rows_reads_nearest():
    """Rows 0 to 8 only.  Cohesion 6 against 1: +5; die 6 + 5 = 11 reads row 8
    (option reconnaissance_roll_beyond_table); 1 cavalry SP against 0 is column '1 à 2': row 8 = 2."""
    step = reconnaissance_step(1, 0, 6, 1)
    assert (step.column, step.modifier) == ("1 à 2", 5)
    result = resolve_reconnaissance(step, DiceService(seed=1, mode=ENTERED), [6])
    assert (result.row, result.cell) == (8, "2")
    assert sum(step.odds.values()) == 1


def test_reconnaissance_without_more_cavalry():
    """No column below a differential of 1: option reconnaissance_without_advantage,
    default no_result (nothing to roll); first_column reads '1 à 2'."""
    step = reconnaissance_step(2, 2, 3, 3)
    assert (step.column, step.dice, dict(step.odds)) == (None, None, {"-": 1})
    assert resolve_reconnaissance(step, DiceService(seed=1)).result == 0
    assert reconnaissance_step(0, 3, 3, 3, {"reconnaissance_without_advantage": "first_column"}).column == "1 à 2"


# ===========================================================================
# Rolls the umpire reads (options ... = ask_umpire)
# ===========================================================================


def test_combat_roll_off_the_table_waits_for_the_umpire():
    """combat_roll_beyond_table = ask_umpire.  The attacker with Napoleon (+2), cohesion
    6 against 1 (+5): die 6 + 7 = 13, beyond the printed row 10."""
    battle = Battle(side(35, leaders=[NAPOLEON], cohesion=6), side(20, cohesion=1),
                    options={"combat_roll_beyond_table": "ask_umpire"})  # fmt: skip
    dice = DiceService(seed=1, mode=ENTERED)
    step = battle.next_step()
    assert "umpire decides" in step.odds
    waiting = battle.resolve(step, dice, entered=[6])
    assert waiting.cell is None and waiting.record.result == 13
    assert battle.next_step().kind == UMPIRE_RESULT
    with pytest.raises(RulesError, match="umpire"):
        battle.odds()
    with pytest.raises(RulesError, match="number of SP lost"):
        battle.record_result("lots")
    applied = battle.record_result("4*")
    assert (applied.sp_lost, applied.morale_test, battle.next_step().kind) == (4, True, MORALE)


# ===========================================================================
# Bad values in the set-up
# ===========================================================================


@pytest.mark.parametrize(
    "attacker, defender, situation, message",
    [
        (side(-3), side(10), Situation(), "the attacker's infantry SP must be a whole number of 0 or more, not -3"),
        (side(10), side(3_000_000_000), Situation(), "the defender's infantry SP must be at most 99999, not 3000000000"),
        (side(10), CombatSide({"guards": 4}, average_cohesion=Fraction(3)), Situation(), "the defender's arm 'guards'"),
        (CombatSide({"infantry": 0}, average_cohesion=Fraction(3)), side(10), Situation(), "the attacker has no SP"),
        (side(10), side(10), Situation(weather="fog"), "the weather 'fog' is not one of clear, rain, snow, mud"),
        (side(10, cohesion=7), side(10), Situation(), "the attacker's average cohesion must be between 1 and 6, not 7"),
        (side(10), side(10, cohesion=0), Situation(), "the defender's average cohesion must be between 1 and 6, not 0"),
        (side(10, ab=-1), side(10), Situation(), "the attacker's artillery bonus must be a whole number"),
        (side(10), side(10), Situation(flank_attack="yes"), "flank attack is yes or no"),
        (side(Fraction(5, 2)), side(10), Situation(), "the attacker's infantry SP must be a whole number"),
    ],
)
def test_bad_setup_is_one_clear_sentence(attacker, defender, situation, message):
    with pytest.raises(RulesError) as caught:
        Battle(attacker, defender, situation)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_bad_option_and_bad_reconnaissance_values():
    with pytest.raises(RulesError, match="option loss_allocation is one of"):
        Battle(side(10), side(10), options={"loss_allocation": "random"})
    with pytest.raises(RulesError, match="screening units' average cohesion must be between 1 and 6"):
        reconnaissance_step(3, 1, 3, 9)
    with pytest.raises(RulesError, match="reconnoitring cavalry SP must be a whole number"):
        reconnaissance_step(-1, 1, 3, 3)
    with pytest.raises(RulesError, match="the weather 'hail'"):
        pursuit_step(5, "hail")


def test_steps_must_be_taken_in_order():
    battle = Battle(side(10), side(10))
    dice = DiceService(seed=2)
    first = battle.next_step()
    battle.resolve(first, dice)
    with pytest.raises(RulesError, match="not the battle's next step"):
        battle.resolve(first, dice)
    with pytest.raises(RulesError, match="no morale test is due"):
        battle.record_morale(A, True)
    with pytest.raises(RulesError, match="not over"):
        battle.pursuit()

"""The procedures of Kallistra's ACW hex rules, checked by hand against the card.

Each test quotes the card's words (002_4559601f68b00eee.txt) and works the
example out in its comments; the expected values are not read from the data
files.  Where the card is silent a named option decides
(rules/kallistra_acw/options.toml): those tests check the default and the
alternative.
"""

from __future__ import annotations

import doctest
import importlib
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import RulesError
from rules.conversion import load_conversion, sp_lost, tactical_order
from rules.dice import ENTERED, DiceError, DiceService
from rules.kallistra_acw.charge import (
    ChargeDefence,
    hand_to_hand_step,
    resolve_response,
    response_step,
)
from rules.kallistra_acw.combat import (
    UMPIRE_DECIDES,
    add_hits_odds,
    apply_combat,
    combat_column,
    combat_odds,
    combat_result,
    hits_to_read,
)
from rules.kallistra_acw.data import Stands, check_stands
from rules.kallistra_acw.fire import (
    Shot,
    artillery_band,
    artillery_fire,
    roll_hits,
    small_arms_fire,
)
from rules.kallistra_acw.moves import (
    can_evade,
    evade_move,
    general_move,
    in_command,
    movement_allowance,
    rallies,
    recoil,
    resolve_rout,
    rout_step,
)
from rules.kallistra_acw.sequence import check_action, fire_action, steps
from rules.options import load_options, resolve_options

RS = "kallistra_acw"


def binomial(n: int, p: F) -> dict[int, F]:
    """Hits of n dice each hitting with chance p, worked out by hand (no icepool)."""
    from math import comb

    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def infantry(count=4, quality="regular", weapon="RM", **kw) -> Stands:
    return Stands("infantry", quality, count, weapon=weapon, **kw)


def guns(count=2, gun="6lb", **kw) -> Stands:
    return Stands("artillery", "regular", count, gun=gun, **kw)


# ===========================================================================
# Small-arms fire: "Firing (small arms) 1 x D12 per stand"
# ===========================================================================


def test_worked_example_rifle_musket_at_two_hexes():
    """'Maximum of 3 infantry stands out of 4 in a hex can fire'; Rifle musket, 2 hex, R: '7+'."""
    step = small_arms_fire(infantry(4), Shot(range=2))
    # 4 stands, 3 fire: 3 D12, each hitting on 7..12 = 6 of 12 = 1/2.
    assert step.dice_count == 3 and step.needed == 7 and step.modifiers == ()
    assert step.dice == "3d12>=7"
    assert step.odds == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}
    assert step.odds == binomial(3, F(1, 2))
    # The dice typed in: 7 hits, 6 misses, 12 hits.
    result = roll_hits(step, DiceService(seed=3), entered=[7, 6, 12])
    assert result.hits == 2 and result.text == "2 hits"
    assert result.record.mode == ENTERED and result.record.raw == (7, 6, 12)
    assert "Rifle musket (RM)" in result.record.purpose and "7+" in result.record.purpose


@pytest.mark.parametrize(
    ("shot", "needed", "label"),
    [
        # Rifle musket, 1 hex, R: 5+; "+2 target behind wall" -> 7+
        (Shot(1, target_behind_wall=True), 7, "target behind wall"),
        # "+ 1 behind fence" -> 6+
        (Shot(1, target_behind_fence=True), 6, "behind fence"),
        # "+2 target in wood" -> 7+
        (Shot(1, target_in_wood=True), 7, "target in wood"),
        # "+2 skirmishing infantry" (the target, by default) -> 7+
        (Shot(1, target_skirmishing=True), 7, "skirmishing infantry"),
    ],
)
def test_each_small_arms_modifier_adds_to_the_score_needed(shot, needed, label):
    step = small_arms_fire(infantry(4), shot)
    assert step.base == 5 and step.needed == needed
    assert [m.label for m in step.modifiers] == [label]
    # one die hits on needed..12
    assert step.odds == binomial(3, F(13 - needed, 12))


def test_small_arms_modifiers_add_up():
    # Sharp shooter rifle, 1 hex, E: 3+; fence +1, wood +2, skirmishers +2 -> 8+
    step = small_arms_fire(infantry(1, "elite", "SR", skirmishing=False),
                           Shot(1, target_behind_fence=True, target_in_wood=True, target_skirmishing=True))
    assert (step.base, step.modifier, step.needed) == (3, 5, 8)
    assert step.odds == {0: F(7, 12), 1: F(5, 12)}


def test_a_target_is_behind_a_wall_or_a_fence_not_both():
    with pytest.raises(RulesError, match="wall or behind a fence"):
        small_arms_fire(infantry(), Shot(1, target_behind_wall=True, target_behind_fence=True))


def test_skirmishing_infantry_modifier_option_firer():
    """Option skirmishing_infantry_modifier = firer: the +2 goes with skirmishing firers."""
    firer = infantry(1, skirmishing=True)
    assert small_arms_fire(firer, Shot(1)).needed == 5  # default: only a skirmishing target counts
    assert small_arms_fire(firer, Shot(1), {"skirmishing_infantry_modifier": "firer"}).needed == 7
    assert small_arms_fire(infantry(4), Shot(1, target_skirmishing=True),
                           {"skirmishing_infantry_modifier": "firer"}).needed == 5


def test_score_above_twelve_cannot_hit():
    # Smoothbore musket, 2 hex, M: 12+; behind a wall: 14+, which no D12 rolls.
    step = small_arms_fire(infantry(3, "militia", "SM"), Shot(2, target_behind_wall=True))
    assert step.needed == 14 and step.odds == {0: F(1)}
    assert roll_hits(step, DiceService(seed=1), entered=[12, 12, 12]).hits == 0


@pytest.mark.parametrize(("count", "dice"), [(1, 1), (2, 2), (3, 3), (4, 3), (6, 3)])
def test_at_most_three_infantry_stands_fire(count, dice):
    """'Maximum of 3 infantry stands out of 4 in a hex can fire'."""
    assert small_arms_fire(infantry(count), Shot(1)).dice_count == dice


def test_disrupted_units_shoot_with_one_stand():
    """'Disrupted Units shoot with one stand from each hex.'"""
    assert small_arms_fire(infantry(4, disrupted=True), Shot(1)).dice_count == 1


def test_cavalry_fire_option():
    """The card limits infantry only (option cavalry_firing_stands)."""
    troopers = Stands("cavalry", "regular", 4, weapon="RC", dismounted=True)
    step = small_arms_fire(troopers, Shot(2))
    # Rifled carbine, 2 hex, R: 6+, 4 stands: 4 D12 hitting on 6..12 = 7/12
    assert step.dice_count == 4 and step.needed == 6 and step.odds == binomial(4, F(7, 12))
    assert small_arms_fire(troopers, Shot(2), {"cavalry_firing_stands": "three_of_four"}).dice_count == 3


@pytest.mark.parametrize(
    ("unit", "shot", "message"),
    [
        (infantry(weapon="SM"), Shot(3), "Smoothbore musket \\(SM\\) reaches 2 hexes at most"),
        (infantry(weapon="RM"), Shot(4), "reaches 3 hexes at most"),
        (infantry(weapon="XX"), Shot(1), "weapon 'XX'"),
        (infantry(weapon=None), Shot(1), "weapon None"),
        (infantry(), Shot(0), "range"),
        (infantry(), Shot(3, target_skirmishing=True), "maximum range of 2 hexes"),
        (infantry(), Shot(2, target_in_wood=True), "into a wood at 1 hex"),
        (infantry(), Shot(1, target_on_reverse_slope=True), "reverse slope"),
        (infantry(), Shot(1, target_is_nearest=False), "nearest enemy target"),
        (infantry(charging=True), Shot(1), "cannot shoot if attempting to charge"),
        (guns(), Shot(1), "artillery fires on the artillery table"),
        (infantry(quality="heroic"), Shot(1), "class 'heroic'"),
    ],
)
def test_small_arms_bad_input(unit, shot, message):
    with pytest.raises(RulesError, match=message):
        small_arms_fire(unit, shot)


def test_small_arms_into_a_wood_at_one_hex_and_skirmishers_at_two():
    assert small_arms_fire(infantry(), Shot(1, target_in_wood=True)).needed == 7  # 5+ +2
    assert small_arms_fire(infantry(), Shot(2, target_skirmishing=True)).needed == 9  # 7+ +2


def test_shooting_over_friends_from_a_hill():
    """'only possible if the distance to target is at least twice that of friends to be overshot'"""
    with pytest.raises(RulesError, match="only from a hill"):
        small_arms_fire(infantry(), Shot(2, over_friends_at=1))
    # friends 1 hex away: the target must be at least 2 hexes away
    assert small_arms_fire(infantry(), Shot(2, over_friends_at=1, from_hill=True)).needed == 7
    with pytest.raises(RulesError, match="at least 4 hexes away"):
        small_arms_fire(infantry(), Shot(3, over_friends_at=2, from_hill=True))


# ===========================================================================
# Artillery fire
# ===========================================================================


def test_worked_example_six_pounder_at_short_range():
    """6lb field gun: Short Range '7+ (2-3 hexes)'; '1D12 for 1/2 stands in hex'."""
    step = artillery_fire(guns(2), Shot(3))
    # 1 D12 hitting on 7..12 = 1/2
    assert step.dice == "1d12>=7" and step.odds == {0: F(1, 2), 1: F(1, 2)}
    assert roll_hits(step, DiceService(seed=1), entered=[7]).hits == 1


def test_worked_example_napoleon_canister():
    """12lb Napoleon: Canister (1 Hex) '4+H, 10+HH'; 3 stands read on the artillery dice
    (option canister_dice = artillery_dice): '2D12 3/4 stands'."""
    step = artillery_fire(guns(3, "12lb"), Shot(1), {"canister_dice": "artillery_dice"})
    assert step.dice_count == 2 and (step.needed, step.double_needed) == (4, 10)
    # one die: 1-3 no hit (3/12), 4-9 one hit (6/12), 10-12 two hits (3/12)
    one = {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}
    two = {}
    for a, pa in one.items():
        for b, pb in one.items():
            two[a + b] = two.get(a + b, 0) + pa * pb
    assert step.odds == two == {0: F(1, 16), 1: F(1, 4), 2: F(3, 8), 3: F(1, 4), 4: F(1, 16)}
    # 10 is HH (two hits), 3 misses
    result = roll_hits(step, DiceService(seed=1), entered=[10, 3])
    assert result.hits == 2 and result.doubles == 1 and result.text == "0 H, 1 HH: 2 hits"
    # 4 and 12: one H, one HH
    assert roll_hits(step, DiceService(seed=1), entered=[4, 12]).hits == 3


def test_canister_per_gun_by_default():
    """'Canister (1 Hex)per gun': each of the 3 Napoleons rolls a D12 at '4+H, 10+HH'
    (option canister_dice = per_gun), up to 6 hits; a disrupted hex fires one stand."""
    step = artillery_fire(guns(3, "12lb"), Shot(1))
    assert step.dice_count == 3 and (step.needed, step.double_needed) == (4, 10)
    # one die: 0 hits 1/4, 1 hit 1/2, 2 hits 1/4; three dice: 6 hits = (1/4)^3 = 1/64
    assert max(step.odds) == 6 and step.odds[6] == F(1, 64) and step.odds[0] == F(1, 64)
    assert roll_hits(step, DiceService(seed=1), entered=[10, 4, 3]).hits == 3
    assert artillery_fire(guns(1, "12lb"), Shot(1)).dice_count == 1
    assert artillery_fire(guns(3, "12lb", disrupted=True), Shot(1)).dice_count == 1


@pytest.mark.parametrize(
    ("gun", "hexes", "band"),
    [("6lb", 1, "canister"), ("6lb", 2, "short"), ("6lb", 3, "short"), ("6lb", 4, "long"), ("6lb", 5, "long"),
     ("12lb", 3, "short"), ("12lb", 5, "long"), ("12lb", 7, "long"), ("3in_rifle", 9, "long")],
)
def test_artillery_range_bands(gun, hexes, band):
    assert artillery_band(gun, hexes) == band


@pytest.mark.parametrize(("gun", "hexes"), [("6lb", 6), ("12lb", 8), ("3in_rifle", 10)])
def test_artillery_beyond_long_range(gun, hexes):
    with pytest.raises(RulesError, match="reaches"):
        artillery_band(gun, hexes)


@pytest.mark.parametrize("gun", ["12lb", "3in_rifle"])
def test_artillery_range_overlap_option(gun):
    """'5+ (2-4 hexes)' and '8+ (4-7 hexes)' / '8+ (4-9 hexes)' both hold 4 hexes."""
    assert artillery_fire(guns(2, gun), Shot(4)).needed == 5  # default: short
    assert artillery_fire(guns(2, gun), Shot(4), {"artillery_range_overlap": "long"}).needed == 8


def test_artillery_rules_of_the_card():
    with pytest.raises(RulesError, match="cannot move in their movement phase and shoot"):
        artillery_fire(guns(moved=True), Shot(2))
    with pytest.raises(RulesError, match="skirmishers cannot be targeted by artillery at long range"):
        artillery_fire(guns(), Shot(4, target_skirmishing=True))
    assert artillery_fire(guns(), Shot(3, target_skirmishing=True)).needed == 7  # short range: allowed
    with pytest.raises(RulesError, match="fired through by friendly artillery"):
        artillery_fire(guns(), Shot(3, through_friendly_skirmishers=True))
    with pytest.raises(RulesError, match="closest enemy unit"):
        artillery_fire(guns(), Shot(3, target_is_nearest=False))
    # '... unless firing through enemy skirmishers'
    assert artillery_fire(guns(), Shot(3, target_is_nearest=False, through_enemy_skirmishers=True)).needed == 7
    with pytest.raises(RulesError, match="reverse slope"):
        artillery_fire(guns(), Shot(3, target_on_reverse_slope=True))
    with pytest.raises(RulesError, match="gun 'howitzer'"):
        artillery_fire(guns(gun="howitzer"), Shot(2))
    with pytest.raises(RulesError, match="fires with small arms"):
        artillery_fire(infantry(), Shot(2))


def test_artillery_into_a_wood_option():
    """'Artillery can shoot 1 hex into a wood only at short range.'"""
    assert artillery_fire(guns(), Shot(2, target_in_wood=True)).needed == 7  # no +2 for artillery (default)
    with pytest.raises(RulesError, match="only at short range"):
        artillery_fire(guns(), Shot(4, target_in_wood=True))
    with pytest.raises(RulesError, match="only at short range"):
        artillery_fire(guns(), Shot(1, target_in_wood=True))
    assert artillery_fire(guns(), Shot(1, target_in_wood=True), {"artillery_into_wood": "canister_or_short"}).needed == 4


def test_artillery_cover_modifiers_option():
    shot = Shot(2, target_behind_wall=True)
    assert artillery_fire(guns(), shot).needed == 7  # default: small arms only
    step = artillery_fire(guns(), shot, {"artillery_cover_modifiers": "artillery_too"})
    assert step.needed == 9  # 7+ and +2 behind a wall
    # canister with +2: 6lb 4+H, 11+HH -> 6+H, 13+HH: two hits from one die impossible;
    # the 2 guns roll a die each (canister_dice = per_gun): (5/12)^2 none, (7/12)^2 two.
    can = artillery_fire(guns(), Shot(1, target_behind_wall=True), {"artillery_cover_modifiers": "artillery_too"})
    assert (can.needed, can.double_needed) == (6, 13)
    assert can.odds == {0: F(25, 144), 1: F(35, 72), 2: F(49, 144)}


def test_artillery_stands_option():
    """'3D12 5/6 stands' against 'Artillery 3 (2 in column)' in a hex."""
    assert artillery_fire(guns(3), Shot(2)).dice_count == 2
    with pytest.raises(RulesError, match="at most 3 stands"):
        artillery_fire(guns(4), Shot(2))
    assert artillery_fire(guns(4), Shot(2), {"artillery_stands": "dice_table"}).dice_count == 2
    assert artillery_fire(guns(6), Shot(2), {"artillery_stands": "dice_table"}).dice_count == 3
    with pytest.raises(RulesError, match="at most 6 stands"):
        artillery_fire(guns(7), Shot(2), {"artillery_stands": "dice_table"})


def test_disrupted_artillery_fires_one_stand():
    assert artillery_fire(guns(3, disrupted=True), Shot(2)).dice_count == 1


# ===========================================================================
# Response to charge: "Role 1D6. The charged unit must achieve a score greater than shown"
# ===========================================================================


def test_worked_example_regular_response():
    """'Regular 3': the die must be 4, 5 or 6."""
    step = response_step(infantry(4), charger_stands=4)
    assert step.score == 3 and step.modifiers == ()
    assert step.odds == {"stands": F(1, 2), "routs": F(1, 2)}
    result = resolve_response(step, DiceService(seed=1), entered=[4])
    assert result.stood and result.text == "the charged unit stands, fires and fights hand-to-hand"
    failed = resolve_response(step, DiceService(seed=1), entered=[3])
    assert not failed.stood and failed.text == "all the stands in the hex must route"
    assert failed.chargers_occupy
    assert "more than 3" in failed.record.purpose


@pytest.mark.parametrize(
    ("defence", "chargers", "score", "label"),
    [
        (ChargeDefence(uphill_of_chargers=True), 4, 2, "uphill of chargers"),  # 3 - 1
        (ChargeDefence(defending_linear_obstacle=True), 4, 1, "defending linear obstacle"),  # 3 - 2
        (ChargeDefence(defending_wood=True), 4, 2, "defending wood hex"),  # 3 - 1
        (ChargeDefence(brigade_commander_hexes=2), 4, 2, "brigade commander within 2 hexes"),  # 3 - 1
        (ChargeDefence(), 8, 5, "outnumbered 2:1 by chargers"),  # 8 against 4 stands: 3 + 2
    ],
)
def test_each_response_modifier(defence, chargers, score, label):
    step = response_step(infantry(4), charger_stands=chargers, defence=defence)
    assert step.score == score and [m.label for m in step.modifiers] == [label]
    assert step.odds["stands"] == F(6 - score, 6)


def test_response_modifiers_that_do_not_apply():
    # the commander 3 hexes away is not 'within 2 hexes'; 7 against 4 is not 2:1
    step = response_step(infantry(4), charger_stands=7, defence=ChargeDefence(brigade_commander_hexes=3))
    assert step.modifiers == () and step.score == 3


def test_response_extremes():
    # Green/Militia 4, outnumbered +2: 6, no D6 beats it
    green = response_step(infantry(2, "militia"), charger_stands=4)
    assert green.score == 6 and green.odds == {"stands": 0, "routs": 1}
    # Elite/Veteran 2, uphill -1, obstacle -2, wood -1, commander -1: -3, any die beats it
    defence = ChargeDefence(True, True, True, brigade_commander_hexes=0)
    elite = response_step(infantry(4, "veteran"), charger_stands=4, defence=defence)
    assert elite.score == -3 and elite.odds == {"stands": 1, "routs": 0}


def test_failed_response_of_artillery_and_the_chargers_option():
    """'Artillery do not route, they are simply eliminated.'"""
    step = response_step(guns(2), charger_stands=2)
    result = resolve_response(step, DiceService(seed=1), entered=[1])
    assert result.artillery_eliminated and result.text == "Artillery do not route, they are simply eliminated"
    stay = resolve_response(step, DiceService(seed=1), entered=[1], overrides={"failed_response_hex": "chargers_stay"})
    assert not stay.chargers_occupy


def test_response_bad_input():
    with pytest.raises(RulesError, match="chargers' stands"):
        response_step(infantry(4), charger_stands=0)
    with pytest.raises(RulesError, match="brigade commander"):
        response_step(infantry(4), charger_stands=2, defence=ChargeDefence(brigade_commander_hexes=-1))
    with pytest.raises(DiceError):
        resolve_response(response_step(infantry(4), charger_stands=2), DiceService(seed=1), entered=[7])


# ===========================================================================
# Charging into contact: "(1D12 per stand)[Up to 6 stands max per hex for infantry, and 4 for cavalry.]"
# ===========================================================================


@pytest.mark.parametrize(
    ("unit", "score"),
    [
        (infantry(6, "elite"), 5),  # 'Elite infantry 5+'
        (infantry(6, "regular"), 7),  # 'Regular infantry 7+'
        (infantry(6, "militia"), 9),  # 'Militia 9+'
        (Stands("cavalry", "regular", 4), 4),  # 'Mounted Cavalry 4+'
        (Stands("cavalry", "elite", 4, dismounted=True), 8),  # 'Dismounted Cavalry 8+'
    ],
)
def test_charging_scores(unit, score):
    step = hand_to_hand_step(unit, charging=True)
    assert step.needed == score and step.dice_count == unit.count
    assert step.odds == binomial(unit.count, F(13 - score, 12))


def test_worked_example_hand_to_hand():
    # 6 Regular stands charge (7+): 6 D12 showing 7, 8, 2, 12, 6, 1 -> 3 hits.
    step = hand_to_hand_step(infantry(6), charging=True)
    hits = roll_hits(step, DiceService(seed=1), entered=[7, 8, 2, 12, 6, 1]).hits
    assert hits == 3
    # 3 hits on a Regular hex of 4: '1 stand lost, Disrupted'
    result = combat_result(hits, infantry(4))
    assert result.text == "1 stand lost, Disrupted"
    after = apply_combat(result, infantry(4), charged_in_hand_to_hand=True)
    assert after.stands_left == 3 and after.disrupted and not after.attackers_occupy


def test_hand_to_hand_dice_option_and_artillery():
    defenders = infantry(4)
    assert hand_to_hand_step(defenders, charging=False).needed == 7  # default: both sides roll
    assert hand_to_hand_step(defenders, charging=False, overrides={"hand_to_hand_dice": "chargers_only"}) is None
    assert hand_to_hand_step(guns(2), charging=False) is None  # artillery has no score
    with pytest.raises(RulesError, match="artillery has no score"):
        hand_to_hand_step(guns(2), charging=True)
    with pytest.raises(RulesError, match="cannot charge"):
        hand_to_hand_step(infantry(4, disrupted=True), charging=True)
    with pytest.raises(RulesError, match="at most 4 stands"):
        hand_to_hand_step(Stands("cavalry", "regular", 5), charging=True)


# ===========================================================================
# Combat table
# ===========================================================================


def test_worked_example_combat_and_recoil():
    """Regular, 4 hits: '1 stand lost, Recoil, Disrupted'."""
    result = combat_result(4, infantry(4))
    assert (result.column, result.row) == ("Regular", 4)
    assert (result.stands_lost, result.recoil, result.rout, result.disrupted) == (1, True, False, True)
    after = apply_combat(result, infantry(4), charged_in_hand_to_hand=True)
    # 4 - 1 = 3 stands; the charged unit recoils, so the attackers occupy its hex
    assert after.stands_left == 3 and after.recoil and after.attackers_occupy
    assert after.text == "1 stand lost, Recoil, Disrupted"


def test_last_stand_in_a_hex_is_eliminated_except_artillery():
    """'The last stand in any hex remaining after combat is automatically eliminated except for artillery.'"""
    # Regular, 3 hits: 1 stand lost; 2 - 1 = 1 left, which is eliminated
    after = apply_combat(combat_result(3, infantry(2)), infantry(2))
    assert after.stands_left == 0 and after.last_stand_removed and after.command_stand_lost
    assert after.text == "Eliminated (last stand in the hex)"
    # Artillery, 3 hits: '1 stand lost, Disrupted'; 2 - 1 = 1 gun stays
    art = apply_combat(combat_result(3, guns(2)), guns(2))
    assert art.stands_left == 1 and not art.last_stand_removed and art.disrupted


def test_last_stand_option():
    skirmisher = infantry(1, skirmishing=True)
    result = combat_result(1, skirmisher)  # Regular, 1 hit: 'No effect'
    assert apply_combat(result, skirmisher).stands_left == 1
    assert apply_combat(result, skirmisher, {"last_stand": "any_combat"}).stands_left == 0


def test_militia_rout_and_elimination():
    # Militia, 3 hits on 6 stands: '2 stands lost, Route, Disrupted' -> 4 left, routing
    after = apply_combat(combat_result(3, infantry(6, "militia")), infantry(6, "militia"), charged_in_hand_to_hand=True)
    assert after.stands_left == 4 and after.rout and after.attackers_occupy
    # Militia, 6 hits: '5 stands lost, Eliminated'
    result = combat_result(6, infantry(6, "green"))
    assert result.eliminated and result.text == "5 stands lost, Eliminated"
    assert apply_combat(result, infantry(6, "green")).stands_left == 0


def test_no_hit_and_too_many_hits():
    assert combat_result(0, infantry()).text == "No effect" and combat_result(0, infantry()).row is None
    # more than 8 hits read the 8 row by default: 'Eliminated'
    nine = combat_result(9, infantry())
    assert nine.row == 8 and nine.text == "Eliminated"
    with pytest.raises(RulesError, match="umpire decides what 9 hits do"):
        combat_result(9, infantry(), {"hits_beyond_table": "ask_umpire"})
    with pytest.raises(RulesError, match="number of hits"):
        combat_result(-1, infantry())


def test_combat_columns():
    assert combat_column(Stands("cavalry", "elite", 4)) == "cavalry"  # 'Mounted Cavalry' whatever the class
    assert combat_column(guns()) == "artillery"
    assert combat_column(infantry(quality="recruit")) == "militia"
    dismounted = Stands("cavalry", "regular", 4, dismounted=True)
    assert combat_column(dismounted) == "regular"  # default: their class
    assert combat_column(dismounted, {"dismounted_cavalry_combat": "cavalry_column"}) == "cavalry"
    # Regular, 2 hits 'Disrupted'; Mounted Cavalry, 2 hits '1 stand lost, Disrupted'
    assert combat_result(2, dismounted).text == "Disrupted"
    assert combat_result(2, dismounted, {"dismounted_cavalry_combat": "cavalry_column"}).text == "1 stand lost, Disrupted"


def test_worked_example_result_odds():
    # 3 Regular rifle-musket stands at 2 hexes (7+, 1/2 a die) at a Regular hex:
    # 0 or 1 hit: No effect (1/8 + 3/8); 2 hits: Disrupted (3/8); 3 hits: '1 stand lost, Disrupted' (1/8)
    step = small_arms_fire(infantry(4), Shot(2))
    odds = combat_odds(step.odds, infantry(4))
    assert odds == {"No effect": F(1, 2), "Disrupted": F(3, 8), "1 stand lost, Disrupted": F(1, 8)}
    assert sum(odds.values()) == 1


def test_result_odds_beyond_the_table_under_ask_umpire():
    odds = combat_odds({8: F(1, 2), 9: F(1, 2)}, infantry(), {"hits_beyond_table": "ask_umpire"})
    assert odds == {"Eliminated": F(1, 2), UMPIRE_DECIDES: F(1, 2)}


def test_hits_on_one_hex_option():
    assert hits_to_read([2, 3]) == [5]  # default: added, read once
    assert hits_to_read([2, 3], {"hits_on_one_hex": "separately"}) == [2, 3]
    # two 6lb guns at short range (1 D12 at 7+ each): hits add up as two dice at 1/2
    one = artillery_fire(guns(2), Shot(2)).odds
    assert add_hits_odds(one, one) == binomial(2, F(1, 2))
    assert add_hits_odds() == {0: 1}


# ===========================================================================
# Movement, recoil, rout, evade, disruption, command
# ===========================================================================


@pytest.mark.parametrize(
    ("unit", "difficult", "hexes"),
    [
        (infantry(formation="line"), False, 2),
        (infantry(formation="column"), False, 3),
        (infantry(formation="march_column"), False, 4),
        (infantry(formation="column"), True, 1),  # 'Woods, River, Linear obstacle'
        (Stands("cavalry", count=4, formation="march_column"), False, 7),
        (Stands("artillery", count=2, formation="column"), False, 3),
        (Stands("artillery", count=2), True, 0),  # '-'
    ],
)
def test_movement_allowance(unit, difficult, hexes):
    assert movement_allowance(unit, difficult=difficult).hexes == hexes


def test_disrupted_units_reform_instead_of_moving():
    move = movement_allowance(infantry(disrupted=True))
    assert move.hexes == 0 and "instead they reform" in move.reason


def test_skirmisher_movement_option():
    skirmisher = infantry(1, skirmishing=True)
    assert movement_allowance(skirmisher).hexes == 2
    assert movement_allowance(skirmisher, overrides={"skirmisher_movement": "column"}).hexes == 3


def test_rally_at_the_end_of_the_movement_phase():
    """'The disruption marker is removed ... if they are not in hex-to-hex contact with an enemy unit.'"""
    assert rallies(infantry(disrupted=True), in_contact_with_enemy=False)
    assert not rallies(infantry(disrupted=True), in_contact_with_enemy=True)
    with pytest.raises(RulesError, match="only a disrupted unit"):
        rallies(infantry(), in_contact_with_enemy=False)


def test_recoil():
    """'Recoiled units move one hex away from their attackers'."""
    assert recoil(infantry()).hexes == 1 and not recoil(infantry()).removed
    assert recoil(infantry(), at_own_table_edge=True).removed


def test_rout_distances():
    """'1D6 for infantry and 2 hexes + (1D6) for cavalry'."""
    inf = rout_step(infantry())
    assert inf.dice == "1d6" and inf.odds == {n: F(1, 6) for n in range(1, 7)}
    cav = rout_step(Stands("cavalry", count=4))
    assert cav.plus == 2 and cav.odds == {n: F(1, 6) for n in range(3, 9)}
    # 2 + 5 = 7 hexes
    assert resolve_rout(cav, DiceService(seed=1), entered=[5]).distance == 7


def test_routers_stop_at_their_table_edge_and_are_removed_from_it():
    """'Routing units stop at their sides table edge. If they are forced to recoil or route from this position,
    they are removed from play.'"""
    step = rout_step(infantry(), hexes_to_own_edge=3)
    # a 4, 5 or 6 stops at the edge, 3 hexes away
    assert step.odds == {1: F(1, 6), 2: F(1, 6), 3: F(4, 6)}
    result = resolve_rout(step, DiceService(seed=1), entered=[6])
    assert result.hexes_moved == 3 and result.stopped_at_edge
    assert result.text == "routs 3 hexes, ignoring terrain effects, stops at its sides table edge"
    at_edge = resolve_rout(rout_step(infantry(), hexes_to_own_edge=0), DiceService(seed=1))
    assert at_edge.removed and at_edge.record is None


def test_artillery_does_not_rout():
    result = resolve_rout(rout_step(guns()), DiceService(seed=1))
    assert result.removed and result.record is None
    assert result.text == "Artillery do not route, they are simply eliminated"


def test_evade():
    """'Only skirmishing infantry (single stand in hex) and cavalry can evade ... a normal move away'."""
    assert evade_move(infantry(1, skirmishing=True)).hexes == 2
    assert evade_move(Stands("cavalry", count=4, formation="column", disrupted=True)).hexes == 5
    assert not can_evade(infantry(4))
    with pytest.raises(RulesError, match="only skirmishing infantry"):
        evade_move(guns())


def test_command_and_generals():
    """'Brigade commanders can only move units within 3 hexes and any units in hex to hex contact'."""
    assert in_command(3) and not in_command(4)
    assert in_command(6, linked_by_contact=True)
    assert general_move() == 5  # 'Generals can move up to 5 hexes'
    with pytest.raises(RulesError):
        in_command(-1)


# ===========================================================================
# Sequence of play
# ===========================================================================


def test_sequence_of_play():
    order = steps()
    assert [(s.id, s.phase, s.sides) for s in order] == [
        ("movement", 1, "active"),
        ("artillery_fire", 2, "active"),
        ("simultaneous_fire", 2, "both"),
        ("hand_to_hand", 3, "both"),
    ]
    assert order[1].printed.startswith("Side ‘A’ artillery fire.")
    assert check_action("simultaneous_fire", "small_arms_fire", active_side=False).phase == 2
    assert check_action("simultaneous_fire", fire_action("canister"), active_side=False).phase == 2
    assert fire_action("long") == "artillery_fire"
    with pytest.raises(RulesError, match="only the side whose bound it is"):
        check_action("artillery_fire", "artillery_fire", active_side=False)
    with pytest.raises(RulesError, match="hand to hand is not done in the movement step"):
        check_action("movement", "hand_to_hand", active_side=True)
    with pytest.raises(RulesError, match="step 'volley'"):
        check_action("volley", "hand_to_hand", active_side=True)


# ===========================================================================
# The units a procedure reads
# ===========================================================================


@pytest.mark.parametrize(
    ("unit", "message"),
    [
        (Stands("dragoons"), "arm 'dragoons'"),
        (Stands("infantry", formation="square"), "formation 'square'"),
        (Stands("infantry", count=0), "stands in the hex"),
        (Stands("infantry", count=7), "at most 6 stands in a hex"),
        (Stands("infantry", count=5, formation="column"), "at most 4 stands in column"),
        (Stands("artillery", count=3, formation="march_column"), "at most 2 stands in column"),
        (Stands("cavalry", count=2, skirmishing=True), "only infantry skirmish"),
        (Stands("infantry", count=2, skirmishing=True), "one stand per hex"),
        (Stands("infantry", dismounted=True), "only cavalry can be dismounted"),
    ],
)
def test_units_the_card_forbids(unit, message):
    with pytest.raises(RulesError, match=message):
        check_stands(unit, resolve_options(RS))


def test_class_synonyms():
    assert small_arms_fire(infantry(1, "veteran"), Shot(1)).cell == "4+"  # E
    assert small_arms_fire(infantry(1, "green"), Shot(1)).cell == "6+"  # M


# ===========================================================================
# Options, conversion, dice
# ===========================================================================


def test_every_option_has_a_default_and_a_reason():
    options = load_options(RS)
    assert len(options) == 16  # canister_dice (issue 21), routed_at_end (issue 24), recoil_contact (issue 24)
    for option in options.values():
        assert option.default in option.choices and option.reason and "002_4559601f68b00eee" in option.source
    with pytest.raises(RulesError, match="no option"):
        resolve_options(RS, {"volley_fire": "yes"})


def test_the_conversion_is_editorial_and_loads():
    conversion = load_conversion(RS)
    assert conversion is not None and conversion.label == "regiment" and conversion.size_label == "stands"
    assert any("Editorial" in note for note in conversion.notes)
    assert conversion.quality == {1: "militia", 2: "militia", 3: "regular", 4: "regular", 5: "elite", 6: "elite"}
    assert set(conversion.leader) == set(range(6))
    order = tactical_order(conversion, [("ii", "II Corps", "infantry", 2, 3), ("gd", "Guard", "cavalry", 1, 6)])
    assert [(u.size, u.quality) for u in order.units] == [(4, "regular"), (4, "regular"), (4, "elite")]
    # every unit the conversion makes fits a hex of the card
    for unit in order.units:
        check_stands(Stands(unit.arm, unit.quality, unit.size), resolve_options(RS))
    check_stands(Stands("artillery", "regular", conversion.size["artillery"], formation="column"), resolve_options(RS))
    # 6 infantry stands lost = 1.5 regiments -> 2 SP (nearest, halves up)
    assert sp_lost(conversion, "infantry", 6) == 2


def test_rolled_dice_are_seeded_and_recorded():
    records = []
    dice = DiceService(seed=42, recorder=records.append)
    step = small_arms_fire(infantry(4), Shot(1))
    first = roll_hits(step, dice)
    again = roll_hits(step, DiceService(seed=42))
    assert first.record.raw == again.record.raw and first.hits == again.hits
    assert records == [first.record] and first.record.dice == "3d12>=5"
    with pytest.raises(DiceError, match="needs 3 dice"):
        roll_hits(step, dice, entered=[5, 6])
    with pytest.raises(DiceError, match="1 to 12"):
        roll_hits(step, dice, entered=[5, 6, 13])


@pytest.mark.parametrize("module", ["", ".charge", ".combat", ".fire", ".moves", ".sequence"])
def test_docstring_examples(module):
    mod = importlib.import_module("rules.kallistra_acw" + module)
    failures, _ = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert failures == 0


# ===========================================================================
# Properties over every weapon, range, class and number of stands
# ===========================================================================

REACH = {"SM": 2, "RM": 3, "SR": 4, "RC": 3, "SS": 2}  # from the card's rows (cells test)


@settings(max_examples=150, deadline=None)
@given(
    weapon=st.sampled_from(sorted(REACH)),
    quality=st.sampled_from(["elite", "regular", "militia"]),
    count=st.integers(1, 6),
    data=st.data(),
)
def test_fire_odds_are_exact_distributions_and_grow_with_stands(weapon, quality, count, data):
    rng = data.draw(st.integers(1, REACH[weapon]))
    wall = data.draw(st.booleans())
    step = small_arms_fire(infantry(count, quality, weapon), Shot(rng, target_behind_wall=wall))
    assert sum(step.odds.values()) == 1 and min(step.odds) >= 0 and max(step.odds) <= step.dice_count
    odds = combat_odds(step.odds, infantry(4, quality))
    assert sum(odds.values()) == 1
    mean = sum(h * p for h, p in step.odds.items())
    if count < 3:  # one more firing stand never scores fewer hits on average
        more = small_arms_fire(infantry(count + 1, quality, weapon), Shot(rng, target_behind_wall=wall))
        assert sum(h * p for h, p in more.odds.items()) > mean or mean == 0


@settings(max_examples=60, deadline=None)
@given(gun=st.sampled_from(["6lb", "12lb", "3in_rifle"]), count=st.integers(1, 3), hexes=st.integers(1, 5))
def test_artillery_odds_sum_to_one(gun, count, hexes):
    step = artillery_fire(guns(count, gun), Shot(hexes))
    assert sum(step.odds.values()) == 1
    assert max(step.odds) <= step.dice_count * (2 if step.double_base else 1)

"""The procedures of napoleonic_d10 checked against the card.

Each worked example quotes the card's line it uses (from the text copy
../shared/seeds/001_c4de82bc21018f2c.txt) and shows the arithmetic by hand
in comments. Where the card is silent the product uses a named option
(rules/napoleonic_d10/options.toml); those tests name the option and check its
default and its alternatives.
"""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest

from rules import RulesError
from rules.conversion import load_conversion, sp_lost, tactical_order
from rules.dice import ENTERED, DiceError, DiceService, Modifier
from rules.napoleonic_d10 import (
    charge,
    fire,
    initiative,
    morale,
    movement,
    rolls,
    skirmish,
)
from rules.napoleonic_d10.charge import (
    ChargeSide,
    ChargeSituation,
    attacker_modifiers,
    charge_check,
    charge_result,
    defender_modifiers,
    may_continue_charge,
    may_ride_down,
    melee_check,
    melee_round,
    resolve_charge,
    surrender_percent,
)
from rules.napoleonic_d10.data import Leader, class_dice, cw_level_for, influence_level
from rules.odds import icepool_die
from rules.napoleonic_d10.fire import (
    FireSituation,
    defensive_fire_reach,
    fire_check,
    fire_discipline_check,
    fire_lines,
    fire_modifiers,
    range_effect,
    read_discipline,
    resolve_fire,
)
from rules.napoleonic_d10.initiative import (
    Commander,
    command_radius,
    initiative_modifiers,
    initiative_odds,
    local_initiative_check,
    roll_initiative,
)
from rules.napoleonic_d10.morale import (
    MoraleEvent,
    MoraleSituation,
    crash_through_check,
    morale_check,
    morale_checks_due,
    morale_effect,
    morale_modifiers,
    resolve_morale,
)
from rules.napoleonic_d10.movement import (
    MovementSituation,
    artillery_move,
    movement_check,
    movement_distance,
    movement_modifiers,
    terrain_effect,
)
from rules.napoleonic_d10.skirmish import disruption_check, read_state, skirmish_check
from rules.options import load_options, resolve_options

RS = "napoleonic_d10"
DEF_SURR = "The defender rolls 1d10 to determine the percentage of the unit which surrenders. The remaining figures rout. Attacker may occupy."


def dice() -> DiceService:
    return DiceService(seed=1813)


def labels(mods) -> list[tuple[str, int]]:
    return [(m.label, m.value) for m in mods]


def ranges(check) -> list[str]:
    return [str(r) for r in check.needed()]


# ---------------------------------------------------------------------------
# Class dice: "class Elite 3d-d / class Line 2d / class Conscript 1d10"
# ---------------------------------------------------------------------------


def test_class_dice_default_reading():
    assert [class_dice(c) for c in ("elite", "line", "conscript")] == ["3d10kh2", "2d10", "1d10"]


def test_class_dice_option_highest_die():
    chosen = {"class_dice": "highest_die"}
    assert [class_dice(c, chosen) for c in ("elite", "line", "conscript")] == ["3d10kh1", "2d10kh1", "1d10"]


def test_unknown_class_is_one_sentence():
    with pytest.raises(RulesError, match="unit class must be one of elite, line, conscript, not 'guard'"):
        class_dice("guard")


# ---------------------------------------------------------------------------
# MORALE
# ---------------------------------------------------------------------------


def test_morale_worked_example():
    # A Line battalion, CW 8, shaken, 60% losses, in light cover, a Good division
    # leader attached at brigade.
    #   Shaken -2, 50% or more losses -5, Light Cover +2,
    #   "Div at Rgt or Bde IL": IL by the rating (option leader_il), "Attached: ... Good +1" -> +1
    #   total -2 - 5 + 2 + 1 = -4
    # Line rolls 2d10 ("2d"); the dice show 4 and 4: 8 - 4 = 4.
    #   "3–5 NE DO DOR Brok Brok Rout Rout Surr", under 7–8 (4th heading): Brok.
    #   Morale Loss Move "Brok 10" back/away"; Duration "Broken 2 Full Turns".
    s = MoraleSituation("line", cw=8, shaken=True, losses_percent=60, cover="light_cover",
                        leaders=(Leader("good", "division"),))
    assert labels(morale_modifiers(s)) == [
        ("Shaken", -2), ("50% or more losses", -5), ("Light Cover", 2), ("Good division leader at brigade (IL)", 1)]
    out = resolve_morale(s, dice(), entered=[4, 4])
    assert (out.rolled.natural, out.rolled.modified, out.rolled.text) == (8, 4, "Brok")
    # The grid reading: Leader Attachment "Good 7 5 3", DIV = 7 -> -2 - 5 + 2 + 7 = +2;
    # dice 1 and 2: 3 + 2 = 5, row 3–5 again: Brok.
    grid = {"leader_il": "attachment_grid"}
    assert labels(morale_modifiers(s, grid))[-1] == ("Good division leader at brigade (IL)", 7)
    out = resolve_morale(s, dice(), entered=[1, 2], options=grid)
    assert (out.rolled.natural, out.rolled.modified, out.rolled.text) == (3, 5, "Brok")
    assert out.effect == morale.MoraleEffect("Brok", "broken", '10" back/away', "2 Full Turns")
    assert out.rolled.record.raw == (1, 2) and out.rolled.record.purpose.startswith("morale check")


def test_morale_needed_and_exact_odds_line_cw_8():
    # Column 7–8 reads, from the top row down: NE NE NE NE SH Brok Brok (rows 18–19 ... 3–5, 0–2):
    #   2d10 = 2..5 -> rows 0–2, 3–5: Brok; 6..8 -> row 6–8: SH; 9..20 -> NE (20 reads 18–19).
    #   P(Brok) = (1+2+3+4)/100, P(SH) = (5+6+7)/100, P(NE) = 72/100.
    check = morale_check(MoraleSituation("line", cw=8))
    assert ranges(check) == ["Brok on 2-5", "SH on 6-8", "NE on 9-20"]
    assert check.odds() == {"Brok": Fraction(10, 100), "SH": Fraction(18, 100), "NE": Fraction(72, 100)}


def test_morale_elite_and_conscript_dice():
    # Conscript 1d10 at CW 3 (heading 3–4, the sixth): rows 0–2 and 3–5 read Rout, 6–8 DOR, 9–11 DO;
    # the die stops at 10.
    assert ranges(morale_check(MoraleSituation("conscript", cw=3))) == ["Rout on 1-5", "DOR on 6-8", "DO on 9-10"]
    elite = morale_check(MoraleSituation("elite", cw=13))
    assert elite.dice == "3d10kh2" and elite.odds() == {"NE": 1}


@pytest.mark.parametrize(
    "field, value, label, amount",
    [
        ("no_div_integrity", True, "No Div Integrity", -2),
        ("shaken", True, "Shaken", -2),
        ("disordered", True, "Disordered", -3),
        ("broken", True, "Broken", -4),
        ("losses_percent", 50, "50% or more losses", -5),
        ("out_of_ammo", True, "Out-of-Ammo", -3),
        ("fired_on_flank", True, "Fired on Flank", -5),
        ("in_firefight", True, "In Firefight", 1),
        ("flanks_covered", True, "Flanks Covered", 1),
        ("cover", "sparse_cover", "Sparse Cover", 1),
        ("cover", "light_cover", "Light Cover", 2),
        ("cover", "medium_cover", "Medium Cover", 3),
        ("cover", "heavy_cover", "Heavy Cover", 4),
        ("cover", "entrenched", "Entrenched", 5),
        ("downhill", True, "Downhill", -1),
    ],
)
def test_each_morale_modifier(field, value, label, amount):
    assert labels(morale_modifiers(MoraleSituation("line", cw=5, **{field: value}))) == [(label, amount)]


def test_losses_below_half_add_nothing():
    assert morale_modifiers(MoraleSituation("line", cw=5, losses_percent=Fraction(99, 2))) == []


@pytest.mark.parametrize(
    "leader, grid, rating",
    [
        # "Div at Rgt or Bde IL": grid Sup DIV 9; rating "Superior +3"; at regiment or brigade alike
        (Leader("superior", "division", "regiment"), 9, 3),
        (Leader("superior", "division", "brigade"), 9, 3),
        # "Corps/Army… (at regt) IL+1": grid Exc CORPS 6 + 1; rating "Excellent +2" + 1
        (Leader("excellent", "corps", "regiment"), 7, 3),
        # "(at Bde) IL": grid Avg ARMY 2; 'Attached:' prints no Average line: 0
        (Leader("average", "army", "brigade"), 2, 0),
        (Leader("poor", "army", "regiment"), 2, 0),  # grid Poor ARMY 1 + 1; rating "Poor -1" + 1
    ],
)
def test_command_modifier_by_option_leader_il(leader, grid, rating):
    [m] = morale_modifiers(MoraleSituation("line", cw=5, leaders=(leader,)), {"leader_il": "attachment_grid"})
    assert m.value == grid
    [m] = morale_modifiers(MoraleSituation("line", cw=5, leaders=(leader,)))
    assert m.value == rating


def test_several_leaders_option():
    # Grid: Good DIV 7 at brigade, Poor CORPS 3 at regiment (+1): sum 7 + 4 = 11; best 7.
    # Rating (default): Good +1; Poor -1 at regiment +1 = 0: sum 1, best 1.
    s = MoraleSituation("line", cw=5, leaders=(Leader("good", "division"), Leader("poor", "corps", "regiment")))
    grid = {"leader_il": "attachment_grid"}
    assert sum(m.value for m in morale_modifiers(s, {**grid, "several_leaders": "sum"})) == 11
    assert sum(m.value for m in morale_modifiers(s, grid)) == 7  # default several_leaders: best
    assert sum(m.value for m in morale_modifiers(s, {"several_leaders": "sum"})) == 1
    assert [m.value for m in morale_modifiers(s)] == [1]


SUPERIORS = (Leader("superior", "division"), Leader("superior", "corps", "regiment"), Leader("superior", "army", "regiment"))


@pytest.mark.parametrize(
    "options, leaders, command, line_past_top, elite_past_top",
    [
        # No leader: 2d10 alone passes row 18–19 on a natural 20, 1 roll in 100.
        ({}, (), None, Fraction(1, 100), Fraction(28, 1000)),
        # The defaults (IL by rating, the best only): at most Superior corps at regiment, 3 + 1.
        ({}, SUPERIORS, 4, Fraction(15, 100), Fraction(327, 1000)),
        ({"leader_il": "attachment_grid"}, SUPERIORS[:1], 9, Fraction(55, 100), Fraction(785, 1000)),
        ({"several_leaders": "sum"}, SUPERIORS[:2], 7, Fraction(36, 100), Fraction(622, 1000)),
        ({"several_leaders": "sum"}, SUPERIORS, 11, Fraction(72, 100), Fraction(894, 1000)),
        # The issue's case: grid, summed, a Superior division and corps leader add +9 +8 = +17.
        ({"leader_il": "attachment_grid", "several_leaders": "sum"}, SUPERIORS[:2], 17, Fraction(99, 100), Fraction(999, 1000)),
    ],
)
def test_the_leader_readings_against_the_morale_tables_printed_range(options, leaders, command, line_past_top, elite_past_top):
    """The argument of options leader_il and several_leaders, worked out with icepool: the
    share of rolls a leader's Command modifier takes past the top row (18–19)."""
    s = MoraleSituation("line", cw=5, leaders=leaders)
    mods = morale_modifiers(s, options)
    assert (sum(m.value for m in mods) if mods else None) == command
    for unit_class, expected in (("line", line_past_top), ("elite", elite_past_top)):
        die = icepool_die(class_dice(unit_class, options), sum(m.value for m in mods))
        assert round(Fraction(die.probability(">", 19)), 3) == expected, unit_class


def test_one_officer_per_command_level():
    s = MoraleSituation("line", cw=5, leaders=(Leader("good", "division"), Leader("poor", "division")))
    with pytest.raises(RulesError, match="only 1 officer from each command level"):
        morale_modifiers(s)


@pytest.mark.parametrize(
    "situation, message",
    [
        (MoraleSituation("line", cw=5, cover="woods"), "the cover must be one of"),
        (MoraleSituation("line", cw=5.5), "CW level must be a whole number"),  # type: ignore[arg-type]
        (MoraleSituation("line", cw=5, losses_percent=120), "between 0 and 100%"),
        (MoraleSituation("line", cw=5, leaders=(Leader("great", "division"),)), "rating must be one of"),
        (MoraleSituation("line", cw=5, leaders=(Leader("good", "division", "company"),)), "where a leader is attached"),
    ],
)
def test_morale_bad_input(situation, message):
    with pytest.raises(RulesError, match=message):
        morale_check(situation)


def test_morale_roll_beyond_the_table():
    # Line in entrenchments with a Superior division leader (grid IL): +5 +9 = +14; 2d10 = 20
    # -> 34, past row 18–19. Default: nearest row; option ask_umpire: the umpire reads it.
    s = MoraleSituation("line", cw=0, cover="entrenched", leaders=(Leader("superior", "division"),))
    grid = {"leader_il": "attachment_grid"}
    # "18–19 NE NE NE NE NE NE NE SH": under 0³� (0 or less) SH
    assert morale_check(s, grid).read(20) == "SH"
    asked = morale_check(s, {**grid, "morale_roll_beyond_table": "ask_umpire"})
    assert asked.read(20) == rolls.UMPIRE_READS and asked.read(2) == "SH"  # 2 + 14 = 16: row 16–17
    assert sum(asked.odds().values()) == 1


def test_surrender_within_two_inches_otherwise_rout():
    # 'If unit rolls a "surrender" within 2" of enemy Inf./Cav. in good order, it surrenders, otherwise routs.'
    assert morale_effect("Surr", 2).status == "surrendered"
    routs = morale_effect("Surr", Fraction(5, 2))
    assert (routs.status, routs.move, routs.duration, routs.routs_instead) == ("rout", '12" back/remove', "Unit Removed", True)
    assert morale_effect("Surr", None).routs_instead


@pytest.mark.parametrize(
    "result, status, move, duration",
    [("NE", None, None, None), ("SH", "shaken", None, "Full Turn"), ("DO", "disordered", None, "Full Turn"),
     ("DOR", "disordered", '5" back/facing', "Full Turn"), ("Brok", "broken", '10" back/away', "2 Full Turns"),
     ("Rout", "rout", '12" back/remove', "Unit Removed")],
)
def test_every_morale_result(result, status, move, duration):
    effect = morale_effect(result)
    assert (effect.status, effect.move, effect.duration) == (status, move, duration)


def test_morale_result_off_the_card():
    with pytest.raises(RulesError):
        morale_effect("Panic")


class TestCheckMoraleEveryTime:
    def test_break_point_by_class(self):
        # "(30% ELITE, 20% LINE, 10% CONSCRIPT)"
        hit = {"hit": True, "losses_before_percent": 0}
        assert morale_checks_due(MoraleEvent("elite", losses_after_percent=29, **hit)) == []
        assert morale_checks_due(MoraleEvent("elite", losses_after_percent=30, **hit)) == ["Hit after class break point"]
        assert morale_checks_due(MoraleEvent("line", losses_after_percent=20, **hit)) == ["Hit after class break point"]
        assert morale_checks_due(MoraleEvent("conscript", losses_after_percent=10, **hit)) == ["Hit after class break point"]

    def test_break_point_option(self):
        # The hit that takes a Line unit from 15% to 22%: default 'reaching' checks, 'after' does not.
        event = MoraleEvent("line", hit=True, losses_before_percent=15, losses_after_percent=22)
        assert morale_checks_due(event) == ["Hit after class break point"]
        assert morale_checks_due(event, {"break_point_hit": "after"}) == []

    @pytest.mark.parametrize("fired_from, fire_range, due", [
        ("flank", "short", True), ("rear", "close_action", True), ("flank", "canister", True),
        ("flank", "medium", False), ("rear", "long", False), ("front", "short", False)])
    def test_flank_or_rear_fire_short_and_close_only(self, fired_from, fire_range, due):
        event = MoraleEvent("line", fired_on=True, fired_from=fired_from, fire_range=fire_range)
        assert (morale_checks_due(event) == ["Flank or rear fired on (SHORT & CLOSE range only)"]) is due

    def test_friend_within_three_inches(self):
        assert morale_checks_due(MoraleEvent("line", friend_broke_within=3)) == ['Friendly unit within 3" breaks or routs']
        assert morale_checks_due(MoraleEvent("line", friend_broke_within=3.5)) == []

    def test_fired_on_after_losing_half(self):
        event = MoraleEvent("elite", fired_on=True, losses_before_percent=50, losses_after_percent=50)
        assert morale_checks_due(event) == ["Fired on after losing 50%"]

    def test_passes_through(self):
        assert morale_checks_due(MoraleEvent("line", passed_through_by_disordered=True)) == ["Disordered or worse unit PASSES THROUGH."]

    def test_bad_event(self):
        with pytest.raises(RulesError, match="losses cannot fall"):
            morale_checks_due(MoraleEvent("line", losses_before_percent=30, losses_after_percent=20))
        with pytest.raises(RulesError, match="fired on from"):
            morale_checks_due(MoraleEvent("line", fired_from="above"))


def test_crash_through():
    # Default: class dice and the morale modifiers. Line, disordered (-3): 2d10 - 3.
    #   "12+ NE / 10-11 Smk / 4-9 Smk/Shaken / 3- Smk/DO"
    #   natural 2..6 -> -1..3: Smk/DO; 7..12 -> 4..9: Smk/Shaken; 13..14 -> 10..11: Smk; 15..20: NE
    s = MoraleSituation("line", cw=9, disordered=True)
    check = crash_through_check(s)
    assert (check.dice, check.modifier) == ("2d10", -3)
    assert ranges(check) == ["Smk/DO on 2-6", "Smk/Shaken on 7-12", "Smk on 13-14", "NE on 15-20"]
    plain = crash_through_check(s, {"crash_through_modifiers": "none", "unstated_dice": "one_d10"})
    assert (plain.dice, plain.modifier) == ("1d10", 0)
    assert ranges(plain) == ["Smk/DO on 1-3", "Smk/Shaken on 4-9", "Smk on 10"]


def test_typed_dice_are_checked_before_anything_is_recorded():
    service = dice()
    with pytest.raises(DiceError):
        resolve_morale(MoraleSituation("line", cw=5), service, entered=[4])  # 2d10 needs two dice
    with pytest.raises(DiceError):
        resolve_morale(MoraleSituation("line", cw=5), service, entered=[11, 1])
    assert service.history == []


def test_rolled_morale_is_recorded_and_replayable():
    service = dice()
    out = resolve_morale(MoraleSituation("elite", cw=7), service)
    record = service.history[0]
    assert record.dice == "3d10kh2" and len(record.raw) == 3
    assert out.rolled.natural == sum(sorted(record.raw)[1:])


# ---------------------------------------------------------------------------
# FIRE
# ---------------------------------------------------------------------------


def test_fire_worked_example_small_arms():
    # 4 stands of muskets at 3": Musket "Medium 4" -3"; Initial Volley +2; target in
    # Light Cover -3. Total -4. The die shows 9: 9 - 4 = 5, column 6–4 of
    # "4 7 6 6 5 5 4 4 3 3 2" -> 4 casualty steps.
    # "A natural roll of 9 causes an additional AP to be spent": 1 + 1 = 2 AP.
    s = FireSituation("musket", distance=3, stands=4, initial_volley=True, target_cover="light_cover")
    assert labels(fire_modifiers(s)) == [('Medium 4"', -3), ("Initial Volley", 2), ("Light Cover", -3)]
    out = resolve_fire(s, dice(), entered=[9])
    assert (out.natural, out.modified, out.text, out.steps, out.extra_ap, out.ap_spent) == (9, 5, "4", 4, 1, 2)


def test_fire_worked_example_artillery_natural_ten():
    # 8 tubes of 12pdr at 5" with canister: "Cannister 0–6" +7"; "3 AP ROF +1"; target in
    # Square +5. Total +13. A natural 10: 23, column 15+; 8 tubes fire on the 4-stand line
    # ("4 7 6 6 5 5 4 4 3 3 2 8") -> 7 steps. Roll again: 8 -> "8-9 = 2 AP": 3 + 2 = 5 AP.
    s = FireSituation("12pdr", distance=5, tubes=8, ammunition="canister", ap=3, target_square=True)
    assert labels(fire_modifiers(s)) == [('Cannister 0–6"', 7), ("3 AP ROF", 1), ("Square", 5)]
    service = dice()
    out = resolve_fire(s, service, entered=[10], reroll_entered=[8])
    assert (out.modified, out.steps, out.extra_ap, out.ap_spent) == (23, 7, 2, 5)
    assert [r.purpose for r in service.history] == [out.check.purpose, "ammunition: a natural 10, roll again"]


def test_fire_odds_exact():
    # 9 stands at close action (+2): naturals 1..4 -> 3..6: "9 ... 9 9 8 8 7" gives 9;
    # naturals 5..10 -> 7..12: 10.
    check = fire_check(FireSituation("musket", distance=1, stands=9))
    assert ranges(check) == ["9 on 1-4", "10 on 5-10"]
    assert check.odds() == {"9": Fraction(2, 5), "10": Fraction(3, 5)}


def test_fire_roll_zero_option():
    # Half a stand... 3 stands at Extreme (-9): natural 9 -> 0: column 0 of "3 6 5 5 4 4 3 3 2 2 1" = 1
    # The default follows the card's note 'Rolls modified to 0³� = NE': a roll of 0 is NE.
    s = FireSituation("musket", distance=6, stands=3)
    assert fire_check(s).read(9) == "NE" and fire_check(s).read(10) == "2"
    assert fire_check(s, {"fire_roll_zero": "column"}).read(9) == "1"
    assert fire_check(s, {"fire_roll_zero": "column"}).read(8) == "NE"


@pytest.mark.parametrize(
    "weapon, at, ammunition, rng, effect",
    [
        ("musket", 1, "ball", "close_action", 2), ("musket", Fraction(101, 100), "ball", "short", 0),
        ("musket", 5, "ball", "long", -6), ("rifle", 6, "ball", "long", -6), ("rifle", 8, "ball", "extreme", -9),
        ("12pdr", 6, "canister", "canister", 7), ("12pdr", 12, "ball", "short_ball", 0),
        ("12pdr", Fraction(25, 2), "ball", "long", -2), ("12pdr", 40, "ball", "extreme", -9),
        ("9pdr", 14, "ball", "long", -2), ("7pdr_howitzer", 4, "canister", "canister", 5),
        ("austrian_6pdr", 13, "ball", "extreme", -9), ("austrian_3pdr", 9, "ball", "long", -3),
    ],
)
def test_range_effect(weapon, at, ammunition, rng, effect):
    got, modifier = range_effect(weapon, at, ammunition)
    assert (got, modifier.value) == (rng, effect)


@pytest.mark.parametrize(
    "weapon, at, ammunition",
    [("musket", Fraction(61, 10), "ball"), ("rifle", 9, "ball"), ("12pdr", 41, "ball"), ("12pdr", 7, "canister"),
     ("austrian_3pdr", 16, "ball")],
)
def test_out_of_range(weapon, at, ammunition):
    with pytest.raises(RulesError):
        range_effect(weapon, at, ammunition)


@pytest.mark.parametrize(
    "changes, label, amount",
    [
        ({"additional_ammo": True}, "Add’l ammo pt.", 1),
        ({"scrounging_ammo": True}, "Scrounging ammo", -3),
        ({"initial_volley": True}, "Initial Volley", 2),
        ({"moved": "over_half"}, "Infantry over half", -1),
        ({"shaken": True}, "Shaken", -2),
        ({"disordered": True}, "Disordered", -4),
        ({"target_cover": "sparse_cover"}, "Sparse Cover", -1),
        ({"target_cover": "medium_cover"}, "Medium Cover", -5),
        ({"target_cover": "heavy_cover"}, "Heavy Cover", -8),
        ({"target_in_smoke": True}, "In Smoke", -2),
        ({"target_flank": True}, "Flank", 5),
        ({"target_square": True}, "Square", 5),
        ({"target_closed_column": True}, "Closed Column", 3),
        ({"target_artillery": True}, "Small Arms at Arty", -5),
    ],
)
def test_each_small_arms_fire_modifier(changes, label, amount):
    mods = fire_modifiers(FireSituation("musket", distance=2, stands=3, **changes))
    assert labels(mods) == [('Short 2"', 0), (label, amount)]


def test_open_order_in_cover():
    mods = fire_modifiers(FireSituation("musket", distance=2, stands=3, target_open_order=True, target_cover="light_cover"))
    assert labels(mods)[1:] == [("Light Cover", -3), ("Open Order troops in cover", -5)]
    assert fire_modifiers(FireSituation("musket", distance=2, stands=3, target_open_order=True))[1:] == []


@pytest.mark.parametrize(
    "changes, label, amount",
    [
        ({"ap": 4}, "4 AP ROF", 2), ({"ap": 3}, "3 AP ROF", 1), ({"ap": 1}, "1 AP ROF", -1),
        ({"initial_fire": True}, "Initial Fire", 1), ({"ricochet_fire": True}, "Ricochet Fire", -2),
        ({"battalion_guns": True, "moved": "under_half"}, "Btn Guns under half", -1),
        ({"target_artillery": True}, "Counter Battery… (ball)", -7),
        ({"target_artillery": True, "ammunition": "canister"}, "Counter Battery… (cannister)", -4),
    ],
)
def test_each_artillery_fire_modifier(changes, label, amount):
    mods = fire_modifiers(FireSituation("6pdr", distance=4, tubes=6, **changes))
    assert labels(mods)[1:] == [(label, amount)]


def test_plain_rate_of_fire_is_two_ap():
    check = fire_check(FireSituation("6pdr", distance=4, tubes=6))
    assert labels(check.modifiers) == [('Short, Ball 0–8"', 0)] and check.base_ap == 2


@pytest.mark.parametrize(
    "situation, message",
    [
        (FireSituation("musket", distance=2, stands=3, broken=True), "Rout/Broken NA"),
        (FireSituation("6pdr", distance=2, tubes=2, battalion_guns=True, moved="over_half"), "Btn Guns over half NA"),
        (FireSituation("6pdr", distance=2, tubes=2, initial_volley=True), "small-arms modifier"),
        (FireSituation("musket", distance=2, stands=3, ricochet_fire=True), "are for guns"),
        (FireSituation("musket", distance=2), "needs the number of stands"),
        (FireSituation("6pdr", distance=2), "give the number of tubes"),
        (FireSituation("6pdr", distance=2, tubes=2, ap=5), "1 to 4 AP"),
        (FireSituation("blunderbuss", distance=2, stands=1), "weapon must be one of"),
        (FireSituation("musket", distance=-1, stands=1), "0 inches or more"),
        (FireSituation("musket", distance=2, stands=0), "'half' or 1 or more"),
        (FireSituation("musket", distance=2, stands="quarter"), "stands must be one of"),
    ],
)
def test_fire_bad_input(situation, message):
    with pytest.raises(RulesError, match=message):
        fire_check(situation)


def test_tubes_and_stands_lines():
    # "Arty tubes": 1 Half, 2 -> 1, 4 -> 2 ... 12 -> 6.
    assert fire_lines(FireSituation("6pdr", distance=4, tubes=1)) == ("half",)
    assert fire_lines(FireSituation("6pdr", distance=4, tubes=12)) == (6,)
    # option fire_odd_tubes: 7 tubes fire as 6 (default) or 8
    assert fire_lines(FireSituation("6pdr", distance=4, tubes=7)) == (3,)
    assert fire_lines(FireSituation("6pdr", distance=4, tubes=7), {"fire_odd_tubes": "round_up"}) == (4,)
    # option fire_over_nine_stands: 20 tubes read the 12-tube line, or 12 + 8
    assert fire_lines(FireSituation("6pdr", distance=4, tubes=20)) == (6,)
    assert fire_lines(FireSituation("6pdr", distance=4, tubes=20), {"fire_over_nine_stands": "groups"}) == (6, 4)
    assert fire_lines(FireSituation("musket", distance=2, stands=12)) == (9,)
    assert fire_lines(FireSituation("musket", distance=2, stands=12), {"fire_over_nine_stands": "groups"}) == (9, 3)


def test_combined_fire_in_groups_adds_the_steps():
    # 12 stands at Short (NE), natural 5: 9 stands "9 12 11 11 10 10 9 ..." column 6–4 = 9,
    # 3 stands "3 6 5 5 4 4 3 ..." column 6–4 = 3: 12 steps.
    check = fire_check(FireSituation("musket", distance=2, stands=12), {"fire_over_nine_stands": "groups"})
    assert check.read(5) == "12"
    assert sum(check.odds().values()) == 1


def test_entered_natural_ten_needs_the_second_die():
    service = DiceService(seed=1, mode=ENTERED)
    with pytest.raises(RulesError, match="type in that second die"):
        resolve_fire(FireSituation("musket", distance=2, stands=3), service, entered=[10])
    with pytest.raises(RulesError, match="only on a natural 10"):
        resolve_fire(FireSituation("musket", distance=2, stands=3), service, entered=[4], reroll_entered=[3])
    assert service.history == []


def test_fire_discipline():
    # Line (2d10) in smoke: "Smoke" column from 2- up: 4" FF, 4" FF, 4" FF, 2" FF, 1" FF,
    # 4" fire, 2" fire, 1" fire, free (10+).
    check = fire_discipline_check("line", "smoke")
    assert ranges(check) == ['4" FF on 2-4', '2" FF on 5', '1" FF on 6', '4" fire on 7', '2" fire on 8',
                             '1" fire on 9', "free on 10-20"]
    assert fire_discipline_check("line", "normal", {"unstated_dice": "one_d10"}).dice == "1d10"
    assert read_discipline('2" fire') == fire.Discipline('2" fire', "fire", Fraction(2))
    assert read_discipline("FF").action == "firefight" and read_discipline("FF").within is None
    with pytest.raises(RulesError):
        fire_discipline_check("line", "fog")


@pytest.mark.parametrize("weapon, reach", [("musket", 4), ("rifle", 4), ("12pdr", 12), ("6pdr", 8), ("austrian_3pdr", 6)])
def test_defensive_fire_reach(weapon, reach):
    # "Def. Fire Range: Small Arms 4" / Artillery Short"
    assert defensive_fire_reach(weapon) == reach


# ---------------------------------------------------------------------------
# CHARGES AND MELEE
# ---------------------------------------------------------------------------

CAV_VS_LINE = ChargeSituation(ChargeSide("heavy_cavalry", cw=10, stands=4),
                              ChargeSide("infantry", formation="line", cw=8, stands=6))


def test_charge_worked_example_cavalry_firefight_shifts_outward():
    # Attacker: "Cav vs. Inf Line" +6, "CW difference, ea ±1": 10 - 8 = +2 -> +8.
    # Defender: 6 stands against 4 is 1.5x: "Mass… 1.5x +2" -> +2.
    # Dice 5 and 9: (5 + 8) - (9 + 2) = 2 -> "1 to 2": FIREFIGHT; cavalry against
    # infantry shifts it outward, to "3 to 4": Defender recoils 2".
    out = resolve_charge(CAV_VS_LINE, dice(), attacker_entered=[5], defender_entered=[9])
    assert labels(out.check.attacker_modifiers) == [("Cav vs. Inf Line", 6), ("CW difference, ea", 2)]
    assert labels(out.check.defender_modifiers) == [("Mass… 1.5x", 2)]
    r = out.result
    assert (r.differential, r.table, r.printed) == (2, "charge_open", "FIREFIGHT")
    assert r.text == 'Defender recoils 2". Attacker may occupy and fire.' and r.shift.startswith("outward")
    assert (r.loser, r.attacker_may_occupy, r.surrender) == ("defender", True, False)


def test_purely_cavalry_firefight_shifts_inward_to_melee():
    s = ChargeSituation(ChargeSide("light_cavalry"), ChargeSide("light_cavalry"))
    assert charge_result(s, -2).text == "MELEE!" and charge_result(s, 1).text == "MELEE!"
    # infantry against infantry keeps its FIREFIGHT
    inf = ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"))
    assert charge_result(inf, -1).text == "FIREFIGHT"
    # outward on the attacker's side: "-3 to -4": Attacker halts at 3"
    assert charge_result(CAV_VS_LINE, -1).text == 'Attacker halts at 3" and may fire'


def test_charge_in_cover():
    # Defender in Medium Cover: "In Medium Cover +3", table Charge in Cover: 0 – 5 MELEE!, 6 FIREFIGHT,
    # 7 recoils 2", ..., 11+ surrenders.
    s = ChargeSituation(ChargeSide("infantry", formation="column"), ChargeSide("infantry"), defender_cover="medium_cover")
    assert labels(defender_modifiers(s)) == [("In Medium Cover", 3)]
    assert [charge_result(s, d).text for d in (0, 5, 6, 7, 11, 30)] == [
        "MELEE!", "MELEE!", "FIREFIGHT", 'Defender recoils 2". Attacker may occupy and fire.', DEF_SURR, DEF_SURR]
    # in cover a cavalry FIREFIGHT at 6 shifts outward to 7, inward to 0 – 5
    cav = ChargeSituation(ChargeSide("light_cavalry"), ChargeSide("infantry"), defender_cover="light_cover")
    assert charge_result(cav, 6).text.startswith("Defender recoils 2")
    # sparse cover is not one the defender's list names: the open table
    assert charge_check(ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"), defender_cover="sparse_cover")).table == "charge_open"


def test_charge_odds_exact():
    # Infantry against infantry, no modifiers, 1d10 each: differential d = a - b.
    # MELEE! at 0: 10/100. FIREFIGHT at ±1..2: (9 + 8) x 2 = 34/100.
    s = ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"))
    odds = charge_check(s).odds()
    assert odds["MELEE!"] == Fraction(10, 100) and odds["FIREFIGHT"] == Fraction(34, 100)
    assert sum(odds.values()) == 1
    # option modifiers_only: no dice, the modifiers' differential: +8 - 2 = 6 -> "5 to 6"
    only = charge_check(CAV_VS_LINE, {"charge_roll": "modifiers_only"})
    assert only.odds() == {"Defender recoils disordered. Attacker may occupy and fire.": 1}
    assert charge_check(CAV_VS_LINE, {"charge_roll": "class_dice_each"}).attacker_dice == "2d10"


def test_the_lone_plus_six_is_cav_vs_inf_line_by_option():
    # "Cav vs. Inf Line  / Cav vs. General +7 / Cav vs.Inf Col +4 / +6": the lone +6 is the
    # line's value by default (option cav_vs_inf_line); read as debris, the line adds nothing.
    s = ChargeSituation(ChargeSide("heavy_cavalry", cw=5), ChargeSide("infantry", formation="line", cw=5))
    assert labels(attacker_modifiers(s)) == [("Cav vs. Inf Line", 6)]
    assert attacker_modifiers(s, {"cav_vs_inf_line": "no_value"}) == []
    assert charge_check(s, {"cav_vs_inf_line": "no_value"}).attacker_modifiers == ()


@pytest.mark.parametrize(
    "situation, label, amount",
    [
        (ChargeSituation(ChargeSide("infantry", shaken=True), ChargeSide("infantry")), "Shaken", -2),
        (ChargeSituation(ChargeSide("infantry", disordered=True), ChargeSide("infantry")), "Disordered", -4),
        (ChargeSituation(ChargeSide("light_cavalry"), ChargeSide("light_cavalry"), standing=True), "Standing Cav", -3),
        (ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"), closing_casualties_percent=25), "Closing Cas. ea. 10% (2 x 10%)", -4),
        (ChargeSituation(ChargeSide("infantry", stands=3), ChargeSide("infantry", stands=2)), "Mass… 1.5x", 2),
        (ChargeSituation(ChargeSide("infantry", stands=4), ChargeSide("infantry", stands=2)), "Mass… 2x", 3),
        (ChargeSituation(ChargeSide("infantry", stands=7), ChargeSide("infantry", stands=2)), "Mass… 3x", 4),
        (ChargeSituation(ChargeSide("infantry", stands=9), ChargeSide("infantry", stands=2)), "Mass… 4x", 5),
        (ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"), downhill=True), "Charge Downhill", 1),
        (ChargeSituation(ChargeSide("light_cavalry"), ChargeSide("infantry", formation="general")), "Cav vs. General", 7),
        (ChargeSituation(ChargeSide("light_cavalry"), ChargeSide("infantry", formation="column")), "Cav vs. Inf Col", 4),
        (ChargeSituation(ChargeSide("light_cavalry"), ChargeSide("infantry", formation="square")), "Cav vs. Square", -5),
        (ChargeSituation(ChargeSide("light_cavalry"), ChargeSide("infantry", formation="closed_column")), "Cav vs. Closed Column", -2),
        (ChargeSituation(ChargeSide("heavy_cavalry"), ChargeSide("light_cavalry")), "Hv Cav vs. Lt Cav", 4),
        (ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry", formation="square")), "Inf vs. Square", 4),
        (ChargeSituation(ChargeSide("infantry", leader=Leader("excellent", "corps")), ChargeSide("infantry")), "Leader attached (IL 2)", 2),
        (ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"), direction="flank"), "Charging Flank", 6),
        (ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"), direction="rear"), "Charging Rear", 8),
        (ChargeSituation(ChargeSide("infantry", cw=5), ChargeSide("infantry", cw=9)), "CW difference, ea", -4),
    ],
)
def test_each_attacker_modifier(situation, label, amount):
    got = [m for m in attacker_modifiers(situation) if m.label == label]
    assert labels(got) == [(label, amount)]


@pytest.mark.parametrize(
    "defender, extra, label, amount",
    [
        (ChargeSide("infantry", shaken=True), {}, "Shaken", -2),
        (ChargeSide("infantry", disordered=True), {}, "Disordered", -4),
        (ChargeSide("infantry", broken=True), {}, "Rout/Broken", -9),
        (ChargeSide("infantry", stands=8), {}, "Mass… 4x", 5),
        (ChargeSide("infantry"), {"defender_secure_flanks": 2}, "Secure Flanks, ea (2)", 2),
        (ChargeSide("infantry", formation="general"), {}, "General Order", -2),
        (ChargeSide("infantry"), {"defender_cover": "light_cover"}, "In light cover", 1),
        (ChargeSide("infantry"), {"defender_cover": "heavy_cover"}, "In Heavy Cover", 5),
    ],
)
def test_each_defender_modifier(defender, extra, label, amount):
    s = ChargeSituation(ChargeSide("infantry", stands=2), defender, **extra)
    assert labels(defender_modifiers(s)) == [(label, amount)]


def test_closing_casualties_count_full_tenths_only():
    s = ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"), closing_casualties_percent=9)
    assert attacker_modifiers(s) == []


@pytest.mark.parametrize(
    "situation, message",
    [
        (ChargeSituation(ChargeSide("infantry", broken=True), ChargeSide("infantry")), "Rout/Broken NA"),
        (ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"), standing=True), "cavalry only"),
        (ChargeSituation(ChargeSide("artillery"), ChargeSide("infantry")), "guns do not charge"),
        (ChargeSituation(ChargeSide("dragoons"), ChargeSide("infantry")), "arm must be one of"),
        (ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry", formation="wedge")), "formation must be one of"),
        (ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"), defender_secure_flanks=3), "secure flanks"),
        (ChargeSituation(ChargeSide("infantry", stands=0), ChargeSide("infantry")), "1 stand or more"),
    ],
)
def test_charge_bad_input(situation, message):
    with pytest.raises(RulesError, match=message):
        charge_check(situation)


def test_charge_bad_dice_change_nothing():
    service = dice()
    with pytest.raises(DiceError):
        resolve_charge(CAV_VS_LINE, service, attacker_entered=[5], defender_entered=[12])
    assert service.history == []


def test_surrender_percentage():
    # "The defender rolls 1d10 to determine the percentage of the unit which surrenders."
    assert surrender_percent(7) == 70 and surrender_percent(10) == 100
    with pytest.raises(RulesError):
        surrender_percent(0)


def test_continuing_a_charge():
    # 'continue a charge if the charge result involves occupying the original target's
    # position and the distance ... is less than 4" (infantry) or 6" (cavalry)'
    won = charge_result(CAV_VS_LINE, 8)  # "7 to 8": Defender falls back broken. Attacker may occupy and fire.
    assert may_continue_charge("heavy_cavalry", won, Fraction(59, 10))
    assert not may_continue_charge("heavy_cavalry", won, 6)
    assert may_continue_charge("infantry", won, Fraction(39, 10)) and not may_continue_charge("infantry", won, 4)
    assert not may_continue_charge("infantry", charge_result(CAV_VS_LINE, -20), 1)  # the attacker surrendered
    assert not may_continue_charge("infantry", charge_result(CAV_VS_LINE, 0), 1)  # MELEE!


def test_ride_down_option():
    # "Cavalry may Ride Down infantry which loses a charge in the dotted line area."
    broken = charge_result(CAV_VS_LINE, 8)  # falls back broken
    recoil = charge_result(CAV_VS_LINE, 5)  # recoils disordered
    assert may_ride_down(CAV_VS_LINE, broken) is True
    assert may_ride_down(CAV_VS_LINE, recoil) is False
    assert may_ride_down(CAV_VS_LINE, recoil, {"ride_down_results": "any_retreat"}) is True
    assert may_ride_down(CAV_VS_LINE, broken, {"ride_down_results": "ask_umpire"}) is None
    assert may_ride_down(CAV_VS_LINE, charge_result(CAV_VS_LINE, -9)) is False  # the cavalry lost
    inf = ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"))
    assert may_ride_down(inf, charge_result(inf, 10)) is False


def test_melee_worked_examples():
    # "The loser takes casualty step losses equal to the difference of the modified die
    # rolls. The winner takes ... the difference of the unmodified die rolls."
    check = charge.MeleeCheck((Modifier("a", 3),), (Modifier("d", 1),), "1d10")
    # attacker 6 + 3 = 9, defender 7 + 1 = 8: attacker wins; defender loses 9 - 8 = 1, attacker |6 - 7| = 1
    out = melee_round(check, dice(), attacker_entered=[6], defender_entered=[7])
    assert (out.winner, out.defender_steps, out.attacker_steps) == ("attacker", 1, 1)
    # attacker 2 + 3 = 5, defender 9 + 1 = 10: defender wins; attacker loses 5, defender |2 - 9| = 7
    out = melee_round(check, dice(), attacker_entered=[2], defender_entered=[9])
    assert (out.winner, out.attacker_steps, out.defender_steps) == ("defender", 5, 7)
    assert out.morale_checks == ("attacker", "defender")


def test_melee_tie_option():
    check = charge.MeleeCheck((), (), "1d10")
    draw = melee_round(check, dice(), attacker_entered=[4], defender_entered=[4])
    assert (draw.winner, draw.attacker_steps, draw.defender_steps, draw.roll_again) == (None, 0, 0, False)
    again = melee_round(check, dice(), attacker_entered=[4], defender_entered=[4], options={"melee_tie": "reroll"})
    assert again.roll_again and again.morale_checks == ()


def test_melee_odds_and_modifiers():
    # Equal modifiers: P(attacker) = P(defender) = 45/100, equal 10/100.
    inf = ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry"))
    assert melee_check(inf).odds() == {"attacker": Fraction(45, 100), "defender": Fraction(45, 100), "equal": Fraction(10, 100)}
    # default option melee_modifiers: each side's charge modifiers
    assert melee_check(CAV_VS_LINE).modifier == 8 - 2
    assert melee_check(CAV_VS_LINE, {"melee_modifiers": "unmodified"}).modifier == 0


def test_ride_down_melee():
    # "a round of melee is fought with the infantry's melee modifier reduced by -8": 8 - (2 - 8) = 14
    check = melee_check(CAV_VS_LINE, ride_down=True)
    assert labels(check.defender_modifiers)[-1] == ("Ride Down", -8) and check.modifier == 14
    with pytest.raises(RulesError, match="only cavalry rides down infantry"):
        melee_check(ChargeSituation(ChargeSide("infantry"), ChargeSide("infantry")), ride_down=True)


# ---------------------------------------------------------------------------
# MOVEMENT
# ---------------------------------------------------------------------------


def test_movement_worked_example_average_co():
    # "Average Full Full 3/4 1/2 NM NM", right-aligned under "7 6 5 4 3 2≤"; higher rolls
    # read the line's best, Full. Line 2d10, CW 10, no modifier:
    #   2-3 NM, 4 1/2, 5 3/4, 6-20 Full.
    check = movement_check(MovementSituation("line", "average", cw=10))
    assert ranges(check) == ["NM on 2-3", "1/2 on 4", "3/4 on 5", "Full on 6-20"]
    assert check.odds() == {"NM": Fraction(3, 100), "1/2": Fraction(3, 100), "3/4": Fraction(4, 100), "Full": Fraction(90, 100)}


def test_natural_two_is_no_move():
    # Superior CO, conscript (1d10), CW 16 (+1), moved last turn (+1): natural 2 -> NM
    # although 2 + 2 = 4 reads Full on "Superior 1.25 1.25 Full Full 3/4 NM" (under 7 6 5 4 3 2≤).
    check = movement_check(MovementSituation("conscript", "superior", cw=16, moved_last_turn=True))
    assert check.read(2) == "NM" and check.modifier == 2
    assert ranges(check) == ["3/4 on 1", "NM on 2", "Full on 3", "1.25 on 4-10"]
    out = check.roll(dice(), entered=[2])
    assert (out.modified, out.text) == (4, "NM")


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"cw": 15}, [("15–19 CW", 1)]), ({"cw": 19}, [("15–19 CW", 1)]), ({"cw": 22}, [("15–19 CW", 1)]),
        ({"cw": 14}, []), ({"cw": 8}, []), ({"cw": 7}, [("0–7 CW", -1)]), ({"cw": -2}, [("0–7 CW", -1)]),
        ({"shaken": True}, [("Shaken", -1)]), ({"disordered": True}, [("Disordered", -2)]),
        ({"vacating_cover": True}, [("Vacating Cover", -2)]), ({"in_smoke": True}, [("In Smoke", -1)]),
        ({"moved_last_turn": True}, [("Moved Last Turn", 1)]),
    ],
)
def test_each_movement_modifier(changes, expected):
    s = MovementSituation("line", "good", **{"cw": 10, **changes})
    assert labels(movement_modifiers(s)) == expected


def test_movement_distances():
    # "Lt. Cav. 30" 15" 11" 13" +8"": line 11" x 1.25 = 13 3/4"
    assert movement_distance("light_cavalry", "line", "1.25") == Fraction(55, 4)
    assert movement_distance("infantry", "square") == 1
    assert movement_distance("heavy_cavalry", "road", "NM") == 0
    with pytest.raises(RulesError, match="only infantry forms square"):
        movement_distance("light_cavalry", "square")
    with pytest.raises(RulesError):
        movement_distance("infantry", "line", "double")


def test_artillery_movement():
    # "6pdr 18" 8" 6" 2" NA 1-1/2"": Move+Unlimber+Fire 2" x 3/4 = 1 1/2"
    assert artillery_move("6pdr", "move_unlimber_fire", "3/4").inches == Fraction(3, 2)
    assert artillery_move("6pdr", "prolong").inches == Fraction(3, 2)
    assert artillery_move("12pdr_heavy", "limber_move_unlimber_fire").inches is None
    horse = artillery_move("3-6pdr_horse", "move_unlimber_fire")
    assert (horse.inches, horse.ap) == (9, 2)
    # "8–9pdr Horse ... as foot": the 8–9pdr's 1"
    assert artillery_move("8-9pdr_horse", "prolong").inches == 1
    with pytest.raises(RulesError):
        artillery_move("24pdr", "road")


def test_terrain_effects():
    assert terrain_effect("light_woods", "cavalry").share == Fraction(3, 4)
    assert terrain_effect("heavy_woods", "artillery").allowed is False
    assert terrain_effect("linear_obstacle", "artillery").cost == 3
    assert terrain_effect("gradual_slope", "infantry").share == 1
    with pytest.raises(RulesError):
        terrain_effect("swamp", "infantry")


# ---------------------------------------------------------------------------
# INITIATIVE AND COMMAND
# ---------------------------------------------------------------------------


def test_initiative_odds_exact():
    # Superior (+3) against Poor (-1): the first wins unless y - x >= 4.
    #   y - x = 4: 6 pairs (equal); y - x >= 5: 5+4+3+2+1 = 15 pairs (second wins).
    #   Combined unmodified 17 or more: 4+3+2+1 = 10 pairs.
    odds = initiative_odds(Commander("superior"), Commander("poor"))
    assert odds == {"first": Fraction(79, 100), "second": Fraction(15, 100), "equal": Fraction(6, 100), "turn_ends": Fraction(10, 100)}


def test_initiative_roll_and_the_seventeen():
    # 9 + 8 = 17 unmodified: "the turn ends immediately" (the first would have won, 9 against 8 - 1).
    out = roll_initiative(Commander("average"), Commander("poor"), dice(), first_entered=[9], second_entered=[8])
    assert out.turn_ends and out.winner == "first" and not out.roll_again
    out = roll_initiative(Commander("average"), Commander("good"), dice(), first_entered=[3], second_entered=[5])
    assert not out.turn_ends and out.winner == "second"


def test_initiative_tie_option():
    tie = roll_initiative(Commander("good"), Commander("average", 1), dice(), first_entered=[4], second_entered=[4])
    assert (tie.winner, tie.roll_again) == (None, True)
    held = roll_initiative(Commander("good"), Commander("average", 1), dice(), holder="second",
                           first_entered=[4], second_entered=[4], options={"initiative_tie": "holder_keeps"})
    assert held.winner == "second"
    with pytest.raises(RulesError, match="needs the side that holds the initiative"):
        roll_initiative(Commander("good"), Commander("good"), dice(), options={"initiative_tie": "holder_keeps"})


def test_grand_tac_points_option():
    assert labels(initiative_modifiers(Commander("excellent", 2))) == [("Grand-Tac (2 points)", 2), ("Excellent", 2)]
    assert labels(initiative_modifiers(Commander("excellent", 2), {"grand_tac_points": "umpire"})) == [("Excellent", 2)]
    assert initiative_modifiers(Commander("average")) == []
    with pytest.raises(RulesError):
        initiative_modifiers(Commander("average", -1))
    with pytest.raises(RulesError):
        initiative_modifiers(Commander("brilliant"))


def test_local_initiative():
    # Line (2d10), reacting a cavalry charge (-1), normal: "Normal AA AA AA NA NA —" under 9 8 7 6 5 4:
    #   natural 2-5 -> 1-4: —; 6-7 -> 5-6: NA; 8-20 -> 7+: AA
    check = local_initiative_check("line", "normal", reacting_cavalry_charge=True)
    assert ranges(check) == ["— on 2-5", "NA on 6-7", "AA on 8-20"]
    assert local_initiative_check("line", division_leader_attached=True).modifier == 1
    with pytest.raises(RulesError):
        local_initiative_check("line", "rain")


@pytest.mark.parametrize("level, reach", [("division", 15), ("corps", 24), ("army", 36)])
def test_command_radius(level, reach):
    assert command_radius(level) == reach


# ---------------------------------------------------------------------------
# SKIRMISH AND DISRUPTIVE TERRAIN
# ---------------------------------------------------------------------------


def test_skirmish_worked_example():
    # Conscript (1d10) with a screen modifier of -2: "Cons. NE Smk SH(20) DO(40) DOR(40) DOR(40)"
    # under ≥8 7 6 5 2–4 1≤: naturals 1-6 -> -1..4: DOR(40); 7 -> 5: DO(40); 8 -> 6: SH(20);
    # 9 -> 7: Smk; 10 -> 8: NE.
    check = skirmish_check("conscript", [Modifier("screen", -2)])
    assert ranges(check) == ["DOR(40) on 1-6", "DO(40) on 7", "SH(20) on 8", "Smk on 9", "NE on 10"]
    assert read_state("DOR(40)") == skirmish.State("DOR(40)", False, "DOR", 40)


def test_disruptive_terrain():
    # Elite 3d10kh2 on D3 "D3 NE SH DO DO(20) DO(40)" under ≥6 5 4 3 2≤
    check = disruption_check("elite", "d3")
    assert check.dice == "3d10kh2"
    assert ranges(check) == ["DO(40) on 2", "DO(20) on 3", "DO on 4", "SH on 5", "NE on 6-20"]
    assert sum(check.odds().values()) == 1
    with pytest.raises(RulesError):
        disruption_check("elite", "D4")


def test_read_state():
    assert read_state("Smk/DO") == skirmish.State("Smk/DO", True, "DO", None)
    assert read_state("Smk/Shaken").state == "SH"
    assert read_state("NE") == skirmish.State("NE", False, None, None)


# ---------------------------------------------------------------------------
# Options, conversion, documentation
# ---------------------------------------------------------------------------


def test_every_option_is_named_explained_and_has_a_default():
    options = load_options(RS)
    assert len(options) >= 15
    for option in options.values():
        assert option.reason and option.source.startswith("001_c4de82bc21018f2c.txt")
        assert option.default in option.choices
    with pytest.raises(RulesError):
        resolve_options(RS, {"class_dice": "d6"})


def test_conversion_loads_and_converts():
    conv = load_conversion(RS)
    assert conv is not None and conv.label == "battalion" and conv.size["infantry"] == 6
    order = tactical_order(conv, [("vi", "VI Corps", "infantry", 2, 3), ("g", "Old Guard", "infantry", 1, 6)], [("Marmont", 3)])
    assert [u.quality for u in order.units] == ["line", "line", "elite"] and order.leaders == [("Marmont", "good")]
    assert sp_lost(conv, "infantry", 6) == 1 and sp_lost(conv, "infantry", 2) == 0
    assert [cw_level_for(c) for c in range(1, 7)] == [5, 7, 9, 11, 13, 15]
    assert set(conv.quality.values()) == {"elite", "line", "conscript"}
    for rating in conv.leader.values():
        influence_level(Leader(rating, "division"))  # every converted rating is the card's
    with pytest.raises(RulesError):
        cw_level_for(7)


@pytest.mark.parametrize("module", [morale, fire, charge, movement, initiative, skirmish])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0

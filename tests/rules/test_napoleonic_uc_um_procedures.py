"""The procedures of the French UC/UM card (seed 003), checked by hand.

Each test quotes the card (../shared/seeds/003_49b400ab842f5a33.txt) and works
the example out in the comments: the number needed is the printed number plus the
cumulative factors ('Tous les facteurs sont cumulables'), rolled on d6, a 6 always
hitting and, in morale, a 6 always passing and a 1 always failing. Where the card
is silent the test names the rules option (rules/napoleonic_uc_um/options.toml)
and checks its default and its alternative.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from rules import RulesError
from rules.conversion import load_conversion, sp_lost, tactical_order
from rules.dice import ENTERED, DiceService
from rules.napoleonic_uc_um import english, factors, label, quality
from rules.napoleonic_uc_um.fire import (
    Candidate,
    FireSituation,
    effectiveness,
    fire_check,
    fire_factors,
    fire_loss_odds,
    priority_targets,
    reach,
    roll_fire,
    roll_save,
    save_check,
)
from rules.napoleonic_uc_um.melee import (
    MeleeSituation,
    fighting_elements,
    melee_check,
    melee_factors,
    melee_loss_odds,
    roll_melee,
)
from rules.napoleonic_uc_um.morale import (
    MoraleSituation,
    formation_temperament,
    morale_check,
    morale_factors,
    must_test,
    roll_morale,
    who_tests_after_melee,
)
from rules.napoleonic_uc_um.movement import (
    command_distance_cm,
    going_of,
    in_command,
    may_charge,
    move,
    speed,
    turn_actions,
)
from rules.napoleonic_uc_um.sequence import (
    advance_after_melee_cm,
    after_melee_test,
    after_pursuit,
    charge_tests,
    melee_winner,
    next_step,
    step,
    steps,
)
from rules.napoleonic_uc_um.troops import Troop
from rules.options import resolve_options

RS = "napoleonic_uc_um"


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    """Chance of k successes in n independent dice, each succeeding with p."""
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def fire(**kw) -> FireSituation:
    base = {"experience": "aguerri", "weapon": "musket", "firing_ec": 3, "distance_cm": 5}
    return FireSituation(**{**base, **kw})


def mods(check) -> dict[str, int]:
    return {a.factor.id: a.value for a in check.applied}


# ---------------------------------------------------------------------------
# Fire: the number needed
# ---------------------------------------------------------------------------


def test_fire_worked_example_long_range_at_a_column():
    # Aguerri 4 + ; musket 'Portée 20, Longue portée 10 +': 15 cm is long range, +2;
    # target in column ('Colonne'), -1.  4 + 2 - 1 = 5.
    # Efficacité of the musket 2, three EC fire: 3 x 2 = 6 dice, each hitting on 5 or 6 (1/3).
    check = fire_check(fire(distance_cm=15, factors=frozenset({"target_column"})))
    assert check.base == 4 and check.need == 5 and check.target == 5 and check.dice == 6
    assert mods(check) == {"long_range": 2, "target_column": -1}
    assert check.odds == binomial(6, Fraction(1, 3))
    assert check.odds[0] == Fraction(64, 729)
    assert check.expression == "6d6>=5"


@pytest.mark.parametrize(
    "distance, long_range",
    [(0, False), (9.5, False), (10, True), (19.9, True), (20, True)],
)
def test_musket_long_range_starts_at_10_cm(distance, long_range):
    # 'Mousquet 2 20 10 +': long range from 10 cm ('10 +' is 10 or more) up to 20 cm.
    check = fire_check(fire(distance_cm=distance))
    assert ("long_range" in mods(check)) is long_range
    assert check.need == (6 if long_range else 4)


def test_beyond_the_range_is_refused():
    with pytest.raises(RulesError, match="out of range"):
        fire_check(fire(distance_cm=20.5))


@pytest.mark.parametrize(
    "weapon, range_cm, long_from",
    [
        ("musket", 20, 10),
        ("rifle", 30, 20),
        ("other", 20, Fraction(15, 2)),  # '7,5 +'
        ("heavy_artillery", 80, 40),
        ("medium_artillery", 60, 30),
        ("light_artillery", 40, 20),
    ],
)
def test_reach_of_each_weapon(weapon, range_cm, long_from):
    r = reach(weapon)
    assert (r.range_cm, r.long_range_cm) == (range_cm, long_from)


def test_other_weapons_are_at_long_range_from_7_5_cm():
    assert "long_range" not in mods(fire_check(fire(weapon="other", distance_cm=7)))
    assert "long_range" in mods(fire_check(fire(weapon="other", distance_cm=7.5)))


@pytest.mark.parametrize("experience, need", [("elite", 2), ("veteran", 3), ("aguerri", 4), ("conscrit", 5)])
def test_number_needed_by_experience(experience, need):
    # 'Expérience : Elite 2 + ... Conscrit 5 +'
    assert fire_check(fire(experience=experience)).need == need


def test_a_six_always_hits():
    # Conscrit 5 +, long range +2, hidden +1, skirmishers +1, poor discipline +1: 10.
    # 'On touche toujours sur 6': each die still hits on a 6, 1 chance in 6.
    check = fire_check(
        fire(
            experience="conscrit",
            distance_cm=15,
            factors=frozenset({"target_hidden", "target_with_skirmishers", "poor_fire_discipline"}),
        )
    )
    assert check.need == 10 and check.target == 6
    assert check.odds == binomial(6, Fraction(1, 6))


def test_a_need_of_one_or_less_hits_on_every_die_by_default():
    # Elite 2 +, good discipline -1, regimental artillery -1, target in column -1: -1.
    # The card's 'on rate toujours ... sur 1' is for morale only (option natural_one_to_hit).
    situation = fire(
        experience="elite",
        factors=frozenset({"good_fire_discipline", "regimental_artillery", "target_column"}),
    )
    check = fire_check(situation)
    assert check.need == -1 and check.target == 1 and check.odds == {6: 1}
    strict = fire_check(situation, {"natural_one_to_hit": "always_misses"})
    assert strict.target == 2 and strict.odds == binomial(6, Fraction(5, 6))


@pytest.mark.parametrize(
    "factor, value",
    [
        ("target_charging", 2),
        ("target_hidden", 1),
        ("target_deployed_artillery", 1),
        ("poor_fire_discipline", 1),
        ("target_with_skirmishers", 1),
        ("target_column", -1),
        ("target_square", -1),
        ("target_cavalry", -1),
        ("target_limbered_artillery", -1),
        ("good_fire_discipline", -1),
        ("regimental_artillery", -1),
    ],
)
def test_each_ticked_fire_factor(factor, value):
    # Aguerri 4 + at 5 cm, plus the one factor.
    check = fire_check(fire(factors=frozenset({factor})))
    assert mods(check) == {factor: value} and check.need == 4 + value


def test_defensive_fire_at_charging_cavalry():
    # Step 3.5, 'Tir défensif ... des UC chargés': Aguerri muskets at 4 cm on charging
    # cavalry: 'Cible en charge' +2, 'Cible Cavalerie' -1: 4 + 2 - 1 = 5.
    ticks = fire_factors(Troop("cavalry", kind="cuirassiers"), charging=True)
    check = fire_check(fire(distance_cm=4, factors=ticks))
    assert mods(check) == {"target_charging": 2, "target_cavalry": -1} and check.need == 5


def test_artillery_being_charged_fires_more_easily():
    # 'Artillerie chargée -1': Aguerri 4 +, light artillery at 5 cm: 4 - 1 = 3.
    check = fire_check(fire(weapon="light_artillery", factors=frozenset({"artillery_charged"})))
    assert check.need == 3


def test_irregular_light_horse_is_cavalry_too():
    # 'Cible Cavalerie ILh +1' and 'Cible Cavalerie -1', cumulative: net 0.
    check = fire_check(fire(factors=frozenset({"target_irregular_light_horse"})))
    assert mods(check) == {"target_irregular_light_horse": 1, "target_cavalry": -1}
    assert check.need == 4


def test_disordered_firer_has_one_die_per_ec_and_plus_one():
    # '* Efficacité = 1 si ... est en désordre' and 'Tireur en désordre +1':
    # Vétéran 3 + 1 = 4; two EC of muskets at effectiveness 1: 2 dice.
    check = fire_check(fire(experience="veteran", firing_ec=2, disordered=True))
    assert check.need == 4 and check.dice == 2 and mods(check) == {"firer_disordered": 1}


def test_a_musket_that_moved_loses_a_die_but_not_the_plus_one():
    # Moved: effectiveness 2 -> 1 (footnote *). 'Tireur avec Efficacité de 1 et ayant bougé'
    # is for a weapon of effectiveness 1 (option moved_effectiveness_one = printed_one).
    check = fire_check(fire(moved=True))
    assert check.dice == 3 and check.need == 4
    both = fire_check(fire(moved=True), {"moved_effectiveness_one": "reduced_to_one"})
    assert both.need == 5 and mods(both) == {"firer_moved_effectiveness_one": 1}


def test_other_weapons_that_moved_pay_plus_one():
    # 'Autres armes 1': effectiveness 1 already; moved: +1.  Aguerri 4 + 1 = 5, 3 dice.
    check = fire_check(fire(weapon="other", moved=True))
    assert check.need == 5 and check.dice == 3


def test_a_change_of_formation_costs_the_die_but_is_not_a_move():
    # '* ... vient de bouger et/ou de changer de formation': effectiveness 1.
    # 'ayant bougé' names moving only.
    check = fire_check(fire(weapon="other", changed_formation=True))
    assert check.dice == 3 and check.need == 4


@pytest.mark.parametrize("experience, dice", [("elite", 4), ("veteran", 3), ("aguerri", 2), ("conscrit", 1)])
def test_artillery_effectiveness_by_experience(experience, dice):
    # '** Artillerie « Elite » = 4 ; « Vétéran » = 3 ; « Aguerri » = 2 ; « Conscrit » = 1'
    eff = effectiveness("medium_artillery", experience)
    assert eff.printed == eff.value == dice


def test_heavy_battery_at_long_range():
    # Elite heavy artillery, 2 EC, at 50 cm: 'Portée 80, Longue portée 40 +': +2.
    # Elite 2 + 2 = 4; 2 EC x 4 = 8 dice on 4+ (1/2 each).
    check = fire_check(fire(experience="elite", weapon="heavy_artillery", firing_ec=2, distance_cm=50))
    assert check.need == 4 and check.dice == 8
    assert check.odds == binomial(8, Fraction(1, 2))


def test_artillery_that_moved_fires_one_die_per_ec():
    eff = effectiveness("heavy_artillery", "elite", moved=True)
    assert (eff.printed, eff.value) == (4, 1)


def test_conscrit_artillery_that_moved_has_one_die_and_may_not_fire():
    # '« Conscrit » = 1' already; moving leaves it at 1. But a Conscrit that moved may
    # not fire at all ('CONSCRIT Mouvement***', '*** PAS de Tir').
    eff = effectiveness("light_artillery", "conscrit", moved=True)
    assert (eff.printed, eff.value) == (1, 1)
    with pytest.raises(RulesError, match="may not fire"):
        fire_check(fire(experience="conscrit", weapon="light_artillery", moved=True))


def test_fire_dice_per_uc_option():
    # Option fire_dice = per_uc: the UC rolls its effectiveness once, whatever its EC.
    assert fire_check(fire(firing_ec=5), {"fire_dice": "per_uc"}).dice == 2
    assert fire_check(fire(firing_ec=5)).dice == 10


@pytest.mark.parametrize(
    "ticked, message",
    [
        ({"target_square", "target_cavalry"}, "cannot both hold"),
        ({"good_fire_discipline", "poor_fire_discipline"}, "cannot both hold"),
        ({"target_charging", "target_with_skirmishers"}, "cannot both hold"),
        ({"target_deployed_artillery", "target_limbered_artillery"}, "cannot both hold"),
        ({"target_column", "target_square"}, "cannot both hold"),
        ({"long_range"}, "follows from"),
        ({"firer_disordered"}, "follows from"),
        ({"artillery_charged"}, "does not apply"),
        ({"target_in_a_wood"}, "is not one of the card's fire factors"),
    ],
)
def test_fire_factors_the_situation_excludes(ticked, message):
    with pytest.raises(RulesError, match=message):
        fire_check(fire(factors=frozenset(ticked)))


@pytest.mark.parametrize(
    "change, message",
    [
        ({"experience": "expert"}, "experience"),
        ({"weapon": "bow"}, "weapon"),
        ({"firing_ec": 0}, "at least one EC"),
        ({"distance_cm": -1}, "negative"),
    ],
)
def test_bad_fire_input_is_one_sentence(change, message):
    with pytest.raises(RulesError, match=message):
        fire_check(fire(**change))


def test_regimental_artillery_is_for_a_unit_not_a_battery():
    with pytest.raises(RulesError, match="does not apply"):
        fire_check(fire(weapon="light_artillery", factors=frozenset({"regimental_artillery"})))


# ---------------------------------------------------------------------------
# Fire: what each experience level may do (Phase 2 grid)
# ---------------------------------------------------------------------------


def test_conscrit_that_moved_may_not_fire_but_one_that_stood_still_may():
    # 'CONSCRIT Mouvement*** OU Changement de formation***', '*** PAS de Tir'
    with pytest.raises(RulesError, match="may not fire"):
        fire_check(fire(experience="conscrit", moved=True))
    assert fire_check(fire(experience="conscrit")).need == 5
    with pytest.raises(RulesError, match="may not fire"):
        fire_check(fire(experience="conscrit"), {"action_limits": "whole_turn"})


def test_aguerri_may_not_both_move_and_change_formation():
    # 'AGUERRI Mouvement** OU Changement de formation**'
    with pytest.raises(RulesError, match="not both"):
        fire_check(fire(moved=True, changed_formation=True))
    # 'VETERAN Mouvement** ET Changement de formation**'
    assert fire_check(fire(experience="veteran", moved=True, changed_formation=True)).dice == 3


@pytest.mark.parametrize(
    "experience, fire_ok, charge_ok, both",
    [
        ("elite", True, True, True),  # * Tir ET Charge
        ("veteran", True, True, False),  # ** Tir OU Charge
        ("aguerri", True, True, False),  # ** Tir OU Charge
        ("conscrit", False, True, False),  # *** PAS de Tir (charge: option conscrit_charge)
    ],
)
def test_turn_actions_after_moving(experience, fire_ok, charge_ok, both):
    actions = turn_actions(experience, moved=True)
    assert (actions.may_fire, actions.may_charge, actions.fire_and_charge) == (fire_ok, charge_ok, both)


def test_veteran_that_moved_and_fired_may_not_charge():
    actions = turn_actions("veteran", moved=True)
    actions.check(fires=True)
    actions.check(charges=True)
    with pytest.raises(RulesError, match="may not also charge"):
        actions.check(charges=True, fired=True)
    turn_actions("elite", moved=True).check(charges=True, fired=True)


def test_a_unit_that_did_not_move_has_no_limit_by_default():
    assert turn_actions("veteran").fire_and_charge
    assert not turn_actions("veteran", options={"action_limits": "whole_turn"}).fire_and_charge


def test_conscrit_charge_option():
    assert turn_actions("conscrit", moved=True).may_charge
    with pytest.raises(RulesError, match="may not charge"):
        turn_actions("conscrit", moved=True, options={"conscrit_charge": "not_allowed"}).check(charges=True)


# ---------------------------------------------------------------------------
# Fire: rolling, saves and losses
# ---------------------------------------------------------------------------


def test_roll_fire_with_typed_dice_counts_hits():
    # need 5 on 6 dice; typed 1 5 6 4 5 2: three dice at 5 or more -> 3 touches.
    check = fire_check(fire(distance_cm=15, factors=frozenset({"target_column"})))
    service = DiceService(seed=7)
    result = roll_fire(check, service, entered=[1, 5, 6, 4, 5, 2])
    assert result.successes == 3 and result.text == "3 touches" and result.english == "3 hits"
    assert result.record.mode == ENTERED and result.record.dice == "6d6>=5"
    assert "Longue portée" in result.record.purpose and service.history == [result.record]


def test_roll_fire_with_the_service_is_replayable():
    check = fire_check(fire())
    first = roll_fire(check, DiceService(seed=3))
    again = roll_fire(check, DiceService(seed=3))
    assert first.record.raw == again.record.raw and first.successes == again.successes
    assert first.successes == sum(1 for v in first.record.raw if v >= 4)


def test_typed_dice_impossible_for_the_dice_are_refused():
    check = fire_check(fire())
    with pytest.raises(RulesError):
        roll_fire(check, DiceService(seed=1), entered=[1, 2, 3, 4, 5, 7])
    with pytest.raises(RulesError):
        roll_fire(check, DiceService(seed=1), entered=[1, 2])


def test_saves_against_fire():
    # 'SAUVEGARDES ... 3+ au tir': 4 hits, typed 1 2 3 6 -> 2 saved, 2 pertes.
    check = save_check("fire", 4)
    assert check.target == 3 and check.dice == 4
    assert check.odds == binomial(4, Fraction(2, 3))
    result = roll_save(check, DiceService(seed=1), entered=[1, 2, 3, 6])
    assert result.successes == 2 and result.extra["losses"] == 2
    assert result.text == "2 sauvegardes, 2 pertes"


def test_saves_in_melee_need_four():
    # '4+ au combat'
    check = save_check("melee", 1)
    assert check.target == 4 and check.odds == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert roll_save(check, DiceService(seed=1), entered=[4]).text == "1 sauvegarde, 0 perte"
    lost = roll_save(check, DiceService(seed=1), entered=[3])
    assert lost.text == "0 sauvegarde, 1 perte" and lost.english == "0 saves, 1 loss"


@pytest.mark.parametrize("attack, hits", [("artillery", 2), ("fire", 0)])
def test_bad_save_input(attack, hits):
    with pytest.raises(RulesError):
        save_check(attack, hits)


def test_loss_odds_of_fire():
    # One die at need 4 (Aguerri, 5 cm) hits with 1/2; the target saves on 3+ (2/3),
    # so each die costs an EC with 1/2 x 1/3 = 1/6: two EC of muskets, 4 dice.
    check = fire_check(fire(firing_ec=2))
    odds = fire_loss_odds(check)
    assert odds == binomial(4, Fraction(1, 6))
    assert sum(odds.values()) == 1


# ---------------------------------------------------------------------------
# Fire: priority targets
# ---------------------------------------------------------------------------


def test_priority_a_comes_first():
    result = priority_targets(
        [Candidate("near", 3, can_charge_or_fire_at_firer=True), Candidate("charger", 9, charging_firer=True)]
    )
    assert result.letter == "a" and result.targets == ("charger",)
    assert result.printed == "Les unités qui chargent l'unité qui tire."


def test_priority_b_only_within_10_cm():
    # 'b) Une unité ennemie à 10 cm ou - et capable de charger ou de tirer l'unité qui tire.'
    at_10 = priority_targets([Candidate("x", 10, can_charge_or_fire_at_firer=True), Candidate("y", 4)])
    assert at_10.letter == "b" and at_10.targets == ("x",)
    beyond = priority_targets([Candidate("x", 10.5, can_charge_or_fire_at_firer=True), Candidate("y", 4)])
    assert beyond.letter == "e" and beyond.targets == ("y",)


def test_priority_c_then_d_then_e():
    charging_friend = priority_targets([Candidate("x", 30, charging_friend_within_10cm=True), Candidate("y", 4)])
    assert charging_friend.letter == "c"
    free = priority_targets([Candidate("x", 30), Candidate("y", 4)], artillery_with_general=True)
    assert free.letter == "d" and free.targets == ("x", "y")
    nearest = priority_targets([Candidate("x", 30), Candidate("y", 4), Candidate("z", 4)])
    assert nearest.letter == "e" and nearest.targets == ("y", "z")


def test_no_target_is_one_sentence():
    with pytest.raises(RulesError, match="no enemy"):
        priority_targets([])


def test_fire_factors_prefill_from_the_target():
    assert fire_factors(Troop("infantry", formation="attack_column")) == {"target_column"}
    assert fire_factors(Troop("infantry", formation="hollow_square")) == {"target_square"}
    assert fire_factors(Troop("cavalry", kind="irregular_light_horse"), charging=True) == {
        "target_cavalry",
        "target_irregular_light_horse",
        "target_charging",
    }
    assert fire_factors(Troop("artillery", formation="unlimbered"), skirmishers=True) == {
        "target_deployed_artillery",
        "target_with_skirmishers",
    }
    assert fire_factors(
        Troop("infantry", formation="line"), firer_weapon="medium_artillery", firer_charged=True
    ) == {"artillery_charged"}


# ---------------------------------------------------------------------------
# Melee
# ---------------------------------------------------------------------------


def test_melee_worked_example_lancers_against_a_line():
    # Vétéran 3 + ; 'Cavalerie contre infanterie non en carré ...' -2 ; 'Lanciers ou
    # Cuirassiers, non en désordre, contre infanterie non en carré ...' -1: 3 - 3 = 0.
    # Every die hits (no 'toujours sur 1' for hits); 3 EC in contact, one die each.
    own, enemy = Troop("cavalry", kind="lancers"), Troop("infantry", formation="line")
    ticks = melee_factors(own, enemy)
    assert ticks == {"cavalry_vs_open_infantry", "lancers_cuirassiers_vs_open_infantry"}
    check = melee_check(MeleeSituation("veteran", "cavalry", elements=3, kind="lancers", factors=ticks))
    assert check.need == 0 and check.target == 1 and check.dice == 3 and check.odds == {3: 1}


def test_lancers_imply_the_cavalry_factor():
    check = melee_check(
        MeleeSituation("aguerri", "cavalry", elements=2, kind="cuirassiers",
                       factors=frozenset({"lancers_cuirassiers_vs_open_infantry"}))
    )
    assert mods(check) == {"cavalry_vs_open_infantry": -2, "lancers_cuirassiers_vs_open_infantry": -1}
    assert check.need == 1


@pytest.mark.parametrize(
    "enemy, factor, need",
    [
        (Troop("infantry", formation="solid_square"), "cavalry_vs_solid_square", 5),  # 4 + 1
        (Troop("infantry", formation="hollow_square"), "cavalry_vs_hollow_square", 6),  # 4 + 2
        (Troop("infantry", formation="hollow_square", disordered=True), "cavalry_vs_open_infantry", 2),  # 4 - 2
    ],
)
def test_cavalry_against_squares(enemy, factor, need):
    own = Troop("cavalry", kind="other")
    ticks = melee_factors(own, enemy)
    assert ticks == {factor}
    assert melee_check(MeleeSituation("aguerri", "cavalry", elements=2, factors=ticks)).need == need


def test_disordered_infantry_against_cuirassiers():
    # Aguerri 4 + ; 'Cavalerie ou Infanterie contre Cuirassiers' +1 ; 'Unité en désordre
    # et combattant' +1: 6; two dice each hitting on a 6.
    ticks = melee_factors(Troop("infantry", formation="line", disordered=True), Troop("cavalry", kind="cuirassiers"))
    check = melee_check(MeleeSituation("aguerri", "infantry", elements=2, disordered=True, factors=ticks))
    assert mods(check) == {"against_cuirassiers": 1, "disordered": 1} and check.need == 6
    assert check.odds == binomial(2, Fraction(1, 6))


def test_cover_counts_in_the_first_round_only():
    # 'Combattant une unité à couvert et n'ayant pas contre-chargée (uniquement 1er tour de combat) +1'
    enemy = Troop("infantry", formation="line", in_cover=True)
    assert melee_factors(Troop("infantry"), enemy) == {"enemy_in_cover"}
    assert melee_factors(Troop("infantry"), enemy, enemy_counter_charged=True) == frozenset()
    assert melee_factors(Troop("infantry"), enemy, round_number=2) == frozenset()
    first = melee_check(MeleeSituation("veteran", "infantry", elements=2, factors=frozenset({"enemy_in_cover"})))
    assert first.need == 4
    with pytest.raises(RulesError, match="round 1"):
        melee_check(MeleeSituation("veteran", "infantry", elements=2, round_number=2,
                                   factors=frozenset({"enemy_in_cover"})))


@pytest.mark.parametrize(
    "situation, message",
    [
        (MeleeSituation("elite", "infantry", 2, factors=frozenset({"cavalry_vs_open_infantry"})), "for cavalry"),
        (MeleeSituation("elite", "cavalry", 2, kind="light",
                        factors=frozenset({"lancers_cuirassiers_vs_open_infantry"})), "lancers or cuirassiers"),
        (MeleeSituation("elite", "cavalry", 2, kind="lancers", disordered=True,
                        factors=frozenset({"lancers_cuirassiers_vs_open_infantry"})), "cannot both hold"),
        (MeleeSituation("elite", "cavalry", 2, factors=frozenset({"cavalry_vs_solid_square", "cavalry_vs_hollow_square"})),
         "cannot both hold"),
        (MeleeSituation("elite", "artillery", 2, factors=frozenset({"against_cuirassiers"})), "cavalry or infantry"),
        (MeleeSituation("elite", "infantry", 2, factors=frozenset({"disordered"})), "follows from"),
        (MeleeSituation("elite", "infantry", 0), "at least one element"),
        (MeleeSituation("elite", "dragoons", 2), "arm"),
        (MeleeSituation("novice", "infantry", 2), "experience"),
    ],
)
def test_bad_melee_input(situation, message):
    with pytest.raises(RulesError, match=message):
        melee_check(situation)


def test_fighting_elements_first_round_with_a_french_column():
    # '1er Tour : Uniquement les éléments au contact + 2ème rang si Colonne avec doctrine
    # Française ayant chargée ou contre-chargée.': 2 in contact + 2 behind = 4.
    assert fighting_elements(1, in_contact=2, second_rank=2, french_column_charged=True).count == 4
    assert fighting_elements(1, in_contact=2).count == 2
    with pytest.raises(RulesError, match="French doctrine"):
        fighting_elements(1, in_contact=2, second_rank=2)


def test_fighting_elements_later_rounds():
    # 'Autres tours : Tous les éléments à 5 cm d'un élément ennemi combattant.'
    assert fighting_elements(3, within_5cm=5).count == 5
    with pytest.raises(RulesError, match="within 5 cm"):
        fighting_elements(2, in_contact=2)
    with pytest.raises(RulesError, match="only the elements in contact"):
        fighting_elements(1, within_5cm=3)


def test_melee_dice_option():
    # Option melee_dice: one die per element (default) or the weapon's effectiveness.
    situation = MeleeSituation("aguerri", "infantry", elements=4, weapon="musket")
    assert melee_check(situation).dice == 4
    assert melee_check(situation, {"melee_dice": "weapon_effectiveness"}).dice == 8
    with pytest.raises(RulesError, match="weapon"):
        melee_check(MeleeSituation("aguerri", "infantry", 4), {"melee_dice": "weapon_effectiveness"})


def test_melee_roll_and_loss_odds():
    # Vétéran 3 + : each die hits on 3+ (2/3); the enemy saves on 4+ in melee (1/2):
    # a die costs an EC with 1/3.
    check = melee_check(MeleeSituation("veteran", "infantry", elements=3))
    assert melee_loss_odds(check) == binomial(3, Fraction(1, 3))
    result = roll_melee(check, DiceService(seed=1), entered=[2, 3, 6])
    assert result.successes == 2 and result.text == "2 touches"
    with pytest.raises(RulesError, match="melee check"):
        roll_melee(fire_check(fire()), DiceService(seed=1))


# ---------------------------------------------------------------------------
# Morale
# ---------------------------------------------------------------------------


def test_morale_worked_example_general_and_cover():
    # Confiant 4 + ; 'Divisionnaire ou Brigadier de l'unité à 5 cm de l'unité / A couvert'
    # -1 and -1 (two factors, cumulative): 2; passes on 2-6, 5/6.
    check = morale_check(MoraleSituation("confiant", "infantry", factors=frozenset({"general_near", "in_cover"})))
    assert check.need == 2 and check.target == 2 and check.odds == {0: Fraction(1, 6), 1: Fraction(5, 6)}


def test_a_six_always_passes():
    # Hésitant 5 + ; 'Unité en désordre et chargée' +1 ; 'chargée par des Cuirassiers' +1: 7.
    check = morale_check(
        MoraleSituation("hesitant", "infantry", step="3.4",
                        factors=frozenset({"disordered_and_charged", "charged_by_cuirassiers"}))
    )
    assert check.need == 7 and check.target == 6 and check.odds[1] == Fraction(1, 6)
    assert roll_morale(check, DiceService(seed=1), entered=[6]).text == "réussi"


def test_a_one_always_fails():
    # Intrépide 3 + ; 'Cavalerie chargeant de la Cavalerie' -2: 1, yet a 1 fails: 5/6.
    check = morale_check(MoraleSituation("intrepide", "cavalry", step="3.7",
                                         factors=frozenset({"cavalry_charging_cavalry"})))
    assert check.need == 1 and check.target == 2 and check.odds[1] == Fraction(5, 6)
    result = roll_morale(check, DiceService(seed=1), entered=[1])
    assert result.text == "raté: rupture" and result.extra["passed"] is False


def test_infantry_charging_cavalry_frontally_test_a():
    # (a) Confiant infantry charging cavalry: 'Infanterie chargeant de la Cavalerie*' +1: 5, 1/3.
    ticks = morale_factors(Troop("infantry", formation="attack_column"), charging=Troop("cavalry", kind="light"))
    assert ticks == {"infantry_charging_cavalry"}
    check = morale_check(MoraleSituation("confiant", "infantry", step="3.3", factors=ticks))
    assert check.need == 5 and check.odds[1] == Fraction(1, 3)


def test_the_starred_factors_do_not_count_on_the_flank_or_rear():
    # '* sauf sur le flanc ou les arrières'
    assert morale_factors(Troop("infantry"), charging=Troop("cavalry"), facing="flank") == frozenset()
    assert morale_factors(Troop("infantry"), charging=Troop("artillery", formation="unlimbered"), facing="rear") == frozenset()
    for factor in ("infantry_charging_cavalry", "charging_artillery"):
        with pytest.raises(RulesError, match="flank or rear"):
            morale_check(MoraleSituation("confiant", "infantry", step="3.7", facing="flank", factors=frozenset({factor})))


def test_cavalry_charging_guns():
    # Intrépide cavalry charging artillery in front: 'Unité chargeant de l'artillerie*' +1 and
    # 'Cavalerie chargeant ou en contact avec de l'artillerie ...' -2: 3 + 1 - 2 = 2.
    ticks = morale_factors(Troop("cavalry", kind="other"), charging=Troop("artillery", formation="unlimbered"))
    assert ticks == {"charging_artillery", "cavalry_vs_guns_or_open_infantry"}
    assert morale_check(MoraleSituation("intrepide", "cavalry", step="3.7", factors=ticks)).need == 2


@pytest.mark.parametrize(
    "unit, factor, value",
    [
        (Troop("infantry", formation="hollow_square"), "hollow_square_vs_cavalry", -2),
        (Troop("infantry", formation="solid_square"), "solid_square_vs_cavalry", -1),
        (Troop("infantry", formation="line"), "open_infantry_vs_cavalry", 1),
    ],
)
def test_infantry_charged_by_cavalry(unit, factor, value):
    # 'Carré creux en ordre chargé par ou au contact de la Cavalerie - 2', 'Carré plein ... - 1',
    # 'Inf. non en carré ou en désordre et chargée/contact avec la Cavalerie + 1'
    ticks = morale_factors(unit, charged_by=Troop("cavalry", kind="light"))
    assert ticks == {factor}
    assert morale_check(MoraleSituation("confiant", "infantry", step="3.4", factors=ticks)).need == 4 + value


def test_a_disordered_square_is_open_infantry():
    ticks = morale_factors(Troop("infantry", formation="hollow_square", disordered=True),
                           in_contact_with=Troop("cavalry"))
    assert ticks == {"open_infantry_vs_cavalry"}
    ticks = morale_factors(Troop("infantry", formation="hollow_square", disordered=True),
                           charged_by=Troop("cavalry"))
    assert ticks == {"open_infantry_vs_cavalry", "disordered_and_charged"}


def test_infantry_charging_a_line_in_order():
    # 'Infanterie chargeant une infanterie en ligne et en ordre + 1'
    assert morale_factors(Troop("infantry"), charging=Troop("infantry", formation="line")) == {"infantry_charging_line"}
    assert morale_factors(Troop("infantry"), charging=Troop("infantry", formation="line", disordered=True)) == frozenset()


def test_artillery_flanks():
    # Confiant artillery, 'Artillerie ayant une UC en ordre à 5 cm ou - de son flanc - 1/flanc':
    # both flanks covered, 4 - 2 = 2.
    check = morale_check(MoraleSituation("confiant", "artillery", covered_flanks=2))
    assert check.need == 2 and check.modifier_total == -2
    assert check.applied[0].modifier.label.endswith("x2")
    with pytest.raises(RulesError, match="at most 2"):
        morale_check(MoraleSituation("confiant", "artillery", covered_flanks=3))
    with pytest.raises(RulesError, match="for artillery"):
        morale_check(MoraleSituation("confiant", "infantry", covered_flanks=1))


def test_each_plain_morale_factor():
    for factor, value in [("national_characteristic", -1), ("in_cover", -1), ("general_near", -1),
                          ("disordered_and_charged", 1), ("charged_by_cuirassiers", 1)]:
        assert morale_check(MoraleSituation("confiant", "infantry", factors=frozenset({factor}))).need == 4 + value


@pytest.mark.parametrize(
    "situation, message",
    [
        (MoraleSituation("brave", "infantry"), "temperament"),
        (MoraleSituation("confiant", "infantry", step="2.1"), "no morale test"),
        (MoraleSituation("confiant", "infantry", facing="left"), "front, flank or rear"),
        (MoraleSituation("confiant", "infantry",
                         factors=frozenset({"hollow_square_vs_cavalry", "open_infantry_vs_cavalry"})), "cannot both hold"),
        (MoraleSituation("confiant", "infantry", factors=frozenset({"cavalry_charging_cavalry"})), "for cavalry"),
        (MoraleSituation("confiant", "infantry", factors=frozenset({"artillery_flank_covered"})), "follows from"),
    ],
)
def test_bad_morale_input(situation, message):
    with pytest.raises(RulesError, match=message):
        morale_check(situation)


def test_after_melee_test_words():
    # 'Test de moral, si réussi repli ou poursuite du combat allez à (c) sinon rupture'
    check = morale_check(MoraleSituation("confiant", "infantry", step="3.9"))
    assert roll_morale(check, DiceService(seed=1), entered=[4]).text == "réussi: repli ou poursuite du combat (allez à (c))"
    assert roll_morale(check, DiceService(seed=1), entered=[3]).text == "raté: rupture"


def test_failed_test_effect_option():
    check = morale_check(MoraleSituation("confiant", "infantry", step="3.4"))
    assert roll_morale(check, DiceService(seed=1), entered=[2]).text == "raté: rupture"
    umpire = roll_morale(check, DiceService(seed=1), entered=[2], options={"failed_test_effect": "umpire_decides"})
    assert umpire.text == "raté" and "umpire" in umpire.english
    # after melee the card itself prints 'sinon rupture'
    after = morale_check(MoraleSituation("confiant", "infantry", step="3.9"))
    assert roll_morale(after, DiceService(seed=1), entered=[2], options={"failed_test_effect": "umpire_decides"}).text == "raté: rupture"


@pytest.mark.parametrize("strength, lost, tests", [(4, 2, False), (4, 3, True), (6, 3, False), (6, 4, True), (5, 3, True)])
def test_more_than_half_lost_tests(strength, lost, tests):
    # 'Tester les UC puis les UM qui ont perdus + de la moitié de ses effectifs'
    assert must_test(lost, strength) is tests


@pytest.mark.parametrize("strength, lost", [(4, 5), (4, -1), (0, 0)])
def test_bad_losses(strength, lost):
    with pytest.raises(RulesError):
        must_test(lost, strength)


def test_formation_temperament_option():
    assert formation_temperament(["confiant", "hesitant", "confiant"]) == "confiant"
    assert formation_temperament(["intrepide", "hesitant"]) == "hesitant"  # tie: the less confident
    assert formation_temperament(["intrepide", "intrepide", "hesitant"], {"formation_test_temperament": "least_confident"}) == "hesitant"
    with pytest.raises(RulesError):
        formation_temperament([])
    with pytest.raises(RulesError):
        formation_temperament(["calm"])


def test_who_tests_after_melee_option():
    assert who_tests_after_melee({"french": 2, "austrians": 1}) == ("french", "austrians")
    assert who_tests_after_melee({"french": 2, "austrians": 1}, {"melee_morale_test": "loser"}) == ("french",)
    assert who_tests_after_melee({"french": 1, "austrians": 1}, {"melee_morale_test": "loser"}) == ("french", "austrians")


# ---------------------------------------------------------------------------
# Movement and command
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "unit, going, cm",
    [
        ("general", "gg", 30),
        ("light_cavalry_retreating", "bgo", 15),
        ("cavalry_retreating", "gg", 20),
        ("infantry_attack_column", "gg", 15),
        ("infantry_line", "bgo", 5),
        ("artillery_unlimbered", "bgo", 3),
    ],
)
def test_speed(unit, going, cm):
    assert speed(unit, going) == cm


def test_a_unit_in_two_terrains_counts_where_most_of_its_ec_are():
    # 'comptent comme étant dans le terrain qui contient le plus d'EC': 3 EC in bad going,
    # 1 in good: light cavalry moves 20 cm, not 30.
    result = move("light_cavalry", {"gg": 1, "bgo": 3})
    assert result.distance_cm == 20 and result.going == "bgo"
    assert going_of({"gg": 3, "bgo": 2}) == "gg"


def test_an_equal_split_of_ec():
    assert going_of({"gg": 2, "bgo": 2}) == "bgo"
    with pytest.raises(RulesError, match="umpire"):
        going_of({"gg": 2, "bgo": 2}, {"terrain_tie": "ask_umpire"})


@pytest.mark.parametrize("bad", [{"mud": 2}, {"gg": -1}, {}])
def test_bad_going(bad):
    with pytest.raises(RulesError):
        going_of(bad)


def test_unknown_unit_kind_has_no_speed():
    with pytest.raises(RulesError, match="kind of unit"):
        speed("infantry_skirmish_order", "gg")


def test_command_distance():
    # 'ELITE Cavalerie 25 cm'; a UC at exactly the distance is commanded.
    assert in_command("elite", "cavalry", 25) and not in_command("elite", "cavalry", 25.5)
    assert in_command("conscrit", "infantry", 5) and not in_command("conscrit", "infantry", 6)


def test_artillery_command_distance_option():
    # Horse artillery keeps the cavalry's pace: Aguerri 15 cm; foot artillery 10 cm.
    assert command_distance_cm("aguerri", "horse_artillery") == 15
    assert command_distance_cm("aguerri", "foot_artillery") == 10
    assert command_distance_cm("aguerri", "horse_artillery", {"artillery_command_distance": "infantry"}) == 10
    with pytest.raises(RulesError, match="command distance"):
        command_distance_cm("aguerri", "artillery")


def test_charge_reach():
    # 'Charge pour les UC qui sont à 5 cm d'un ennemi'
    assert may_charge(5) and not may_charge(5.5)


# ---------------------------------------------------------------------------
# Sequence of play and the charge
# ---------------------------------------------------------------------------


def test_the_turn_is_a_checklist_that_wraps():
    ids = [s.id for s in steps()]
    assert ids[0] == "1.1" and ids[-1] == "3.12" and len(ids) == 19
    assert next_step("2.4").id == "3.1" and next_step("3.12").id == "1.1"
    assert step("3.4").marks == ("***",) and step("3.4").english == "(b) Morale test: charged UC"
    with pytest.raises(RulesError, match="no step"):
        step("4.1")


def test_charge_tests_a_and_b_are_not_cumulative():
    # '(a) ... UC à pied chargeant frontalement la Cavalerie ***', '(b) ... UC chargés ***',
    # '*** Non cumulable'; then 'Test de moral pour les UC chargeants'.
    assert charge_tests(charging=True, on_foot=True, charging_cavalry_frontally=True) == ("3.3", "3.7")
    assert charge_tests(charged=True) == ("3.4",)
    assert charge_tests(charging=True, on_foot=True, charging_cavalry_frontally=True, charged=True) == ("3.3", "3.7")
    assert charge_tests(charging=True) == ("3.7",)
    # option non_cumulable = both_tests: the same UC takes (a), (b), then the chargers' test
    both = {"non_cumulable": "both_tests"}
    assert charge_tests(charging=True, on_foot=True, charging_cavalry_frontally=True, charged=True, options=both) == (
        "3.3", "3.4", "3.7")


def test_after_melee_and_pursuit():
    assert after_melee_test(False) == "rupture"
    assert after_melee_test(True, fall_back=True) == "repli"
    assert after_melee_test(True) == "fight_on"
    assert melee_winner({"french": "fight_on", "austrians": "rupture"}) == "french"
    assert melee_winner({"french": "fight_on", "austrians": "fight_on"}) is None
    assert after_pursuit(True) == "3.3" and after_pursuit(False) == "3.12"
    assert advance_after_melee_cm() == 10
    with pytest.raises(RulesError):
        melee_winner({"french": "won"})


# ---------------------------------------------------------------------------
# Options, terms and the hand-off conversion
# ---------------------------------------------------------------------------


def test_every_option_has_a_default_among_its_choices():
    chosen = resolve_options(RS)
    assert chosen["fire_dice"] == "per_ec" and len(chosen) == 15  # non_cumulable (issue 21), broken_at_end (issue 24)
    with pytest.raises(RulesError):
        resolve_options(RS, {"fire_dice": "per_figure"})


def test_the_factor_lists_for_a_screen():
    fire_list = factors("fire")
    assert [f.id for f in fire_list][:2] == ["long_range", "target_charging"]
    assert {f.id for f in fire_list if f.derived} == {"long_range", "firer_moved_effectiveness_one", "firer_disordered"}
    assert factors("morale")[-1].label == "Caractéristique nationale (National characteristic)"
    assert len(factors("melee")) == 7 and len(factors("morale")) == 14 and len(fire_list) == 16
    with pytest.raises(RulesError):
        factors("pursuit")


def test_terms_and_labels_give_the_english_beside_the_french():
    assert english("UC").startswith("combat unit")
    assert label("to_hit", "experience", "aguerri") == "Aguerri (seasoned)"
    assert label("morale", "temperament", "intrepide") == "Intrépide (intrepid)"
    with pytest.raises(RulesError):
        english("grognard")


def test_conversion_loads_and_converts():
    conversion = load_conversion(RS)
    assert conversion.label == "UC" and conversion.size_label == "EC" and conversion.sp_per_unit == 1
    assert all(quality(q) for q in conversion.quality.values())
    assert quality(conversion.quality[6]) == ("elite", "intrepide")
    assert quality(conversion.quality[3]) == ("aguerri", "confiant")
    assert quality(conversion.quality[1]) == ("conscrit", "hesitant")
    order = tactical_order(conversion, [("ii", "II Corps", "infantry", 2, 4), ("cav", "Cavalry", "cavalry", 1, 5)], [("Victor", 3)])
    assert [(u.name, u.size, u.quality) for u in order.units] == [
        ("II Corps UC 1", 6, "aguerri/confiant"),
        ("II Corps UC 2", 6, "aguerri/confiant"),
        ("Cavalry", 4, "veteran/intrepide"),
    ]
    # 3 EC of infantry lost is half a UC of 1 SP: nearest, halves up, 1 SP; 2 EC: 0.
    assert sp_lost(conversion, "infantry", 3) == 1 and sp_lost(conversion, "infantry", 2) == 0


@pytest.mark.parametrize("bad", ["aguerri", "expert/confiant", "aguerri/brave"])
def test_bad_quality(bad):
    with pytest.raises(RulesError):
        quality(bad)


@pytest.mark.parametrize("module", ["", ".fire", ".melee", ".morale", ".movement", ".sequence"])
def test_the_docstring_examples_hold(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"rules.napoleonic_uc_um{module}"))
    assert result.failed == 0 and result.attempted > 0

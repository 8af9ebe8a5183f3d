"""The French UC/UM card (seed 003) on the resolver screen.

Each worked example is read off the card (../shared/seeds/003_49b400ab842f5a33.txt)
by hand in the comments, then checked twice: against what `prepare` shows and against
the rule set's own procedure functions.  Dice are entered, so `resolve` is checked
against the card's words ('touches', 'sauvegardes', 'pertes', 'réussi', 'raté:
rupture') and the effects on the units.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import DiceService
from rules.errors import RulesError
from rules.napoleonic_uc_um.fire import (
    FireSituation,
    fire_check,
    fire_loss_odds,
    save_check,
)
from rules.napoleonic_uc_um.melee import MeleeSituation, melee_check
from rules.napoleonic_uc_um.morale import MoraleSituation, morale_check
from rules.napoleonic_uc_um.resolver import RESOLVER
from rules.resolver import (
    ATTACKER,
    DEFENDER,
    Contact,
    Position,
    Request,
    Unit,
    apply_effects,
    check_request,
    may_act,
)

R = RESOLVER
THIRD = Fraction(1, 3)


def unit(uid, side=ATTACKER, arm="infantry", size=6, start=None, states=None, **attrs):
    defaults = {"infantry": {"formation": "line"}, "cavalry": {"formation": "line", "kind": "other", "weapon": "other"},
                "artillery": {"formation": "unlimbered", "weapon": "medium_artillery", "battery": "foot"}}[arm]
    return Unit(uid, f"UC {uid}", side, arm, size, start or size, R.attrs_for({**defaults, **attrs}),
                dict(states or {}))


def paired(actor, target):
    """The two units of a resolution in contact, as the charge that brought them together leaves them:
    these tests read the card's procedures for the pair (the contact rule is tested in test_resolver.py)."""
    return (Contact(target.id, actor.id),) if target is not None and target.side != actor.side else ()


def req(action, actor, target=None, ticked=(), phase="3.1", units=None, options=None, **numbers):
    everyone = {u.id: u for u in [actor, target] if u is not None}
    request = Request(action, actor, target, frozenset(ticked), numbers, options or {}, units or everyone, phase,
                      contacts=paired(actor, target))
    check_request(R, request)
    return request


def run(request, *dice):
    """Prepare, roll the entered dice through the dice service, resolve."""
    prepared = R.action(request.action).prepare(request)
    record = DiceService(seed=1).roll(prepared.dice, "test", entered=list(dice)) if prepared.dice else None
    return R.action(request.action).resolve(request, record)


def odds(prepared, heading):
    return dict(prepared.odds)[heading]


def at(phase_id, bound=ATTACKER):
    return Position(1, bound, [p.id for p in R.phases].index(phase_id))


# -- the checklist -------------------------------------------------------------------------


def test_the_checklist_is_the_cards_sequence_of_play_in_its_words():
    assert [p.id for p in R.phases][:4] == ["1.1", "1.2", "1.3", "2.1"]
    assert R.phase("3.1").printed == "Tir et Sauvegardes adverses"
    assert R.phase("3.4").printed == "(b) Test de moral pour les UC chargés ***"
    assert R.phase("3.12").printed == "Enlever les pions de désordre et de ralliement pour les UC immobiles"
    assert R.size_label == "EC" and R.alternating
    assert (R.phase("3.1").acts, R.phase("3.4").acts, R.phase("3.8").acts) == ("active", "inactive", "both")


def test_quality_takes_the_conversions_experience_and_temperament():
    assert "aguerri/confiant" in R.attributes[0].choices and len(R.attributes[0].choices) == 12
    u = unit("a1", quality="conscrit/hesitant")
    assert u.attr("quality") == "conscrit/hesitant"
    with pytest.raises(RulesError, match="Expérience/tempérament is one of"):
        R.attrs_for({"quality": "guard"})


# -- fire and saves ----------------------------------------------------------------------


def test_fire_worked_example_aguerri_muskets_at_a_column_at_long_range():
    # Aguerri 4 +; 15 cm is 'Longue portée' of a Mousquet (10 +): +2; 'Colonne' -1: 5 +.
    # 3 EC x Efficacité 2 = 6 dice, each hitting on 5 or 6 (1/3): no hit (2/3)^6 = 64/729.
    a, d = unit("a1"), unit("d1", DEFENDER, formation="attack_column")
    request = req("fire", a, d, {"target_column"}, firing_ec=3, distance=15)
    prepared = R.action("fire").prepare(request)
    assert prepared.needed.startswith("5 + (Aguerri (seasoned) 4 +, Longue portée (Long range) +2, Colonne")
    assert prepared.dice == "6d6>=5"
    check = fire_check(FireSituation("aguerri", "musket", 3, 15, factors=frozenset({"target_column"})))
    assert odds(prepared, "Touches (hits)") == check.odds
    assert odds(prepared, "Touches (hits)")[0] == Fraction(64, 729)
    assert odds(prepared, "Pertes après sauvegardes 3+ (EC lost after saves)") == fire_loss_odds(check)


def test_fire_puts_the_hits_on_the_target_until_it_saves():
    a, d = unit("a1"), unit("d1", DEFENDER, formation="attack_column")
    outcome = run(req("fire", a, d, {"target_column"}, firing_ec=3, distance=15), 6, 5, 4, 3, 2, 1)
    assert outcome.text.startswith("2 touches (2 hits) on UC d1")
    units = apply_effects({"a1": a, "d1": d}, outcome.effects)
    assert units["d1"].attr("fire_hits") == 2 and units["a1"].has("fired")
    assert R.unfinished("3.1", units) == ["UC d1 has 2 fire hits waiting for its saves"]


def test_saves_worked_example_two_fire_hits_save_on_3():
    # 'SAUVEGARDES: 3+ au tir': two dice; both saved (2/3)^2 = 4/9, one EC lost 4/9, two 1/9.
    d = unit("d1", DEFENDER, fire_hits=2)
    request = req("save", d)
    prepared = R.action("save").prepare(request)
    assert prepared.dice == "2d6>=3" and prepared.needed.startswith("Sauvegarde")
    assert odds(prepared, "Pertes (EC lost)") == {0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}
    assert odds(prepared, "Sauvegardes (saves)") == save_check("fire", 2).odds
    outcome = run(request, 3, 2)
    assert outcome.text == "1 sauvegarde, 1 perte (1 save, 1 loss)"
    after = apply_effects({"d1": d}, outcome.effects)["d1"]
    assert (after.size, after.attr("fire_hits")) == (5, 0)


def test_losing_the_last_ec_takes_the_uc_off_and_half_calls_a_test():
    d = unit("d1", DEFENDER, size=2, start=6, melee_hits=2)
    outcome = run(req("save", d, phase="3.8"), 1, 2)  # melee saves need 4+
    after = apply_effects({"d1": d}, outcome.effects)["d1"]
    assert after.removed and after.attr("round_losses") == 2
    d = unit("d2", DEFENDER, size=3, start=6, fire_hits=1)  # 4 of 6 lost: more than half
    assert "tests at Phase 1" in run(req("save", d), 1).text


def test_loss_unit_figure_option_leaves_the_ec_to_the_umpire():
    d = unit("d1", DEFENDER, fire_hits=1)
    outcome = run(req("save", d, options={"loss_unit": "figure"}), 1)
    assert "the umpire removes an EC" in outcome.text and outcome.effects[0].lost == 0


def test_fire_refusals_are_one_sentence():
    a, d = unit("a1"), unit("d1", DEFENDER)
    with pytest.raises(RulesError, match="out of range"):
        R.action("fire").prepare(req("fire", a, d, distance=25))
    moved = unit("a2", quality="conscrit/hesitant", states={"moved": 1})
    with pytest.raises(RulesError, match=r"may not fire \(PAS de Tir\)"):
        R.action("fire").prepare(req("fire", moved, d))
    broken = unit("a3", states={"rout": None})
    with pytest.raises(RulesError, match="en rupture"):
        R.action("fire").prepare(req("fire", broken, d))
    with pytest.raises(RulesError, match="has no hits waiting"):
        R.action("save").prepare(req("save", d))


def test_an_excluded_factor_is_refused_with_its_reason():
    a, d = unit("a1"), unit("d1", DEFENDER, formation="attack_column")
    ticks = {t.id: t for t in R.action("fire").ticks(a, d)}
    assert ticks["target_column"].checked and ticks["target_square"].excluded
    with pytest.raises(RulesError) as caught:
        req("fire", a, d, {"target_square"})
    assert str(caught.value) == "-1 Carré (Target in square): UC d1 is infantry, attack column: change the unit to tick it"


def test_fire_is_done_in_its_phase_by_the_side_whose_bound_it_is():
    with pytest.raises(RulesError, match="Tir \\(fire\\) is not done in the 2.4"):
        may_act(R, at("2.4"), "fire", ATTACKER)
    with pytest.raises(RulesError, match="only the attacker"):
        may_act(R, at("3.1"), "fire", DEFENDER)
    may_act(R, at("3.5"), "fire", DEFENDER)  # defensive fire of the charged UC
    may_act(R, at("3.1"), "save", DEFENDER)  # the enemy's saves


# -- movement and command ---------------------------------------------------------------


def test_command_distance_aguerri_infantry_is_10_cm():
    a = unit("a1")
    assert R.action("command").prepare(req("command", a, phase="2.2", distance=12)).needed.startswith("10 cm")
    outcome = run(req("command", a, phase="2.2", distance=12))
    assert outcome.text.startswith("non commandé") and outcome.effects[0].add == {"uncommanded": 1}
    assert run(req("command", a, phase="2.2", distance=10)).text.startswith("commandé")


def test_move_line_infantry_10_cm_in_good_going_5_in_bad():
    a = unit("a1")
    assert R.action("move").prepare(req("move", a, phase="2.4")).needed == "10 cm"
    assert R.action("move").prepare(req("move", a, phase="2.4", bgo_ec=4)).needed == "5 cm"
    outcome = run(req("move", a, phase="2.4"))
    assert outcome.effects[0].add == {"moved": 1} and "Tir OU Charge" in outcome.text
    with pytest.raises(RulesError, match="it moves in step 2.4"):
        R.action("move").prepare(req("move", a, phase="2.3"))


def test_aguerri_moves_or_changes_formation_not_both():
    a = unit("a1", states={"moved": 1})
    with pytest.raises(RulesError, match="Mouvement OU Changement de formation"):
        R.action("change_formation").prepare(req("change_formation", a, None, {"to_hollow_square"}, phase="2.4"))
    elite = unit("a2", quality="elite/intrepide", states={"moved": 1})
    outcome = run(req("change_formation", elite, None, {"to_hollow_square"}, phase="2.4"))
    assert outcome.effects[0].set == {"formation": "hollow_square"}


# -- the charge -------------------------------------------------------------------------


def test_a_charge_reaches_5_cm():
    a, d = unit("a1"), unit("d1", DEFENDER)
    with pytest.raises(RulesError, match="within 5 cm"):
        R.action("charge").prepare(req("charge", a, d, phase="3.2", distance=8))
    outcome = run(req("charge", a, d, phase="3.2", distance=5))
    assert outcome.text == "charges UC d1: it tests at step(s) 3.7; UC d1 tests at step 3.4"
    units = apply_effects({"a1": a, "d1": d}, outcome.effects)
    assert units["a1"].has("charging") and units["d1"].has("charged")


def test_charged_test_b_worked_example():
    # Confiant 4 +; 'Unité en désordre et chargée' +1; 'chargée par des Cuirassiers' +1: 6 +, 1/6.
    d = unit("d1", DEFENDER, states={"charged": 1, "disordered": None})
    cuirassiers = unit("a1", arm="cavalry", kind="cuirassiers", states={"charging": 1})
    ticks = {t.id for t in R.action("test_b").ticks(d, cuirassiers) if t.checked}
    assert {"disordered_and_charged", "charged_by_cuirassiers", "open_infantry_vs_cavalry"} <= ticks
    request = req("test_b", d, cuirassiers, {"disordered_and_charged", "charged_by_cuirassiers"}, phase="3.4")
    prepared = R.action("test_b").prepare(request)
    check = morale_check(MoraleSituation("confiant", "infantry", "3.4",
                                         frozenset({"disordered_and_charged", "charged_by_cuirassiers"})))
    assert prepared.dice == "1d6>=6" and prepared.needed.startswith("6 + (Confiant (confident) 4 +")
    assert odds(prepared, "Test") == {"réussi (passed)": Fraction(1, 6), "raté (failed)": Fraction(5, 6)}
    assert odds(prepared, "Test")["réussi (passed)"] == check.odds[1]
    outcome = run(request, 5)
    assert outcome.text == "raté: rupture (failed: rout)" and outcome.effects[0].add == {"rout": None}
    assert run(request, 6).text == "réussi (passed)"


def test_cavalry_charging_cavalry_a_1_still_fails():
    # Intrépide 3 +, 'Cavalerie chargeant de la Cavalerie' -2: 1 +, but 'on rate toujours son test sur 1': 5/6.
    a = unit("a1", arm="cavalry", quality="veteran/intrepide", states={"charging": 1})
    d = unit("d1", DEFENDER, arm="cavalry", states={"charged": 1})
    request = req("chargers_test", a, d, {"cavalry_charging_cavalry"}, phase="3.7")
    prepared = R.action("chargers_test").prepare(request)
    assert prepared.dice == "1d6>=2" and odds(prepared, "Test")["réussi (passed)"] == Fraction(5, 6)
    assert run(request, 1).text == "raté: rupture (failed: rout)"


def test_tests_a_and_b_are_not_cumulative():
    a = unit("a1", states={"charging": 1, "charged": 1})
    cav = unit("d1", DEFENDER, arm="cavalry", states={"charged": 1, "charging": 1})
    outcome = run(req("test_a", a, cav, {"infantry_charging_cavalry"}, phase="3.3"), 6)
    a = apply_effects({"a1": a}, outcome.effects)["a1"]
    with pytest.raises(RulesError, match="Non cumulable"):
        R.action("test_b").prepare(req("test_b", a, cav, phase="3.4"))
    # option non_cumulable = both_tests: the counter-charged foot UC takes (b) as well
    both = {"non_cumulable": "both_tests"}
    assert R.action("test_b").prepare(req("test_b", a, cav, phase="3.4", options=both)).dice == "1d6>=4"
    with pytest.raises(RulesError, match="frontally"):
        R.action("test_a").prepare(req("test_a", unit("a2", states={"charging": 1}), unit("d2", DEFENDER, states={"charged": 1}), phase="3.3"))


def test_defensive_fire_or_counter_attack_not_both():
    d = unit("d1", DEFENDER, states={"charged": 1})
    a = unit("a1", states={"charging": 1})
    outcome = run(req("fire", d, a, {"target_charging"}, phase="3.5", firing_ec=2, distance=5), 1, 1, 1, 1)
    assert outcome.text == "0 touche (0 hits) on UC a1"
    d = apply_effects({"d1": d}, outcome.effects[:1])["d1"]
    with pytest.raises(RulesError, match="not both"):
        R.action("counter_charge").prepare(req("counter_charge", d, a, phase="3.5"))
    with pytest.raises(RulesError, match="is not charged by"):
        R.action("fire").prepare(req("fire", unit("d2", DEFENDER), a, phase="3.5"))


# -- melee and after --------------------------------------------------------------------


def test_melee_worked_example_infantry_against_cuirassiers():
    # Aguerri 4 +, 'Cavalerie ou Infanterie contre Cuirassiers' +1: 5 +; 3 EC in contact, one die each.
    a = unit("a1")
    cuirassiers = unit("d1", DEFENDER, arm="cavalry", kind="cuirassiers")
    request = req("melee", a, cuirassiers, {"against_cuirassiers"}, phase="3.8", elements=3)
    prepared = R.action("melee").prepare(request)
    check = melee_check(MeleeSituation("aguerri", "infantry", 3, factors=frozenset({"against_cuirassiers"})))
    assert prepared.dice == "3d6>=5" and odds(prepared, "Touches (hits)") == check.odds
    assert odds(prepared, "Touches (hits)")[3] == THIRD**3
    outcome = run(request, 5, 6, 1)
    assert outcome.text.startswith("2 touches (2 hits) on UC d1")
    assert outcome.effects[0].set == {"melee_hits": 2, "round_losses": 0}


def test_melee_counts_the_second_rank_of_a_french_column_in_round_1():
    a = unit("a1", formation="attack_column", states={"charging": 1})
    d = unit("d1", DEFENDER)
    prepared = R.action("melee").prepare(req("melee", a, d, {"french_column"}, phase="3.8", elements=2, second_rank=2))
    assert prepared.dice == "4d6>=4"
    with pytest.raises(RulesError, match="French doctrine"):
        R.action("melee").prepare(req("melee", a, d, phase="3.8", elements=2, second_rank=2))


def test_after_melee_test_pass_fall_back_or_fight_on_fail_rout():
    a, d = unit("a1", round_losses=2), unit("d1", DEFENDER, round_losses=1)
    request = req("after_melee_test", a, d, {"fall_back"}, phase="3.9")
    assert run(request, 4).effects[0].add == {"fallen_back": 1}
    fight = run(req("after_melee_test", a, d, phase="3.9"), 4)
    assert fight.text == "réussi: poursuite du combat, allez à (c) (passed: fights on, back to (c))"
    assert run(request, 3).text == "raté: rupture (failed: rout)"
    with pytest.raises(RulesError, match="only the side that lost more tests"):
        R.action("after_melee_test").prepare(req("after_melee_test", d, a, phase="3.9",
                                                 options={"melee_morale_test": "loser"},
                                                 own_losses=1, enemy_losses=2))


def test_the_winner_pursues_at_its_pursuit_speed():
    a, d = unit("a1", arm="cavalry"), unit("d1", DEFENDER, states={"rout": None})
    assert R.action("pursuit").prepare(req("pursuit", a, d, phase="3.10")).needed == "20 cm"
    with pytest.raises(RulesError, match="is not the vainqueur"):
        R.action("pursuit").prepare(req("pursuit", a, unit("d2", DEFENDER), phase="3.10"))
    assert run(req("new_contact", a, phase="3.11")).text.startswith("pas de nouveau contact: les autres UC du UM peuvent avancer 10 cm")


def test_only_uc_that_stood_still_lose_their_markers():
    a = unit("a1", states={"disordered": None})
    assert run(req("stand_still", a, phase="3.12")).effects[0].clear == ("disordered", "rallying")
    with pytest.raises(RulesError, match="stood still"):
        R.action("stand_still").prepare(req("stand_still", unit("a2", states={"disordered": None, "moved": 1}), phase="3.12"))


# -- Phase 1 ------------------------------------------------------------------------------


def test_a_uc_tests_when_it_has_lost_more_than_half_its_ec():
    with pytest.raises(RulesError, match="not more than half"):
        R.action("loss_test").prepare(req("loss_test", unit("a1", size=3, start=6), phase="1.1"))
    prepared = R.action("loss_test").prepare(req("loss_test", unit("a1", size=2, start=6), phase="1.1"))
    assert prepared.dice == "1d6>=4"


def test_a_um_that_fails_breaks_all_its_uc():
    one, two = unit("a1", size=1, start=6, um="1re brigade"), unit("a2", size=4, start=6, um="1re brigade")
    units = {"a1": one, "a2": two}
    outcome = run(req("um_test", two, phase="1.1", units=units), 2)
    assert outcome.text.startswith("UM 1re brigade: raté: rupture")
    assert {e.unit for e in outcome.effects} == {"a1", "a2"}


def test_um_strength_option_counts_its_uc_instead():
    # 2 UC of 6 EC, one lost 4 EC: 4 of 12 EC is not more than half; under um_strength = uc,
    # one of its 2 UC broken is not more than half either, and two of three is.
    one, two = unit("a1", size=2, start=6, um="1re"), unit("a2", um="1re")
    with pytest.raises(RulesError, match="lost 4 of its 12 EC: not more than half"):
        R.action("um_test").prepare(req("um_test", two, phase="1.1", units={"a1": one, "a2": two}))
    broken = [unit(f"a{n}", um="1re", states={"rout": None}) for n in (3, 4)]
    units = {u.id: u for u in [two, *broken]}
    prepared = R.action("um_test").prepare(req("um_test", two, phase="1.1", units=units, options={"um_strength": "uc"}))
    assert prepared.dice == "1d6>=4"


def test_a_division_tests_when_it_has_lost_more_than_half_its_um():
    units = {u.id: u for u in [unit("a1", um="1re", states={"rout": None}), unit("a2", um="2e", removed=True),
                                unit("a3", um="3e", quality="veteran/hesitant")]}
    units["a2"] = Unit("a2", "UC a2", ATTACKER, "infantry", 0, 6, units["a2"].attrs, {}, None, True)
    outcome = run(req("division_test", units["a3"], phase="1.2", units=units), 4)
    assert outcome.text == "division attacker: raté: rupture (failed: rout)"  # Hésitant 5 +
    assert [e.unit for e in outcome.effects] == ["a3"]


# -- what the card lists beyond the first resolver: priorities, generals, ranks ----------


def test_fire_names_the_cards_priority_of_its_target():
    # No claim ticked and no nearer enemy: e) 'L'unité ennemie la plus proche.'
    a, d = unit("a1"), unit("d1", DEFENDER)
    prepared = R.action("fire").prepare(req("fire", a, d, distance=8))
    assert prepared.notes[0] == "Cible prioritaire (priority target): e) L'unité ennemie la plus proche."
    # b) 'à 10 cm ou -' and able to charge or fire at the firer comes before a nearer enemy
    prepared = R.action("fire").prepare(req("fire", a, d, {"priority_b", "nearer_enemy"}, distance=8))
    assert prepared.notes[0].startswith("Cible prioritaire (priority target): b) Une unité ennemie à 10 cm ou -")


def test_a_target_that_is_no_priority_is_refused():
    a, d = unit("a1"), unit("d1", DEFENDER)
    with pytest.raises(RulesError, match=r"fires at its priority target, e\) L'unité ennemie la plus proche"):
        R.action("fire").prepare(req("fire", a, d, {"nearer_enemy"}, distance=8))
    # b) is for an enemy at 10 cm or less: at 15 cm it claims nothing
    with pytest.raises(RulesError, match="none of a\\) to d\\)"):
        R.action("fire").prepare(req("fire", a, d, {"priority_b", "nearer_enemy"}, distance=15))
    with pytest.raises(RulesError, match="not artillery"):
        req("fire", a, d, {"priority_d"})


def test_artillery_with_its_general_fires_at_the_unit_of_its_choice_d():
    guns, d = unit("a1", arm="artillery"), unit("d1", DEFENDER)
    prepared = R.action("fire").prepare(req("fire", guns, d, {"priority_d", "nearer_enemy"}, distance=30))
    assert prepared.notes[0].startswith("Cible prioritaire (priority target): d) L'unité de son choix")


def test_defensive_fire_is_at_the_charger_a_pre_filled_from_the_charge():
    d, a = unit("d1", DEFENDER, states={"charged": 1}), unit("a1", states={"charging": 1})
    ticks = {t.id: t for t in R.action("fire").ticks(d, a)}
    assert ticks["priority_a"].checked and not ticks["nearer_enemy"].checked
    prepared = R.action("fire").prepare(req("fire", d, a, {"priority_a", "nearer_enemy"}, phase="3.5", distance=5))
    assert prepared.notes[0] == "Cible prioritaire (priority target): a) Les unités qui chargent l'unité qui tire."


def test_a_killed_brigade_general_is_replaced_in_step_1_3():
    a = unit("a1", um="1re brigade")
    may_act(R, at("1.3"), "replace_general", ATTACKER)
    outcome = run(req("replace_general", a, None, {"killed"}, phase="1.3"))
    assert outcome.text.startswith("UM 1re brigade: général de brigade tué (killed) remplacé")
    assert outcome.effects == ()
    with pytest.raises(RulesError, match="killed or captured"):
        R.action("replace_general").prepare(req("replace_general", a, None, {"killed", "captured"}, phase="1.3"))


def test_filling_the_ranks_takes_off_the_ec_whose_figures_are_gone():
    # under loss_unit = figure the saves take off figures; step 2.1 takes off the emptied EC
    a = unit("a1", size=3, start=6)  # 3 of 6 EC lost is half; one more is '+ de la moitié'
    figures = {"loss_unit": "figure"}
    may_act(R, at("2.1"), "fill_ranks", ATTACKER)
    outcome = run(req("fill_ranks", a, phase="2.1", options=figures, ec_off=1))
    assert outcome.text == "rangs comblés (ranks filled): 1 EC off; it has lost more than half its EC: it tests at Phase 1"
    assert apply_effects({"a1": a}, outcome.effects)["a1"].size == 2
    with pytest.raises(RulesError, match="loss_unit = ec"):
        R.action("fill_ranks").prepare(req("fill_ranks", a, phase="2.1", ec_off=1))
    with pytest.raises(RulesError, match="must be a whole number of 0 to 3"):
        req("fill_ranks", a, phase="2.1", options=figures, ec_off=4)


def test_limbered_artillery_with_no_battery_named_moves_as_foot_artillery():
    # 'Artilerie à pied attelée' 15 cm in good going
    guns = unit("a1", arm="artillery", formation="limbered", battery="-")
    assert R.action("move").prepare(req("move", guns, phase="2.4")).needed == "15 cm"


def test_the_card_s_decimal_distance_7_5_cm():
    # 'Autres armes 1 20 7,5 +': long range (+2) from 7,5 cm, typed as the card prints it
    distance = next(n for n in R.action("fire").numbers(unit("a1"), None) if n.id == "distance")
    assert distance.decimal and distance.parse("7,5") == 7.5 and distance.parse("7.5") == 7.5
    assert distance.parse("7,55x") == "7,55x" and distance.parse("12") == 12
    a, d = unit("a1", weapon="other"), unit("d1", DEFENDER)
    at_long = R.action("fire").prepare(req("fire", a, d, firing_ec=3, distance=7.5)).needed
    short = R.action("fire").prepare(req("fire", a, d, firing_ec=3, distance=7)).needed
    assert "Longue portée (Long range) +2" in at_long and "Longue portée" not in short
    with pytest.raises(RulesError, match="must be a whole number of 1"):  # EC firing stay whole
        req("fire", a, d, firing_ec=2.5, distance=7.5)

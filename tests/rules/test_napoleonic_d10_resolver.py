"""napoleonic_d10 on the resolver screen: each resolution's number needed and odds
agree with the rule set's procedures and with worked examples read off the card
(../shared/seeds/001_c4de82bc21018f2c.txt), the dice typed in give the card's
words and the right effects, and impossible requests are refused in one sentence.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import ENTERED, DiceService
from rules.errors import RulesError
from rules.napoleonic_d10 import charge, fire, initiative, morale, movement, skirmish
from rules.napoleonic_d10.resolver import RESOLVER as R
from rules.options import resolve_options
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
    roll_prepared,
)

ARMS = {"infantry": {"weapon": "musket", "formation": "line"}, "cavalry": {"cavalry_type": "light", "formation": "line"},
        "artillery": {"gun": "6pdr", "battery": "6pdr"}}


def unit(uid, side, arm="infantry", size=6, states=None, **attrs):
    return Unit(uid, uid, side, arm, size, size, R.attrs_for({**ARMS[arm], **attrs}), dict(states or {}))


def paired(actor, target):
    """The two units of a resolution in contact, as the charge that brought them together leaves them:
    these tests read the card's procedures for the pair (the contact rule is tested in test_resolver.py)."""
    return (Contact(target.id, actor.id),) if target is not None and target.side != actor.side else ()


def req(action, actor, target=None, ticked=(), numbers=None, units=(), battle=None, **options):
    everyone = {u.id: u for u in (actor, target, *units) if u is not None}
    request = Request(action, actor, target, frozenset(ticked), dict(numbers or {}),
                      resolve_options("napoleonic_d10", options), everyone, contacts=paired(actor, target),
                      battle=dict(battle or {}))
    check_request(R, request)
    return request


def prepare(request):
    return R.action(request.action).prepare(request)


def resolve(request, raw):
    prepared = prepare(request)
    record = roll_prepared(DiceService(seed=0, mode=ENTERED), prepared, "test", raw) if raw else None
    return R.action(request.action).resolve(request, record)


def odds(prepared, heading=None):
    return dict(prepared.odds[0][1]) if heading is None else dict(next(o for h, o in prepared.odds if h == heading))


def effect_on(outcome, unit_id):
    return next(e for e in outcome.effects if e.unit == unit_id)


# -- the sequence of play -----------------------------------------------------------


def test_the_turn_is_one_checklist_for_both_sides_starting_with_initiative():
    assert not R.alternating
    assert [p.id for p in R.phases] == ["initiative", "movement", "charges", "fire", "melee", "morale"]
    assert R.phases[0].actions == ("initiative",)
    assert "roll for initiative at the beginning of the turn" in R.phases[0].printed
    assert "All units must roll to move" in R.phases[1].printed
    assert all(p.acts == "both" for p in R.phases)


def test_wrong_phase_is_refused_in_one_sentence():
    with pytest.raises(RulesError, match="Fire is not done in the Initiative phase; it is done in: Charges, Fire"):
        may_act(R, Position(phase=0), "fire", ATTACKER)
    assert may_act(R, Position(phase=2), "morale", DEFENDER).id == "charges"  # 'Check morale every time'


def test_initiative_must_be_rolled_before_the_phase_ends():
    # who holds the initiative is the battle's, not a unit's
    assert R.pending("initiative", {}) == [
        "the two army commanders roll for initiative at the beginning of the turn (r on any unit)"]
    assert R.pending("initiative", {"initiative": ATTACKER}) == []
    assert R.pending("initiative", {"turn_over": True}) == []
    assert R.pending("movement", {}) == []
    assert [v.id for v in R.battle_state] == ["initiative", "turn_over", "initiative_held"]
    assert [v.lasts for v in R.battle_state] == ["turn", "turn", "battle"]
    assert R.battle_value("initiative").text(DEFENDER) == "Initiative: the defender moves first"


# -- initiative -----------------------------------------------------------------------


def test_initiative_odds_are_the_procedures_and_a_turn_ends_on_17_one_time_in_ten():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    p = prepare(req("initiative", a, None, ["own_superior"], {"grand_tac_own": 1}, units=[d]))
    expected = initiative.initiative_odds(initiative.Commander("superior", 1), initiative.Commander("average"))
    assert odds(p) == {"attacker wins": expected["first"], "defender wins": expected["second"], "equal": expected["equal"]}
    # 17-20 on two d10: 4 + 3 + 2 + 1 of 100 throws
    assert odds(p, "The turn ends immediately")["yes"] == Fraction(10, 100)
    # each commander's die is named, its own expression: the acting side's first
    assert [(r.label, r.dice, r.side) for r in p.rolls] == [("the attacker's commander", "1d10", ATTACKER),
                                                            ("the defender's commander", "1d10", DEFENDER)]
    assert "Superior +3" in p.needed and "Grand-Tac (1 points) +1" in p.needed


def test_initiative_winner_moves_first_and_holds_it_for_the_turn():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    out = resolve(req("initiative", a, None, ["other_poor"], units=[d]), [3, 3])  # 3 against 3-1
    assert out.text == "3 against 2: the high modified die wins; the attacker has the initiative and moves first"
    assert out.battle == {"initiative": ATTACKER, "initiative_held": ATTACKER} and out.effects == ()
    with pytest.raises(RulesError, match="initiative was rolled this turn: the attacker moves first"):
        prepare(req("initiative", d, units=[a], battle=out.battle))


def test_initiative_rolls_of_17_end_the_turn_and_stop_the_phases():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    out = resolve(req("initiative", a, units=[d]), [9, 8])
    assert "the turn ends immediately" in out.text and out.battle == {"turn_over": True}
    with pytest.raises(RulesError, match="the turn has ended .*: n goes on to the next turn"):
        prepare(req("move", d, units=[a], battle=out.battle))


def test_equal_dice_roll_again_or_the_holder_keeps_it():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    assert "both commanders roll again" in resolve(req("initiative", a, units=[d]), [5, 5]).text
    kept = resolve(req("initiative", a, None, ["holds"], units=[d], initiative_tie="holder_keeps"), [5, 5])
    assert kept.battle["initiative"] == ATTACKER


def test_initiative_asks_for_no_enemy_unit_the_winner_s_army_holds_it():
    # the defender rolls first here; the attacker's army wins and its first unit holds the initiative
    d, a1, a2 = unit("d1", DEFENDER), unit("a1", ATTACKER), unit("a2", ATTACKER)
    out = resolve(req("initiative", d, units=[a2, a1]), [2, 9])
    assert "the attacker has the initiative" in out.text and out.battle["initiative"] == ATTACKER
    assert not out.effects  # no unit carries it
    with pytest.raises(RulesError, match="Initiative takes no target"):
        req("initiative", d, a1)


def test_two_ratings_for_one_commander_are_refused():
    with pytest.raises(RulesError, match="tick one rating for this side's commander only"):
        prepare(req("initiative", unit("a1", ATTACKER), None, ["own_good", "own_poor"], units=[unit("d1", DEFENDER)]))


# -- movement -------------------------------------------------------------------------


def test_movement_needed_and_odds_read_off_the_card():
    # 'Average Full Full 3/4 1/2 NM NM' right-aligned under 7 6 5 4 3 2: NM 2-3, 1/2 on 4, 3/4 on 5, Full 6 and up
    a = unit("a1", ATTACKER)
    p = prepare(req("move", a))
    assert p.needed == "2d10 (no modifiers): NM on 2-3, 1/2 on 4, 3/4 on 5, Full on 6-20"
    assert odds(p) == {"NM": Fraction(3, 100), "1/2": Fraction(3, 100), "3/4": Fraction(4, 100), "Full": Fraction(90, 100)}
    assert odds(p) == movement.movement_check(movement.MovementSituation("line", "average", 9)).odds()


def test_movement_result_gives_the_distance_and_marks_the_move():
    out = resolve(req("move", unit("a1", ATTACKER)), [5, 0 + 5])
    assert out.text == 'Full: moves up to 4" in line (18" on road)'
    assert out.effects[0].add == {"rolled_to_move": 1, "moved": 2}
    half = resolve(req("move", unit("a1", ATTACKER, formation="column")), [2, 2])
    assert half.text == '1/2: moves up to 4" in column (9" on road)'
    assert resolve(req("move", unit("a1", ATTACKER)), [1, 2]).text == "NM (No movement)"


def test_movement_modifiers_come_from_cw_level_states_and_ticks():
    a = unit("a1", ATTACKER, cw_level=16, states={"shaken": 2, "moved": 1})
    ticks = {t.id: t for t in R.action("move").ticks(a, None)}
    assert ticks["moved_last_turn"].checked  # moved last turn: its 'moved' has one turn left
    p = prepare(req("move", a, ticked=["moved_last_turn", "vacating_cover"]))
    assert "15–19 CW +1, Shaken -1, Vacating Cover -2, Moved Last Turn +1" in p.needed


def test_movement_refusals():
    with pytest.raises(RulesError, match="is broken: it makes its Morale Loss Move"):
        prepare(req("move", unit("a1", ATTACKER, states={"broken": 3})))
    with pytest.raises(RulesError, match="has rolled to move this turn"):
        prepare(req("move", unit("a1", ATTACKER, states={"rolled_to_move": 1})))


def test_guns_read_the_artillery_movement_table():
    out = resolve(req("move", unit("g1", DEFENDER, "artillery", 8)), [6, 6])
    # '6pdr 18" 8" 6" 2" NA 1-1/2"'
    assert out.text.endswith('Road 18"; Field 8"; Limber+Move or Move+Unlimber 6"; Move+Unlimber+Fire 2"; '
                             'Limber+Move+Unlimber+Fire NA; Prolong/AP 1-1/2"')


# -- fire ---------------------------------------------------------------------------------


def test_fire_needed_and_odds_read_off_the_card():
    # line 6: '6 9 8 8 7 7 6 6 5 5 4' under 15+ 14 13 12-10 9-7 6-4 3 2 1 0; Short 2" NE
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    p = prepare(req("fire", a, d, numbers={"distance": 2}))
    assert p.needed == '1d10 (Short 2" +0): 5 on 1-2, 6 on 3-6, 7 on 7-10 casualty steps'
    assert odds(p) == {"5": Fraction(2, 10), "6": Fraction(4, 10), "7": Fraction(4, 10)}
    assert odds(p) == fire.fire_check(fire.FireSituation("musket", 2, stands=6)).odds()


def test_fire_hits_take_stands_by_castings_and_call_a_morale_check():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    out = resolve(req("fire", a, d, numbers={"distance": 1}), [8])  # 8 + 2 close action = 10: 7 steps
    assert out.text == "7 casualty steps; 1 AP spent; d1 checks morale: Hit after class break point"
    hit = effect_on(out, "d1")
    assert hit.lost == 2 and hit.set["steps_lost"] == 7  # 3 castings a stand
    assert hit.add == {"morale_due": None}
    assert effect_on(out, "a1").set == {"ap_spent": 1}
    after = apply_effects({"a1": a, "d1": d}, out.effects)
    assert R.unfinished("fire", after) == ["d1 must check morale: Hit after class break point"]


def test_fire_below_zero_is_no_effect_not_an_error():
    # 'Rolls modified to 0³� = NE': Extreme 6" -9 and Heavy Cover -8 leave every roll below 0
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    p = prepare(req("fire", a, d, ["heavy_cover"], {"distance": 6}))
    assert odds(p) == {"NE": 1}
    out = resolve(req("fire", a, d, ["heavy_cover"], {"distance": 6}), [10])
    assert out.text.startswith("NE (no effect)") and effect_on(out, "d1").lost == 0


@pytest.mark.parametrize("choice, expected", [("column", "4 casualty steps"), ("no_effect", "NE (no effect)")])
def test_a_roll_modified_to_zero_by_option_fire_roll_zero(choice, expected):
    # Medium 4" -3, Sparse Cover -1: a natural 4 is modified to 0; column 0 of 6 stands prints 4
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    out = resolve(req("fire", a, d, ["sparse_cover"], {"distance": 4}, fire_roll_zero=choice), [4])
    assert out.text.startswith(expected)


def test_a_natural_10_rolls_again_for_ammunition():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    out = resolve(req("fire", a, d, numbers={"distance": 2}), [10])
    assert "a natural 10: roll again for ammunition" in out.text
    a = apply_effects({"a1": a, "d1": d}, out.effects)["a1"]
    assert R.unfinished("fire", {"a1": a}) == ["a1 rolled a natural 10: roll again for ammunition"]
    again = resolve(req("ammunition", a), [8])  # '8-9 = 2 AP'
    assert again.text == "2 AP more spent" and again.effects[0].set == {"ap_spent": 3}


def test_guns_fire_by_tubes_and_canister():
    g, a = unit("g1", DEFENDER, "artillery", 8), unit("a1", ATTACKER)
    p = prepare(req("fire", g, a, ["canister"], {"distance": 3}))
    # 8 tubes fire on the 4-stand line; 6pdr 'Cannister 0–4" +5'
    assert p.needed.startswith('1d10 (Cannister 0–4" +5)')
    assert odds(p) == fire.fire_check(fire.FireSituation("6pdr", 3, tubes=8, ammunition="canister", ap=2)).odds()


def test_fire_refusals():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    with pytest.raises(RulesError, match="Initial Fire \\+1: a gun modifier, not one for small arms"):
        req("fire", a, d, ["initial_fire"])
    with pytest.raises(RulesError, match="a routed or broken unit may not fire"):
        prepare(req("fire", unit("a1", ATTACKER, states={"broken": 3}), d))
    with pytest.raises(RulesError, match=r"has no fire arms: give it a .* first \(e edits the unit\)"):
        prepare(req("fire", unit("c1", ATTACKER, "cavalry", 4, weapon="-"), d))
    with pytest.raises(RulesError, match="tick one cover for the target only"):
        prepare(req("fire", a, d, ["light_cover", "heavy_cover"]))


# -- morale ----------------------------------------------------------------------------------


def test_morale_needed_and_odds_read_off_the_card():
    # CW 9 is the 9-10 column: 0-2 Brok, 3-5 DOR, 6-8 and up NE
    a = unit("a1", ATTACKER)
    p = prepare(req("morale", a))
    assert p.needed == "2d10 (no modifiers): Brok on 2, DOR on 3-5, NE on 6-20"
    assert odds(p) == {"Brok": Fraction(1, 100), "DOR": Fraction(9, 100), "NE": Fraction(90, 100)}
    assert odds(p) == morale.morale_check(morale.MoraleSituation("line", cw=9)).odds()


def test_morale_result_in_the_cards_words_with_its_state_and_duration():
    a = unit("a1", ATTACKER, states={"shaken": 2, "morale_due": None})
    out = resolve(req("morale", a), [3, 2])  # 5, Shaken -2: 3, row 3-5 of the 9-10 column
    assert out.text == 'DOR = Disordered, moves 5" back facing the enemy'
    assert out.effects[0].add == {"disordered": 2} and set(out.effects[0].clear) == {"morale_due", "shaken"}
    broken = resolve(req("morale", unit("a1", ATTACKER)), [1, 1])
    assert broken.effects[0].add == {"broken": 3}  # '2 Full Turns' after this one
    short = resolve(req("morale", unit("a1", ATTACKER), loss_duration="this_turn_counts"), [1, 1])
    assert short.effects[0].add == {"broken": 2}


def test_a_worse_state_is_kept():
    out = resolve(req("morale", unit("a1", ATTACKER, cw_level=11, states={"broken": 2})), [7, 1])
    # CW 11 column, Broken -4: 8 - 4 = 4, row 3-5 reads DO at 11-12; the unit stays broken
    assert out.text.startswith("DO =") and out.effects[0].add == {}


def test_rout_and_surrender_remove_the_unit():
    a = unit("a1", ATTACKER, cw_level=0, steps_lost=3, size=5)
    rout = resolve(req("morale", a), [4, 4])  # CW ≤0, row 6-8: Rout
    assert rout.text.startswith('Rout = Rout: moves 12" back, unit removed') and rout.effects[0].removed
    assert rout.effects[0].lost == 0  # option routed_stands = kept
    assert resolve(req("morale", a, routed_stands="lost"), [4, 4]).effects[0].lost == 5
    near = resolve(req("morale", a, numbers={"enemy_within": 2}), [1, 1])  # row 0-2: Surr
    assert near.effects[0].removed and near.effects[0].lost == 5
    far = resolve(req("morale", a), [1, 1])
    assert "it routs" in far.text and far.effects[0].lost == 0


def test_a_roll_of_twenty_reads_the_top_row_whatever_the_off_table_option():
    # CW ≤0, row 18-19: SH. 2d10 roll 20 without any modifier.
    a = unit("a1", ATTACKER, cw_level=0)
    assert resolve(req("morale", a, morale_roll_beyond_table="ask_umpire"), [10, 10]).text.startswith("SH")
    asked = resolve(req("morale", a, morale_roll_beyond_table="ask_umpire", morale_roll_of_twenty="beyond_table"), [10, 10])
    assert "the umpire reads the result" in asked.text


def test_morale_modifiers_from_state_leader_and_ticks():
    a = unit("a1", ATTACKER, states={"disordered": 2, "firefight": None}, leader_rating="good", leader_level="division")
    ticks = {t.id: t for t in R.action("morale").ticks(a, None)}
    assert ticks["in_firefight"].checked
    p = prepare(req("morale", a, ticked=["in_firefight", "medium_cover"]))
    assert p.needed.startswith("2d10 (Disordered -3, In Firefight +1, Medium Cover +3, Good division leader at brigade (IL) +1)")
    with pytest.raises(RulesError, match="tick one cover only"):
        prepare(req("morale", a, ticked=["sparse_cover", "entrenched"]))


# -- charges and melee ----------------------------------------------------------------------------


def test_charge_modifiers_and_odds_are_the_procedures():
    c, d = unit("c1", ATTACKER, "cavalry", 4), unit("d1", DEFENDER)
    p = prepare(req("charge", c, d))
    assert "attacker 1d10 (Cav vs. Inf Line +6) against defender 1d10 (Mass… 1.5x +2)" in p.needed
    situation = charge.ChargeSituation(charge.ChargeSide("light_cavalry", "line", 4, 9), charge.ChargeSide("infantry", "line", 6, 9))
    assert odds(p) == charge.charge_check(situation).odds()


def test_a_charge_won_by_11_or_more_makes_the_defender_surrender_a_percentage():
    c, d = unit("c1", ATTACKER, "cavalry", 4), unit("d1", DEFENDER)
    out = resolve(req("charge", c, d), [9, 1])  # 9 + 6 - (1 + 2) = 12: '11+'
    assert out.text.startswith("The defender rolls 1d10 to determine the percentage of the unit which surrenders.")
    assert "the cavalry may Ride Down d1" in out.text
    d = apply_effects({"d1": d}, out.effects)["d1"]
    assert R.unfinished("charges", {"d1": d}) == ["d1 rolls 1d10 for the percentage of the unit which surrenders"]
    gone = resolve(req("surrender", d), [4])  # 40% of 18 castings = 7.2: 7 castings, 2 stands; the rest rout
    assert gone.text == "40% surrender (7 castings); the remaining figures rout"
    assert gone.effects[0].lost == 2 and gone.effects[0].removed


def test_melee_result_puts_both_sides_in_melee_and_at_least_disordered():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    out = resolve(req("charge", a, d), [5, 5])  # differential 0: MELEE!
    assert out.text.startswith("MELEE! (differential +0)")
    assert effect_on(out, "a1").add == {"disordered": 2, "melee": None}
    units = apply_effects({"a1": a, "d1": d}, out.effects)
    # 'The loser takes ... the difference of the modified die rolls. The winner ... of the unmodified'
    rnd = resolve(req("melee", units["a1"], units["d1"], ["charge_downhill"]), [6, 2])
    assert "a1 wins; a1 takes 4, d1 takes 5 casualty steps; both sides check morale" in rnd.text
    assert effect_on(rnd, "d1").lost == 1 and effect_on(rnd, "d1").add["morale_due"] is None
    units = apply_effects(units, rnd.effects)
    retreat = resolve(req("morale", units["d1"], units=units.values()), [1, 1])  # Disordered -3, row 0-2: Brok
    assert "the melee with a1 ends" in retreat.text
    assert "melee" in effect_on(retreat, "a1").clear


def test_melee_odds_are_the_procedures():
    a, d = unit("a1", ATTACKER, states={"melee": None}), unit("d1", DEFENDER)
    a = Unit(a.id, a.name, a.side, a.arm, a.size, a.start, {**a.attrs, "_melee_with": "d1"}, a.states)  # as a MELEE! result leaves it
    p = prepare(req("melee", a, d))
    check = charge.melee_check(charge.ChargeSituation(charge.ChargeSide("infantry", "line", 6, 9), charge.ChargeSide("infantry", "line", 6, 9)))
    assert odds(p) == {"a1 wins": check.odds()["attacker"], "d1 wins": check.odds()["defender"], "equal": check.odds()["equal"]}


def test_charge_and_melee_refusals():
    a, d, c = unit("a1", ATTACKER), unit("d1", DEFENDER), unit("c1", ATTACKER, "cavalry", 4)
    with pytest.raises(RulesError, match="'Standing Cav' is for charging cavalry only"):
        req("charge", a, d, ["standing_cavalry"])
    with pytest.raises(RulesError, match="a routed or broken unit may not charge"):
        prepare(req("charge", unit("a1", ATTACKER, states={"broken": 3}), d))
    with pytest.raises(RulesError, match="is not in a melee with d1"):
        prepare(req("melee", a, d))
    with pytest.raises(RulesError, match="only cavalry rides down infantry"):
        req("melee", a, d, ["ride_down"])
    assert prepare(req("melee", c, d, ["ride_down"])).needed.startswith("c1 (Cav vs. Inf Line +6")
    with pytest.raises(RulesError, match="has no charge result that makes it surrender"):
        prepare(req("surrender", d))


# -- the class dice rolls: local initiative, disruptive terrain, skirmish, fire discipline, crash through


@pytest.mark.parametrize("action, ticked, numbers, needed", [
    # 'Normal AA AA AA NA NA —' under 9 8 7 6 5 4
    ("local_initiative", [], {}, "2d10 (no modifiers): — on 2-4, NA on 5-6, AA on 7-20"),
    # 'D2 NE NE SH DO DO(20)' under ≥6 5 4 3 2≤
    ("disruptive_terrain", ["d2"], {}, "2d10 (no modifiers): DO(20) on 2, DO on 3, SH on 4, NE on 5-20"),
    # 'Line NE NE Smk SH(20) DO(40) DOR(40)' under ≥8 7 6 5 2–4 1≤, screen mods -2
    ("skirmish", [], {"screen_mods": -2}, "2d10 (screen mods -2): DOR(40) on 2-3, DO(40) on 4-6, SH(20) on 7, Smk on 8, NE on 9-20"),
    # Normal column: 2- 4" FF, 3 2" FF, 4 1" FF, 5 4" fire, 6 2" fire, 7 1" fire, 8 free
    ("fire_discipline", [], {}, '2d10 (no modifiers): 4" FF on 2, 2" FF on 3, 1" FF on 4, 4" fire on 5, 2" fire on 6, 1" fire on 7, free on 8-20'),
    # '12+ NE', '10-11 Smk', '4-9 Smk/Shaken', '3- Smk/DO'
    ("crash_through", [], {}, "2d10 (no modifiers): Smk/DO on 2-3, Smk/Shaken on 4-9, Smk on 10-11, NE on 12-20"),
])
def test_class_dice_rolls_read_off_the_card(action, ticked, numbers, needed):
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    target = d if action == "skirmish" else None
    assert prepare(req(action, a, target, ticked, numbers)).needed == needed


def test_class_dice_rolls_odds_are_the_procedures():
    a = unit("a1", ATTACKER)
    assert odds(prepare(req("local_initiative", a))) == initiative.local_initiative_check("line").odds()
    assert odds(prepare(req("disruptive_terrain", a, ticked=["d3"]))) == skirmish.disruption_check("line", "D3").odds()
    elite = unit("e1", ATTACKER, quality="elite")
    p = prepare(req("skirmish", elite, unit("d1", DEFENDER)))
    assert p.dice == "3d10kh2" and odds(p) == skirmish.skirmish_check("elite").odds()


def test_class_dice_results_put_their_states_on():
    a = unit("a1", ATTACKER)
    terrain = resolve(req("disruptive_terrain", a, ticked=["d2"]), [1, 1])
    assert terrain.text.startswith("DO(20); (20): the card does not say what the number in brackets counts")
    assert terrain.effects[0].add == {"disordered": 2}
    crash = resolve(req("crash_through", a), [2, 3])
    assert crash.text == "Smk/Shaken" and crash.effects[0].add == {"shaken": 2, "smoke": None}
    screen = resolve(req("skirmish", a, unit("d1", DEFENDER), numbers={"screen_mods": -2}), [1, 1])
    assert screen.text == 'DOR(40); moves 5" back/facing; (40): the card does not say what the number in brackets counts, the umpire applies it'
    ff = resolve(req("fire_discipline", a, ticked=["smoke"]), [2, 2])  # In smoke, 4: '4" FF'
    assert ff.text == '4" FF (Firefight)' and ff.effects[0].add == {"firefight": None}
    assert resolve(req("local_initiative", a), [5, 5]).text.startswith("AA = Aggresive Action")


def test_disruptive_terrain_needs_its_degree():
    with pytest.raises(RulesError, match="tick the degree of the disruptive terrain"):
        prepare(req("disruptive_terrain", unit("a1", ATTACKER)))


# -- what the card lists beyond the tables: who acts, terrain, defensive fire, continuing, morale causes ----


def test_each_phase_says_who_acts_in_the_cards_words():
    who = {p.id: p.who for p in R.phases}
    assert who["initiative"] == "the two army commanders roll 1d10; the high modified die moves first"
    assert who["movement"].startswith("all units must roll to move")
    assert 'defensive fire at 4" (guns: Short)' in who["charges"]
    assert all(who.values())


def test_terrain_effects_on_the_move_by_arm():
    # 'Light Woods 3/4 1/2', 'Linear Obstical 1" 3"', 'Heavy Woods 1/4 NM', 'Gradual Slope NE NE'
    a = unit("a1", ATTACKER)
    ticks = {t.id: t.label for t in R.action("move").ticks(a, None)}
    assert ticks["light_woods"] == "Terrain Effects: Light Woods (INF/CAV 3/4)"
    out = resolve(req("move", a, ticked=["light_woods", "linear_obstacle"]), [5, 5])
    assert out.text == 'Full: moves up to 4" in line (18" on road); Light Woods: 3/4 of the distance while in it; Linear Obstical: crossing costs 1"'
    g = unit("g1", DEFENDER, "artillery", 8)
    out = resolve(req("move", g, ticked=["heavy_woods", "gradual_slope", "linear_obstacle"]), [6, 6])
    assert out.text.endswith('; Heavy Woods: NM (may not move there); Linear Obstical: crossing costs 3"; Gradual Slope: NE (no effect)')


def test_defensive_fire_reaches_the_def_fire_range_in_the_charges_phase():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    assert "casualty step" in resolve(req("fire", d, a, ["defensive_fire"], {"distance": 4}), [5]).text  # Small Arms 4"
    with pytest.raises(RulesError, match='d1 gives defensive fire up to 4"'):
        prepare(req("fire", d, a, ["defensive_fire"], {"distance": 5}))
    g = unit("g1", DEFENDER, "artillery", 8)  # 6pdr: Artillery Short, 'Short, Ball 0–8"'
    prepare(req("fire", g, a, ["defensive_fire"], {"distance": 8}))
    with pytest.raises(RulesError, match='up to 8"'):
        prepare(req("fire", g, a, ["defensive_fire"], {"distance": 9}))
    fire_phase = Request("fire", d, a, frozenset({"defensive_fire"}), {"distance": 2},
                         resolve_options("napoleonic_d10", {}), {"a1": a, "d1": d}, phase="fire")
    with pytest.raises(RulesError, match="defensive fire is given at chargers, in the Charges phase"):
        prepare(fire_phase)


def test_a_charge_that_occupies_may_continue_within_4_or_6_inches():
    a, d, c = unit("a1", ATTACKER), unit("d1", DEFENDER), unit("c1", ATTACKER, "cavalry", 4)
    out = resolve(req("charge", a, d, numbers={"next_target": 3}), [9, 5])  # +4: 'Defender recoils 2"'
    assert out.text.endswith('a1 may continue the charge: the next target is less than 4" from the position occupied')
    out = resolve(req("charge", a, d, numbers={"next_target": 5}), [10, 1])
    assert out.text.endswith('the next target is not less than 4" away: the charge does not continue')
    assert "may continue the charge" in resolve(req("charge", c, d, numbers={"next_target": 5}), [9, 1]).text  # cavalry 6"
    assert "continue" not in resolve(req("charge", a, d, numbers={"next_target": 3}), [7, 5]).text  # FIREFIGHT: no occupying
    assert "the charge" not in resolve(req("charge", a, d), [9, 5]).text  # no next target typed


def test_a_friend_breaking_within_3_inches_makes_a_morale_check_due():
    a = unit("a1", ATTACKER)
    out = resolve(req("friend_breaks", a, numbers={"friend_within": 3}), None)
    assert out.text == 'a1 checks morale: Friendly unit within 3" breaks or routs'
    due = apply_effects({"a1": a}, out.effects)
    assert R.unfinished("morale", due) == ['a1 must check morale: Friendly unit within 3" breaks or routs']
    far = resolve(req("friend_breaks", a, numbers={"friend_within": 4}), None)
    assert far.text == 'the friend was more than 3" away: no morale check' and not far.effects


def test_a_disordered_unit_passing_through_makes_the_friend_check_morale():
    a, passer = unit("a1", ATTACKER), unit("a2", ATTACKER, states={"disordered": 2})
    out = resolve(req("pass_through", passer, a), None)
    assert out.text == "a1 checks morale: Disordered or worse unit PASSES THROUGH."
    assert effect_on(out, "a1").add == {"morale_due": None}
    with pytest.raises(RulesError, match="only a Disordered or worse unit passing through"):
        prepare(req("pass_through", a, passer))
    with pytest.raises(RulesError, match="takes a friendly unit as its target"):
        req("pass_through", passer, unit("d1", DEFENDER))


def test_a_contest_of_the_initiative_shows_the_command_radius():
    a, d = unit("a1", ATTACKER), unit("d1", DEFENDER)
    p = prepare(req("contest_initiative", a, d, battle={"initiative": DEFENDER}))
    assert 'Command Radius: Divisional 15", Corps 24", Army 36"' in p.notes


def test_initiative_ticks_the_commanders_ratings_from_the_forces():
    from rules.napoleonic_d10.resolver.initiative import prefill

    leaders = [(ATTACKER, "Ney", "good"), (ATTACKER, "Napoleon", "superior"), (DEFENDER, "Blücher", "poor")]
    assert prefill("initiative", unit("a1", ATTACKER), leaders, {}) == {"own_superior", "other_poor"}
    assert prefill("initiative", unit("d1", DEFENDER), leaders, {}) == {"own_poor", "other_superior"}
    # an average commander has no modifier to tick
    assert prefill("initiative", unit("d1", DEFENDER), [(DEFENDER, "Wittgenstein", "average")], {}) == frozenset()
    assert prefill("move", unit("a1", ATTACKER), leaders, {}) == frozenset()
    # the side that held the initiative last 'holds' it (option initiative_tie = holder_keeps)
    held = {"initiative_held": DEFENDER}
    assert "holds" in prefill("initiative", unit("d1", DEFENDER), leaders, held)
    assert "holds" not in prefill("initiative", unit("a1", ATTACKER), leaders, held)

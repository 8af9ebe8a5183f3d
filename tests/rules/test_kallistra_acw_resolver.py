"""Kallistra's ACW card on the resolver: each resolution's number needed, odds and
result, checked against the card (002_4559601f68b00eee.txt) read by hand."""

from fractions import Fraction

import pytest

from rules.dice import DiceService
from rules.errors import RulesError
from rules.options import resolve_options
from rules.resolver import ATTACKER, DEFENDER, Contact, Request, Unit, apply_effects, check_request, get_resolver

R = get_resolver("kallistra_acw")
OPTIONS = resolve_options("kallistra_acw", None)


def unit(uid, side=ATTACKER, arm="infantry", size=4, states=None, **attrs):
    return Unit(uid, uid, side, arm, size, size, R.attrs_for(attrs), dict(states or {}))


def paired(actor, target):
    """The two units of a resolution in contact, as the charge that brought them together leaves them:
    these tests read the card's procedures for the pair (the contact rule is tested in test_resolver.py)."""
    return (Contact(target.id, actor.id),) if target is not None and target.side != actor.side else ()


def req(action, actor, target=None, ticked=(), options=None, **numbers):
    units = {u.id: u for u in (actor, target) if u is not None}
    r = Request(action, actor, target, frozenset(ticked), numbers, {**OPTIONS, **(options or {})}, units,
                contacts=paired(actor, target))
    check_request(R, r)
    return r


def run(r, *dice):
    action = R.action(r.action)
    prepared = action.prepare(r)
    record = DiceService(seed=0).roll(prepared.dice, "test", entered=list(dice)) if prepared.dice else None
    return prepared, action.resolve(r, record)


def binomial(n, p):
    from math import comb

    return {k: Fraction(comb(n, k)) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


# -- small arms: "Firing (small arms) 1 x D12 per stand", at most 3 of 4 stands fire

def test_small_arms_reads_weapon_range_and_class_with_the_cover_modifiers():
    firers = unit("a1", quality="regular", weapon="RM")
    target = unit("d1", DEFENDER, quality="regular", weapon="RM")
    prepared = R.action("small_arms_fire").prepare(req("small_arms_fire", firers, target, ["wall"], range=2))
    # Rifle musket, Regular, 2 hexes: 7+; "+2 target behind wall": 9+ on each of 3 dice
    assert prepared.dice == "3d12>=9"
    assert prepared.needed.startswith("9+ (7+, +2 target behind wall")
    hits = dict(prepared.odds)["Hits"]
    assert hits == binomial(3, Fraction(4, 12))


def test_hits_wait_on_the_target_and_are_read_once_on_the_combat_table():
    firers = unit("a1", quality="regular", weapon="RM")
    target = unit("d1", DEFENDER, quality="regular")
    _, outcome = run(req("small_arms_fire", firers, target, range=2), 7, 12, 1)
    assert outcome.text.startswith("2 hits on d1")
    target = apply_effects({"d1": target}, outcome.effects)["d1"]
    assert target.attr("hits") == 2
    assert R.unfinished("simultaneous_fire", {"d1": target}) == ["d1 has 2 hits to read on the combat table"]
    # Combat table, Regular column, 2 hits: "Disrupted"
    prepared, outcome = run(req("combat", target))
    assert prepared.dice is None and prepared.needed == "Disrupted"
    after = apply_effects({"d1": target}, outcome.effects)["d1"]
    assert after.has("disrupted") and after.attr("hits") == 0 and after.size == 4


def test_under_the_option_separately_each_fire_reads_the_table_at_once():
    firers = unit("a1", quality="elite", weapon="RM")
    target = unit("d1", DEFENDER, quality="militia")
    r = req("small_arms_fire", firers, target, options={"hits_on_one_hex": "separately"}, range=1)
    _, outcome = run(r, 12, 12, 12)
    # Militia/Recruit Green column, 3 hits: "2 stands lost, Route, Disrupted"
    assert "2 stands lost, Route, Disrupted" in outcome.text
    (effect,) = outcome.effects
    assert effect.lost == 2 and set(effect.add) == {"disrupted", "routing"}


def test_skirmishers_are_a_target_only_at_2_hexes():
    firers = unit("a1", weapon="RM")
    skirmishers = unit("d1", DEFENDER, size=1, skirmishing=True)
    ticks = {t.id: t for t in R.action("small_arms_fire").ticks(firers, skirmishers)}
    assert ticks["skirmishing"].checked and ticks["skirmishing"].label == "+2 skirmishing infantry"
    with pytest.raises(RulesError, match="maximum range of 2 hexes"):
        R.action("small_arms_fire").prepare(req("small_arms_fire", firers, skirmishers, ["skirmishing"], range=3))


# -- artillery: "1D12 for 1/2 stands in hex", canister "4+H, 10+HH" for the 12lb Napoleon

def test_artillery_at_short_range_and_canister_with_double_hits():
    guns = unit("a1", arm="artillery", size=2, gun="12lb")
    target = unit("d1", DEFENDER)
    short = R.action("artillery_fire").prepare(req("artillery_fire", guns, target, range=3))
    assert short.dice == "1d12>=5"  # "5+ (2-4 hexes)"
    # "Canister (1 Hex)per gun": the 2 guns roll a D12 each (option canister_dice = per_gun)
    canister = R.action("canister").prepare(req("canister", guns, target))
    assert canister.needed == "4+H, 10+HH"
    one = {0: Fraction(3, 12), 1: Fraction(6, 12), 2: Fraction(3, 12)}
    assert dict(canister.odds)["Hits"] == {0: Fraction(1, 16), 1: Fraction(1, 4), 2: Fraction(3, 8), 3: Fraction(1, 4), 4: Fraction(1, 16)}
    _, outcome = run(req("canister", guns, target), 11, 3)
    assert outcome.text.startswith("0 H, 1 HH: 2 hits")
    # read on the artillery dice instead, '1D12 for 1/2 stands in hex'
    dice = {"canister_dice": "artillery_dice"}
    assert dict(R.action("canister").prepare(req("canister", guns, target, options=dice)).odds)["Hits"] == one
    _, outcome = run(req("canister", guns, target, options=dice), 11)
    assert outcome.text.startswith("0 H, 1 HH: 2 hits")


def test_artillery_that_moved_cannot_fire_and_canister_is_not_artillery_fire():
    guns = unit("a1", arm="artillery", size=2, gun="6lb", states={"moved": 1})
    target = unit("d1", DEFENDER)
    with pytest.raises(RulesError, match="cannot move in their movement phase and shoot"):
        R.action("artillery_fire").prepare(req("artillery_fire", guns, target, range=3))
    fresh = unit("a2", arm="artillery", size=2, gun="6lb")
    with pytest.raises(RulesError, match="at 1 hex artillery fires canister"):
        R.action("artillery_fire").prepare(req("artillery_fire", fresh, target, range=1))


def test_moving_artillery_marks_it_for_the_bound():
    guns = unit("a1", arm="artillery", size=2, gun="6lb")
    _, outcome = run(req("move", guns))
    assert outcome.effects[0].add == {"moved": 1}
    assert "cannot shoot in this bound" in outcome.text


# -- charges: response "greater than" Elite 2, Regular 3, Green 4; modifiers printed

def test_a_charge_is_declared_then_answered_by_the_charged_unit():
    chargers = unit("a1", quality="regular")
    defenders = unit("d1", DEFENDER, quality="regular")
    with pytest.raises(RulesError, match="has not declared a charge"):
        R.action("response_to_charge").prepare(req("response_to_charge", defenders, chargers))
    _, outcome = run(req("declare_charge", chargers, defenders))
    after = apply_effects({"a1": chargers, "d1": defenders}, outcome.effects)
    chargers = after["a1"]
    assert chargers.has("charging") and after["d1"].has("charged")  # the umpire sees the response is due
    # The movement step cannot end until the charged unit has tested its response.
    assert R.unfinished("movement", after) == ["d1 must test its response to the charge of a1 (Response to charge)"]
    assert R.unfinished("artillery_fire", after) == []
    ticks = {t.id: t.label for t in R.action("response_to_charge").ticks(defenders, chargers)}
    assert ticks["linear_obstacle"] == "-2 defending linear obstacle"
    prepared = R.action("response_to_charge").prepare(req("response_to_charge", defenders, chargers, ["uphill"]))
    # Regular 3, -1 uphill: more than 2 on 1D6 stands, 4 in 6
    assert prepared.needed.startswith("more than 2 on 1d6")
    assert dict(prepared.odds)["Response"] == {"stands": Fraction(2, 3), "routs": Fraction(1, 3)}
    _, failed = run(req("response_to_charge", defenders, chargers, ["uphill"]), 2)
    assert failed.text.startswith("all the stands in the hex must route")
    assert [e.add for e in failed.effects if e.add] == [{"routing": None}]
    answered = apply_effects(after, failed.effects)
    assert R.unfinished("movement", answered) == [] and not answered["d1"].has("charged")


def test_an_evade_answers_every_charge_and_a_second_charger_waits_its_own_test():
    a1, a2 = unit("a1", arm="cavalry", weapon="RC"), unit("a2", quality="regular")
    d1 = unit("d1", DEFENDER, arm="cavalry", weapon="RC")
    units = {"a1": a1, "a2": a2, "d1": d1}
    for charger in ("a1", "a2"):
        _, declared = run(req("declare_charge", units[charger], units["d1"]))
        units = apply_effects(units, declared.effects)
    assert R.unfinished("movement", units) == [
        "d1 must test its response to the charge of a1 (Response to charge)",
        "d1 must test its response to the charge of a2 (Response to charge)",
    ]
    _, stood = run(req("response_to_charge", units["d1"], units["a1"]), 6)
    left = apply_effects(units, stood.effects)
    assert R.unfinished("movement", left) == ["d1 must test its response to the charge of a2 (Response to charge)"]
    assert left["d1"].has("charged")  # a2's charge still waits
    _, evaded = run(req("evade", units["d1"]))
    assert R.unfinished("movement", apply_effects(units, evaded.effects)) == []


def test_charged_artillery_that_fails_is_eliminated():
    guns = unit("d1", DEFENDER, arm="artillery", size=2, gun="6lb")
    chargers = unit("a1", arm="cavalry", states={"charging": 1}, weapon="RC")
    _, outcome = run(req("response_to_charge", guns, chargers), 1)
    assert outcome.text == "Artillery do not route, they are simply eliminated"
    assert outcome.effects[0].removed


def test_hand_to_hand_rolls_a_die_per_stand_at_the_troop_score():
    cavalry = unit("a1", arm="cavalry", states={"charging": 1}, weapon="RC")
    target = unit("d1", DEFENDER, quality="militia")
    prepared = R.action("hand_to_hand").prepare(req("hand_to_hand", cavalry, target))
    assert prepared.dice == "4d12>=4"  # Mounted Cavalry 4+
    militia = R.action("hand_to_hand").prepare(req("hand_to_hand", target, cavalry))
    assert militia.dice == "4d12>=9"  # Militia 9+


def test_a_rout_move_is_1d6_for_infantry_and_2_hexes_plus_1d6_for_cavalry():
    cavalry = unit("a1", arm="cavalry", states={"routing": None}, weapon="RC")
    prepared = R.action("rout").prepare(req("rout", cavalry, edge=20))
    assert prepared.dice == "1d6" and dict(prepared.odds)["Hexes routed"] == {n: Fraction(1, 6) for n in range(3, 9)}
    _, outcome = run(req("rout", cavalry, edge=4), 6)
    assert outcome.text == "routs 4 hexes, ignoring terrain effects, stops at its sides table edge"
    _, removed = run(req("rout", cavalry, edge=0))
    assert removed.effects[0].removed


def test_rally_takes_the_disruption_off_out_of_contact_only():
    unit_ = unit("a1", states={"disrupted": None})
    _, outcome = run(req("rally", unit_))
    assert outcome.effects[0].clear == ("disrupted",)
    _, stays = run(req("rally", unit_, None, ["in_contact"]))
    assert stays.effects == () and "stays disrupted" in stays.text
    with pytest.raises(RulesError, match="only a disrupted unit rallies"):
        R.action("rally").prepare(req("rally", unit("a2")))


def test_disrupted_units_do_not_move_and_out_of_command_units_are_refused():
    _, outcome = run(req("move", unit("a1", states={"disrupted": None})))
    assert outcome.text.startswith("disrupted units cannot move")
    with pytest.raises(RulesError, match="within 3 hexes"):
        R.action("move").prepare(req("move", unit("a1"), None, ["out_of_command"]))


def test_the_last_stand_in_a_hex_goes_except_artillery():
    # 2 stands of Regular infantry, 3 hits: "1 stand lost, Disrupted" leaves one, which goes
    hit = unit("d1", DEFENDER, size=2, hits=3)
    _, outcome = run(req("combat", hit))
    assert "the last stand in the hex is eliminated" in outcome.text
    assert outcome.effects[0].removed and outcome.effects[0].lost == 2


# -- issue 24's leftovers: a Recoil off the combat table, and what a unit with nothing to do is refused


_others = (unit("a1", arm="cavalry", weapon="RC"),)  # the attackers in contact


def _read(unit_, contacts, options=None, ticked=()):
    """`combat` for `unit_` (its hits waiting): the outcome, the units and the contacts after it."""
    from rules.resolver import contacts_after

    units = {unit_.id: unit_, **{u.id: u for u in _others}}
    r = Request("combat", unit_, None, frozenset(ticked), {}, {**OPTIONS, **(options or {})}, units, contacts=contacts)
    _, outcome = run(r)
    after = apply_effects(units, outcome.effects)
    return outcome, after, contacts_after(R, contacts, R.action("combat"), unit_.id, None, after)


def test_a_recoil_off_the_combat_table_is_made_at_once_out_of_contact_for_the_bound():
    # Militia, 2 hits: "1 stand lost, Recoil, Disrupted" (Combat Table, Militia column)
    militia = unit("d1", DEFENDER, quality="militia", hits=2)
    contacts = (Contact("a1", "d1"),)
    outcome, after, left = _read(militia, contacts)
    assert "1 stand lost, Recoil, Disrupted" in outcome.text and "out of contact for the rest of the bound" in outcome.text
    assert after["d1"].has("recoiled") and after["d1"].size == 3 and left == []
    assert R.unfinished("hand_to_hand", after) == []  # nothing waits: the recoil is made
    with pytest.raises(RulesError, match="has no recoil to make.*option recoil_contact"):
        R.action("recoil").prepare(req("recoil", after["d1"]))
    # "If they are forced to recoil ... from this position [their table edge], they are removed from play"
    outcome, after, _left = _read(militia, contacts, ticked=("at_edge",))
    assert after["d1"].removed and after["d1"].size == 0 and "removed from play" in outcome.text


def test_a_recoil_kept_for_the_table_waits_in_contact_until_its_recoil_is_taken():
    militia = unit("d1", DEFENDER, quality="militia", hits=2)
    contacts = (Contact("a1", "d1"),)
    outcome, after, left = _read(militia, contacts, {"recoil_contact": "on_the_table"})
    assert "in contact until its Recoil is taken" in outcome.text and left == list(contacts)
    assert R.unfinished("hand_to_hand", after) == [
        "d1 must recoil one hex (Recoil), as the combat table read; in contact until then (option recoil_contact: on the table)"]
    assert R.due(after["d1"]) == ("recoil",)  # the form opens on it
    from rules.resolver import contacts_after

    r = Request("recoil", after["d1"], None, frozenset(), {}, {**OPTIONS, "recoil_contact": "on_the_table"}, after,
                contacts=tuple(left))
    _, recoiled = run(r)
    done = apply_effects(after, recoiled.effects)
    assert not done["d1"].has("recoil_due") and R.unfinished("hand_to_hand", done) == []
    assert contacts_after(R, left, R.action("recoil"), "d1", None, done) == []


def test_evade_answers_a_charge_and_a_rout_move_is_a_routers():
    cavalry = unit("d1", DEFENDER, arm="cavalry", weapon="RC")
    with pytest.raises(RulesError, match="has no charge to answer"):
        R.action("evade").prepare(req("evade", cavalry))
    with pytest.raises(RulesError, match="is not routing"):
        R.action("rout").prepare(req("rout", cavalry, edge=10))
    charged = unit("d1", DEFENDER, arm="cavalry", weapon="RC", states={"charged": None})
    assert R.action("evade").prepare(req("evade", charged)).needed.endswith("hexes away from the enemy")

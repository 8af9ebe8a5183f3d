"""The shared resolver framework: the sequence of play, requests, effects, states."""

import pytest

from rules.errors import RulesError
from rules.resolver import (
    ATTACKER,
    DEFENDER,
    Attribute,
    Contact,
    Effect,
    Position,
    Request,
    Unit,
    advance,
    apply_effects,
    check_request,
    contacts_after,
    effect_text,
    get_resolver,
    may_act,
    new_bound_states,
    tactical_rulesets,
)

KALLISTRA = get_resolver("kallistra_acw")


def unit(uid="a1", side=ATTACKER, arm="infantry", size=4, **attrs):
    return Unit(uid, f"unit {uid}", side, arm, size, size, KALLISTRA.attrs_for(attrs))


def test_an_unknown_rule_set_has_one_sentence():
    with pytest.raises(RulesError, match="has no tabletop resolver; the rule sets with one are"):
        get_resolver("warhammer")


@pytest.mark.parametrize("ruleset", tactical_rulesets())
def test_every_rule_set_describes_a_whole_resolver(ruleset):
    resolver = get_resolver(ruleset)
    assert resolver.ruleset == ruleset and resolver.phases and resolver.actions
    ids = {a.id for a in resolver.actions}
    assert len(ids) == len(resolver.actions), "action ids are unique"
    for phase in resolver.phases:
        assert phase.acts in ("active", "both", "inactive")
        assert set(phase.actions) <= ids, f"{phase.id} names an action the resolver lacks"
    for action in resolver.actions:
        assert action.anytime or any(action.id in p.actions for p in resolver.phases), f"{action.id} is never done"
    defaults = resolver.attrs_for({})
    assert set(defaults) == {a.id for a in resolver.attributes}


@pytest.mark.parametrize(
    ("attribute", "raw", "expected"),
    [
        (Attribute("q", "Class", choices=("elite", "regular")), " elite ", "elite"),
        (Attribute("n", "Stands", kind="int", lowest=1, highest=6), "3", 3),
        (Attribute("b", "Skirmishing", kind="bool"), "yes", True),
        (Attribute("b", "Skirmishing", kind="bool"), "no", False),
        (Attribute("t", "Note", kind="text"), " x ", "x"),
    ],
)
def test_attributes_take_what_a_person_types(attribute, raw, expected):
    assert attribute.check(raw) == expected


@pytest.mark.parametrize(
    ("attribute", "raw", "message"),
    [
        (Attribute("q", "Class", choices=("elite", "regular")), "guard", "Class is one of elite, regular, not 'guard'"),
        (Attribute("n", "Stands", kind="int", lowest=1, highest=6), "7", "Stands must be 1 to 6, not 7"),
        (Attribute("n", "Stands", kind="int", lowest=1), "two", "Stands must be a whole number, not 'two'"),
        (Attribute("b", "Skirmishing", kind="bool"), "maybe", "Skirmishing is yes or no, not 'maybe'"),
    ],
)
def test_attributes_refuse_with_one_sentence(attribute, raw, message):
    with pytest.raises(RulesError) as caught:
        attribute.check(raw)
    assert str(caught.value) == message


def test_the_sequence_runs_each_sides_bound_then_the_next_turn():
    at = Position()
    seen = [at]
    for _ in range(2 * len(KALLISTRA.phases)):
        at = advance(KALLISTRA, at)
        seen.append(at)
    n = len(KALLISTRA.phases)
    assert seen[n - 1] == Position(1, ATTACKER, n - 1)
    assert seen[n] == Position(1, DEFENDER, 0)
    assert seen[2 * n] == Position(2, ATTACKER, 0)


def test_a_rule_set_without_bounds_goes_straight_to_the_next_turn():
    from dataclasses import replace

    single = replace(KALLISTRA, alternating=False)
    last = Position(1, ATTACKER, len(single.phases) - 1)
    assert advance(single, last) == Position(2, ATTACKER, 0)


def test_who_may_act_in_a_phase():
    movement = Position(1, ATTACKER, 0)
    may_act(KALLISTRA, movement, "move", ATTACKER)
    with pytest.raises(RulesError, match="only the attacker, whose bound it is, acts in the movement phase"):
        may_act(KALLISTRA, movement, "move", DEFENDER)
    with pytest.raises(RulesError, match="Small-arms fire is not done in the movement phase; it is done in: simultaneous fire"):
        may_act(KALLISTRA, movement, "small_arms_fire", ATTACKER)
    # the charged unit answers in the chargers' bound
    may_act(KALLISTRA, movement, "response_to_charge", DEFENDER)
    with pytest.raises(RulesError, match="taken by the defender"):
        may_act(KALLISTRA, movement, "response_to_charge", ATTACKER)
    # a rout move is made whenever a result calls for it
    may_act(KALLISTRA, Position(1, ATTACKER, 3), "rout", DEFENDER)


def test_requests_are_checked_against_the_action():
    a, d, a2 = unit("a1"), unit("d1", DEFENDER), unit("a2")
    units = {u.id: u for u in (a, d, a2)}
    fire = dict(action="small_arms_fire", units=units, numbers={"range": 2})
    check_request(KALLISTRA, Request(actor=a, target=d, **fire))
    with pytest.raises(RulesError, match="needs a target"):
        check_request(KALLISTRA, Request(actor=a, **fire))
    with pytest.raises(RulesError, match="takes an enemy unit as its target, not unit a2"):
        check_request(KALLISTRA, Request(actor=a, target=a2, **fire))
    with pytest.raises(RulesError, match="'cover' is not a modifier the card lists for Small-arms fire"):
        check_request(KALLISTRA, Request(actor=a, target=d, ticked=frozenset({"cover"}), **fire))
    with pytest.raises(RulesError, match="Range in hexes must be a whole number of 1 to 20, not 0"):
        check_request(KALLISTRA, Request("small_arms_fire", a, d, numbers={"range": 0}, units=units))
    with pytest.raises(RulesError, match="Move takes no target"):
        check_request(KALLISTRA, Request("move", a, d, units=units))
    gone = Unit(**{**a.to_json(), "removed": True, "attrs": a.attrs, "states": {}})
    with pytest.raises(RulesError, match="has been removed from the table"):
        check_request(KALLISTRA, Request("move", gone, units=units))


def test_effects_change_size_states_and_attributes_and_remove_the_spent():
    units = {"a1": unit("a1")}
    after = apply_effects(units, [Effect("a1", lost=1, add={"disrupted": None, "charging": 1}, set={"hits": 0})])
    assert after["a1"].size == 3 and after["a1"].lost == 1 and after["a1"].has("disrupted")
    assert units["a1"].size == 4, "the units given are not changed"
    line = effect_text(KALLISTRA, units, Effect("a1", lost=1, add={"disrupted": None, "charging": 1}))
    assert line == "unit a1: loses 1 stand, disrupted, charging (1 bound)"  # not "1 stands"
    cleared = apply_effects(after, [Effect("a1", clear=("disrupted",))])
    assert not cleared["a1"].has("disrupted")
    spent = apply_effects(after, [Effect("a1", lost=9)])
    assert spent["a1"].size == 0 and spent["a1"].removed


def test_states_that_last_a_number_of_bounds_run_out():
    units = {"a1": Unit("a1", "A", ATTACKER, "infantry", 4, 4, {}, {"charging": 1, "moved": 2, "disrupted": None})}
    once = new_bound_states(units)
    assert once["a1"].states == {"moved": 1, "disrupted": None}
    assert new_bound_states(once)["a1"].states == {"disrupted": None}


def test_units_round_trip_through_json():
    u = Unit("d3", "Brigade Klüx #1", DEFENDER, "cavalry", 2, 4, {"quality": "elite"}, {"routing": None}, "klux", False)
    assert Unit.from_json(u.to_json()) == u


# -- contact: a charge makes it, a rout or a retreat ends it; reach follows it


def test_a_charge_makes_contact_and_a_rout_breaks_it():
    a, d = unit("a1"), unit("d1", DEFENDER)
    units = {"a1": a, "d1": d}
    charge = KALLISTRA.action("declare_charge")
    contacts = contacts_after(KALLISTRA, [], charge, "a1", "d1", units)
    assert contacts == [Contact("a1", "d1")]
    assert contacts_after(KALLISTRA, contacts, charge, "a1", "d1", units) == contacts  # not twice
    routed = apply_effects(units, [Effect("d1", add={"routing": None})])
    assert contacts_after(KALLISTRA, contacts, KALLISTRA.action("combat"), "d1", None, routed) == []
    assert contacts_after(KALLISTRA, contacts, KALLISTRA.action("recoil"), "a1", None, units) == []


def test_reach_refuses_a_target_out_of_contact_with_the_card_s_reason_unless_the_umpire_rules():
    a, d, d2 = unit("a1"), unit("d1", DEFENDER), unit("d2", DEFENDER)
    units = {u.id: u for u in (a, d, d2)}
    contacts = (Contact("a1", "d1"),)
    check_request(KALLISTRA, Request("hand_to_hand", a, d, units=units, contacts=contacts))
    with pytest.raises(RulesError, match="unit d2 is not in contact with unit a1: Hand to hand is only against a unit in "
                                         "contact .the charging unit.*j rules them in contact"):
        check_request(KALLISTRA, Request("hand_to_hand", a, d2, units=units, contacts=contacts))
    check_request(KALLISTRA, Request("hand_to_hand", a, d2, units=units, contacts=contacts, ruling="it joined"))
    # the response answers the unit that charged, not the unit it charged
    check_request(KALLISTRA, Request("response_to_charge", d, a, units=units, contacts=contacts))
    with pytest.raises(RulesError, match="unit d1 has not charged unit a1"):
        check_request(KALLISTRA, Request("response_to_charge", a, d, units=units, contacts=contacts))


# -- the battle's own state and the named dice of a resolution (issue 24) ------------------


def test_the_battle_s_own_state_lasts_as_its_values_say():
    from rules.resolver import BattleValue, Resolver, battle_after, new_bound_battle

    r = Resolver("demo", "Demo", "stands", (), (), (), (), battle_state=(
        BattleValue("initiative", "Initiative", "turn"), BattleValue("smoke", "Smoke", "bound"),
        BattleValue("held", "Held last", "battle")))
    battle = battle_after(r, {}, {"initiative": "attacker", "smoke": True, "held": "attacker"})
    assert battle_after(r, battle, {"smoke": None}) == {"initiative": "attacker", "held": "attacker"}
    with pytest.raises(RulesError, match="'morale' is not kept by the battle under Demo"):
        battle_after(r, battle, {"morale": 1})
    assert new_bound_battle(r, battle, new_turn=False) == {"initiative": "attacker", "held": "attacker"}
    assert new_bound_battle(r, battle, new_turn=True) == {"held": "attacker"}


def test_named_dice_are_rolled_apart_and_read_back_by_name():
    from rules.dice import ENTERED, ROLLED, DiceService
    from rules.resolver import Prepared, Roll, roll_prepared

    both = Prepared("melee", "4+", None, rolls=(Roll("attacker", "attacker A", "3d6", ATTACKER),
                                               Roll("defender", "defender D", "2d6", DEFENDER)))
    assert both.rolls_dice and both.dice_text() == "attacker A 3d6; defender D 2d6"
    service = DiceService(seed=7)
    record = roll_prepared(service, both, "melee")
    assert [r.dice for r in service.history] == ["3d6", "2d6"]  # two records, in order
    assert service.history[0].purpose == "melee; attacker A's dice" and service.history[0].mode == ROLLED
    assert record.of("attacker") == service.history[0].raw and record.of("defender") == service.history[1].raw
    assert record.raw == service.history[0].raw + service.history[1].raw
    typed = roll_prepared(DiceService(seed=7, mode=ENTERED), both, "melee", {"defender": [6, 6], "attacker": [1, 2, 3]})
    assert (typed.of("attacker"), typed.of("defender"), typed.mode) == ((1, 2, 3), (6, 6), ENTERED)
    # one unnamed expression keeps its one record; nothing rolled, nothing recorded
    single = roll_prepared(DiceService(seed=7), Prepared("fire", "5+", "2d6"), "fire", [3, 4])
    assert single.raw == (3, 4) and single.parts == ()
    assert roll_prepared(DiceService(seed=7), Prepared("move", "8”", None), "move") is None
    with pytest.raises(RulesError, match="this resolution rolls no dice"):
        roll_prepared(DiceService(seed=7), Prepared("move", "8”", None), "move", [3])

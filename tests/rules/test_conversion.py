"""The hand-off conversion: campaign forces to tactical units, and stands lost back to SP."""

import pytest

from rules import conversion
from rules.conversion import Conversion, sp_lost, tactical_order
from rules.errors import RulesError

EXAMPLE = Conversion(
    ruleset="demo",
    label="battalion",
    size_label="stands",
    sp_per_unit=1,
    size={"infantry": 4, "cavalry": 3, "artillery": 1},
    quality={1: "militia", 3: "line", 5: "elite"},
    leader={0: "poor", 2: "average", 4: "excellent"},
    losses_rounding="nearest",
    source="test",
)


def test_forces_become_units_of_their_arm_and_quality():
    order = tactical_order(
        EXAMPLE,
        [("iii", "III Corps", "infantry", 3, 4), ("cav", "Cavalry", "cavalry", 1, 6), ("d", "Dummy", "dummy", 0, 3)],
        [("Ney", 3)],
    )
    assert [u.name for u in order.units] == ["III Corps battalion 1", "III Corps battalion 2", "III Corps battalion 3", "Cavalry"]
    assert {u.quality for u in order.units if u.force == "iii"} == {"line"}  # 4 is as near 3 as 5: the lower wins
    assert order.units[-1].size == 3 and order.units[-1].quality == "elite"
    assert order.leaders == [("Ney", "average")]


GUNS = Conversion(**{**EXAMPLE.__dict__, "ab_units_per_point": 1, "ab_size": 2, "ab_reason": "test"})


def test_an_artillery_bonus_puts_its_guns_on_the_table_once():
    # Ney's two corps units, AB 1 each: a battery each, beside their battalions.
    order = tactical_order(GUNS, [("iii", "III Corps", "infantry", 2, 3, 1), ("iv", "IV Corps", "infantry", 1, 3, 1)])
    assert [(u.name, u.arm, u.size, u.carries_sp) for u in order.units] == [
        ("III Corps battalion 1", "infantry", 4, True), ("III Corps battalion 2", "infantry", 4, True),
        ("III Corps AB guns", "artillery", 2, False),
        ("IV Corps", "infantry", 4, True), ("IV Corps AB guns", "artillery", 2, False),
    ]
    # A reserve artillery force, SP 1 and AB 3: its SP make the first of its 3 batteries, not a fourth.
    reserve = tactical_order(GUNS, [("art", "Reserve", "artillery", 1, 5, 3)])
    assert [(u.name, u.size, u.carries_sp) for u in reserve.units] == [
        ("Reserve", 1, True), ("Reserve AB guns 1", 2, False), ("Reserve AB guns 2", 2, False)]
    # Without AB (or an AB the file does not convert) nothing changes.
    assert [u.name for u in tactical_order(GUNS, [("art", "Reserve", "artillery", 1, 5, 0)]).units] == ["Reserve"]
    assert [u.name for u in tactical_order(EXAMPLE, [("iii", "III Corps", "infantry", 1, 3, 2)]).units] == ["III Corps"]


@pytest.mark.parametrize("ruleset, size", [("kallistra_acw", 2), ("napoleonic_d10", 12), ("napoleonic_13phase", 4), ("napoleonic_uc_um", 2)])
def test_every_tactical_rule_set_converts_the_artillery_bonus_with_its_reason(ruleset, size):
    conv = conversion.load_conversion(ruleset)
    assert conv is not None and conv.ab_units_per_point == 1 and conv.ab_size == size
    assert "12 guns" in conv.ab_reason and "not 7" in conv.ab_reason  # the rule and why nothing counts twice


@pytest.mark.parametrize("rounding, lost, expected", [("nearest", 6, 2), ("down", 7, 1), ("up", 5, 2), ("nearest", 0, 0)])
def test_stands_lost_come_back_as_sp(rounding, lost, expected):
    conv = Conversion(**{**EXAMPLE.__dict__, "losses_rounding": rounding})
    assert sp_lost(conv, "infantry", lost) == expected


def test_negative_losses_are_refused():
    with pytest.raises(RulesError):
        sp_lost(EXAMPLE, "infantry", -1)


def test_a_rule_set_without_conversion_has_none():
    assert conversion.load_conversion("allemagne1813") is None


def test_fractions_of_several_forces_add_up_before_rounding():
    from fractions import Fraction

    from rules.conversion import apportion, load_conversion, sp_exact

    uc_um = load_conversion("napoleonic_uc_um")
    # one cavalry EC of 4 lost by each of three forces: 1/4 SP each rounds to 0 alone,
    # 3/4 SP together rounds to 1, taken from one of them (the largest remainder, then by name)
    exact = {f: sp_exact(uc_um, "cavalry", 1) for f in ("a", "b", "c")}
    assert exact["a"] == Fraction(1, 4)
    assert apportion(uc_um, exact, {"a": 5, "b": 5, "c": 5}) == {"a": 1, "b": 0, "c": 0}
    # 2 EC of 6 and 5 EC of 6: 1/3 + 5/6 = 7/6, rounds to 1; the 5/6 takes it
    exact = {"x": sp_exact(uc_um, "infantry", 2), "y": sp_exact(uc_um, "infantry", 5)}
    assert apportion(uc_um, exact, {"x": 3, "y": 3}) == {"x": 0, "y": 1}
    # never more than a force has
    assert apportion(uc_um, {"x": Fraction(5, 2)}, {"x": 2}) == {"x": 2}

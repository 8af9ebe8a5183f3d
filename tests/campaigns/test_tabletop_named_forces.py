"""Forces whose name says what kind of troops they are come to the table as the card's
kind (issue 24): the Cossacks under the UC/UM card are irregular light horse (ILh), so
its fire factor 'Cible Cavalerie ILh +1' is ticked for them; cuirassiers are the
heavy cavalry of every card that has it. Each entry is a [[named]] of the rule set's
conversion.toml, with its reason."""

from __future__ import annotations

import pytest

from campaigns import battles, oob, tabletop, weather
from campaigns.session import CampaignSession
from rules.conversion import load_conversion
from rules.resolver import get_resolver, tactical_rulesets
from tests.templates import new_campaign


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    s = CampaignSession.open(new_campaign(tmp_path_factory.mktemp("named") / "x.campaign", "spring1813", seed=1813))
    weather.roll(s, [2])
    yield s
    s.close()


def on_the_table(session, ruleset: str) -> tabletop.Tabletop:
    """The French infantry of the first corps against the Cossacks of the main army and a
    cuirassier force of the allies, under `ruleset`."""
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
    allied = oob.side_units(tree[1])
    cossacks = next(u.id for u in allied if u.id == "main_army_cossacks")
    heavy = next(u.id for u in allied if u.kind == "cavalry" and "Cuirassier" in u.name)
    draft = battles.Draft("Lützen", french, [cossacks, heavy], battles.leaders_at(session, french),
                          battles.leaders_at(session, [cossacks, heavy]), {},
                          override="forces gathered from the whole map for the test")
    bid = battles.begin(session, draft, resolver=ruleset)
    tabletop.start(session, bid)
    return tabletop.load(session, bid)


def by_force(table: tabletop.Tabletop, force: str):
    return [u for u in table.units.values() if u.force == force]


def test_uc_um_cossacks_are_irregular_light_horse_and_the_card_s_factor_is_ticked(session):
    table = on_the_table(session, "napoleonic_uc_um")
    cossacks = by_force(table, "main_army_cossacks")
    assert cossacks and {(u.arm, u.attr("kind")) for u in cossacks} == {("cavalry", "irregular_light_horse")}
    heavy = [u for u in table.units.values() if "Cuirassier" in u.name]
    assert heavy and {u.attr("kind") for u in heavy} == {"cuirassiers"}
    french = table.side_units("attacker")[0]
    fire = table.resolver.action("fire")
    ticks = {t.id: t for t in fire.ticks(french, cossacks[0])}
    # 'Cible Cavalerie -1' and 'Cible Cavalerie ILh +1' both follow from the target: net 0
    assert ticks["target_irregular_light_horse"].checked and ticks["target_cavalry"].checked
    assert ticks["target_irregular_light_horse"].excluded is None
    # a regular cavalry UC is not ILh: the factor is greyed out with the stored reason
    regular = {t.id: t for t in fire.ticks(french, heavy[0])}
    assert not regular["target_irregular_light_horse"].checked
    assert regular["target_irregular_light_horse"].excluded


def test_13phase_cossacks_are_light_cavalry_and_cuirassiers_cuirassiers(session):
    table = on_the_table(session, "napoleonic_13phase")
    assert {u.attr("unit_type") for u in by_force(table, "main_army_cossacks")} == {"light_cavalry"}
    assert {u.attr("unit_type") for u in table.units.values() if "Cuirassier" in u.name} == {"cuirassiers"}


def test_d10_cuirassiers_are_heavy_and_cossacks_stay_light(session):
    table = on_the_table(session, "napoleonic_d10")
    assert {u.attr("cavalry_type") for u in by_force(table, "main_army_cossacks")} == {"light"}
    assert {u.attr("cavalry_type") for u in table.units.values() if "Cuirassier" in u.name} == {"heavy"}


@pytest.mark.parametrize("ruleset", tactical_rulesets())
def test_every_named_entry_is_a_kind_the_card_has_with_its_reason(ruleset):
    conversion = load_conversion(ruleset)
    resolver = get_resolver(ruleset)
    for entry in conversion.named:
        attrs = resolver.attrs_for({**conversion.defaults[entry.arm], **entry.attrs})
        assert all(attrs[k] == v for k, v in entry.attrs.items())
        for key, value in entry.attrs.items():  # a kind the arm takes, not only one of the list
            attribute = next(a for a in resolver.attributes if a.id == key)
            assert value in attribute.choices_for(entry.arm)
        assert entry.reason.startswith("Editorial:")

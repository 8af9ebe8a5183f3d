"""Who an act may reach is the card's: contact made by a charge (or the umpire's
ruling, with its reason), broken by a rout; the same act is not taken twice in a
phase (issue 24)."""

from __future__ import annotations

import pytest

from campaigns import tabletop
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from tests.templates import new_campaign


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "x.campaign", "spring1813", seed=1813))
    yield s
    s.close()


def game(session, ruleset, units):
    bid = tabletop.new_game(session, ruleset, "Probstheida")
    for values in units:
        tabletop.add_unit(session, bid, values)
    return bid


def go_to(session, bid, phase):
    for _ in range(80):
        if tabletop.load(session, bid).phase.id == phase:
            return tabletop.load(session, bid)
        tabletop.next_phase(session, bid)
    raise AssertionError(phase)


def test_13phase_melee_only_against_the_unit_charged_and_once(session):
    bid = game(session, "napoleonic_13phase", [
        dict(name="Chasseurs", side="attacker", arm="cavalry", size="12", unit_type="light_cavalry"),
        dict(name="IR 4", side="defender", arm="infantry", size="24", unit_type="infantry_line"),
        dict(name="IR 7", side="defender", arm="infantry", size="24", unit_type="infantry_line"),
    ])
    go_to(session, bid, "phase_3")
    table = tabletop.load(session, bid)
    assert [u.id for u in tabletop.reachable(table, "charge", "a1")[0]] == ["d1", "d2"]
    tabletop.resolve(session, bid, "charge", "a1", "d1")
    go_to(session, bid, "phase_5")
    # the infantry tests to stand against the unit that charged it, and no other
    table = tabletop.load(session, bid)
    assert [u.id for u in tabletop.reachable(table, "stand", "d1")[0]] == ["a1"]
    assert tabletop.reachable(table, "stand", "d2")[0] == []
    tabletop.resolve(session, bid, "stand", "d1", "a1", entered=[1])
    table = go_to(session, bid, "phase_6")
    # "Charging cavalry make a full move, fighting every unit contacted": d1 only
    offered, why = tabletop.reachable(table, "melee", "a1")
    assert [u.id for u in offered] == ["d1"] and why.startswith("IR 7 is not in contact with Chasseurs")
    with pytest.raises(CampaignError, match="IR 7 is not in contact with Chasseurs: Fight a melee is only against"):
        tabletop.resolve(session, bid, "melee", "a1", "d2")
    tabletop.resolve(session, bid, "melee", "a1", "d1")
    table = tabletop.load(session, bid)
    # the card's cavalry against a line: IR 4 is destroyed, and in contact with nobody
    assert table.units["d1"].removed and not table.contacts
    assert tabletop.reachable(table, "melee", "a1")[0] == []
    # the umpire rules the cavalry reached IR 7 too: recorded with the reason, then the melee is allowed
    with pytest.raises(CampaignError, match="gives its reason"):
        tabletop.rule_contact(session, bid, "a1", "d2", True, " ")
    tabletop.rule_contact(session, bid, "a1", "d2", True, "the charge carried on into IR 7")
    table = tabletop.load(session, bid)
    assert table.log[-1]["action"] == "ruling" and table.log[-1]["ruling"] == "the charge carried on into IR 7"
    assert "d2" in [u.id for u in tabletop.reachable(table, "melee", "a1")[0]]


def test_13phase_an_umpire_ruling_overrides_a_repeat_and_is_recorded(session):
    bid = game(session, "napoleonic_13phase", [
        dict(name="8e Ligne", side="attacker", arm="infantry", size="24", unit_type="infantry_column"),
        dict(name="IR 4", side="defender", arm="infantry", size="24", unit_type="infantry_line"),
    ])
    go_to(session, bid, "phase_3")
    tabletop.resolve(session, bid, "fire", "d1", "a1", numbers={"distance": 3})
    with pytest.raises(CampaignError, match="already taken Fire at 8e Ligne"):
        tabletop.resolve(session, bid, "fire", "d1", "a1", numbers={"distance": 3})
    tabletop.resolve(session, bid, "fire", "d1", "a1", numbers={"distance": 3}, ruling="a second battalion joined the volley")
    entry = tabletop.load(session, bid).log[-1]
    assert entry["ruling"] == "a second battalion joined the volley" and entry["side"] == "defender"


def test_kallistra_no_hand_to_hand_against_a_unit_that_routed_at_the_charge(session):
    bid = game(session, "kallistra_acw", [
        dict(name="Iron Brigade", side="attacker", arm="infantry", size="4"),
        dict(name="Stonewall", side="defender", arm="infantry", size="4"),
        dict(name="Hood", side="defender", arm="infantry", size="4"),
    ])
    tabletop.resolve(session, bid, "declare_charge", "a1", "d1")
    tabletop.resolve(session, bid, "declare_charge", "a1", "d2", ruling="two hexes charged at once")
    # d1 fails its response (regular: more than 3 on 1d6; a 1 routs)
    tabletop.resolve(session, bid, "response_to_charge", "d1", "a1", entered=[1])
    table = tabletop.load(session, bid)
    assert table.units["d1"].has("routing")
    assert [(c.charger, c.charged) for c in table.contacts] == [("a1", "d2")]
    # Hood stands (a 6): every charge declared has its response before the movement step ends.
    tabletop.resolve(session, bid, "response_to_charge", "d2", "a1", entered=[6])
    for _ in range(10):
        table = tabletop.load(session, bid)
        if "hand_to_hand" in table.phase.actions:
            break
        tabletop.next_phase(session, bid)
    offered, why = tabletop.reachable(table, "hand_to_hand", "a1")
    assert [u.id for u in offered] == ["d2"] and "Stonewall is not in contact" in why


def test_a_melee_taken_back_in_one_step_after_the_phases_moved_on(session):
    bid = game(session, "napoleonic_13phase", [
        dict(name="Chasseurs", side="attacker", arm="cavalry", size="12", unit_type="light_cavalry"),
        dict(name="IR 4", side="defender", arm="infantry", size="24", unit_type="infantry_line"),
    ])
    go_to(session, bid, "phase_3")
    tabletop.resolve(session, bid, "charge", "a1", "d1")
    go_to(session, bid, "phase_5")
    tabletop.resolve(session, bid, "stand", "d1", "a1", entered=[1])
    go_to(session, bid, "phase_6")
    tabletop.resolve(session, bid, "melee", "a1", "d1")
    assert tabletop.load(session, bid).units["d1"].removed
    for _ in range(3):
        tabletop.next_phase(session, bid)
    said = tabletop.take_back(session, bid)
    assert said.startswith("Taken back: Chasseurs, melee")
    table = tabletop.load(session, bid)
    assert table.phase.id == "phase_9"  # the phases stay moved on
    assert not table.units["d1"].removed and table.units["d1"].size == 24
    assert [(c.charger, c.charged) for c in table.contacts] == [("a1", "d1")]
    assert table.log[-1]["action"] == "melee" and table.log[-1]["taken_back"]
    # the next take back goes one entry further, the stand test
    tabletop.take_back(session, bid)
    assert [e.get("taken_back", False) for e in tabletop.load(session, bid).log] == [False, True, True]
    # and the account keeps them, marked
    from campaigns.account import account

    told = "\n".join(account(session, bid))
    assert "melee at IR 4" in told and told.count("[taken back]") == 2

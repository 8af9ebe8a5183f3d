"""What the battle knows beyond its units (issue 24): d10's initiative is the battle's,
not a unit's. It is set by the roll, shown on the checklist, taken back with the roll,
and lasts the turn; who held it last is kept for a tie (option initiative_tie)."""

from __future__ import annotations

import pytest

from campaigns import tabletop
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from tui.screens.resolver import checklist
from tests.templates import new_campaign


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "x.campaign", "spring1813", seed=1813))
    yield s
    s.close()


def d10_game(session) -> int:
    bid = tabletop.new_game(session, "napoleonic_d10", "Möckern")
    tabletop.add_unit(session, bid, {"name": "1er Léger", "side": "attacker", "arm": "infantry", "size": "6"})
    tabletop.add_unit(session, bid, {"name": "Pavlograd", "side": "defender", "arm": "infantry", "size": "6"})
    return bid


def test_the_initiative_is_the_battle_s_and_lasts_the_turn(session):
    bid = d10_game(session)
    with pytest.raises(CampaignError, match=r"roll for initiative at the beginning of the turn \(r on any unit\)"):
        tabletop.next_phase(session, bid)
    # the defender's unit rolls for its commander: 3 against 8, the attacker's army wins
    said = tabletop.resolve(session, bid, "initiative", "d1", entered=[[3], [8]])
    assert said.endswith("the attacker has the initiative and moves first")
    table = tabletop.load(session, bid)
    assert table.battle == {"initiative": "attacker", "initiative_held": "attacker"}
    assert all(not u.states for u in table.units.values())  # no unit carries it
    assert "Initiative: the" in "\n".join(checklist(table))
    assert table.log[-1]["effects"] == ["battle: Initiative: the attacker moves first",
                                        "battle: Initiative held last by: the attacker"]

    tabletop.take_back(session, bid)  # the roll taken back takes the initiative back with it
    assert tabletop.load(session, bid).battle == {}
    tabletop.resolve(session, bid, "initiative", "d1", entered=[[9], [2]])
    assert tabletop.load(session, bid).battle["initiative"] == "defender"
    with pytest.raises(CampaignError, match="initiative was rolled this turn: the defender moves first"):
        tabletop.resolve(session, bid, "initiative", "a1", entered=[[9], [2]])

    for _ in range(6):  # to the next turn
        tabletop.next_phase(session, bid)
    table = tabletop.load(session, bid)
    assert table.position.turn == 2 and table.battle == {"initiative_held": "defender"}
    assert table.unfinished()[0].startswith("the two army commanders roll for initiative")


def test_a_turn_ended_by_the_initiative_dice_stops_every_resolution_of_the_turn(session):
    bid = d10_game(session)
    assert "the turn ends immediately" in tabletop.resolve(session, bid, "initiative", "a1", entered=[[9], [8]])
    assert tabletop.load(session, bid).battle == {"turn_over": True}
    with pytest.raises(CampaignError, match="the turn has ended .*: n goes on to the next turn"):
        tabletop.resolve(session, bid, "contest_initiative", "a1", "d1", entered=[[5], [5]])
    # n goes on to the next turn, as the refusal says: not through the turn's five other phases
    assert tabletop.next_phase(session, bid).startswith("Turn 2")
    table = tabletop.load(session, bid)
    assert (table.position.turn, table.position.phase, table.battle) == (2, 0, {})

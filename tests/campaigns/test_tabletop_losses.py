"""Losses are one number (issue 24): a size typed into the edit form counts as
losses for the card's morale modifiers and for the return to the campaign alike,
and the edit is in the account and the log, old → new."""

from __future__ import annotations

import pytest

from campaigns import battles, oob, tabletop, weather
from campaigns.account import account
from campaigns.errors import CampaignError
from campaigns.log import log_lines
from campaigns.session import CampaignSession


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.new("spring1813", tmp_path / "x.campaign", seed=1813)
    weather.roll(s, [2])
    yield s
    s.close()


def d10_battle(session) -> int:
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
    draft = battles.Draft("Lützen", french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies))
    bid = battles.begin(session, draft, resolver="napoleonic_d10")
    tabletop.start(session, bid)
    return bid


def test_stands_typed_in_are_casualty_steps_for_morale_and_stands_for_the_return(session):
    bid = d10_battle(session)
    unit = tabletop.load(session, bid).side_units("defender")[0]
    assert unit.size == 6
    # "Stands now" 6 → 5: one stand is 3 castings ("Infantry Stands are 3 castings")
    said = tabletop.edit_unit(session, bid, unit.id, {"size": "5"})
    assert said.endswith("Stands now 6 → 5; Casualty steps taken 0 → 3")
    # then 7 casualty steps: 10 in all, 3 stands of 6 lost
    tabletop.edit_unit(session, bid, unit.id, {"steps_lost": "10"})
    table = tabletop.load(session, bid)
    now = table.units[unit.id]
    assert (now.size, now.attr("steps_lost")) == (3, 10)
    # morale reads 10 of 18 steps: the card's "50% or more losses -5"
    needed = tabletop.prepare(table, tabletop.request(table, "morale", unit.id)).needed
    assert "50% or more losses -5" in needed
    # and the return counts the same 3 stands
    back = tabletop.returned(session, bid, "attacker")
    assert any("lost 3 stands" in line for line in back.lines)
    # both numbers typed, and disagreeing: one sentence, nothing stored
    with pytest.raises(CampaignError, match="5 stands of 6 is 3 to 5 casualty steps lost .3 castings a stand., not 1"):
        tabletop.edit_unit(session, bid, unit.id, {"size": "5", "steps_lost": "1"})
    # the account and the log say what changed, old → new
    told = "\n".join(account(session, bid))
    assert "edit: umpire's edit: Stands now 6 → 5; Casualty steps taken 0 → 3" in told
    assert "Stands now 5 → 3; Casualty steps taken 3 → 10" in told
    logged = "\n".join(log_lines(session.store))
    assert f"{unit.name} ({unit.id}) edited: Stands now 6 → 5; Casualty steps taken 0 → 3" in logged

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
from models import Unit
from tests.templates import new_campaign


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "x.campaign", "spring1813", seed=1813))
    weather.roll(s, [2])
    yield s
    s.close()


def d10_battle(session) -> int:
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
    draft = battles.Draft("Lützen", french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies), override="a test battle between forces placed by hand")
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


def test_a_uc_en_rupture_is_lost_at_the_return_by_the_named_option(session):
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
    draft = battles.Draft("Lützen", french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies), override="a test battle between forces placed by hand")
    bid = battles.begin(session, draft, resolver="napoleonic_uc_um")
    tabletop.start(session, bid)
    table = tabletop.load(session, bid)
    broken, hit = table.side_units("defender")[:2]
    assert broken.force == hit.force and broken.size == 6  # 6 EC to a UC, 1 SP to a UC
    tabletop.set_state(session, bid, broken.id, "rout", True)
    tabletop.edit_unit(session, bid, hit.id, {"size": "5"})
    # option broken_at_end = lost: the broken UC's 6 EC and the 1 EC hit: 7/6 SP, 1 to the nearest
    back = tabletop.returned(session, bid, "attacker")
    assert back.sp_by_force == {broken.force: 1}
    # what the force loses of what it has; before, "-> 1 SP of 2" read as the SP left
    (line,) = [line for line in back.lines if "lost 7 EC" in line]
    with session.store.read() as db:
        strength = db.get_one(Unit, broken.force).strength_points
    assert line.endswith(f"lost 7 EC (1.17 SP) -> loses 1 of its {strength} SP"), line
    tabletop.set_option(session, bid, "broken_at_end", "kept")
    # kept: only the EC hit, 1/6 SP, which rounds to nothing
    assert tabletop.returned(session, bid, "attacker").sp_by_force == {}

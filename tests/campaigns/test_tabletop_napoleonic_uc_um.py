"""A whole battle of the 1813 campaign fought on the tabletop under the French UC/UM card.

The battle is set up from the stored forces, its turn runs through the card's
sequence of play (both sides' bounds), the resolutions take entered dice, the
losses in EC go back to the campaign as SP, and the file is reopened to check what
was stored.
"""

from __future__ import annotations

import pytest

from campaigns import battles, oob, tabletop, weather
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Battle as BattleRow
from models import Unit as CampaignUnit
from tests.templates import new_campaign


def forces(session):
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:2]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:2]
    return french, allies


def go_to(session, battle_id, phase_id, bound=None):
    """Tick phases off the checklist until `phase_id` (of `bound`) is the current one."""
    for _ in range(60):
        table = tabletop.load(session, battle_id)
        if table.phase.id == phase_id and (bound is None or table.position.bound == bound):
            return table
        tabletop.next_phase(session, battle_id)
    raise AssertionError(f"never reached {phase_id}")


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "x.campaign", "spring1813", seed=1813))
    weather.roll(s, [2])
    yield s
    s.close()


def test_a_whole_battle_under_the_uc_um_card(session, tmp_path):
    french, allies = forces(session)
    draft = battles.Draft("Lützen", french, allies, battles.leaders_at(session, french),
                          battles.leaders_at(session, allies), {},
                          override="forces gathered from the whole map for the test")
    bid = battles.begin(session, draft, resolver="napoleonic_uc_um")
    assert tabletop.start(session, bid).endswith("under French UC/UM rules")

    table = tabletop.load(session, bid)
    a1, a2 = [u.id for u in table.side_units("attacker")][:2]
    d1 = table.side_units("defender")[0].id
    first = table.units[a1]
    # conversion.toml: 6 EC to an infantry UC, its quality and [defaults.infantry]
    assert (first.arm, first.size, first.attr("formation"), first.attr("weapon")) == ("infantry", 6, "attack_column", "musket")
    assert first.attr("quality") in ("conscrit/hesitant", "aguerri/confiant", "veteran/intrepide", "elite/intrepide")
    assert table.phase.id == "1.1" and table.position.bound == "attacker"
    for unit_id in (a1, a2, d1):  # the umpire sets the UC's classes for a known battle
        tabletop.edit_unit(session, bid, unit_id, {"quality": "aguerri/confiant"})

    # Phase 2: a1 moves in step 2.4 (fire before its phase is refused)
    with pytest.raises(CampaignError, match="is not done in the 1.1"):
        tabletop.resolve(session, bid, "fire", a1, d1, numbers={"distance": 5})
    go_to(session, bid, "2.4")
    assert "moves up to 15 cm" in tabletop.resolve(session, bid, "move", a1)

    # 3.1: a1 fires at d1 (it moved: Efficacité 1 per EC), d1 saves before the step ends
    go_to(session, bid, "3.1")
    shot = tabletop.resolve(session, bid, "fire", a1, d1, ticked=["target_column"],
                            numbers={"firing_ec": 4, "distance": 5}, entered=[6, 6, 6, 1])
    assert "3 touches (3 hits)" in shot
    with pytest.raises(CampaignError, match="waiting for its saves"):
        tabletop.next_phase(session, bid)
    assert "1 sauvegarde, 2 pertes" in tabletop.resolve(session, bid, "save", d1, entered=[3, 2, 1])

    # 3.2: a1 moved and fired (Tir OU Charge): a2 charges d1 instead
    tabletop.next_phase(session, bid)
    with pytest.raises(CampaignError, match="fired may not also charge"):
        tabletop.resolve(session, bid, "charge", a1, d1, numbers={"distance": 5})
    tabletop.resolve(session, bid, "charge", a2, d1, numbers={"distance": 5})
    go_to(session, bid, "3.4")
    assert "réussi" in tabletop.resolve(session, bid, "test_b", d1, a2, entered=[6])
    go_to(session, bid, "3.7")
    assert "réussi" in tabletop.resolve(session, bid, "chargers_test", a2, d1, entered=[5])

    # 3.8 (c): both sides fight, then save 4+
    tabletop.next_phase(session, bid)
    tabletop.resolve(session, bid, "melee", a2, d1, numbers={"elements": 3}, entered=[6, 6, 2])
    tabletop.resolve(session, bid, "melee", d1, a2, numbers={"elements": 2}, entered=[1, 2])
    assert "0 sauvegarde, 2 pertes" in tabletop.resolve(session, bid, "save", d1, entered=[1, 3])

    # 3.9: d1 lost more and fails: rupture; a2 is the vainqueur and pursues
    tabletop.next_phase(session, bid)
    assert "raté: rupture" in tabletop.resolve(session, bid, "after_melee_test", d1, a2, entered=[1])
    tabletop.next_phase(session, bid)
    assert "poursuite" in tabletop.resolve(session, bid, "pursuit", a2, d1)

    # the defender's bound: the attacker's 'this bound' states are gone, the rupture stays
    table = go_to(session, bid, "1.1", bound="defender")
    assert not table.units[a1].states and not table.units[a2].states
    assert table.units[d1].has("rout") and table.units[d1].size == 2
    go_to(session, bid, "3.1", bound="defender")
    with pytest.raises(CampaignError, match="en rupture"):
        tabletop.resolve(session, bid, "fire", d1, a1, numbers={"firing_ec": 2, "distance": 5})
    table = go_to(session, bid, "1.1", bound="attacker")
    assert table.position.turn == 2

    back = tabletop.returned(session, bid, "attacker")
    assert back.sp_by_side["defender"] == 1  # 4 EC of 6 lost: one SP, rounded to the nearest
    tabletop.end(session, bid, "attacker")
    fight = battles.load(session, bid)
    if fight.pursuit_step():
        battles.roll_pursuit(session, bid, [1])
    plan = battles.settlement(session, bid)
    assert plan.winner == "attacker"
    with session.store.read() as db:
        before = {force: db.get_one(CampaignUnit, force).strength_points for force in plan.by_unit}
    battles.apply(session, bid)
    session.close()

    reopened = CampaignSession.open(tmp_path / "x.campaign")
    try:
        with reopened.store.read() as db:
            row = db.get_one(BattleRow, bid)
            tactical = row.detail["tactical"]
            assert row.status == "done"
            assert tactical["ended"]["winner"] == "attacker" and tactical["ruleset"] == "napoleonic_uc_um"
            resolutions = [e for e in tactical["log"] if e["action"] != "edit"]  # the umpire's edits are logged too
            assert [e["action"] for e in resolutions][:3] == ["move", "fire", "save"]
            assert resolutions[1]["raw"] == [6, 6, 6, 1] and resolutions[1]["mode"] == "entered"
            stored = {u["id"]: u for u in tactical["units"]}
            assert stored[d1]["size"] == 2 and "rout" in stored[d1]["states"]
            force = stored[d1]["force"]
            assert row.detail["tabletop_result"]["by_unit"][force] == plan.by_unit[force]
            assert db.get_one(CampaignUnit, force).strength_points == before[force] - plan.by_unit[force]
    finally:
        reopened.close()

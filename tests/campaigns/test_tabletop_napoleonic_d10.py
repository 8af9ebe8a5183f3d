"""A whole battle of the spring 1813 campaign fought under the d10 battalion card
on the resolver screen's functions: the units from the campaign forces, a full turn
with entered dice, the end, and the losses back to the campaign after reopening."""

from __future__ import annotations

import pytest

from campaigns import battles, tabletop, weather
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Unit as CampaignUnit
from tests.campaigns.test_battles import draft
from tests.templates import new_campaign


def test_a_battle_on_the_d10_card_goes_back_to_the_campaign(tmp_path):
    path = tmp_path / "x.campaign"
    s = CampaignSession.open(new_campaign(path, "spring1813", seed=1813))
    weather.roll(s, [2])
    battle_id = battles.begin(s, draft(s), resolver="napoleonic_d10")
    assert tabletop.start(s, battle_id).endswith("under Napoleonic d10 battalion rules")

    table = tabletop.load(s, battle_id)
    attackers, defenders = table.side_units("attacker"), table.side_units("defender")
    a1, a2, d1 = attackers[0], attackers[1], defenders[0]
    # cohesion 2 (conscripts) is CW level 7 by conversion.toml [cw_level]; defaults give the rest
    assert (a1.size, a1.attr("cw_level"), a1.attr("formation"), a1.attr("weapon")) == (6, 7, "column", "musket")
    assert d1.attr("cw_level") == 11  # cohesion 4, line
    assert a1.attr("quality") == "conscript" and d1.attr("quality") == "line"  # converted from the forces' cohesion
    force = d1.force
    # the worked battle below is read at CW level 9 on both sides: the umpire sets it
    for unit in (a1, d1):
        tabletop.edit_unit(s, battle_id, unit.id, {"cw_level": "9"})
    table = tabletop.load(s, battle_id)
    a1, d1 = table.units[a1.id], table.units[d1.id]

    # Initiative: nothing else, and the phase does not end before the roll.
    with pytest.raises(CampaignError, match="Fire is not done in the Initiative phase"):
        tabletop.resolve(s, battle_id, "fire", a1.id, d1.id, numbers={"distance": 1}, entered=[8])
    with pytest.raises(CampaignError, match="roll for initiative"):
        tabletop.next_phase(s, battle_id)
    assert "the attacker has the initiative" in tabletop.resolve(s, battle_id, "initiative", a1.id, entered=[7, 3])
    assert tabletop.load(s, battle_id).battle_lines() == ["Initiative: the attacker moves first",
                                                          "Initiative held last by: the attacker"]

    assert tabletop.next_phase(s, battle_id) == "Turn 1, attacker: Movement"
    assert tabletop.resolve(s, battle_id, "move", a1.id, entered=[6]).endswith('Full: moves up to 8" in column (18" on road)')
    with pytest.raises(CampaignError, match="has rolled to move this turn"):
        tabletop.resolve(s, battle_id, "move", a1.id, entered=[6])
    tabletop.next_phase(s, battle_id)  # charges
    tabletop.next_phase(s, battle_id)  # fire

    # Two volleys at 1": 8 + 2 reads 7 casualty steps on the 6-stand line each.
    assert "7 casualty steps" in tabletop.resolve(s, battle_id, "fire", a1.id, d1.id, numbers={"distance": 1}, entered=[8])
    with pytest.raises(CampaignError, match="must check morale: Hit after class break point"):
        tabletop.next_phase(s, battle_id)
    assert tabletop.resolve(s, battle_id, "morale", d1.id, entered=[3, 2]).endswith('DOR = Disordered, moves 5" back facing the enemy')
    tabletop.resolve(s, battle_id, "fire", a2.id, d1.id, numbers={"distance": 1}, entered=[8])
    # Disordered -3, 50% or more losses -5: 4 - 8 reads the 0-2 row, Brok in the 9-10 column
    assert "]: Brok = Broken" in tabletop.resolve(s, battle_id, "morale", d1.id, entered=[2, 2])
    # 'Friendly unit within 3" breaks or routs': d2 stood 2" from d1, and checks morale (CW 11: 18 reads NE)
    d2 = defenders[1]
    said = tabletop.resolve(s, battle_id, "friend_breaks", d2.id, numbers={"friend_within": 2})
    assert said.endswith('#2 checks morale: Friendly unit within 3" breaks or routs')
    with pytest.raises(CampaignError, match='must check morale: Friendly unit within 3" breaks or routs'):
        tabletop.next_phase(s, battle_id)
    assert tabletop.resolve(s, battle_id, "morale", d2.id, entered=[9, 9]).endswith("NE = No effect")

    for expected in ("Melee", "Morale", "Initiative"):
        assert tabletop.next_phase(s, battle_id).endswith(expected)
    table = tabletop.load(s, battle_id)
    assert table.position.turn == 2
    d1_now = table.units[d1.id]
    assert d1_now.size == 2 and d1_now.attr("steps_lost") == 14 and d1_now.states == {"broken": 2}
    # the initiative is the battle's and lasted turn 1; who held it last is kept for a tie
    assert table.battle == {"initiative_held": "attacker"}
    assert not any(u.has("initiative") for u in table.units.values())

    back = tabletop.returned(s, battle_id, "attacker")
    assert back.sp_by_force == {force: 1}  # 4 of 6 stands, nearest SP
    tabletop.end(s, battle_id, "attacker")
    if battles.load(s, battle_id).pursuit_step() is not None:
        battles.roll_pursuit(s, battle_id, [1])
    settled = battles.settlement(s, battle_id)
    assert settled.by_unit == {force: 1}
    with s.store.read() as db:
        before = db.get_one(CampaignUnit, force).strength_points
    battles.apply(s, battle_id)
    s.close()

    again = CampaignSession.open(path)
    try:
        table = tabletop.load(again, battle_id)
        assert table.ended["winner"] == "attacker"
        resolutions = [e for e in table.log if e["action"] != "edit"]  # the umpire's edits are logged too
        assert [e["action"] for e in resolutions] == ["initiative", "move", "fire", "morale", "fire", "morale", "friend_breaks", "morale"]
        assert resolutions[2]["raw"] == [8] and resolutions[2]["needed"].startswith('1d10 (Close Action 1" +2)')
        assert table.units[d1.id].attr("steps_lost") == 14
        with again.store.read() as db:
            assert db.get_one(CampaignUnit, force).strength_points == before - 1
        assert battles.load(again, battle_id).status != "pending"
    finally:
        again.close()

"""A whole battle of the 1813 campaign fought on the tabletop under the 13-phase card.

The French attack (option french_side: the attacker plays the card's French), the
Russo-Prussians play the card's Austrians. One full turn, phase 1 to 13, every
resolution with the dice typed in; then the losses go back to the campaign and the
file, reopened, holds them.
"""

from __future__ import annotations

from functools import partial

import pytest

from campaigns import battles, tabletop, weather
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Battle, Unit
from tests.templates import new_campaign

# Forces from all over the map: the umpire overrides contact (campaigns/contact.py).
GATHERED = "forces gathered from the whole map for the test"

FRENCH = ["xi_fressinet", "ii_cavalry_corps", "guard_artillery"]
ALLIES = ["brigade_klux", "barclay_cavalry", "blucher_artillery"]


@pytest.fixture
def fought(tmp_path):
    path = tmp_path / "x.campaign"
    session = CampaignSession.open(new_campaign(path, "spring1813", seed=1813))
    weather.roll(session, [2])
    draft = battles.Draft("Lützen", FRENCH, ALLIES, battles.leaders_at(session, FRENCH), battles.leaders_at(session, ALLIES), {}, override=GATHERED)
    battle_id = battles.begin(session, draft, resolver="napoleonic_13phase")
    yield session, battle_id, path
    session.close()


def ids(session, battle_id):
    """Unit ids by campaign force, in order: {"xi_fressinet": ["a1", "a2"], ...}."""
    out: dict[str, list[str]] = {}
    for u in tabletop.load(session, battle_id).units.values():
        out.setdefault(u.force, []).append(u.id)
    return out


def phase_is(session, battle_id, number):
    assert tabletop.load(session, battle_id).phase.id == f"phase_{number}"


def test_a_whole_turn_and_back_to_the_campaign(fought):
    session, battle_id, path = fought
    # 11 from the SP; the Guard Artillery Reserve's AB 6 and Blücher's reserve's AB 3 are
    # 6 and 3 batteries ([artillery_bonus]), their SP-made battery the first of each: 11 + 5 + 2.
    assert tabletop.start(session, battle_id) == "18 units on the table under French-Austrian 13-phase rules"
    table = tabletop.load(session, battle_id)
    by_force = ids(session, battle_id)
    a1, a2 = by_force["xi_fressinet"]
    a3 = by_force["ii_cavalry_corps"][0]
    guns = by_force["guard_artillery"][0]
    d1, d2, d3 = by_force["brigade_klux"]
    d4 = by_force["barclay_cavalry"][0]
    enemy_guns = by_force["blucher_artillery"][0]
    assert table.units[a1].attr("unit_type") == "infantry_column" and table.units[a1].size == 12
    assert table.units[a1].attr("quality") == "conscript"  # XI Corps' cohesion 2
    assert table.units[guns].attr("gun_pounds") == 6 and table.units[a3].attr("unit_type") == "light_cavalry"
    resolve = partial(tabletop.resolve, session, battle_id)
    next_phase = partial(tabletop.next_phase, session, battle_id)

    # 1. Artillery: 4 crew dice at a Column, 4+, +1 Close Range -1 if 6lbs or lighter: 6 6 5 hit.
    with pytest.raises(CampaignError, match="Fire is not done in the 1. Adjust and Fire Artillery"):
        resolve("fire", a1, d1, numbers={"distance": 3})
    assert "3 hits" in resolve("artillery_fire", guns, d1, ticked=["close_range", "light"], entered=[6, 6, 5, 1])
    assert "0 hits" in resolve("artillery_fire", enemy_guns, a1, ticked=["light"], entered=[1, 2, 3, 3])
    assert next_phase() == "Turn 1, attacker: 2. Check Morale for Artillery Casualties"

    # 2. The battalion hit checks morale: Veteran 5, -1 per 3 casualties: 4 or less; a 2 passes.
    with pytest.raises(CampaignError, match="took casualties and checks morale"):
        next_phase()
    with pytest.raises(CampaignError, match="took no artillery casualties"):
        resolve("morale", d2, entered=[1])
    assert resolve("morale", d1, entered=[2]).endswith("Pass: Carry On")
    next_phase()

    # 3. The French column charges; an Austrian battalion shoots it (6 dice at a Column, 4+); the
    #    French light cavalry charge the Austrian cavalry, 14” + 2d6”.
    assert "charges" in resolve("charge", a1, d2)
    with pytest.raises(CampaignError, match="the French do not shoot in phase 3"):
        resolve("fire", a2, d3, numbers={"distance": 2})
    assert "2 hits" in resolve("fire", d3, a1, numbers={"distance": 3}, entered=[6, 6, 1, 1, 1, 1])
    assert "21”" in resolve("charge", a3, d4, entered=[3, 4])
    next_phase()

    # 4. The column tests to close: Conscript 4, -1 Infantry Charging: 3 or less; a 1: En Evant!
    with pytest.raises(CampaignError, match="not finished"):
        next_phase()
    assert resolve("morale", a1, ticked=["infantry_charging"], entered=[1]).endswith("En Evant! Continue to phase 5.")
    next_phase()

    # 5. The charged battalion tests to stand: Veteran column 5; a 6 fails by 1: contact.
    with pytest.raises(CampaignError, match="checks morale to stand against"):
        next_phase()
    assert "Fight in phase 6" in resolve("stand", d2, a1, entered=[6])
    next_phase()

    # 6. Melee: the Conscript column's 10 figures roll 5 dice (1 per 2), the Veteran column's 12
    #    roll 8 (2 per 3); 6 6 6 6 against nothing: the Austrians lose. The cavalry tie, 4 dice each.
    text = resolve("melee", a1, d2, entered=[6, 6, 6, 6, 1] + [1] * 8)
    assert "Attacker inflicts 4, defender inflicts 0: defender loses" in text
    assert "tie" in resolve("melee", a3, d4, entered=[1] * 8)
    next_phase()

    # 7. The loser tests: Veteran 5, 4 casualties -1: 4 or less; a 6 fails by 2: it forms line.
    with pytest.raises(CampaignError, match="lost a melee and checks morale"):
        next_phase()
    assert "Infantry not in line form line" in resolve("morale", d2, entered=[6])
    assert tabletop.load(session, battle_id).units[d2].attr("unit_type") == "infantry_line"
    next_phase()

    # 8. The French shoot: 6 dice at a Column, 4+; 4 4 4 4 hit.
    with pytest.raises(CampaignError, match="the French do not move in phase 8"):
        resolve("move", a2)
    assert "4 hits" in resolve("fire", a2, d3, numbers={"distance": 2}, entered=[4, 4, 4, 4, 1, 1])
    assert "moves up to 14”" in resolve("move", by_force["barclay_cavalry"][1])
    next_phase()

    # 9. The battalion shot tests: Veteran 5, 4 casualties -1; a 5 fails by 1: it stands in place.
    assert "Others stand in place." in resolve("morale", d3, entered=[5])
    next_phase()
    next_phase()  # 10. no Austrian charge: no French infantry tests to stand

    # 11. The melees go on: the Austrian line (8 figures, 1 die per 2: 4 dice) loses again.
    assert "defender loses" in resolve("melee", a1, d2, ticked=["continuing"], entered=[6] * 5 + [1] * 4)
    assert "tie" in resolve("melee", a3, d4, ticked=["continuing"], entered=[1] * 8)
    next_phase()

    # 12. Veteran 5, 9 casualties -3: 2 or less; a 6 fails by 4: Rout.
    assert resolve("morale", d2, entered=[6]).endswith("Rout. Remove the unit from the game.")
    next_phase()

    # 13. The cavalry that charged must roll to recall: a 1 passes.
    with pytest.raises(CampaignError, match="rolls to recall"):
        next_phase()
    assert "picked up and placed" in resolve("recall", a3, entered=[1])
    assert next_phase() == "Turn 2, attacker: 1. Adjust and Fire Artillery, Roll for Reserves"

    table = tabletop.load(session, battle_id)
    assert table.units[d2].removed and table.units[d2].size == 3
    assert not table.units[a1].has("charging")  # it lasted the turn
    assert not table.units[a1].has("in_melee")  # its opponent routed
    assert not table.units[a3].has("charge_marker")

    # The end: Brigade Klüx lost 3 + 9 + 4 = 16 figures; d2 routed off the table with 3 left,
    # which count lost too (option routed_at_end): 19 figures, 19/12 SP rounded to the nearest: 2.
    back = tabletop.returned(session, battle_id, "attacker")
    assert back.sp_by_force == {"brigade_klux": 2}
    tabletop.end(session, battle_id, "attacker")
    if battles.load(session, battle_id).pursuit_step() is not None:
        battles.roll_pursuit(session, battle_id, [1])
    plan = battles.settlement(session, battle_id)
    assert plan.winner == "attacker" and plan.by_unit.get("brigade_klux", 0) >= 1
    with session.store.read() as db:
        before = db.get_one(Unit, "brigade_klux").strength_points
    battles.apply(session, battle_id)
    session.close()

    reopened = CampaignSession.open(path)
    try:
        with reopened.store.read() as db:
            row = db.get_one(Battle, battle_id)
            assert row.status == "done"
            assert db.get_one(Unit, "brigade_klux").strength_points == before - plan.by_unit["brigade_klux"]
            tactical = row.detail["tactical"]
        assert tactical["ruleset"] == "napoleonic_13phase"
        assert tactical["options"]["french_side"] == "attacker"
        assert tactical["position"] == {"turn": 2, "bound": "attacker", "phase": 0}
        assert tactical["ended"]["winner"] == "attacker"
        stored = {u["id"]: u for u in tactical["units"]}
        assert stored[d2]["removed"] and stored[d2]["size"] == 3
        assert stored[d1]["size"] == 9 and stored[d3]["size"] == 8 and stored[a1]["size"] == 10
        assert len(tactical["log"]) == 18  # every resolution of the turn, refusals not logged
        assert tactical["log"][0]["phase"] == "phase_1" and tactical["log"][0]["raw"] == [6, 6, 5, 1]
        assert tactical["log"][-1]["text"].startswith("Pass: The cavalry unit is picked up")
    finally:
        reopened.close()


def test_the_first_turn_comes_from_the_battle_and_a_firefight_is_stored(fought):
    # "Double move if staying over 24” from the enemy, except 1st turn!": the battle's own turn counts.
    session, battle_id, _ = fought
    tabletop.start(session, battle_id)
    by_force = ids(session, battle_id)
    a1 = by_force["xi_fressinet"][0]
    d1 = by_force["brigade_klux"][0]
    resolve = partial(tabletop.resolve, session, battle_id)
    next_phase = partial(tabletop.next_phase, session, battle_id)
    next_phase()
    next_phase()  # turn 1, phase 3: the French move
    assert "moves up to 8” (8”; first turn: no double move)" in resolve("move", a1, ticked=["over_24_from_enemy"])
    for _ in range(13):
        next_phase()  # turn 2, phase 3
    assert tabletop.load(session, battle_id).position.turn == 2
    assert "moves up to 16”" in resolve("move", a1, ticked=["over_24_from_enemy"])
    with pytest.raises(CampaignError, match="a wheel is limited to 45 degrees, not 90"):
        resolve("move", a1, numbers={"wheel": 90})
    # Phase 8: the French line shoots the Austrian line 3” away: both are locked, as stored, until
    # the umpire takes the state off.
    resolve("change_formation", a1, ticked=["line"])
    tabletop.edit_unit(session, battle_id, d1, {"unit_type": "infantry_line"})
    for _ in range(5):
        next_phase()
    assert "locked in a firefight" in resolve("fire", a1, d1, numbers={"distance": 3}, entered=[1] * 6)
    table = tabletop.load(session, battle_id)
    assert table.units[a1].has("firefight") and table.units[d1].has("firefight")
    assert "locked in a firefight: no move" in resolve("move", d1, ticked=["in_firefight"])
    tabletop.set_state(session, battle_id, d1, "firefight", False)
    assert not tabletop.load(session, battle_id).units[d1].has("firefight")

"""Where sightings come from (a reconnaissance's result by the named reading, a battle, contact,
the umpire's report) and that each is undone with the action that made it."""

from __future__ import annotations

import sqlite3

import pytest
from sqlmodel import select

from campaigns import battles, knowledge, orders, weather
from campaigns.despatch import write_despatch
from campaigns.errors import CampaignError
from campaigns.rules_options import choose
from campaigns.session import CampaignSession
from models import General, Unit
from rules.allemagne1813.sighting import learned, reading
from rules.errors import RulesError
from tests.templates import new_campaign


def test_each_result_of_the_graded_reading_reveals_more():
    stack = (["General Kleist"], [("Kleist's brigade", "infantry", 3), ("Dummy", "dummy", 0), ("Cossacks", "cavalry", 4)])
    # 1: the stack, SP to the nearest 10 (7 -> 10); 2: also its units counted, dummies with them, SP to 5
    assert learned(1, *stack) == {"strength_points": 10, "estimate": "about 10 SP", "reveals": "a stack is there; its SP rounded to the nearest 10"}
    assert learned(2, *stack)["units_counted"] == 3 and learned(2, *stack)["strength_points"] == 5
    # 3: the generals, the arms (the dummy seen through), the exact SP; 4: every unit by name
    three = learned(3, *stack)
    assert (three["generals"], three["arms"], three["units_counted"], three["strength_points"]) == (
        ["General Kleist"], {"infantry": 1, "cavalry": 1}, 2, 7)
    assert "units" not in three
    assert [u["name"] for u in learned(4, *stack)["units"]] == ["Kleist's brigade", "Cossacks"]


def test_the_other_readings_of_a_result():
    assert [reading(r) for r in (0, 1, 2, 3, 4)] == [0, 1, 2, 3, 4]
    assert [reading(r, {"reconnaissance_reveals": "everything"}) for r in (0, 1, 4)] == [0, 4, 4]
    assert [reading(r, {"reconnaissance_reveals": "presence"}) for r in (0, 1, 4)] == [0, -1, -1]
    assert learned(-1, [], [("A", "infantry", 3)]) == {"strength_points": 3, "reveals": "a stack is there, with its exact SP"}
    with pytest.raises(RulesError):
        learned(0, [], [])


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "s.campaign", "spring1813", seed=1813))
    weather.roll(s, [2])  # April +1: 3, Clear
    yield s
    s.close()


def test_a_battle_shows_each_side_the_whole_enemy_it_fights_and_undo_takes_it_back(session):
    draft = battles.Draft("Lützen", ["iii_souham", "iii_brenier_girard"], ["brigade_klux"], [], [],
                          override="forces gathered for the test")
    battles.begin(session, draft)
    french = knowledge.known(session, "french").sightings
    allies = knowledge.known(session, "allies").sightings
    assert [(s.source, s.place) for s in french] == [("battle", "Lützen")]
    assert [u["name"] for u in french[0].learned["units"]] == ["Blücher's Corps: Brigade Klüx"]
    with session.store.read() as db:
        names = sorted(db.get_one(Unit, u).name for u in ("iii_souham", "iii_brenier_girard"))
    assert sorted(u["name"] for u in allies[0].learned["units"]) == names
    session.store.undo()
    assert knowledge.known(session, "french").sightings == ()


def test_a_side_file_holds_the_dice_of_the_battles_its_side_fought(session, tmp_path):
    draft = battles.Draft("Lützen", ["iii_souham", "iii_brenier_girard"], ["brigade_klux"], [], [],
                          override="forces gathered for the test")
    battle_id = battles.begin(session, draft)
    battles.roll_step(session, battle_id)
    battles.roll_step(session, battle_id)
    with session.store.read() as db:
        from models import DiceRoll

        fought = [r.id for r in db.scalars(select(DiceRoll).where(DiceRoll.purpose.not_like("weather%")))]
    assert len(fought) == 2
    side = write_despatch(session, "allies", tmp_path / "allies.campaign")
    with sqlite3.connect(side) as db:
        held = [row[0] for row in db.execute("SELECT id FROM dice_roll ORDER BY id")]
        assert db.execute("SELECT count(*) FROM battle").fetchone() == (1,)
    assert set(fought) <= set(held)


def test_contact_sightings_follow_the_option_and_are_made_once_a_turn(session):
    with session.store.action("Ney's stack marches onto Leipzig") as db:  # Wittgenstein's stack stands there
        db.get_one(General, "ney").location = "Leipzig"
        for unit in db.scalars(select(Unit).where(Unit.general == "ney")):
            unit.location = "Leipzig"
    said = knowledge.sight_contacts(session)
    assert "French Empire and allies see the enemy at Leipzig" in said
    assert "Russia and Prussia see the enemy at Leipzig" in said
    assert knowledge.sight_contacts(session) == ["No new contact to sight this turn."]
    (seen,) = [s for s in knowledge.known(session, "allies").sightings if s.place == "Leipzig"]
    assert seen.source == "contact" and set(seen.learned) == {"strength_points", "estimate", "reveals"}
    choose(session, "contact_reveals", "0")
    assert knowledge.sight_contacts(session) == ["Contact reveals nothing under the option contact_reveals=0."]


def test_the_umpires_report_refuses_in_one_sentence(session):
    assert "Reported to Russia and Prussia" in knowledge.report(session, "allies", "Weimar", 3, "a deserter")
    for args, said in (
        (("prussia", "Weimar", 1), "there is no side 'prussia'"),
        (("allies", "Atlantis", 1), "no place .Atlantis. in the gazetteer"),
        (("allies", "Weimar", 7), "level of 0"),
        (("allies", "Kassel", 2), "no enemy"),
        (("allies", "Weimar", 0), "needs a note"),
    ):
        with pytest.raises(CampaignError, match=said):
            knowledge.report(session, *args)


def test_an_order_naming_the_enemys_stack_is_not_obeyed(session, tmp_path):
    side = write_despatch(session, "french", tmp_path / "fr.campaign")
    player = CampaignSession.open(side)
    try:
        orders.write(player, "note", text="hold")
        document = orders.export(player)
    finally:
        player.close()
    document["orders"] = [{"kind": "move", "stack": "blucher", "place": "Dresden", "text": ""}]
    orders.import_orders(session, orders.OrdersDoc.model_validate(document))
    (queued,) = orders.listed(session, "french")
    with pytest.raises(CampaignError, match="not theirs to order"):
        orders.apply(session, queued.id)


def test_a_despatch_of_a_postgresql_campaign_is_a_file_holding_one_side(postgres_url, tmp_path):
    from campaigns.scenario import load_scenario

    from sqlalchemy import text

    from campaigns import command_points
    from models.visibility import FILTERS, predicate

    new_campaign(postgres_url, load_scenario("spring1813"), seed=1813)
    session = CampaignSession.open(postgres_url)
    try:
        weather.roll(session, [2])
        command_points.roll(session, "allied_army", [3])
        draft = battles.Draft("Lützen", ["iii_souham"], ["brigade_klux"], [], [], override="forces gathered for the test")
        battles.roll_step(session, battles.begin(session, draft))
        out = write_despatch(session, "allies", tmp_path / "allies.campaign")
        # the same rows by the PostgreSQL form of the row filters (the club server's policies)
        with sqlite3.connect(out) as db:
            held = {t: sorted(r[0] for r in db.execute(f'SELECT * FROM "{t}"')) for t in FILTERS}
        with session.store.connect() as db:
            for table in FILTERS:
                query = text(f'SELECT * FROM "{table}" WHERE {predicate(table, "postgresql")}')
                assert sorted(r[0] for r in db.execute(query, {"side": "allies", "turn": 1})) == held[table], table
    finally:
        session.close()
    data = out.read_bytes()
    assert "Wittgenstein".encode() in data and "Marshal Ney".encode() not in data
    with sqlite3.connect(out) as db:
        assert db.execute("SELECT fog_side, dice_seed, dice_salt FROM campaign").fetchone() == ("allies", 0, None)


def test_the_row_filters_select_what_the_side_file_holds(session, tmp_path):
    """models.visibility states a side's view as SQL; the despatch must hold exactly those rows."""
    from sqlalchemy import text

    from campaigns import command_points
    from campaigns.reconnaissance import reconnoitre_stack
    from models.visibility import FILTERS, predicate

    for army in ("army_of_the_main", "army_of_the_elbe", "allied_army"):
        command_points.roll(session, army, [3])
    reconnoitre_stack(session, "french@Eisleben", "allies@Halle", entered=[6])
    draft = battles.Draft("Lützen", ["iii_souham"], ["brigade_klux"], [], [], override="forces gathered for the test")
    battles.roll_step(session, battles.begin(session, draft))
    for side in ("french", "allies"):
        out = write_despatch(session, side, tmp_path / f"{side}.campaign")
        with sqlite3.connect(out) as db:
            held = {t: sorted(r[0] for r in db.execute(f'SELECT * FROM "{t}"')) for t in FILTERS}
        with session.store.connect() as db:
            for table in FILTERS:
                query = text(f'SELECT * FROM "{table}" WHERE {predicate(table)}')
                chosen = sorted(r[0] for r in db.execute(query, {"side": side, "turn": 1}))
                assert chosen == held[table], f"{side}: {table}"

"""A player on a club's shared campaign, connected as the side's PostgreSQL role: the player
session of the side file, its reads allowed by row-level security, its orders inserted queued
as that role, and the umpire applying them from the same database."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sqlalchemy import select, text

from campaigns import command_points, knowledge, movement, orders, weather
from campaigns.errors import CampaignError
from campaigns.past import moment
from campaigns.player import ClubPlayerSession, ReadOnlySideFile, open_side
from campaigns.session import CampaignSession
from campaigns.setup import create_campaign
from campaigns.scenario import load_scenario
from campaigns.reconnaissance import reconnoitre_stack
from campaigns.stacks import all_stacks
from models import Campaign, Event, General, open_campaign
from models.visibility import FILTERS, predicate
from tui.cli import main
from tui.launch import main as launch


@pytest.fixture
def club(postgres_url: str, capsys: pytest.CaptureFixture[str]) -> Iterator[dict]:
    create_campaign(postgres_url, load_scenario("spring1813"), seed=1813).close()
    umpire = CampaignSession.open(postgres_url)
    try:
        weather.roll(umpire, [2])
        for army in command_points.turn_points(umpire):
            command_points.roll(umpire, army.army, [3])
        # I Cavalry Corps at Eisleben looks at Halle, one road away: one unit of about 5 SP
        reconnoitre_stack(umpire, "french@Eisleben", "allies@Halle", entered=[6])
        movement.activate(umpire, "ney")
        movement.activate(umpire, "blucher")
    finally:
        umpire.close()
    assert main(["club", "setup", "--db", postgres_url, "--json"]) == 0
    yield {who: place["url"] for who, place in json.loads(capsys.readouterr().out).items()}
    assert main(["club", "revoke", "--db", postgres_url]) == 0  # roles outlive a dropped database


def test_the_french_player_reads_their_side_and_queues_orders_the_umpire_applies(club: dict):
    player = open_side(club["french"], "french")
    try:
        assert isinstance(player, ClubPlayerSession) and player.side == "french" and player.turn == 1
        assert player.status_line().startswith("CLUB: FRENCH (orders only) | 26 Apr 1813 | turn 1/20")
        view = player.overview()  # the first screen: its every query is allowed to the role
        assert view.recent_events == () and not view.can_undo
        assert {s.side for s in all_stacks(player)} == {"french"}
        campaign = player.campaign()  # the ORM never asks for the seed, which the role may not read
        assert campaign.turn == 1
        with pytest.raises(Exception, match="dice_seed"):
            campaign.dice_seed  # noqa: B018
        with player.store.read() as db:
            assert db.scalars(select(Event)).all() == []
            assert db.get(General, "blucher") is None and db.get(General, "ney") is not None
        with pytest.raises(ReadOnlySideFile, match="french side's view of the club's campaign"):
            movement.activate(player, "bertrand")
        with pytest.raises(ReadOnlySideFile):
            player.store.undo()
        with pytest.raises(CampaignError, match="nothing to export"):
            orders.export(player)
        with pytest.raises(CampaignError, match="a side's view cannot show it"):
            moment(player, turn=1)
        with pytest.raises(CampaignError, match="stays on its server"):
            player.save_as("copy.campaign")
        with pytest.raises(CampaignError, match="not yours to order|no general"):
            orders.write(player, "move", "blucher", "Leipzig")
        assert "MP by" in orders.write(player, "move", "latour_maubourg", "Querfurt")
        orders.write(player, "note", text="Ney to hold the Saale crossings")
        assert [(o.kind, o.status) for o in orders.listed(player)] == [("move", "queued"), ("note", "queued")]
        assert [s.place for s in knowledge.known(player, "french").sightings] == ["Halle"]
    finally:
        player.close()
    allies = open_side(club["allies"], "allies")
    try:
        assert orders.listed(allies) == [] and knowledge.known(allies, "allies").sightings == ()  # none theirs
    finally:
        allies.close()
    umpire = CampaignSession.open(club["umpire"])
    try:
        move, note = orders.listed(umpire, "french")
        assert "Querfurt" in orders.apply(umpire, move.id)
        orders.refuse(umpire, note.id, "no such crossing held")
        with umpire.store.read() as db:
            assert db.get_one(General, "latour_maubourg").location == "Querfurt"
            assert db.get_one(Campaign, 1).dice_seed == 1813
    finally:
        umpire.close()


def test_a_sides_role_reads_the_rows_its_side_file_would_hold(club: dict, postgres_url: str):
    """Row-level security and models/visibility.py agree, table by table: the database shows the
    French role what a despatch to the French at this turn would hold."""
    player = open_side(club["french"], "french")
    try:
        orders.write(player, "note", text="the rows of the orders table too")
    finally:
        player.close()
    tables = {"turn": "number"}
    with open_campaign(postgres_url) as owner, owner.connect() as db:
        turn = db.execute(text("SELECT turn FROM campaign")).scalar_one()
        expected = {
            table: sorted(db.execute(text(f"SELECT {tables.get(table, 'id')} FROM {table} WHERE {predicate(table, 'postgresql')}"),
                                     {"side": "french", "turn": turn}).scalars())
            for table in FILTERS
        }
    with open_campaign(club["french"]) as french, french.connect() as db:
        read = {table: sorted(db.execute(text(f"SELECT {tables.get(table, 'id')} FROM {table}")).scalars()) for table in FILTERS}
    assert read == expected
    assert all(expected[t] for t in ("unit", "sighting", "side_order", "activation", "command_point_roll", "dice_roll"))


def test_a_side_that_is_not_the_roles_is_one_sentence(club: dict, postgres_url: str, capsys: pytest.CaptureFixture[str]):
    refusals = [
        (["--side", "french", "--db", club["allies"]], "(the allies role), not the french side's role"),
        (["--side", "french", "--db", club["umpire"]], "(the umpire role), not the french side's role"),
        (["--side", "french", "--db", postgres_url], "not the french side's role"),
        (["--side", "prussia", "--db", club["allies"]], "the campaign has no side 'prussia' (its sides: french, allies)"),
    ]
    for argv, sentence in refusals:
        assert launch(argv) == 2
        err = capsys.readouterr().err
        assert sentence in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_side_checks_a_side_file_and_refuses_the_umpires_file(tmp_path, capsys: pytest.CaptureFixture[str]):
    umpire = tmp_path / "umpire.campaign"
    create_campaign(umpire, load_scenario("spring1813"), seed=1813).close()
    side = tmp_path / "fr.campaign"
    assert main(["despatch", str(umpire), "--side", "french", "-o", str(side)]) == 0
    capsys.readouterr()
    opened = open_side(str(side), "french")
    opened.close()
    with pytest.raises(CampaignError, match="is the french side's file, not the allies side's"):
        open_side(str(side), "allies")
    with pytest.raises(CampaignError, match="is the umpire's campaign: --side opens a club's campaign"):
        open_side(str(umpire), "french")

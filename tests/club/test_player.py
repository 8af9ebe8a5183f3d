"""A player on a club's shared campaign, connected as the side's PostgreSQL role: the player
session of the side file, its reads allowed by row-level security, its orders inserted queued
as that role, and the umpire applying them from the same database."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sqlalchemy import select, text

from campaigns import battles, command_points, knowledge, luck, movement, orders, weather
from campaigns.account import account
from campaigns.despatch import write_despatch
from campaigns.errors import CampaignError
from campaigns.past import moment
from campaigns.player import ClubPlayerSession, ReadOnlySideFile, open_side
from campaigns.session import CampaignSession
from campaigns.scenario import load_scenario
from campaigns.reconnaissance import reconnoitre_stack
from campaigns.stacks import all_stacks
from models import Battle, Campaign, DiceRoll, Event, General, open_campaign
from models.visibility import FILTERS, predicate
from tui.cli import main
from tui.launch import main as launch

from tests.club.conftest import Fought
from tests.templates import database_built_once, new_campaign


def _play_the_turn(url: str) -> None:
    """A new campaign at `url` (an empty database) and the umpire's turn so far: the weather
    and the command points rolled, a reconnaissance, Ney and Blücher activated."""
    new_campaign(url, load_scenario("spring1813"), seed=1813)
    umpire = CampaignSession.open(url)
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


@pytest.fixture
def club(postgres_url: str, capsys: pytest.CaptureFixture[str]) -> Iterator[dict]:
    # The umpire's turn played once per worker and copied (tests/templates.py): playing it for each
    # test was a fifth of the test's CPU, and as much again of the server's.
    database_built_once(postgres_url, "club_turn", _play_the_turn)
    assert main(["club", "setup", "--db", postgres_url, "--json"]) == 0
    yield {who: place["url"] for who, place in json.loads(capsys.readouterr().out).items()}
    assert main(["club", "revoke", "--db", postgres_url]) == 0  # roles outlive a dropped database


def test_the_french_player_reads_their_side_and_queues_orders_the_umpire_applies(club: dict):
    player = open_side(club["french"], "french")
    try:
        assert isinstance(player, ClubPlayerSession) and player.side == "french" and player.turn == 1
        assert player.status_line().startswith("CLUB: French Empire and allies (orders only) | Weather | turn 1/20 | 26 Apr 1813")
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


def test_a_sides_role_reads_the_rows_its_side_file_would_hold(club: dict, postgres_url: str, tmp_path):
    """Row-level security, models/visibility.py and the despatch agree, table by table: the
    database shows the French role what a despatch to the French at this turn holds."""
    player = open_side(club["french"], "french")
    try:
        orders.write(player, "note", text="the rows of the orders table too")
    finally:
        player.close()
    read = reads_as_in_side_file(postgres_url, club["french"], "french", tmp_path)
    assert all(read[t] for t in ("unit", "sighting", "side_order", "activation", "command_point_roll", "dice_roll"))


KEYS = {"turn": "number"}


def reads_as_in_side_file(owner_url: str, role_url: str, side: str, folder) -> dict[str, list]:
    """What the side's role reads of each table of models.visibility, checked row for row against the
    rows its filter selects (as the campaign's owner) and those its side file holds; returned."""
    with open_campaign(owner_url) as owner, owner.connect() as db:
        turn = db.execute(text("SELECT turn FROM campaign")).scalar_one()
        expected = {
            table: sorted(db.execute(text(f"SELECT {KEYS.get(table, 'id')} FROM {table} WHERE {predicate(table, 'postgresql')}"),
                                     {"side": side, "turn": turn}).scalars())
            for table in FILTERS
        }
    umpire = CampaignSession.open(owner_url)
    try:
        held = write_despatch(umpire, side, folder / f"{side}-now.campaign")
    finally:
        umpire.close()
    read, rows = {}, {}
    for target, found in ((role_url, read), (str(held), rows)):
        with open_campaign(target) as store:
            with store.connect() as db:
                found.update({table: sorted(db.execute(text(f"SELECT {KEYS.get(table, 'id')} FROM {table}")).scalars()) for table in FILTERS})
            with store.read() as db:  # the whole rows of the battles and of their dice (a side file keeps no event)
                found["battle"] = [_shown(b) for b in db.scalars(select(Battle).order_by(Battle.id))]
                found["dice_roll"] = [_shown(r, event=None) for r in db.scalars(select(DiceRoll).order_by(DiceRoll.id))]
    assert [r.id for r in read["battle"]] == expected["battle"] and [r.id for r in read["dice_roll"]] == expected["dice_roll"]
    assert {t: v for t, v in read.items() if t not in ("battle", "dice_roll")} == {
        t: v for t, v in expected.items() if t not in ("battle", "dice_roll")}
    # a despatch carries no orders: the player writes them in it; on the club they are queued at once
    assert rows["side_order"] == [] and {**read, "side_order": []} == rows
    return read


def _shown(row, **changes):
    values = row.model_dump()
    values.update(changes)
    return type(row)(**values)


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


def test_an_umpires_command_as_a_sides_role_is_refused_not_called_damaged(club: dict, capsys: pytest.CaptureFixture[str]):
    """The French player runs the umpires' commands with the French role's URL: each is one sentence
    saying the role may not (row-level security at work), never "is damaged" (which sends a club's
    umpire to `check` and `export --salvage` over a sound campaign)."""
    for argv in (["route", "--db", club["french"], "napoleon", "Naumburg"], ["options", "--db", club["french"]],
                 ["activate", "--db", club["french"], "napoleon"], ["export", "--db", club["french"]],
                 ["check", "--db", club["french"]]):
        assert main(argv) != 0
        err = capsys.readouterr().err
        assert "the role it connects as may not do this (permission denied" in err, (argv, err)
        assert "damaged" not in err and err.count("\n") == 1, (argv, err)


def test_orders_write_with_a_sides_url_queues_the_order_as_that_role(club: dict, capsys: pytest.CaptureFixture[str]):
    """`adjutant orders write URL KIND` with the French role's URL writes as the app's player does,
    straight into the umpires' queue (it said "orders are written in a side file"); the umpires'
    URL still writes nothing, and the other side's role cannot write for the French."""
    assert main(["orders", "write", club["french"], "note", "--text", "Ney holds Weimar"]) == 0, capsys.readouterr().err
    assert "Written: note" in capsys.readouterr().out
    assert main(["orders", "write", club["allies"], "move", "--stack", "ney", "--to", "Naumburg"]) == 2
    assert "there is no general 'ney'" in capsys.readouterr().err
    assert main(["orders", "write", club["umpire"], "note", "--text", "x"]) == 2
    assert "side file" in capsys.readouterr().err
    assert main(["orders", "list", club["umpire"]]) == 0
    assert "french, turn 1, note: Ney holds Weimar [queued]" in capsys.readouterr().out
    assert main(["orders", "list", club["allies"]]) == 0
    assert capsys.readouterr().out == "No orders.\n"


def test_the_umpires_orders_screen_shows_an_order_queued_since_it_was_last_shown(club: dict):
    """The README: the umpires see a player's orders queued at once (O in their app). A side's role
    queues an order with no new version of the campaign, and the Orders screen, shown once, was
    read again only when the version moved: the umpire saw the old queue until his own next change."""
    import asyncio

    from tests.tui.helpers import wait_for
    from tui.app import AdjutantApp

    async def play() -> None:
        app = AdjutantApp(CampaignSession.open(club["umpire"]), prepare=False)
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("O")
            assert "Ney holds Weimar" not in await wait_for(pilot, "Orders queued by side")
            player = open_side(club["french"], "french")
            try:
                orders.write(player, "note", text="Ney holds Weimar")
            finally:
                player.close()
            await pilot.press("o")
            await wait_for(pilot, "Overview")
            await pilot.press("O")
            await wait_for(pilot, "Ney holds Weimar")

    asyncio.run(play())


def test_a_reconnaissance_order_applied_tells_the_side_its_sighting_not_the_screens_cavalry_or_the_die(club: dict):
    """The ruling of an applied order is the side's to read (its role, its side file). A reconnaissance's
    roll names the column of the cavalry differential (reconnoitring minus the screen's cavalry SP) and
    the cohesion modifier (minus the screen's average cohesion), and its die, which a side's dice do
    not include: the ruling said "column '3 à 4' (3 to 4), 1d6 = 3 -1 = 2 -> 1", telling the French
    the allied screen's cavalry and cohesion beyond what result 1 reveals."""
    player = open_side(club["french"], "french")
    try:
        orders.write(player, "reconnaissance", "latour_maubourg", "Halle")
        (order,) = [o for o in orders.listed(player) if o.kind == "reconnaissance"]
    finally:
        player.close()
    umpire = CampaignSession.open(club["umpire"])
    try:
        told = orders.apply(umpire, order.id)
    finally:
        umpire.close()
    assert "column" in told and "1d6" in told  # the umpire's own notice keeps the whole roll
    player = open_side(club["french"], "french")
    try:
        (ruled,) = [o for o in orders.listed(player) if o.id == order.id]
        sightings = knowledge.known(player, "french").sightings
    finally:
        player.close()
    assert ruled.status == "applied" and "sightings" in ruled.ruling, ruled.ruling
    for secret in ("column", "1d6", "->", "cohesion"):
        assert secret not in ruled.ruling, ruled.ruling
    assert any(s.place == "Halle" for s in sightings)  # what it learns, it reads where the ruling says


def test_a_players_login_opens_no_other_file_or_url(club: dict):
    """A club player's app (sshd's ForceCommand, or `adjutant serve --side` in a browser) runs the side's
    view and nothing else: ctrl+o went to the start screen, which opens any file the server's account
    can read, or a URL with the umpires' role if that account's .pgpass holds it, and makes files."""
    import asyncio

    from tests.tui.helpers import wait_for, wait_for_notice, wait_for_screen
    from tui.app import AdjutantApp
    from tui.screens.start import StartScreen

    async def play() -> None:
        app = AdjutantApp(open_side(club["french"], "french"), prepare=False)
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, "CLUB: French Empire and allies")
            # Not offered (key bar, help, palette), and its key does nothing: the action is refused here.
            assert app.check_action("open_file", ()) is False
            assert "Open campaign" not in {c.title for c in app.get_system_commands(app.screen)}
            await pilot.press("ctrl+o")
            await pilot.pause()
            await pilot.pause()
            assert not isinstance(app.screen, StartScreen)
            app.call_later(app.action_open_file)  # reached some other way, it is refused in one sentence
            await wait_for_notice(pilot, "This is the view of French Empire and allies on the club's campaign: it opens no other file or database.")
            assert not isinstance(app.screen, StartScreen)
            assert "New campaign" not in await wait_for(pilot, "Turn 1 of 20")
            # The orders reach the umpire's queue as written: "e Export" is not offered (it was, and refused).
            from tui.screens.orders import OrdersScreen

            await pilot.press("O")
            await wait_for_screen(pilot, OrdersScreen)
            shown = await wait_for(pilot, "n Note")
            assert "Export" not in shown and "Orders: Export" not in {c.title for c in app.get_system_commands(app.screen)}
            assert "Save a copy" not in {c.title for c in app.get_system_commands(app.screen)}

    asyncio.run(play())


def test_knows_with_a_sides_url_refuses_the_other_sides_sightings(club: dict, capsys: pytest.CaptureFixture[str]):
    """`adjutant knows URL --side allies` with the French role's URL answered "0 sightings" (the role
    reads none of them): an answer, and a wrong one. It is one sentence now; its own side's are listed."""
    assert main(["knows", "--db", club["french"], "--side", "allies"]) == 2
    assert "it knows its own sightings, not the allies side's" in capsys.readouterr().err
    assert main(["knows", "--db", club["french"], "--side", "french"]) == 0
    assert "Halle (reconnaissance result 2)" in capsys.readouterr().out  # the fixture's reconnaissance
    assert main(["knows", "--db", club["umpire"], "--side", "allies"]) == 0  # the umpires' role: any side


def test_the_players_orders_keep_their_ruling_column_in_view_at_80_columns(club: dict):
    """A reconnaissance by latour_maubourg to Weissenfels, at 80x24: the player's table ran off the
    edge and its last column read "Ruli", each ruling cut to its first letters with no ellipsis.
    A player's orders are all his side's: the table leaves the Side column out."""
    import asyncio

    from tests.tui.helpers import wait_for
    from tui.app import AdjutantApp

    player = open_side(club["french"], "french")
    try:
        orders.write(player, "reconnaissance", "latour_maubourg", "Weissenfels")
        orders.write(player, "note", text="Ney holds Weimar")
    finally:
        player.close()

    async def play() -> None:
        app = AdjutantApp(open_side(club["french"], "french"), prepare=False)
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("O")
            shown = await wait_for(pilot, "reconnaissance")
            header = next(line for line in shown.splitlines() if line.lstrip().startswith("#"))
            assert header.split() == ["#", "Status", "Order", "Stack", "To", "Text", "Ruling"], header
            assert "latour_maubourg" in shown and "Weissenfels" in shown

    asyncio.run(play())


def test_side_checks_a_side_file_and_refuses_the_umpires_file(tmp_path, capsys: pytest.CaptureFixture[str]):
    umpire = tmp_path / "umpire.campaign"
    new_campaign(umpire, load_scenario("spring1813"), seed=1813)
    side = tmp_path / "fr.campaign"
    assert main(["despatch", str(umpire), "--side", "french", "-o", str(side)]) == 0
    capsys.readouterr()
    opened = open_side(str(side), "french")
    opened.close()
    with pytest.raises(CampaignError, match="is the french side's file, not the allies side's"):
        open_side(str(side), "allies")
    with pytest.raises(CampaignError, match="is the umpire's campaign: --side opens a club's campaign"):
        open_side(str(umpire), "french")


# -- the battles a side fought: their accounts and their dice, read by a plain row filter --------


def test_a_side_reads_the_battles_it_fought_with_their_accounts_and_dice_as_its_side_file_does(
    fought_club: Fought, postgres_url: str, tmp_path
):
    umpire = CampaignSession.open(postgres_url)
    try:
        accounts = {b: list(account(umpire, b)) for b in (fought_club.tables, fought_club.d10)}
        files = {side: write_despatch(umpire, side, tmp_path / f"{side}.campaign") for side in ("french", "allies")}
        # the luck ledger reads each battle roll for the side it favours (the step's, the commander's)
        readings = {r.roll_id: (r.kind, r.favours) for r in luck.ledger(umpire).rolls}
    finally:
        umpire.close()
    # the rolls are in the accounts: both steps of Lützen, the two commanders' dice of Zeitz
    assert [sum(line.startswith("  dice #") for line in accounts[b]) for b in accounts] == [2, 2]
    for side, url in (("french", fought_club.url("french")), ("allies", fought_club.url("allies"))):
        for player in (open_side(url, side), open_side(str(files[side]), side)):  # the club, the side file
            try:
                assert [b.id for b in battles.battles(player)] == list(accounts), player.where
                assert {b: list(account(player, b)) for b in accounts} == accounts, player.where
                with pytest.raises(CampaignError, match=f"there is no battle {fought_club.game}"):
                    list(account(player, fought_club.game))  # the game outside the campaign is no side's
                theirs = {r.roll_id: (r.kind, r.favours) for r in luck.ledger(player).rolls}
                assert theirs == {roll: readings[roll] for roll in theirs}, player.where
                assert [kind for kind, favours in theirs.values() if favours and kind in ("battle", "tabletop")] == [
                    "battle", "battle", "tabletop", "tabletop"], player.where
            finally:
                player.close()


def test_after_battles_a_sides_role_still_reads_the_rows_its_side_file_holds(fought_club: Fought, postgres_url: str, tmp_path):
    for side in ("french", "allies"):
        read = reads_as_in_side_file(postgres_url, fought_club.url(side), side, tmp_path)
        assert {r.battle for r in read["dice_roll"]} == {None, fought_club.tables, fought_club.d10}
        assert len([r for r in read["dice_roll"] if r.battle is not None]) == 4
        assert [b.id for b in read["battle"]] == [fought_club.tables, fought_club.d10]

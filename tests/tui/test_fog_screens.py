"""The player's view of a side file, and the umpire's views of what each side knows.

A side file opens with every screen read-only: the map as its side sees it (the
enemy only where sighted, "A?5"), the sightings, the overview saying the enemy
is known only by them; an umpire's action is refused in one sentence; orders are
written and exported. The umpire's map can be drawn as one side sees it."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from campaigns import battles, command_points, weather
from campaigns.despatch import write_despatch
from campaigns.reconnaissance import reconnoitre_stack
from campaigns.session import CampaignSession
from tests.tui.conftest import built_once
from tests.tui.helpers import key, screen_text, wait_for, wait_for_notice, wait_for_screen
from tui.screens.battles import BattlesScreen
from tui.screens.fight import FightScreen
from tui.screens.orders import OrdersScreen
from tui.screens.sightings import SightingsScreen
from tui.screens.theatre import TheatreScreen


def umpires_turn(path: Path) -> None:
    """The weather and the command points rolled, and the French reconnoitre Halle."""
    session = CampaignSession.open(path)
    try:
        weather.roll(session, [2])  # April +1: 3, Clear
        for army in command_points.turn_points(session):
            command_points.roll(session, army.army, [3])
        reconnoitre_stack(session, "french@Eisleben", "allies@Halle", entered=[6])  # result 2
    finally:
        session.close()


def french_side(path: Path) -> None:
    """The French side's file of the umpire's (umpires_turn), written in place of the new campaign at `path`."""
    umpires_turn(path)
    with tempfile.TemporaryDirectory(prefix="adjutant-side-") as folder:
        session = CampaignSession.open(path)
        try:
            side = write_despatch(session, "french", Path(folder) / "french.campaign")
        finally:
            session.close()
        shutil.move(side, path)


# Built once per worker and copied (tests/tui/conftest.py built_once): the same files every
# time, the side file made from a file the same as the umpire's, its despatch included.
@pytest.fixture
def umpire_file(tmp_path: Path) -> Path:
    return built_once(tmp_path / "spring.campaign", "fog-umpire", umpires_turn)


@pytest.fixture
def side_file(umpire_file: Path, tmp_path: Path) -> Path:
    return built_once(tmp_path / "french.campaign", "fog-french-side", french_side)


@pytest.fixture
def no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


async def to_the_battle_of_luetzen(pilot) -> None:
    """From the overview, `x` to the battles and Enter on Lützen's: its Battle screen shown."""
    await pilot.press("x")
    await wait_for_screen(pilot, BattlesScreen)
    await wait_for(pilot, "Lützen")
    await pilot.press("enter")
    await wait_for_screen(pilot, FightScreen)


async def test_the_player_sees_the_fogged_map_and_cannot_act_as_the_umpire(make_app, side_file, no_color):
    app = make_app(side_file)
    async with app.run_test(size=(80, 24)) as pilot:
        shown = await wait_for(pilot, "SIDE FILE of French Empire and allies, turn 1")
        assert "Russia and Prussia: known only by what you have seen" in shown
        await pilot.press("p")
        await wait_for_screen(pilot, TheatreScreen)
        shown = await wait_for(pilot, "Map | seen by French Empire and allies")
        assert "A?5" in shown and "A6" not in shown  # Halle as sighted; no allied stack unseen
        assert app.check_action("undo", ()) is False  # u is not offered, and does nothing
        await pilot.press("h")
        shown = await wait_for(pilot, "History: newest first")
        assert "u undo" not in shown  # the title offered them
        app.action_undo()  # reached some other way: refused in one sentence
        await wait_for_notice(pilot, "This is a side file, read-only")
        await pilot.press("S")
        await wait_for_screen(pilot, SightingsScreen)
        shown = await wait_for(pilot, "What French Empire and allies has seen, to turn 1: 1 sighting")
        assert "about 5 SP; 1 unit" in shown


async def test_the_player_writes_a_note_and_exports_the_orders(make_app, side_file, tmp_path):
    app = make_app(side_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("O")
        await wait_for_screen(pilot, OrdersScreen)
        await wait_for(pilot, "Your orders to the umpire")
        await pilot.press(key(OrdersScreen, "orders.note"))
        await wait_for(pilot, "An order to the umpire")
        await pilot.press("enter")  # the kinds of order, in words (they were their ids: command_points)
        shown = await wait_for(pilot, "Command points: what to spend them on")
        assert "command_points" not in shown
        await pilot.press("escape")
        for _ in range(4):
            await pilot.press("tab")
        for letter in "hold Halle":
            await pilot.press("space" if letter == " " else letter)
        await pilot.press("enter")
        await wait_for(pilot, "hold Halle")
        await pilot.press(key(OrdersScreen, "orders.export"))
        await wait_for_notice(pilot, "(1 orders)")
    document = json.loads((tmp_path / "french-orders.json").read_text())
    assert document["side"] == "french" and document["orders"] == [
        {"kind": "note", "stack": "", "place": "", "action": "", "text": "hold Halle"}]


async def test_the_umpire_draws_the_map_as_each_side_sees_it(make_app, umpire_file, no_color):
    app = make_app(umpire_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await wait_for_screen(pilot, TheatreScreen)
        shown = await wait_for(pilot, "Map: turn 1")
        assert "A?5" not in shown
        await pilot.press(key(TheatreScreen, "map.view_as"))
        shown = await wait_for(pilot, "Map | seen by French Empire and allies")
        assert "A?5" in shown
        await pilot.press(key(TheatreScreen, "map.view_as"))
        shown = await wait_for(pilot, "Map | seen by Russia and Prussia")
        await wait_for_notice(pilot, "The map as seen by Russia and Prussia.")
        assert "F24" not in shown  # the allies have seen nothing of Ney
        await pilot.press(key(TheatreScreen, "map.view_as"))
        await wait_for(pilot, "Map: turn 1")


async def test_the_player_reads_the_rolls_of_a_battle_being_fought(make_app, umpire_file, tmp_path, no_color):
    """A side's player rolls nothing and reads no history: a battle's screen shows it the account
    so far, every roll made for the battle in it (dice_roll.battle, held by the side file)."""
    session = CampaignSession.open(umpire_file)
    try:
        draft = battles.Draft("Lützen", ["iii_souham"], ["brigade_klux"], [], [], override="forces gathered for the test")
        battle = battles.begin(session, draft)
        battles.roll_step(session, battle)
        battles.roll_step(session, battle)
        side = write_despatch(session, "french", tmp_path / "french.campaign")
    finally:
        session.close()
    app = make_app(side)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_battle_of_luetzen(pilot)
        shown = await wait_for(pilot, "2 steps taken; the account above lists every roll.")
        assert shown.count("battle round 1:") == 2 and "dice #" in shown  # the two steps' rolls
        # The umpire's keys (each refused by the file) are not offered: the key bar showed "r Roll".
        from tui.screens.help import HelpScreen

        footer = shown.splitlines()[-1]
        assert "Roll" not in footer and "Enter die" not in footer and "Type result" not in footer, footer
        app.action_help()
        await wait_for_screen(pilot, HelpScreen)
        own = {text for group, _, text in app.screen.rows if group == "This screen"}
        assert not own & {"Roll", "Enter die", "Passed", "Failed", "Type result", "Conversion", "Apply"}, own
        assert "Battles" in own


async def test_a_long_title_wraps_whole_at_80_columns(make_app, umpire_file, no_color):
    """The sightings' title names the side and the keys: at 80 columns it goes on to a
    second line rather than being cut ("(v the other" was the end of it)."""
    async with make_app(umpire_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("S")
        shown = await wait_for(pilot, "What French Empire and allies has seen")
        await wait_for(pilot, "sight contacts)")
        title = pilot.app.screen.query_one("#title")
        assert title.size.height == 2
        lines = shown.splitlines()[title.region.y : title.region.bottom]
        assert " ".join(line.strip() for line in lines).endswith("(v the other side; c sight contacts)")


async def test_what_was_learned_wraps_whole_at_80_columns(make_app, umpire_file, no_color):
    """A long sighting goes on over more lines of its row: before, the column ran off the
    edge at 80 columns ("led by General Winzingero")."""
    from campaigns import knowledge

    note = "cavalry seen at dawn on the road north, with guns and a long baggage train behind them, the Tsar's escort"
    session = CampaignSession.open(umpire_file)
    try:
        knowledge.report(session, "french", "Leipzig", 0, note)
    finally:
        session.close()
    async with make_app(umpire_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("S")
        await wait_for_screen(pilot, SightingsScreen)
        await wait_for(pilot, "cavalry seen at dawn")
        shown = await wait_for(pilot, "escort")
        assert "…" not in shown


async def test_the_umpires_sightings_drawn_before_the_table_is_idle_show_whole_columns(make_app, umpire_file, no_color):
    """`v` refills the list; a frame drawn before the table measured its new rows (a loaded
    machine: the screen's paint came first) once kept the columns at the headers' widths
    ("Halle" as "Place" wide, "reconnaissance" as "How" wide) until the cursor moved."""
    app = make_app(umpire_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("S")
        await wait_for_screen(pilot, SightingsScreen)
        whole = await wait_for(pilot, "reconnaissance")
        screen = app.screen
        assert isinstance(screen, SightingsScreen)
        screen.action_next_side()  # the allies: nothing seen
        screen.action_next_side()  # the French again: the list refilled
        drawn_at_once = screen_text(app)  # before the table is idle
        await pilot.pause()
        assert screen_text(app) == drawn_at_once == whole


async def test_a_command_points_order_picks_the_cards_spending_by_its_words(make_app, side_file):
    """Before: "Spend on" was a blank line where the player had to know activate_general,
    entrench...; 'xyz' was written and queued."""
    from textual.widgets import Select

    from campaigns import orders
    from tui.modals.form import FormScreen

    app = make_app(side_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("O")
        await wait_for(pilot, "Your orders to the umpire")
        await pilot.press("n")
        await wait_for_screen(pilot, FormScreen)
        form = app.screen
        spend = form.query_one("#f-action", Select)  # a choice, not a line to type an id into
        form.query_one("#f-kind", Select).value = "command_points"
        spend.value = "entrench"
        await wait_for(pilot, "Construct an entrenchment")  # the card's words for it
        await pilot.press("ctrl+s")
        await wait_for(pilot, "command points (entrench)")
    session = CampaignSession.open(side_file)
    try:
        (written,) = orders.listed(session)
        assert written.kind == "command_points" and written.detail == {"action": "entrench"}
    finally:
        session.close()


async def test_the_players_status_line_shows_the_phase_at_80_columns(make_app, umpire_file, tmp_path, no_color):
    # The longest phase's name; the side file's status line dropped it (the umpire's showed it):
    # "SIDE FILE of French Empire and allies, turn 1 (orders only) | 26 Apr 1813".
    from campaigns import turns
    from tui.widgets.status import StatusLine

    session = CampaignSession.open(umpire_file)
    try:
        turns.advance(session, anyway=True)
        turns.advance(session, anyway=True)
        path = write_despatch(session, "french", tmp_path / "later.campaign")
    finally:
        session.close()
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "SIDE FILE of French Empire and allies, turn 1")
        line = str(app.screen.query_one(StatusLine).render())
        assert line.startswith("SIDE FILE of French Empire and allies, turn 1/20 | Activations and movement"), line


# What a side file's player cannot take, screen by screen (by the name the key bar, the help and
# the palette show): the file refuses it in one sentence, or it does nothing there (one side only).
REFUSED_TO_PLAYER = {
    "oob": {"Add unit", "Add general", "Edit", "Move", "Remove", "Flags"},
    "turn": {"Next phase"},
    "weather": {"Roll weather", "Enter die"},
    "command": {"Roll PC", "Enter die", "Spend"},
    "march": {"Roll", "Enter dice"},
    "battles": {"New battle", "Tabletop game"},
    "recon": {"Roll", "Enter die"},
    "history": {"Bookmark", "Note"},
    "map": {"View as"},
    "sightings": {"Next side", "Contacts"},
    "orders": {"Import", "Apply", "Refuse"},
}
PLAYERS_OWN = {"orders": {"Note", "Export"}}
APP_REFUSED_TO_PLAYER = {"Undo", "Redo"}


async def _offered_on_each_screen(app, pilot, texts: dict[str, str] | None = None) -> dict[str, tuple[str, set[str], set[str], set[str]]]:
    """Screen by screen: its key bar, the help's keys of the screen and of the app, the palette's
    titles; and into `texts`, for each screen it names, the whole screen's text as first shown."""
    from textual.binding import Binding

    from tui.commands import SCREENS
    from tui.screens.help import HelpScreen
    from tui.screens.registry import screen_class
    from tui.widgets.status import KeyLine

    seen = {}
    for command in SCREENS:
        name = command.action.split("'")[1]
        await pilot.press(command.key)
        await wait_for_screen(pilot, screen_class(name))
        await pilot.pause()
        screen = app.screen
        footer = str(screen.query_one(KeyLine).render())
        if texts is not None and name in texts:
            texts[name] = screen_text(app)
        titles = {c.title for c in app.get_system_commands(screen)}
        app.action_help()
        await wait_for_screen(pilot, HelpScreen)
        rows = app.screen.rows
        own = {text for group, _, text in rows if group == "This screen"}
        actions = {text.split(":")[0] for group, _, text in rows if group == "Actions"}
        await pilot.press("escape")
        await wait_for_screen(pilot, screen_class(name))
        seen[name] = (footer, own, actions, titles)
        assert all(isinstance(b, Binding) for b in screen.BINDINGS)
    return seen


async def test_every_screen_offers_a_player_and_the_umpire_only_the_keys_each_can_take(
        make_app, side_file, umpire_file, no_color):
    # A side file's key bar showed "v Next side" on the Sightings (it does nothing there) and its help
    # the umpire's Import, Apply, Refuse, Undo, Redo (each refused once pressed); the other way round
    # for the umpire. Each screen is walked in both files: key bar, help and palette.
    from tui.commands import SCREENS

    player_shown, umpire_shown = {"orders": "", "weather": ""}, {"orders": ""}
    async with make_app(side_file).run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "SIDE FILE of French Empire and allies")
        player = await _offered_on_each_screen(pilot.app, pilot, player_shown)
    async with make_app(umpire_file).run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Spring 1813")
        umpire = await _offered_on_each_screen(pilot.app, pilot, umpire_shown)
    assert set(player) == {c.action.split("'")[1] for c in SCREENS}
    titles = {c.name: c.action.split("'")[1] for c in SCREENS}
    for name, (footer, own, actions, palette) in player.items():
        refused = REFUSED_TO_PLAYER.get(name, set())
        assert not refused & own, (name, own)
        assert not any(f" {word} " in footer for word in refused), (name, footer)
        assert not APP_REFUSED_TO_PLAYER & actions, (name, actions)
        assert not {t for t in palette if t.split(": ")[-1] in refused and titles.get(t.split(":")[0]) == name}, (name, palette)
        assert not APP_REFUSED_TO_PLAYER & palette, (name, palette)
        for other, words in REFUSED_TO_PLAYER.items():  # the palette offers every screen's actions, from any screen
            shown = {t for t in palette if titles.get(t.split(":")[0]) == other and t.split(": ")[-1] in words}
            assert not shown, (name, shown)
        assert PLAYERS_OWN.get(name, set()) <= own, (name, own)
    for name, (_footer, own, actions, palette) in umpire.items():
        assert REFUSED_TO_PLAYER.get(name, set()) <= own, (name, own)
        assert not PLAYERS_OWN.get(name, set()) & own, (name, own)
        assert APP_REFUSED_TO_PLAYER <= actions and APP_REFUSED_TO_PLAYER <= palette, (name, actions)
        assert "Orders: Note" not in palette and "Orders: Export" not in palette
    assert "v Next side" in umpire["sightings"][0] and "v Next side" not in player["sightings"][0]
    assert "n Note  e Export" in player["orders"][0] and "Export" not in umpire["orders"][0]
    # Each file's key bars and palette (once test_each_file_offers_only_the_keys_that_can_be_taken_in_it,
    # which walked the orders and the weather of both files again): the side file's offered the
    # umpire's actions ("r Roll weather", "a Apply"...), each refused once pressed, and the
    # campaign's Orders the player's "n Note  e Export".
    shown = player_shown["orders"]
    assert "n Note  e Export" in shown and "Import" not in shown and "Apply" not in shown and "Refuse" not in shown, shown
    shown = player_shown["weather"]
    assert "o Overview" in shown and "Roll weather" not in shown and "Enter die" not in shown, shown
    palette = player["weather"][3]
    assert "Orders: Note" in palette and "Weather: Roll weather" not in palette and "Orders: Apply" not in palette, palette
    shown = umpire_shown["orders"]
    assert "i Import  a Apply  r Refuse" in shown and "Note" not in shown and "Export" not in shown, shown
    palette = umpire["orders"][3]
    assert "Weather: Roll weather" in palette and "Orders: Note" not in palette, palette


async def test_a_side_files_tabletop_battle_does_not_offer_the_player_the_resolver(make_app, campaign_file, tmp_path, no_color):
    # The Battle screen's key bar offered a player "g Resolver" for a battle handed to the tabletop:
    # taken, the side file refused it ("This is a side file, read-only"), as it does every key there.
    from tests.tui.helpers import notices
    from tests.tui.test_resolver import handed_off
    from tui.screens.help import HelpScreen

    handed_off(campaign_file)
    session = CampaignSession.open(campaign_file)
    try:
        side = write_despatch(session, "french", tmp_path / "french.campaign")
    finally:
        session.close()
    app = make_app(side)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_battle_of_luetzen(pilot)
        shown = await wait_for(pilot, "Battle of Lützen (#1, kallistra_acw, pending)")
        assert "Resolver" not in shown.splitlines()[-1], shown.splitlines()[-1]
        await pilot.press(key(FightScreen, "fight.resolver"))
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, FightScreen) and not notices(app)  # nothing done, nothing refused
        app.action_help()
        await wait_for_screen(pilot, HelpScreen)
        own = {text for group, _, text in app.screen.rows if group == "This screen"}
        assert own == {"Battles"}, own

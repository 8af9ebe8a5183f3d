"""Every screen at 80x24 and 120x40, compared with the SVGs in __snapshots__/.

Deterministic: seed 1813, a frozen clock and UTC (conftest), no cursor blink,
animations off, a config directory of the test's own. After changing a screen
on purpose: `pytest tests/tui --snapshot-update`, look at the SVGs, commit them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from campaigns import battles, command_points, oob, turns, weather
from campaigns.session import CampaignSession
from tests.tui.conftest import built_once
from tests.tui.helpers import type_text, wait_for, wait_for_screen
from tests.tui.polling import caught_up, settled, until
from tui.modals.form import FormScreen

# Forces from all over the map: the umpire overrides contact (campaigns/contact.py).
GATHERED = "forces gathered from the whole map for the test"

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def play_a_turn(path: Path) -> None:
    """Turn 1 under way: the weather rolled, every army's command points rolled, one spent."""
    session = CampaignSession.open(path)
    try:
        weather.roll(session)
        turns.advance(session)
        for army in command_points.turn_points(session):
            command_points.roll(session, army.army)
        command_points.spend(session, "army_of_the_main", "activate_general", True, "Ney to Lützen")
    finally:
        session.close()


@pytest.fixture
def played_file(tmp_path: Path) -> Path:
    """Turn 1 under way (play_a_turn), played once per worker and copied."""
    return built_once(tmp_path / "spring.campaign", "played", play_a_turn)


@pytest.mark.parametrize("size", SIZES)
def test_start(snap_compare, make_app, size):
    assert snap_compare(make_app(), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    "name", ["overview", "oob", "turn", "weather", "command", "march", "recon", "battles", "history", "rules"]
)
def test_screen(snap_compare, make_app, played_file, name, size):
    assert snap_compare(make_app(played_file, start=name), run_before=settled, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, make_app, played_file, size):
    assert snap_compare(make_app(played_file, start="command"), press=["question_mark"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_confirm_modal(snap_compare, make_app, campaign_file, size):
    # The weather not rolled yet: the advance asks first (with nothing outstanding it would not).
    assert snap_compare(make_app(campaign_file, start="turn"), press=["n"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_dice_entry_modal_with_an_error(snap_compare, make_app, manual_campaign_file, size):
    assert snap_compare(make_app(manual_campaign_file, start="weather"), press=["r", "7", "enter"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_form_with_an_error(snap_compare, make_app, played_file, size):
    async def edit_with_a_bad_sp(pilot):
        await pilot.press("slash")
        await type_text(pilot, "zieten")
        await pilot.press("enter")
        await wait_for(pilot, "Brigade Zieten: 3 SP")  # the find selected before the form covers it
        await pilot.press("e")
        await wait_for_screen(pilot, FormScreen)
        box = pilot.app.screen.query_one("#f-strength_points")
        box.focus()
        box.value = ""
        await type_text(pilot, "-1")
        await pilot.press("ctrl+s")
        await caught_up(pilot)  # the form's check runs in a worker
        await until(pilot, lambda: str(pilot.app.screen.query_one("#error").render()).strip(), "the form's refusal shown")

    assert snap_compare(make_app(played_file, start="oob"), run_before=edit_with_a_bad_sp, terminal_size=size)


def begin_a_battle(path: Path) -> None:
    """A battle at Lützen under way in turn 1 (play_a_turn): two rolls taken."""
    play_a_turn(path)
    session = CampaignSession.open(path)
    try:
        tree = oob.tree(session)
        french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:2]
        allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:2]
        draft = battles.Draft("Lützen", french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies), override=GATHERED)
        battle_id = battles.begin(session, draft)
        battles.roll_step(session, battle_id, [4])
        battles.roll_step(session, battle_id, [3])
    finally:
        session.close()


@pytest.fixture
def battle_file(tmp_path: Path) -> Path:
    """A battle at Lützen under way (begin_a_battle), played once per worker and copied."""
    return built_once(tmp_path / "spring.campaign", "battle", begin_a_battle)


@pytest.mark.parametrize("size", SIZES)
def test_fight(snap_compare, make_app, battle_file, size):
    async def open_the_battle(pilot):
        await pilot.press("enter")
        await wait_for(pilot, "Round 2")

    assert snap_compare(make_app(battle_file, start="battles"), run_before=open_the_battle, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_battle_setup(snap_compare, make_app, played_file, size):
    assert snap_compare(make_app(played_file, start="battles"), press=["n"], terminal_size=size)


@pytest.mark.parametrize("start", ["overview", "battles"])
async def test_enter_typed_with_the_key_that_shows_the_battles_opens_the_battle(make_app, battle_file, start):
    """The battles screen reads its list in a worker: an Enter typed at once, with x or as
    the app starts on the screen, waits for the list (tui.keys) and opens the battle
    rather than falling on an empty table."""
    app = make_app(battle_file, start=start)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*(["x"] if start == "overview" else []), "enter")
        await wait_for(pilot, "Round 2")

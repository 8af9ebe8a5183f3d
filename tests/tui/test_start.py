"""The start screen: a new campaign from the form, a file opened by path, recent files."""

from __future__ import annotations

import json

from textual.widgets import Button, OptionList, Select

from models import Campaign
from tests.tui.helpers import stored, type_text, wait_for, wait_for_screen
from tests.tui.polling import caught_up, until
from tui.screens.overview import OverviewScreen
from tui.screens.start import StartScreen
from tui.textual_private import select_options


def recent(config) -> list[str]:
    return json.loads((config / "recent.json").read_text())


async def test_a_new_campaign_from_the_form(make_app, tmp_path, still_world):
    async with make_app().run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "New campaign")
        start = pilot.app.screen
        assert isinstance(start, StartScreen)
        assert pilot.app.focused is start.query_one("#scenario", Select)
        scenario = start.query_one("#scenario", Select).value
        await pilot.press("tab")
        await type_text(pilot, "Bautzen")
        await pilot.press("tab")
        await type_text(pilot, "42")
        await pilot.press("tab", "enter", "down", "enter")  # the dice: typed in
        await until(pilot, lambda: start.query_one("#dice", Select).value == "entered", "the dice typed in chosen")
        await pilot.press("tab")
        await type_text(pilot, "bautzen")  # .campaign is added
        await pilot.press("tab")
        await until(pilot, lambda: pilot.app.focused is start.query_one("#create", Button), "the Create button focused after tab")
        await pilot.press("enter")
        await wait_for(pilot, "Turn 1 of")
        assert isinstance(pilot.app.screen, OverviewScreen)
    path = tmp_path / "bautzen.campaign"
    with stored(path) as db:
        campaign = db.get_one(Campaign, 1)
        assert (campaign.name, campaign.scenario, campaign.dice_seed, campaign.dice_mode) == ("Bautzen", scenario, 42, "entered")
    assert recent(still_world) == [str(path)]


async def test_enter_on_the_file_field_creates_with_a_random_seed(make_app, tmp_path):
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("tab", "tab", "tab", "tab")  # past name, seed and dice: File comes last
        await type_text(pilot, "quick")
        await pilot.press("enter")
        await wait_for(pilot, "Turn 1 of")
    with stored(tmp_path / "quick.campaign") as db:
        assert db.get_one(Campaign, 1).dice_mode == "rolled"


async def test_a_bad_seed_says_so_and_creates_nothing(make_app, tmp_path):
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("tab", "tab")
        await type_text(pilot, "x")  # the seed
        await pilot.press("tab", "tab")
        await type_text(pilot, "bad")  # the file
        await pilot.press("enter")
        await wait_for(pilot, "'x' is not a whole number: a dice seed is 0 to 9223372036854775807")
        assert isinstance(pilot.app.screen, StartScreen)
        await pilot.press("shift+tab", "shift+tab", "backspace")
        await type_text(pilot, "-5")
        await pilot.press("tab", "tab", "enter")
        await wait_for(pilot, "'-5' is too small for a dice seed (at least 0)")
        held = "-5"  # in the seed's field: a backspace for each of its characters empties it
        for typed, said in (("²", "'²' is not a whole number"), ("9" * 40, "is too large for a dice seed")):
            await pilot.press("shift+tab", "shift+tab", *["backspace"] * len(held))
            await type_text(pilot, typed)  # a digit to str.isdigit that int() refuses; past a seed's 64 bits
            await pilot.press("tab", "tab", "enter")
            await wait_for(pilot, said)
            held = typed
    assert list(tmp_path.glob("*.campaign")) == []


async def test_an_existing_file_is_not_overwritten(make_app, campaign_file):
    before = campaign_file.read_bytes()
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("tab", "tab", "tab", "tab")
        await type_text(pilot, campaign_file.name)
        await pilot.press("enter")
        await caught_up(pilot)
        await until(pilot, lambda: str(pilot.app.screen.query_one("#error").render()).strip(), "the refusal shown")
        assert isinstance(pilot.app.screen, StartScreen)
    assert campaign_file.read_bytes() == before


async def test_open_a_file_by_its_path(make_app, campaign_file, still_world):
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+f")
        await type_text(pilot, "nowhere.campaign")
        await pilot.press("enter")
        await wait_for(pilot, "nowhere.campaign")
        assert isinstance(pilot.app.screen, StartScreen)
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, campaign_file.name)
        await pilot.press("enter")
        await wait_for(pilot, "Turn 1 of 20")
        assert pilot.app.session.where.endswith("spring.campaign")
    assert not (campaign_file.parent / "nowhere.campaign").exists()
    assert recent(still_world) == [str(campaign_file)]


async def test_recent_files_are_listed_first_and_open_with_enter(make_app, campaign_file, manual_campaign_file, still_world):
    still_world.mkdir()
    (still_world / "recent.json").write_text(json.dumps([str(manual_campaign_file), str(campaign_file)]))
    async with make_app().run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Recent files")
        listed = pilot.app.screen.query_one("#recent", OptionList)
        assert pilot.app.focused is listed
        assert [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)] == [
            str(manual_campaign_file),
            str(campaign_file),
        ]
        await pilot.press("down", "enter")
        await wait_for(pilot, "Turn 1 of 20")
        assert pilot.app.session.where.endswith("spring.campaign")
    assert recent(still_world) == [str(campaign_file), str(manual_campaign_file)]


async def test_ctrl_o_opens_another_campaign_from_inside_one(make_app, campaign_file, manual_campaign_file):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+o")
        await wait_for_screen(pilot, StartScreen)
        await pilot.press("ctrl+f")
        await type_text(pilot, manual_campaign_file.name)
        await pilot.press("enter")
        await wait_for_screen(pilot, OverviewScreen)
        assert pilot.app.session.where.endswith("manual.campaign")
        assert pilot.app.session.campaign().dice_mode == "entered"


def test_a_file_opened_from_the_command_line_is_a_recent_file(campaign_file, still_world, monkeypatch, tmp_path):
    # `adjutant FILE`, the README's way to open a campaign, left the start screen's recent files empty.
    import logging

    from tui.app import AdjutantApp
    from tui.launch import main as launch

    monkeypatch.setenv("ADJUTANT_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setattr(AdjutantApp, "run", lambda self, *a, **k: None)  # opened, not run
    monkeypatch.setattr("tui.launch.keys_from_a_terminal", lambda: True)  # as from a terminal
    try:
        assert launch([str(campaign_file)]) == 0
    finally:
        root = logging.getLogger()
        for handler in [h for h in root.handlers if getattr(h, "adjutant", False)]:
            root.removeHandler(handler)
    assert recent(still_world) == [str(campaign_file)]


async def test_the_form_offers_spring_1813_first_as_the_readme_starts(make_app):
    async with make_app().run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "New campaign")
        scenario = pilot.app.screen.query_one("#scenario", Select)
        assert scenario.value == "spring1813"
        assert [value for _, value in select_options(scenario)] == ["spring1813", "autumn1813"]

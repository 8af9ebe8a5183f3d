"""Weather: rolling with r, typing the table's die with e, in rolled and entered campaigns."""

from __future__ import annotations

from sqlalchemy import select

from models import DiceRoll, Turn
from tests.tui.helpers import screen_text, stored, type_text, wait_for, wait_for_notice
from tui.modals.dice_entry import DiceEntryScreen
from tests.tui.polling import caught_up, until


def weather_rolls(db) -> list[DiceRoll]:
    return [r for r in db.scalars(select(DiceRoll)) if "weather" in r.purpose]


async def test_r_rolls_this_turns_weather_and_stores_the_die(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "r")
        # "Turn 1, 26 April 1813: not rolled yet" before the roll: the roll, in a worker, is waited for.
        await caught_up(pilot)
        shown = await wait_for(pilot, "Turn 1, 26 April 1813: ")
        assert "not rolled yet" not in shown
    with stored(campaign_file) as db:
        turn = db.get_one(Turn, 1)
        (roll,) = weather_rolls(db)
        assert turn.weather_source == "rolled" and turn.weather
        assert turn.dice_roll == roll.id
        assert roll.mode == "rolled"
        assert roll.modifiers == [{"label": "April", "value": 1}]  # the month modifier of April
        assert db.get_one(Turn, 2).weather is None


async def test_e_takes_the_die_typed_in_a_rolled_campaign(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "e")
        await wait_for(pilot, "Dice rolled on the table for the weather")
        await type_text(pilot, "4")
        await pilot.press("enter")
        await caught_up(pilot)  # the roll is stored in a worker: the app is left once it is
        assert not isinstance(pilot.app.screen, DiceEntryScreen)
    with stored(campaign_file) as db:
        (roll,) = weather_rolls(db)
        assert roll.raw == [4] and roll.mode == "entered"
        assert roll.result == 4 + sum(m["value"] for m in roll.modifiers)
        assert db.get_one(Turn, 1).weather_source == "rolled"


async def test_r_asks_for_the_die_in_an_entered_dice_campaign(manual_campaign_file, make_app):
    async with make_app(manual_campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "r")
        await wait_for(pilot, "Dice rolled on the table for the weather: 1d6")
        await type_text(pilot, "4")
        await pilot.press("enter")
        await wait_for_notice(pilot, "1d6 = 4")
    with stored(manual_campaign_file) as db:
        (roll,) = weather_rolls(db)
        assert roll.raw == [4] and roll.mode == "entered"
        assert db.get_one(Turn, 1).weather


async def test_the_dice_modal_refuses_7_and_words_and_stores_nothing(manual_campaign_file, make_app):
    async with make_app(manual_campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "r")
        await wait_for(pilot, "Dice rolled on the table")
        for bad in ("7", "abc", "0"):
            await type_text(pilot, bad)
            await pilot.press("enter")
            await caught_up(pilot)  # the key handled: the dice refused, or taken
            assert isinstance(pilot.app.screen, DiceEntryScreen), bad
            await until(pilot, lambda: str(pilot.app.screen.query_one("#error").render()).strip(), f"an error shown for {bad!r}")  # noqa: B023
            await pilot.press("ctrl+a", "ctrl+k")  # clear the field
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(pilot.app.screen, DiceEntryScreen), "the dice closed by escape")
        await until(pilot, lambda: "not rolled yet" in screen_text(pilot.app), "the weather still not rolled")
    with stored(manual_campaign_file) as db:
        assert weather_rolls(db) == []
        assert db.get_one(Turn, 1).weather is None


async def test_a_second_roll_in_the_same_turn_is_refused(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "r")
        await caught_up(pilot)  # rolled and stored
        await pilot.press("r")
        await wait_for_notice(pilot, "already has its weather")
    with stored(campaign_file) as db:
        assert len(weather_rolls(db)) == 1


async def test_a_long_calendar_lists_every_turn_and_its_strip_follows_the_cursor(tmp_path, make_app):
    import dataclasses

    from campaigns.scenario import load_scenario
    from campaigns.setup import create_campaign
    from tui.screens.weather import WeatherScreen

    path = tmp_path / "long.campaign"
    create_campaign(path, dataclasses.replace(load_scenario("spring1813"), turns=120), seed=1).close()
    async with make_app(path, start="weather").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Turn 1,")
        table = pilot.app.screen.query_one("#turns")
        assert [table.get_row_at(i)[0] for i in range(table.row_count)] == [str(n) for n in range(1, 121)]
        strip = str(pilot.app.screen.query_one("#strip").render())
        assert f"{WeatherScreen.AFTER + 1}:·" in strip and f"{WeatherScreen.AFTER + 2}:" not in strip
        await pilot.press("ctrl+end")  # the last turn: the strip moves to the turns around it
        await until(pilot, lambda: table.cursor_row == 119, "the cursor on the last turn")
        await until(pilot, lambda: "120:·" in str(pilot.app.screen.query_one("#strip").render()), "the strip around the last turn")
        strip = str(pilot.app.screen.query_one("#strip").render())
        assert "120:·" in strip and f" {120 - WeatherScreen.BEFORE}:" in strip and f" {119 - WeatherScreen.BEFORE}:" not in strip
        assert "…" in strip.split("\n")[0][:2]  # earlier turns before it


async def test_the_overview_says_this_turns_mud_is_forced_before_it_is_taken(campaign_file, make_app):
    """Turn 1 Rain*, turn 2 begun: the overview's weather now is the Mud the card forces
    (before: "Weather now: not rolled", as if a die were to be rolled)."""
    from campaigns import turns, weather
    from campaigns.session import CampaignSession

    session = CampaignSession.open(campaign_file)
    try:
        weather.roll(session, entered=[5])  # 5 +1 (April) = 6: Rain*
        while session.overview().turn == 1:
            turns.advance(session, anyway=True)
    finally:
        session.close()
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, "Weather now: Mud (forced by Rain*)")

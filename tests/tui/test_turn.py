"""Turn sequence: n advances one phase (asking first only when something is still needed);
six phases make a turn and move the calendar."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from campaigns.session import CampaignSession
from models import Campaign, CommandPointRoll, Turn
from tests.tui.helpers import screen_text, stored, wait_for, wait_for_notice
from tests.tui.polling import caught_up, until
from tui.modals.confirm import ConfirmScreen

PHASES = ["weather", "command_points", "movement", "reconnaissance", "battles", "end_of_turn"]


async def advance(pilot, expect: str = "") -> None:
    await pilot.press("n")
    shown = await wait_for(pilot, expect or "(y)")
    assert isinstance(pilot.app.screen, ConfirmScreen)
    await pilot.press("y")
    await until(pilot, lambda: not isinstance(pilot.app.screen, ConfirmScreen), f"the question answered: {shown}")


async def test_n_then_y_moves_to_the_next_phase(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await advance(pilot, "This phase still needs: roll (or take the forced) weather")
        await wait_for(pilot, "> 2. Command points")
    with stored(campaign_file) as db:
        campaign = db.get_one(Campaign, 1)
        assert (campaign.turn, campaign.phase) == (1, "command_points")


async def test_n_then_n_or_escape_leaves_the_phase_alone(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("t", "n")
        await wait_for(pilot, "Leave Weather for the next phase?")
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(pilot.app.screen, ConfirmScreen), "the question answered no")
        await pilot.press("n")
        await wait_for(pilot, "Leave Weather")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(pilot.app.screen, ConfirmScreen), "the question closed by escape")
        await caught_up(pilot)
        assert "> 1. Weather" in screen_text(pilot.app)
    with stored(campaign_file) as db:
        assert db.get_one(Campaign, 1).phase == "weather"


async def test_a_full_turn_through_six_phases_moves_the_calendar_on(campaign_file, make_app):
    with stored(campaign_file) as db:
        campaign = db.get_one(Campaign, 1)
        start, days = campaign.start_date, campaign.turn_days
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "r")
        await caught_up(pilot)  # rolled and stored
        await pilot.press("t")
        await wait_for(pilot, "Nothing more is needed in this phase")
        await pilot.press("n")  # nothing outstanding: no question
        await wait_for(pilot, "> 2. Command points")
        assert not isinstance(pilot.app.screen, ConfirmScreen)
        # Command points: every army rolls.
        await pilot.press("c")
        for _ in range(3):
            await pilot.press("r", "down")
        await caught_up(pilot)  # every army rolled (the key gate delivers each key after the last one's roll)
        await pilot.press("t")
        await wait_for(pilot, "Nothing more is needed in this phase")
        for number, name in ((3, "Activations and movement"), (4, "Reconnaissance"), (5, "Battles"), (6, "End of turn")):
            await pilot.press("n")
            await wait_for(pilot, f"> {number}. {name}")
            assert not isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("n")
        shown = await wait_for(pilot, "Turn 2 of 20")
        assert f"{start + timedelta(days=days):%d %B %Y}" in shown
        assert "> 1. Weather" in shown
    with stored(campaign_file) as db:
        campaign = db.get_one(Campaign, 1)
        assert (campaign.turn, campaign.phase) == (2, "weather")
        assert db.get_one(Turn, 2).date == start + timedelta(days=days)
        assert db.get_one(Turn, 1).weather
        assert len(list(db.scalars(select(CommandPointRoll).where(CommandPointRoll.turn == 1)))) == 3


async def test_the_last_turn_cannot_end(campaign_file, make_app):
    session = CampaignSession.open(campaign_file)
    with session.store.action("jump to the last phase of the last turn") as db:
        campaign = db.get_one(Campaign, 1)
        campaign.turn, campaign.phase = campaign.turns, PHASES[-1]
    session.close()
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("t", "n")
        await wait_for_notice(pilot, "Turn 20 is the last turn of the campaign.")
    with stored(campaign_file) as db:
        assert db.get_one(Campaign, 1).turn == 20


@pytest.mark.parametrize("colour", [True, False], ids=["colour", "NO_COLOR"])
async def test_the_current_phases_description_goes_on_under_its_first_line_at_80_columns(
    campaign_file, make_app, monkeypatch, colour
):
    if not colour:
        monkeypatch.setenv("NO_COLOR", "1")
    session = CampaignSession.open(campaign_file)
    try:
        from campaigns import turns

        help_text = turns.status(session).phase.help
    finally:
        session.close()
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        shown = await wait_for(pilot, "> 1. Weather")
        rows = [line.strip("│ ").rstrip() for line in shown.splitlines() if line.startswith("│")]
        first = next(i for i, row in enumerate(rows) if row.startswith("Roll the weather"))
        box = [line for line in shown.splitlines() if line.startswith("│")]
        taken = [first]
        while " ".join(rows[i] for i in taken) != help_text:
            taken.append(first + len(taken))
        assert len(taken) > 1  # the description wraps at 80 columns
        assert all(box[i].startswith("│      ") and box[i][7] != " " for i in taken)  # each line under the first

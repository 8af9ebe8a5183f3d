"""Command points: roll for each army, spend through the form, never below zero."""

from __future__ import annotations

from sqlalchemy import select

from models import Army, CommandPointRoll, CommandPointSpend, DiceRoll, General
from tests.tui.helpers import key, notices, stored, type_text, wait_for, wait_for_notice
from tui.modals.form import FormScreen
from tui.screens.command import CommandPointsScreen
from tests.tui.polling import caught_up, until

SPEND = key(CommandPointsScreen, "command.spend")

ARMIES = ["allied_army", "army_of_the_elbe", "army_of_the_main"]  # the order of the screen's table


async def choose(pilot, index: int) -> None:
    """Open the focused Select and take its option number `index` (0 first)."""
    from textual.widgets import Select

    chosen = pilot.app.focused
    assert isinstance(chosen, Select), chosen
    await pilot.press("enter")
    await until(pilot, lambda: chosen.expanded, "the list opened")
    await pilot.press("home", *["down"] * index, "enter")
    await until(pilot, lambda: not chosen.expanded, "the list closed on the choice")


async def roll_all(pilot) -> None:
    await pilot.press("c")
    for _ in ARMIES:
        await pilot.press("r", "down")  # each key delivered once the one before it has been handled
    await pilot.press(*["up"] * len(ARMIES))  # back to the first army
    await caught_up(pilot)  # every roll's worker ended and drawn (the last one's too)


async def test_r_rolls_for_each_army_one_die_plus_the_cv(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await roll_all(pilot)
        await wait_for(pilot, "Ledger of")
    with stored(campaign_file) as db:
        rolls = {r.army: r for r in db.scalars(select(CommandPointRoll))}
        assert sorted(rolls) == ARMIES
        for army_id, roll in rolls.items():
            cv = db.get_one(General, db.get_one(Army, army_id).commander).command_value
            die = db.get_one(DiceRoll, roll.dice_roll)
            assert roll.points == die.raw[0] + cv and roll.turn == 1


async def test_e_and_a_manual_campaign_take_the_die_typed_in(manual_campaign_file, make_app):
    async with make_app(manual_campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("c", "r")
        await wait_for(pilot, "Dice rolled on the table for command points")
        await type_text(pilot, "3")
        await pilot.press("enter", "down", "e")
        await wait_for(pilot, "Dice rolled on the table for command points")
        await type_text(pilot, "6")
        await pilot.press("enter")
        await wait_for_notice(pilot, "1d6 = 6 + CV 3 = 9 PC")
    with stored(manual_campaign_file) as db:
        rolls = {r.army: r.points for r in db.scalars(select(CommandPointRoll))}
        assert rolls == {"allied_army": 3 + 2, "army_of_the_elbe": 6 + 3}


async def test_the_spend_form_stores_the_action_and_its_loc(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await roll_all(pilot)
        await pilot.press(SPEND)
        await wait_for(pilot, "Spend command points")
        await choose(pilot, 2)  # Activate a force without a general
        await pilot.press("tab")
        await choose(pilot, 1)  # no valid LOC
        await pilot.press("tab")
        await type_text(pilot, "Cossacks")
        await pilot.press("enter")
        await wait_for_notice(pilot, "Spent.")
        assert not isinstance(pilot.app.screen, FormScreen)
        await wait_for(pilot, "Activate a force without a general")
    with stored(campaign_file) as db:
        (spend,) = db.scalars(select(CommandPointSpend))
        rolled = db.scalars(select(CommandPointRoll).where(CommandPointRoll.army == "allied_army")).one().points
        assert (spend.army, spend.action, spend.cost, spend.note) == ("allied_army", "activate_force", 2, "Cossacks")
        assert spend.balance == rolled - 2


async def test_overspending_is_refused_with_the_reason_and_nothing_stored(manual_campaign_file, make_app):
    async with make_app(manual_campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("c", "r")
        await wait_for(pilot, "Dice rolled on the table")
        await type_text(pilot, "1")  # 1 + CV 2 of Wittgenstein = 3 PC
        await pilot.press("enter")
        await wait_for_notice(pilot, "= 3 PC")
        for _ in range(2):  # an entrenchment costs 2: the second is one too many
            await pilot.press(SPEND)
            await wait_for(pilot, "Spend command points")
            await choose(pilot, 3)
            await pilot.press("ctrl+s")
            await caught_up(pilot)  # the form's check runs in a worker: saved and closed, or refused
        form = pilot.app.screen
        assert isinstance(form, FormScreen), "the form closed on an overspend"
        assert "has 1 PC left; 'Construct an entrenchment' costs 2" in str(form.query_one("#error").render())
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(pilot.app.screen, FormScreen), "the form closed by escape")
    with stored(manual_campaign_file) as db:
        spends = list(db.scalars(select(CommandPointSpend)))
        assert [(s.cost, s.balance) for s in spends] == [(2, 1)]
        assert all(s.balance >= 0 for s in spends)


async def test_no_loc_where_the_card_has_no_cost_is_refused(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await roll_all(pilot)
        await pilot.press(SPEND)
        await wait_for(pilot, "Spend command points")
        await pilot.press("tab")
        await choose(pilot, 1)  # activate the C-in-C without a LOC: '-' on the card
        await pilot.press("ctrl+s")
        await caught_up(pilot)  # the refusal comes from the form's check, in a worker
        assert "not possible without a valid LOC" in str(pilot.app.screen.query_one("#error").render())
        await pilot.press("escape")
    with stored(campaign_file) as db:
        assert list(db.scalars(select(CommandPointSpend))) == []


async def test_spending_before_the_roll_says_why(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("c", SPEND)
        await wait_for(pilot, "Spend command points")
        await pilot.press("ctrl+s")
        await caught_up(pilot)  # the refusal comes from the form's check, in a worker
        assert "has not rolled its command points" in str(pilot.app.screen.query_one("#error").render())
        assert notices(pilot.app) == []
    with stored(campaign_file) as db:
        assert list(db.scalars(select(CommandPointSpend))) == []

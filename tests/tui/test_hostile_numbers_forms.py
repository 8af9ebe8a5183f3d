"""Numbers past a store's integer typed in the app's forms: the form's one sentence, in a file and in PostgreSQL.

PostgreSQL keeps SP and turn numbers in 32-bit INTEGER columns. A unit's SP of
2**40 in the order of battle's form, or a turn of 2**40 in the "campaign as of a
turn" form, is refused by the form with its kind's sentence (rules.numbers), the
form stays open with what was typed, and no row changes (the campaign's export,
every row of every table, read before and after). Each test runs on a .campaign
file and on a real PostgreSQL database (`campaign_target`): the same sentence on both.
"""

from __future__ import annotations

import pytest

from tests.templates import new_campaign
from tests.test_hostile_files import run
from tests.tui.helpers import type_text, wait_for
from tests.tui.polling import until
from tests.tui.test_oob import fill, find, form_error
from tui.modals.form import FormScreen

BIG = 2**40


def every_row(target: str) -> bytes:
    """The whole campaign as `adjutant export` writes it: every row of every table."""
    where = ["--db", target] if "://" in target else [target]
    code, out, err = run("export", *where)
    assert code == 0, err
    return out


@pytest.fixture
def campaign(campaign_target: str) -> str:
    """A new campaign, copied from one made once per worker (tests/templates.py): these
    tests are about the forms' refusals, not about making a campaign."""
    from tests.tui.conftest import SEED

    new_campaign(campaign_target, "spring1813", seed=SEED)
    return campaign_target


SP_REFUSED = [
    (str(BIG), f"SP must be a whole number from 0 to 9999, not {BIG}."),
    (str(2**31), f"SP must be a whole number from 0 to 9999, not {2**31}."),
    ("10000", "SP must be a whole number from 0 to 9999, not 10000."),  # the export's limit: a file `check` calls sound
]
WHEN_REFUSED = [
    (str(BIG), f"'{BIG}' is too large for a turn number (at most 10000)."),
    (f"#{BIG}", f"'{BIG}' is too large for an event number (at most 2147483647)."),
    ("#2147483647", "There is no event #2147483647."),  # the largest the store holds: looked up, not there
    ("9", "Turn 9 has not been played: the campaign is at turn 1."),
]


async def test_a_units_sp_past_the_stores_integer_is_refused_by_the_form(campaign: str, make_app) -> None:
    before = every_row(campaign)
    async with make_app(campaign, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        for value, said in SP_REFUSED:
            await pilot.press("e")
            await wait_for(pilot, "Brigade Zieten")
            await fill(pilot, "strength_points", value)
            await pilot.press("ctrl+s")
            await wait_for(pilot, said)
            assert isinstance(pilot.app.screen, FormScreen), f"the form closed on {value}"
            assert form_error(pilot) == said
            assert pilot.app.screen.query_one("#f-strength_points").value == value  # what was typed, kept
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(pilot.app.screen, FormScreen), "the form closed by escape")
    assert every_row(campaign) == before


async def test_a_turn_or_event_past_the_stores_integer_is_refused_by_the_past_form(campaign: str, make_app) -> None:
    before = every_row(campaign)
    app = make_app(campaign, start="overview")
    async with app.run_test(size=(80, 24)) as pilot:
        for typed, said in WHEN_REFUSED:
            await pilot.press("T")
            await wait_for(pilot, "Turn or #event")
            await type_text(pilot, typed)
            await pilot.press("enter")
            await wait_for(pilot, said.split(" (")[0])  # the sentence may wrap at its parenthesis
            assert isinstance(app.screen, FormScreen), f"the form closed on {typed}"
            assert str(app.screen.query_one("#error").render()) == said
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, FormScreen), "the form closed by escape")
        assert "AS OF" not in await wait_for(pilot, "Overview")
    assert every_row(campaign) == before

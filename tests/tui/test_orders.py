"""The umpire's Orders screen at 80x24: each order's status word is shown whole, however
the screen's redraw and the table's measuring of its rows fall, and an order applied or
refused is changed in its row (the cursor stays on it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from campaigns import command_points, orders, weather
from campaigns.despatch import write_despatch
from campaigns.session import CampaignSession
from tests.tui.helpers import key, screen_text, type_text, wait_for, wait_for_notice, wait_for_screen
from tests.tui.polling import caught_up
from tui.screens.orders import OrdersScreen


@pytest.fixture
def queued(campaign_file: Path, tmp_path: Path) -> Path:
    """The umpire's campaign with the French orders queued: a move, then a note."""
    umpire = CampaignSession.open(campaign_file)
    try:
        weather.roll(umpire, [2])
        for army in command_points.turn_points(umpire):
            command_points.roll(umpire, army.army, [3])
        player = CampaignSession.open(write_despatch(umpire, "french", tmp_path / "french.campaign"))
        try:
            orders.write(player, "move", "latour_maubourg", "Querfurt")
            orders.write(player, "note", text="Hold the Saale crossings")
            document = orders.OrdersDoc.model_validate(orders.export(player))
        finally:
            player.close()
        orders.import_orders(umpire, document)
    finally:
        umpire.close()
    return campaign_file


def row(shown: str, number: int) -> str:
    """The table's line of order `number`, its cells apart by one or more spaces."""
    found = re.search(rf"^ *{number} .*$", shown, re.M)
    assert found, f"no row of order #{number}:\n{shown}"
    return " ".join(found.group().split())


def wrapped(shown: str, number: int) -> str:
    """The line after order `number`'s: the rest of its text, wrapped in its column."""
    lines = shown.splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(rf"^ *{number} ", line))
    return lines[at + 1].strip()


async def redrawn_before_measured(pilot) -> str:
    """The screen shown again, painted at once (before the table has been idle: on a
    loaded machine the screen's paint can come first), then once the app is idle."""
    screen = pilot.app.screen
    screen.show_campaign()
    screen_text(pilot.app)  # a paint before the table's idle: what it drew then, it keeps
    await pilot.pause()
    await pilot.pause()
    return screen_text(pilot.app)


async def test_every_status_word_is_shown_whole_after_applying_and_refusing(queued, make_app, no_color_env):
    app = make_app(queued)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("O")
        await wait_for_screen(pilot, OrdersScreen)
        shown = await wait_for(pilot, "Hold the Saale")
        assert row(shown, 1) == "1 french queued move latour_maubourg Querfurt - -"
        assert (row(shown, 2), wrapped(shown, 2)) == ("2 french queued note - - Hold the Saale -", "crossings")
        assert row(await redrawn_before_measured(pilot), 2) == "2 french queued note - - Hold the Saale -"

        await pilot.press(key(OrdersScreen, "orders.apply"))  # the cursor's row: the move
        await wait_for_notice(pilot, "Applied #1")
        await caught_up(pilot)
        shown = await wait_for(pilot, " applied ")
        assert row(shown, 1) == "1 french applied move latour_maubourg Querfurt - Move Ge…"
        # The ruling, whole under the table for the order selected (its start in its column).
        assert "#1 applied: Move General Latour-Maubourg (I Cavalry Corps)'s stack at" in shown
        assert row(await redrawn_before_measured(pilot), 1) == "1 french applied move latour_maubourg Querfurt - Move Ge…"

        await pilot.press("down", key(OrdersScreen, "orders.refuse"))
        await wait_for(pilot, "Refuse order #2")
        await type_text(pilot, "no such river")
        await pilot.press("ctrl+s")
        await caught_up(pilot)
        shown = await wait_for(pilot, " refused ")
        assert row(shown, 2) == "2 french refused note - - Hold the no such…"
        assert wrapped(shown, 2) == "Saale"
        assert row(shown, 1) == "1 french applied move latour_maubourg Querfurt - Move Ge…"
        assert "#2 refused: no such river" in shown
        table = app.screen.query_one("#list")
        assert table.cursor_row == 1  # still on the order just refused: its row was changed, not the table rebuilt
        assert row(await redrawn_before_measured(pilot), 2) == "2 french refused note - - Hold the no such…"


async def test_a_long_order_is_shown_whole_at_80_columns(campaign_file, make_app, tmp_path, no_color_env):
    """A player's long note wraps in its column: before, it ran off the edge at 80 columns
    ("Marshal Ney asks for reinforcements from t")."""
    note = ("Marshal Ney asks for reinforcements from the Guard at Erfurt before he engages the enemy "
            "cavalry at Weissenfels, and begs the Emperor to send them by the Naumburg road")
    umpire = CampaignSession.open(campaign_file)
    try:
        player = CampaignSession.open(write_despatch(umpire, "french", tmp_path / "french.campaign"))
        try:
            orders.write(player, "note", text=note)
            document = orders.OrdersDoc.model_validate(orders.export(player))
        finally:
            player.close()
        orders.import_orders(umpire, document)
    finally:
        umpire.close()
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("O")
        await wait_for_screen(pilot, OrdersScreen)
        await wait_for(pilot, "Marshal Ney asks")
        shown = await wait_for(pilot, "Naumburg road")
        assert "…" not in shown


@pytest.fixture
def no_color_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

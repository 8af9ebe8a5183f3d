"""The umpire's Orders screen at 80x24: each order's status word is shown whole, however
the screen's redraw and the table's measuring of its rows fall, and an order applied or
refused is changed in its row (the cursor stays on it)."""

from __future__ import annotations

import re
from collections.abc import Callable
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

    def write(player: CampaignSession) -> None:
        orders.write(player, "move", "latour_maubourg", "Querfurt")
        orders.write(player, "note", text="Hold the Saale crossings")

    umpire = french_orders_queued(campaign_file, tmp_path, write)
    umpire.close()
    return campaign_file


def french_orders_queued(campaign_file: Path, tmp_path: Path, write: Callable[[CampaignSession], None]) -> CampaignSession:
    """The umpire's session on `campaign_file`, its weather and command points rolled, with the
    orders `write` writes in the French side's file queued; the caller closes it."""
    umpire = CampaignSession.open(campaign_file)
    try:
        weather.roll(umpire, [2])
        for army in command_points.turn_points(umpire):
            command_points.roll(umpire, army.army, [3])
        player = CampaignSession.open(write_despatch(umpire, "french", tmp_path / "french.campaign"))
        try:
            write(player)
            document = orders.OrdersDoc.model_validate(orders.export(player))
        finally:
            player.close()
        orders.import_orders(umpire, document)
    except BaseException:
        umpire.close()
        raise
    return umpire


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
        assert row(shown, 1) == "1 french queued move latour_mau… Querfurt - -"
        assert (row(shown, 2), wrapped(shown, 2)) == ("2 french queued note - - Hold the Saale -", "crossings")
        assert row(await redrawn_before_measured(pilot), 2) == "2 french queued note - - Hold the Saale -"

        await pilot.press(key(OrdersScreen, "orders.apply"))  # the cursor's row: the move
        await wait_for_notice(pilot, "Applied #1")
        await caught_up(pilot)
        shown = await wait_for(pilot, " applied ")
        assert row(shown, 1) == "1 french applied move latour_mau… Querfurt - Move …"
        # The ruling, whole under the table for the order selected (its start in its column).
        assert "#1 french move latour_maubourg to Querfurt " in shown  # the order whole, cut in the table
        assert "applied: Move General Latour-Maubourg (I Cavalry Corps)'s stack at" in shown
        assert row(await redrawn_before_measured(pilot), 1) == "1 french applied move latour_mau… Querfurt - Move …"

        await pilot.press("down", key(OrdersScreen, "orders.refuse"))
        await wait_for(pilot, "Refuse order #2")
        await type_text(pilot, "no such river")
        await pilot.press("ctrl+s")
        await caught_up(pilot)
        shown = await wait_for(pilot, " refused ")
        assert row(shown, 2) == "2 french refused note - - Hold the Saale no su…"
        assert wrapped(shown, 2) == "crossings"
        assert row(shown, 1) == "1 french applied move latour_mau… Querfurt - Move …"
        assert "#2 french note: Hold the Saale crossings" in shown and "refused: no such river" in shown
        table = app.screen.query_one("#list")
        assert table.cursor_row == 1  # still on the order just refused: its row was changed, not the table rebuilt
        assert row(await redrawn_before_measured(pilot), 2) == "2 french refused note - - Hold the Saale no su…"


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


@pytest.fixture
def every_kind(campaign_file: Path, tmp_path: Path) -> Path:
    """The umpire's campaign with one French order of each kind queued, the first one ruled."""
    from rules.allemagne1813.command import ACTIONS

    def write(player: CampaignSession) -> None:
        orders.write(player, "reconnaissance", "latour_maubourg", "Weissenfels", "Scout the Saale")
        orders.write(player, "move", "latour_maubourg", "Querfurt")
        for action in ACTIONS:
            orders.write(player, "command_points", text="as the card says", action=action)

    umpire = french_orders_queued(campaign_file, tmp_path, write)
    try:
        orders.refuse(umpire, 1, "the Saale is in flood and no cavalry crosses it this turn")
    finally:
        umpire.close()
    return campaign_file


async def test_the_umpires_table_keeps_its_ruling_column_in_view_at_80_columns(every_kind, make_app, no_color_env):
    """A reconnaissance by latour_maubourg, or a command-points spending, pushed the umpire's
    Ruling column off the screen at 80 columns (the player's table dropped its Side column)."""
    async with make_app(every_kind).run_test(size=(80, 24)) as pilot:
        await pilot.press("O")
        await wait_for_screen(pilot, OrdersScreen)
        shown = await wait_for(pilot, "refused: the Saale is in flood")
        assert "#1 french reconnaissance latour_maubourg to Weissenfels: Scout the Saale" in shown
        header = next(line for line in shown.splitlines() if line.lstrip().startswith("#"))
        assert header.split() == ["#", "Side", "Status", "Order", "Stack", "To", "Text", "Ruling"], header
        assert row(shown, 1).split()[-1].endswith("…")  # the ruling's start, cut
        table = pilot.app.screen.query_one("#list")
        assert table.virtual_size.width <= table.size.width, (table.virtual_size.width, table.size.width, shown)

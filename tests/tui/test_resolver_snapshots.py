"""The resolver screen and a resolution, at 80x24 and 120x40 (see test_snapshots.py)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from campaigns import tabletop
from campaigns.session import CampaignSession
from tests.tui.conftest import built_once
from tests.tui.helpers import wait_for, wait_for_screen
from tests.tui.polling import caught_up, until
from tests.tui.test_resolver import handed_off
from tui.screens.battles import BattlesScreen
from tui.screens.fight import FightScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def fire_a_volley(path: Path) -> None:
    """A Kallistra battle in its simultaneous fire: one volley fired, its hits waiting."""
    battle_id = handed_off(path)
    session = CampaignSession.open(path)
    try:
        tabletop.start(session, battle_id)
        table = tabletop.load(session, battle_id)
        a, d = table.side_units("attacker")[0], table.side_units("defender")[0]
        tabletop.resolve(session, battle_id, "move", a.id)
        tabletop.next_phase(session, battle_id)
        tabletop.next_phase(session, battle_id)
        tabletop.resolve(session, battle_id, "small_arms_fire", a.id, d.id, numbers={"range": 2}, entered=[12, 9, 3])
    finally:
        session.close()


@pytest.fixture
def fired_file(tmp_path: Path) -> Path:
    """fire_a_volley on a new campaign, played once per worker and copied (built_once)."""
    return built_once(tmp_path / "spring.campaign", "resolver-fired", fire_a_volley)


async def _open(pilot):
    """From the battles, where the app starts (start="battles": building the overview first,
    which these snapshots never show, was a sixth of an app's start; x typed on the overview
    is tested in test_resolver.py)."""
    await wait_for_screen(pilot, BattlesScreen)
    await pilot.press("enter")
    await wait_for_screen(pilot, FightScreen)
    await pilot.press("g")
    await wait_for(pilot, "▶ simultaneous fire")


@pytest.mark.parametrize("size", SIZES)
def test_resolver_screen(snap_compare, make_app, fired_file, size):
    assert snap_compare(make_app(fired_file, start="battles"), run_before=_open, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_resolution(snap_compare, make_app, fired_file, size):
    async def open_a_resolution(pilot):
        await _open(pilot)
        await pilot.press("r")
        await wait_for(pilot, "Hits:")

    assert snap_compare(make_app(fired_file, start="battles"), run_before=open_a_resolution, terminal_size=size)


OTHERS = ["napoleonic_13phase", "napoleonic_uc_um", "napoleonic_d10"]


def put_on_the_table(path: Path, resolver: str) -> None:
    """A battle of the rule set `resolver` just put on the table."""
    battle_id = handed_off(path, resolver)
    session = CampaignSession.open(path)
    try:
        tabletop.start(session, battle_id)
    finally:
        session.close()


@pytest.fixture
def on_the_table(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """put_on_the_table for the rule set `request.param`, once per worker and copied (built_once)."""
    resolver = request.param
    return built_once(tmp_path / "spring.campaign", f"resolver-on-the-table-{resolver}", partial(put_on_the_table, resolver=resolver))


async def _open_any(pilot):
    """As _open, from the battles."""
    await wait_for_screen(pilot, BattlesScreen)
    await pilot.press("enter")
    await wait_for_screen(pilot, FightScreen)
    await pilot.press("g")
    await wait_for(pilot, "▶")


@pytest.mark.parametrize("on_the_table", OTHERS, indirect=True)
@pytest.mark.parametrize("size", SIZES)
def test_each_rule_sets_resolver_screen(snap_compare, make_app, on_the_table, size):
    assert snap_compare(make_app(on_the_table, start="battles"), run_before=_open_any, terminal_size=size)


@pytest.mark.parametrize("on_the_table", OTHERS, indirect=True)
def test_each_rule_sets_first_resolution(snap_compare, make_app, on_the_table):
    async def open_a_resolution(pilot):
        from textual.widgets import DataTable

        from tui.modals.resolution import allowed_actions, refused_now

        def acts(table, unit_id: str) -> bool:  # the card lets it take the first of its actions now
            actions = allowed_actions(table, unit_id)
            return bool(actions) and not refused_now(table, actions[0][0], unit_id)

        await _open_any(pilot)
        screen = pilot.app.screen
        table = tabletop.load(pilot.app.session, 1)
        while not any(acts(table, u) for u in table.units):  # a phase where a unit acts
            await pilot.press("n")
            await caught_up(pilot)  # the next phase stored
            table = tabletop.load(pilot.app.session, 1)
        first = next(u for u in table.units.values() if acts(table, u.id))
        grid = screen.query_one("#units", DataTable)
        grid.move_cursor(row=grid.get_row_index(first.id))
        await until(pilot, lambda: screen.selected() == first.id, "the cursor on the first unit that acts")
        await pilot.press("r")
        await wait_for(pilot, "ctrl+r rolls")

    assert snap_compare(make_app(on_the_table, start="battles"), run_before=open_a_resolution, terminal_size=(80, 24))

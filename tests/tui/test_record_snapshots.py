"""The screens this issue changed, without colour (NO_COLOR), at 80x24 and 120x40:
the forces marked by stack with [x]/[ ] in text, the history with undone and
redone actions and each changed field old -> new, the Overview and the order of
battle with nothing cut at 80 columns.

After changing one of them on purpose:
`pytest tests/tui/test_record_snapshots.py --snapshot-update`, look at the SVGs, commit them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from campaigns import oob, weather
from campaigns.session import CampaignSession
from tests.tui.conftest import built_once
from tests.tui.helpers import burst, letters, wait_for
from tests.tui.polling import settled

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.fixture(autouse=True)
def no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


def edit(path: Path) -> None:
    """The weather rolled; an edit of Zieten undone, redone, undone; then a new action."""
    session = CampaignSession.open(path)
    try:
        weather.roll(session, [3])
        unit = next(u for u in oob.side_units(oob.tree(session)[1]) if u.id == "brigade_zieten")
        values = {k: str(getattr(unit, k)) for k in ("name", "kind", "location", "cohesion", "artillery_bonus", "cavalry_bonus")}
        oob.edit_unit(session, unit.id, {**values, "strength_points": "2", "location": "Lützen"})
        session.undo()
        session.redo()
        session.undo()
        oob.move_unit(session, unit.id, "kleist")
    finally:
        session.close()


@pytest.fixture
def edited_file(tmp_path: Path) -> Path:
    """edit on a new campaign, once per worker and copied (built_once)."""
    return built_once(tmp_path / "spring.campaign", "record-edited", edit)


@pytest.mark.parametrize("size", SIZES)
def test_battle_setup_with_stacks_marked(snap_compare, make_app, edited_file, size):
    async def mark(pilot):
        await pilot.press("n")
        await wait_for(pilot, "nothing marked")
        await burst(pilot, *letters("Lützen"), "tab", "tab", "tab", "s", "tab", "down", "down", "down", "space")

    assert snap_compare(make_app(edited_file, start="battles"), run_before=mark, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_battle_setup_from_a_contact_place(snap_compare, make_app, tmp_path, size):
    """Kleist's stack at Macdonald's Merseburg: the set-up started there lists the two stacks only."""
    from tests.tui.test_battles import kleist_to_merseburg

    campaign_file = built_once(tmp_path / "spring.campaign", "record-kleist-at-merseburg", kleist_to_merseburg)

    async def from_merseburg(pilot):
        await wait_for(pilot, "Stacks in contact")
        await pilot.press("n")
        await wait_for(pilot, "Where is the battle fought?")
        await pilot.press("enter")
        await wait_for(pilot, "in contact at Merseburg")
        await burst(pilot, "tab", "tab", "tab", "s", "tab", "s")
        await wait_for(pilot, "leaders: General Kleist")

    assert snap_compare(make_app(campaign_file, start="battles"), run_before=from_merseburg, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_reconnaissance_with_a_stack_marked(snap_compare, make_app, edited_file, size):
    async def mark(pilot):
        await wait_for(pilot, "Reconnoitring units")
        # Latour-Maubourg's stack at Eisleben (the fifth row), then the screen in its reach, Kleist at Halle.
        await burst(pilot, "tab", "down", "down", "down", "down", "s")
        await wait_for(pilot, "Screening units in reach of Eisleben")
        await burst(pilot, "tab", "s")

    assert snap_compare(make_app(edited_file, start="recon"), run_before=mark, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_history_with_undone_and_redone_actions(snap_compare, make_app, edited_file, size):
    assert snap_compare(make_app(edited_file, start="history"), run_before=settled, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ["overview", "oob", "march"])
def test_screen_without_colour(snap_compare, make_app, edited_file, name, size):
    # settled: what the screen's workers read is drawn (the overview's weather box reads
    # the rule set's tables once the umpire pauses; until then it shows "…").
    assert snap_compare(make_app(edited_file, start=name), run_before=settled, terminal_size=size)

"""A screen's action in a thread worker (CampaignScreen.attempt(worker=True)): the screen
keeps drawing while it runs, the next key waits for it (tui.keys), and a refusal from
any layer is one notice, never a traceback."""

from __future__ import annotations

import threading

from campaigns import oob
from models import Unit
from models.errors import StoreError
from tests.tui.helpers import key, notices, stored, type_text, wait_for, wait_for_notice
from tui import keys
from tui.screens.oob import OrderOfBattleScreen
from tests.tui.polling import caught_up, settled, until

REMOVE = key(OrderOfBattleScreen, "oob.remove")


async def find(pilot, name: str) -> None:
    await pilot.press("slash")
    await type_text(pilot, name)
    await pilot.press("enter")
    await settled(pilot)  # the search ran and the cursor is on the find


def cursor(pilot):
    return pilot.app.screen.query_one("#tree").cursor_node.data


async def test_the_next_key_waits_for_an_action_in_its_worker_and_the_screen_draws_meanwhile(campaign_file, make_app, monkeypatch):
    go, started = threading.Event(), threading.Event()
    real = oob.remove_unit

    def slow_remove(session, unit_id):  # a slow database: the real removal, once let go
        started.set()
        assert go.wait(10)
        return real(session, unit_id)

    monkeypatch.setattr(oob, "remove_unit", slow_remove)
    # What is tested is the wait for the worker, not the gate's fallback for a key whose
    # handling was cut: on a loaded machine this test may take longer than that fallback.
    monkeypatch.setattr(keys, "HOLD_AT_MOST", 60.0)
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await pilot.press(REMOVE)
        await wait_for(pilot, "Remove Blücher's Corps: Brigade Zieten?")
        await pilot.press("y")
        for _ in range(100):  # the app runs meanwhile: its loop is this one
            if started.is_set():
                break
            await pilot.pause(0.05)
        assert started.is_set()
        shown = cursor(pilot)
        await pilot.press("down")  # typed while the removal runs: held, not lost
        await until(pilot, lambda: pilot.app.keys_held >= 1, "the key held")
        assert cursor(pilot) is shown
        assert pilot.app.screen.query_one("#tree").is_attached  # the UI thread is free: it still draws
        await wait_for(pilot, "Brigade Zieten")
        go.set()
        await wait_for_notice(pilot, "Removed Blücher's Corps: Brigade Zieten")
        await caught_up(pilot)
        assert cursor(pilot) is not shown  # the held key, delivered after the action
    with stored(campaign_file) as db:
        assert db.get(Unit, "brigade_zieten") is None


async def test_a_storage_refusal_in_a_worker_is_one_notice_and_the_app_goes_on(campaign_file, make_app, monkeypatch):
    def refused(session, unit_id):
        raise StoreError("the campaign file is read-only: nothing was changed")

    monkeypatch.setattr(oob, "remove_unit", refused)
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await pilot.press(REMOVE, "y")
        await wait_for_notice(pilot, "The campaign file is read-only: nothing was changed.")
        assert pilot.app.is_running and pilot.app.failure is None
        assert not any("Removed" in n for n in notices(pilot.app))
        assert isinstance(pilot.app.screen, OrderOfBattleScreen)
    with stored(campaign_file) as db:
        assert db.get(Unit, "brigade_zieten") is not None

"""The garbage collector waits while a screen is switched to, and runs once the umpire pauses.

Building a screen makes tens of thousands of objects that live on; the collector
going through them in the middle of a switch cost 20-40 ms of a first visit on
50,000 units (tui.app.AdjutantApp._pause_collector)."""

from __future__ import annotations

import gc
import time
from pathlib import Path

from tui.app import QUIET


async def test_the_collector_waits_during_a_switch_and_runs_again_once_the_umpire_pauses(make_app, campaign_file: Path):
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        assert gc.isenabled()
        await app.run_action("show('weather')")
        switched = time.monotonic()
        assert not gc.isenabled()  # the screen is still drawing and filling itself
        await app.run_action("show('command')")  # a key soon after: still waiting
        again = time.monotonic()
        assert not gc.isenabled()
        deadline = again + 15
        while not gc.isenabled():
            assert time.monotonic() < deadline, "the collector never ran again"
            await pilot.pause(0.02)
        assert time.monotonic() - again >= QUIET > 0 and again >= switched
    assert gc.isenabled()


async def test_the_collector_runs_again_when_the_app_ends_during_a_switch(make_app, campaign_file: Path):
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)):
        await app.run_action("show('weather')")
        assert not gc.isenabled()
    assert gc.isenabled()  # the app closed before the umpire paused: not left off for the process

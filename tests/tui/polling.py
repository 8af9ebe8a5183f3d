"""Waiting in the app tests for the state a test checks, by the clock, never by a count of pauses.

A pause (`pilot.pause()`) lasts until the test's process is idle: on a machine loaded by
other processes that comes at once, while a thread worker (a database read, a save) has
barely started. A test that looks after one pause, or after a fixed number of them, looks
too early; these look again until what they wait for is there, for up to `seconds`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.pilot import Pilot

SECONDS = 15.0  # for any one state to come about on a loaded two-core machine


async def until(pilot: Pilot, check: Callable[[], object], what: str, *, seconds: float = SECONDS) -> None:
    """Let the app run until `check()` is true; fail naming `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        await pilot.pause()
        if check():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {what}")
        await pilot.pause(0.01)  # a little time for the worker threads


async def caught_up(pilot: Pilot, *, seconds: float = SECONDS) -> None:
    """Until every key typed has been delivered and handled, an action it started in a
    worker included and its outcome shown (tui.keys: `keys_held`)."""
    # An app without the key gate (tui.keys.KeyGate; a test's own small app) holds no keys.
    await until(pilot, lambda: not getattr(pilot.app, "keys_held", 0), "the app to catch up with the keys typed", seconds=seconds)
    await pilot.pause()


async def settled(pilot: Pilot, *, seconds: float = SECONDS) -> None:
    """Until the workers running (a screen's reads: the order of battle's tree, the history's
    page) have ended and what they read is drawn; and the keys typed are caught up."""
    from textual.worker import WorkerCancelled

    deadline = time.monotonic() + seconds
    await pilot.pause()
    while True:
        try:
            await pilot.app.workers.wait_for_complete()
            break
        except WorkerCancelled:  # an exclusive read replaced by a newer one: wait for that one
            assert time.monotonic() < deadline, f"the workers did not end in {seconds:g} s"
            await pilot.pause()
    await caught_up(pilot, seconds=max(1.0, deadline - time.monotonic()))

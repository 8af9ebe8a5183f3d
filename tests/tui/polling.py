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
# Between two looks: 10 ms at first, a quarter longer at each look, up to 50 ms. A look
# costs the test's process about 5 ms of CPU (a pause goes round every widget of the
# screen, then a full drawing of it for a test that reads its text); at a look every 10
# ms, a wait of seconds (a locked file, a notice after half a second) used a seventh of
# a CPU doing nothing. Most waits end at the first or second look, as soon as before.
FIRST_REST, LAST_REST = 0.01, 0.05


async def rest(pilot: Pilot, looked: int) -> None:
    """Let the app run before the next look at what a test waits for, after `looked` looks."""
    await pilot.pause(min(LAST_REST, FIRST_REST * 1.25**looked))


async def until(pilot: Pilot, check: Callable[[], object], what: str, *, seconds: float = SECONDS) -> None:
    """Let the app run until `check()` is true; fail naming `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    looked = 0
    while True:
        await pilot.pause()
        if check():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {what}")
        await rest(pilot, looked)  # a little time for the worker threads
        looked += 1


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

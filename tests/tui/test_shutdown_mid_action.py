"""The app closed while an action still runs in its worker (a slow database: the umpire
stopped waiting with ctrl+c, then quit, or the terminal was closed): the action ends and
is in the file, and its outcome, come after, is dropped quietly (tui.workers): no error,
no traceback, the app's exit code untouched.

The database is made slow by holding the real action back on an event the test sets as
the app takes its screen apart (`Release`, a widget on that screen): the outcome then
arrives while the screen's widgets are being removed, where it used to be drawn.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import select
from textual.widget import Widget

from campaigns import weather
from campaigns.session import CampaignSession
from models import Event
from tests.tui.helpers import stored, wait_for, wait_for_notice
from tests.tui.polling import until
from tui import keys
from tui.screens.weather import WeatherScreen

WORKING = "Working… keys typed now wait"


class Held:
    """A real action held back until let go, as a database that takes its time."""

    def __init__(self, action):
        self.action = action
        self.go, self.started, self.ended = threading.Event(), threading.Event(), threading.Event()

    def __call__(self, *args, **kwargs):
        self.started.set()
        assert self.go.wait(30), "never let go"
        try:
            return self.action(*args, **kwargs)
        finally:
            self.ended.set()


class Release(Widget):
    """Lets the held action go as the app takes the screen apart, and waits for it to end:
    its outcome is on its way to the UI thread while the screen's widgets are removed."""

    def __init__(self, held: Held, linger: float = 0.05) -> None:
        super().__init__()
        self.held, self.linger = held, linger

    def on_unmount(self) -> None:
        self.held.go.set()
        assert self.held.ended.wait(30)
        time.sleep(self.linger)  # the worker's thread hands its outcome to the UI thread


def held_app(campaign_file: Path, make_app, monkeypatch: pytest.MonkeyPatch, action: str):
    """An app on the weather screen whose `action` is held back until let go: the undo (the
    app's own action, which redraws the screen in front) or the roll (the screen's)."""
    session = CampaignSession.open(campaign_file)
    if action == "undo":
        weather.roll(session, [2])
        held = Held(session.undo)
        monkeypatch.setattr(session, "undo", held)
    else:
        held = Held(weather.roll)
        monkeypatch.setattr(weather, "roll", held)
    app = make_app(start="weather")
    app.session = session
    return app, held, "u" if action == "undo" else "r"


def kept(campaign_file: Path, action: str) -> None:
    """The action is in the file: the undo, or the weather rolled."""
    with stored(campaign_file) as db:
        kinds = list(db.scalars(select(Event.kind).order_by(Event.id)))
    assert kinds[-1] == ("undo" if action == "undo" else "action")
    check = CampaignSession.open(campaign_file)
    try:
        assert weather.now(check).weather == (None if action == "undo" else "Clear")
    finally:
        check.close()


@pytest.mark.parametrize("closed_by", ["q", "the terminal"])
@pytest.mark.parametrize("action", ["undo", "roll"])
async def test_an_action_ending_after_the_app_closed_is_kept_and_its_outcome_dropped(
    campaign_file: Path, make_app, monkeypatch: pytest.MonkeyPatch, action: str, closed_by: str,
):
    app, held, key = held_app(campaign_file, make_app, monkeypatch, action)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Weather track")
        assert isinstance(app.screen, WeatherScreen)
        await app.screen.mount(Release(held))
        await pilot.press(key)
        await until(pilot, held.started.is_set, "the action to start in its worker")
        await wait_for(pilot, WORKING)
        await pilot.press("ctrl+c")  # stop waiting: the keys are free again
        await wait_for_notice(pilot, "Stopped waiting")
        assert not held.go.is_set()  # still running
        if closed_by == "q":
            await pilot.press("q")
        # else: the terminal closed, the app taken down from outside (run_test's end)
    assert held.ended.is_set()
    assert app.failure is None
    assert app.return_code == (0 if closed_by == "q" else None)  # no error's exit code (1, or 2 with a sentence)
    kept(campaign_file, action)


@pytest.mark.parametrize("action", ["undo", "roll"])
async def test_the_app_closed_while_it_waits_for_an_action_puts_up_no_notice(
    campaign_file: Path, make_app, monkeypatch: pytest.MonkeyPatch, action: str,
):
    """Closed from outside right after the key: the "Working…" notice, come due while the
    screens are taken apart, is not put up on them (it was: ScreenStackError)."""
    app, held, key = held_app(campaign_file, make_app, monkeypatch, action)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Weather track")
        await app.screen.mount(Release(held, linger=keys.WORKING_AFTER + 0.3))
        await pilot.press(key)
        await until(pilot, held.started.is_set, "the action to start in its worker")
    assert held.ended.is_set()
    assert app.failure is None and app.return_code is None
    kept(campaign_file, action)

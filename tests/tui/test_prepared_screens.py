"""The screens built in the background after the first one: the same on show as
built on demand, kept up to date, and a table or tree that keeps its drawing
still redraws when its look changes."""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from campaigns import weather
from campaigns.session import CampaignSession
from textual.worker import WorkerState

from tests.tui.helpers import screen_text
from tests.tui.polling import settled, until
from tui.app import PREPARED
from tui.widgets.kept import KeptTable


async def _settled(pilot, seconds: float = 15.0) -> None:
    """Until the app has built every screen of PREPARED: after the first screen, its
    imports in a thread, and a moment with no screen asked for (tui.app.QUIET)."""
    deadline = time.monotonic() + seconds
    while not pilot.app.screens_prepared:
        assert time.monotonic() < deadline, "the screens were never all prepared"
        await pilot.pause(0.02)


async def on_demand(make_app, campaign_file: Path, name: str) -> str:
    """The screen `name` as an app without prepared screens shows it first, built on demand."""
    app = make_app(campaign_file, start=name)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)  # the order of battle and the history read in workers
        return screen_text(app)


async def test_the_screens_are_built_after_the_first_and_each_shows_what_one_built_on_demand_shows(make_app, campaign_file: Path):
    """One app with its screens prepared shows each of them in turn, from the overview as the
    first is; each is held to an app of its own that built it on demand. (One prepared app for
    all five: each cost a whole preparing of every screen, a fifth of this file's CPU.)"""
    expected = {name: await on_demand(make_app, campaign_file, name) for name in PREPARED}
    app = make_app(campaign_file, prepare=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settled(pilot)
        assert all(app.is_screen_installed(name) for name in PREPARED)
        assert app.screen is app.get_screen("overview")
        for name in PREPARED:
            await app.run_action(f"show('{name}')")
            await settled(pilot)
            assert screen_text(app) == expected[name], f"the prepared {name} screen"
            await app.run_action("show('overview')")  # the next one shown from the overview, as the first
            await settled(pilot)


async def test_a_prepared_screen_shows_a_change_made_since(make_app, campaign_file: Path):
    app = make_app(campaign_file, prepare=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settled(pilot)
        other = CampaignSession.open(campaign_file)  # another umpire rolls the weather
        try:
            told = weather.roll(other)
        finally:
            other.close()
        await app.run_action("show('weather')")
        await settled(pilot)
        assert told.split(":")[1].split("(")[0].strip() in screen_text(app)


async def test_kept_widgets_draw_anew_when_the_theme_changes(make_app, campaign_file: Path):
    app = make_app(campaign_file, start="oob")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        table = app.screen.query_one(KeptTable)
        looks = table._look
        before = screen_text(app)
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await until(pilot, lambda: table._look != looks, "the table drawn in the new theme")
        assert screen_text(app) == before  # the same text, in the new colours


async def test_background_work_waits_for_the_workers_of_the_screen_on_show(make_app, campaign_file: Path):
    """A worker of the screen on show (its reading) holds back the background imports
    and building; one of a screen built in the background does not."""
    import threading

    app = make_app(campaign_file, prepare=True)
    release = threading.Event()
    async with app.run_test(size=(80, 24)) as pilot:
        await _settled(pilot)
        try:
            reading = app.screen.run_worker(partial(release.wait, 10), thread=True, group="reading")
            await until(pilot, app.screen_busy, "the screen busy with its reading")
            waiting = threading.Thread(target=app.wait_for_quiet, args=(0.05,))
            waiting.start()
            await pilot.pause(0.2)
            assert waiting.is_alive()  # still waiting for the screen's reading
            release.set()
            await reading.wait()
            assert not app.screen_busy()
            waiting.join(2)
            assert not waiting.is_alive()
            release.clear()
            hidden = app.get_screen("weather").run_worker(partial(release.wait, 10), thread=True, group="reading")
            await until(pilot, lambda: hidden.state == WorkerState.RUNNING, "the hidden screen's reading running")
            assert not app.screen_busy()  # a screen not on show: background work itself
        finally:
            release.set()
        await hidden.wait()


async def test_no_screen_is_prepared_once_the_app_has_closed(make_app, campaign_file: Path):
    """A view of the past lives in a folder of its own, removed as the app closes with it. A
    preparation due as the app closed (its timer, a frame after the view was shown) built a
    screen on it, which read the removed file, and the app ended on an unhandled error
    (tests/tui/test_story_screens.py, under load). Once closed, the app prepares nothing."""
    from campaigns.past import moment, open_past
    from tui.app import AdjutantApp

    present = CampaignSession.open(campaign_file)
    try:
        past = open_past(present, moment(present, turn=1))
    finally:
        present.close()
    app = AdjutantApp(past, prepare=True)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert not app.is_running  # closed, and the view of the past with it
    app.prepare_screens()  # as the timer does, late
    assert not any(app.is_screen_installed(name) for name in PREPARED)


async def test_the_history_is_not_read_ahead_once_the_app_has_closed(campaign_file: Path, monkeypatch):
    """The history's read-ahead waits for the umpire to pause (tui.app.wait_for_quiet); the
    app's closing ended that wait as it closed the campaign. On a view of the past the read
    then opened the file while its folder was removed: SQLite created the file again between
    the removal of the file and of the folder, and the folder stayed on disk for good (2 of
    400 closings with a thread reading, in a loop). Once the app has stopped, nothing is read."""
    import threading

    import tui.app
    from campaigns import replays
    from campaigns.past import moment, open_past
    from tui.app import AdjutantApp

    read_when: list[bool] = []  # whether the app was running, for each read ahead
    monkeypatch.setattr(replays, "read_ahead", lambda session: read_when.append(app.is_running))
    ended = threading.Event()
    real = tui.app._read_history_ahead

    def observed(*args) -> None:
        try:
            real(*args)
        finally:
            ended.set()

    monkeypatch.setattr(tui.app, "_read_history_ahead", observed)
    present = CampaignSession.open(campaign_file)
    try:
        past = open_past(present, moment(present, turn=1))
    finally:
        present.close()
    app = AdjutantApp(past, prepare=False)  # no warm-up of its own: the read-ahead is started below
    app.animation_level = "none"
    release = threading.Event()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settled(pilot)
            # The umpire never pauses: a reading of the screen on show runs until the app closes.
            app.screen.run_worker(partial(release.wait, 30), thread=True, group="reading")
            await until(pilot, app.screen_busy, "the screen busy with its reading")
            app._read_ahead()
            await pilot.pause(2 * tui.app.QUIET)
            assert not ended.is_set()  # waiting for the umpire to pause
    finally:
        release.set()
    assert ended.wait(15), "the read-ahead never ended"
    assert read_when == []
    assert not past.folder.exists()

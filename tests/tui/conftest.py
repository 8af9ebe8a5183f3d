"""Fixtures of the app tests: a fresh campaign per test, an app factory, and a
world held still (clock, time zone, config directory, cursor blink, animations)
so that screens and snapshots come out the same on every run."""

from __future__ import annotations

import asyncio
import atexit
import gc
import inspect
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

import models.clock
from campaigns.session import CampaignSession
from tui.app import YOUNG_OBJECTS_PER_COLLECTION, AdjutantApp
from tui.textual_private import draw_frames_only_when_looked_at, forget_cached_widgets, wait_for_idle_in_slices

SEED = 1813
FROZEN = datetime(2024, 4, 26, 9, 30, tzinfo=UTC)

# Pilot waits for the app to go idle after every key and at every pause, looking every
# 1/50 s: a pause that found the app idle at once still took 20 ms, and a key 40 (a
# test of battles from the keyboard waited so 2,400 times: 48 s, more than its 39 s of
# CPU). Every 2 ms instead, idle when two looks in a row find less than 0.3 ms of CPU
# used and no other thread running or waiting for a CPU (a worker the loaded machine
# has not run yet: CPU time alone called that idle). What a test checks it still waits
# for itself (tests/tui/polling.py): an idle app is not a finished one.
PILOT_SLICE, PILOT_IDLE = 0.002, 0.0003
wait_for_idle_in_slices(PILOT_SLICE, PILOT_IDLE)

# A headless app draws a frame only when the test looks at it (screen_text): drawing
# each frame nobody sees was a third of an app test's CPU. Tests marked `every_frame`
# (keys in bursts, the key sweep: frames drawn at awkward moments are their point) and
# the snapshot tests draw every frame, as the app in a terminal does (the end-to-end
# tests): a few widgets settle what they show as they are drawn (a list's scroll bar
# measured at its first drawing, a plot's colours), and a snapshot is the picture the
# user sees after every frame. ADJUTANT_TEST_EVERY_FRAME=1 makes every app test draw
# every frame.
_EVERY_FRAME = [os.environ.get("ADJUTANT_TEST_EVERY_FRAME") == "1"]
draw_frames_only_when_looked_at(lambda: _EVERY_FRAME[-1])


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "every_frame: the app draws every frame, as in a terminal, not only what the test looks at")


@pytest.fixture
def snap_compare(snap_compare: Callable[..., bool]) -> Callable[..., bool]:
    """pytest-textual-snapshot's snap_compare, its picture taken once the app has settled
    (tests/tui/polling.py: the keys typed, `press` included, handled and laid out, the
    workers they started ended and what they read drawn), never while a key or a reading is
    still on its way: snap_compare takes it a few pauses after the last key, however far the
    app has got by then on a loaded machine. A run_before that waits for a text on the screen
    still waits for it first."""
    from tests.tui.polling import settled

    def compare(app: AdjutantApp, press: tuple[str, ...] | list[str] = (), terminal_size: tuple[int, int] = (80, 24),
                run_before: Callable[..., object] | None = None) -> bool:
        async def before(pilot: Pilot) -> None:
            if run_before is not None:
                done = run_before(pilot)
                if inspect.isawaitable(done):
                    await done
            if press:
                await pilot.pause()  # as snap_compare presses them
                await pilot.press(*press)
            await settled(pilot)

        return snap_compare(app, terminal_size=terminal_size, run_before=before)

    return compare


@pytest.fixture(autouse=True)
def frames_drawn(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every frame drawn for a snapshot test or one marked `every_frame`, else only what it looks at."""
    every = request.node.get_closest_marker("every_frame") is not None or "snap_compare" in request.fixturenames
    _EVERY_FRAME.append(_EVERY_FRAME[0] or every)
    yield
    _EVERY_FRAME.pop()


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in an event loop of their own (no asyncio plugin needed)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    arguments = {name: pyfuncitem.funcargs[name] for name in inspect.signature(pyfuncitem.obj).parameters}
    asyncio.run(pyfuncitem.obj(**arguments))
    return True


class _FrozenDatetime(datetime):
    """`datetime` whose now() is always FROZEN: the time stamped on events and dice."""

    @classmethod
    def now(cls, tz=None):  # type: ignore[override]
        return FROZEN.astimezone(tz) if tz else FROZEN.replace(tzinfo=None)


@pytest.fixture(autouse=True)
def still_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A config dir of the test's own, UTC, a frozen clock and no cursor blink."""
    config = tmp_path / "config"
    monkeypatch.setenv("ADJUTANT_CONFIG_DIR", str(config))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.setattr(models.clock, "datetime", _FrozenDatetime)
    monkeypatch.setattr(Input, "cursor_blink", False)
    monkeypatch.chdir(tmp_path)
    # The collector as the app runs it (tui.app.calm_collector, from tui.launch): a
    # young collection every 20,000 new objects rather than 700. Only here: other
    # tests measure their peak memory (tracemalloc) with Python's own thresholds.
    thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS_PER_COLLECTION, *thresholds[1:])
    # Whether the test froze anything, told by gc.freeze itself: gc.get_freeze_count walks
    # every frozen object (298,000 once a worker has collected the whole suite): 43 ms of
    # CPU a call on the loaded dev machine, twice a test, a fifth of a short app test.
    froze: list[bool] = []
    freeze = gc.freeze

    def counted_freeze() -> None:
        froze.append(True)
        freeze()

    monkeypatch.setattr(gc, "freeze", counted_freeze)
    yield config
    monkeypatch.undo()
    time.tzset()
    gc.set_threshold(*thresholds)
    forget_cached_widgets()  # or Textual's caches keep the widgets of the last hundreds of apps alive
    # An app that has prepared its screens freezes what exists out of the collector's
    # sight (tui/app.py), for as long as the app lives; here it lives one test, and
    # without this every app of a worker's tests would stay in memory to its end. What
    # was frozen before the test (tests/conftest.py, once the tests are collected) stays.
    if froze:
        gc.unfreeze()
        gc.collect()
        gc.freeze()


_templates: dict[tuple[str, bool], Path] = {}


def new_campaign(path: Path, *, manual_dice: bool = False, scenario: str = "spring1813") -> Path:
    """A new campaign of `scenario` at `path`, dice from the fixed seed.

    Built once per worker and copied: with the seed fixed and the clock frozen
    (still_world), CampaignSession.new makes the same file every time but for the
    campaign's random identity and dice salt, which no app test compares between
    two files. Building it (the migrations, the order of battle) took a tenth of an
    app test's time."""
    made = _templates.get((scenario, manual_dice))
    if made is None:
        folder = Path(tempfile.mkdtemp(prefix="adjutant-template-"))
        atexit.register(shutil.rmtree, folder, True)
        made = folder / f"{scenario}{'-manual' if manual_dice else ''}.campaign"
        CampaignSession.new(scenario, made, seed=SEED, manual_dice=manual_dice).close()
        assert [p.name for p in folder.iterdir()] == [made.name], "a new campaign is more than one file: copy them all"
        _templates[(scenario, manual_dice)] = made
    shutil.copyfile(made, path)
    return path


_built: dict[str, Path] = {}


def built_once(path: Path, name: str, build: Callable[[Path], object], **kwargs) -> Path:
    """At `path`, the campaign `build` makes of a new one (new_campaign's `kwargs`):
    built once per worker under `name` and copied, as new_campaign is. For a fixture
    that plays the same actions before every one of its tests (a turn under way, a
    battle begun): with the seed fixed and the clock frozen they make the same file
    every time, and playing them took a quarter of a snapshot test's time."""
    made = _built.get(name)
    if made is None:
        folder = Path(tempfile.mkdtemp(prefix="adjutant-built-"))
        atexit.register(shutil.rmtree, folder, True)
        made = new_campaign(folder / f"{name}.campaign", **kwargs)
        build(made)
        assert [p.name for p in folder.iterdir()] == [made.name], "a campaign is more than one file: copy them all"
        _built[name] = made
    shutil.copyfile(made, path)
    return path


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    """A new spring 1813 campaign, dice rolled from the fixed seed."""
    return new_campaign(tmp_path / "spring.campaign")


@pytest.fixture
def manual_campaign_file(tmp_path: Path) -> Path:
    """A new spring 1813 campaign whose dice are rolled on the table and typed in."""
    return new_campaign(tmp_path / "manual.campaign", manual_dice=True)


@pytest.fixture
def make_app() -> Callable[..., AdjutantApp]:
    """An app on a campaign file (or none), with animations off, and without the
    background work after start-up (AdjutantApp.warm_up: the screens' modules
    imported and the history read ahead in threads, then every screen of
    tui.app.PREPARED built, filled and drawn off screen); `prepare=True` for one
    that does it, as the app run by a user does.

    A test that looks at one or two screens never shows the others, yet it paid
    for building them: about a third of an app test's CPU time, and more of its
    wall time, since Pilot's pauses wait for the process to go idle. What that
    work does is tested where it is the point (test_prepared_screens.py, the
    slow-store tests, and every end-to-end test in a real terminal)."""

    def make(path: Path | str | None = None, *, prepare: bool = False, **kwargs) -> AdjutantApp:
        session = CampaignSession.open(path) if path is not None else None
        app = AdjutantApp(session, prepare=prepare, **kwargs)
        app.animation_level = "none"
        return app

    return make

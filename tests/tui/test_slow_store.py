"""A campaign file another program holds locked: the screen keeps answering while a
form's save, undo, redo and reload wait for it, the keys typed meanwhile wait too
(tui.keys), and none of them lands on a screen the umpire was not looking at.

The lock is real: a second SQLite connection on the campaign file with an EXCLUSIVE
transaction open, which no other connection can read or write through until it ends.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import func, select

import models.engine
from models import Event, Unit
from tests.tui.helpers import burst, letters, notices, screen_text, stored, wait_for, wait_for_notice
from tui import keys
from tui.app import AdjutantApp
from tui.modals.form import FormScreen
from tui.screens.history import HistoryScreen
from tui.screens.oob import OrderOfBattleScreen

WORKING = "Working… keys typed now wait"


@contextmanager
def locked(path: Path) -> Iterator[sqlite3.Connection]:
    """The campaign file locked by another connection until the block ends (or `.rollback()`)."""
    other = sqlite3.connect(path, timeout=10, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield other
        if other.in_transaction:
            other.execute("ROLLBACK")
    finally:
        other.close()


def count(path: Path, table) -> int:
    with stored(path) as db:
        return db.scalar(select(func.count()).select_from(table))


async def answers(pilot) -> float:
    """How long the app takes to go round its loop ten times: quick while it waits in a worker."""
    start = time.monotonic()
    for _ in range(10):
        await pilot.pause()
    return time.monotonic() - start


async def waiting(pilot, app: AdjutantApp) -> None:
    """Until the notice of the long wait is drawn: the screen redraws while the database is locked."""
    await wait_for(pilot, WORKING)
    assert app.waiting_shown and app.keys_held >= 1


async def caught_up(pilot, seconds: float = 15.0) -> None:
    """Until every key typed has been delivered and handled (an action in a worker included)."""
    deadline = time.monotonic() + seconds
    while pilot.app.keys_held:
        assert time.monotonic() < deadline, f"{pilot.app.keys_held} keys still held"
        await pilot.pause(0.02)
    await pilot.pause()


async def prepared(pilot) -> None:
    """Until the screens built in the background after start-up are built and filled: they
    read the campaign, and this test's lock is for the actions it times."""
    deadline = time.monotonic() + 30
    while not pilot.app.screens_prepared:
        assert time.monotonic() < deadline, "the screens were never prepared"
        await pilot.pause(0.05)


async def open_add_form(pilot) -> None:
    await prepared(pilot)
    await burst(pilot, "slash", *letters("kleist"), "enter")
    await wait_for(pilot, "General Kleist")
    await burst(pilot, "a", *letters("Locked bn"))
    assert isinstance(pilot.app.screen, FormScreen)


async def test_a_form_saved_into_a_locked_file_waits_and_the_screen_answers(campaign_file, make_app, monkeypatch):
    # Longer than the gate's follow-up of a cut key: a key held that long is still not let go.
    monkeypatch.setattr(keys, "HOLD_AT_MOST", 0.3)
    units = count(campaign_file, Unit)
    app = make_app(campaign_file, start="oob", prepare=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_add_form(pilot)
        form = app.screen
        with locked(campaign_file) as lock:
            await pilot.press("ctrl+s", "h")  # save, then h (History) typed at once
            await waiting(pilot, app)
            assert await answers(pilot) < 2.0
            await pilot.pause(keys.HOLD_AT_MOST * 2)
            # Still the form, the name as typed, the focus in it: h went nowhere yet.
            assert app.screen is form and form.saving
            assert form.query_one("#f-name").value == "Locked bn"
            assert app.focused is form.query_one("#f-name")
            lock.rollback()
        await wait_for_notice(pilot, "New unit under General Kleist")
        await wait_for(pilot, "History")
        # h reached the screen in front once the form had closed: the order of battle's h, History.
        assert isinstance(app.screen, HistoryScreen)
        assert not app.waiting_shown
    assert count(campaign_file, Unit) == units + 1
    with stored(campaign_file) as db:
        assert db.scalar(select(Unit).where(Unit.name == "Locked bn")) is not None


async def test_a_save_refused_by_a_file_locked_too_long_keeps_the_form_its_text_and_focus(campaign_file, make_app, monkeypatch):
    monkeypatch.setattr(models.engine, "BUSY_TIMEOUT_SECONDS", 0.5)  # SQLite gives up on the lock after this
    events = count(campaign_file, Event)
    app = make_app(campaign_file, start="oob", prepare=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_add_form(pilot)
        form = app.screen
        name = form.query_one("#f-name")
        with locked(campaign_file):
            await pilot.press("ctrl+s", "x")  # x typed while the save waits: for the form, after
            await caught_up(pilot)
            assert "Another umpire is changing the campaign right now" in str(form.query_one("#error").render())
        assert app.screen is form and not form.saving
        assert name.value == "Locked bnx" and app.focused is name
        assert not any("New unit" in n for n in notices(app))
        await pilot.press("ctrl+s")  # the lock gone, the same form saves
        await caught_up(pilot)
        assert isinstance(app.screen, OrderOfBattleScreen)
    assert count(campaign_file, Event) == events + 1  # the one save that went through
    with stored(campaign_file) as db:
        assert db.scalar(select(Unit).where(Unit.name == "Locked bnx")) is not None


async def test_undo_redo_and_reload_wait_for_a_locked_file_in_workers(campaign_file, make_app):
    app = make_app(campaign_file, start="oob", prepare=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_add_form(pilot)
        await pilot.press("ctrl+s")
        await caught_up(pilot)
        assert isinstance(app.screen, OrderOfBattleScreen)
        for key, said in (("u", "Undone: "), ("y", "Redone: "), ("f5", "Reloaded: the campaign as stored now")):
            with locked(campaign_file) as lock:
                await pilot.press(key, "down")
                await waiting(pilot, app)
                assert await answers(pilot) < 2.0
                assert not any(said in n for n in notices(app))
                lock.rollback()
            await wait_for_notice(pilot, said)
            await caught_up(pilot)
            assert not app.waiting_shown
    with stored(campaign_file) as db:
        assert db.scalar(select(Unit).where(Unit.name == "Locked bn")) is not None  # added, undone, redone


async def test_ctrl_c_stops_waiting_for_a_hung_file_and_the_held_keys_go_nowhere(campaign_file, make_app):
    app = make_app(campaign_file, start="oob", prepare=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_add_form(pilot)
        await pilot.press("ctrl+s")
        await caught_up(pilot)
        with locked(campaign_file) as lock:
            await pilot.press("u", "h", "w")  # undo, then History and Weather typed while it waits
            await waiting(pilot, app)
            await pilot.press("ctrl+c")
            told = await wait_for_notice(pilot, "Stopped waiting")
            assert "2 keys typed meanwhile were discarded" in told
            assert app.keys_held == 0 and not app.waiting_shown
            assert isinstance(app.screen, OrderOfBattleScreen)  # neither h nor w was delivered
            assert WORKING not in screen_text(app)
            lock.rollback()
        await wait_for_notice(pilot, "Undone: ")  # the undo went on, and tells its outcome
        assert isinstance(app.screen, OrderOfBattleScreen)
    with stored(campaign_file) as db:
        assert db.scalar(select(Unit).where(Unit.name == "Locked bn")) is None  # undone


async def test_undo_waits_for_a_postgresql_campaign_locked_by_another_connection(postgres_url, make_app):
    import psycopg
    from sqlalchemy.engine import make_url

    from campaigns import weather
    from campaigns.session import CampaignSession
    from tests.templates import new_campaign
    from tests.tui.conftest import SEED

    session = CampaignSession.open(new_campaign(postgres_url, "spring1813", seed=SEED))  # a copy of the worker's template
    try:
        weather.roll(session, [2])
    finally:
        session.close()
    app = make_app(postgres_url, start="weather", prepare=True)
    libpq = make_url(postgres_url).set(drivername="postgresql").render_as_string(hide_password=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await prepared(pilot)
        with psycopg.connect(libpq) as other:  # a transaction of its own, until rolled back
            tables = [row[0] for row in other.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
            other.execute(f"LOCK TABLE {', '.join(tables)} IN ACCESS EXCLUSIVE MODE")  # no read or write gets through
            await pilot.press("u", "down")
            await waiting(pilot, app)
            assert await answers(pilot) < 2.0
            assert not any("Undone" in n for n in notices(app))
            other.rollback()
        await wait_for_notice(pilot, "Undone: ")
        await caught_up(pilot)
        assert not app.waiting_shown


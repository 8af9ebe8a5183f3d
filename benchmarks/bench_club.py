"""A club's night: 2 umpires and 10 players on one PostgreSQL campaign, each in a process of its own,
making a turn's actions and orders at once, against one umpire alone on the same campaign.

    python -m benchmarks --only club_commit_p95_ratio

Every session connects with a role of `adjutant club setup`, so the row-level
security policies are in every query. The two umpires (the umpires' role) flip
marks of units only each of them changes, a unit's command; when the other
committed first the action is refused (optimistic locking), the umpire reloads
and tries again, as an umpire does on being told. The ten players, five a side,
each connect as their side's role (`adjutant --side SIDE --db URL`'s session)
and queue orders to the umpire, each a row only that role may insert.
Afterwards:

- lost updates: a mark not as its umpire last committed it, an order a player
  committed that is not queued exactly once, an order nobody committed, or a
  campaign version or history that does not count every umpire's action; must be 0;
- every refusal must be a sentence (one line, no traceback);
- the ratio: the 95th percentile of a committed action's or order's time (from
  the call to its commit) in the club, over the same for one umpire alone.

The PostgreSQL server is ADJUTANT_TEST_POSTGRES_URL's, or one started here from
Debian's postgresql package, as the tests do (tests/conftest.py).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

UMPIRES, PLAYERS = 2, 10
FIELD = "out_of_command"  # the umpires' mark
UMPIRE, PLAYER = "umpire", "player"


def club_figure(actions: int, figure, p95) -> dict:
    """The figure for `python -m benchmarks` (figure and p95 are its helpers)."""
    with postgres_server() as server, campaign_database(server) as admin_url:
        urls = _club(admin_url)
        alone = _run(urls, [(UMPIRE, 0, 1, actions * 2)])
        workers = [(UMPIRE, n, UMPIRES, actions) for n in range(UMPIRES)]
        workers += [(PLAYER, n, PLAYERS, actions) for n in range(PLAYERS)]
        club = _run(urls, workers)
    lost = club["lost_updates"] + alone["lost_updates"]
    value = p95(club["commits"]) / p95(alone["commits"])
    players = [s for r in club["results"] if r["kind"] == PLAYER for s in r["commits"]]
    result = figure(
        value, None, "ratio",
        lost_updates=lost,
        sessions=len(workers), actions_committed=club["committed"], orders_queued=len(players), refusals=club["refusals"],
        refusals_all_sentences=club["bad_refusals"] == [],
        errors=club["errors"][:5],
        club_p95_ms=round(p95(club["commits"]) * 1000, 1), alone_p95_ms=round(p95(alone["commits"]) * 1000, 1),
        players_p95_ms=round(p95(players) * 1000, 1),
    )
    result["ok"] = lost == 0 and not club["bad_refusals"] and not club["errors"]
    return result


def _club(admin_url: str) -> dict[str, str]:
    """A spring 1813 campaign with the club's roles; each role's URL ("umpire", then each side's)."""
    import contextlib
    import io

    from tui.cli import main as cli
    from campaigns.scenario import load_scenario
    from campaigns.setup import create_campaign

    create_campaign(admin_url, load_scenario("spring1813"), seed=1813).close()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        if cli(["club", "setup", "--db", admin_url, "--json"]) != 0:
            raise RuntimeError("adjutant club setup failed")
    return {who: place["url"] for who, place in json.loads(out.getvalue()).items()}


def _run(urls: dict[str, str], workers: list[tuple[str, int, int, int]]) -> dict:
    """Run the workers at once, each in its own process; what they did and what was lost.
    A worker is (kind, number, how many of its kind, actions); player n plays side n mod 2."""
    from sqlalchemy import func, select

    from models import Event, SideOrder, Unit, open_campaign

    with open_campaign(urls[UMPIRE]) as store, store.read() as db:
        units = sorted(db.scalars(select(Unit.id)))
        before = (store.stored_version(), db.scalar(select(func.count()).select_from(Event)),
                  db.scalar(select(func.count()).select_from(SideOrder)))
    sides = [who for who in urls if who != UMPIRE]
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(len(workers))
    answers = context.Queue()
    processes = []
    for kind, n, of, actions in workers:
        who = UMPIRE if kind == UMPIRE else sides[n % len(sides)]
        processes.append(context.Process(target=_worker, args=(urls[who], who, units, kind, n, of, actions, start, answers)))
    for process in processes:
        process.start()
    results = [answers.get(timeout=600) for _ in processes]
    for process in processes:
        process.join()
    commits = [seconds for r in results for seconds in r["commits"]]
    refusals = [text for r in results for text in r["refusals"]]
    lost = lost_updates(urls[UMPIRE], results, *before)
    return {
        "commits": commits,
        "committed": len(commits),
        "refusals": len(refusals),
        "bad_refusals": [r for r in refusals if not _sentence(r)],
        "errors": [e for r in results for e in r["errors"]],
        "lost_updates": lost,
        "results": results,
        "before": before,
    }


def lost_updates(url: str, results: list[dict], version_before: int, events_before: int, orders_before: int) -> int:
    """Marks not as their umpire last committed them; committed umpires' actions the campaign's
    version or history does not count; orders committed but not queued exactly once, or queued
    by nobody (read as the umpires' role, which reads every side's)."""
    from sqlalchemy import func, select

    from models import Event, SideOrder, Unit, open_campaign

    actions = sum(len(r["commits"]) for r in results if r["kind"] == UMPIRE)
    sent = [(r["side"], text) for r in results if r["kind"] == PLAYER for text in r["last"]]
    with open_campaign(url) as store, store.read() as db:
        stored = {u.id: u for u in db.scalars(select(Unit))}
        lost = sum(
            getattr(stored[unit], FIELD) != value for r in results if r["kind"] == UMPIRE for unit, value in r["last"].items()
        )
        lost += abs(store.stored_version() - version_before - actions)
        lost += abs(db.scalar(select(func.count()).select_from(Event)) - events_before - actions)
        queued = [(o.side, o.text) for o in db.scalars(select(SideOrder).where(SideOrder.status == "queued"))]
        lost += sum(abs(queued.count(order) - 1) for order in sent)
        lost += abs(db.scalar(select(func.count()).select_from(SideOrder)) - orders_before - len(sent))
    return lost


def _worker(url: str, who: str, units: list[str], kind: str, n: int, of: int, actions: int, start, answers) -> None:
    """One session: an umpire's `actions` committed flips of its own units' mark, retrying each
    refusal after a reload; a player's `actions` orders queued as its side's role."""
    from campaigns.errors import CampaignError, OtherUmpireError

    commits, refusals, errors = [], [], []
    last: dict = {}  # an umpire's marks as last committed; a player's orders' texts
    session: Any = None  # a player's session, or an umpire's
    try:
        if kind == PLAYER:
            from campaigns import orders
            from campaigns.player import open_side

            session = open_side(url, who)
            start.wait()
            for step in range(actions):
                text = f"Player {n}, order {step}: hold the line"
                began = time.perf_counter()
                try:
                    orders.write(session, "note", text=text)
                except CampaignError as error:
                    errors.append(str(error))
                    continue
                commits.append(time.perf_counter() - began)
                last[text] = True
        else:
            from campaigns.oob import set_unit_flags
            from campaigns.session import CampaignSession
            from models import Unit

            mine = units[n::of]
            session = CampaignSession.open(url)
            with session.store.read() as db:
                values = {u: bool(getattr(db.get_one(Unit, u), FIELD)) for u in mine}
            start.wait()
            for step in range(actions):
                unit = mine[step % len(mine)]
                value = not values[unit]
                while True:
                    began = time.perf_counter()
                    try:
                        set_unit_flags(session, unit, **{FIELD: value})
                    except OtherUmpireError as refused:
                        refusals.append(str(refused))
                        session.reload()
                        continue
                    except CampaignError as error:  # anything else a person would be told: a failure of the run
                        errors.append(str(error))
                        break
                    commits.append(time.perf_counter() - began)
                    values[unit] = last[unit] = value
                    break
    except Exception as error:  # noqa: BLE001  (reported, never a hung benchmark)
        errors.append(f"{type(error).__name__}: {error}")
        start.abort()  # the others, still waiting to start, are not kept waiting for this one
    finally:
        if session is not None:
            session.close()
        answers.put({"kind": kind, "side": who, "commits": commits, "refusals": refusals, "errors": errors, "last": last})


def _sentence(text: str) -> bool:
    return bool(text.strip()) and "\n" not in text and "Traceback" not in text and len(text) < 300


@contextmanager
def campaign_database(server: str) -> Iterator[str]:
    """A new database on the server for the run, dropped after it (its club roles too)."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"adjutant_bench_club_{os.getpid()}"
    base = make_url(server)
    libpq = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    url = base.set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        from tui.cli import main as cli

        with open(os.devnull, "w") as quiet, _stdout(quiet):
            cli(["club", "revoke", "--db", url])
        with psycopg.connect(libpq, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def _stdout(stream) -> Iterator[None]:
    import contextlib

    with contextlib.redirect_stdout(stream):
        yield


@contextmanager
def postgres_server() -> Iterator[str]:
    if os.environ.get("ADJUTANT_TEST_POSTGRES_URL"):
        yield os.environ["ADJUTANT_TEST_POSTGRES_URL"]
        return
    folders = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not folders:
        raise RuntimeError("the club benchmark needs PostgreSQL: apt-get install postgresql, or set ADJUTANT_TEST_POSTGRES_URL")
    binaries = folders[-1].parent
    base = Path(tempfile.mkdtemp(prefix="adjutant-bench-pg-"))
    as_server = []
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        account = pwd.getpwnam("postgres")
        os.chown(base, account.pw_uid, account.pw_gid)
        as_server = ["runuser", "-u", "postgres", "--"]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = base / "data"
    run = {"check": True, "capture_output": True, "cwd": base}
    subprocess.run([*as_server, str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync"], **run)
    # Durable settings, unlike the tests': commit times are what is measured.
    options = f"-k {base} -p {port} -c listen_addresses=127.0.0.1 -c max_connections=100"
    subprocess.run([*as_server, str(binaries / "pg_ctl"), "-D", str(data), "-l", str(base / "log"), "-w", "-o", options, "start"], **run)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_server, str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], capture_output=True, cwd=base)
        shutil.rmtree(base, ignore_errors=True)

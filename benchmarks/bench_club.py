"""A club's night: 2 umpires and 10 other sessions on one PostgreSQL campaign, each in a process of
its own, making a turn's actions at once, against one umpire alone on the same campaign.

    python -m benchmarks --only club_commit_p95_ratio

Every session connects as the umpires' role of `adjutant club setup` (so the
row-level security policies are in every query) and flips marks of units only it
changes: the ten sessions a unit's fatigue, the two umpires its command. When
another session committed first, the action is refused (optimistic locking), the
session reloads and tries again, as an umpire does on being told. Afterwards:

- lost updates: a mark not as its session last committed it, or a campaign
  version or history that does not count every committed action; must be 0;
- every refusal must be a sentence (one line, no traceback);
- the ratio: the 95th percentile of a committed action's time (from the call
  to its commit) in the club, over the same for one umpire alone.

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

UMPIRES, SESSIONS = 2, 10
FIELDS = {"umpire": "out_of_command", "session": "fatigued"}


def club_figure(actions: int, figure, p95) -> dict:
    """The figure for `python -m benchmarks` (figure and p95 are its helpers)."""
    with postgres_server() as server, campaign_database(server) as admin_url:
        url = _club(admin_url)
        alone = _run(url, [("umpire", 0, 1, actions * 2)])
        workers = [("umpire", n, UMPIRES, actions) for n in range(UMPIRES)]
        workers += [("session", n, SESSIONS, actions) for n in range(SESSIONS)]
        club = _run(url, workers)
    lost = club["lost_updates"] + alone["lost_updates"]
    value = p95(club["commits"]) / p95(alone["commits"])
    result = figure(
        value, None, "ratio",
        lost_updates=lost,
        sessions=len(workers), actions_committed=club["committed"], refusals=club["refusals"],
        refusals_all_sentences=club["bad_refusals"] == [],
        errors=club["errors"][:5],
        club_p95_ms=round(p95(club["commits"]) * 1000, 1), alone_p95_ms=round(p95(alone["commits"]) * 1000, 1),
    )
    result["ok"] = lost == 0 and not club["bad_refusals"] and not club["errors"]
    return result


def _club(admin_url: str) -> str:
    """A spring 1813 campaign with the club's roles; the umpires' role's URL."""
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
    return json.loads(out.getvalue())["umpire"]["url"]


def _run(url: str, workers: list[tuple[str, int, int, int]]) -> dict:
    """Run the workers at once, each in its own process; what they did and what was lost."""
    from sqlalchemy import func, select

    from models import Event, Unit, open_campaign

    with open_campaign(url) as store, store.read() as db:
        units = sorted(db.scalars(select(Unit.id)))
        version_before = store.stored_version()
        events_before = db.scalar(select(func.count()).select_from(Event))
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(len(workers))
    answers = context.Queue()
    processes = [
        context.Process(target=_worker, args=(url, units, kind, n, of, actions, start, answers)) for kind, n, of, actions in workers
    ]
    for process in processes:
        process.start()
    results = [answers.get(timeout=600) for _ in processes]
    for process in processes:
        process.join()
    commits = [seconds for r in results for seconds in r["commits"]]
    refusals = [text for r in results for text in r["refusals"]]
    lost = lost_updates(url, results, version_before, events_before)
    return {
        "commits": commits,
        "committed": len(commits),
        "refusals": len(refusals),
        "bad_refusals": [r for r in refusals if not _sentence(r)],
        "errors": [e for r in results for e in r["errors"]],
        "lost_updates": lost,
        "results": results,
        "before": (version_before, events_before),
    }


def lost_updates(url: str, results: list[dict], version_before: int, events_before: int) -> int:
    """Marks not as their session last committed them, and committed actions the campaign's
    version or history does not count."""
    from sqlalchemy import func, select

    from models import Event, Unit, open_campaign

    committed = sum(len(r["commits"]) for r in results)
    with open_campaign(url) as store, store.read() as db:
        stored = {u.id: u for u in db.scalars(select(Unit))}
        lost = sum(
            getattr(stored[unit], FIELDS[r["kind"]]) != value for r in results for unit, value in r["last"].items()
        )
        lost += abs(store.stored_version() - version_before - committed)
        lost += abs(db.scalar(select(func.count()).select_from(Event)) - events_before - committed)
    return lost


def _worker(url: str, units: list[str], kind: str, n: int, of: int, actions: int, start, answers) -> None:
    """One session: `actions` committed flips of its own units' mark, retrying each refusal after a reload."""
    from campaigns.errors import CampaignError, OtherUmpireError
    from campaigns.oob import set_unit_flags
    from campaigns.session import CampaignSession

    field = FIELDS[kind]
    mine = units[n::of]
    commits, refusals, errors, last = [], [], [], {}
    session = CampaignSession.open(url)
    try:
        with session.store.read() as db:
            from models import Unit

            values = {u: bool(getattr(db.get_one(Unit, u), field)) for u in mine}
        start.wait()
        for step in range(actions):
            unit = mine[step % len(mine)]
            value = not values[unit]
            while True:
                began = time.perf_counter()
                try:
                    set_unit_flags(session, unit, **{field: value})
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
    finally:
        session.close()
        answers.put({"kind": kind, "commits": commits, "refusals": refusals, "errors": errors, "last": last})


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

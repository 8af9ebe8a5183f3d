"""Database fixtures: a real PostgreSQL server for the session, one fresh database per
test, and `campaign_target`, which runs a storage test on a `.campaign` file and on
PostgreSQL. And how the suite runs in parallel: how many xdist workers `-n auto`
starts, and the longest tests first.

The server comes from Debian's postgresql package (/usr/lib/postgresql/*/bin),
unless ADJUTANT_TEST_POSTGRES_URL names one already running.
As root, initdb and the server run as the postgres user, which PostgreSQL requires.
Without the binaries the PostgreSQL half of the tests is skipped, with the reason.
"""

from __future__ import annotations

import gc
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import hypothesis
import pytest

from tests import seeds

SERVER_VARIABLE = "ADJUTANT_TEST_POSTGRES_URL"

# -- scratch files in memory --------------------------------------------------

# Every campaign file a test makes syncs to disk at each commit (models/engine.py:
# synchronous=FULL, a few fsyncs an action), and an fsync on this machine's disk
# takes about 11 ms (0.00 on tmpfs). So the tests' temporary folders (tmp_path,
# tempfile, the PostgreSQL server's data) live in memory when /dev/shm is a
# writable tmpfs with room: tests/models/test_actions_and_undo.py ran in 42, 46 and
# 31 s of wall time against 80, 71 and 55 s on /tmp, three pairs run alternately,
# with the same CPU time. Nothing a test checks is lost: what a killed process leaves
# is the same in memory, and no test cuts the power. ADJUTANT_TEST_TMPDIR names
# another folder (`ADJUTANT_TEST_TMPDIR=/tmp` for the disk). Pytest keeps the last
# three runs' folders there (pytest-of-USER), as it does in /tmp.
MEMORY_FOLDER = Path("/dev/shm")
MEMORY_NEEDED = 2 * 1024**3


def _scratch_folder() -> Path | None:
    chosen = os.environ.get("ADJUTANT_TEST_TMPDIR")
    if chosen:
        return Path(chosen)
    try:
        room = os.statvfs(MEMORY_FOLDER)
    except OSError:
        return None
    if not os.access(MEMORY_FOLDER, os.W_OK | os.X_OK) or room.f_bavail * room.f_frsize < MEMORY_NEEDED:
        return None
    return MEMORY_FOLDER


def _scratch_in_memory() -> None:
    """Point tempfile (and with it pytest's tmp_path, decided later) and child processes at the scratch folder."""
    folder = _scratch_folder()
    if folder is not None:
        tempfile.tempdir = str(folder)
        os.environ["TMPDIR"] = str(folder)


_scratch_in_memory()
seeds.run_seed()  # chosen here, before xdist starts its workers, which inherit it


RUN_FOLDER = "ADJUTANT_TEST_RUN_FOLDER"  # tests/run_shared.py reads it


def _run_folder() -> Path | None:
    """A folder for the whole run, made here (before xdist starts its workers, which inherit its
    name: tests/run_shared.py) and removed when the process that made it ends the run."""
    if os.environ.get(RUN_FOLDER):
        return None  # a worker's: the run's controller made it
    folder = Path(tempfile.mkdtemp(prefix="adjutant-run-"))
    os.environ[RUN_FOLDER] = str(folder)
    return folder


_MADE_RUN_FOLDER = _run_folder()


def pytest_unconfigure(config: pytest.Config) -> None:
    if _MADE_RUN_FOLDER is not None:
        shutil.rmtree(_MADE_RUN_FOLDER, ignore_errors=True)


# Hypothesis fails a property test whose example runs past 200 ms ("Unreliable test timings" when
# it then runs in time): a wait for the CPU on a loaded machine, not a fault. The examples of
# tests/rules took up to 39 ms at load 15; the properties check values, not time.
# Its health check that input generation is "too slow" (under a second for a few examples) is
# the same kind of clock: a full run at load 12-16 failed test_property_multipliers... on it.
hypothesis.settings.register_profile(
    "adjutant", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow],
)
hypothesis.settings.load_profile("adjutant")


def pytest_report_header() -> str:
    return seeds.replay(seeds.run_seed())

# -- running in parallel (pytest-xdist) ---------------------------------------

# An app test spends about a third of its time asleep (Textual's pilot waits for
# the app to go idle in slices of 20 ms), and an end-to-end test waits for its app in
# tmux. Two workers per core were not faster on the 2-core machine of session 6
# (11:47 and 674 CPU-seconds against 10:00 and 591 with one per core: the extra
# workers' collections, PostgreSQL servers and module fixtures cost more than the
# waiting they filled). Three workers on two cores are: session 16, a quiet machine,
# the whole suite back to back from one clone, -n 2 250.5 s (311 s user + 21 sys),
# -n 3 229.5 s (343 + 23); an earlier pair 264.3 against 231.8. Four are not (session 19, quiet,
# back to back, bytecode cached as in .ci/run): -n 3 217.9 s (321 + 24), -n 4 238.9 s (380 + 28): the
# fourth worker's waits were already filled, and the contention cost more CPU than it saved.
WORKERS_PER_CORE = 1.5

# The files that hold the longest single tests, longest first, then the rest of
# the end-to-end and app tests, then the quick ones. xdist (--dist worksteal,
# pyproject.toml) gives each worker a share of the list cut in order; `dealt` below
# deals these files to the workers' shares in turn, so each starts with its part of
# the long ones and ends with quick tests, and a worker that runs out takes over the
# far end of another's share. Files keep their own order inside.
# Measured file by file with -n 0 on a loaded machine (CPU seconds of the longest
# test, this process, its children and the PostgreSQL server; its wall time): the
# PostgreSQL numbers 30 / 83 s, hostile files 22 / 63, the quick judge 14 / 36,
# hostile histories 9 / 17 (drawn, tests/seeds.py), the streamed import 11 / 26, the
# club's load 7.5 / 25, the killed player 5.7 / 16, hostile inputs 6 / 17; the app
# and end-to-end files as measured in session 6; then the campaign commands that
# play ten turns or export (5 / 12). rules/ (3,800 tests, 25 CPU-s in all) ends it.
LONGEST_FIRST = (
    "tests/test_hostile_numbers_postgres.py",
    "tests/test_hostile_files.py",
    "tests/models/test_export_quick.py",
    "tests/models/test_import_stream.py",
    "tests/club/test_load.py",
    "tests/test_hostile_history.py",
    "tests/tui/test_battles.py",
    "tests/tui/test_two_bounds.py",
    "tests/tui/test_two_turns.py",
    "tests/e2e/test_tabletop_turns.py",
    "tests/models/test_crash.py",
    "tests/test_hostile_inputs.py",
    "tests/tui/test_hostile_screens.py",
    "tests/tui/test_story_screens.py",
    "tests/e2e/test_terminal.py",
    "tests/e2e/test_tabletop_bursts.py",
    "tests/tui/test_resolver.py",
    "tests/campaigns/test_output.py",
    "tests/campaigns/test_report.py",
    "tests/campaigns/test_tabletop.py",
    "tests/campaigns/test_past.py",
    "tests/campaigns/test_history.py",
    "tests/e2e/",
    "tests/tui/",
    "tests/club/",
    "tests/models/",
    "tests/campaigns/",
    "tests/test_",
    "tests/rules/",
)


# -- compiled once, before the workers start ---------------------------------

# Each worker imports every test module (collection) and the product, and on a fresh clone
# finds no compiled file: the three workers of `-n auto`, started together, each compiled
# and assertion-rewrote the same modules (8.2 CPU-s of collection a worker, of which 5 is
# this; 3.1 with the files compiled). The controller compiles them once before it starts
# the workers, which then read what it wrote, as a second run does. Pytest's rewrite
# writes the same files the same way (_pytest/assertion/rewrite.py, exec_module); its
# names are private, so anything amiss leaves the work to the workers, as before.
PACKAGES = ("rules", "models", "campaigns", "tui", "tests")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    if session.config.pluginmanager.has_plugin("dsession"):  # xdist's controller, before it starts the workers
        compile_for_workers(session.config)


def compile_for_workers(config: pytest.Config) -> None:
    """The product's and the tests' modules compiled, and the test modules and conftest files
    rewritten as pytest rewrites them, into the caches the workers read."""
    if sys.dont_write_bytecode:
        return
    import compileall
    import re

    root = Path(config.rootpath)
    rewritten = re.compile(r"(^|[\\/])(test_[^\\/]*|conftest)\.py$")
    for package in PACKAGES:
        if (root / package).is_dir():
            compileall.compile_dir(root / package, quiet=1, rx=rewritten)
    try:
        from _pytest.assertion import rewrite

        state = config.stash.get(rewrite.assertstate_key, None)
        if state is None or state.hook is None:  # --assert=plain
            return
        for module in sorted((root / "tests").rglob("*.py")):
            if not rewritten.search(str(module)):
                continue
            pyc = rewrite.get_cache_dir(module) / (module.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(module, pyc, state.trace) is None and rewrite.try_makedirs(pyc.parent):
                source, code = rewrite._rewrite_test(module, config)
                rewrite._write_pyc(state, code, source, pyc)
    except Exception:  # a pytest whose private names moved: the workers rewrite, as before
        return


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """The number of workers `-n auto` starts: WORKERS_PER_CORE for each core this process may use."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, round(cores * WORKERS_PER_CORE))


def _place(item: pytest.Item) -> int:
    where = item.nodeid.replace("\\", "/")
    return next((n for n, start in enumerate(LONGEST_FIRST) if where.startswith(start)), len(LONGEST_FIRST))


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what exists once the tests are collected (modules, classes, the test items)
    out of the collector's sight: it lives to the end of the run, and every full
    collection went through it again, a few hundred thousand objects each time. In
    a sample of 25 app tests the collector took 15% of the CPU time (3.1 of 20 s), 7%
    with this, the app's own threshold and Textual's caches emptied (tests/tui/conftest.py)."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # After pytest's own ordering (which groups the tests sharing a module-scoped
    # fixture); a stable sort keeps that order inside each place.
    items.sort(key=_place)
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers > 1:  # every worker sorts its own collection alike: xdist requires the same order
        items[:] = dealt(items, workers)


QUICK = "tests/rules/"  # 3,800 tests, some 25 CPU-s in all: they fill each worker's share


def dealt(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The tests in the order that gives each worker, in xdist's first share, its part of
    the slow files, longest first, then quick tests. xdist (--dist worksteal) hands the
    first worker the first len // workers tests, the next a like share of the rest, and
    so on: sorted longest first and cut so, the first worker got every slow file, and
    the other ones nothing but quick tests, then leftovers stolen a half queue at a time
    (the tail of the run, two to three minutes). Here the slow files, in LONGEST_FIRST's
    order, are dealt back and forth (0, 1, 1, 0, 0, 1, ...: each worker gets a long one
    of each pair in turn), whole (a module's fixture is made once), and each share is
    filled up with quick tests to the size xdist cuts it at; a worker that runs out
    steals from the far end of another's share, which is quick tests."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    quick = [item for name, tests in files.items() if name.startswith(QUICK) for item in tests]
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    slow = [tests for name, tests in files.items() if not name.startswith(QUICK)]
    for n, tests in enumerate(slow):
        turn, step = divmod(n, workers)
        shares[step if turn % 2 == 0 else workers - 1 - step].extend(tests)
    sizes, left = [], len(items)
    for worker in range(workers):  # xdist's cut: WorkStealingScheduling.check_schedule
        sizes.append(left // (workers - worker))
        left -= sizes[-1]
    if any(len(share) > size for share, size in zip(shares, sizes)):
        return items  # the slow files alone overfill a share: longest first, as sorted
    for share, size in zip(shares, sizes):
        need = size - len(share)
        share.extend(quick[:need])
        del quick[:need]
    return [item for share in shares for item in share]


def _postgres_bin() -> Path | None:
    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in folder.parent.name.split(".") if part.isdigit())

    folders = [
        p
        for p in Path("/usr/lib/postgresql").glob("*/bin")
        if (p / "initdb").exists() and (p / "pg_ctl").exists()
    ]
    return max(folders, key=version) if folders else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


INITDB = ("-U", "postgres", "-A", "trust", "--no-sync")


def new_cluster(folder_bin: Path, data: Path) -> None:
    """A new database cluster at `data` (in a folder the server's user may write): a copy of one
    initdb made once for these binaries, options and user, kept in the scratch folder for every later
    worker and run. initdb is some 0.9 CPU-s and 3.5 s; the copy 0.06 CPU-s. A cluster is all
    files and nothing is shared between copies (each has its own server); the first one is made
    under a lock, under another name, and given its own only when whole."""
    import fcntl
    import zlib

    made_by = zlib.crc32(" ".join((str(folder_bin), *INITDB)).encode())  # another initdb: another copy kept
    kept = Path(tempfile.gettempdir()) / f"adjutant-pg-cluster-{os.geteuid()}-{made_by:08x}"
    with open(f"{kept}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not kept.is_dir():
            making = Path(tempfile.mkdtemp(prefix=f"{kept.name}-making-", dir=kept.parent))
            try:
                if os.geteuid() == 0:
                    account = pwd.getpwnam("postgres")
                    os.chown(making, account.pw_uid, account.pw_gid)
                subprocess.run(
                    _as_server_user([str(folder_bin / "initdb"), "-D", str(making / "data"), *INITDB]),
                    check=True, capture_output=True, text=True,
                )
                os.rename(making / "data", kept)
            finally:
                shutil.rmtree(making, ignore_errors=True)
    # cp -a keeps the owner, the server's user (as root, `postgres`; otherwise this user)
    subprocess.run(["cp", "-a", str(kept), str(data)], check=True, capture_output=True, text=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of the `postgres` database of a PostgreSQL server started for this test session,
    or of the server ADJUTANT_TEST_POSTGRES_URL names (its user must be allowed to create databases)."""
    if os.environ.get(SERVER_VARIABLE):
        yield os.environ[SERVER_VARIABLE]
        return
    folder_bin = _postgres_bin()
    if folder_bin is None:
        pytest.skip(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); apt-get install postgresql"
        )
    base = Path(tempfile.mkdtemp(prefix="adjutant-pg-"))
    data, log = base / "data", base / "server.log"
    if os.geteuid() == 0:
        try:
            account = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(base)
            pytest.skip("PostgreSQL refuses to run as root and there is no postgres user to run it as")
        os.chown(base, account.pw_uid, account.pw_gid)
    port = _free_port()
    run = {"check": True, "capture_output": True, "text": True, "cwd": base}
    new_cluster(folder_bin, data)
    # Durability settings are off: these tests are about Adjutant's locking, not the server's disk.
    options = f"-k {base} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
    try:
        subprocess.run(
            _as_server_user(
                [str(folder_bin / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-o", options, "start"]
            ),
            **run,
        )
    except subprocess.CalledProcessError as error:
        server_log = log.read_text() if log.exists() else ""
        shutil.rmtree(base, ignore_errors=True)
        pytest.fail(f"PostgreSQL did not start: {error.stderr}{server_log}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_server_user([str(folder_bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
            capture_output=True,
            cwd=base,
        )
        shutil.rmtree(base, ignore_errors=True)


_database_numbers = itertools.count(1)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"adjutant_test_{os.getpid()}_{next(_database_numbers)}"
    server = make_url(postgres_server)
    libpq = server.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as connection:
        # From PostgreSQL 15 on, CREATE DATABASE writes every page of its template to the log unless
        # told to copy the files (as before 15): the server's CPU for a database made and dropped,
        # 47 against 18 ms.
        copying = " STRATEGY FILE_COPY" if connection.info.server_version >= 150000 else ""
        connection.execute(f'CREATE DATABASE "{name}"{copying}')
    yield server.set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def campaign_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's campaign lives: a new .campaign file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "test.campaign")
    return str(request.getfixturevalue("postgres_url"))

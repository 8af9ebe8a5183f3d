"""The hostile-file run at full size: `python -m tests.hostile_corpus [--count 1000] [--seed N]`.

Makes a fresh seeded corpus (tests/hostile.py) of COUNT campaign files, runs
`check`, `export`, `log`, `battles` and `battles --list` on each in-process,
with the same assertions as tests/test_hostile_files.py, and prints the figures:
files, sound and refused, tracebacks, hangs, files changed, control bytes on
stdout or stderr, triggers fired, and check/export disagreements. Then COUNT
orders files through `orders import`, COUNT hostile event histories through undo
and redo (tests/test_hostile_history.py; COUNT/5 of them on PostgreSQL against a
file), COUNT password files through `serve` and through `club setup` (on
PostgreSQL: ADJUTANT_TEST_POSTGRES_URL, or a server of Debian's postgresql
package started for the run; without one that part is skipped, and said), and COUNT/5 drawn numbers through every numeric argument,
with the assertions of tests/test_hostile_inputs.py, and on PostgreSQL against a file
(tests/test_hostile_numbers_postgres.py). Exit 1 if anything failed.
The test suite runs smaller corpora of the same kinds.
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tests import hostile
from tests import test_hostile_inputs as inputs
from tests.test_hostile_files import Hang, judge, played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args(argv)
    failures: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    sound = refused = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="adjutant-hostile-") as folder:
        real = played(Path(folder) / "real.campaign")
        for path, what in hostile.corpus(real, Path(folder) / "corpus", args.count, seed=args.seed):
            try:
                codes = judge(path, what)
            except AssertionError as error:
                kind = str(error).split(":")[1].strip() if ":" in str(error) else "assertion"
                failures[kind] += 1
                examples.setdefault(kind, f"{what}: {error}"[:300])
                continue
            except (Exception, Hang):  # noqa: BLE001  (a traceback or a hang: exactly what the run counts)
                failures["traceback"] += 1
                examples.setdefault("traceback", f"{what}: {traceback.format_exc(limit=3)}"[:600])
                continue
            sound += codes["check"] == 0
            refused += codes["check"] != 0
        seconds = time.perf_counter() - start
        print(f"seed {args.seed}: {args.count} files in {seconds:.1f} s ({seconds / args.count * 1000:.0f} ms a file)")
        print(f"  check calls {sound} sound and refuses {refused}; every command agrees: {not failures}")
        for kind, count in failures.most_common():
            print(f"  FAILED {count}: {kind}\n    e.g. {examples[kind]}")
        failed = bool(failures)
        for name, corpus in _inputs(Path(folder), args.count, args.seed):
            failed |= not _run_corpus(name, corpus)
    return 1 if failed else 0


def _inputs(folder: Path, count: int, seed: int) -> Iterator[tuple[str, Callable[[], collections.Counter[str]]]]:
    yield "orders files (orders import)", lambda: inputs.check_orders(folder / "orders", count, seed)
    yield "password files (serve)", lambda: inputs.check_serve(folder / "serve", count, seed)
    yield "numbers (every numeric argument)", lambda: inputs.check_numbers(folder / "numbers", max(count // 5, 1), seed)
    yield "event histories (undo and redo)", lambda: _histories(folder / "histories", count, seed)
    yield "bad values read by the quick judge and the row model (every column, every value)", lambda: _quick_judge(folder)
    yield "hostile exports read row by row and as one document (all of them)", lambda: _exports(folder)
    with _postgresql() as url:
        if url is None:
            print("password files (club setup): SKIPPED, no PostgreSQL (set ADJUTANT_TEST_POSTGRES_URL or apt-get install postgresql)")
        else:
            yield "password files (club setup)", lambda: inputs.check_club(url, folder / "club", count, seed)
            yield "numbers on PostgreSQL (every numeric argument, against a file)", lambda: _numbers_on_postgres(url, folder, count, seed)
            yield "event histories on PostgreSQL (undo and redo, against a file)", lambda: _histories_on_postgres(url, folder, count, seed)


def _numbers_on_postgres(url: str, folder: Path, count: int, seed: int) -> collections.Counter[str]:
    """The numbers' corpus on a played campaign in the database, each answer compared with a file's
    (tests/test_hostile_numbers_postgres.py); the database is emptied first (the club's run used it)."""
    import psycopg

    from tests.test_hostile_numbers_postgres import _libpq, check_numbers_on_postgres

    with psycopg.connect(_libpq(url), autocommit=True) as connection:
        connection.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    return check_numbers_on_postgres(url, folder / "numbers-postgresql", max(count // 5, 1), seed)


def _quick_judge(folder: Path) -> collections.Counter[str]:
    """Every bad value in every column, read alike by models.export_quick and the row model
    (tests/models/test_export_quick.py runs the core and a drawn sample)."""
    from tests.models.test_export_quick import compare, cut_campaign

    (folder / "quick").mkdir()
    return compare(cut_campaign(folder / "quick"), None)


def _exports(folder: Path) -> collections.Counter[str]:
    """Every hostile export, streamed and read whole alike (tests/models/test_import_stream.py
    runs every kind and a drawn sample of the rest)."""
    from tests.models.test_import_stream import compare_exports

    (folder / "exports").mkdir()
    return compare_exports(played(folder / "exports" / "real.campaign"), folder / "exports", 200)


def _histories(folder: Path, count: int, seed: int) -> collections.Counter[str]:
    """COUNT cases of the hostile histories' corpus (tests/test_hostile_history.py) on an imported campaign file."""
    from tests.test_hostile_history import check_file, imported_campaign

    folder.mkdir(parents=True)
    pristine, campaign = imported_campaign(folder)
    return check_file(pristine, campaign, folder / "cases", count, seed)


def _histories_on_postgres(url: str, folder: Path, count: int, seed: int) -> collections.Counter[str]:
    """COUNT/5 cases of the hostile histories' corpus in the database, each answer compared with a file's."""
    import psycopg

    from tests.test_hostile_history import check_postgres
    from tests.test_hostile_numbers_postgres import _libpq

    with psycopg.connect(_libpq(url), autocommit=True) as connection:
        connection.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    return check_postgres(url, folder / "histories-postgresql", max(count // 5, 1), seed)


def _run_corpus(name: str, corpus: Callable[[], collections.Counter[str]]) -> bool:
    """Run one corpus (it stops at its first failure, which it names); print its figures; whether it passed."""
    start = time.perf_counter()
    try:
        seen = corpus()
    except (Exception, Hang) as error:  # noqa: BLE001  (an assertion, a traceback or a hang: reported)
        print(f"{name}: FAILED: {str(error)[:600] or traceback.format_exc(limit=3)}")
        return False
    print(f"{name}: {sum(seen.values())} cases in {time.perf_counter() - start:.1f} s, "
          f"{seen['refused']} refused in one sentence and {seen['taken']} taken; all as they must be")
    return True


@contextmanager
def _postgresql() -> Iterator[str | None]:
    """A new database on ADJUTANT_TEST_POSTGRES_URL's server, or on one started here as the suite does."""
    import psycopg
    from sqlalchemy.engine import make_url

    from tests import conftest

    server, started = os.environ.get(conftest.SERVER_VARIABLE), None
    if not server:
        started = _start_postgresql()
        if started is None:
            yield None
            return
        server = started[0]
    name = f"adjutant_corpus_{os.getpid()}"
    libpq = make_url(server).set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        with psycopg.connect(libpq, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        try:
            yield make_url(server).set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False)
        finally:
            with psycopg.connect(libpq, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        if started is not None:
            started[1]()


def _start_postgresql() -> tuple[str, Callable[[], None]] | None:
    """A throw-away server, as tests/conftest.py's `postgres_server` starts one; (URL, stop) or None."""
    from tests import conftest

    binaries = conftest._postgres_bin()
    if binaries is None:
        return None
    base = Path(tempfile.mkdtemp(prefix="adjutant-corpus-pg-"))
    if os.geteuid() == 0:
        import pwd

        account = pwd.getpwnam("postgres")
        os.chown(base, account.pw_uid, account.pw_gid)
    port = conftest._free_port()
    data = base / "data"
    quiet = {"check": True, "capture_output": True, "cwd": base}
    conftest.new_cluster(binaries, data)
    options = f"-k {base} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
    subprocess.run(conftest._as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-l", str(base / "log"), "-w", "-o", options, "start"]), **quiet)

    def stop() -> None:
        subprocess.run(conftest._as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                       capture_output=True, cwd=base)
        shutil.rmtree(base, ignore_errors=True)

    return f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", stop


if __name__ == "__main__":
    sys.exit(main())

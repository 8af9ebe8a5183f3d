"""An export whose long tables are written by two processes (models.export_split) is the one
process's export byte for byte, refuses a damaged row on either side with the one process's
sentence, and leaves no file and no process behind, whatever ends it.

Each export here runs as `adjutant export` in a process of its own (a fork inside pytest would
copy pytest), in a session of its own so that every process it starts can be counted, with
the split lowered to a played campaign's size. SCRIPT can order who takes the pieces first:
`helper` (the helper takes every piece before this process looks), `parent` (the helper starts
once this process has taken the first piece) or `slow` (both sides pause between pieces, the helper longer, and this process waits, once
the helper is at work, for the signal the test sends: on a loaded machine the test could look
only after the export had ended, and signal a process that had exited 0)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_hostile_files import played, run

ROOT = Path(__file__).resolve().parents[2]
EVENTS = 600

SCRIPT = r"""
import os, signal, sys, time
# Ctrl-C as in a terminal's foreground job, whatever the test's worker passed on (an ignored or
# blocked SIGINT survives the exec; the Ctrl-C case failed twice in whole-suite runs, never alone).
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
import models.export_split as split

split.SPLIT_ROWS, split.CHUNK_KEYS, split.PIECES = 1, int(os.environ["CHUNK_KEYS"]), 10**9
order, report = os.environ["ORDER"], os.environ["REPORT"]
claims = split.Claims


def counters(self):
    import struct
    return struct.unpack_from("qq", self.memory, 0)


def helper_ended():
    with open(f"/proc/self/task/{os.getpid()}/children") as children:
        helpers = children.read().split()
    for helper in helpers:
        with open(f"/proc/{helper}/stat") as stat:
            if stat.read().rpartition(")")[2].split()[0] != "Z":
                return False
    return True


class Ordered(claims):
    def first(self):
        if order == "helper":
            while counters(self)[0] < counters(self)[1] and not helper_ended():  # the helper takes all it can
                time.sleep(0.001)
        if order == "slow":
            time.sleep(0.02)
            if os.path.exists(report + ".helper"):  # the helper is at work: this process waits for the
                time.sleep(60)                         # test's signal, so the export cannot end before it
        return super().first()

    def last(self, *args):
        if order == "parent":
            while counters(self)[0] == 0:  # until this process has taken the first piece
                time.sleep(0.001)
        if order == "slow":
            open(report + ".helper", "w").close()
            time.sleep(0.2)  # the helper's work outlasts the wait for it to end (`assert_nothing_left`)
        return super().last(*args)


split.Claims = Ordered
reports = split.Helper._reports


def counted(self):
    written = reports(self)
    with open(report, "w") as file:
        file.write(str(len(written)))
    return written


split.Helper._reports = counted

if os.environ.get("IMPORTS"):  # the modules the helper imports itself, written down as it ends
    helps = split._help

    def recorded(*args):
        before = set(sys.modules)
        try:
            helps(*args)
        finally:
            with open(os.environ["IMPORTS"], "w") as file:
                file.write("\n".join(sorted(set(sys.modules) - before)))

    split._help = recorded
from tui.cli import main

sys.exit(main(["export", sys.argv[1]]))
"""


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A played campaign with EVENTS events (its own, copied), so that its pieces hold several batches."""
    path = played(tmp_path_factory.mktemp("split") / "real.campaign")
    db = sqlite3.connect(path, isolation_level=None)
    columns = ", ".join(f'"{row[1]}"' for row in db.execute("PRAGMA table_info(event)") if row[1] != "id")
    count = db.execute("SELECT count(*) FROM event").fetchone()[0]
    for _ in range(EVENTS // count):
        db.execute(f"INSERT INTO event ({columns}) SELECT {columns} FROM event ORDER BY id LIMIT {count}")
    db.close()
    return path


def copy(real: Path, folder: Path) -> Path:
    path = folder / "copy.campaign"
    path.write_bytes(real.read_bytes())
    return path


def start(
    path: Path, folder: Path, order: str = "", chunk: int = 37, stdout: Any = subprocess.PIPE, imports: str = ""
) -> subprocess.Popen[bytes]:
    spool = folder / "spool"
    spool.mkdir(exist_ok=True)
    env = {
        **os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(spool), "CHUNK_KEYS": str(chunk), "ORDER": order,
        "REPORT": str(folder / "helper-pieces"), "IMPORTS": imports,
        "ADJUTANT_CONFIG_DIR": str(folder / "config"), "ADJUTANT_LOG_DIR": str(folder / "log"),
    }
    env.pop("ADJUTANT_DATABASE_URL", None)
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(path)], env=env, cwd=ROOT, start_new_session=True,
        stdout=stdout, stderr=subprocess.PIPE,
    )


def split_export(
    path: Path, folder: Path, order: str = "", chunk: int = 37, imports: str = ""
) -> tuple[int, bytes, str]:
    process = start(path, folder, order, chunk, imports=imports)
    out, err = process.communicate(timeout=120)
    assert_nothing_left(process, folder)
    return process.returncode, out, err.decode()


def running_in_group(group: int) -> list[int]:
    """The processes of a process group that still run: a zombie has ended (one whose
    parent died is reaped by whoever adopted it: init, or a test worker that is a
    subreaper, as tests/cpu_report.py makes it, which reaps only its own servers)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        state, group_of = fields[0], int(fields[2])
        if group_of == group and state not in ("Z", "X"):
            found.append(int(stat.parent.name))
    return found


def assert_nothing_left(process: subprocess.Popen[bytes], folder: Path) -> None:
    """No process of the export's session still running, no spool file left."""
    deadline = time.monotonic() + 10
    while running_in_group(process.pid):
        assert time.monotonic() < deadline, "a process of the export is still running"
        time.sleep(0.02)
    assert list((folder / "spool").iterdir()) == []


def helper_pieces(folder: Path) -> int:
    return int((folder / "helper-pieces").read_text())


def damaged(real: Path, folder: Path, event: int) -> Path:
    path = copy(real, folder)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("UPDATE event SET changes = '{\"unit\": ' WHERE id = ?", (event,))
    db.close()
    return path


def test_two_processes_write_the_bytes_one_writes(real: Path, tmp_path: Path) -> None:
    one = run("export", str(real))
    assert one[0] == 0
    pieces = {}
    for order, chunk in [("", 37), ("helper", 37), ("parent", 37), ("parent", 1)]:
        code, out, err = split_export(real, tmp_path, order, chunk)
        assert (code, err) == (0, "")
        assert out == one[1], (order, chunk)
        if order:  # unordered, the helper may start after this process has taken every piece
            pieces[order, chunk] = helper_pieces(tmp_path)
    # The helper wrote some of it; first, every piece; second, all but those this process took.
    assert 0 < pieces["parent", 37] < pieces["helper", 37]
    assert pieces["parent", 1] > 0


def test_the_pieces_are_the_long_tables_in_key_order_and_the_other_long_tables_whole(
    real: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table not split by its key (text keys: the units) that is long still goes to two processes,
    whole; the last of them is the helper's first piece, not this process's last work alone."""
    from models import export_split as split
    from models.engine import read_only_engine
    from models.exchange import tables

    monkeypatch.setattr(split, "SPLIT_ROWS", 1)
    monkeypatch.setattr(split, "CHUNK_KEYS", 37)
    engine = read_only_engine(real, immutable=True)
    try:
        with engine.connect() as connection:
            pieces = split.pieces(connection, tables())
            counts = {table: connection.exec_driver_sql(f'SELECT count(*) FROM "{table}"').scalar_one() for table in ("unit", "general", "nation")}
    finally:
        engine.dispose()
    whole = [piece.table.name for piece in pieces if piece.key is None]
    assert counts["unit"] >= 37 and "unit" in whole and pieces[-1].table.name == "unit" and pieces[-1].keys is not None
    assert ("general" in whole) == (counts["general"] >= 37) and "nation" not in whole  # too short to be worth a piece
    events = [(piece.low, piece.high) for piece in pieces if piece.table.name == "event"]
    assert len(events) > 2 and events[0][0] is None and events[-1][1] is None
    assert all(low == high for (_, low), (high, _) in zip(events, events[1:]))


def test_the_ends_of_a_long_tables_keys_are_read_without_a_scan(real: Path) -> None:
    """min() and max() of a key in one query make SQLite scan the whole index (a tenth of a second
    at a million events, before the helper can start); each alone reads one end of it."""
    from models import export_split as split
    from models.engine import read_only_engine
    from models.exchange import tables

    event = next(table for table in tables() if table.name == "event")
    engine = read_only_engine(real, immutable=True)
    steps = 0

    def step() -> int:
        nonlocal steps
        steps += 1
        return 0

    try:
        with engine.connect() as connection:
            rows = connection.exec_driver_sql("SELECT count(*) FROM event").scalar_one()
            driver: Any = connection.connection.driver_connection
            driver.set_progress_handler(step, 1)
            list(split._chunks(connection, event))
            driver.set_progress_handler(None, 1)
    finally:
        engine.dispose()
    assert rows >= EVENTS and steps < 100, (rows, steps)


@pytest.mark.parametrize(
    ("order", "event"),
    [("parent", 1), ("helper", EVENTS // 2), ("helper", EVENTS)],
    ids=["in this process's first piece", "in the helper's, half-way", "in the helper's first piece, the last"],
)
def test_a_damaged_row_on_either_side_is_refused_with_one_process_sentence(
    real: Path, tmp_path: Path, order: str, event: int
) -> None:
    path = damaged(real, tmp_path, event)
    one_code, one_out, one_err = run("export", str(path))
    assert one_code == 2 and one_out == b"" and f"row {event} of table 'event'" in one_err
    code, out, err = split_export(path, tmp_path, order)
    assert (code, out, err) == (2, b"", one_err)


@pytest.mark.parametrize("order", ["helper", "parent"])
def test_a_damaged_row_of_a_table_written_whole_is_refused_with_one_process_sentence(
    real: Path, tmp_path: Path, order: str
) -> None:
    path = copy(real, tmp_path)
    db = sqlite3.connect(path, isolation_level=None)
    unit = db.execute("SELECT count(*) FROM unit").fetchone()[0] - 1
    db.execute("UPDATE unit SET strength_points = -5 WHERE id = (SELECT id FROM unit ORDER BY id LIMIT 1 OFFSET ?)", (unit - 1,))
    db.close()
    one_code, one_out, one_err = run("export", str(path))
    assert one_code == 2 and one_out == b"" and f"row {unit} of table 'unit'" in one_err
    code, out, err = split_export(path, tmp_path, order)
    assert (code, out, err) == (2, b"", one_err)


def test_the_helper_imports_nothing_to_judge_rows_again(real: Path, tmp_path: Path) -> None:
    """The rows' judges (models.export_quick, pydantic beneath it) are imported before the fork,
    once, not again by the helper (some 0.1 to 0.3 CPU-s of each export of a long history)."""
    imports = tmp_path / "imports"
    code, _out, err = split_export(real, tmp_path, "helper", imports=str(imports))
    assert (code, err) == (0, "") and helper_pieces(tmp_path) > 0
    imported = imports.read_text().split()
    assert [name for name in imported if name.startswith(("models.", "pydantic", "sqlalchemy"))] == [], imported


@pytest.mark.parametrize("ending", ["SIGTERM to the exporter", "Ctrl-C"])
def test_an_export_killed_half_way_leaves_no_helper_and_no_spool(real: Path, tmp_path: Path, ending: str) -> None:
    with (tmp_path / "out.json").open("wb") as out:
        process = start(real, tmp_path, "slow", 5, stdout=out)
        deadline = time.monotonic() + 60
        while not (tmp_path / "helper-pieces.helper").exists():  # the helper is at work
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        with open(f"/proc/{process.pid}/status") as status:  # said if it fails
            signals = [line.strip() for line in status if line.startswith(("SigBlk", "SigIgn", "SigCgt"))]
        if ending == "Ctrl-C":
            os.killpg(process.pid, signal.SIGINT)  # the terminal's Ctrl-C reaches the whole group
        else:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            raise AssertionError(f"the export went on after the signal: {signals}") from None
    assert process.returncode in (-signal.SIGTERM, 130), signals
    assert_nothing_left(process, tmp_path)


def test_an_export_read_part_way_through_a_pipe_leaves_nothing(real: Path, tmp_path: Path) -> None:
    process = start(real, tmp_path, "parent", 5)
    assert process.stdout is not None
    assert process.stdout.read(100).startswith(b'{\n  "format"')
    process.stdout.close()
    assert process.wait(60) == 0
    assert_nothing_left(process, tmp_path)

"""An export whose long tables are written by two processes (models.export_split) is the one
process's export byte for byte, refuses a damaged row on either side with the one process's
sentence, and leaves no file and no process behind, whatever ends it.

Each export here runs as `adjutant export` in a process of its own (a fork inside pytest would
copy pytest), in a session of its own so that every process it starts can be counted, with
the split lowered to a played campaign's size. SCRIPT can order who takes the pieces:
`helper` (this process takes none while the helper runs: the helper writes every piece, each
handed over in turn), `parent` (the helper starts once this process has taken the first piece),
`alternate` (the helper the even pieces, this process the odd ones, each read ahead while the
other's is written) or `slow` (both sides pause between pieces, the helper longer, and this process waits, once
the helper is at work, for the signal the test sends: on a loaded machine the test could look
only after the export had ended, and signal a process that had exited 0).

The exports that are judged by their bytes and sentences start from a ZYGOTE: one Python
process per module that has imported what an export imports, and forks each export, which
then takes its standard streams, environment, folder and session as `python -c SCRIPT FILE`
would and runs SCRIPT to the interpreter's own exit. Each export is still a process of its own
in a session of its own, its helper forked from it; only Python's start and the imports (about
half an export's CPU, some 50 exports) are paid once. The exports that are signalled, read part
way or whose imports are counted start as a process of their own."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from models import export_split as split
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
split.AHEAD_BYTES = int(os.environ.get("AHEAD_BYTES") or split.AHEAD_BYTES)
order, report = os.environ["ORDER"], os.environ["REPORT"]
exporter = os.getpid()
claims = split.Claims


def helper_ended():
    with open(f"/proc/{exporter}/task/{exporter}/children") as children:
        helpers = children.read().split()
    for helper in helpers:
        with open(f"/proc/{helper}/stat") as stat:
            if stat.read().rpartition(")")[2].split()[0] != "Z":
                return False
    return True


class Ordered(claims):
    def take(self, parent=None, helper=None):
        here = os.getpid() == exporter
        if order == "helper" and here and not helper_ended():
            return None  # this process takes nothing while the helper runs: it writes every piece
        if order == "parent" and not here:
            while self.taken() == 0:  # until this process has taken the first piece
                time.sleep(0.001)
        if order == "alternate":  # the helper takes the even pieces, this process the odd ones
            while self.taken() % 2 != (1 if here else 0) and self.taken() < self.count:
                if here and helper_ended():
                    break
                time.sleep(0.001)
        if order == "slow":
            if here:
                time.sleep(0.02)
                if os.path.exists(report + ".helper"):  # the helper is at work: this process waits for the
                    time.sleep(60)                         # test's signal, so the export cannot end before it
            else:
                open(report + ".helper", "w").close()
                time.sleep(0.2)  # the helper's work outlasts the wait for it to end (`assert_nothing_left`)
        return super().take(parent, helper)


split.Claims = Ordered
closes = split.Helper.close


def counted(self, *args, **kwargs):
    if self.go >= 0:  # not closed yet
        with open(report, "w") as file:
            file.write(str(self.helped))
    closes(self, *args, **kwargs)


split.Helper.close = counted

if os.environ.get("DIE_AT"):  # the helper killed half-way through writing a piece of its own
    writes, calls = split._all_written, [0]

    def dying(out, parts):
        calls[0] += 1
        if calls[0] == int(os.environ["DIE_AT"]):
            half = b"".join(parts)
            os.write(out, half[: len(half) // 2])
            os.kill(os.getpid(), signal.SIGKILL)
        writes(out, parts)

    split._all_written = dying

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


ZYGOTE = r"""
import io, json, os, socket, sys, tempfile
# What an export imports (tui.cli runs it through campaigns.cli), once for every export forked below.
import models.export_split, tui.cli, campaigns.cli, campaigns.output, campaigns.logfile, models.exchange, models.export_quick
script = compile(sys.argv[1], "<string>", "exec")
# What is here now outlives every export: frozen, the garbage collector of an export (and its exit)
# leaves it alone, rather than touching, and so copying, every page of it (0.24 CPU-s an export, 0.13 so).
import gc
gc.collect()
gc.freeze()
channel = socket.socket(fileno=int(sys.argv[2]))
while True:
    message, fds, _, _ = socket.recv_fds(channel, 1 << 20, 3)
    if not message:
        sys.exit(0)
    pid = os.fork()
    if pid == 0:
        break
    for fd in fds:
        os.close(fd)
    channel.send(json.dumps(pid).encode())
    channel.send(json.dumps(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])).encode())

# The export, as `python -c SCRIPT FILE` started in a session of its own with these streams,
# environment and folder would be: its standard streams made anew as Python makes them at its start.
channel.close()
os.setsid()
request = json.loads(message)
for target, fd in enumerate(fds):
    os.dup2(fd, target)
    os.close(fd)
os.environ.clear()
os.environ.update(request["env"])
tempfile.tempdir = None  # TMPDIR read again: the export's spool
os.chdir(request["cwd"])


def reopened(old, fd, mode):
    unbuffered = old.write_through
    binary = io.open(fd, mode + "b", buffering=0 if unbuffered and mode == "w" else -1, closefd=False)
    line = mode == "w" and not unbuffered and (binary.isatty() or fd == 2)
    return io.TextIOWrapper(
        binary, encoding=old.encoding, errors=old.errors, newline="\n", line_buffering=line, write_through=unbuffered and mode == "w",
    )


sys.stdin = sys.__stdin__ = reopened(sys.stdin, 0, "r")
sys.stdout = sys.__stdout__ = reopened(sys.stdout, 1, "w")
sys.stderr = sys.__stderr__ = reopened(sys.stderr, 2, "w")
sys.argv = ["-c", *request["argv"]]
del io, json, os, socket, sys, tempfile
exec(script, {"__name__": "__main__", "__builtins__": __builtins__})
"""


class Zygote:
    """The process that forks the exports (ZYGOTE), and the exports' codes it reports."""

    def __init__(self, folder: Path) -> None:
        import socket

        self.channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "ADJUTANT_CONFIG_DIR": str(folder / "config"), "ADJUTANT_LOG_DIR": str(folder / "log")}
        env.pop("ADJUTANT_DATABASE_URL", None)
        self.process = subprocess.Popen(
            [sys.executable, "-c", ZYGOTE, SCRIPT, str(theirs.fileno())], env=env, cwd=ROOT, pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        )
        theirs.close()
        self.channel.settimeout(120)

    def export(self, env: dict[str, str], argv: list[str], stdout: int | None) -> tuple[int, int, bytes, str]:
        """An export forked with `env` and `argv`, writing into `stdout` (None: a pipe read here):
        its process id, its code, what it wrote into the pipe and what it said."""
        import json
        import selectors
        import socket

        err_read, err_write = os.pipe()
        out_read, out_write = os.pipe() if stdout is None else (None, os.dup(stdout))
        stdin = os.open(os.devnull, os.O_RDONLY)
        try:
            socket.send_fds(self.channel, [json.dumps({"env": env, "argv": argv, "cwd": str(ROOT)}).encode()], [stdin, out_write, err_write])
        finally:
            for fd in (stdin, out_write, err_write):
                os.close(fd)
        said = {err_read: bytearray(), **({out_read: bytearray()} if out_read is not None else {})}
        pid = json.loads(self.channel.recv(64))
        try:
            with selectors.DefaultSelector() as selector:
                for fd in said:
                    selector.register(fd, selectors.EVENT_READ)
                deadline = time.monotonic() + 120
                while selector.get_map():
                    ready = selector.select(max(0.0, deadline - time.monotonic()))
                    assert ready, "the export went on past 120 s"
                    for key, _ in ready:
                        chunk = os.read(key.fd, 1 << 16)
                        if chunk:
                            said[key.fd] += chunk
                        else:
                            selector.unregister(key.fd)
        except BaseException:  # the export's session killed, and its code read, so the next export reads its own
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            self.channel.recv(64)
            raise
        finally:
            for fd in said:
                os.close(fd)
        code = json.loads(self.channel.recv(64))
        return pid, code, bytes(said[out_read]) if out_read is not None else b"", said[err_read].decode()

    def close(self) -> None:
        self.channel.send(b"")
        self.channel.close()
        try:
            assert self.process.wait(60) == 0
        finally:
            self.process.kill()  # nothing if it has ended


@pytest.fixture(scope="module")
def zygote(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Zygote]:
    forks = Zygote(tmp_path_factory.mktemp("zygote"))
    yield forks
    forks.close()


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


@pytest.fixture(scope="module")
def one(real: Path) -> bytes:
    """What the export run in one process (this one) writes of the played campaign: what every split export must write."""
    code, out, err = run("export", str(real))
    assert (code, err) == (0, "")
    return out


def copy(real: Path, folder: Path) -> Path:
    path = folder / "copy.campaign"
    path.write_bytes(real.read_bytes())
    return path


def environment(folder: Path, order: str, chunk: int, imports: str, **more: str) -> dict[str, str]:
    spool = folder / "spool"
    spool.mkdir(exist_ok=True)
    env = {
        **os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(spool), "CHUNK_KEYS": str(chunk), "ORDER": order,
        "REPORT": str(folder / "helper-pieces"), "IMPORTS": imports,
        "ADJUTANT_CONFIG_DIR": str(folder / "config"), "ADJUTANT_LOG_DIR": str(folder / "log"), **more,
    }
    env.pop("ADJUTANT_DATABASE_URL", None)
    return env


def start(
    path: Path, folder: Path, order: str = "", chunk: int = 37, stdout: Any = subprocess.PIPE, imports: str = "",
    **more: str,
) -> subprocess.Popen[bytes]:
    """The export as a process of its own (`python -c SCRIPT FILE`), in a session of its own."""
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(path)], env=environment(folder, order, chunk, imports, **more), cwd=ROOT,
        start_new_session=True, stdout=stdout, stderr=subprocess.PIPE,
    )


def split_export(
    path: Path, folder: Path, order: str = "", chunk: int = 37, imports: str = "", into: str = "pipe",
    zygote: Zygote | None = None, **more: str,
) -> tuple[int, bytes, str]:
    """The export's code, what it printed and said; `into`: its standard output, a pipe (the export
    spools it: a file of its own), a regular file (written in place) or a file opened to append to
    (after what it holds, which is left as it was), or the null device (nothing comes back).
    Forked by `zygote` when given, else a process of its own."""
    target = folder / "out.json" if into != "null" else Path(os.devnull)
    before = b"what the file held\n" if into == "append" else b""
    if into not in ("pipe", "null"):
        target.write_bytes(before)
    with contextlib.ExitStack() as stack:
        stdout = None if into == "pipe" else stack.enter_context(target.open("ab" if into == "append" else "wb"))
        if zygote is not None:
            env = environment(folder, order, chunk, imports, **more)
            pid, code, out, err = zygote.export(env, [str(path)], None if stdout is None else stdout.fileno())
        else:
            process = start(path, folder, order, chunk, stdout=subprocess.PIPE if stdout is None else stdout, imports=imports, **more)
            out, err_bytes = process.communicate(timeout=120)
            pid, code, err = process.pid, process.returncode, err_bytes.decode()
    assert_nothing_left(pid, folder)
    if into == "pipe":
        return code, out, err
    written = target.read_bytes() if into != "null" else b""
    assert written.startswith(before)
    return code, written[len(before) :], err


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


def assert_nothing_left(process: subprocess.Popen[bytes] | int, folder: Path) -> None:
    """No process of the export's session still running, no spool file left."""
    group = process if isinstance(process, int) else process.pid
    deadline = time.monotonic() + 10
    while running_in_group(group):
        assert time.monotonic() < deadline, "a process of the export is still running"
        time.sleep(0.02)
    assert list((folder / "spool").iterdir()) == []


def helper_pieces(folder: Path) -> int:
    return int((folder / "helper-pieces").read_text())


def damaged(real: Path, folder: Path, *events: int) -> Path:
    path = copy(real, folder)
    db = sqlite3.connect(path, isolation_level=None)
    for event in events:
        db.execute("UPDATE event SET changes = '{\"unit\": ' WHERE id = ?", (event,))
    db.close()
    return path


@pytest.mark.parametrize("into", ["pipe", "file", "append", "null"])
def test_two_processes_write_the_bytes_one_writes(real: Path, one: bytes, zygote: Zygote, tmp_path: Path, into: str) -> None:
    pieces = {}
    for order, chunk in [("", 37), ("helper", 37), ("parent", 37), ("alternate", 37), ("alternate", 1), ("", 5)]:
        code, out, err = split_export(real, tmp_path, order, chunk, into=into, zygote=zygote)
        assert (code, err) == (0, "")
        assert out == (one if into != "null" else b""), (order, chunk)
        pieces[order, chunk] = helper_pieces(tmp_path)
    # The helper wrote some of it: every piece, or every other one.
    assert pieces["helper", 37] > 1 and pieces["alternate", 37] > 1 and pieces["alternate", 1] > pieces["alternate", 37]
    assert pieces["parent", 37] > 0


@pytest.mark.parametrize("seed", range(6))
def test_the_pieces_read_ahead_and_handed_over_make_the_bytes_one_process_writes(
    real: Path, one: bytes, zygote: Zygote, tmp_path: Path, seed: int
) -> None:
    """Generated: pieces of any size, read ahead into little or much memory, taken in any order,
    into any output; always the one process's bytes."""
    import random

    drawn = random.Random(seed)
    order = drawn.choice(["", "helper", "parent", "alternate"])
    chunk = drawn.choice([1, 2, 3, 7, 37, 100, 250, 1000])
    ahead = drawn.choice([1, 100, 5000, 1 << 20])
    into = drawn.choice(["pipe", "file", "append"])
    code, out, err = split_export(real, tmp_path, order, chunk, into=into, zygote=zygote, AHEAD_BYTES=str(ahead))
    assert (code, err) == (0, "") and out == one, (order, chunk, ahead, into)


@pytest.mark.parametrize("into", ["pipe", "file", "append"])
@pytest.mark.parametrize("write", [1, 3])
def test_a_helper_killed_half_way_through_a_piece_leaves_it_to_this_process(
    real: Path, one: bytes, zygote: Zygote, tmp_path: Path, into: str, write: int
) -> None:
    """What the helper wrote of its piece is cut off, and this process writes the piece and the rest."""
    code, out, err = split_export(real, tmp_path, "helper", 37, into=into, zygote=zygote, DIE_AT=str(write))
    assert (code, err) == (0, "") and out == one
    assert helper_pieces(tmp_path) == write - 1


def test_the_helper_writes_only_into_a_file_descriptor_it_shares(tmp_path: Path) -> None:
    """A regular file or the null device, through a file's `write`; anything else is one process's."""
    import io

    from models.export_split import output_descriptor

    with (tmp_path / "out").open("wb") as regular, open(os.devnull, "wb") as null, open(os.devnull, "wb", buffering=0) as raw:
        assert output_descriptor(regular.write) == regular.fileno()
        assert output_descriptor(null.write) == null.fileno()
        assert output_descriptor(raw.write) == raw.fileno()  # standard output under PYTHONUNBUFFERED
        assert output_descriptor(regular.flush) is None
    reading, writing = os.pipe()
    with os.fdopen(writing, "wb") as pipe:
        assert output_descriptor(pipe.write) is None
    os.close(reading)
    assert output_descriptor(io.BytesIO().write) is None
    assert output_descriptor([].append) is None


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


@pytest.mark.parametrize("into", ["pipe", "file", "append"])
@pytest.mark.parametrize(
    ("order", "events"),
    [("parent", [1]), ("helper", [EVENTS // 2]), ("helper", [EVENTS]), ("alternate", [2 * 37 + 5, 3 * 37 + 5]),
     ("alternate", [3 * 37 + 5, 4 * 37 + 5])],
    ids=["in this process's first piece", "in the helper's, half-way", "in the helper's, the last",
         "the helper's before one read ahead here", "read ahead here before the helper's"],
)
def test_a_damaged_row_on_either_side_is_refused_with_one_process_sentence(
    real: Path, zygote: Zygote, tmp_path: Path, order: str, events: list[int], into: str
) -> None:
    path = damaged(real, tmp_path, *events)
    one_code, one_out, one_err = run("export", str(path))
    assert one_code == 2 and one_out == b"" and f"row {events[0]} of table 'event'" in one_err
    code, out, err = split_export(path, tmp_path, order, into=into, zygote=zygote)
    assert (code, out, err) == (2, b"", one_err)


@pytest.mark.parametrize("order", ["helper", "parent", "alternate"])
def test_a_damaged_row_of_a_table_written_whole_is_refused_with_one_process_sentence(
    real: Path, zygote: Zygote, tmp_path: Path, order: str
) -> None:
    path = copy(real, tmp_path)
    db = sqlite3.connect(path, isolation_level=None)
    unit = db.execute("SELECT count(*) FROM unit").fetchone()[0] - 1
    db.execute("UPDATE unit SET strength_points = -5 WHERE id = (SELECT id FROM unit ORDER BY id LIMIT 1 OFFSET ?)", (unit - 1,))
    db.close()
    one_code, one_out, one_err = run("export", str(path))
    assert one_code == 2 and one_out == b"" and f"row {unit} of table 'unit'" in one_err
    code, out, err = split_export(path, tmp_path, order, zygote=zygote)
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


def test_a_helper_killed_holding_the_token_gives_it_back():
    """The helper's token (the pieces' lock) is held for a few instructions; a helper killed in them
    (SIGKILL, the OOM killer) must not leave its parent waiting for it forever."""
    claims = split.Claims(3)
    ready_read, ready_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper: takes the token and dies holding it
        os.read(claims.take_fd, 1)
        os.write(ready_write, b".")
        os.kill(os.getpid(), signal.SIGKILL)
    os.read(ready_read, 1)
    os.close(ready_read)
    os.close(ready_write)
    def waited_forever(*_: Any) -> None:
        raise AssertionError("the parent waited for a token its dead helper took with it")

    before = signal.signal(signal.SIGALRM, waited_forever)
    signal.alarm(20)
    try:
        assert claims.take(helper=pid) == 0  # the token given back once the helper is seen dead
        assert claims.take(helper=pid) == 1  # and it is in the pipe again
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
        assert os.waitpid(pid, 0)[0] == pid  # left for its reaper
        claims.close()

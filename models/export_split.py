"""The export's longest tables read, checked and written by two processes at once.

At a million events an export is one processor's work from start to end (reading,
judging and encoding rows is Python, holding the GIL), and the machine has two. So the
rows of each table whose keys span SPLIT_ROWS or more are cut into pieces of CHUNK_KEYS
keys, in key order across those tables (a roll's pieces, then an event's), and every other
table of CHUNK_KEYS rows or more is then a piece of its own, whole, in its turn (the units).
A helper process, forked before any row is read, and this process each take the first piece
nobody has taken, again and again, under a lock both share, so the work divides itself
whatever else the machine runs (the integrity check's thread beside the rows,
models.export_checks, or another program).

Each piece is written by the process that took it, straight into the output, in turn: this
process writes the export as always, in order, and when it comes to a piece the helper took,
it hands the output over (a message on a pipe: "piece n, after rows or not") and waits for
the helper's word that it is written. Meanwhile each side reads and judges the piece it took
into memory (at most AHEAD_BYTES of text, then it waits), and writes it as soon as its turn
comes, the rest of it as it is read. So no byte is written twice: the helper's part used to go
into a spool file that this process copied at the end (some 450 MB at a million events, a
third of a second of the kernel's time and most of a second at the end under load).

The two share the output as a fork shares a descriptor: one open file, one offset, each
writing in its turn (this process empties its own buffer before it hands over). So it is done
only where the output is a file descriptor that can take it: a regular file, or the null
device (campaigns.output: standard output, or the export's spool for a pipe or a terminal,
which is a file). Anything else (a test's BytesIO, `dumps`) is written by one process.

The text is the same bytes as one process's: each piece is the same batches judged and
encoded by the same code (models.exchange), and a batch's text does not depend on where
a batch starts. And nothing else changes:
- a piece the helper could not write (a damaged row, a read that failed, a write that failed)
  is written again here, in its turn, so the refusal is this process's own: the same sentence,
  with the row number counted from the table's first row, and only once every row before it
  was written; whatever the helper had written of it is cut off first (a regular file; the null
  device keeps nothing); a piece this process read ahead and could not is read again in its
  turn, for the same reason;
- the helper reads the file on a connection of its own, opened while this process holds
  its read transaction (rollback-journal mode: no writer can commit meanwhile), and takes
  no lock of its own (`immutable`);
- a helper that ends without a word (killed, out of memory, anything unforeseen) leaves the
  pieces it had not written to this process, which cuts off what it wrote of the last;
- it ends with this process: killed and reaped here whatever ends the export (refusal,
  Ctrl-C, a closed pipe), before campaigns.output cuts a refused export's file back, and it
  stops at its next batch once its parent is gone (a SIGTERM, which runs no clean-up).
"""

from __future__ import annotations

import gc
import io
import mmap
import os
import signal
import stat
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from select import select as readable
from typing import Any

from sqlalchemy import ColumnElement, Connection, Integer, Table, and_, exc, func, select, true

# A table whose keys span this many rows is split: below it, the fork costs more than it saves
# (the 10k-event file is exported by one process).
SPLIT_ROWS = 50_000
# A table's pieces: a piece is read into memory by the side whose turn has not come (some 4 MB of
# text at a million events), and is a query of its own (a millisecond).
PIECES = 200
CHUNK_KEYS = 2_000  # keys in a piece at the least
# Text a side holds of the piece it reads before its turn: past it, it waits for its turn (a long
# whole table, rows of long values).
AHEAD_BYTES = 6 << 20
ENDING_SECONDS = 5  # a helper with nothing left to do ends by itself within this, else it is killed
Out = Callable[[bytes | memoryview], Any]
MESSAGE = struct.Struct("qq")  # a piece's number, and a word about it (pipes write 16 bytes at once)
WROTE_ROWS, WROTE_NONE, FAILED = 1, 0, -1


@contextmanager
def helping(connection: Connection, exported: list[Table], name: str, out: Out) -> Iterator[Helper | None]:
    """A helper for the export of `exported` into `out` (`Helper.started`), ended and reaped on leaving."""
    helper = Helper.started(connection, exported, name, out)
    try:
        yield helper
    except BaseException:
        if helper is not None:
            helper.close()
        raise
    if helper is not None:
        helper.close(ended=True)


@dataclass(frozen=True)
class Chunk:
    """The rows of `table` whose key is in [low, high); None: no bound that side (a whole
    table has no key: `_whole`)."""

    table: Table
    key: Any
    low: int | None
    high: int | None

    @property
    def keys(self) -> ColumnElement[bool]:
        bounds = [] if self.low is None else [self.key >= self.low]
        bounds += [] if self.high is None else [self.key < self.high]
        return and_(true(), *bounds)

    @property
    def rows(self) -> tuple[int | None, int | None] | None:
        """Which rows to read (models.exchange._encoded_batches): the key's bounds; None, all of them."""
        return None if self.key is None else (self.low, self.high)

    @property
    def before(self) -> ColumnElement[bool]:
        return self.key < self.low if self.low is not None else ~true()


class Claims:
    """Pieces 0..n-1, each taken once, first first: a counter in memory the fork shares, guarded by
    a one-byte token in a pipe (whoever reads it holds the lock)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.memory = mmap.mmap(-1, 8)
        struct.pack_into("q", self.memory, 0, 0)
        self.take_fd, self.give = os.pipe()
        os.set_blocking(self.take_fd, False)  # the helper looks in on its parent while it waits
        os.write(self.give, b".")

    def taken(self) -> int:
        """How many pieces have been taken (only ever grows)."""
        return int(struct.unpack_from("q", self.memory, 0)[0])

    def take(self, parent: int | None = None, helper: int | None = None) -> int | None:
        """The first piece nobody has taken; `parent`: the helper's parent, whose death ends it;
        `helper`: the parent's helper, whose death holding the token gives it back."""
        while True:
            try:
                os.read(self.take_fd, 1)
                break
            except BlockingIOError:
                pass
            if readable([self.take_fd], [], [], 1.0)[0]:
                continue
            if parent is not None and os.getppid() != parent:
                os._exit(1)  # the helper, whose parent died holding the token
            if helper is not None and _ended(helper):
                break  # the helper died holding the token (killed in its few instructions): it is this process's
        try:
            first = self.taken()
            if first >= self.count:
                return None
            struct.pack_into("q", self.memory, 0, first + 1)
            return first
        finally:
            os.write(self.give, b".")

    def close(self) -> None:
        os.close(self.take_fd)
        os.close(self.give)
        self.memory.close()


def _ended(pid: int) -> bool:
    """Whether process `pid` (a child) has ended, left unreaped for whoever reaps it."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # reaped already
        return True


class Held:
    """The text of a piece read before its turn, copied into one buffer of AHEAD_BYTES made once per
    process: each batch's own bytes are then freed at once, as a batch written is. (Kept as they came,
    a hundred batches at a time, they made the allocator hand memory back to the system and fault it
    in again: some 76,000 more page faults at a million events, more than the spool cost.) Each batch
    is held after ",\n"; the first after "\n" instead when the table is empty so far (`text`)."""

    def __init__(self) -> None:
        self.buffer = bytearray(AHEAD_BYTES)
        self.used = 0
        self.alone: bytes | memoryview | None = None  # a batch longer than the buffer, held by itself

    def add(self, body: bytes | memoryview) -> bool:
        """Hold `body`; False when there is no room left for it (it is not held)."""
        end = self.used + 2 + len(body)
        if end <= len(self.buffer) and self.alone is None:
            self.buffer[self.used : self.used + 2] = b",\n"
            self.buffer[self.used + 2 : end] = body
            self.used = end
            return True
        if self.used == 0 and self.alone is None:
            self.alone = body
            return True
        return False

    def text(self, empty: bool) -> list[bytes | memoryview]:
        """What is held, as it is written after the table's rows so far (none if `empty`); then emptied."""
        parts: list[bytes | memoryview] = []
        if self.used:
            view = memoryview(self.buffer)[: self.used]
            parts += [b"\n", view[2:]] if empty else [view]
        elif self.alone is not None:
            parts += [b"\n" if empty else b",\n", self.alone]
        self.used = 0
        self.alone = None
        return parts

    @property
    def empty(self) -> bool:
        return self.used == 0 and self.alone is None


@dataclass
class Ahead:
    """A piece read before its turn: its text so far (`held`), and what is left of it (`rest`, and a
    batch read that had no room, `waiting_body`)."""

    number: int
    rest: Iterator[bytes | memoryview]
    held: Held
    waiting_body: bytes | memoryview | None = None
    complete: bool = False
    failed: bool = False

    @property
    def waiting(self) -> bool:
        """Nothing more to read before its turn."""
        return self.complete or self.failed or self.waiting_body is not None

    def read_one(self) -> None:
        from models.errors import CampaignFileError

        try:
            body = next(self.rest)
        except StopIteration:
            self.complete = True
            return
        except CampaignFileError:  # read again in its turn, after every row before it (`Helper._own`)
            self.failed = True
            self.held.text(True)
            return
        if not self.held.add(body):
            self.waiting_body = body


def output_descriptor(out: Out) -> int | None:
    """The file descriptor `out` writes through, where the helper can write its pieces into it too:
    a file's `write` (buffered: emptied before each handover; or not, as standard output is under
    PYTHONUNBUFFERED) on a regular file or the null device."""
    owner = getattr(out, "__self__", None)
    if not isinstance(owner, (io.BufferedWriter, io.BufferedRandom, io.FileIO)) or getattr(out, "__name__", "") != "write":
        return None
    try:
        descriptor = owner.fileno()
        found = os.fstat(descriptor)
        null = os.stat(os.devnull)
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(found.st_mode) or (stat.S_ISCHR(found.st_mode) and found.st_rdev == null.st_rdev):
        return descriptor
    return None


class Helper:
    """The second process of an export (see the module's text)."""

    def __init__(self, connection: Connection, name: str, path: str, chunks: list[Chunk], out: Out, descriptor: int) -> None:
        self.connection = connection
        self.name = name
        self.chunks = chunks
        self.tables = {chunk.table.name for chunk in chunks}
        self.flush: Callable[[], Any] = out.__self__.flush  # type: ignore[attr-defined]  # a file's (output_descriptor)
        self.descriptor = descriptor
        self.regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
        self.claims = Claims(len(chunks))
        self.ahead: Ahead | None = None  # the piece this process reads before its turn
        self.held: Held | None = None  # its text (made once, when first needed)
        self.alive = True  # the helper may still write pieces
        self.helped = 0  # pieces the helper wrote
        self.pid: int | None = None
        self.flush()
        go_read, go_write = os.pipe()
        reports_read, reports_write = os.pipe()
        parent = os.getpid()
        try:
            pid = self.pid = os.fork()
        except OSError:  # no memory, no process left to the user: one process writes it all
            for descriptor_ in (go_read, go_write, reports_read, reports_write):
                os.close(descriptor_)
            self.claims.close()
            raise
        if pid == 0:  # the helper: never returns
            try:
                os.close(go_write)
                os.close(reports_read)
                _help(path, name, chunks, self.claims, descriptor, go_read, reports_write, parent)
            finally:
                os._exit(0)
        os.close(go_read)
        os.close(reports_write)
        self.go = go_write
        self.reports = reports_read
        os.set_blocking(self.reports, False)

    @classmethod
    def started(cls, connection: Connection, exported: list[Table], name: str, out: Out) -> Helper | None:
        """A helper for `exported`'s long tables into `out`; None when none is long enough, when `out`
        is not a file it can write too (`output_descriptor`), or when this process cannot fork safely
        (a thread besides this one, which a fork does not copy) or at all."""
        path = _file_of(connection)
        descriptor = output_descriptor(out)
        if threading.active_count() != 1 or not hasattr(os, "fork") or path is None or descriptor is None:
            return None
        connection.exec_driver_sql("SELECT count(*) FROM sqlite_master").fetchall()  # this process's read lock first
        chunks = pieces(connection, exported)
        if not chunks:
            return None
        _prepared(chunks)
        try:
            return cls(connection, name, path, chunks, out, descriptor)
        except OSError:  # no fork, no pipe
            return None

    def splits(self, table: Table) -> bool:
        return table.name in self.tables

    def write(self, table: Table, out: Out) -> bool:
        """Write `table`'s rows, this process's pieces and the helper's, in key order; whether it has none."""
        empty = True
        for number, chunk in enumerate(self.chunks):
            if chunk.table.name == table.name:
                empty = self._piece(number, chunk, out, empty)
        return empty

    def _piece(self, number: int, chunk: Chunk, out: Out, empty: bool) -> bool:
        if self.ahead is not None and self.ahead.number == number:
            return self._own(chunk, out, empty)
        if number >= self.claims.taken():  # nobody's yet
            taken = self.claims.take(helper=self.pid)
            if taken == number:
                return self._write_here(chunk, out, empty)
            if taken is not None:  # the helper took `number` meanwhile: this one is read ahead
                self.ahead = self._reader(taken)
        if self.alive:
            written = self._handed_over(number, empty)
            if written is not None:
                return written
        return self._write_here(chunk, out, empty)  # the helper could not write it: written here, in turn

    def _reader(self, number: int) -> Ahead:
        from models.exchange import _encoded_batches, bodies

        chunk = self.chunks[number]
        if self.held is None:
            self.held = Held()
        return Ahead(number, bodies(_encoded_batches(self.connection, chunk.table, self.name, chunk.rows)), self.held)

    def _own(self, chunk: Chunk, out: Out, empty: bool) -> bool:
        """The piece this process read ahead, now in its turn: what it holds, then the rest as it is read."""
        from models.errors import CampaignFileError

        ahead = self.ahead
        assert ahead is not None
        self.ahead = None
        if ahead.failed:
            return self._write_here(chunk, out, empty)
        try:
            held = ahead.held.empty
            for part in ahead.held.text(empty):
                out(part)
            empty = empty and held
            if ahead.waiting_body is not None:
                out(b"\n" if empty else b",\n")
                out(ahead.waiting_body)
                empty = False
            for body in ahead.rest:
                out(b"\n" if empty else b",\n")
                out(body)
                empty = False
        except CampaignFileError:
            self._refused(chunk, empty)
            raise
        return empty

    def _handed_over(self, number: int, empty: bool) -> bool | None:
        """Piece `number`, the helper's, written by it: whether the table is still empty after it;
        None when the helper could not write it (what it wrote of it is cut off)."""
        self.flush()
        start = os.lseek(self.descriptor, 0, os.SEEK_CUR) if self.regular else None
        try:
            os.write(self.go, MESSAGE.pack(number, int(empty)))
        except OSError:  # BrokenPipeError: the helper has ended
            self.alive = False
            return None
        while True:
            report = self._report(block=not self._can_read_ahead())
            if report is None:
                self._read_ahead()
                continue
            if report == b"":  # the helper ended without a word
                break
            said, word = MESSAGE.unpack(report)
            if said != number or word == FAILED:
                break
            self.helped += 1
            return empty and word == WROTE_NONE
        self.alive = False
        self._end()  # whatever it was doing, it writes no more before what it wrote is cut off
        if start is not None:
            os.ftruncate(self.descriptor, start)
            os.lseek(self.descriptor, start, os.SEEK_SET)
        return None

    def _report(self, block: bool) -> bytes | None:
        """The helper's next word (b"" once it has ended); None when it has none yet and `block` is false."""
        while True:
            try:
                return os.read(self.reports, MESSAGE.size)
            except BlockingIOError:
                if not block:
                    return None
            readable([self.reports], [], [], 1.0)

    def _can_read_ahead(self) -> bool:
        if self.ahead is None:
            taken = self.claims.take(helper=self.pid)
            if taken is None:
                return False
            self.ahead = self._reader(taken)
        return not self.ahead.waiting

    def _read_ahead(self) -> None:
        assert self.ahead is not None
        self.ahead.read_one()

    def _write_here(self, chunk: Chunk, out: Out, empty: bool) -> bool:
        from models.errors import CampaignFileError
        from models.exchange import _encoded_batches, write_batches

        try:
            return write_batches(_encoded_batches(self.connection, chunk.table, self.name, chunk.rows), out, empty)
        except CampaignFileError:
            self._refused(chunk, empty)
            raise

    def _refused(self, chunk: Chunk, empty: bool) -> None:
        """Read `chunk` again, counted from the table's first row, for the sentence one process gives."""
        from models.exchange import _encoded_batches, write_batches

        first = self.connection.execute(select(func.count()).select_from(chunk.table).where(chunk.before)).scalar_one()
        write_batches(_encoded_batches(self.connection, chunk.table, self.name, chunk.rows, first), _nowhere, empty)

    def close(self, ended: bool = False) -> None:
        """End the helper (it may be half-way: the export failed) and reap it. `ended`: the export is
        written, so the helper has no piece left and is ending by itself: given a moment to do so."""
        if self.go < 0:
            return
        deadline = time.monotonic() + ENDING_SECONDS
        while ended and self.alive and self._report(block=False) is None and time.monotonic() < deadline:
            readable([self.reports], [], [], max(0.0, deadline - time.monotonic()))
        self._end()
        self.ahead = None
        os.close(self.go)
        os.close(self.reports)
        self.go = -1  # closed
        self.claims.close()

    def _end(self) -> None:
        """Kill the helper and reap it, once."""
        if self.pid is None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)  # not reaped yet, so the id is still the helper's
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        self.pid = None


def _prepared(chunks: list[Chunk]) -> None:
    """What both processes need to read the pieces, made once before the fork, not by each after it:
    the rows' judges (models.export_quick, pydantic beneath it: some 0.1 to 0.3 CPU-s of imports, which
    the helper made again) and the helper's engine."""
    from models import engine  # noqa: F401  # the helper's (`_help`)
    from models.export_quick import table_judge

    for table in {chunk.table.name: chunk.table for chunk in chunks}.values():
        table_judge(table)
        table_judge(table, depth_in_text=True)


def _nowhere(_data: bytes | memoryview) -> None:
    pass


def pieces(connection: Connection, exported: list[Table]) -> list[Chunk]:
    """The pieces of `exported` for two processes, in the export's order; none when no table is long
    enough to split by its key. The other long tables go whole, in their turn: the last of them is
    then the helper's first piece, not this process's work alone at the end while the helper has
    nothing left to do (the units, at 50,000)."""
    split = [list(_chunks(connection, table)) for table in exported]
    if not any(split):
        return []
    return [chunk for table, own in zip(exported, split, strict=True) for chunk in own or _whole(connection, table)]


def _file_of(connection: Connection) -> str | None:
    for _, schema, file in connection.exec_driver_sql("PRAGMA database_list").fetchall():
        if schema == "main":
            return str(file) or None  # "" for a database in memory
    return None


def _chunks(connection: Connection, table: Table) -> Iterator[Chunk]:
    keys = list(table.primary_key.columns)
    if len(keys) != 1 or not isinstance(keys[0].type, Integer):
        return
    key = keys[0]
    try:
        # The ends of the key's index, each read alone: SQLite reads min() and max() in one query
        # by a scan of the whole index (a tenth of a second at a million events, before the fork).
        low = connection.execute(select(func.min(key))).scalar()
        high = connection.execute(select(func.max(key))).scalar()
    except exc.DBAPIError:  # a damaged file: read as one process reads it
        return
    if type(low) is not int or type(high) is not int or high - low + 1 < SPLIT_ROWS:
        return
    size = max(CHUNK_KEYS, (high - low + 1) // PIECES)
    bounds = list(range(low + size, high + 1, size))
    for start, end in zip([None, *bounds], [*bounds, None], strict=True):
        yield Chunk(table, key, start, end)


def _whole(connection: Connection, table: Table) -> Iterator[Chunk]:
    """`table` as one piece when it has CHUNK_KEYS rows or more (counted no further)."""
    try:
        rows = connection.execute(select(func.count()).select_from(select(true()).select_from(table).limit(CHUNK_KEYS).subquery())).scalar()
    except exc.DBAPIError:  # a damaged file: read as one process reads it
        return
    if rows is not None and rows >= CHUNK_KEYS:
        yield Chunk(table, None, None, None)


def _help(path: str, name: str, chunks: list[Chunk], claims: Claims, out: int, go: int, reports: int, parent: int) -> None:
    """The helper's work: the first piece nobody has taken, again and again, read ahead until its turn
    (`_turn`), then written into `out`, and its end reported; a piece it cannot write is reported so,
    and it stops."""
    from models.engine import read_only_engine
    from models.exchange import _encoded_batches, bodies

    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends it at once, as it ends its parent
    gc.disable()  # as models.exchange.no_collection
    os.set_blocking(go, False)
    engine = read_only_engine(Path(path), immutable=True)
    with engine.connect() as connection:
        held = Held()
        while (number := claims.take(parent)) is not None:
            chunk = chunks[number]
            empty: bool | None = None  # None until its turn: then whether the table is empty so far
            try:
                for body in bodies(_encoded_batches(connection, chunk.table, name, chunk.rows)):
                    if os.getppid() != parent:  # its parent was killed: nobody will read this
                        os._exit(1)
                    if empty is None:
                        if held.add(body):
                            empty = _turn(go, number, parent, block=False)
                            if empty is not None:
                                empty = _written(out, held, empty)
                            continue
                        empty = _written(out, held, _awaited(go, number, parent))  # no room: its turn awaited
                    _all_written(out, [b"\n" if empty else b",\n", body])
                    empty = False
                if empty is None:
                    empty = _written(out, held, _awaited(go, number, parent))
            except Exception:  # noqa: BLE001 - a damaged row, a failed read or write: its parent writes it again, and says why
                os.write(reports, MESSAGE.pack(number, FAILED))
                return
            os.write(reports, MESSAGE.pack(number, WROTE_NONE if empty else WROTE_ROWS))


def _awaited(go: int, number: int, parent: int) -> bool:
    """`_turn`, waited for."""
    empty = _turn(go, number, parent, block=True)
    assert empty is not None
    return empty


def _turn(go: int, number: int, parent: int, block: bool) -> bool | None:
    """Whether the table is empty so far, once it is piece `number`'s turn; None while it is not and
    `block` is false. It ends the helper when its parent has ended."""
    while True:
        try:
            message = os.read(go, MESSAGE.size)
        except BlockingIOError:
            message = None
        if message == b"":  # its parent closed the pipe: it has ended
            os._exit(1)
        if message is not None:
            said, empty = MESSAGE.unpack(message)
            if said != number:
                raise RuntimeError(f"piece {said}'s turn came to the helper of piece {number}")
            return bool(empty)
        if not block:
            return None
        if not readable([go], [], [], 1.0)[0] and os.getppid() != parent:
            os._exit(1)


def _written(out: int, held: Held, empty: bool) -> bool:
    """What `held` holds written into `out` after the table's rows so far (none if `empty`); whether it still is."""
    nothing = held.empty
    parts = held.text(empty)
    if parts:
        _all_written(out, parts)
    return empty and nothing


def _all_written(out: int, parts: list[bytes | memoryview]) -> None:
    left = sum(map(len, parts))
    sent = os.writev(out, parts)
    while sent < left:  # a short write (a signal, a full disk on the next): the rest, as plain writes
        left -= sent
        rest = b"".join(parts)[-left:]
        sent = os.write(out, rest)
        parts = [rest]

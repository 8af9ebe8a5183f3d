"""The export's longest tables read, checked and written by two processes at once.

At a million events an export is one processor's work from start to end (reading,
judging and encoding rows is Python, holding the GIL), and the machine has two. So the
rows of each table whose keys span SPLIT_ROWS or more are cut into pieces of CHUNK_KEYS
keys, in key order across those tables (a roll's pieces, then an event's), and every other
table of CHUNK_KEYS rows or more is then a piece of its own, whole, in its turn (the units:
the last piece, so the helper's first, not this process's work alone at the end). This process
writes the export as always, taking the pieces from the first on; a helper process,
forked before any row is read, takes them from the last one back, each into a spool
file of its own. Where the two meet, this process copies the helper's pieces after its
own, in order. Each piece is taken once, under a lock both share, so the work divides
itself whatever else the machine runs (the integrity check's thread beside the rows,
models.export_checks, or another program): the helper waits for nothing, and this process
waits at most for the piece the helper is writing.

The text is the same bytes as one process's: each piece is the same batches judged and
encoded by the same code (models.exchange), and a batch's text does not depend on where
a batch starts. And nothing else changes:
- a piece the helper could not write (a damaged row, a read that failed) is written again
  here, in its turn, so the refusal is this process's own: the same sentence, with the row
  number counted from the table's first row, and only once every row before it was written;
- the helper reads the file on a connection of its own, opened while this process holds
  its read transaction (rollback-journal mode: no writer can commit meanwhile), and takes
  no lock of its own (`immutable`);
- its spool has no name (created unlinked before the fork): nothing is left behind whatever
  ends the export, and its memory is a batch's, as here;
- a helper that ends without a word (killed, out of memory, anything unforeseen) leaves the
  pieces it had not reported to this process;
- it ends with this process: killed and reaped here whatever ends the export (refusal,
  Ctrl-C, a closed pipe), and it stops at its next batch once its parent is gone (a SIGTERM,
  which runs no clean-up).
"""

from __future__ import annotations

import gc
import io
import mmap
import os
import signal
import struct
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from select import select as readable
from typing import IO, Any

import orjson
from sqlalchemy import ColumnElement, Connection, Integer, Table, and_, exc, func, select, true

# A table whose keys span this many rows is split: below it, the fork and the spool cost more
# than they save (the 10k-event file is exported by one process).
SPLIT_ROWS = 50_000
# A table's pieces: a piece is at most this process's wait for the helper where they meet (some
# 0.2 s at a million events), and a query of its own (a millisecond).
PIECES = 50
CHUNK_KEYS = 2_000  # keys in a piece at the least
COPY_BYTES = 1 << 20
Out = Callable[[bytes | memoryview], Any]


@contextmanager
def helping(connection: Connection, exported: list[Table], name: str) -> Iterator[Helper | None]:
    """A helper for the export of `exported` (`Helper.started`), ended and reaped on leaving."""
    helper = Helper.started(connection, exported, name)
    try:
        yield helper
    finally:
        if helper is not None:
            helper.close()


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
    def before(self) -> ColumnElement[bool]:
        return self.key < self.low if self.low is not None else ~true()


class Claims:
    """Pieces 0..n-1 taken from both ends, each once: a counter pair in memory the fork shares,
    guarded by a one-byte token in a pipe (whoever reads it holds the lock)."""

    def __init__(self, count: int) -> None:
        self.memory = mmap.mmap(-1, 16)
        struct.pack_into("qq", self.memory, 0, 0, count)
        self.take, self.give = os.pipe()
        os.set_blocking(self.take, False)  # the helper looks in on its parent while it waits (`_claim`)
        os.write(self.give, b".")

    def _claim(self, low_end: bool, parent: int | None = None) -> int | None:
        while True:
            try:
                os.read(self.take, 1)
                break
            except BlockingIOError:
                pass
            if not readable([self.take], [], [], 1.0)[0] and parent is not None and os.getppid() != parent:
                os._exit(1)  # the helper, whose parent died holding the token
        try:
            low, high = struct.unpack_from("qq", self.memory, 0)
            if low >= high:
                return None
            struct.pack_into("qq", self.memory, 0, *((low + 1, high) if low_end else (low, high - 1)))
            return low if low_end else high - 1
        finally:
            os.write(self.give, b".")

    def first(self) -> int | None:
        """The first piece nobody has taken, for this process."""
        return self._claim(True)

    def last(self, parent: int) -> int | None:
        """The last piece nobody has taken, for the helper of process `parent`."""
        return self._claim(False, parent)

    def close(self) -> None:
        os.close(self.take)
        os.close(self.give)
        self.memory.close()


class Helper:
    """The second process of an export (see the module's text)."""

    def __init__(self, connection: Connection, name: str, path: str, chunks: list[Chunk]) -> None:
        self.connection = connection
        self.name = name
        self.chunks = chunks
        self.tables = {chunk.table.name for chunk in chunks}
        self.claims = Claims(len(chunks))
        self.spool = tempfile.TemporaryFile(prefix="adjutant-export-")
        self.written: dict[int, tuple[int, int]] | None = None  # the helper's pieces: where in its spool
        reader, writer = os.pipe()
        parent = os.getpid()
        try:
            self.pid = os.fork()
        except OSError:  # no memory, no process left to the user: one process writes it all
            for descriptor in (reader, writer):
                os.close(descriptor)
            self.spool.close()
            self.claims.close()
            raise
        if self.pid == 0:  # the helper: never returns
            try:
                os.close(reader)
                _help(path, name, chunks, self.claims, self.spool, writer, parent)
            finally:
                os._exit(0)
        os.close(writer)
        self.reports = os.fdopen(reader, "rb")

    @classmethod
    def started(cls, connection: Connection, exported: list[Table], name: str) -> Helper | None:
        """A helper for `exported`'s long tables; None when none is long enough, or when this process
        cannot fork safely (a thread besides this one, which a fork does not copy) or at all."""
        path = _file_of(connection)
        if threading.active_count() != 1 or not hasattr(os, "fork") or path is None:
            return None
        connection.exec_driver_sql("SELECT count(*) FROM sqlite_master").fetchall()  # this process's read lock first
        chunks = pieces(connection, exported)
        if not chunks:
            return None
        _prepared(chunks)
        try:
            return cls(connection, name, path, chunks)
        except OSError:  # no spool (the temporary folder full or missing), no fork
            return None

    def splits(self, table: Table) -> bool:
        return table.name in self.tables

    def write(self, table: Table, out: Out) -> bool:
        """Write `table`'s rows, this process's pieces and the helper's, in key order; whether it has none."""
        empty = True
        for number, chunk in enumerate(self.chunks):
            if chunk.table.name != table.name:
                continue
            place = self._helpers(number)
            if place is None:
                empty = self._write_here(chunk, out, empty)
            else:
                empty = self._copy(place, out, empty)
        return empty

    def _helpers(self, number: int) -> tuple[int, int] | None:
        """Where in the spool the helper wrote piece `number`; None for a piece to write here."""
        if self.written is None:
            claimed = self.claims.first()
            if claimed is not None:
                assert claimed == number, (claimed, number)  # this process takes the pieces in order
                return None
            self.written = self._reports()  # the rest is the helper's: it has ended, or is ending
        return self.written.get(number)

    def _reports(self) -> dict[int, tuple[int, int]]:
        written = {}
        for line in self.reports:  # until the helper has ended (or died)
            try:
                number, start, length = orjson.loads(line)
            except (orjson.JSONDecodeError, ValueError, TypeError):
                continue
            written[number] = (start, length)
        return written

    def _write_here(self, chunk: Chunk, out: Out, empty: bool) -> bool:
        from models.errors import CampaignFileError
        from models.exchange import _encoded_batches, write_batches

        try:
            return write_batches(_encoded_batches(self.connection, chunk.table, self.name, chunk.keys), out, empty)
        except CampaignFileError:
            # Refused: again, counted from the table's first row, for the sentence one process gives.
            first = self.connection.execute(select(func.count()).select_from(chunk.table).where(chunk.before)).scalar_one()
            write_batches(_encoded_batches(self.connection, chunk.table, self.name, chunk.keys, first), _nowhere, empty)
            raise

    def _copy(self, place: tuple[int, int], out: Out, empty: bool) -> bool:
        """The helper's text of a piece: each of its batches opens with ",\\n", the table's first with "\\n"."""
        start, length = place
        if not length:
            return empty
        if empty:
            out(b"\n")
            start, length = start + 2, length - 2
        _copied(self.spool.fileno(), start, length, out)
        return False

    def close(self) -> None:
        """End the helper (it may be half-way: the export failed) and reap it."""
        if self.reports.closed:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)  # not reaped yet, so the id is still the helper's
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        self.reports.close()
        self.spool.close()
        self.claims.close()


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


def _copied(source: int, start: int, length: int, out: Out) -> None:
    """`length` bytes of the file `source` from `start` into `out`: by the kernel when `out` writes a
    regular file (an export into a file, campaigns.output), else a megabyte at a time."""
    owner = getattr(out, "__self__", None)
    if isinstance(owner, io.BufferedWriter):
        owner.flush()
        try:
            while length:
                sent = os.sendfile(owner.fileno(), source, start, length)
                if not sent:
                    break
                start, length = start + sent, length - sent
        except OSError:
            pass  # a file opened to append, say: copied below (nothing was sent, or the error comes again)
    while length:
        data = os.pread(source, min(length, COPY_BYTES), start)
        if not data:
            raise OSError("the export's spool ended early")
        out(data)
        start, length = start + len(data), length - len(data)


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


def _help(path: str, name: str, chunks: list[Chunk], claims: Claims, spool: IO[bytes], reports: int, parent: int) -> None:
    """The helper's work: the last piece nobody has taken, again and again, each into the spool, and
    where it is there reported; a piece it cannot write is left unreported, and it stops."""
    from models.engine import read_only_engine
    from models.errors import CampaignFileError
    from models.exchange import _encoded_batches, write_batches

    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends it at once, as it ends its parent
    gc.disable()  # as models.exchange.no_collection
    written = 0

    def write(data: bytes | memoryview) -> None:
        nonlocal written
        if os.getppid() != parent:  # its parent was killed: nobody will read this
            os._exit(1)
        written += spool.write(data)

    engine = read_only_engine(Path(path), immutable=True)
    with engine.connect() as connection:
        while (number := claims.last(parent)) is not None:
            chunk = chunks[number]
            start = written
            try:
                write_batches(_encoded_batches(connection, chunk.table, name, chunk.keys), write, empty=False)
            except CampaignFileError:
                return  # this process writes it again, and refuses it
            spool.flush()
            os.write(reports, orjson.dumps([number, start, written - start]) + b"\n")

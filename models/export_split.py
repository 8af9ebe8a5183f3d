"""The export's longest tables read, checked and written by two processes at once.

At a million events an export is one processor's work from start to end (reading,
judging and encoding rows is Python, holding the GIL), and the machine has two. So a
table whose keys span SPLIT_ROWS rows or more is cut at a key: this process writes the
rows before it, as always, while a second process, forked before any row is read,
writes the rows from that key on into a spool file of its own; once this process's
rows are written, the helper's are copied after them, in order. The text is the same
bytes as one process's: each half is the same batches judged and encoded by the same
code (models.exchange), and a batch's text does not depend on where a batch starts.

Nothing else changes:
- a damaged row in the helper's half is refused with the same sentence, its row
  number counted from the table's first row, and only once this process has written
  (and so checked) every row before it: the first damaged row is the one named;
- the helper reads the file as this process does, on a connection of its own opened
  while this process holds its read transaction (no writer can commit meanwhile:
  rollback-journal mode), and it holds no lock of its own (`immutable`);
- its spool files have no name (created unlinked before the fork), so nothing is
  left behind whatever ends the export, and its memory is one batch, as here;
- a helper that ends without a verdict (killed, out of memory, anything unforeseen)
  leaves its rows to this process, which then reads them as it always did;
- it ends when this process ends: this process kills and reaps it whatever ends the
  export (refusal, Ctrl-C, a closed pipe), and a helper whose parent is gone (killed
  by SIGTERM, which runs no clean-up) stops at its next batch.
"""

from __future__ import annotations

import gc
import os
import signal
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson
from sqlalchemy import ColumnElement, Connection, Integer, Table, exc, func, select

from models.errors import CampaignFileError

# A table whose keys span this many rows is split: below it, a helper's fork and its spool
# cost more than they save (the 10k-event file is exported whole by one process).
SPLIT_ROWS = 200_000
# The helper's share of a split table's rows: this process also writes every other table,
# reads the helper's spool back and, beside it, the integrity check's thread runs.
SHARE = 0.5
COPY_BYTES = 1 << 20


@dataclass
class Part:
    """The rows of `table` from key `first` on, written by the helper into `spool`."""

    table: Table
    key: Any  # the table's key column
    first: int
    spool: IO[bytes] = field(default_factory=lambda: tempfile.TemporaryFile(prefix="adjutant-export-"))

    @property
    def before(self) -> ColumnElement[bool]:
        return self.key < self.first  # type: ignore[no-any-return]  # a column's comparison

    @property
    def after(self) -> ColumnElement[bool]:
        return self.key >= self.first  # type: ignore[no-any-return]  # a column's comparison


class Helper:
    """The second process of an export (see the module's text)."""

    def __init__(self, connection: Connection, name: str, path: str, parts: list[Part]) -> None:
        self.connection = connection
        self.name = name
        self.parts = {part.table.name: part for part in parts}
        self.failed = False
        reader, writer = os.pipe()
        parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:  # the helper: never returns
            status = 1
            try:
                os.close(reader)
                status = _help(path, name, parts, writer, parent)
            finally:
                os._exit(status)
        os.close(writer)
        self.verdicts = os.fdopen(reader, "rb")

    @classmethod
    def started(cls, connection: Connection, exported: list[Table], name: str) -> Helper | None:
        """A helper for `exported`'s long tables, None when none is long enough (or this process
        cannot fork safely: a thread other than this one, which a fork would not copy)."""
        path = _file_of(connection)
        if threading.active_count() != 1 or not hasattr(os, "fork") or path is None:
            return None
        connection.exec_driver_sql("SELECT count(*) FROM sqlite_master").fetchall()  # this process's read lock first
        parts = [part for part in map(_split, [connection] * len(exported), exported) if part is not None]
        return cls(connection, name, path, parts) if parts else None

    def part(self, table: Table) -> Part | None:
        return self.parts.get(table.name)

    def take(self, part: Part, out: Callable[[bytes | memoryview], Any], empty: bool) -> bool:
        """Write the helper's rows of `part` after this process's (`empty`: none were); whether
        the table is empty still. The helper's sentence when it refused a row."""
        from models.exchange import _encoded_batches, write_batches

        verdict = {} if self.failed else _verdict(self.verdicts.readline())
        if "refused" in verdict:
            raise CampaignFileError(verdict["refused"])
        if verdict.get("written") != part.table.name:  # the helper is gone: its rows are read here
            self.failed = True
            first = self.connection.execute(select(func.count()).select_from(part.table).where(part.before)).scalar_one()
            return write_batches(_encoded_batches(self.connection, part.table, self.name, part.after, first), out, empty)
        spool = part.spool
        spool.seek(0)
        buffer = bytearray(COPY_BYTES)
        view = memoryview(buffer)
        skip = 2 if empty else 0  # each of its batches opens with ",\n": the first of the table opens with "\n"
        while read := spool.readinto(buffer):
            if skip:
                out(b"\n")
            out(view[skip:read])
            skip, empty = 0, False
        spool.close()
        return empty

    def close(self) -> None:
        """End the helper (it may be half-way: the export failed) and reap it."""
        try:
            os.kill(self.pid, signal.SIGKILL)  # not reaped yet, so the id is still the helper's
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        self.verdicts.close()
        for part in self.parts.values():
            part.spool.close()


def _verdict(line: bytes) -> dict[str, str]:
    try:
        verdict = orjson.loads(line) if line else {}
    except orjson.JSONDecodeError:
        return {}
    return verdict if isinstance(verdict, dict) else {}


def _file_of(connection: Connection) -> str | None:
    for _, schema, file in connection.exec_driver_sql("PRAGMA database_list").fetchall():
        if schema == "main":
            return str(file) or None  # "" for a database in memory
    return None


def _split(connection: Connection, table: Table) -> Part | None:
    keys = list(table.primary_key.columns)
    if len(keys) != 1 or not isinstance(keys[0].type, Integer):
        return None
    key = keys[0]
    try:
        low, high = connection.execute(select(func.min(key), func.max(key))).one()  # the ends of the key's index
    except exc.DBAPIError:  # a damaged file: read as one process reads it
        return None
    if type(low) is not int or type(high) is not int or high - low + 1 < SPLIT_ROWS:
        return None
    return Part(table, key, low + int((high - low + 1) * (1 - SHARE)))


def _help(path: str, name: str, parts: list[Part], verdicts: int, parent: int) -> int:
    """The helper's work: each part's rows into its spool, a verdict line per part."""
    from models.engine import read_only_engine
    from models.exchange import _encoded_batches, write_batches

    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends it at once, as it ends its parent
    gc.disable()  # as models.exchange.no_collection
    engine = read_only_engine(Path(path), immutable=True)
    with engine.connect() as connection:
        for part in parts:
            spool = part.spool

            def write(data: bytes | memoryview, spool: IO[bytes] = spool) -> None:
                if os.getppid() != parent:  # its parent was killed: nobody will read this
                    os._exit(1)
                spool.write(data)

            try:
                first = connection.execute(select(func.count()).select_from(part.table).where(part.before)).scalar_one()
                write_batches(_encoded_batches(connection, part.table, name, part.after, first), write, empty=False)
                spool.flush()
            except CampaignFileError as error:
                os.write(verdicts, orjson.dumps({"refused": str(error)}) + b"\n")
                return 0
            os.write(verdicts, orjson.dumps({"written": part.table.name}) + b"\n")
    return 0

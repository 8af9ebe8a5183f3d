"""An export imported row by row, in memory that does not grow with the campaign.

`adjutant export` lays its text out one way only (models.exchange.write): the
head, then each table's rows, each row an object opening with a line of exactly
six spaces and "{" and closing with one of six spaces and "}". Strings hold no
line breaks (JSON escapes them), so each row is read as its own lines, parsed
with orjson, checked against the export format and written a thousand at a
time, and the reader holds one row and one batch at most.

Every line between the rows must be exactly where and what the layout puts it
(a table's opening line, the comma between rows, the closing brackets), and
each row must parse as one JSON object: the rows read are then the very rows a
parse of the whole document would give. Any other layout (an export re-indented
by another tool, a hand-made one) raises `NotLaidOut`, and the caller imports
the file the old way, as one document of at most LIMIT_BYTES
(models.exchange.loads).

What the whole document's reading checked across rows is checked by the
database once the rows are in: a key repeated (the table's primary key refuses
the row that repeats it) and a row naming one that is not there (a query per
foreign key before the end of the transaction). A refused import leaves
nothing, as ever (models.opening.build_new).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

import orjson
from sqlalchemy import Connection, Table, exc, exists, select, text

from models import event_units, schema, search, tally
from models.errors import CampaignFileError, first_line
from models.exchange import (
    FORMAT,
    READ_BATCH,
    _advance_sequences,
    _revision,
    loads,
    no_collection,
    read_limited,
    reflected,
)
from models.export_format import BadRow, validate_row
from models.opening import build_new
from models.store import CampaignStore
from models.targets import Target
from models.values import row_from_json

STREAM_LIMIT_BYTES = 16 * 1024**3  # an export this long is not a campaign: it is a disk being filled
LINE_LIMIT = 64 * 1024 * 1024  # one line of a row: one value, itself at most MAX_JSON_BYTES or MAX_TEXT
ROW_LIMIT = 64 * 1024 * 1024  # one row's lines together

_HEAD_FIELD = re.compile(rb'  "(format|schema)": ("(?:[^"\\\n]|\\.)*"),\n')
_TABLE = re.compile(rb'    ("(?:[^"\\\n]|\\.)*"): \[(\],?)?\n')
ROW_OPEN, ROW_CLOSE, ROW_NEXT = b"      {\n", b"      }\n", b"      },\n"
TABLE_CLOSE, TABLE_NEXT = b"    ]\n", b"    ],\n"
TABLES_OPEN, TABLES_CLOSE, END = b'  "tables": {\n', b"  }\n", b"}\n"


class NotLaidOut(Exception):
    """The text is not laid out as `adjutant export` writes it: import it as one document."""


def import_export(target: Target, stream: IO[bytes], *, source: str = "the export") -> CampaignStore:
    """Build a new campaign at `target` from an export (a binary stream that can seek): row by
    row when laid out as `adjutant export` writes it, else as one document of at most LIMIT_BYTES."""
    if not stream.read(64 * 1024).lstrip()[:1] == b"{":
        raise CampaignFileError(f"{source} is not an Adjutant campaign export")
    stream.seek(0)
    try:
        return load_stream(target, stream, source=source)
    except NotLaidOut:
        stream.seek(0)
        return loads(target, read_limited(stream, source), source=source)


@contextmanager
def seekable_copy(stream: IO[bytes], source: str) -> Iterator[IO[bytes]]:
    """A stream that cannot seek (standard input) copied to a temporary file, which can."""
    first = stream.read(64 * 1024)
    if not first.lstrip()[:1] == b"{":  # /dev/zero is refused at once, not copied
        raise CampaignFileError(f"{source} is not an Adjutant campaign export")
    with tempfile.TemporaryFile(prefix="adjutant-import-") as copy:
        copy.write(first)
        size = len(first)
        while chunk := stream.read(1 << 20):
            size += len(chunk)
            if size > STREAM_LIMIT_BYTES:
                raise CampaignFileError(f"{source} is larger than {STREAM_LIMIT_BYTES // 2**30} GB, more than any campaign")
            copy.write(chunk)
        copy.seek(0)
        yield copy


def load_stream(target: Target, stream: IO[bytes], *, source: str = "the export") -> CampaignStore:
    """Build a new campaign at `target` from the export `stream` (binary, positioned at its
    start), row by row; raises NotLaidOut, having written nothing, for another layout."""
    lines = _Lines(stream, source)
    revision = _head(lines, source)

    def fill(connection: Connection) -> None:
        schema.upgrade(connection, revision)
        metadata = reflected(connection)
        known = {name: table for name, table in metadata.tables.items() if name != schema.VERSION_TABLE}
        counts: dict[str, int] = {}
        with no_collection():
            for name, rows in _tables(lines):
                table = known.get(name)
                if table is None:
                    raise CampaignFileError(f"{source} has a table {name!r} that schema {revision} does not have")
                counts[name] = _insert(connection, table, rows, source)
        if counts.get("campaign", 0) != 1:
            raise CampaignFileError(f"{source} must hold exactly one campaign row")
        _check_references(connection, [known[name] for name in counts], source)
        search.rebuild(connection)  # rows written in bulk: the history's index is built once
        tally.rebuild(connection)  # and the dice tally counted once (models.tally)
        event_units.rebuild(connection)  # and the units each event changed (models.event_units)
        if connection.dialect.name == "postgresql":
            connection.execute(text("SET CONSTRAINTS ALL IMMEDIATE"))
            _advance_sequences(connection, metadata)
        schema.upgrade(connection)

    return build_new(target, fill)


class _Lines:
    """The stream's lines, each at most LINE_LIMIT bytes, the whole at most STREAM_LIMIT_BYTES."""

    def __init__(self, stream: IO[bytes], source: str) -> None:
        self.stream, self.source, self.read = stream, source, 0

    def next(self) -> bytes:
        line = self.stream.readline(LINE_LIMIT + 1)
        self.read += len(line)
        if len(line) > LINE_LIMIT:
            raise NotLaidOut
        if self.read > STREAM_LIMIT_BYTES:
            raise CampaignFileError(f"{self.source} is larger than {STREAM_LIMIT_BYTES // 2**30} GB, more than any campaign")
        return line


def _head(lines: _Lines, source: str) -> str:
    if lines.next() != b"{\n":
        raise NotLaidOut
    fields: dict[str, Any] = {}
    for expected in ("format", "schema"):
        match = _HEAD_FIELD.fullmatch(lines.next())
        if match is None or match[1].decode() != expected:
            raise NotLaidOut
        fields[expected] = _json(match[2])
    if lines.next() != TABLES_OPEN or fields["format"] != FORMAT:
        raise NotLaidOut
    return _revision({**fields, "tables": {}}, source)


def _tables(lines: _Lines) -> Iterator[tuple[str, Iterator[tuple[int, dict[str, Any]]]]]:
    """(name, its rows) for each table, in the export's order (by name, each once)."""
    previous = ""
    while True:
        line = lines.next()
        if line == TABLES_CLOSE:
            break
        match = _TABLE.fullmatch(line)
        if match is None:
            raise NotLaidOut
        name = _json(match[1])
        if not isinstance(name, str) or name <= previous:  # a table named twice: the document's reading keeps the last
            raise NotLaidOut
        previous = name
        if match[2] is not None:  # "[]" or "[],": no rows
            yield name, iter(())
            if match[2] == b"]":
                _end_of_tables(lines)
                return
            continue
        last = _Flag()
        yield name, _rows(lines, last)
        if last.value:
            _end_of_tables(lines)
            return
    raise NotLaidOut  # "  }" straight after a table that promised another with its comma


class _Flag:
    value = False


def _end_of_tables(lines: _Lines) -> None:
    if lines.next() != TABLES_CLOSE or lines.next() != END:
        raise NotLaidOut
    while rest := lines.next():  # only white space may follow, as after any JSON document
        if rest.strip():
            raise NotLaidOut


def _rows(lines: _Lines, last: _Flag) -> Iterator[tuple[int, dict[str, Any]]]:
    """The rows of one table: (number, row); `last` says whether its table closed the list."""
    number = 0
    while True:
        if lines.next() != ROW_OPEN:
            raise NotLaidOut
        body: list[bytes] = [b"{"]
        size = 0
        while (line := lines.next()) not in (ROW_CLOSE, ROW_NEXT):
            if not line.startswith(b"        ") or not line.endswith(b"\n"):
                raise NotLaidOut  # a row's own lines are indented further; a file cut short ends here
            size += len(line)
            if size > ROW_LIMIT:
                raise NotLaidOut
            body.append(line)
        body.append(b"}")
        row = _json(b"".join(body))
        if not isinstance(row, dict):
            raise NotLaidOut
        number += 1
        yield number, row
        if line == ROW_CLOSE:
            closing = lines.next()
            if closing not in (TABLE_CLOSE, TABLE_NEXT):
                raise NotLaidOut
            last.value = closing == TABLE_CLOSE
            return


def _json(encoded: bytes) -> Any:
    try:
        return orjson.loads(encoded)
    except orjson.JSONDecodeError:
        raise NotLaidOut from None  # the document's own reading names what is wrong


def _insert(connection: Connection, table: Table, rows: Iterator[tuple[int, dict[str, Any]]], source: str) -> int:
    """Check and write the rows READ_BATCH at a time; how many there were."""
    count = 0
    batch: list[tuple[int, dict[str, Any]]] = []
    for number, row in rows:
        try:
            validate_row(table, row)
        except BadRow as error:
            raise CampaignFileError(f"{source}: row {number} of {table.name!r} has {error.reason}") from None
        try:
            batch.append((number, row_from_json(table, row)))
        except (TypeError, ValueError) as error:
            raise CampaignFileError(f"{source}: row {number} of {table.name!r} has a bad value: {error}") from None
        count = number
        if len(batch) >= READ_BATCH:
            _write(connection, table, batch, source)
            batch = []
    if batch:
        _write(connection, table, batch, source)
    return count


def _write(connection: Connection, table: Table, batch: list[tuple[int, dict[str, Any]]], source: str) -> None:
    """Write a batch (rows with the same columns together); a row the database refuses is named."""
    groups: dict[frozenset[str], list[dict[str, Any]]] = {}
    for _number, row in batch:
        groups.setdefault(frozenset(row), []).append(row)
    try:
        with connection.begin_nested():
            for rows in groups.values():
                connection.execute(table.insert(), rows)
    except exc.IntegrityError:
        for number, row in batch:  # again one by one, to name the row
            try:
                with connection.begin_nested():
                    connection.execute(table.insert(), [row])
            except exc.IntegrityError as error:
                raise CampaignFileError(_refusal(connection, table, number, row, source, error)) from None


def _refusal(
    connection: Connection, table: Table, number: int, row: dict[str, Any], source: str, error: exc.IntegrityError
) -> str:
    keys = list(table.primary_key.columns)
    same_key = select(text("1")).select_from(table).where(*(key == row.get(key.name) for key in keys)).limit(1)
    if keys and connection.execute(same_key).first() is not None:
        return f"{source}: row {number} of {table.name!r} repeats the key of another row"
    return f"{source}: row {number} of {table.name!r} cannot be stored: {first_line(error)}"


def _check_references(connection: Connection, present: list[Table], source: str) -> None:
    """Every foreign key names a row of the export (the database would refuse it at commit,
    in words a person cannot act on)."""
    for table in present:
        for key in table.foreign_keys:
            child, parent = key.parent, key.column
            named = parent.table.alias("named").c[parent.name]  # an alias: a general names a general
            orphan = connection.execute(
                select(child).where(child.is_not(None), ~exists().where(named == child)).limit(1)
            ).first()
            if orphan is not None:
                raise CampaignFileError(
                    f"{source}: a row of {table.name!r} names {child.name} {orphan[0]!r}, "
                    f"which is not in table {parent.table.name!r}"
                )

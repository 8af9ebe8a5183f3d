"""A whole campaign as JSON, and a new campaign built from such an export.

The export lists every row of every table, keyed by column, rows in key order,
so exports diff cleanly and export, import, export gives the same text. It names
its schema revision; an export of an older schema is loaded at that revision and
then migrated like an old file.
"""

from __future__ import annotations

import gc
import io
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import orjson
from sqlalchemy import (
    Connection,
    Integer,
    MetaData,
    Select,
    String,
    Table,
    bindparam,
    exc,
    inspect,
    select,
    text,
)
from models import columns, event_units, schema, search, tally
from models.errors import CampaignFileError, first_line, refused_to_role
from models.opening import build_new
from models.store import CampaignStore
from models.targets import Target
from models.values import row_from_json, to_json

# The export's checks (models.export_format, export_quick, export_checks: the row models,
# the rule sets' options, pydantic's validators) are imported where rows are checked, not
# here: `adjutant log` takes `no_collection` from this module and checks no row.

FORMAT = "adjutant-campaign"
# An export read as one document (models.import_stream reads export's own layout row by row
# whatever its length: a million events is some 600 MB).
LIMIT_BYTES = 256 * 1024 * 1024
ROW = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS
READ_BATCH = 1000
# Rows of a SQLite file judged and written at a time: a hundred rows, their parsed JSON and
# their text stay in the processor's cache from fetch to write and free; a thousand did not,
# and at a million events an export took some 1.5 to 2 times as long for its tables' rows.
EXPORT_BATCH = 100


def rows(connection: Connection, table: Table, name: str) -> Iterator[dict[str, Any]]:
    """The rows of `table` as the export writes them, in key order (see `batches`)."""
    for batch in batches(connection, table, name):
        yield from batch


def batches(connection: Connection, table: Table, name: str) -> Iterator[list[dict[str, Any]]]:
    """The rows of `table` as the export writes them, in key order, READ_BATCH at a time, each
    checked against the export format; CampaignFileError names the first row that does not fit."""
    from models.export_format import BadRow, validate_row

    query = _in_key_order(connection, table)
    if connection.dialect.name == "sqlite":
        yield from _sqlite_batches(connection, table, query, name)
        return
    number = 0
    # str(): a Core table's names are SQLAlchemy's quoted_name, a subclass of str that orjson
    # refuses as a key (models.columns, and a reflected table's for --salvage).
    names = [(str(column.name), column.name) for column in table.columns]
    try:
        result = connection.execution_options(yield_per=READ_BATCH).execute(query)
        for partition in result.mappings().partitions():
            batch = []
            for row in partition:
                number += 1
                values = {name: to_json(row[key]) for name, key in names}
                validate_row(table, values)
                batch.append(values)
            yield batch
    except BadRow as error:
        raise CampaignFileError(f"{name} is damaged: row {number} of table {table.name!r} has {error.reason}") from None
    except (ValueError, TypeError, OverflowError, exc.DBAPIError) as error:
        raise CampaignFileError(_unreadable(name, table, number + 1, error)) from None


def _in_key_order(connection: Connection, table: Table) -> Select[Any]:
    keys = list(table.primary_key.columns)
    # Ordered by code point on both back ends, as Python sorts text (PostgreSQL's own
    # collation depends on the server's locale).
    postgres = connection.dialect.name == "postgresql"
    return select(table).order_by(*[key.collate("C") if postgres and isinstance(key.type, String) else key for key in keys])


def _encoded_batches(
    connection: Connection, table: Table, name: str, keys: Any = None, first: int = 0
) -> Iterator[bytes]:
    """The export's text of `table`'s rows (`_encoded`), a batch at a time, each checked as `batches` checks it.

    `keys` (SQLite only): a condition on the rows' key, which reads only the rows that meet it, the
    first of them counted as row `first` + 1 (models.export_split); or the bounds (low, high) of the
    table's one integer key, low <= key < high (None: no bound that side), read by a statement made
    once for the table (made for each of a few hundred pieces, a statement cost a millisecond)."""
    if connection.dialect.name == "sqlite":
        if isinstance(keys, tuple):
            statement, parameters = _bounded(connection, table, *keys)
            yield from _sqlite_batches(connection, table, statement, name, encoded=True, first=first, parameters=parameters)
            return
        query = _in_key_order(connection, table)
        if keys is not None:
            query = query.where(keys)
        yield from _sqlite_batches(connection, table, query, name, encoded=True, first=first)
        return
    for batch in batches(connection, table, name):
        if batch:
            yield _encoded(batch, table, name)


_BOUNDED: dict[tuple[Table, bool, bool], tuple[str, tuple[str, ...]]] = {}


def _bounded(connection: Connection, table: Table, low: int | None, high: int | None) -> tuple[str, tuple[int, ...]]:
    """The statement that reads `table`'s rows in key order whose one integer key is in [low, high),
    and its parameters."""
    shape = (table, low is not None, high is not None)
    made = _BOUNDED.get(shape)
    if made is None:
        (key,) = table.primary_key.columns
        query = _in_key_order(connection, table)
        if low is not None:
            query = query.where(key >= bindparam("low", type_=Integer))
        if high is not None:
            query = query.where(key < bindparam("high", type_=Integer))
        compiled = query.compile(dialect=connection.dialect)
        made = _BOUNDED[shape] = (str(compiled), tuple(compiled.positiontup or ()))
    statement, names = made
    bounds = {"low": low, "high": high}
    return statement, tuple(int(bounds[name]) for name in names)  # type: ignore[arg-type]  # a name is only there with its bound


def _sqlite_batches(
    connection: Connection,
    table: Table,
    query: Select[Any] | str,
    name: str,
    *,
    encoded: bool = False,
    first: int = 0,
    parameters: tuple[Any, ...] = (),
) -> Iterator[Any]:
    """The rows straight from sqlite3, judged EXPORT_BATCH at a time by models.export_quick; a
    batch it is unsure of is read and judged row by row as SQLAlchemy and the row model do.

    `encoded`: each batch as the export's text (`_encoded`) instead. The quick judge then leaves
    the depth of JSON values to that text, which shows it in C: a value nested more than
    MAX_JSON_DEPTH deep has a line indented as far as `_deep_line` (or, deeper still, is
    refused by orjson).
    Such a batch is judged again with the depth counted, and so refused as `batches` refuses it."""
    from models.export_quick import Unsure, table_judge

    dialect = connection.dialect
    careful = table_judge(table)
    judge = table_judge(table, depth_in_text=True) if encoded and careful is not None else careful
    deep = _deep_line()
    processors = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in table.columns]
    names = [str(column.name) for column in table.columns]  # not quoted_name (a reflected table's): see TableJudge
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]  # open: the connection is in use
    number = first

    def judged(judge: Any, raw: list[tuple[Any, ...]]) -> list[dict[str, Any]] | None:
        try:
            return judge(raw) if judge is not None else None
        except Unsure:
            return None

    try:
        if not isinstance(query, str):
            query = str(query.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))
        cursor.execute(query, parameters)
        while raw := cursor.fetchmany(EXPORT_BATCH):
            batch = judged(judge, raw)
            if not encoded:
                yield batch if batch is not None else _judged_one_by_one(table, names, processors, raw, number, name)
            elif batch is not None and (text := _shallow(batch, deep)) is not None:
                yield text
            else:
                batch = judged(careful, raw) if batch is not None else None
                if batch is None:
                    batch = _judged_one_by_one(table, names, processors, raw, number, name)
                yield _encoded(batch, table, name)
            number += len(raw)
            del raw, batch  # freed now, while still in the cache, not once the next batch is made
    except sqlite3.Error as error:
        raise CampaignFileError(_unreadable(name, table, number + 1, error)) from None
    finally:
        cursor.close()


def _judged_one_by_one(
    table: Table, names: list[str], processors: list[Any], raw: list[tuple[Any, ...]], before: int, name: str
) -> list[dict[str, Any]]:
    from models.export_format import BadRow, validate_row

    batch = []
    for number, values in enumerate(raw, before + 1):
        try:
            row = {
                column: to_json(process(value) if process is not None else value)
                for column, process, value in zip(names, processors, values[: len(names)], strict=True)
            }
        except (ValueError, TypeError, OverflowError) as error:
            raise CampaignFileError(_unreadable(name, table, number, error)) from None
        try:
            validate_row(table, row)
        except BadRow as error:
            raise CampaignFileError(
                f"{name} is damaged: row {number} of table {table.name!r} has {error.reason}"
            ) from None
        batch.append(row)
    return batch


def _unreadable(name: str, table: Table, number: int, error: BaseException) -> str:
    refused = refused_to_role(name, error)  # a club's side role: not damaged, not allowed
    if refused:
        return refused
    return f"{name} is damaged: row {number} of table {table.name!r} cannot be read ({first_line(error)})"


def integrity_problem(connection: Connection, name: str) -> str | None:
    """A sentence saying how SQLite's integrity check fails, if it does.

    Run before an export too, not only by `check`: a damaged index can hide rows
    from a read in key order, and an export must not leave rows out unnoticed."""
    if connection.dialect.name != "sqlite":
        return None
    lines = [str(row[0]) for row in connection.exec_driver_sql("PRAGMA integrity_check(20)")]
    if lines == ["ok"]:
        return None
    more = f" (and {len(lines) - 1} more faults)" if len(lines) > 1 else ""
    return f"{name} is damaged: SQLite's integrity check says {lines[0]}{more}"


def first_orphan(connection: Connection, name: str) -> str | None:
    """A sentence naming the first row that points at a row that does not exist, if any.

    PostgreSQL never stores one; a SQLite file can hold one (its foreign keys are only
    checked while Adjutant writes), and an import would refuse it."""
    if connection.dialect.name != "sqlite":
        return None
    row = connection.exec_driver_sql("SELECT \"table\", parent FROM pragma_foreign_key_check LIMIT 1").first()
    if row is None:
        return None
    return f"{name} is damaged: a row of {row[0]!r} points at a row of {row[1]!r} that does not exist"


# What PostgreSQL holds of the tables of the current schema, as text (see `reflected`).
_POSTGRESQL_SCHEMA = """
SELECT 'column', c.relname, c.relkind::text, a.attnum::text, a.attname::text, format_type(a.atttypid, a.atttypmod),
       a.attnotnull::text, coalesce(pg_get_expr(d.adbin, d.adrelid), ''), a.attidentity::text || a.attgenerated::text
FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
  AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'constraint', c.relname, k.contype::text, k.conname::text, pg_get_constraintdef(k.oid, true),
       k.condeferrable::text, k.condeferred::text, '', ''
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid WHERE c.relnamespace = current_schema()::regnamespace
UNION ALL
SELECT 'index', tablename::text, '', indexname::text, indexdef, '', '', '', ''
FROM pg_indexes WHERE schemaname = current_schema()
UNION ALL
SELECT 'comment', c.relname, '', '', coalesce(obj_description(c.oid, 'pg_class'), ''), '', '', '', ''
FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
ORDER BY 1, 2, 3, 4, 5
"""

# Reflected schemas by what the database holds of them (see `reflected`), the latest few.
_REFLECTED: OrderedDict[tuple[Any, ...], MetaData] = OrderedDict()
_REFLECTED_KEPT = 8
_reflecting = threading.Lock()


def reflected(connection: Connection, only: Collection[str] | None = None) -> MetaData:
    """The tables of the database (those named in `only`), as they are there, not as
    this version makes them. Not to be changed: it is shared.

    SQLAlchemy reads them with a dozen queries a table, a tenth of a second or more,
    yet nearly every database holds one of the few schemas the migrations make. So a
    reading is kept for the text the database builds its schema from and given again
    for a database with the same text: the same tables, and the same row models
    (models.export_format, which keeps one per table). On SQLite the text is every
    table's and index's `CREATE` in sqlite_master; on PostgreSQL every column of the
    schema's tables (its type, NOT NULL, default, identity), every constraint's and
    every index's definition, as the server prints them."""
    def read() -> MetaData:
        metadata = MetaData()
        metadata.reflect(connection, only=None if only is None else list(only))
        return metadata

    if connection.dialect.name == "sqlite":
        schema_text = tuple(connection.exec_driver_sql(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY type, name"
        ))
    elif connection.dialect.name == "postgresql":
        schema_text = tuple(connection.exec_driver_sql(_POSTGRESQL_SCHEMA))
    else:
        return read()
    key = (connection.dialect.name, None if only is None else tuple(sorted(only)), schema_text)
    with _reflecting:
        if key in _REFLECTED:
            _REFLECTED.move_to_end(key)
            return _REFLECTED[key]
    metadata = read()
    with _reflecting:
        _REFLECTED[key] = metadata
        while len(_REFLECTED) > _REFLECTED_KEPT:
            _REFLECTED.popitem(last=False)
    return metadata


def tables() -> list[Table]:
    """The exported tables, by name (the order of the export's keys): read from their plain
    description (models.columns), not from the SQLModel classes, which `export` need not build."""
    return columns.tables()


def write(store: CampaignStore, out: Callable[[bytes | memoryview], Any]) -> None:
    """Write the export to `out` row by row: memory does not grow with the campaign.

    The text is exactly `json.dumps(document, sort_keys=True, indent=2,
    ensure_ascii=False)` plus a newline, as earlier versions wrote it, so exports
    of one campaign compare equal across versions; only DEL and the C1 controls,
    which a terminal would obey, and the bidirectional controls, which reorder what
    it shows, are written escaped.
    """
    with store.connect() as connection:
        _write(connection, store.name, schema.head(), tables(), out)


def write_salvaged(path: Path, out: Callable[[bytes | memoryview], Any]) -> None:
    """Export the rows of a campaign file that holds objects Adjutant did not make.

    The file is read, never opened for writing: its own tables must be exactly
    Adjutant's (models.gate.verify with salvage), its triggers, views and extra
    tables are left unread, and every row is checked as any export's. The export
    names the file's own schema; `import` migrates it like any older export.
    """
    from models.engine import read_only_engine
    from models.gate import verify
    from models.sqlite_header import read_header
    from models.store import guard

    revision = verify(path, read_header(path), salvage=True).revision
    engine = read_only_engine(path, immutable=True)
    try:
        with guard(str(path)), engine.connect() as connection:
            names = [table.name for table in tables()]
            present = set(inspect(connection).get_table_names())
            metadata = reflected(connection, [name for name in names if name in present])
            own = [metadata.tables[name] for name in names if name in metadata.tables]
            _write(connection, str(path), revision, own, out)
    finally:
        engine.dispose()


def _write(
    connection: Connection, name: str, revision: str, exported: list[Table], out: Callable[[bytes | memoryview], Any]
) -> None:
    from models.export_checks import BackgroundChecks

    if connection.dialect.name != "sqlite":  # nothing to check: PostgreSQL keeps its own pages sound
        with no_collection():
            _write_tables(connection, name, revision, exported, out)
        return
    from models.export_split import helping

    with helping(connection, exported, name, out) as helper:  # before the checks' thread: a fork copies one thread
        checks = BackgroundChecks(connection, name, _damage)  # beside the rows (models.export_checks)
        try:
            with no_collection():
                _write_tables(connection, name, revision, exported, out, helper)
        except CampaignFileError:
            if helper is not None:
                helper.close()  # its work is of no use now: the check has both cores
            damage = checks.result()  # a damaged file's rows may fail first: the check's sentence is check's
            if damage:
                raise CampaignFileError(damage) from None
            raise
        except BaseException:
            checks.cancel()
            raise
    damage = checks.result()
    if damage:
        raise CampaignFileError(damage)


def _damage(connection: Connection, name: str) -> str | None:
    return integrity_problem(connection, name) or first_orphan(connection, name)


def _write_tables(
    connection: Connection,
    name: str,
    revision: str,
    exported: list[Table],
    out: Callable[[bytes | memoryview], Any],
    helper: Any = None,
) -> None:
    out(b'{\n  "format": %s,\n  "schema": %s,\n  "tables": {' % (orjson.dumps(FORMAT), orjson.dumps(revision)))
    for number, table in enumerate(exported):
        out(b"%s\n    %s: [" % (b"," if number else b"", orjson.dumps(table.name)))
        if helper is not None and helper.splits(table):  # written by two processes (models.export_split)
            empty = helper.write(table, out)
        else:
            empty = write_batches(_encoded_batches(connection, table, name), out)
        out(b"]" if empty else b"\n    ]")
    out(b"\n  }\n}\n")


# A batch of rows is written in one orjson call, nested as deep as a table's rows are in the
# export, then cut out of the wrapper: the same text as row by row, without a call per row.
WRAPPED = b'{\n  "t": {\n    "t": [\n', b"\n    ]\n  }\n}"


@contextmanager
def no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused while rows stream through.

    A batch of rows is a thousand dicts and lists that hold no cycles, freed by their
    reference counts; the collector would still walk them again and again as they are
    made, which doubled the time of an export or a check of a million events."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _deep_line() -> bytes:
    """A line of a batch's text indented this far is inside a JSON value nested MAX_JSON_DEPTH
    deep or more: a column's value opens at 8 spaces (WRAPPED, then the row), and each level
    of it indents its items 2 more; an empty list or object is written on its parent's line.
    So a text without such a line holds no value too deep."""
    from models.export_format import MAX_JSON_DEPTH

    return b"\n" + b" " * (8 + 2 * MAX_JSON_DEPTH)


def _encoded(batch: list[dict[str, Any]], table: Table, name: str) -> bytes:
    """A batch of rows as the export writes them, within WRAPPED."""
    try:
        return orjson.dumps({"t": {"t": batch}}, option=ROW)
    except orjson.JSONEncodeError as error:
        raise CampaignFileError(f"{name} is damaged: table {table.name!r} holds {error}") from None


def _shallow(batch: list[dict[str, Any]], deep: bytes) -> bytes | None:
    """`_encoded` of a batch whose JSON values are no deeper than MAX_JSON_DEPTH; None for any other."""
    try:
        text = orjson.dumps({"t": {"t": batch}}, option=ROW)
    except orjson.JSONEncodeError:
        return None
    return None if deep in text else text


def write_batches(encoded: Iterator[bytes], out: Callable[[bytes | memoryview], Any], empty: bool = True) -> bool:
    """Write a table's rows, batch by batch (`_encoded_batches`), after rows already written unless
    `empty`; whether it is empty still."""
    for body in bodies(encoded):
        out(b"\n" if empty else b",\n")
        out(body)
        empty = False
    return empty


def bodies(encoded: Iterator[bytes]) -> Iterator[bytes | memoryview]:
    """Each batch's rows as the export writes them, without WRAPPED: a table's batches are written
    one after the other, each after "\n" (a table's first) or ",\n" (`write_batches`)."""
    head, tail = WRAPPED
    for batch in encoded:  # never of no rows
        body = memoryview(batch)[len(head) : -len(tail)]  # no copy of the batch's text
        yield body if _is_inert(batch) else _inert(bytes(body))


# DEL, the C1 controls and the bidirectional controls (campaigns.text), as UTF-8.
_RAW_CONTROL = re.compile(rb"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def _is_inert(encoded: bytes) -> bool:
    # Each byte sought is 0x7f or above: ASCII text (a test of whole words in C) holds none.
    return encoded.isascii() or b"\x7f" not in encoded and b"\xc2" not in encoded and b"\xe2" not in encoded and b"\xd8" not in encoded


def _inert(encoded: bytes) -> bytes:
    """JSON escapes only the C0 controls; DEL and C1 are escaped too (\\u009b), so an export
    printed on a terminal cannot drive it, and so are the bidirectional controls (\\u202e),
    so that it cannot reorder what the terminal shows. The same text when read back."""
    if _is_inert(encoded):
        return encoded
    return _RAW_CONTROL.sub(lambda m: b"\\u%04x" % ord(m[0].decode()), encoded)


def dumps(store: CampaignStore) -> str:
    buffer = io.BytesIO()
    write(store, buffer.write)
    return buffer.getvalue().decode("utf-8")


def dump(store: CampaignStore) -> dict[str, Any]:
    """The campaign as a JSON-ready document."""
    return orjson.loads(dumps(store))


def load(target: Target, document: Any, *, source: str = "the export") -> CampaignStore:
    """Build a new campaign at `target` from an export; `source` names it in errors.

    Every row is checked against the export format (models.export_format) and every
    reference between rows is resolved before anything is written; a refused
    export leaves nothing at `target`.
    """
    revision = _revision(document, source)

    def fill(connection: Connection) -> None:
        schema.upgrade(connection, revision)
        metadata = reflected(connection)
        found = document["tables"]
        unknown = sorted(set(found) - set(metadata.tables) - {schema.VERSION_TABLE})
        if unknown:
            raise CampaignFileError(
                f"{source} has a table {unknown[0]!r} that schema {revision} does not have"
            )
        present = [t for t in metadata.sorted_tables if t.name in found and t.name != schema.VERSION_TABLE]
        for table in present:
            _validate(table, found[table.name], source)
        if len(found.get("campaign", [])) != 1:
            raise CampaignFileError(f"{source} must hold exactly one campaign row")
        _check_references(present, found, source)
        for table in present:
            _insert(connection, table, found[table.name], source)
        search.rebuild(connection)  # rows written in bulk: the history's index is built once
        tally.rebuild(connection)  # and the dice tally counted once (models.tally)
        event_units.rebuild(connection)  # and the units each event changed (models.event_units)
        if connection.dialect.name == "postgresql":
            # Check the rows' references now: PostgreSQL alters no table with checks pending.
            connection.execute(text("SET CONSTRAINTS ALL IMMEDIATE"))
            _advance_sequences(connection, metadata)
        schema.upgrade(connection)

    return build_new(target, fill)


def loads(target: Target, exported: str | bytes, *, source: str = "the export") -> CampaignStore:
    """Build a new campaign at `target` from the text of an export."""
    if len(exported) > LIMIT_BYTES:
        raise CampaignFileError(f"{source} is larger than {LIMIT_BYTES // 2**20} MB, more than any campaign")
    try:
        document = orjson.loads(exported)
    except orjson.JSONDecodeError as error:
        raise CampaignFileError(f"{source} is not JSON: {first_line(error)}") from None
    return load(target, document, source=source)


def read_limited(stream: IO[bytes], source: str, limit: int = LIMIT_BYTES) -> bytes:
    """Read an export of at most `limit` bytes; refuse at once what cannot be one."""
    first = stream.read(64 * 1024)
    if not first.lstrip()[:1] == b"{":
        raise CampaignFileError(f"{source} is not an Adjutant campaign export")
    chunks = [first]
    size = len(first)
    while size <= limit:
        chunk = stream.read(min(1 << 20, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise CampaignFileError(f"{source} is larger than {limit // 2**20} MB, more than any campaign")


def _revision(document: Any, source: str) -> str:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise CampaignFileError(f"{source} is not an Adjutant campaign export")
    unknown = sorted(set(document) - {"format", "schema", "tables"})
    if unknown:
        raise CampaignFileError(f"{source} has an unknown field {unknown[0]!r}")
    revision = document.get("schema")
    if not isinstance(revision, str) or not isinstance(document.get("tables"), dict):
        raise CampaignFileError(f"{source} is not an Adjutant campaign export: it lacks its schema or tables")
    if not schema.is_known(revision):
        if schema.REVISION_PATTERN.fullmatch(revision) and revision > schema.head():
            raise CampaignFileError(
                f"{source} was exported by a newer version of Adjutant (schema {int(revision)}); "
                "upgrade Adjutant to import it"
            )
        raise CampaignFileError(f"{source} names a schema Adjutant never had")
    return revision


def _validate(table: Table, rows: Any, source: str) -> None:
    from models.export_format import BadRow, validate_row

    if not isinstance(rows, list):
        raise CampaignFileError(f"{source}: table {table.name!r} is not a list of rows")
    keys = [column.name for column in table.primary_key.columns]
    seen: set[tuple[Any, ...]] = set()
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict):
            raise CampaignFileError(f"{source}: row {number} of {table.name!r} is not an object")
        try:
            validate_row(table, row)
        except BadRow as error:
            raise CampaignFileError(f"{source}: row {number} of {table.name!r} has {error.reason}") from None
        key = tuple(row.get(k) for k in keys)
        if key in seen:
            raise CampaignFileError(f"{source}: row {number} of {table.name!r} repeats the key of another row")
        seen.add(key)


def _check_references(present: list[Table], found: Mapping[str, Any], source: str) -> None:
    """Every foreign key names a row of the export (the database would refuse it at commit,
    in words a person cannot act on)."""
    for table in present:
        for key in table.foreign_keys:
            target = key.column
            known = {row.get(target.name) for row in found.get(target.table.name, [])}
            for number, row in enumerate(found[table.name], 1):
                value = row.get(key.parent.name)
                if value is not None and value not in known:
                    raise CampaignFileError(
                        f"{source}: row {number} of {table.name!r} names {key.parent.name} {value!r}, "
                        f"which is not in table {target.table.name!r}"
                    )


def _insert(connection: Connection, table: Table, rows: list[dict[str, Any]], source: str) -> None:
    # Written a thousand rows at a time, so the rows ready to write never double the document.
    batches: dict[frozenset[str], list[dict[str, Any]]] = {}
    for number, row in enumerate(rows, 1):
        try:
            batch = batches.setdefault(frozenset(row), [])
            batch.append(row_from_json(table, row))
        except (TypeError, ValueError) as error:
            raise CampaignFileError(
                f"{source}: row {number} of {table.name!r} has a bad value: {error}"
            ) from None
        if len(batch) >= READ_BATCH:
            connection.execute(table.insert(), batch)
            batch.clear()
    for batch in batches.values():
        if batch:
            connection.execute(table.insert(), batch)




def _advance_sequences(connection: Connection, metadata: MetaData) -> None:
    """Rows came with their ids, so move each id sequence past the largest one."""
    for table in metadata.sorted_tables:
        for column in table.primary_key.columns:
            sequence = connection.execute(
                text("SELECT pg_get_serial_sequence(:table, :column)"),
                {"table": table.name, "column": column.name},
            ).scalar()
            if sequence:
                largest = f'SELECT coalesce(max("{column.name}"), 0) FROM "{table.name}"'
                connection.execute(
                    text(f"SELECT setval(:sequence, ({largest}) + 1, false)"), {"sequence": sequence}
                )

"""The one gate every campaign file passes before anything runs on it.

A `.campaign` file may come from anyone: it is data, never code. SQLite keeps
code in a database too (triggers, views, CHECK constraints, generated columns,
expression indexes), so a file is opened only if its schema is exactly the one
Adjutant's own migrations produce for the revision the file claims: every table,
index, trigger and view in `sqlite_master`, with its SQL, is compared. The
expected schema is not a list kept by hand: the migrations are run on an empty
in-memory database and its `sqlite_master` read back (cached on disk, keyed by
the migration files and the library versions, because running Alembic costs
most of a second).

The gate reads the file through a read-only connection (`mode=ro`), with
`trusted_schema` off, so nothing in the file can run or change a byte while it
is being judged. Opening (models.opening), `check` (models.check) and every
command go through `verify`, so they agree on which files they refuse.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from models import schema
from models.engine import harden
from models.errors import CampaignFileError, first_line
from models.sqlite_header import SqliteHeader

# What sqlite_master holds: (type, name) -> (table it belongs to, its SQL, normalised).
Objects = dict[tuple[str, str], tuple[str, str | None]]

CLEAN_COPY = "`adjutant export --salvage` of it, then `adjutant import`, writes a clean copy"
# Tables SQLite itself may add to any database (ANALYZE, `PRAGMA optimize`): statistics the
# query planner reads, no code. Their SQL is fixed by SQLite, so it is still compared.
SQLITE_OWN = {
    ("table", "sqlite_stat1"): ("sqlite_stat1", "create table sqlite_stat1(tbl,idx,stat)"),
    ("table", "sqlite_stat4"): ("sqlite_stat4", "create table sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)"),
}


@dataclass(frozen=True)
class Verdict:
    """What the gate found in a file that it lets through."""

    revision: str
    user_version: int


def read_only_uri(path: Path, *, immutable: bool = False) -> str:
    """The URI that opens `path` read-only; `immutable` also ignores its journal or WAL files."""
    return f"{path.absolute().as_uri()}?mode=ro" + ("&immutable=1" if immutable else "")


@contextmanager
def read_only(path: Path, *, immutable: bool = False) -> Iterator[sqlite3.Connection]:
    """A connection that cannot change the file: SQLite opens it read-only."""
    try:
        connection = sqlite3.connect(read_only_uri(path, immutable=immutable), uri=True, isolation_level=None)
    except sqlite3.Error as error:
        raise CampaignFileError(f"{path} cannot be read: {error}") from None
    with closing(connection):
        connection.text_factory = bytes  # names and SQL from the file may not be UTF-8
        harden(connection)
        yield connection


def finish_rollback(path: Path) -> None:
    """Let SQLite roll back the change a killed process left in the file's `-journal`."""
    try:
        with closing(sqlite3.connect(path, isolation_level=None)) as connection:
            harden(connection)
            connection.execute("SELECT count(*) FROM sqlite_master").fetchall()
    except sqlite3.Error as error:
        raise CampaignFileError(f"{path} is damaged: {first_line(error)}") from None


def verify(path: Path, header: SqliteHeader, *, salvage: bool = False) -> Verdict:
    """Refuse the file unless its schema is exactly what our migrations make; its revision otherwise.

    With `salvage`, for reading its rows into an export and nothing else, objects
    Adjutant did not make (triggers, views, tables, indexes) and WAL mode are
    let through; Adjutant's own tables must still be exactly as its migrations
    make them. A read runs no trigger, and the export is checked like any other.
    """
    if header.wal and not salvage:
        # Reading a WAL file needs its -shm and -wal files, and the next write would fold them in:
        # Adjutant never writes one, so such a file was made by another program.
        raise CampaignFileError(f"{path} is in WAL mode, which Adjutant never writes; {CLEAN_COPY}")
    user_version = header.user_version
    try:
        with read_only(path, immutable=salvage) as connection:
            return _verify(connection, path, user_version, salvage)
    except sqlite3.Error as error:
        raise CampaignFileError(f"{path} is damaged: {first_line(error)}") from None
    except UnicodeDecodeError:  # SQLite's own message quoted the damaged, undecodable schema
        raise CampaignFileError(f"{path} is damaged: its schema cannot be read") from None


def _verify(connection: sqlite3.Connection, path: Path, user_version: int, salvage: bool) -> Verdict:
    found = _objects(connection)
    if ("table", schema.VERSION_TABLE) not in found:
        raise CampaignFileError(f"{path} is damaged: it carries no schema version")
    revision = _stored_revision(connection, path)
    if not schema.is_known(revision):
        newest = schema.head()
        if schema.REVISION_PATTERN.fullmatch(revision) and revision > newest:
            raise CampaignFileError(
                f"{path} was written by a newer version of Adjutant (schema {int(revision)}; this version "
                f"reads up to schema {int(newest)}); upgrade Adjutant to open it"
            )
        raise CampaignFileError(f"{path} is damaged: its schema version {_quoted(revision)} is not one Adjutant wrote")
    if user_version != schema.schema_number(revision):
        signed = user_version - (1 << 32) if user_version >= 1 << 31 else user_version
        raise CampaignFileError(
            f"{path} is damaged: its header says schema {signed} but its tables say schema "
            f"{schema.schema_number(revision)}"
        )
    expected = expected_objects(revision)
    if salvage:  # only Adjutant's own tables count: everything else is left unread
        expected = {key: value for key, value in expected.items() if key[0] == "table"}
        found = {key: value for key, value in found.items() if key in expected}
    mismatch = _first_difference(expected, found)
    if mismatch:
        raise CampaignFileError(f"{path} {mismatch}; {CLEAN_COPY}")
    rows = connection.execute("SELECT count(*) FROM campaign").fetchone()[0]
    if rows != 1:
        raise CampaignFileError(f"{path} is damaged: it holds {rows} campaign rows instead of one")
    # An older file is judged once migrated (its tables differ); a salvage reads what rows it can.
    if revision == schema.head() and not salvage:
        dangling = first_dangling(_raw_rows(connection), OPENING_TABLES)
        if dangling is not None:
            raise CampaignFileError(f"{path} is damaged: {dangling.sentence()}")
        shapeless = (
            campaign_options(_raw_rows(connection)) or battle_records(_raw_rows(connection))
            or sightings_learned(_raw_rows(connection))
        )
        if shapeless is not None:
            raise CampaignFileError(f"{path} is damaged: {shapeless}")
    return Verdict(revision, user_version)


# -- the battles' records, read item by item by every report ------------------------------

ROLES = ("attacker", "defender")


def campaign_options(rows: Rows) -> str | None:
    """What is wrong with the campaign's options, if they are not a JSON object (every command reads them)."""
    stored = rows("SELECT options FROM campaign", ())[0][0]
    try:
        value = json.loads(stored)
    except (TypeError, ValueError):
        value = _NOT_JSON
    if isinstance(value, dict):
        return None
    return f"the campaign row 1 holds in its column options {_not_what(value)}"


def sightings_learned(rows: Rows) -> str | None:
    """What is wrong with the first sighting whose record of what was learned is not a JSON object
    (a side's knowledge reads it key by key), if any: a few per turn, read at every opening."""
    for number, stored in rows("SELECT id, learned FROM sighting ORDER BY id", ()):
        try:
            value = json.loads(stored)
        except (TypeError, ValueError):
            value = _NOT_JSON
        if not isinstance(value, dict):
            return f"the sighting row {shown_value(number)} holds in its column learned {_not_what(value)}"
    return None


def battle_records(rows: Rows) -> str | None:
    """What is wrong with the first battle whose participants, losses or detail are not the record
    Adjutant writes, if any (a battle is a handful of rows: read at every opening).

    participants: an object; its attacker and defender, if there, {"side", "side_name", "units":
    {id: name}, "generals": [name]}; losses: an object; its "sides" and "units", if there,
    {name: SP}; detail: an object; its "setup", if there, an object and its "journal" a list."""
    shapes = (("participants", _participants), ("losses", _losses), ("detail", _detail))
    for number, *stored_values in rows("SELECT id, participants, losses, detail FROM battle ORDER BY id", ()):
        for (column, fits), stored in zip(shapes, stored_values, strict=True):
            try:
                value = json.loads(stored)
            except (TypeError, ValueError):
                value = _NOT_JSON
            if not fits(value):
                return f"the battle row {shown_value(number)} holds in its column {column} {_not_what(value)}"
    return None


_NOT_JSON = object()


def _not_what(value: object) -> str:
    if value is _NOT_JSON:
        return "text that is not JSON"
    return "a record that is not the one Adjutant writes"


def _text_map(value: object, of: type) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and type(v) is of for k, v in value.items())


def _participants(value: object) -> bool:
    """An object whose attacker and defender, where present, are what the reports read of them."""
    return isinstance(value, dict) and all(_part(value[role]) for role in ROLES if role in value)


def _part(part: object) -> bool:
    if not isinstance(part, dict):
        return False
    generals = part.get("generals", [])
    return (
        isinstance(part.get("side", ""), str) and isinstance(part.get("side_name", ""), str)
        and _text_map(part.get("units", {}), str)
        and isinstance(generals, list) and all(isinstance(name, str) for name in generals)
    )


def _detail(value: object) -> bool:
    """The set-up and the journal of its steps (campaigns.battles), or a tabletop's record: an object
    whose set-up, if any, is an object and whose journal, if any, a list."""
    return (
        isinstance(value, dict) and isinstance(value.get("setup", {}), dict)
        and isinstance(value.get("journal", []), list)
    )


def _losses(value: object) -> bool:
    """An object whose SP lost by side and by unit, where present, are whole numbers by name."""
    return isinstance(value, dict) and all(_text_map(value[part], int) for part in ("sides", "units") if part in value)


# -- rows that name rows that do not exist -----------------------------------------------

# The tables whose references are checked at every opening: a few hundred rows each, or
# bounded by turns and armies (a fraction of a millisecond at 50,000 units and a million events).
# The unit's two references are read from their indexes, one seek per general or nation named
# (SKIP_SCANS); the dice, the events and their notes are left to `adjutant check` (seconds at a
# million events).
OPENING_TABLES = ("nation", "army", "general", "turn", "command_point_roll", "command_point_spend",
                  "battle", "activation", "pontoon", "sighting", "side_order")
# References the schema does not declare, which the code follows as it follows a foreign key:
# (table, column, key of the table, the table named, its key).
SOFT_REFERENCES = (
    ("campaign", "turn", "id", "turn", "number"),
    ("campaign", "fog_side", "id", "side", "id"),
    ("army", "commander", "id", "general", "id"),
)
# The unit's references, each walked through its index one distinct value at a time.
SKIP_SCANS = (("unit", "nation", "nation"), ("unit", "general", "general"))
_SKIP_SCAN = """
WITH RECURSIVE named(value) AS (
    SELECT min({column}) FROM {table}
    UNION ALL SELECT (SELECT min({column}) FROM {table} WHERE {column} > named.value) FROM named
    WHERE named.value IS NOT NULL
)
SELECT (SELECT rowid FROM {table} WHERE {column} = named.value LIMIT 1) FROM named
WHERE value IS NOT NULL AND value NOT IN (SELECT id FROM {parent}) LIMIT 1
"""

Rows = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]


@dataclass(frozen=True)
class Dangling:
    """A row that names a row that does not exist: its table, its key, the column, the value named."""

    table: str
    key: str
    columns: str
    parent: str
    value: str

    def sentence(self) -> str:
        if not self.key:
            return f"a row of {self.table!r} points at a row of {self.parent!r} that does not exist"
        return f"{self.row_names()}, and there is no such {self.parent}"

    def row_names(self) -> str:
        return f"the {self.table} row {self.key} names {self.parent} {self.value} in its column {self.columns}"


def first_dangling(rows: Rows, tables: Sequence[str] | None = None) -> Dangling | None:
    """The first row that names a row that does not exist, in `tables` and the references checked
    at opening, or in every table when `tables` is None (SQLite reads every row that names another
    then: seconds at a million dice). `rows(sql, parameters)` runs a query on the file.

    SQLite enforces foreign keys only while Adjutant writes, so a file edited with `sqlite3`
    (foreign keys off by default) can hold one."""
    if tables is None:
        found = rows('SELECT "table", rowid, parent, fkid FROM pragma_foreign_key_check LIMIT 1', ())
    else:
        found = []
        for table in tables:
            found = rows('SELECT "table", rowid, parent, fkid FROM pragma_foreign_key_check(?) LIMIT 1', (table,))
            if found:
                break
    if found:
        table, rowid, parent, fkid = (_text(value) if isinstance(value, bytes) else value for value in found[0])
        columns = [_text(row[0]) for row in rows(
            'SELECT "from" FROM pragma_foreign_key_list(?) WHERE id = ? ORDER BY seq', (table, fkid))]
        return _described(rows, table, rowid, columns, parent)
    for table, column, _key, parent, parent_key in SOFT_REFERENCES:
        orphan = rows(
            f"SELECT rowid FROM {table} WHERE {column} IS NOT NULL AND {column} NOT IN "
            f"(SELECT {parent_key} FROM {parent}) LIMIT 1", ())
        if orphan:
            return _described(rows, table, orphan[0][0], [column], parent)
    for table, column, parent in SKIP_SCANS:
        orphan = rows(_SKIP_SCAN.format(table=table, column=column, parent=parent), ())
        if orphan and _confirmed(rows, table, orphan[0][0], column, parent):
            return _described(rows, table, orphan[0][0], [column], parent)
    return None


def _confirmed(rows: Rows, table: str, rowid: Any, column: str, parent: str) -> bool:
    """The row the index named holds, in the table itself, a value its parent lacks. A damaged
    index (its pages swapped with another's) names values the table does not hold: that is left
    to SQLite's integrity check, which `check` and `export` run and which names the index."""
    return bool(rows(
        f"SELECT 1 FROM {table} WHERE rowid = ? AND {column} IS NOT NULL AND {column} NOT IN (SELECT id FROM {parent})",
        (rowid,)))


def _described(rows: Rows, table: str, rowid: Any, columns: list[str], parent: str) -> Dangling:
    keys = [_text(row[0]) for row in rows("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", (table,))]
    wanted = ", ".join(_sql_name(column) for column in [*keys, *columns])
    values = rows(f"SELECT {wanted} FROM {_sql_name(table)} WHERE rowid = ?", (rowid,)) if wanted and rowid is not None else []
    if not values or not columns:
        return Dangling(table, "", "", parent, "")
    shown = [shown_value(value) for value in values[0]]
    return Dangling(table, ", ".join(shown[: len(keys)]), ", ".join(columns), parent, ", ".join(shown[len(keys):]))


def _raw_rows(connection: sqlite3.Connection) -> Rows:
    return lambda sql, parameters: connection.execute(sql, parameters).fetchall()


def _sql_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def shown_value(value: object, limit: int = 40) -> str:
    """A value from the file as a sentence quotes it: short (a name may be 100,000 characters)."""
    text = repr(_text(value) if isinstance(value, bytes) else value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _stored_revision(connection: sqlite3.Connection, path: Path) -> str:
    rows = connection.execute(f"SELECT version_num, typeof(version_num) FROM {schema.VERSION_TABLE}").fetchall()
    if len(rows) != 1 or rows[0][1] != b"text":
        raise CampaignFileError(f"{path} is damaged: its schema version is not a single revision")
    return rows[0][0].decode("utf-8", "replace")


def _objects(connection: sqlite3.Connection) -> Objects:
    found: Objects = {}
    for kind, name, table, sql in connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"):
        key = (_text(kind), _text(name))
        found[key] = (_text(table), None if sql is None else normalise(_text(sql)))
    return found


def _first_difference(expected: Objects, found: Objects) -> str | None:
    allowed = {**expected, **SQLITE_OWN}
    for key in sorted(found, key=lambda key: (key[0] != "table", key)):
        kind, name = key
        if key not in allowed:
            return f"holds {_article(kind)} {kind} {_quoted(name)} that Adjutant did not make"
        if found[key] != allowed[key]:
            return f"holds {_article(kind)} {kind} {_quoted(name)} that differs from the one Adjutant makes"
    for kind, name in sorted(set(expected) - set(found)):
        return f"is damaged: it lacks the {kind} {_quoted(name)}"
    return None


def normalise(sql: str) -> str:
    """SQL text as compared: case, quotes around names and runs of white space do not count
    (SQLite rewrites a renamed table's SQL, quoting its name differently across versions)."""
    return " ".join(sql.replace('"', " ").replace("`", " ").replace("(", " ( ").replace(")", " ) ").lower().split())


def expected_objects(revision: str) -> Objects:
    return _expected_all()[revision]


@cache
def _expected_all() -> dict[str, Objects]:
    key = _cache_key()
    cached = _read_cache(key)
    if cached is None:
        cached = {revision: _migrate_in_memory(revision) for revision in schema.revisions()}
        _write_cache(key, cached)
    return cached


def _migrate_in_memory(revision: str) -> Objects:
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    engine = create_engine("sqlite://", poolclass=StaticPool)
    try:
        with engine.begin() as connection:
            schema.upgrade(connection, revision)
            raw = connection.connection.driver_connection
            assert isinstance(raw, sqlite3.Connection)
            raw.text_factory = bytes
            return _objects(raw)
    finally:
        engine.dispose()


def _cache_key() -> str:
    digest = hashlib.sha256()
    for path in sorted((schema.MIGRATIONS / "versions").glob("*.py")) + [schema.MIGRATIONS / "__init__.py"]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for package in ("sqlalchemy", "alembic", "sqlmodel"):
        # Each package's __init__.py, which names its version: found without importing it
        # (alembic and sqlmodel are not imported to open a file) and without reading every
        # installed package's metadata (importlib.metadata.version: 5-10 ms of each start).
        spec = find_spec(package)
        origin = spec.origin if spec is not None else None
        try:
            digest.update(package.encode() + b"\0" + (Path(origin).read_bytes() if origin else b""))
        except OSError:
            digest.update(package.encode())
    digest.update(sqlite3.sqlite_version.encode())
    return digest.hexdigest()[:24]


def _cache_file(key: str) -> Path:
    from platformdirs import user_cache_dir

    folder = os.environ.get("ADJUTANT_CACHE_DIR") or user_cache_dir("adjutant")
    return Path(folder) / f"schema-{key}.json"


def _read_cache(key: str) -> dict[str, Objects] | None:
    try:
        document = json.loads(_cache_file(key).read_text(encoding="utf-8"))
        return {
            revision: {(kind, name): (table, sql) for kind, name, table, sql in rows}
            for revision, rows in document.items()
        }
    except (OSError, ValueError, TypeError):
        return None


def _write_cache(key: str, objects: dict[str, Objects]) -> None:
    document: dict[str, Any] = {
        revision: sorted([kind, name, table, sql] for (kind, name), (table, sql) in found.items())
        for revision, found in objects.items()
    }
    path = _cache_file(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps(document), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass  # no cache folder: the gate still works, it just migrates in memory at each start


def _text(value: bytes | str | None) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def _quoted(name: str) -> str:
    return "`" + name.replace("`", "'") + "`"


def _article(kind: str) -> str:
    return "an" if kind[0] in "aeiou" else "a"



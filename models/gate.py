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
from typing import Any, Iterator

from models import schema
from models.engine import harden
from models.errors import CampaignFileError
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
        raise CampaignFileError(f"{path} is damaged: {_first_line(error)}") from None


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
        raise CampaignFileError(f"{path} is damaged: {_first_line(error)}") from None
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
    return Verdict(revision, user_version)


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


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__

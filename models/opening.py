"""Open a campaign (migrating an older one after a backup) and build new ones.

Opening never writes to anything that is not an Adjutant campaign at a schema
this version knows: a file is recognised from its header first
(models.sqlite_header), then its whole schema is compared with the one our
migrations make (models.gate), a database is recognised from its Alembic
version, and only then is a campaign of an older schema backed up beside itself
and migrated, in one transaction. A migration that fails leaves the file as it
was and removes the backup it made, so retrying never piles up backups.

A new campaign file is built under a temporary name in the same folder and then
linked into place, so a crash while building leaves no half-made campaign and an
existing file is never overwritten.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, Table, inspect, text
from sqlalchemy.engine import URL

from models import schema
from models.clock import utcnow
from models.copies import copy_exact, fsync_folder, temporary_path
from models.engine import make_engine, writer
from models.errors import CampaignFileError
from models.gate import finish_rollback, verify
from models.sqlite_header import hot_journal, read_header
from models.store import CampaignStore, guard
from models.targets import Target, describe, sqlite_path, to_url

if TYPE_CHECKING:  # opening a campaign needs no SQLModel class (see models.store)
    from sqlmodel import SQLModel

    from models.tables import Campaign


def open_campaign(target: Target) -> CampaignStore:
    """Open the campaign in a `.campaign` file or at a database URL."""
    url = to_url(target)
    path = sqlite_path(url)
    revision = None
    if path is not None:
        header = read_header(path)
        if hot_journal(path):  # a process was killed mid-write: SQLite rolls the change back first
            finish_rollback(path)
            header = read_header(path)
        revision = verify(path, header).revision
    engine = make_engine(url, existing=path)
    try:
        with guard(describe(url)):
            revision = revision or _revision(engine, url)
            if revision != schema.head():
                _migrate(engine, url, revision)
            with engine.connect() as connection:
                version = connection.execute(text("SELECT version FROM campaign WHERE id = 1")).scalar()
        if version is None:
            raise CampaignFileError(f"{describe(url)} holds no campaign")
    except BaseException:
        engine.dispose()
        raise
    return CampaignStore(engine, url, version)


def build_new(target: Target, fill: Callable[[Connection], None]) -> CampaignStore:
    """Create a campaign at `target` (which must not exist or be empty) and open it.

    `fill` writes the campaign's rows on a connection whose transaction also
    creates the schema; it is handed an empty database at schema `schema.head()`
    unless it migrates further itself.
    """
    url = to_url(target)
    path = sqlite_path(url)
    if path is None:
        _build(url, fill, describe(url))
        return open_campaign(url)
    if path.exists():
        raise CampaignFileError(f"{path} already exists; choose another name or remove it first")
    if not path.parent.is_dir():
        raise CampaignFileError(f"{path.parent} is not a folder")
    temporary = temporary_path(path)
    try:
        _build(to_url(temporary), fill, str(path))
        _link_new(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
        Path(f"{temporary}-journal").unlink(missing_ok=True)
    try:
        return open_campaign(path)
    except CampaignFileError:
        path.unlink(missing_ok=True)  # made by this call and unusable: leave nothing under the name
        raise


def _build(url: URL, fill: Callable[[Connection], None], name: str) -> None:
    """Fill the database at `url`; errors name the campaign as `name`, never a temporary file."""
    engine = make_engine(url)
    try:
        with guard(name), writer(engine).begin() as connection:
            if inspect(connection).get_table_names():
                raise CampaignFileError(f"{name} already holds tables; a new campaign needs an empty database")
            fill(connection)
    finally:
        engine.dispose()


def _link_new(temporary: Path, path: Path) -> None:
    """Give the finished file its name, failing if that name was taken meanwhile."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise CampaignFileError(f"{path} already exists; choose another name or remove it first") from None
    except OSError:  # a file system without hard links
        if path.exists():
            raise CampaignFileError(
                f"{path} already exists; choose another name or remove it first"
            ) from None
        os.replace(temporary, path)
    fsync_folder(path.parent)


def _refuse_newer(name: str, number: int) -> None:
    newest = schema.schema_number(schema.head())
    if number > newest:
        raise CampaignFileError(
            f"{name} was written by a newer version of Adjutant (schema {number}; this version reads up to "
            f"schema {newest}); upgrade Adjutant to open it"
        )


def _revision(engine: Engine, url: URL) -> str:
    name = describe(url)
    with engine.connect() as connection:
        revision = schema.current_revision(connection)
        if revision is None:
            if sqlite_path(url) is not None:
                raise CampaignFileError(f"{name} is damaged: it carries no schema version")
            if not inspect(connection).get_table_names():
                raise CampaignFileError(f"{name} holds no campaign yet; create one with `adjutant new`")
            raise CampaignFileError(f"{name} holds something other than an Adjutant campaign")
    if not schema.is_known(revision):
        _refuse_newer(name, max(schema.schema_number(revision), schema.schema_number(schema.head()) + 1))
    return revision


def _migrate(engine: Engine, url: URL, revision: str) -> None:
    """Back the file up beside itself, then migrate it to the head in one transaction."""
    path = sqlite_path(url)
    backup = None
    if path is not None:
        backup = backup_path(path, schema.schema_number(revision))
        copy_exact(path, backup)
    logging.getLogger("adjutant.migrate").info(
        "migrating %s from schema %s to %s (backup: %s)", describe(url), revision, schema.head(), backup
    )
    try:
        with writer(engine).begin() as connection:
            if connection.dialect.name == "postgresql":  # another umpire may be migrating it too
                connection.execute(text(f"LOCK TABLE {schema.VERSION_TABLE} IN EXCLUSIVE MODE"))
            if schema.current_revision(connection) != schema.head():
                schema.upgrade(connection)
    except BaseException:
        if backup is not None:  # the transaction rolled back: the file is its own backup
            backup.unlink(missing_ok=True)
        raise


def backup_path(path: Path, number: int) -> Path:
    """NAME.campaign.bak-vN beside the file, or .bak-vN-2, -3... if an older backup is kept there."""
    candidate = path.with_name(f"{path.name}.bak-v{number}")
    count = 1
    while candidate.exists():
        count += 1
        candidate = path.with_name(f"{path.name}.bak-v{number}-{count}")
    return candidate


def create_store(
    target: Target, campaign: Campaign, rows: Iterable[SQLModel], description: str,
    copied: Iterable[tuple[Table, Iterable[Sequence[dict[str, Any]]]]] = (),
) -> CampaignStore:
    """Create a campaign at `target` holding `campaign` and `rows`, with a first
    event of kind "setup" (which cannot be undone), and open it.

    `copied`: a table and its rows as plain values, a batch at a time, written after
    `rows` without an ORM object each (a despatch's thousands of units)."""
    from sqlalchemy.orm import Session

    from models.tables import Event

    def fill(connection: Connection) -> None:
        schema.upgrade(connection)
        session = Session(bind=connection)
        session.add(campaign)
        session.add_all(rows)
        session.add(Event(when=utcnow(), kind="setup", description=description))
        session.flush()
        for table, batches in copied:
            for batch in batches:
                if batch:
                    connection.execute(table.insert(), list(batch))
        session.flush()
        # The foreign keys are deferred to the commit, which says only "FOREIGN KEY constraint
        # failed": rows copied from a hand-edited file may name a row left behind. Named here.
        from models.check import DanglingRow, first_dangling  # the despatch's alone: `log` opens without it

        dangling = first_dangling(connection)
        if dangling is not None:
            raise DanglingRow(dangling)

    return build_new(target, fill)

"""Save a campaign under another name: an atomic copy, the original stays open."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import URL

from models.copies import copy_sqlite, write_atomically
from models.errors import CampaignFileError
from models.exchange import dump, load
from models.opening import open_campaign
from models.sqlite_header import read_header
from models.store import CampaignStore, guard
from models.targets import Target, is_url


def save_as(source: CampaignStore | Target, destination: Target) -> Path:
    """Copy the campaign to the file `destination`, replacing it if it exists.

    A campaign file is copied with SQLite's backup API; a campaign in PostgreSQL
    is written out row by row. Either way the copy is built under a temporary
    name beside `destination` and renamed over it, so `destination` is always
    either the old file or the complete copy.
    """
    if isinstance(destination, URL) or is_url(destination):
        raise CampaignFileError("save-as writes a .campaign file, not a database")
    path = Path(destination).expanduser().absolute()
    if not path.parent.is_dir():
        raise CampaignFileError(f"{path.parent} is not a folder")
    if isinstance(source, CampaignStore):
        _save_store(source, path)
    elif isinstance(source, URL) or is_url(source):
        with open_campaign(source) as store:
            _save_store(store, path)
    else:
        original = Path(source).expanduser().absolute()
        read_header(original)
        _refuse_same(original, path)
        copy_sqlite(original, path)
    return path


def _save_store(store: CampaignStore, path: Path) -> None:
    if not store.is_sqlite:
        document = dump(store)
        write_atomically(path, lambda temporary: load(temporary, document).close())
        return
    _refuse_same(Path(store.url.database or ""), path)
    with guard(store.name):
        connection = store.engine.raw_connection()
        try:
            copy_sqlite(connection.driver_connection, path)  # type: ignore[arg-type]  # an sqlite3 connection: the store is a file
        finally:
            connection.close()


def _refuse_same(original: Path, path: Path) -> None:
    if path.exists() and os.path.samefile(original, path):
        raise CampaignFileError(f"{path} is the campaign itself; choose another name to save a copy")

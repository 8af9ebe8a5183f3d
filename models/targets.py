"""Where a campaign lives: a `.campaign` file or a database URL."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from models.errors import CampaignFileError

SUFFIX = ".campaign"
Target = str | os.PathLike[str] | URL


def is_url(target: Target) -> bool:
    return isinstance(target, URL) or "://" in os.fspath(target)


def to_url(target: Target) -> URL:
    """The SQLAlchemy URL of a campaign file path or database URL.

    A bare ``postgresql://`` URL gets the psycopg (version 3) driver, the one
    Adjutant installs.
    """
    if isinstance(target, URL):
        url = target
    elif not is_url(target):
        return URL.create("sqlite", database=str(Path(target).expanduser().absolute()))
    else:
        try:
            url = make_url(os.fspath(target))
        except ArgumentError:
            raise CampaignFileError(f"{os.fspath(target)!r} is not a database URL") from None
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise CampaignFileError(
            f"{url.get_backend_name()} databases are not supported; use a .campaign file or PostgreSQL"
        )
    return url


def sqlite_path(url: URL) -> Path | None:
    """The file of a SQLite URL; None for other databases."""
    if url.get_backend_name() != "sqlite":
        return None
    if not url.database or url.database == ":memory:":
        raise CampaignFileError("a campaign needs a file, not an in-memory database")
    return Path(url.database)


def describe(url: URL) -> str:
    """How messages name the campaign: its file, or its URL without the password."""
    path = sqlite_path(url)
    return str(path) if path else url.render_as_string(hide_password=True)

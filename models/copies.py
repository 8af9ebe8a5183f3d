"""Atomic copies of campaign files: the copy appears complete, or not at all.

Each copy is written under a hidden temporary name beside its destination,
synced to disk and renamed over it, so a crash mid-copy leaves the destination
as it was.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

from models.errors import CampaignFileError


def write_atomically(destination: Path, write: Callable[[Path], None]) -> None:
    """Let `write` build a file at a temporary path, then put it at `destination`."""
    temporary = destination.with_name(f".{destination.name}.{os.getpid()}.tmp")
    try:
        write(temporary)
        with temporary.open("rb+") as file:
            os.fsync(file.fileno())
        os.replace(temporary, destination)
        fsync_folder(destination.parent)
    except sqlite3.Error as error:
        raise CampaignFileError(f"cannot write {destination}: {error}") from None
    except OSError as error:
        raise CampaignFileError(f"cannot write {destination}: {error.strerror or error}") from None
    finally:
        temporary.unlink(missing_ok=True)
        Path(f"{temporary}-journal").unlink(missing_ok=True)


def copy_sqlite(source: Path | sqlite3.Connection, destination: Path) -> None:
    """Copy a database with SQLite's backup API: a consistent snapshot, even while others write."""

    def backup(temporary: Path) -> None:
        reader = sqlite3.connect(source) if isinstance(source, Path) else source
        try:
            with sqlite3.connect(temporary) as writer:
                reader.backup(writer)
            writer.close()
        finally:
            if reader is not source:
                reader.close()

    write_atomically(destination, backup)


def copy_exact(source: Path, destination: Path) -> None:
    """Copy a SQLite file byte for byte, holding a read lock so that no writer changes it meanwhile."""

    def copy(temporary: Path) -> None:
        reader = sqlite3.connect(source, isolation_level=None)
        try:
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM sqlite_master")  # takes the shared lock
            shutil.copyfile(source, temporary)
            reader.execute("ROLLBACK")
        finally:
            reader.close()

    write_atomically(destination, copy)


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new file in `folder` survive a power cut (POSIX only)."""
    if os.name != "posix":
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)

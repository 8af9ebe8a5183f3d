"""Atomic copies of campaign files: the copy appears complete, or not at all.

Each copy is written under a hidden temporary name beside its destination,
synced to disk and renamed over it, so a crash mid-copy leaves the destination
as it was. The temporary name says what it is and whose it is
(`.NAME.adjutant-tmp-PID`), so a later run sweeps up what a killed process left.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

from models.errors import CampaignFileError


TEMPORARY_MARK = "adjutant-tmp"
# Also the names earlier versions gave them (.NAME.PID.new, .NAME.PID.tmp), which nothing swept.
_LEFTOVER = re.compile(
    r"\.(?P<name>.+)\.(?:adjutant-tmp-(?P<pid>[0-9]+)|(?P<old>[0-9]+)\.(?:new|tmp))(?:-journal|-wal|-shm)?"
)


def temporary_path(destination: Path) -> Path:
    """Where a file for `destination` is built before it takes its name."""
    sweep_leftovers(destination)
    return destination.with_name(f".{destination.name}.{TEMPORARY_MARK}-{os.getpid()}")


def sweep_leftovers(destination: Path) -> None:
    """Remove the temporary files for `destination` that processes no longer running left behind."""
    try:
        candidates = list(destination.parent.glob(f".{glob_escape(destination.name)}.*"))
    except OSError:
        return
    for candidate in candidates:
        match = _LEFTOVER.fullmatch(candidate.name)
        if match and match["name"] == destination.name and not _running(int(match["pid"] or match["old"])):
            candidate.unlink(missing_ok=True)


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except PermissionError:  # another user's process
        return True
    except (ProcessLookupError, OverflowError):
        return False
    return True


def write_atomically(destination: Path, write: Callable[[Path], None]) -> None:
    """Let `write` build a file at a temporary path, then put it at `destination`.

    A destination that is there but is no plain file (a folder, a device such as
    /dev/null, a named pipe) is refused: the rename would put a campaign file in its
    place (run as root, in place of /dev/null)."""
    try:
        mode = destination.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise CampaignFileError(f"cannot write {destination}: {error.strerror or error}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise CampaignFileError(f"cannot write {destination}: it is not a file (a folder, a device or a pipe); name a new file")
    temporary = temporary_path(destination)
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

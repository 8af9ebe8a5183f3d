"""Recognise a campaign file from its first bytes, before SQLite touches it.

Reading the 100-byte SQLite header with plain file I/O tells an empty file, a
file that is not SQLite, a SQLite database of another program (its
application_id is not Adjutant's), a truncated file and a file from a newer
Adjutant (its user_version is above ours) apart without opening the file as a
database, so such a file is never locked, journalled or changed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from models.errors import CampaignFileError

MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
# "ADJT": every campaign file carries it in PRAGMA application_id from schema 1 on.
APPLICATION_ID = 0x41444A54


@dataclass(frozen=True)
class SqliteHeader:
    page_size: int | None  # None when the header's page size is impossible
    page_count: int | None  # as the header states it; None when the header says it is stale
    application_id: int
    user_version: int  # the schema number the file was last migrated to
    wal: bool = False  # the file is in WAL mode (header bytes 18-19 are 2)


def read_header(path: Path) -> SqliteHeader:
    """The header of an Adjutant campaign file; CampaignFileError for anything else."""
    try:
        size = path.stat().st_size
        with path.open("rb") as file:
            head = file.read(HEADER_SIZE)
    except FileNotFoundError:
        raise CampaignFileError(f"{path} does not exist") from None
    except IsADirectoryError:
        raise CampaignFileError(f"{path} is a folder, not a campaign file") from None
    except OSError as exc:
        raise CampaignFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if size == 0:
        raise CampaignFileError(f"{path} is empty, not a campaign file")
    if not head.startswith(MAGIC[: len(head)]):
        raise CampaignFileError(f"{path} is not an Adjutant campaign file (it is not a SQLite database)")
    if len(head) < HEADER_SIZE:
        raise CampaignFileError(f"{path} is truncated: it ends inside its header")
    header = _parse(head)
    if header.application_id != APPLICATION_ID:
        raise CampaignFileError(f"{path} is a SQLite database of another program, not an Adjutant campaign")
    if header.page_size is None:
        raise CampaignFileError(f"{path} is damaged: its header is corrupt")
    if not hot_journal(path) and (
        size % header.page_size
        or (header.page_count is not None and header.page_count * header.page_size > size)
    ):
        raise CampaignFileError(f"{path} is truncated or damaged: it is shorter than its header says")
    return header


def _parse(head: bytes) -> SqliteHeader:
    def number(start: int, length: int = 4) -> int:
        return int.from_bytes(head[start : start + length], "big")

    raw_page_size = number(16, 2)
    page_size = 65536 if raw_page_size == 1 else raw_page_size
    valid = 512 <= page_size <= 65536 and page_size & (page_size - 1) == 0
    # The in-header page count is only trusted when written by the same change as the header.
    page_count = number(28) if number(92) == number(24) else None
    return SqliteHeader(
        page_size=page_size if valid else None,
        page_count=page_count,
        application_id=number(68),
        user_version=number(60),
        wal=2 in (head[18], head[19]),
    )


def hot_journal(path: Path) -> bool:
    """A rollback journal left by a process killed mid-commit: SQLite restores the
    file from it on the next open, so the file's size says nothing until then."""
    journal = Path(os.fspath(path) + "-journal")
    try:
        return journal.stat().st_size > 0
    except OSError:
        return False

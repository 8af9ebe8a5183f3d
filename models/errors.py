"""The errors of the storage layer: each carries one sentence a person can act on."""

from __future__ import annotations


class StoreError(Exception):
    """Something went wrong with a campaign's storage."""


class CampaignFileError(StoreError):
    """The target is not a campaign this version of Adjutant can open.

    Raised for a missing file, an empty, truncated or corrupted file, a file that
    is not SQLite, a SQLite database of another program, a campaign written by a
    newer Adjutant, and a database that cannot be reached. The file is left as it was.
    """


class ConcurrentEditError(StoreError):
    """Another umpire changed the campaign since this store last read it."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message or "another umpire changed the campaign since you opened it; reload and try again"
        )


class NothingToUndo(StoreError):
    """Undo or redo was asked for with nothing to undo or redo."""

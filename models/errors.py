"""The errors of the storage layer: each carries one sentence a person can act on."""

from __future__ import annotations

import re

# What a database's own message may quote from a hostile file (SQLite: 'unrecognized token: "\x1a"'):
# C0 controls, DEL, the C1 controls, lone surrogates and the bidirectional controls, each written out.
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def first_line(error: BaseException) -> str:
    """The first line of a database's error (a DBAPIError's original), as a sentence may quote it:
    each control character in it written out ("<U+001A>"), so nothing in it reaches a terminal raw."""
    original = getattr(error, "orig", None) or error
    lines = str(original).strip().splitlines()
    line = lines[0] if lines else type(original).__name__
    return _UNSHOWABLE.sub(lambda found: f"<U+{ord(found.group()):04X}>", line)


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


PERMISSION_DENIED = "42501"  # PostgreSQL's SQLSTATE for insufficient_privilege


def refused_to_role(name: str, error: BaseException) -> str | None:
    """One sentence for PostgreSQL's "permission denied" (a club's side role running an umpire's
    command, `adjutant club setup`'s row-level security at work), None for any other error: the
    campaign is not damaged, the role may not read or change that."""
    cause = getattr(error, "orig", None) or error
    if getattr(cause, "sqlstate", None) != PERMISSION_DENIED:
        return None
    said = first_line(cause)
    return (
        f"{name}: the role it connects as may not do this ({said}); a side's role opens its side's view "
        "(adjutant --side SIDE --db URL), and what the umpires' role may not (a migration, club setup) is "
        "the campaign owner's"
    )

"""The undo and redo marks of every action ("undone #15", "redone #16"), for the
history screen and the log.

Finding every one reads every undo and redo event, through the index of those
events alone (`ix_event_replays`, migration 0009: under a millisecond at a million
events, where the scan of the whole history it replaced took 0.1-0.8 s); every
query of them says `kind IN ('undo', 'redo')` as the index does, or it is not used.
The history reads those of the events it shows (kept_marks), keeps them for the
version of the campaign (an action, undo or redo moves it on), and the app reads
the rest ahead in a thread once the umpire pauses (tui.app). Plain SQL, nothing
of the SQLModel tables.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text

from campaigns.errors import plainly
from models.journal import target

if TYPE_CHECKING:
    from campaigns.session import CampaignSession

REPLAY_EVENTS = text(
    "SELECT id, kind, changes FROM event WHERE id > :after AND id <= :upto AND kind IN ('undo', 'redo') ORDER BY id"
)
NEWEST = 2**63 - 1  # beyond any event's id


def replay_marks(db: Connection, after: int = 0, upto: int = NEWEST) -> dict[int, list[str]]:
    """For each action undone or redone: "undone #15", "redone #16", in order; from the
    undo and redo events after event `after` up to event `upto` (by default all)."""
    marks: dict[int, list[str]] = {}
    for number, kind, changes in db.execute(REPLAY_EVENTS, {"after": after, "upto": upto}):
        action = target(changes)
        if action is not None:
            marks.setdefault(action, []).append(f"{'undone' if kind == 'undo' else 'redone'} #{number}")
    return marks


# The marks by session: (the campaign version they were read at, the event they were
# read after, the marks). An action is undone or redone only after it was taken, so
# the undo and redo events after event N hold every mark of the actions from N on:
# a page of the history reads those of the events after its oldest one, a range of
# the table's key, not a scan of the whole history (the newest page: a few rows).
_MARKS: weakref.WeakKeyDictionary[CampaignSession, tuple[int, int, dict[int, list[str]]]] = weakref.WeakKeyDictionary()


def kept_marks(session: CampaignSession, db: Connection, version: int, after: int = 0) -> dict[int, list[str]]:
    """The marks of every action from event `after` on, as of `version`: those kept when
    they were read at that version, those older than the kept ones read and put first."""
    kept = _MARKS.get(session)
    if kept is None or kept[0] != version:
        kept = (version, after, replay_marks(db, after))
    elif after < kept[1]:
        marks = replay_marks(db, after, kept[1])
        for action, later in kept[2].items():
            marks.setdefault(action, []).extend(later)
        kept = (version, after, marks)
    else:
        return kept[2]
    _MARKS[session] = kept
    return kept[2]


def read_ahead(session: CampaignSession) -> None:
    """Read every mark of the campaign as it is now: a word the history's filter finds
    in an old event then finds its marks kept."""
    with plainly(), session.store.connect() as db:
        kept_marks(session, db, session.version())

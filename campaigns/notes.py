"""Bookmarks and notes on the events of the history: each added or removed is one action."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlmodel import col

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from models import Event, EventNote
from models.clock import utcnow

BOOKMARK, NOTE = "bookmark", "note"
LONGEST = 2000  # characters of a note: a paragraph, not a file


@dataclass(frozen=True)
class Marked:
    id: int
    event: int
    description: str  # the event's, for the reader
    kind: str
    text: str
    when: datetime


def _event(db, event_id: int) -> Event:
    event = db.get(Event, event_id)
    if event is None:
        raise CampaignError(f"there is no event #{event_id}")
    if event.undone:  # the next action forgets undone events, and would take the mark with them
        raise CampaignError(f"#{event_id} is undone: redo it to mark it")
    return event


def toggle_bookmark(session: CampaignSession, event_id: int) -> str:
    """Bookmark the event, or take its bookmark off."""
    with plainly(), session.store.read() as db:
        event = _event(db, event_id)
        existing = db.scalars(select(col(EventNote.id)).where(col(EventNote.event) == event_id, col(EventNote.kind) == BOOKMARK)).first()
        description = event.description
    if existing is not None:
        with plainly(), session.store.action(f"Bookmark taken off #{event_id}") as db:
            db.delete(db.get_one(EventNote, existing))
        return f"Bookmark taken off #{event_id}"
    with plainly(), session.store.action(f"Bookmark on #{event_id}") as db:
        db.add(EventNote(event=event_id, kind=BOOKMARK, text="", when=utcnow()))
    return f"Bookmarked #{event_id}: {description}"


def add_note(session: CampaignSession, event_id: int, text: str) -> str:
    cleaned = text.strip()
    if not cleaned:
        raise CampaignError("a note needs some text")
    if len(cleaned) > LONGEST:
        raise CampaignError(f"a note is at most {LONGEST} characters, not {len(cleaned)}")
    with plainly(), session.store.read() as db:
        _event(db, event_id)
    with plainly(), session.store.action(f"Note on #{event_id}") as db:
        db.add(EventNote(event=event_id, kind=NOTE, text=cleaned, when=utcnow()))
    return f"Note added to #{event_id}"


def marked(session: CampaignSession) -> list[Marked]:
    """Every bookmark and note, in the order of the events they mark."""
    with plainly(), session.store.read() as db:
        rows = db.execute(
            select(EventNote, col(Event.description)).join(Event, col(Event.id) == col(EventNote.event)).order_by(col(EventNote.event), col(EventNote.id))
        ).all()
    return [Marked(n.id, n.event, d, n.kind, n.text, n.when) for n, d in rows]

"""The history as the umpire reads it: events and rolls, newest first, filterable."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from campaigns.changes import Names, change_lines, load
from campaigns.errors import plainly
from campaigns.log import dice_line, replay_marks, stored_dice
from campaigns.session import CampaignSession
from models import DiceRoll, Event
from models.journal import REPLAYS, target

LIMIT = 200  # the newest lines that match; the log command prints everything
WIDTH = 60  # a value longer than this is cut on screen; `adjutant log` prints it whole


@dataclass(frozen=True)
class Entry:
    ref: str
    when: str
    text: str


def entries(session: CampaignSession, text: str = "", *, dice_only: bool = False, limit: int = LIMIT) -> list[Entry]:
    """The newest events, each with its rolls, and rolls on their own when `dice_only`.

    The filter runs in the database, so a word finds a change however old it is."""
    needle = text.strip()
    like = f"%{needle}%"
    with plainly(), session.store.read() as db:
        rolls_query = select(DiceRoll).order_by(DiceRoll.id.desc()).limit(limit)  # type: ignore[union-attr]
        if dice_only:
            if needle:
                rolls_query = rolls_query.where(DiceRoll.purpose.ilike(like))  # type: ignore[attr-defined]
            rolls = list(db.scalars(rolls_query))
            return [Entry(f"d{r.id}", _when(r.when), dice_line(r)) for r in rolls]
        events_query = select(Event).order_by(Event.id.desc()).limit(limit)  # type: ignore[union-attr]
        if needle:
            # An event matches by its description or by one of its rolls.
            rolled = select(DiceRoll.event).where(DiceRoll.purpose.ilike(like))  # type: ignore[attr-defined]
            events_query = events_query.where(Event.description.ilike(like) | Event.id.in_(rolled))  # type: ignore[attr-defined,union-attr]
        events = list(db.scalars(events_query))
        ids = [e.id for e in events]
        rolls = list(db.scalars(select(DiceRoll).where(DiceRoll.event.in_(ids)).order_by(DiceRoll.id.desc()))) if ids else []  # type: ignore[union-attr]
    by_event: dict[int | None, list[DiceRoll]] = {}
    for roll in rolls:
        by_event.setdefault(roll.event, []).append(roll)
    with plainly(), session.store.connect() as db:
        marks = replay_marks(db)
        names = Names(db)
        out: list[Entry] = []
        for event in events:
            out.extend(_event_entries(event, marks.get(event.id or 0, []), names))
            out.extend(Entry(f"  d{r.id}", _when(r.when), "  " + dice_line(r)) for r in by_event.get(event.id, []))
    return out


def _event_entries(event: Event, marks: list[str], names: Names) -> list[Entry]:
    """The event's line with its undo and redo marks, then each changed row, old -> new."""
    when = _when(event.when)
    if event.kind in REPLAYS:
        verb = "Undo" if event.kind == "undo" else "Redo"
        return [Entry(f"#{event.id}", when, f"{verb} of #{target(event.changes)}: {event.description}")]
    state = f" [{', '.join(marks)}]" if marks else (" [undone]" if event.undone else "")
    changes = load(event.changes)
    out = [Entry(f"#{event.id}", when, f"{event.description}{state}")]
    # The lines under an event leave its time blank: the width goes to what changed.
    out.extend(Entry("", "", "  " + line) for line in change_lines(changes, names, width=WIDTH))
    if event.undone:  # its dice went back with it; the event still holds them
        out.extend(Entry("", "", "  " + dice_line(r, undone=True)) for r in stored_dice(changes))
    return out


def _when(moment) -> str:
    return moment.astimezone().strftime("%d %b %H:%M:%S")

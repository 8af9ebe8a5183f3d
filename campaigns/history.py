"""The history as the umpire reads it: events and rolls, newest first, filterable."""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlmodel import col

from campaigns.changes import Names, change_lines, load
from campaigns.errors import plainly
from campaigns.log import dice_line, replay_marks, stored_dice
from campaigns.session import CampaignSession
from models import DiceRoll, Event
from models.journal import REPLAYS, target
from models.search import SHORT_WINDOW, is_short, matching_ids  # noqa: F401  (the screen reads the window through here)

LIMIT = 200  # the newest lines that match; the log command prints everything
WIDTH = 60  # a value longer than this is cut on screen; `adjutant log` prints it whole


@dataclass(frozen=True)
class Entry:
    ref: str
    when: str
    text: str


def entries(
    session: CampaignSession, text: str = "", *, dice_only: bool = False, limit: int = LIMIT, before: int | None = None
) -> list[Entry]:
    """The newest events, each with its rolls, and rolls on their own when `dice_only`;
    only those older than the event (or roll) `before` when it is given: the next page.

    A word is looked up in the history's search index (models.search), so a
    word finds a change however old it is without reading every event."""
    needle = text.strip()
    with plainly(), session.store.read() as db:
        if dice_only:
            rolls_query = select(DiceRoll).order_by(col(DiceRoll.id).desc()).limit(limit)
            if before is not None:
                rolls_query = rolls_query.where(col(DiceRoll.id) < before)
            if needle:
                rolls_query = rolls_query.where(col(DiceRoll.id).in_(_found(db, "dice_roll", needle, limit, before)))
            rolls = list(db.scalars(rolls_query))
            return [Entry(f"d{r.id}", _when(r.when), dice_line(r)) for r in rolls]
        events_query = select(Event).order_by(col(Event.id).desc()).limit(limit)
        if before is not None:
            events_query = events_query.where(col(Event.id) < before)
        if needle:
            # An event matches by its description or by one of its rolls. A roll is
            # written in the transaction of its event, so newer rolls belong to newer
            # events: the newest `limit` matching rolls name the newest matching events.
            found = set(_found(db, "event", needle, limit, before))
            rolled = _found(db, "dice_roll", needle, limit, _first_roll_of(db, before))
            if rolled:
                found.update(
                    e for e in db.scalars(select(col(DiceRoll.event)).where(col(DiceRoll.id).in_(rolled))) if e is not None
                )
            events_query = events_query.where(col(Event.id).in_(found))
        events = list(db.scalars(events_query))
        ids = [e.id for e in events]
        rolls = list(db.scalars(select(DiceRoll).where(col(DiceRoll.event).in_(ids)).order_by(col(DiceRoll.id).desc()))) if ids else []
    by_event: dict[int | None, list[DiceRoll]] = {}
    for roll in rolls:
        by_event.setdefault(roll.event, []).append(roll)
    with plainly(), session.store.connect() as db:
        marks = _marks(session, db)
        names = Names(db)
        out: list[Entry] = []
        for event in events:
            out.extend(_event_entries(event, marks.get(event.id or 0, []), names))
            out.extend(Entry(f"  d{r.id}", _when(r.when), "  " + dice_line(r)) for r in by_event.get(event.id, []))
    return out


# The undo and redo marks of every action, by session, with the campaign version they
# were read at. Finding them reads every undo and redo event, and with no index on
# the kind of event that is a scan of the whole history: 0.4-0.8 s at a million
# events, at every keystroke in the filter. Read once per version of the campaign
# instead (an action, undo or redo moves it on), in the screen's worker.
_MARKS: weakref.WeakKeyDictionary[CampaignSession, tuple[int, dict[int, list[str]]]] = weakref.WeakKeyDictionary()


def _marks(session: CampaignSession, db) -> dict[int, list[str]]:
    version = session.version()  # read first: a change landing meanwhile reads them again next time
    kept = _MARKS.get(session)
    if kept is None or kept[0] != version:
        kept = (version, replay_marks(db))
        _MARKS[session] = kept
    return kept[1]


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


def _found(db, table: str, needle: str, limit: int, before: int | None) -> list[int]:
    """Ids of `table` whose text holds `needle`, newest first, through the search index."""
    return matching_ids(db.connection(), table, needle, limit, before=before)


def _first_roll_of(db, event: int | None) -> int | None:
    """The first roll of event `event` or a later one: the rolls before it belong to older events."""
    if event is None:
        return None
    return db.scalar(select(func.min(col(DiceRoll.id))).where(col(DiceRoll.event) >= event))


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _when(moment) -> str:
    # As strftime("%d %b %H:%M:%S") in the C locale, at a tenth of its cost: a page shows hundreds.
    local = moment.astimezone()
    return f"{local.day:02d} {MONTHS[local.month - 1]} {local.hour:02d}:{local.minute:02d}:{local.second:02d}"

"""The history as the umpire reads it: events and rolls, newest first, filterable."""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import bindparam, func, select, text
from sqlmodel import col

from campaigns.changes import NAMED_TABLES, REFERENCES, Names, change_lines, load
from campaigns.errors import plainly
from campaigns.log import dice_line, stored_dice
from campaigns.replays import kept_marks
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
    changes = {event.id: load(event.changes) for event in events if event.kind not in REPLAYS}
    with plainly(), session.store.connect() as db:
        version = session.version()  # read first: a change landing meanwhile reads them again next time
        # The marks of this page's events only: the undo and redo events after its oldest.
        marks = kept_marks(session, db, version, after=min((i for i in ids if i is not None), default=0))
        names = _names(session, db, version, changes.values())
        out: list[Entry] = []
        for event in events:
            out.extend(_event_entries(event, marks.get(event.id or 0, []), names, changes.get(event.id)))
            out.extend(Entry(f"  d{r.id}", _when(r.when), "  " + dice_line(r)) for r in by_event.get(event.id, []))
    return out


# The names of the rows a page of events changed, read a table at a time rather than
# a query per row (a page names 20-60 rows: a query each cost more than the search),
# and kept for the campaign's version: the next keystroke names the same rows.
_NAMES: weakref.WeakKeyDictionary[CampaignSession, tuple[int, dict[tuple[str, str], str | None]]] = weakref.WeakKeyDictionary()


def _names(session: CampaignSession, db, version: int, pages: Iterable[list[dict]]) -> Names:
    kept = _NAMES.get(session)
    if kept is None or kept[0] != version:
        kept = (version, {})
        _NAMES[session] = kept
    stored = kept[1]
    wanted: dict[str, set[str]] = {}
    for changes in pages:
        for change in changes:
            table, key = change.get("table"), change.get("key") or {}
            if table in NAMED_TABLES and isinstance(key.get("id"), str):
                wanted.setdefault(table, set()).add(key["id"])
            if table == "campaign":
                continue
            for row in (change.get("before"), change.get("after")):
                for column, value in (row or {}).items():
                    if column in REFERENCES and isinstance(value, str):
                        wanted.setdefault(REFERENCES[column], set()).add(value)
    for table, ids in wanted.items():
        missing = sorted(i for i in ids if (table, i) not in stored)
        for start in range(0, len(missing), 500):  # within any database's limit of parameters
            chunk = missing[start : start + 500]
            found = dict(db.execute(text(f"SELECT id, name FROM {table} WHERE id IN :ids").bindparams(bindparam("ids", expanding=True)), {"ids": chunk}).all())  # noqa: S608 - fixed table names
            stored.update(((table, i), found.get(i)) for i in chunk)
    names = Names(db)
    # Names looks up what it does not know itself, as it would without this.
    names.known.update(((t, i), stored[(t, i)]) for t, ids in wanted.items() for i in ids)
    return names


def _event_entries(event: Event, marks: list[str], names: Names, changes: list[dict] | None) -> list[Entry]:
    """The event's line with its undo and redo marks, then each changed row, old -> new."""
    when = _when(event.when)
    if event.kind in REPLAYS or changes is None:
        verb = "Undo" if event.kind == "undo" else "Redo"
        return [Entry(f"#{event.id}", when, f"{verb} of #{target(event.changes)}: {event.description}")]
    state = f" [{', '.join(marks)}]" if marks else (" [undone]" if event.undone else "")
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

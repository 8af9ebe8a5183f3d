"""The history as the umpire reads it: events and rolls, newest first, filterable."""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, Connection, DateTime, bindparam, text

from campaigns.changes import NAMED_TABLES, REFERENCES, Names, change_lines, load
from campaigns.errors import plainly
from campaigns.log import dice_line, local_time, stored_dice
from campaigns.replays import kept_marks
from campaigns.session import CampaignSession
from models import event_units
from models.journal import REPLAYS, target
from models.search import SHORT_WINDOW, is_short, matching_ids, needle_kind, search_mode  # noqa: F401  (the screen reads the window through here)

LIMIT = 200  # the newest lines that match; the log command prints everything
WIDTH = 60  # a value longer than this is cut on screen; `adjutant log` prints it whole


@dataclass(frozen=True)
class Entry:
    ref: str
    when: str
    text: str


def entries(
    session: CampaignSession, text: str = "", *, dice_only: bool = False, limit: int = LIMIT, before: int | None = None,
    version: int | None = None,
) -> list[Entry]:
    """The newest events, each with its rolls, and rolls on their own when `dice_only`;
    only those older than the event (or roll) `before` when it is given: the next page.
    `version`: the campaign's version, if the caller has just read it (session.version()).

    A word is looked up in the history's search index (models.search), so a
    word finds a change however old it is without reading every event.

    Plain SQL on one connection, not the SQLModel classes: the screen's first page
    would otherwise wait for SQLAlchemy to configure every mapper (80-120 ms on a
    loaded machine, the whole of its first visit) and for the ORM to build each row."""
    needle = text.strip()
    # Read before the page: the marks and names kept for this version then hold all of it
    # (a change landing meanwhile moves the version on, and they are read again next time).
    version = session.version() if version is None else version
    with plainly(), session.store.connect() as db:
        if dice_only:
            found = _found(session, version, db, "dice_roll", needle, limit, before) if needle else None
            rolls = _rolls(db, ["1 = 1"], before=before, among=found, limit=limit)
            return [Entry(f"d{r.id}", _when(r.when), dice_line(r)) for r in rolls]
        found = None
        if needle:
            # An event matches by its description or by one of its rolls. A roll is
            # written in the transaction of its event, so newer rolls belong to newer
            # events: the newest `limit` matching rolls name the newest matching events.
            matched = set(_found(session, version, db, "event", needle, limit, before))
            rolled = _found(session, version, db, "dice_roll", needle, limit, _first_roll_of(db, before))
            if rolled:
                matched.update(e for e in db.execute(ROLLS_EVENTS, {"ids": rolled}).scalars() if e is not None)
            # Or by a unit it changed: a unit moved with its stack is named by no event's words
            # (they name the stack's general), and the index of each event's units finds it.
            # A side reads no event (a club's role may not even read the index before `club setup`
            # runs again after this upgrade): its units are not looked up.
            if getattr(session, "side", None) is None:
                matched.update(event_units.newest_events(db, _units(session, version, db, needle), limit, before))
            found = sorted(matched)
        if found is not None and not found:
            return []
        ids = [row.id for row in _select(db, "event", "id", {}, _newest(before, found), before=before, among=found, limit=limit)]
        lines = _lines(session, version, db, ids)
    return [entry for i in ids for entry in lines.get(i, ())]


def _newest(before: int | None, among: list[int] | None) -> list[str]:
    return ["1 = 1"] + (["id < :before"] if before is not None else []) + (["id IN :among"] if among is not None else [])


# The lines of each event read, kept for the campaign's version (its marks, its rolls
# and the names of what it changed only change with it): the next letter of a filter
# mostly finds the same events, and their lines are not read and written again.
_LINES: weakref.WeakKeyDictionary[CampaignSession, tuple[int, dict[int, list[Entry]]]] = weakref.WeakKeyDictionary()
LINES_KEPT = 2_000  # events, then forgotten all at once


def _lines(session: CampaignSession, version: int, db: Connection, ids: list[int]) -> dict[int, list[Entry]]:
    """The lines of events `ids` (of the campaign at `version`), each with its rolls under it, by event."""
    kept = _LINES.get(session)
    if kept is None or kept[0] != version or len(kept[1]) > LINES_KEPT:
        kept = (version, {})
        _LINES[session] = kept
    known = kept[1]
    missing = [i for i in ids if i not in known]
    if not missing:
        return known
    events = _events(db, before=None, among=missing, limit=len(missing))
    rolls = _rolls(db, ["event IN :events"], events=missing)
    by_event: dict[int | None, list[Any]] = {}
    for roll in rolls:
        by_event.setdefault(roll.event, []).append(roll)
    changes = {event.id: load(event.changes) for event in events if event.kind not in REPLAYS}
    # The marks of these events only: the undo and redo events after the oldest.
    marks = kept_marks(session, db, version, after=min(missing))
    names = _names(session, db, version, changes.values())
    for event in events:
        known[event.id] = _event_entries(event, marks.get(event.id, []), names, changes.get(event.id)) + [
            Entry(f"  d{r.id}", _when(r.when), "  " + dice_line(r)) for r in by_event.get(event.id, [])
        ]
    return known


# The columns the screen shows, typed as the tables type them (moments, flags and the
# dice's JSON read as the SQLModel classes read them), without those classes.
EVENT_COLUMNS = 'id, "when", kind, description, changes, undone'
EVENT_TYPES = {"when": DateTime(), "undone": Boolean()}
DICE_COLUMNS = 'id, event, purpose, dice, raw, modifiers, result, mode, stream_index, "by", "when"'
DICE_TYPES = {"when": DateTime(), "raw": JSON(), "modifiers": JSON()}
ROLLS_EVENTS = text("SELECT event FROM dice_roll WHERE id IN :ids").bindparams(bindparam("ids", expanding=True))
FIRST_ROLL = text("SELECT min(id) FROM dice_roll WHERE event >= :event")


def _events(db: Connection, *, before: int | None, among: list[int] | None, limit: int) -> list[Any]:
    """The newest `limit` events, older than `before` if given, among the ids `among` if given."""
    if among is not None and not among:
        return []
    where = ["1 = 1"]
    if before is not None:
        where.append("id < :before")
    if among is not None:
        where.append("id IN :among")
    return _select(db, "event", EVENT_COLUMNS, EVENT_TYPES, where, before=before, among=among, limit=limit)


def _rolls(
    db: Connection, where: list[str], *, before: int | None = None, among: list[int] | None = None,
    events: list[int] | None = None, limit: int | None = None,
) -> list[Any]:
    """Dice rolls, newest first: those of `events`, or the newest `limit` (older than
    `before`, among the ids `among`, when given)."""
    if among is not None and not among:
        return []
    where = list(where)
    if before is not None:
        where.append("id < :before")
    if among is not None:
        where.append("id IN :among")
    return _select(db, "dice_roll", DICE_COLUMNS, DICE_TYPES, where, before=before, among=among, events=events, limit=limit)


def _select(db: Connection, table: str, columns: str, types: dict[str, Any], where: list[str], **values: Any) -> list[Any]:
    given = {name: value for name, value in values.items() if value is not None}
    tail = " LIMIT :limit" if "limit" in given else ""
    query = text(f"SELECT {columns} FROM {table} WHERE {' AND '.join(where)} ORDER BY id DESC{tail}")  # noqa: S608 - fixed names
    query = query.bindparams(*(bindparam(name, expanding=True) for name in ("among", "events") if name in given))
    return list(db.execute(query.columns(**types), given))


# The names of the rows a page of events changed, read a table at a time rather than
# a query per row (a page names 20-60 rows: a query each cost more than the search),
# and kept for the campaign's version: the next keystroke names the same rows.
_NAMES: weakref.WeakKeyDictionary[CampaignSession, tuple[int, dict[tuple[str, str], str | None]]] = weakref.WeakKeyDictionary()


def _names(session: CampaignSession, db: Connection, version: int, pages: Iterable[list[dict]]) -> Names:
    kept = _NAMES.get(session)
    if kept is None or kept[0] != version:
        kept = (version, {})
        _NAMES[session] = kept
    stored = kept[1]
    wanted: dict[str, set[str]] = {}
    for changes in pages:
        for change in changes:
            table, key = change.get("table"), change.get("key")
            if table in NAMED_TABLES and isinstance(key, dict) and isinstance(key.get("id"), str):
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
            found: dict[str, str | None] = dict(db.execute(text(f"SELECT id, name FROM {table} WHERE id IN :ids").bindparams(bindparam("ids", expanding=True)), {"ids": chunk}).all())  # noqa: S608 - fixed table names
            stored.update(((table, i), found.get(i)) for i in chunk)
    names = Names(db)
    # Names looks up what it does not know itself, as it would without this.
    names.known.update(((t, i), stored[(t, i)]) for t, ids in wanted.items() for i in ids)
    return names


def _event_entries(event: Any, marks: list[str], names: Names, changes: list[dict] | None) -> list[Entry]:
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


# The whole answers (fewer rows than asked for: every row that matches) to the needles
# typed last, kept for the campaign's version: the next letter typed is looked for among
# those rows only (models.search.needle_kind), and a word that matched nothing is not
# looked for again letter after letter ("xylophone" after "xy": 20,000 rows read again
# at every key).
# The search mode (models.search.search_mode) is kept with them: a migration, the only
# thing that changes it, runs as a campaign is opened, before anything is read.
_WHOLE: weakref.WeakKeyDictionary[CampaignSession, tuple[int, str, dict[tuple[str, str, str], list[int]]]] = weakref.WeakKeyDictionary()
WHOLE_KEPT = 64  # needles, then forgotten all at once


def _found(
    session: CampaignSession, version: int, db: Connection, table: str, needle: str, limit: int, before: int | None,
) -> list[int]:
    """Ids of `table` whose text holds `needle`, newest first, through the search index."""
    kept = _WHOLE.get(session)
    if kept is None or kept[0] != version or len(kept[2]) >= WHOLE_KEPT:
        kept = (version, kept[1] if kept is not None else search_mode(db), {})
        _WHOLE[session] = kept
    mode, whole = kept[1], kept[2]
    kind = needle_kind(mode, needle)
    if before is not None or kind is None:  # a next page reads on from the last
        return matching_ids(db, table, needle, limit, before=before, mode=mode)
    among: list[int] | None = None
    for (other_table, other_kind, other), ids in whole.items():
        if other_table == table and other_kind == kind and other in needle and (among is None or len(ids) < len(among)):
            among = ids
    found = matching_ids(db, table, needle, limit, among=among, mode=mode)
    if len(found) < limit:
        whole[(table, kind, needle)] = found
    return found


# The units a needle names (models.event_units.matching_units), kept for the campaign's version
# as the whole answers are: the next letter typed looks among them only, and a word that names
# no unit ("xylophone" after "xyl") or too many is not looked for again among 50,000 units.
_UNITS: weakref.WeakKeyDictionary[CampaignSession, tuple[int, dict[str, list[str] | None]]] = weakref.WeakKeyDictionary()


def _units(session: CampaignSession, version: int, db: Connection, needle: str) -> list[str]:
    """The ids of the few units whose id or name holds `needle` (none for one or two letters,
    or for a word that names more than models.event_units.MANY_UNITS)."""
    if is_short(needle):
        return []
    kept = _UNITS.get(session)
    if kept is None or kept[0] != version or len(kept[1]) >= WHOLE_KEPT:
        kept = (version, {})
        _UNITS[session] = kept
    known = kept[1]
    if needle in known:
        return known[needle] or []
    among: list[str] | None = None
    for other, ids in known.items():
        if other in needle and ids is not None and (among is None or len(ids) < len(among)):
            among = ids
    found = event_units.matching_units(db, needle, among)
    known[needle] = found
    return found or []


def _first_roll_of(db: Connection, event: int | None) -> int | None:
    """The first roll of event `event` or a later one: the rolls before it belong to older events."""
    if event is None:
        return None
    return db.execute(FIRST_ROLL, {"event": event}).scalar()


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _when(moment) -> str:
    # As strftime("%d %b %H:%M:%S") in the C locale, at a tenth of its cost: a page shows hundreds.
    local = local_time(moment)
    return f"{local.day:02d} {MONTHS[local.month - 1]} {local.hour:02d}:{local.minute:02d}:{local.second:02d}"

"""The before and after of every row an action changes, and how to undo and redo them.

A `ChangeRecorder` listens to one session's flushes and writes down, for each
row inserted, updated or deleted through the ORM, a change
{"table", "key", "before", "after"} (see `models.tables.Event`). Changes are kept
in the order they were written, so undo replays them backwards and redo forwards,
with plain SQL that bypasses the recorder.

The campaign's `version` counter and the event log itself are bookkeeping, not
play, and are not recorded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table, and_, delete, event, insert, inspect, select, update
from sqlalchemy.orm import Session
from sqlmodel import Session as SQLModelSession
from sqlmodel import SQLModel

from models import search, table_metadata, tally
from models.values import from_json, row_from_json, to_json

if TYPE_CHECKING:
    from models.tables import Event

Change = dict[str, Any]

UNRECORDED_TABLES = frozenset({"event"})
UNRECORDED_COLUMNS = frozenset({("campaign", "version")})


RECORDER = "adjutant_recorder"  # the key of a session's `info` that holds its recorder


class RecordingSession(SQLModelSession):
    """The session of a write transaction (models.store), whose flushes a `ChangeRecorder`
    attached to it records. The class listens, once: listeners added to each session and
    taken off again cost some 0.13 ms of every action."""


def _recorder(session: Session) -> ChangeRecorder | None:
    return session.info.get(RECORDER)


@event.listens_for(RecordingSession, "before_flush")
def _before_flush(session: Session, context: Any, instances: Any) -> None:
    if (recorder := _recorder(session)) is not None:
        recorder._before_flush(session, context, instances)


@event.listens_for(RecordingSession, "after_flush")
def _after_flush(session: Session, context: Any) -> None:
    if (recorder := _recorder(session)) is not None:
        recorder._after_flush(session, context)


class ChangeRecorder:
    """Collects the changes of every flush of one session (a RecordingSession) until `detach`."""

    def __init__(self, session: Session) -> None:
        if not isinstance(session, RecordingSession) or _recorder(session) is not None:
            raise TypeError("a change recorder records a RecordingSession that has none yet")
        self.session = session
        self.changes: list[Change] = []
        self._pending_updates: list[Change] = []
        session.info[RECORDER] = self

    def detach(self) -> None:
        self.session.info.pop(RECORDER, None)

    def _before_flush(self, session: Session, _context: Any, _instances: Any) -> None:
        # Old values must be read before the flush writes the new ones.
        dirty = [obj for obj in session.dirty if _recorded(obj) and session.is_modified(obj)]
        self._pending_updates = [
            change for obj in _in_table_order(dirty) if (change := _update(session, obj))
        ]

    def _after_flush(self, session: Session, _context: Any) -> None:
        new = [obj for obj in session.new if _recorded(obj)]
        deleted = [obj for obj in session.deleted if _recorded(obj)]
        # The order SQL needs them in: saves parents first, deletes children first.
        self.changes.extend(_insert(obj) for obj in _in_table_order(new))
        self.changes.extend(self._pending_updates)
        self.changes.extend(_delete(obj) for obj in reversed(_in_table_order(deleted)))
        self._pending_updates = []


def undo(session: Session, event: Event) -> None:
    """Put back every row as it was before `event`'s changes, newest change first.

    BadHistory, with nothing written, when a change cannot be written back (models.history_checks)."""
    _replay(session, event, undo=True)


def redo(session: Session, event: Event) -> None:
    """Make `event`'s changes again, oldest first; BadHistory, with nothing written, as `undo`."""
    _replay(session, event, undo=False)


def _replay(session: Session, event: Event, *, undo: bool) -> None:
    from models.history_checks import BadHistory, check, shown  # pydantic's models: only once an undo needs them

    changes = event.changes
    try:
        check(session.connection(), changes, undo=undo)
        for number, change in reversed(list(enumerate(changes, start=1))) if undo else enumerate(changes, start=1):
            before, after = change["before"], change["after"]
            if not _apply(session, change, target=before if undo else after, current=after if undo else before):
                raise BadHistory(
                    f"its change {number} of {len(changes)} names a row of {change['table']}, {shown(change['key'])}, "
                    "that the campaign does not hold"
                )
    except BadHistory as error:  # the transaction is rolled back: nothing was changed
        raise BadHistory(
            f"cannot {'undo' if undo else 'redo'} event #{event.id} {shown(event.description)}: {error}; nothing was changed"
        ) from None


def _recorded(obj: object) -> bool:
    return isinstance(obj, SQLModel) and _table(obj).name not in UNRECORDED_TABLES


def _table(obj: SQLModel) -> Table:
    return obj.__table__  # type: ignore[attr-defined]  # a table class gets __table__ from SQLAlchemy when it is built


@cache
def _table_order() -> dict[str, int]:
    return {table.name: i for i, table in enumerate(table_metadata().sorted_tables)}


def _in_table_order(objects: Iterable[SQLModel]) -> list[SQLModel]:
    order = _table_order()
    return sorted(objects, key=lambda obj: (order[_table(obj).name], inspect(obj).insert_order or 0))


def _columns(obj: SQLModel) -> list[str]:
    table = _table(obj)
    return [c.name for c in table.columns if (table.name, c.name) not in UNRECORDED_COLUMNS]


def _key(obj: SQLModel) -> dict[str, Any]:
    return {c.name: to_json(getattr(obj, c.name)) for c in _table(obj).primary_key.columns}


def _values(obj: SQLModel) -> dict[str, Any]:
    return {name: to_json(getattr(obj, name)) for name in _columns(obj)}


def _insert(obj: SQLModel) -> Change:
    return {"table": _table(obj).name, "key": _key(obj), "before": None, "after": _values(obj)}


def _delete(obj: SQLModel) -> Change:
    return {"table": _table(obj).name, "key": _key(obj), "before": _values(obj), "after": None}


def _update(session: Session, obj: SQLModel) -> Change | None:
    state = inspect(obj)
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    for name in _columns(obj):
        history = state.attrs[name].history
        if not history.added:
            continue
        if history.deleted:
            old = history.deleted[0]
        else:  # set without having been loaded: read what the row holds now
            column = _table(obj).c[name]
            with session.no_autoflush:
                old = session.execute(select(column).where(_where(_table(obj), _key(obj)))).scalar()
        new = history.added[0]
        if old != new:
            before[name], after[name] = to_json(old), to_json(new)
    if not after:
        return None
    return {"table": _table(obj).name, "key": _key(obj), "before": before, "after": after}


def _where(table: Table, key: dict[str, Any]) -> Any:
    return and_(*(table.c[name] == from_json(table.c[name], value) for name, value in key.items()))


def _apply(
    session: Session, change: Change, *, target: dict[str, Any] | None, current: dict[str, Any] | None
) -> bool:
    """Write one change that models.history_checks has passed; False, with nothing written, when the
    row it updates or deletes is not there."""
    table = table_metadata().tables[change["table"]]
    where = _where(table, change["key"])
    indexed = search.CONTENT.get(change["table"])
    # The search index forgets the text the row holds, not the text the history says it holds.
    old = session.execute(select(table.c[indexed]).where(where)).scalar() if indexed and current is not None else None
    # The dice tally takes away the roll as the table holds it and adds it as written (models.tally).
    rolled = [change["key"]["id"]] if change["table"] == "dice_roll" and isinstance(change["key"].get("id"), int) else []
    counted = bool(rolled) and tally.present_cached(session.connection())
    before = tally.keys(session.connection(), rolled) if counted and current is not None else None
    if target is None:
        statement: Any = delete(table).where(where)
    elif current is None:
        statement = insert(table).values(row_from_json(table, {**change["key"], **target}))
    else:
        statement = update(table).where(where).values(row_from_json(table, target))
    result = session.execute(statement)
    if current is not None and result.rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, typed as Result
        return False
    if counted:
        tally.replace(session.connection(), before or Counter(), rolled)
    if indexed:
        search.index_row(
            session.connection(), change["table"], change["key"]["id"], old=old,
            new=None if target is None else target.get(indexed, old),
        )
    return True

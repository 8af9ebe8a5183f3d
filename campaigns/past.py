"""The campaign as it stood at the end of a past turn, or just before an event.

The whole campaign is copied into a temporary file (SQLite's backup, or an
export of a PostgreSQL campaign), and in that copy every event from the chosen
one on is undone from the event log, newest first, and forgotten (in one pass over
those events and written in bulk: models.rewind).  The copy is
opened read-only: every screen shows it as it was, and any action on it is
refused with one sentence.  The campaign itself is only read, and only while it is
copied (a consistent snapshot, however long the rewind takes after).

The copy is ours alone, in a folder of its own that goes with the view or with a
failure: it is written without a rollback journal and without waiting for the disk
(a million events forgotten would otherwise journal and sync most of the file twice).

Why a whole copy, rather than one of only the rows that stay: the copy is SQLite's
page copy, about a second for 500 MB, and it holds the campaign's read lock only for
that second; the rewind then reads the events it undoes from the copy, with no lock
on the campaign, which others may go on writing. A copy of only the events before the
cut would write less for an early cut, but must read the later events from the
campaign itself, under its read lock for the whole rewind (tens of seconds at a
million events, with every writer kept waiting), or copy them aside first.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, delete, func, select
from sqlmodel import col
from sqlalchemy.orm import Session

from campaigns.errors import CampaignError, plainly
from campaigns.printable import printable
from campaigns.session import CampaignSession
from models import Campaign, Event, EventNote, event_units, open_campaign, save_as, search
from models.errors import CampaignFileError
from models.engine import writer
from models.history import redo, undo
from models.journal import REDO, REPLAYS, UNDO, target
from models.rewind import rewind
from models.store import CampaignStore, guard
from rules.errors import RulesError
from rules.numbers import EVENT, TURN


@dataclass(frozen=True)
class Moment:
    label: str  # "the end of turn 5", "just before event #120"
    before_event: int | None  # the first event undone; None: nothing to undo (the turn under way)


class ReadOnly(CampaignError):
    pass


def parse_when(text: str) -> dict[str, int] | None:
    """What a person typed: "5" (a turn), "#120" (an event), or nothing (None).

    :raises CampaignError: for anything else."""
    typed = text.strip()
    if not typed:
        return None
    # ASCII digits only: str.isdigit() also says yes to "²", which int() refuses
    try:
        if re.fullmatch("#[0-9]+", typed):
            return {"event": EVENT.read(typed[1:])}
        if re.fullmatch("[0-9]+", typed):
            return {"turn": TURN.read(typed)}
    except RulesError as error:  # a number no campaign holds: "'3000000000' is too large for a turn number"
        raise CampaignError(str(error)) from None
    raise CampaignError(f"type a turn number (5) or an event (#120), not {printable(typed)!r}")


def moment(session: CampaignSession, *, turn: int | None = None, event: int | None = None) -> Moment:
    """Where to rewind to: the end of `turn` (its last action), or just before `event`. The end of a
    turn is looked for through the whole history (a million events: most of a second): off the UI's
    thread, which asks `check_moment` as a person types."""
    check_moment(session, turn=turn, event=event)
    if turn is None:
        return Moment(f"just before event #{event}", event)
    with plainly(), session.store.read() as db:
        ends = db.scalars(
            select(col(Event.id)).where(col(Event.description).like(f"End of turn {turn}:%"), col(Event.undone) == False)  # noqa: E712
            .order_by(col(Event.id)).limit(1)
        ).first()
    label = f"the end of turn {turn}" if ends is not None else f"turn {turn} (under way)"
    return Moment(label, ends)


def check_moment(session: CampaignSession, *, turn: int | None = None, event: int | None = None) -> None:
    """CampaignError, in `moment`'s sentence, unless `moment` can rewind to that turn or event: two
    rows read by their keys.

    :raises CampaignError: a turn not played, an event not there or the campaign's creation, a side's view."""
    from campaigns.player import ClubPlayerSession

    if (turn is None) == (event is None):
        raise CampaignError("say a turn or an event, one of them")
    if isinstance(session, ClubPlayerSession):  # a side's role reads neither the history nor the whole campaign
        raise CampaignError("the campaign as of a past turn is rebuilt from the umpire's history: a side's view cannot show it")
    with plainly(), session.store.read() as db:
        current = db.get_one(Campaign, 1).turn
        if turn is not None:
            if not 1 <= turn <= current:
                raise CampaignError(f"turn {turn} has not been played: the campaign is at turn {current}")
            return
        # an event's number beyond the store's integer is none of its events (and PostgreSQL refuses to look)
        found = db.get(Event, event) if event is not None and EVENT.holds(event) else None
        if found is None:
            raise CampaignError(f"there is no event #{event}")
        if found.kind not in ("action", *REPLAYS):  # just before an undo is as well defined as before an action
            raise CampaignError(f"#{event} is the campaign's creation: there is nothing before it")


def open_past(session: CampaignSession, when: Moment) -> "PastSession":
    """A read-only session on a temporary copy of the campaign rewound to `when`."""
    folder = Path(tempfile.mkdtemp(prefix="adjutant-past-"))
    try:
        copy = folder / "past.campaign"
        with plainly():
            _copy(session.store, copy)
            store = open_campaign(copy)
        try:
            if when.before_event is not None:
                _rewind(store, when.before_event)
        except BaseException:
            store.close()
            raise
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return PastSession(store, when, folder)


def _copy(store: CampaignStore, copy: Path) -> None:
    """The campaign into the private file `copy`: SQLite's backup of a file, unsynced (see the module's
    note); a PostgreSQL campaign exported (models.saving)."""
    if not store.is_sqlite:
        save_as(store, copy)
        return
    with guard(store.name):
        source = store.engine.raw_connection()
        try:
            target = sqlite3.connect(copy)
            try:
                _unjournaled(target)
                source.driver_connection.backup(target)  # type: ignore[union-attr]  # an sqlite3 connection: the store is a file
            finally:
                target.close()
        except sqlite3.Error as error:
            raise CampaignFileError(f"cannot write {copy}: {error}") from None
        except OSError as error:
            raise CampaignFileError(f"cannot write {copy}: {error.strerror or error}") from None
        finally:
            source.close()


def _unjournaled(connection: Any) -> None:
    """A private copy's connection (sqlite3's, outside a transaction): no rollback journal, no sync."""
    connection.execute("PRAGMA journal_mode = OFF")
    connection.execute("PRAGMA synchronous = OFF")


def _rewind(store: CampaignStore, first: int) -> None:
    """Undo every live event from `first` on and forget them, in one transaction: read in one pass and
    written in bulk (models.rewind); a history out of the ordinary, one event at a time (`_rewind_each`),
    which gives its sentence."""
    if not _rewind_in_bulk(store, first):
        _rewind_each(store, first)
    store.reload()


def _rewind_in_bulk(store: CampaignStore, first: int) -> bool:
    """`_rewind` in one pass (models.rewind); False, with nothing written, for a history out of the ordinary."""
    with plainly(), guard(store.name), writer(store.engine).connect() as connection:
        _unjournaled(connection.connection.driver_connection)  # `_rewind` writes only a private copy
        transaction = connection.begin()
        try:
            if not rewind(connection, first):
                return False
            _forget(connection, first)
            transaction.commit()
        finally:
            if transaction.is_active:
                transaction.rollback()
    return True


def _rewind_each(store: CampaignStore, first: int) -> None:
    """Undo every live event from `first` on, newest first, one at a time through the ORM, and forget
    them: in one transaction. The reading `models.rewind` follows (and its tests' independent one)."""
    with plainly(), guard(store.name), writer(store.engine).connect() as connection, Session(connection) as db:
        _unjournaled(connection.connection.driver_connection)  # `_rewind` writes only a private copy
        newer = select(Event).where(col(Event.id) >= first).order_by(col(Event.id).desc())
        try:
            for event in db.scalars(newer.execution_options(yield_per=200)):
                if event.kind in REPLAYS:  # an undo or a redo names the action it took back or made again
                    number = target(event.changes)
                    action = db.get(Event, number) if number is not None and EVENT.holds(number) else None
                    if action is None:
                        raise CampaignError(f"event #{event.id} names no event of the history to {event.kind}: its past cannot be shown")
                    (redo if event.kind == UNDO else undo)(db, action)
                    action.undone = event.kind == REDO  # as before the undo or redo
                elif not event.undone:
                    undo(db, event)
        except ValueError:  # NaN, 1e400, a lone surrogate: JSON of a hand-made file, which orjson refuses
            raise CampaignError("the history holds changes that are not JSON Adjutant reads: its past cannot be shown") from None
        _forget(db.connection(), first)
        db.commit()


def _forget(connection: Connection, first: int) -> None:
    """Delete the events from `first` on, their notes, and their text from the history's search index
    (which, holding the text of events no longer there, would make SQLite call the file damaged):
    one at a time where fewer go than stay, else the index built again from those that stay."""
    fts = search.search_mode(connection) == "fts5"
    gone = connection.execute(select(func.count()).where(col(Event.id) >= first)).scalar() or 0
    kept = connection.execute(select(func.count()).where(col(Event.id) < first)).scalar() or 0
    if fts and gone <= kept:
        connection.exec_driver_sql(
            "INSERT INTO event_search(event_search, rowid, description) "
            "SELECT 'delete', id, description FROM event WHERE id >= ?", (first,)
        )
    connection.execute(delete(EventNote).where(col(EventNote.event) >= first))
    event_units.forget(connection, first)  # the units they changed (models.event_units)
    connection.execute(delete(Event).where(col(Event.id) >= first))
    if fts and gone > kept:
        search.rebuild_table(connection, "event")


class PastSession(CampaignSession):
    """A campaign session that only shows: every change is refused in one sentence."""

    def __init__(self, store: CampaignStore, when: Moment, folder: Path) -> None:
        super().__init__(store)
        self.moment = when
        self.folder = folder
        refusal = f"this is the campaign as of {when.label}, read-only: go back to the present to change it"

        @contextmanager
        def refuse(_description: str) -> Iterator[Any]:
            raise ReadOnly(refusal)
            yield  # pragma: no cover - a generator, as store.action is

        def refuse_now() -> Any:
            raise ReadOnly(refusal)

        # The copy's store is ours alone: its writing methods are replaced on this instance.
        store.action = refuse  # type: ignore[method-assign, assignment]  # a bound method swapped for a refusal on this instance alone
        store.undo = refuse_now  # type: ignore[method-assign]  # replaced on this instance alone
        store.redo = refuse_now  # type: ignore[method-assign]  # replaced on this instance alone

    @property
    def where(self) -> str:
        return f"as of {self.moment.label}"

    def status_line(self) -> str:
        return f"AS OF {self.moment.label.upper()} (read-only) | " + super().status_line()

    def save_as(self, path: str | Path) -> Path:
        raise ReadOnly("save a copy of the campaign itself, not of this view of its past")

    def close(self) -> None:
        try:
            super().close()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

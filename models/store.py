"""An open campaign: reads, actions that commit at once, undo and redo.

    store = open_campaign("leipzig.campaign")
    with store.action("Ney marches to Dresden") as session:
        session.get(Unit, "fr-iii-corps").location = "Dresden"
    store.undo()   # Ney is back where he was, even after a restart
    store.redo()

Every action is one transaction. It first moves the campaign's `version` on by
one, but only if it still holds the value this store last saw (optimistic
locking): when another umpire committed in between, nothing is written and
`ConcurrentEditError` says so. It then records one event holding the before and
after of every row it changed, and commits. Undo and redo replay those events and
are committed the same way, so they survive a restart. Each undo and redo is an
event of its own, and nothing in the event log is ever deleted (models.journal).

A store may be shared between threads: their actions take turns, and an action
inside an action joins it only in the thread that opened it. Rows are changed
through the ORM session an action hands out (the recorder sees nothing else),
and primary keys never change.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from sqlalchemy import Connection, Engine, exc, text
from sqlalchemy.engine import URL

from models import journal
from models.clock import utcnow
from models.engine import writer
from models.errors import CampaignFileError, ConcurrentEditError, NothingToUndo, StoreError, first_line, refused_to_role
from models.targets import describe

# The SQLModel classes (models.tables) take some 75 ms to build, and SQLModel itself
# (with SQLAlchemy's ORM and pydantic) 150-250 ms of CPU to import. Opening a campaign
# and showing its overview need none of them (plain SQL on a connection), so this
# module imports them where a read through the ORM, an action, undo or redo first
# needs them: the app's first frame comes without them, and its background imports
# (tui.app warm_up) bring them in meanwhile.
if TYPE_CHECKING:
    from sqlalchemy import Insert, Update
    from sqlmodel import Session

    from models.dice_log import CampaignDice
    from models.tables import Campaign, Event

ACTION = journal.ACTION
VERSION = text("SELECT version FROM campaign WHERE id = 1")


log = logging.getLogger("adjutant.store")
logging.getLogger("adjutant").addHandler(logging.NullHandler())  # no log set up: silence, not stderr


class _Unchanged(Exception):
    """An action that changed nothing: roll it back and record no event."""


class CampaignStore:
    """One campaign, open in one file or database."""

    def __init__(self, engine: Engine, url: URL, version: int) -> None:
        self.engine = engine
        self.url = url
        self.version = version  # the campaign version this store last saw
        self._local = threading.local()
        self._writing = threading.RLock()  # one transaction at a time per store, whichever thread asks

    @property
    def name(self) -> str:
        """The file, or the database URL without its password."""
        # Every read and action names the store (guard): told once for each URL it is given.
        named = self.__dict__.get("_named")
        if named is None or named[0] is not self.url:
            named = self.__dict__["_named"] = (self.url, describe(self.url))
        return named[1]

    @property
    def _writer(self) -> Engine:
        """The engine whose transactions write (models.engine.writer), made once for each engine."""
        made = self.__dict__.get("_writer_of")
        if made is None or made[0] is not self.engine:
            made = self.__dict__["_writer_of"] = (self.engine, writer(self.engine))
        return made[1]

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> CampaignStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session to read the campaign; it writes nothing."""
        from sqlmodel import Session

        with guard(self.name), Session(self.engine, expire_on_commit=False) as session:
            yield session

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        """A connection to read the campaign with SQL, in one transaction; it writes nothing."""
        with guard(self.name), self.engine.connect() as connection:
            yield connection

    def campaign(self) -> Campaign:
        from models.tables import Campaign

        with self.read() as session:
            return session.get_one(Campaign, 1)

    def stored_version(self) -> int:
        """The campaign's version as stored now, whoever committed last."""
        with self.connect() as connection:
            return connection.execute(VERSION).scalar_one()

    def reload(self) -> None:
        """Accept what other umpires committed: the next action builds on it."""
        self.version = self.stored_version()

    @contextmanager
    def action(self, description: str) -> Iterator[Session]:
        """One action: change rows through the session; on leaving the block the
        changes, one event recording them, and the new version commit together.

        An exception in the block writes nothing. An action inside an action joins it.
        """
        from models import event_units, history, search

        active: Session | None = getattr(self._local, "session", None)
        if active is not None:
            yield active
            return
        started, number = time.perf_counter(), None
        with self._transaction() as session:
            # The event is written first (the dice rolled in the block name it) and given its
            # changes at the end. Plain statements on the session's connection, not an Event
            # the ORM flushes: the same two statements and bytes, without building a SQLModel
            # object (pydantic inspects its default factory each time) and flushing it twice.
            statements = _statements()
            connection = session.connection()
            current: int = connection.execute(
                statements.new_event, {"when": utcnow(), "kind": ACTION, "description": description, "changes": [], "undone": False}
            ).inserted_primary_key[0]  # type: ignore[index]  # an INSERT's result holds the key it made
            search.index_row(connection, "event", current, old=None, new=description)  # as the ORM's insert does (models.search.listen)
            recorder = history.ChangeRecorder(session)
            self._local.session, self._local.event = session, current
            try:
                yield session
                session.flush()
            finally:
                recorder.detach()
                self._local.session = self._local.event = None
            if not recorder.changes:
                raise _Unchanged
            connection.execute(statements.event_changes, {"number": current, "changes": recorder.changes})
            number = current
            event_units.record(connection, current, recorder.changes)  # the units it changed (models.event_units)
        if number is not None:  # committed (an action that changed nothing is not one)
            log.info("action %s (%s) took %.1f ms", number, description, (time.perf_counter() - started) * 1000)

    @property
    def current_event(self) -> int | None:
        """The id of the event of this thread's open action, if one is open."""
        return getattr(self._local, "event", None)

    def dice(self, battle: int | None = None) -> CampaignDice:
        """The campaign's dice service: each roll is stored, with the stream
        position, in the action that rolled it (or in an action of its own), and
        marked with `battle` when it is rolled for one."""
        from models.dice_log import CampaignDice
        from rules.dice import dice_mode

        campaign = self.campaign()
        return CampaignDice(
            seed=campaign.dice_seed, mode=dice_mode(campaign.dice_mode), next_index=campaign.dice_next_index, store=self,
            battle=battle,
        )

    def undo(self) -> Event:
        """Undo the last action not yet undone; returns its event.

        The undo is recorded as an event of its own; the action stays in the log, marked undone.
        A history that does not hold what the action changed (an imported or hand-edited one) is
        refused in one sentence (models.history_checks), and nothing is written."""
        with self._transaction() as session:
            number = journal.undo_target(session.connection())
            if number is None:
                raise NothingToUndo("there is nothing to undo")
            event = _recorded_event(session, number, "undo")
            from models import history

            history.undo(session, event)
            event.undone = True
            session.add(_replay(journal.UNDO, event))
        return event

    def redo(self) -> Event:
        """Redo the action undone last; returns its event.

        Refused for an action undone before a later action was taken: the campaign
        has moved on from the state it was made in. It stays in the log, marked undone.
        Refused, with nothing written, as `undo` is for a history it cannot write back."""
        with self._transaction() as session:
            number = journal.redo_target(session.connection())
            if number is None:
                if journal.abandoned(session.connection()):
                    raise NothingToUndo(
                        "there is nothing to redo: what was undone before the last action "
                        "stays in the history, marked undone, but cannot be redone"
                    )
                raise NothingToUndo("there is nothing to redo")
            event = _recorded_event(session, number, "redo")
            from models import history

            history.redo(session, event)
            event.undone = False
            session.add(_replay(journal.REDO, event))
        return event

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        """One write transaction that first moves the campaign version on from the one this store saw."""
        from models.history import RecordingSession

        if self.current_event is not None:
            raise StoreError("undo and redo cannot run inside an action; finish the action first")
        with self._writing, guard(self.name), RecordingSession(self._writer, expire_on_commit=False) as session:
            try:
                # A plain UPDATE on the session's connection: the ORM's own (an UPDATE it would
                # also match against the rows it holds, none yet) costs some 0.4 ms more.
                bumped = session.connection().execute(
                    _statements().bump_version, {"seen": self.version, "version": self.version + 1}
                )
                if bumped.rowcount != 1:
                    raise ConcurrentEditError()
                yield session
                session.commit()
            except _Unchanged:
                session.rollback()
                return
            except BaseException:
                session.rollback()
                raise
            self.version += 1


class _Statements(NamedTuple):
    """What every action writes, built once: a statement built anew costs more than running it."""

    bump_version: Update  # the optimistic lock: only from the version this store saw
    new_event: Insert  # the action's event, before its block runs
    event_changes: Update  # and its changes, after


@cache
def _statements() -> _Statements:
    from sqlalchemy import bindparam, insert, update

    from models.tables import Campaign, Event

    campaign, event = Campaign.__table__, Event.__table__  # type: ignore[attr-defined]  # a table class gets __table__ from SQLAlchemy when it is built
    # The SET columns are the keys of the values each runs with, bound with their columns' types (the
    # JSON of `changes` and the time of `when` are the ORM's own); the WHERE's names are no column's.
    return _Statements(
        bump_version=update(campaign).where(campaign.c.id == 1, campaign.c.version == bindparam("seen")),
        new_event=insert(event),
        event_changes=update(event).where(event.c.id == bindparam("number")),
    )


def _recorded_event(session: Session, number: int, doing: str) -> Event:
    """The action `number` with its changes, one undo would undo (not undone) or redo would redo
    (undone); BadHistory when it is not one, or when its changes are not JSON that Adjutant reads.

    The changes are read as the text stored and parsed here with orjson, in a file and in
    PostgreSQL alike: psycopg's own parser reads 1e400 as infinity and a number past 64 bits
    as a whole number, where orjson refuses the one and reads the other as a float, and SQLite
    keeps a bare number ("5") as a number. So a hostile history is judged, and told, alike."""
    import orjson
    from sqlalchemy import Text, cast, select
    from sqlalchemy.orm import defer
    from sqlalchemy.orm.attributes import set_committed_value

    from models.history_checks import BadHistory
    from models.tables import Event
    from rules.numbers import EVENT

    # A redo's number is what the history's last undo names: perhaps beyond every store's integer.
    event = session.get(Event, number, options=[defer(Event.changes)]) if EVENT.holds(number) else None  # type: ignore[arg-type]  # SQLModel types a column as its Python value
    if event is None or event.kind != ACTION or event.undone != (doing == "redo"):
        raise BadHistory(
            f"cannot {doing} event #{number}: the history names it, but it is no "
            f"{'undone ' if doing == 'redo' else ''}action; nothing was changed"
        )
    stored = session.execute(select(cast(Event.changes, Text)).where(Event.id == number)).scalar()  # type: ignore[arg-type]  # SQLModel types a column as its Python value
    try:
        changes = orjson.loads(stored) if stored is not None else None
    except orjson.JSONDecodeError:
        raise BadHistory(
            f"cannot {doing} event #{number}: its record of changes is not JSON that Adjutant reads; nothing was changed"
        ) from None
    set_committed_value(event, "changes", changes)
    return event


def _replay(kind: str, event: Event) -> Event:
    """The event recording an undo or redo of `event`; it keeps the action's description."""
    from models.tables import Event

    return Event(when=utcnow(), kind=kind, description=event.description, changes=[{"event": event.id}])


@contextmanager
def guard(name: str) -> Iterator[None]:
    """Turn database errors a person can meet into one sentence each."""
    try:
        yield
    except exc.OperationalError as error:
        text = first_line(error)
        if "locked" in text or "busy" in text:
            raise ConcurrentEditError(
                "another umpire is changing the campaign right now; try again in a moment"
            ) from None
        if "malformed" in text or "not a database" in text:
            raise CampaignFileError(f"{name} is damaged: {text}") from None
        raise CampaignFileError(f"cannot use the campaign at {name}: {text}") from None
    except exc.IntegrityError as error:
        raise StoreError(
            f"the change was refused because it breaks the campaign's records: {first_line(error)}"
        ) from None
    except exc.DatabaseError as error:
        refused = refused_to_role(name, error)  # a club's side role: not damaged, not allowed
        raise CampaignFileError(refused or f"{name} is damaged: {first_line(error)}") from None
    except UnicodeDecodeError:  # text that is not UTF-8, or SQLite's message quoting it
        raise CampaignFileError(f"{name} is damaged: it holds text that is not UTF-8") from None



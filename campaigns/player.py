"""A side's player: every screen shows what the side knows, only orders may be written.

Two ways in, one session class:

- a side file (campaigns.despatch) is a campaign file whose campaign row names a
  side (fog_side). Opened, it becomes a PlayerSession: any action of the umpire's
  (a roll, a move, an undo) is refused in one sentence; the player's orders are
  written through `orders()`, the one door left open, as "written" rows the
  player exports to the umpire.
- a club's shared campaign on PostgreSQL, connected as the side's own role
  (`adjutant --side SIDE --db URL`, models.access): `open_side` makes a
  ClubPlayerSession. PostgreSQL's policies hand it only the side's rows, so the
  same screens show the same fog; its orders are inserted straight into the
  umpire's queue ("queued"), the only rows that role may insert.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import text

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from models.store import CampaignStore


class ReadOnlySideFile(CampaignError):
    pass


class PlayerSession(CampaignSession):
    order_status = "written"  # a side file's orders wait for the player to export them
    side: str  # always a side here (CampaignSession's None is the umpire)

    def __init__(self, store: CampaignStore, side: str, turn: int) -> None:
        super().__init__(store)
        self.side, self._turn = side, turn
        self._side_name: str | None = None
        self._write = store.action
        refusal = self.refusal()

        @contextmanager
        def refuse(_description: str) -> Iterator[Any]:
            raise ReadOnlySideFile(refusal)
            yield  # pragma: no cover - a generator, as store.action is

        def refuse_now() -> Any:
            raise ReadOnlySideFile(refusal)

        # This store is the player's alone: its writing methods are replaced on this instance.
        store.action = refuse  # type: ignore[method-assign, assignment]  # a bound method swapped for a refusal on this instance alone
        store.undo = refuse_now  # type: ignore[method-assign]  # replaced on this instance alone
        store.redo = refuse_now  # type: ignore[method-assign]  # replaced on this instance alone

    def refusal(self) -> str:
        return "this is a side file, read-only: only orders to the umpire can be written in it"

    @property
    def turn(self) -> int:
        """The turn whose despatch the side answers."""
        return self._turn

    @contextmanager
    def orders(self, description: str) -> Iterator[Any]:
        """An action that writes the player's orders (campaigns.orders is the only caller)."""
        with self._write(description) as db:
            yield db

    @property
    def side_name(self) -> str:
        """The side's name in the scenario ("French Empire and allies"); its id is for typing."""
        if self._side_name is None:
            from campaigns.forces import sides

            self._side_name = dict(sides(self)).get(self.side, self.side)
        return self._side_name

    @property
    def where(self) -> str:
        return f"side file of {self.side_name}, turn {self.turn}"

    def status_line(self) -> str:
        # At 80 columns the status line keeps its first parts whole (tui.widgets.status): the
        # phase comes right after the side and its turn, and "orders only" after it (it was
        # "SIDE FILE of French Empire and allies, turn 1 (orders only) | 26 Apr 1813 | turn 1/20",
        # the phase dropped). The campaign's turn is the despatch's: said once, with the count.
        date, turn, phase, *rest = CampaignSession.status_line(self).split(" | ")
        said = f"{turn}" if turn.startswith(f"turn {self.turn}/") else f"turn {self.turn} ({turn})"
        return " | ".join([f"SIDE FILE of {self.side_name}, {said}", phase, "orders only", date, *rest])


class ClubPlayerSession(PlayerSession):
    """A side's player on the club's shared campaign, connected as that side's role."""

    order_status = "queued"  # straight into the umpire's queue: the role inserts nothing else

    def __init__(self, store: CampaignStore, side: str) -> None:
        from models.side_store import SideStore

        store = store if isinstance(store, SideStore) else SideStore.of(store)
        super().__init__(store, side, 0)

    def refusal(self) -> str:
        return (f"this is the {self.side} side's view of the club's campaign: only orders to the umpire can be "
                "written, and the database refuses anything else")

    @property
    def turn(self) -> int:
        """The campaign's turn now: the umpire moves it on while the player is connected."""
        with plainly(), self.store.connect() as db:
            return int(db.execute(text("SELECT turn FROM campaign WHERE id = 1")).scalar_one())

    @contextmanager
    def orders(self, description: str) -> Iterator[Any]:
        """The side's orders, inserted as its role: no event and no new version (the umpire's to make)."""
        with self.store.insert() as db:  # type: ignore[attr-defined]  # a club role's store is a models.side_store one, which has insert
            yield db

    @property
    def where(self) -> str:
        return f"{self.side_name} on {self.store.name}"

    def status_line(self) -> str:
        # The phase second, whole at 80 columns (after the date and the turn it was dropped).
        date, turn, phase, *rest = CampaignSession.status_line(self).split(" | ")
        return " | ".join([f"CLUB: {self.side_name} (orders only)", phase, turn, date, *rest])

    def save_as(self, path: Any) -> Any:
        raise CampaignError("the club's campaign stays on its server: a side's role cannot copy it")


MARKS = text("SELECT fog_side, coalesce(fog_turn, turn) FROM campaign WHERE id = 1")
WHO = text("SELECT current_user, current_database()")


def as_player(session: CampaignSession) -> CampaignSession:
    """The session itself for the umpire's campaign; a PlayerSession for a side file.

    Plain SQL: opening must not wait for the ORM classes (models.store says why)."""
    if isinstance(session, PlayerSession):
        return session
    with plainly(), session.store.connect() as db:
        side, turn = db.execute(MARKS).one()
    return session if side is None else PlayerSession(session.store, str(side), int(turn))


def as_club_side(session: CampaignSession) -> CampaignSession:
    """A club's campaign connected as a side's role: that side's ClubPlayerSession (its orders go
    into the umpires' queue as the role); anything else, the session itself."""
    if isinstance(session, PlayerSession) or session.store.is_sqlite:
        return session
    from models.access import UMPIRE, AccessError, club_roles

    with plainly(), session.store.connect() as db:
        role = db.execute(WHO).one()[0]
        try:
            side = next((each.who for each in club_roles(db) if each.role == role and each.who != UMPIRE), None)
        except AccessError:
            return session
    return session if side is None else ClubPlayerSession(session.store, side)


def open_side(target: str, side: str) -> PlayerSession:
    """The player view of `side`: a club's campaign connected as the side's role, or its side file.

    :raises CampaignError: one sentence when the connection is not that side's role, the
        campaign has no such side, or the file is another side's (or the umpire's)."""
    session = CampaignSession.open(target)
    try:
        if not session.store.is_sqlite:
            return _club_player(session, side)
        if not isinstance(session, PlayerSession):
            raise CampaignError(
                f"{session.store.name} is the umpire's campaign: --side opens a club's campaign on PostgreSQL "
                "(--db URL), or give the player a side file (adjutant despatch)"
            )
        if session.side != side:
            raise CampaignError(f"{session.store.name} is the {session.side} side's file, not the {side} side's")
        return session
    except BaseException:
        session.close()
        raise


def _club_player(session: CampaignSession, side: str) -> ClubPlayerSession:
    from models.access import AccessError, club_roles

    with plainly(), session.store.connect() as db:
        role, _database = db.execute(WHO).one()
        sides = list(db.execute(text("SELECT id FROM side ORDER BY position, id")).scalars())
        try:
            roles = {each.who: each.role for each in club_roles(db)} if side in sides else {}
        except AccessError as error:
            raise CampaignError(str(error)) from None
    if side not in sides:
        raise CampaignError(f"the campaign has no side {side!r} (its sides: {', '.join(sides)})")
    if role != roles[side]:
        other = next((who for who, name in roles.items() if name == role), None)
        connected = f"{role} (the {other} role)" if other else role
        raise CampaignError(
            f"connected as {connected}, not the {side} side's role {roles[side]}: "
            f"use the URL `adjutant club setup` printed for {side}"
        )
    return ClubPlayerSession(session.store, side)

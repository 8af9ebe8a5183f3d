"""A side file opened by its player: every screen shows it, only orders may be written.

A side file (campaigns.despatch) is a campaign file whose campaign row names a
side (fog_side). Opened, it becomes a PlayerSession: any action of the umpire's
(a roll, a move, an undo) is refused in one sentence; the player's orders are
written through `orders()`, the one door left open.
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
    def __init__(self, store: CampaignStore, side: str, turn: int) -> None:
        super().__init__(store)
        self.side, self.turn = side, turn
        self._write = store.action
        refusal = "this is a side file, read-only: only orders to the umpire can be written in it"

        @contextmanager
        def refuse(_description: str) -> Iterator[Any]:
            raise ReadOnlySideFile(refusal)
            yield  # pragma: no cover - a generator, as store.action is

        def refuse_now() -> Any:
            raise ReadOnlySideFile(refusal)

        # This store is the player's alone: its writing methods are replaced on this instance.
        store.action = refuse  # type: ignore[method-assign]
        store.undo = refuse_now  # type: ignore[method-assign]
        store.redo = refuse_now  # type: ignore[method-assign]

    @contextmanager
    def orders(self, description: str) -> Iterator[Any]:
        """An action that writes the player's orders (campaigns.orders is the only caller)."""
        with self._write(description) as db:
            yield db

    @property
    def where(self) -> str:
        return f"{self.side} side file, turn {self.turn}"

    def status_line(self) -> str:
        return f"SIDE FILE: {self.side.upper()}, TURN {self.turn} (orders only) | " + super().status_line()


MARKS = text("SELECT fog_side, coalesce(fog_turn, turn) FROM campaign WHERE id = 1")


def as_player(session: CampaignSession) -> CampaignSession:
    """The session itself for the umpire's campaign; a PlayerSession for a side file.

    Plain SQL: opening must not wait for the ORM classes (models.store says why)."""
    if isinstance(session, PlayerSession):
        return session
    with plainly(), session.store.connect() as db:
        side, turn = db.execute(MARKS).one()
    return session if side is None else PlayerSession(session.store, str(side), int(turn))

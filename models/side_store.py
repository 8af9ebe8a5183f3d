"""A club's shared campaign opened as one side's database role: reads that row-level security allows.

Under `adjutant club setup` (models.access) a side's role may not read the
campaign's dice seed and salt: a SELECT naming them is refused by PostgreSQL.
The ORM loads every column of a row, so `SideStore.read()` hands out sessions
that leave the hidden columns (models.visibility.HIDDEN_COLUMNS) unloaded, and
raise at once if anything asks for them, instead of a query the server refuses.
Every other read is the umpire's code unchanged: the policies hand it only the
side's rows.

The side writes nothing but its orders (`insert`): a plain INSERT as the side's
role, which may neither move the campaign's version on nor record an event.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, defer
from sqlmodel import Session

from models.engine import writer
from models.errors import StoreError
from models.store import CampaignStore, guard
from models.visibility import HIDDEN_COLUMNS

if TYPE_CHECKING:
    from models.dice_log import CampaignDice


class SideStore(CampaignStore):
    """The campaign as a side's role reads it; built from the store `open_campaign` returned."""

    @classmethod
    def of(cls, store: CampaignStore) -> SideStore:
        return cls(store.engine, store.url, store.version)

    @contextmanager
    def read(self) -> Iterator[Session]:
        with guard(self.name), Session(self.engine, expire_on_commit=False) as session:
            event.listen(session, "do_orm_execute", _without_hidden_columns)
            yield session

    def dice(self, battle: int | None = None) -> CampaignDice:
        raise StoreError("a side rolls no dice: the umpire does")

    @contextmanager
    def insert(self) -> Iterator[Session]:
        """A transaction that adds rows (the side's orders) and commits; the policies check each."""
        with self._writing, guard(self.name), Session(writer(self.engine), expire_on_commit=False) as session:
            event.listen(session, "do_orm_execute", _without_hidden_columns)
            yield session
            session.commit()


def _without_hidden_columns(state: ORMExecuteState) -> None:
    if not state.is_select or state.is_column_load:
        return
    for mapper in state.all_mappers:
        hidden = HIDDEN_COLUMNS.get(getattr(mapper.local_table, "name", ""), ())
        if hidden:
            # raiseload: reading one anyway is an error here, not a refused query on the server
            options: list[Any] = [defer(getattr(mapper.class_, c), raiseload=True) for c in hidden]
            state.statement = state.statement.options(*options)

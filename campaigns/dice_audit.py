"""`adjutant dice verify`: every rolled die replayed from the campaign's seed and stream position.

The stored rolls are read AUDIT_BATCH at a time as plain rows (the columns `to_record`
reads, no ORM object per roll) and replayed as they come: memory holds one batch and
the rolls that do not match, however long the campaign.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.dice import ROLLED, verify
from rules.errors import RulesError

if TYPE_CHECKING:
    from models.store import CampaignStore

AUDIT_BATCH = 1000


@dataclass(frozen=True)
class DiceAudit:
    rolled: int  # how many stored rolls came from the dice service
    mismatches: tuple[Any, ...]  # those that a replay from the seed does not give: rows with id, purpose, stream_index
    typed: int = 0  # how many were typed in by the umpire: nothing to replay


def audit_dice(store: CampaignStore, seed: int | None = None) -> DiceAudit:
    """Replay every rolled die from the campaign's seed (or `seed`, as revealed) and stream position."""
    from models.dice_log import to_record

    seed = store.campaign().dice_seed if seed is None else seed
    rolled = typed = 0
    mismatches = []
    with store.connect() as connection:
        for batch in stored_rolls(connection):
            for row in batch:
                if row.mode != ROLLED:
                    typed += 1
                    continue
                rolled += 1
                try:
                    if verify(seed, [to_record(row)]):
                        mismatches.append(row)
                except RulesError:  # dice edited into an expression no roll has: it matches no replay
                    mismatches.append(row)
    return DiceAudit(rolled, tuple(mismatches), typed=typed)


def stored_rolls(connection: Any) -> Iterator[Sequence[Any]]:
    """Every stored roll, oldest first, AUDIT_BATCH rows at a time: plain rows whose attributes
    are the DiceRoll columns, with the values the ORM would give them (JSON read, moments parsed)."""
    from sqlalchemy import select

    from models.tables import DiceRoll

    table = DiceRoll.__table__  # type: ignore[attr-defined]  # a table class gets __table__ from SQLAlchemy
    streamed = connection.execution_options(yield_per=AUDIT_BATCH).execute(select(table).order_by(table.c.id))
    yield from streamed.partitions()

"""The campaign's dice: every roll of `rules.dice` stored with the action that rolled it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.clock import utcnow
from models.tables import Campaign, DiceRoll
from rules.dice import Dice, DiceRecord, DiceService, Modifier, dice_mode

if TYPE_CHECKING:
    from models.store import CampaignStore


@dataclass
class CampaignDice(DiceService):
    """A `DiceService` whose stream position lives in the campaign.

    Each roll reads the position from the campaign inside the action it belongs
    to (or an action of its own), stores the record and moves the position on in
    the same transaction, so a restart, another umpire or an undo never replays
    or skips a die. Undoing an action puts its dice back in the stream: rolled
    again, they come up the same, so undo cannot be used to fish for a better roll.
    """

    store: CampaignStore | None = None
    battle: int | None = None  # the battle these dice are rolled for: each row says so (DiceRoll.battle)

    def roll(
        self,
        dice: str | Dice,
        purpose: str,
        modifiers: Sequence[Modifier] = (),
        *,
        entered: Sequence[int] | None = None,
        by: str = "umpire",
    ) -> DiceRecord:
        if self.store is None:
            return super().roll(dice, purpose, modifiers, entered=entered, by=by)
        with self.store.action(f"{purpose}: {dice}") as session:
            campaign = session.get_one(Campaign, 1)
            self.seed, self.mode, self.next_index = (
                campaign.dice_seed,
                dice_mode(campaign.dice_mode),
                campaign.dice_next_index,
            )
            record = super().roll(dice, purpose, modifiers, entered=entered, by=by)
            session.add(to_row(record, event=self.store.current_event, battle=self.battle))
            campaign.dice_next_index = self.next_index
        return record


def to_row(record: DiceRecord, *, event: int | None, battle: int | None = None) -> DiceRoll:
    return DiceRoll(
        event=event,
        battle=battle,
        purpose=record.purpose,
        dice=record.dice,
        raw=list(record.raw),
        modifiers=[{"label": m.label, "value": m.value} for m in record.modifiers],
        result=record.result,
        mode=record.mode,
        stream_index=record.index,
        by=record.by,
        when=utcnow(),
    )


def to_record(row: DiceRoll) -> DiceRecord:
    return DiceRecord(
        purpose=row.purpose,
        dice=row.dice,
        raw=tuple(row.raw),
        modifiers=tuple(Modifier(m["label"], m["value"]) for m in row.modifiers),
        result=row.result,
        mode=dice_mode(row.mode),
        index=row.stream_index,
        by=row.by,
    )


def dice_rolls(session: Session) -> list[DiceRoll]:
    """Every stored roll, oldest first."""
    return list(session.scalars(select(DiceRoll).order_by(DiceRoll.id)))  # type: ignore[arg-type]  # SQLModel types a column as its Python value

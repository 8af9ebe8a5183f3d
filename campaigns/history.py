"""The history as the umpire reads it: events and rolls, newest first, filterable."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from campaigns.errors import plainly
from campaigns.log import dice_line
from campaigns.session import CampaignSession
from models import DiceRoll, Event

LIMIT = 500  # a screenful of history needs no more; the log command prints it all


@dataclass(frozen=True)
class Entry:
    ref: str
    when: str
    text: str


def entries(session: CampaignSession, text: str = "", *, dice_only: bool = False, limit: int = LIMIT) -> list[Entry]:
    needle = text.strip().lower()
    out: list[Entry] = []
    with plainly(), session.store.read() as db:
        rolls = list(db.scalars(select(DiceRoll).order_by(DiceRoll.id.desc()).limit(limit)))  # type: ignore[union-attr]
        events = [] if dice_only else list(db.scalars(select(Event).order_by(Event.id.desc()).limit(limit)))  # type: ignore[union-attr]
    by_event: dict[int | None, list[DiceRoll]] = {}
    for roll in rolls:
        by_event.setdefault(roll.event, []).append(roll)
    if dice_only:
        items = [(f"d{r.id}", r.when, dice_line(r)) for r in rolls]
    else:
        items = []
        for event in events:
            undone = " [undone]" if event.undone else ""
            items.append((f"#{event.id}", event.when, f"{event.description}{undone}"))
            items.extend((f"  d{r.id}", r.when, "  " + dice_line(r)) for r in by_event.get(event.id, []))
    for ref, when, line in items:
        if needle and needle not in line.lower():
            continue
        out.append(Entry(ref, when.astimezone().strftime("%d %b %H:%M:%S"), line))
    return out

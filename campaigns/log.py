"""The campaign's history as readable lines, and the audit of its dice.

#3  2026-11-22 14:02:11  action  Weather for turn 1
      dice #1: weather 2d6 = 4 1 +1 (May) = 6  [rolled, stream 0, umpire]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sqlmodel import select

from models import CampaignStore, DiceRoll, Event, dice_rolls, to_record
from rules.dice import ROLLED, verify


def log_lines(store: CampaignStore, *, dice_only: bool = False) -> Iterator[str]:
    """The events, each followed by the dice its action rolled, oldest first."""
    with store.read() as session:
        rolls: dict[int | None, list[DiceRoll]] = {}
        for roll in dice_rolls(session):
            rolls.setdefault(roll.event, []).append(roll)
        if dice_only:
            for roll in sorted((r for group in rolls.values() for r in group), key=lambda r: r.id or 0):
                yield dice_line(roll, with_time=True)
            return
        yield from (dice_line(roll, with_time=True) for roll in rolls.pop(None, []))
        for event in session.exec(select(Event).order_by(Event.id)):  # type: ignore[arg-type]
            yield event_line(event)
            yield from ("      " + dice_line(roll) for roll in rolls.get(event.id, []))


def event_line(event: Event) -> str:
    count = len(event.changes)
    changes = f"  ({count} change{'s' if count != 1 else ''})" if event.kind == "action" else ""
    undone = "  [undone]" if event.undone else ""
    return f"#{event.id}  {_time(event)}  {event.kind:<6}  {event.description}{changes}{undone}"


def dice_line(roll: DiceRoll, *, with_time: bool = False) -> str:
    modifiers = "".join(f" {m['value']:+d} ({m['label']})" for m in roll.modifiers)
    source = f"rolled, stream {roll.stream_index}" if roll.mode == ROLLED else "typed in"
    when = f"{_time(roll)}  " if with_time else ""
    raw = " ".join(str(value) for value in roll.raw)
    reading = f"{roll.dice} = {raw}{modifiers} = {roll.result}"
    return f"{when}dice #{roll.id}: {roll.purpose} {reading}  [{source}, {roll.by}]"


def _time(row: Event | DiceRoll) -> str:
    return row.when.astimezone().strftime("%Y-%m-%d %H:%M:%S")


@dataclass(frozen=True)
class DiceAudit:
    rolled: int  # how many stored rolls came from the dice service
    mismatches: tuple[DiceRoll, ...]  # those that a replay from the seed does not give


def audit_dice(store: CampaignStore) -> DiceAudit:
    """Replay every rolled die from the campaign's seed and stream position."""
    seed = store.campaign().dice_seed
    with store.read() as session:
        rows = [row for row in dice_rolls(session) if row.mode == ROLLED]
    return DiceAudit(len(rows), tuple(row for row in rows if verify(seed, [to_record(row)])))

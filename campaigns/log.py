"""The campaign's history as readable lines, and the audit of its dice.

#3  2026-11-22 14:02:11  action  Weather for turn 1
      dice #1: weather 2d6 = 4 1 +1 (May) = 6  [rolled, stream 0, umpire]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import JSON, Connection, DateTime, text

from campaigns.changes import Names, change_lines, inserted_dice, load
from models import CampaignStore, DiceRoll, dice_rolls, to_record
from models.journal import REPLAYS, target
from rules.dice import ROLLED, verify

DICE_COLUMNS = 'id, event, purpose, dice, raw, modifiers, result, mode, stream_index, "by", "when"'
DICE_TYPES = {"raw": JSON, "modifiers": JSON, "when": DateTime}
LOOSE_DICE = text(f"SELECT {DICE_COLUMNS} FROM dice_roll WHERE event IS NULL ORDER BY id").columns(**DICE_TYPES)
EVENT_DICE = text(f"SELECT {DICE_COLUMNS} FROM dice_roll WHERE event IS NOT NULL ORDER BY event, id").columns(
    **DICE_TYPES
)
ALL_DICE = text(f"SELECT {DICE_COLUMNS} FROM dice_roll ORDER BY id").columns(**DICE_TYPES)
EVENTS = text('SELECT id, "when", kind, description, changes, undone FROM event ORDER BY id').columns(
    when=DateTime
)
REPLAY_EVENTS = text("SELECT id, kind, changes FROM event WHERE kind IN ('undo', 'redo') ORDER BY id")
INDENT = "      "
BATCH = 200  # rows read at a time: the memory the log holds, however long the history


def log_lines(store: CampaignStore, *, dice_only: bool = False) -> Iterator[str]:
    """The events, oldest first, each with what it changed and the dice its action rolled.

    Rows are read with plain SQL and streamed, so memory does not grow with the
    length of the history; only names and the undo and redo marks are held."""
    with store.connect() as db:
        db = db.execution_options(stream_results=True, yield_per=BATCH)
        if dice_only:
            yield from (dice_line(roll, with_time=True) for roll in db.execute(ALL_DICE))
            return
        yield from (dice_line(roll, with_time=True) for roll in db.execute(LOOSE_DICE))
        marks = replay_marks(db)
        names = Names(db, preload=True)
        dice = iter(db.execute(EVENT_DICE))
        roll = next(dice, None)
        for event in db.execute(EVENTS):
            changes = [] if event.kind in REPLAYS else load(event.changes)
            yield event_line(event, marks.get(event.id, ()))
            yield from (INDENT + line for line in change_lines(changes, names))
            while roll is not None and roll.event <= event.id:
                if roll.event == event.id:
                    yield INDENT + dice_line(roll)
                roll = next(dice, None)
            if event.undone:  # its dice were taken back with it; the event still holds them
                yield from (INDENT + dice_line(kept, undone=True) for kept in stored_dice(changes))


def replay_marks(db: Connection) -> dict[int, list[str]]:
    """For each action undone or redone: "undone #15", "redone #16", in order."""
    marks: dict[int, list[str]] = {}
    for number, kind, changes in db.execute(REPLAY_EVENTS):
        action = target(changes)
        if action is not None:
            marks.setdefault(action, []).append(f"{'undone' if kind == 'undo' else 'redone'} #{number}")
    return marks


def event_line(event: Any, marks: list[str] | tuple[str, ...] = ()) -> str:
    description = event.description
    if event.kind in REPLAYS:
        description = f"#{target(event.changes)} {description}"
    state = f"  [{', '.join(marks)}]" if marks else ("  [undone]" if event.undone else "")
    return f"#{event.id}  {_time(event)}  {event.kind:<6}  {description}{state}"


def stored_dice(changes: list[dict[str, Any]]) -> list[SimpleNamespace]:
    """The dice rows an event inserted, as its changes recorded them."""
    rows = []
    for row in inserted_dice(changes):
        when = row.get("when")
        rows.append(SimpleNamespace(**{**row, "when": datetime.fromisoformat(when) if isinstance(when, str) else when}))
    return rows


def dice_line(roll: Any, *, with_time: bool = False, undone: bool = False) -> str:
    """A stored roll (an ORM row or a plain SQL row) as one line."""
    modifiers = "".join(f" {m['value']:+d} ({m['label']})" for m in roll.modifiers)
    source = f"rolled, stream {roll.stream_index}" if roll.mode == ROLLED else "typed in"
    when = f"{_time(roll)}  " if with_time else ""
    raw = " ".join(str(value) for value in roll.raw)
    reading = f"{roll.dice} = {raw}{modifiers} = {roll.result}"
    taken_back = ", undone" if undone else ""
    return f"{when}dice #{roll.id}: {roll.purpose} {reading}  [{source}, {roll.by}{taken_back}]"


def _time(row: Any) -> str:
    return row.when.astimezone().strftime("%Y-%m-%d %H:%M:%S")


@dataclass(frozen=True)
class DiceAudit:
    rolled: int  # how many stored rolls came from the dice service
    mismatches: tuple[DiceRoll, ...]  # those that a replay from the seed does not give
    typed: int = 0  # how many were typed in by the umpire: nothing to replay


def audit_dice(store: CampaignStore, seed: int | None = None) -> DiceAudit:
    """Replay every rolled die from the campaign's seed (or `seed`, as revealed) and stream position."""
    seed = store.campaign().dice_seed if seed is None else seed
    with store.read() as session:
        stored = dice_rolls(session)
    rows = [row for row in stored if row.mode == ROLLED]
    mismatches = tuple(row for row in rows if verify(seed, [to_record(row)]))
    return DiceAudit(len(rows), mismatches, typed=len(stored) - len(rows))

"""What undo and redo would act on, read from the event log itself.

Nothing is ever deleted from the event log. An undo or a redo is an event of
its own (kind "undo" or "redo") whose `changes` name the action it undid or
redid: [{"event": 12}]. The action's own `undone` flag says whether its changes
are in the campaign now.

- Undo takes the newest action whose changes are in the campaign.
- Redo takes the action undone last, but only among the undos made since the
  newest action was taken: an action taken after an undo abandons what was
  undone before it (it stays in the record, marked undone, and cannot be redone,
  because the campaign has moved on from the state it was made in).
- Files written before undo events existed kept an undone action only at the end
  of the log, with no undo event naming it: those are at the bottom of the redo
  stack, newest first, so they redo oldest first as they did then.

Plain SQL on a connection, so the overview (which reads without the ORM) and
the store share one reading.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, text

ACTION = "action"
UNDO = "undo"
REDO = "redo"
REPLAYS = (UNDO, REDO)

UNDOABLE = text(
    "SELECT id, kind FROM event WHERE NOT undone AND kind NOT IN ('undo', 'redo') ORDER BY id DESC LIMIT 1"
)
LAST_TAKEN = text("SELECT max(id) FROM event WHERE kind NOT IN ('undo', 'redo')")
REPLAYS_SINCE = text("SELECT kind, changes FROM event WHERE id > :since AND kind IN ('undo', 'redo') ORDER BY id")
# "undone = :yes", not a bare "undone": only a comparison reaches the index ix_event_undone.
NEWEST_DONE = text("SELECT max(id) FROM event WHERE NOT undone AND kind NOT IN ('undo', 'redo')")
UNDONE_SINCE = text(
    "SELECT id FROM event WHERE undone = :yes AND kind = 'action' AND id > :since ORDER BY id DESC"
).bindparams(yes=True)
NAMED_SINCE = text("SELECT changes FROM event WHERE id > :since AND kind IN ('undo', 'redo')")
# Whether any action is undone: one row of the index ix_event_undone, not a count over every event.
ANY_UNDONE = text("SELECT 1 FROM event WHERE undone = :yes AND kind = 'action' LIMIT 1").bindparams(yes=True)


def target(changes: Any) -> int | None:
    """The action an undo or redo event names."""
    if isinstance(changes, str):  # JSON read by plain SQL comes back as text on SQLite
        changes = json.loads(changes)
    if changes and isinstance(changes, list) and isinstance(changes[0], dict):
        value = changes[0].get("event")
        return value if isinstance(value, int) else None
    return None


def undo_target(db: Connection) -> int | None:
    """The action an undo would undo, or None when the newest done event is not an action."""
    row = db.execute(UNDOABLE).first()
    return row[0] if row is not None and row[1] == ACTION else None


def redo_target(db: Connection) -> int | None:
    """The action a redo would redo: the last one undone since the newest action was taken."""
    since = db.execute(LAST_TAKEN).scalar() or 0
    stack = _legacy_undone(db) + redo_stack(db.execute(REPLAYS_SINCE, {"since": since}))
    return stack[-1] if stack else None


def _legacy_undone(db: Connection) -> list[int]:
    """Undone actions above the newest done one that no undo event names (written before there were any)."""
    undone = list(db.execute(UNDONE_SINCE, {"since": db.execute(NEWEST_DONE).scalar() or 0}).scalars())
    if not undone:
        return []
    named = {target(changes) for changes in db.execute(NAMED_SINCE, {"since": undone[-1]}).scalars()}
    return [number for number in undone if number not in named]


def redo_stack(replays: Iterable[Any]) -> list[int]:
    """Replay the undos and redos in order: what is left undone, in the order it was undone."""
    stack: list[int] = []
    for kind, changes in replays:
        event = target(changes)
        if event is None:
            continue
        if kind == UNDO:
            stack.append(event)
        elif event in stack:
            stack.remove(event)
    return stack


def abandoned(db: Connection) -> bool:
    """Whether any action is undone (a redoable one, or one a later action abandoned)."""
    return db.execute(ANY_UNDONE).first() is not None

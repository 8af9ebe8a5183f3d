"""An event's changes as an umpire reads them: each changed field old -> new, rows by name.

    unit Ney's 1st division: SP 12 -> 10; location Weimar -> Erfurt
    general Ney: superior Napoleon -> (none)
    battle #1 at Lützen: detail.tactical.phase movement -> fire

Ids appear only where no name is known (a row removed long ago); `adjutant
export` keeps the ids. The dice an action rolled are shown as dice lines
(campaigns.log.dice_line), not as rows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import orjson
from sqlalchemy import Connection, text

from campaigns.phases import phases
from campaigns.words import plural

# How each stored column reads in the history; the rest lose their underscores.
FIELDS = {
    "strength_points": "SP",
    "command_value": "CV",
    "tactical_bonus": "tactical bonus",
    "artillery_bonus": "artillery bonus",
    "cavalry_bonus": "cavalry bonus",
    "out_of_command": "out of command",
    "dice_next_index": "dice stream position",
    "dice_mode": "dice",
    "weather_source": "weather from",
    "dice_roll": "dice",
    "start_date": "start date",
    "turn_days": "days per turn",
}

# Columns that hold the id of a row that has a name, and the table it names.
REFERENCES = {"general": "general", "superior": "general", "commander": "general", "army": "army", "side": "side"}
NAMED_TABLES = ("unit", "general", "army", "side")
TABLES = {"command_point_roll": "command points", "command_point_spend": "command point spending", "dice_roll": "dice"}
NOTHING = "(none)"
# A nested value (a tabletop battle's whole state) longer than this is shown as a summary
# of its keys; `adjutant log --full` sets WHOLE_VALUES to show it whole.
LONG_VALUE = 200
WHOLE_VALUES = False


class Names:
    """Display names of units, generals, armies and sides, by id, read with plain SQL.

    `preload` reads every name once (for the whole log); otherwise each id is
    looked up when first met (for a screen that shows a few events)."""

    def __init__(self, db: Connection, *, preload: bool = False) -> None:
        self.db = db
        self.known: dict[tuple[str, str], str | None] = {}
        # With every name read: the same names by table, then by id (a million events' log
        # looks one up for almost every event, and a text key is quicker than a pair).
        self.by_table: dict[str, dict[Any, str | None]] = {table: {} for table in NAMED_TABLES}
        if preload:
            for table in NAMED_TABLES:
                of_table = self.by_table[table]
                for key, name in db.execute(text(f"SELECT id, name FROM {table}")):  # noqa: S608 - fixed table names
                    self.known[(table, key)] = name
                    of_table[key] = name
            self.complete = True
        else:
            self.complete = False

    def name(self, table: str, key: Any) -> str:
        if not isinstance(key, str):
            return str(key)
        if (table, key) not in self.known:
            if self.complete:
                return key
            row = self.db.execute(text(f"SELECT name FROM {table} WHERE id = :id"), {"id": key}).first()  # noqa: S608
            self.known[(table, key)] = row[0] if row else None
        return self.known[(table, key)] or key

    def remember(self, table: str, key: Any, row: dict[str, Any] | None) -> None:
        # A removed row's name lives on in the change that removed it.
        if row and table in NAMED_TABLES and isinstance(row.get("name"), str):
            self.known[(table, key)] = self.by_table[table][key] = row["name"]


def load(changes: Any) -> list[dict[str, Any]]:
    """The changes of an event read by plain SQL (text on SQLite, parsed on PostgreSQL).

    Read with orjson, several times quicker; what orjson does not read (NaN, lone
    surrogates) is left to the standard library, so such a history reads as it always has.
    The one value the two read otherwise is a whole number past 64 bits, a float for orjson,
    which Adjutant never stores (models.export_format refuses it)."""
    if isinstance(changes, str | bytes):
        try:
            changes = orjson.loads(changes)
        except orjson.JSONDecodeError:
            changes = json.loads(changes)
    return changes if isinstance(changes, list) else []


def change_lines(changes: list[dict[str, Any]], names: Names, *, width: int | None = None) -> Iterator[str]:
    """One line per changed row, every changed field old -> new; values cut to `width` if given."""
    for change in changes if len(changes) < 2 else _merged(changes):
        table = change.get("table", "?")
        if table == "dice_roll":
            continue  # shown as dice lines
        key = change.get("key")
        key = key if isinstance(key, dict) else {}  # a record edited by hand names its row otherwise
        before, after = change.get("before"), change.get("after")
        if table in NAMED_TABLES:
            names.remember(table, key.get("id"), before or after)
        row = _row_name(table, key, before or {}, after or {}, names)
        if before is None:
            note = after.get("text") if table == "event_note" and isinstance(after, dict) else None
            yield f"{row} added: {note}" if isinstance(note, str) and note.strip() else f"{row} added"
        elif after is None:
            yield f"{row} removed"
        else:
            if width is None:  # the whole log: no cutting, and no call per value for it
                fields = [f"{label} {old} -> {new}" for label, old, new in _fields(table, before, after, names)]
            else:
                fields = [
                    f"{label} {_cut(old, width)} -> {_cut(new, width)}"
                    for label, old, new in _fields(table, before, after, names)
                ]
            yield f"{row}: " + "; ".join(fields) if fields else f"{row} changed"


def update_line(change: dict[str, Any], names: Names) -> str | None:
    """The line `change_lines` gives an event whose one change updates plain values of one
    row (the form almost every action stores), in one call with nothing cut; None for any
    other form (a row added or removed, a reference, a phase, a nested value), which
    `change_lines` shows. The whole log goes through here: a million events."""
    get = change.get
    table, key, before, after = get("table", "?"), get("key"), get("before"), get("after")
    if type(table) is not str or table == "dice_roll":
        return None
    if type(key) is not dict or type(before) is not dict or type(after) is not dict:
        return None
    labels = _PLAIN_LABELS.get(table)
    if labels is None:
        labels = _PLAIN_LABELS[table] = {}
    fields = []
    for column, new in after.items():
        label = labels.get(column)
        if label is None:
            label = labels[column] = _plain_label(table, column)
        old = before.get(column)
        if not label or (isinstance(old, dict) and isinstance(new, dict)):
            return None
        # `_show`, its most common case first without a call
        fields.append(
            f"{label} {old if type(old) is str and old.strip() else _show(old)} -> "
            f"{new if type(new) is str and new.strip() else _show(new)}"
        )
    of_table = names.by_table.get(table)
    if of_table is not None:  # a named table
        ident: Any = key.get("id")
        named = before or after  # `names.remember`, without its call
        if named and isinstance(stored := named.get("name"), str):
            names.known[(table, ident)] = of_table[ident] = stored
        name = after.get("name") or before.get("name")
        if not name:  # `names.name`, without its call where every name is known
            name = (of_table.get(ident) or ident) if names.complete and type(ident) is str else names.name(table, ident)
        row = f"{table} {name}"
    else:
        row = _row_name(table, key, before, after, names)
    if not fields:
        return f"{row} changed"
    return f"{row}: {fields[0]}" if len(fields) == 1 else f"{row}: " + "; ".join(fields)


# table -> column -> how `_fields` labels a column it shows as its plain value; "" for one it
# shows otherwise (a phase by name, a dice roll by number, a reference by name).
_PLAIN_LABELS: dict[str, dict[str, str]] = {}


def _plain_label(table: Any, column: Any) -> str:
    if (table == "campaign" and column == "phase") or column == "dice_roll" or (column in REFERENCES and table != "campaign"):
        return ""
    return FIELDS.get(column) or column.replace("_", " ")


def _merged(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Updates of one row within one action read as one: the first old value, the last new one."""
    if len(changes) < 2:
        return changes
    out: list[dict[str, Any]] = []
    updates: dict[tuple, dict[str, Any]] = {}
    for change in changes:
        before, after = change.get("before"), change.get("after")
        if before is None or after is None:
            out.append(change)
            continue
        key = change.get("key")
        row = (change.get("table"), tuple(sorted((str(k), str(v)) for k, v in key.items())) if isinstance(key, dict) else str(key))
        if row in updates:
            merged = updates[row]
            merged["before"] = {**before, **merged["before"]}
            merged["after"] = {**merged["after"], **after}
        else:
            updates[row] = {**change, "before": dict(before), "after": dict(after)}
            out.append(updates[row])
    return out


def inserted_dice(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The dice rolls an action stored, as its event recorded them (kept after an undo)."""
    return [
        {**c.get("key", {}), **c["after"]}
        for c in changes
        if c.get("table") == "dice_roll" and c.get("before") is None and c.get("after")
    ]


def _row_name(table: str, key: dict[str, Any], before: dict, after: dict, names: Names) -> str:
    ident = key.get("id")
    if table in NAMED_TABLES:
        name = after.get("name") or before.get("name") or names.name(table, ident)
        return f"{table} {name}"
    if table == "battle":
        where = after.get("location") or before.get("location")
        return f"battle #{ident}" + (f" at {where}" if where else "")
    if table == "turn":
        return f"turn {key.get('number', '?')}"
    if table == "campaign":
        return "campaign"
    label = TABLES.get(table, table.replace("_", " "))
    army = after.get("army") or before.get("army")
    return f"{label} of {names.name('army', army)}" if army else f"{label} #{ident}"


def _fields(table: str, before: dict, after: dict, names: Names) -> Iterator[tuple[str, str, str]]:
    for column, new in after.items():
        old = before.get(column)
        if isinstance(old, dict) and isinstance(new, dict):
            for path, a, b in _diff(old, new, column):
                if (step := _JOURNAL_STEP.fullmatch(path)) and a is None and isinstance(b, dict):
                    # a battle's record of play grows by a step: what was done, in words, not its JSON
                    yield f"record of play, step {step[1]}", NOTHING, _step(b)
                else:
                    yield path, _show(a), _show(b)
            continue
        label = FIELDS.get(column) or column.replace("_", " ")
        if table == "campaign" and column == "phase":
            yield label, _phase(old), _phase(new)
        elif column == "dice_roll":
            yield label, _show(old if old is None else f"#{old}"), _show(new if new is None else f"#{new}")
        elif column in REFERENCES and table != "campaign":
            yield label, _ref(REFERENCES[column], old, names), _ref(REFERENCES[column], new, names)
        else:
            yield label, _show(old), _show(new)


_JOURNAL_STEP = re.compile(r"detail\.journal\[(\d+)\]")
_STEP_WORDS = {"raw": "dice"}  # a step's keys as the log names them


def _step(entry: dict) -> str:
    """A step of a battle's record ({"do": "roll", "raw": [3]}) as "roll: dice 3"."""
    done = entry.get("do")
    rest = "; ".join(
        f"{_STEP_WORDS.get(key, str(key).replace('_', ' '))} {' '.join(map(_show, value)) if isinstance(value, list) else _show(value)}"
        for key, value in entry.items()
        if key != "do"
    )
    head = _show(done) if done is not None else "step"
    return f"{head}: {rest}" if rest else head


def _diff(old: Any, new: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    """The leaves of two JSON documents that differ, by dotted path."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            if old.get(key) != new.get(key):
                yield from _diff(old.get(key), new.get(key), f"{path}.{key}")
    elif isinstance(old, list) and isinstance(new, list) and len(old) <= len(new) and old == new[: len(old)]:
        for i in range(len(old), len(new)):  # appended, as a log or a list of units grows
            yield f"{path}[{i + 1}]".replace("_", " "), None, new[i]
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                yield from _diff(a, b, f"{path}[{i + 1}]")
    elif old != new:
        yield path.replace("_", " "), old, new


def _phase(value: Any) -> str:
    known = {p.id: p.name for p in phases()}
    return known.get(value, _show(value)) if isinstance(value, str) else _show(value)


def _ref(table: str, value: Any, names: Names) -> str:
    return NOTHING if value is None else names.name(table, value)


def _show(value: Any) -> str:
    if type(value) is str:  # the most common, first
        return value if value.strip() else repr(value)
    if value is None:
        return NOTHING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value if value.strip() else repr(value)
    if isinstance(value, list | dict):
        whole = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        return whole if WHOLE_VALUES or len(whole) <= LONG_VALUE else f"{_summary(value)} ({len(whole)} characters: --full shows them)"
    return str(value)


def _summary(value: list | dict, keys: int = 6) -> str:
    """A long nested value in a few words: a dict's first keys with their plain values or sizes."""
    if isinstance(value, list):
        return f"[{plural(len(value), 'item')}]"

    def brief(item: Any) -> str:
        if isinstance(item, dict):
            return f"{{{plural(len(item), 'key')}}}"
        if isinstance(item, list):
            return f"[{plural(len(item), 'item')}]"
        shown = _show(item)
        return shown if len(shown) <= 40 else shown[:39] + "…"

    parts = [f"{k}: {brief(v)}" for k, v in list(value.items())[:keys]]
    more = f", and {len(value) - keys} more" if len(value) > keys else ""
    return "{" + ", ".join(parts) + more + "}"


def _cut(value: str, width: int | None) -> str:
    if width is None or len(value) <= width:
        return value
    return value[: width - 1] + "…"

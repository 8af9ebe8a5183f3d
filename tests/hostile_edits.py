"""Campaign files hand-edited with `sqlite3`: the schema is Adjutant's own, the data is not.

A club member opens the file in `sqlite3` (whose foreign keys are off by default) and
changes a row: a NULL where the code expects a value, a reference to a row that does
not exist, a duplicate name, a number out of range or of the wrong type (SQLite's type
affinity keeps text in an INTEGER column), text with control characters, bidi overrides
or ANSI escapes, an event whose record of changes is not JSON or not of the right shape,
turns out of order, rows deleted. `edits(real)` lists every such edit of a played
campaign, each one SQL statement a person could type; `make(real, path, edit)` applies
it to a copy. Used by tests/test_hostile_edits.py (a drawn sample, every kind each run)
and by `python -m tests.hostile_edits` (all of them, with the figures by command and kind).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# Text a hand editor may paste: terminal escapes, C1 controls, bidi overrides, NEL, separators.
NASTY_TEXT = [
    "\x1b]0;pwned\x07\x1b[2J",
    "\x1b[31mred\x1b[0m",
    "\x9b6n\x85next",
    "\u202eevil\u202c \u2066isolate\u2069 \u200fmarks\u200e\u061c",
    "line\u2028separator\u2029",
    "nul\x00byte",
    "back\x08space\rreturn",
    "x" * 100_000,
]
# Numbers a hand editor may type into an INTEGER column (SQLite keeps each as typed).
NASTY_NUMBERS = ["-5", "0", "-9223372036854775808", "9223372036854775807", "4611686018427387904", "2.5",
                 "1e300", "'abc'", "'7'", "''", "X'07'"]
# Values a hand editor may type into a DATE or DATETIME column (SQLite keeps a number as a number,
# where SQLAlchemy reads text only), and the calendar's ends, which no zone may carry a moment past.
NASTY_MOMENTS = ["0", "-1", "1e300", "X'07'", "'abc'", "'0001-01-01'", "'9999-12-31 23:59:59.999999'"]
# And into a BOOLEAN column.
NASTY_FLAGS = ["2", "-1", "'yes'"]
# Dice a hand editor may type for a roll: each is no expression the dice service stores
# (one as `str(Dice)` writes it, rules.dice.stored_dice), or one whose odds the luck cannot weigh.
NASTY_DICE = ["abc", "", "1d6+", "1d6 + ", "1d6 + 2d6", "0d6", "1d0", "1d1", "99999999999d6", "1d99999999999",
              "d6", "1D6", " 1d6", "01d6", "1d6kh0", "2d6kh3", "1d6>=", "\u0661d6", "1d\u0666", "\uff11d6",
              "1d6\x1b[2J", "1d6\x00", "1\u202ed6", "99d1000000", "13d100", "21d20kh1", "1d6" * 20]
# Records of changes an event may be given by hand.
NASTY_CHANGES = ["'{'", "'{}'", "'null'", "'\"text\"'", "'[1, 2]'", "'[{}]'", "'[{\"table\": \"nope\"}]'",
                 "'[{\"table\": \"unit\", \"key\": {\"id\": \"nobody\"}, \"before\": {\"location\": 5}, \"after\": []}]'",
                 "'[{\"table\": \"unit\", \"key\": 7, \"before\": null, \"after\": null}]'",
                 "'[{\"event\": \"x\"}]'", "'[{\"event\": 999999}]'", "X'FF'"]
# Columns holding a key or a word the code looks up (a place, a side): their own kind of edit.
KEYS = {"id", "nation", "side", "army", "general", "superior", "commander", "kind", "ruleset", "scenario",
        "dice_mode", "phase", "mode", "dice", "weather", "weather_source", "status", "resolver", "result",
        "action", "turn", "enemy_side", "fog_side", "event", "battle", "dice_roll", "number", "location",
        "place", "place_a", "place_b", "river", "loc", "stack"}
# References the schema does not declare: (table, column) -> the table whose row it names.
SOFT_REFERENCES = {
    ("army", "commander"): "general", ("dice_roll", "battle"): "battle", ("campaign", "fog_side"): "side",
    ("campaign", "turn"): "turn", ("side_order", "turn"): "turn", ("event_note", "event"): "event",
}
# A place's name as a hostile hand may extend it: the place is then none the map knows.
PLACE_ESCAPES = "\x1b[2J\u202e\x00\x9b6n"
PLACES = [("unit", "location"), ("general", "location"), ("battle", "location"), ("sighting", "place"),
          ("activation", "place"), ("side_order", "place")]


@dataclass(frozen=True)
class Edit:
    """One hand edit: its kind (for the figures), what it does, and the SQL typed."""

    kind: str
    what: str
    sql: tuple[str, ...]


def _own_tables(db: sqlite3.Connection) -> list[str]:
    return [name for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' "
        "AND name NOT LIKE '%search%' AND name NOT IN ('alembic_version', 'dice_tally') ORDER BY name")]


def _row_key(db: sqlite3.Connection, table: str) -> str:
    """The columns that name a row of `table`: its rowid, or for a table WITHOUT ROWID (event_unit)
    its primary key's."""
    try:
        db.execute(f'SELECT rowid FROM "{table}" LIMIT 0')
        return "rowid"
    except sqlite3.OperationalError:  # no such column: rowid
        pass
    key = sorted((primary, column) for _c, column, _k, _n, _d, primary in db.execute(f'PRAGMA table_info("{table}")')
                 if primary)
    return ", ".join(f'"{column}"' for _p, column in key)


def _rows(table: str, key: str, where: str = "", count: int = 2, offset: int = 0) -> str:
    """A condition on `table`'s rows: the first `count` after `offset` (in the order of `key`, as
    _row_key gives it) of those that match `where`."""
    where = f" WHERE {where}" if where else ""
    return (f'({key}) IN (SELECT {key} FROM "{table}"{where} ORDER BY {key} LIMIT {count}'
            + (f" OFFSET {offset})" if offset else ")"))


def _some(table: str, column: str, count: int = 2, key: str = "rowid") -> str:
    """The rows of `table` an edit changes: the first `count` whose `column` is set."""
    return _rows(table, key, f'"{column}" IS NOT NULL', count)


def edits(real: Path) -> list[Edit]:
    """Every hand edit of the corpus, in a fixed order (some 400)."""
    db = sqlite3.connect(f"file:{real}?mode=ro", uri=True)
    try:
        found: list[Edit] = []
        for table in _own_tables(db):
            info = list(db.execute(f'PRAGMA table_info("{table}")'))
            key = _row_key(db, table)
            foreign = {row[3]: row[2] for row in db.execute(f'PRAGMA foreign_key_list("{table}")')}
            for _cid, column, kind, notnull, _default, primary in info:
                kind = kind.upper()
                where = _some(table, column, key=key)
                if not notnull and not primary:
                    found.append(Edit("null", f"{table}.{column} set to NULL",
                                      (f'UPDATE "{table}" SET "{column}" = NULL WHERE {where}',)))
                parent = foreign.get(column) or SOFT_REFERENCES.get((table, column))
                if parent is not None:
                    value = "999999" if kind.startswith(("INT", "BIG")) else "'nowhere'"
                    found.append(Edit("dangling", f"{table}.{column} names a {parent} that does not exist",
                                      (f'UPDATE "{table}" SET "{column}" = {value} WHERE {where}',)))
                if kind.startswith(("INT", "BIG")) and not primary:
                    for value in NASTY_NUMBERS:
                        found.append(Edit("number", f"{table}.{column} = {value}",
                                          (f'UPDATE "{table}" SET "{column}" = {value} WHERE {where}',)))
                nasty = NASTY_MOMENTS if kind in ("DATE", "DATETIME") else NASTY_FLAGS if kind == "BOOLEAN" else []
                for value in nasty:  # of the kind "number": a value of the wrong type or past its range
                    found.append(Edit("number", f"{table}.{column} = {value}",
                                      (f'UPDATE "{table}" SET "{column}" = {value} WHERE {where}',)))
                if kind.startswith("VARCHAR") and column not in KEYS:
                    for number, value in enumerate(NASTY_TEXT):
                        found.append(Edit("text", f"{table}.{column} given nasty text {number}",
                                          (f'UPDATE "{table}" SET "{column}" = "{column}" || {_literal(value)} WHERE {where}',)))
                if kind == "JSON":
                    for value in ("'{'", "'null'", "'[1]'", "'{\"a\": []}'", "'\"\\u001b[2J\"'"):
                        found.append(Edit("json", f"{table}.{column} = {value}",
                                          (f'UPDATE "{table}" SET "{column}" = {value} WHERE {where}',)))
            names = [column for _c, column, *_rest in info]
            if "name" in names:
                found.append(Edit("duplicate", f"two {table} rows share a name",
                                  (f'UPDATE "{table}" SET name = (SELECT name FROM "{table}" ORDER BY {key} LIMIT 1) '
                                   f'WHERE {_rows(table, key, count=1, offset=1)}',)))
            found.append(Edit("deleted", f"every {table} row deleted", (f'DELETE FROM "{table}"',)))
            found.append(Edit("deleted", f"the first {table} row deleted",
                              (f'DELETE FROM "{table}" WHERE {_rows(table, key, count=1)}',)))
        for table, column in PLACES:
            found.append(Edit("place", f"{table}.{column} names a place not on the map",
                              (f'UPDATE "{table}" SET "{column}" = \'Atlantis\' WHERE {_some(table, column)}',)))
            found.append(Edit("place", f"{table}.{column} names a place with terminal escapes and a bidi override",
                              (f'UPDATE "{table}" SET "{column}" = "{column}" || {_literal(PLACE_ESCAPES)} '
                               f'WHERE {_some(table, column)}',)))
        for value in NASTY_CHANGES:
            found.append(Edit("event", f"an event's changes = {value}",
                              (f"UPDATE event SET changes = {value} WHERE id = (SELECT max(id) FROM event)",)))
            found.append(Edit("event", f"the first action's changes = {value}",
                              (f"UPDATE event SET changes = {value} WHERE id = (SELECT min(id) FROM event WHERE kind = 'action')",)))
        for value in ("'zzz'", "'undo'", "'redo'", "NULL", "5"):
            found.append(Edit("event", f"an event's kind = {value}",
                              (f"UPDATE event SET kind = {value} WHERE id = (SELECT max(id) FROM event)",)))
        for value in ("2", "'yes'", "-1"):
            found.append(Edit("event", f"an event's undone = {value}",
                              (f"UPDATE event SET undone = {value} WHERE id = (SELECT max(id) FROM event)",)))
        for value in NASTY_DICE:
            found.append(Edit("dice", f"dice_roll.dice = {value!r}",
                              (f"UPDATE dice_roll SET dice = {_literal(value)} WHERE {_some('dice_roll', 'dice', 1)}",)))
        for statement in (
            "UPDATE campaign SET turn = 0", "UPDATE campaign SET turn = -1", "UPDATE campaign SET turn = turns + 1",
            "UPDATE campaign SET turn = 1000000", "UPDATE campaign SET turns = 0", "UPDATE campaign SET turns = 2",
            "UPDATE campaign SET turn_days = 0", "UPDATE campaign SET turn_days = -3",
            "UPDATE campaign SET start_date = '1813-02-30'", "UPDATE campaign SET phase = 'brunch'",
            "UPDATE turn SET date = '1812-01-01' WHERE number = 3",
            "UPDATE turn SET number = number + 100 WHERE number = 2",
            "UPDATE turn SET number = -number WHERE number = 1",
            "DELETE FROM turn WHERE number = (SELECT turn FROM campaign)",
            "DELETE FROM turn WHERE number > 1",
            "UPDATE battle SET turn = (SELECT turn FROM campaign) + 3",
            "UPDATE command_point_roll SET turn = 15",
            "UPDATE event SET \"when\" = '1700-01-01' WHERE id = (SELECT max(id) FROM event)",
            "UPDATE event SET id = id + 1000 WHERE id = (SELECT min(id) FROM event WHERE kind = 'action')",
            "UPDATE dice_roll SET stream_index = 0",
            "UPDATE campaign SET dice_next_index = 0",
            "UPDATE campaign SET fog_side = 'allies', fog_turn = 99",
            "UPDATE side SET position = 0",
            "UPDATE unit SET nation = (SELECT id FROM nation WHERE side = 'allies' LIMIT 1) "
            "WHERE general IN (SELECT id FROM general WHERE nation IN (SELECT id FROM nation WHERE side = 'french'))",
            "UPDATE general SET superior = id",
            "UPDATE general SET superior = 'ney' WHERE id = (SELECT superior FROM general WHERE id = 'ney')",
            "UPDATE army SET commander = (SELECT id FROM general WHERE nation IN "
            "(SELECT id FROM nation WHERE side = 'allies') LIMIT 1)",
            "DELETE FROM general WHERE id IN (SELECT commander FROM army)",
            "DELETE FROM nation WHERE side = 'allies'",
            "DELETE FROM side WHERE id = 'allies'",
            "UPDATE side SET id = 'Allies' WHERE id = 'allies'",
            "UPDATE unit SET kind = 'dragon'",
            "UPDATE unit SET strength_points = -strength_points",
            "UPDATE unit SET cohesion = 99",
            "UPDATE general SET rank = 0, command_value = -4",
            "UPDATE battle SET status = 'won'",
            "UPDATE battle SET participants = '{\"attackers\": 5}'",
            "UPDATE dice_roll SET raw = '[7, 0, -1]'",
            "UPDATE dice_roll SET dice = '99d1000000'",
            "UPDATE dice_roll SET dice = 'abc'",
            "UPDATE dice_roll SET result = 1000",
        ):
            found.append(Edit("order", statement[:90], (statement,)))
        return found
    finally:
        db.close()


def _literal(value: str) -> str:
    """`value` as a SQL literal a person could type (char() for what a terminal cannot)."""
    parts = []
    for run in re.split(r"([\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069])", value):
        if not run:
            continue
        if len(run) == 1 and re.fullmatch(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", run):
            parts.append(f"char({ord(run)})")
        else:
            parts.append("'" + run.replace("'", "''") + "'")
    return " || ".join(parts) or "''"


def make(real: Path, path: Path, edit: Edit) -> bool:
    """A copy of `real` at `path` with `edit` made as `sqlite3` makes it; False if SQLite refused it
    (a NOT NULL or primary key): the file is then `real` itself, which the corpus does not count."""
    shutil.copyfile(real, path)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA foreign_keys = OFF")  # sqlite3's default
        before = db.total_changes
        for statement in edit.sql:
            db.execute(statement)
        return db.total_changes > before
    except sqlite3.IntegrityError:
        return False
    finally:
        db.close()


# Edits the commands refuse as damaged while `check` calls the file sound: left out of the
# suite's draw until `check` (models/export_format.py) refuses them too. None now.
KNOWN_GAPS: tuple[str, ...] = ()


def drawn(real: Path, seed: int) -> list[list[Edit]]:
    """The edits of every kind, each kind's in an order drawn with `seed`: a run takes the first of
    each that changes the file (an edit of an empty table changes nothing). Over runs, every edit is tried."""
    rng = random.Random(seed)
    by_kind: dict[str, list[Edit]] = {}
    for edit in edits(real):
        if edit.what not in KNOWN_GAPS:
            by_kind.setdefault(edit.kind, []).append(edit)
    for listed in by_kind.values():
        rng.shuffle(listed)
    return [by_kind[kind] for kind in sorted(by_kind)]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    """Every edit, every read-only command: the figures by command and kind, and each failure."""
    from tests.test_hostile_edits import judge_all, played_file

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="only edits whose description holds this")
    parser.add_argument("--kind", default="", help="only edits of this kind")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="adjutant-hostile-edits-") as folder:
        real = played_file(Path(folder) / "real.campaign")
        chosen = [e for e in edits(real) if args.only in e.what and (not args.kind or e.kind == args.kind)]
        failures: collections.Counter[tuple[str, str, str]] = collections.Counter()
        made = 0
        start = time.process_time()
        for number, edit in enumerate(chosen):
            home = Path(folder) / f"{number:05d}"
            home.mkdir()
            path = home / "edited.campaign"
            if not make(real, path, edit):
                continue
            made += 1
            for command, problem in judge_all(path, home, real):
                if problem.startswith("note:"):
                    print(f"NOTE [{edit.kind}] {edit.what} :: {command} :: {problem[6:300]}")
                    continue
                failures[(edit.kind, command, problem.split(":")[0])] += 1
                print(f"FAILED [{edit.kind}] {edit.what} :: {command} :: {problem[:300]}")
            shutil.rmtree(home)
            shutil.rmtree(home.parent / f"{home.name}-out", ignore_errors=True)
        print(f"{made} edited files of {len(chosen)} edits, {time.process_time() - start:.1f} CPU-s")
        for (kind, command, problem), count in sorted(failures.items()):
            print(f"{count:5d}  {kind:10s} {command:28s} {problem}")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

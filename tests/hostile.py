"""A seeded corpus of campaign files a hostile sender might mail, and of hostile exports.

`corpus(real, folder, count, seed)` writes `count` files made from `real` (a
campaign Adjutant made): random bytes, truncations, bit flips, foreign SQLite,
extra triggers, views, tables and indexes, wrong schema versions, dropped
tables, a bad value in every column, escape sequences in every text column and
WAL mode. The same seed always gives the same files. Used by
tests/test_hostile_files.py and by tests/hostile_corpus.py (the 1,000+ file run).
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

# Terminal control a hostile text may hold: retitle the window, clear the screen, a C1 CSI, NUL,
# and the bidirectional controls that turn what follows around ("Trojan Source"): an override,
# an isolate, a mark.
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[31m\x9b6n\x00\x08\r\u202e\u2067\u200f"
# What the trigger files do when they fire: every unit's strength points to nothing, and a mark.
FIRED = "pwned_by_trigger"

Maker = Callable[[Path, Path, random.Random], None]


def _copy(real: Path, path: Path) -> sqlite3.Connection:
    shutil.copyfile(real, path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA foreign_keys = OFF")
    return db


def _sql(*statements: str) -> Maker:
    def make(path: Path, real: Path, _rng: random.Random) -> None:
        db = _copy(real, path)
        try:
            for statement in statements:
                db.execute(statement)
        finally:
            db.close()

    make.__name__ = "sql: " + " / ".join(statements)[:80]
    return make


def columns(real: Path) -> list[tuple[str, str, str]]:
    """(table, column, declared type) of every column of the campaign's own tables."""
    db = sqlite3.connect(f"file:{real}?mode=ro", uri=True)
    try:
        tables = [
            row[0]
            for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")
        ]
        return [
            (table, row[1], row[2].upper())
            for table in tables
            for row in db.execute(f'PRAGMA table_info("{table}")')
        ]
    finally:
        db.close()


def random_bytes(path: Path, _real: Path, rng: random.Random) -> None:
    head = rng.choice([b"", b"SQLite format 3\x00", b"SQLite format 3\x00" + bytes(80)])
    path.write_bytes(head + rng.randbytes(rng.choice([1, 99, 100, 512, 4096, 8192, 20000])))


def truncated(path: Path, real: Path, rng: random.Random) -> None:
    data = real.read_bytes()
    path.write_bytes(data[: rng.randrange(1, len(data))])


def bit_flips(path: Path, real: Path, rng: random.Random) -> None:
    data = bytearray(real.read_bytes())
    for _ in range(rng.choice([1, 1, 2, 4, 16, 64])):
        spot = rng.randrange(len(data))
        data[spot] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def foreign_sqlite(path: Path, _real: Path, rng: random.Random) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, text TEXT)")
    db.execute("INSERT INTO orders (text) VALUES ('march on Dresden')")
    if rng.random() < 0.5:  # claims to be ours
        db.execute("PRAGMA application_id = 1094863444")
        db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()


def wal_mode(path: Path, real: Path, _rng: random.Random) -> None:
    db = _copy(real, path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("UPDATE unit SET location = location")
    db.close()


def _structural() -> list[Maker]:
    fire = f"UPDATE unit SET strength_points = 0; UPDATE campaign SET name = '{FIRED}';"
    return [
        _sql(f"CREATE TRIGGER zero AFTER UPDATE ON unit BEGIN {fire} END"),
        _sql(f"CREATE TRIGGER zero2 BEFORE INSERT ON event BEGIN {fire} END"),
        _sql(f"CREATE TRIGGER zero3 AFTER DELETE ON event BEGIN {fire} END"),
        _sql(
            "ALTER TABLE unit RENAME TO unit_real",
            "CREATE VIEW unit AS SELECT * FROM unit_real",
            f"CREATE TRIGGER instead INSTEAD OF UPDATE ON unit BEGIN UPDATE campaign SET name = '{FIRED}'; END",
        ),
        _sql("CREATE VIEW spy AS SELECT * FROM unit"),
        _sql("CREATE TABLE extra (x)"),
        _sql("CREATE INDEX ix_extra ON unit (name)"),
        _sql("DROP INDEX ix_unit_nation", "CREATE INDEX ix_unit_nation ON unit (location)"),
        _sql("DROP INDEX ix_event_undone"),
        _sql("PRAGMA user_version = 3"),
        _sql("PRAGMA user_version = 99"),
        _sql("PRAGMA user_version = -1"),
        _sql("PRAGMA user_version = 0"),
        _sql("UPDATE alembic_version SET version_num = '0001'"),
        _sql("UPDATE alembic_version SET version_num = 2"),
        _sql("UPDATE alembic_version SET version_num = 'abc'"),
        _sql("UPDATE alembic_version SET version_num = '0099'", "PRAGMA user_version = 99"),
        _sql("UPDATE alembic_version SET version_num = '\u00b2'"),
        _sql("DELETE FROM alembic_version"),
        _sql("INSERT INTO alembic_version VALUES ('0001')"),
        _sql("DROP TABLE alembic_version"),
        _sql("DELETE FROM campaign"),
        _sql("INSERT INTO campaign SELECT 2, name, ruleset, scenario, dice_seed, dice_mode, dice_next_index, turn, "
             "phase, start_date, turn_days, turns, options, version, created, uid, dice_commitment, dice_salt, "
             "fog_side, fog_turn FROM campaign"),
        _sql("PRAGMA application_id = 7"),
    ]


def _dropped(real: Path) -> list[Maker]:
    return [_sql(f'DROP TABLE "{table}"') for table in sorted({t for t, _c, _k in columns(real)})]


BAD_VALUES = [
    "X'FF00FE'",  # a BLOB
    "'null'",
    "'abc'",
    "''",
    "-1",
    "1e999",  # infinity
    "2.5",
    "9223372036854775807",
    "-9223372036854775808",
    "'2024-13-45'",
    "'{\"a\": '",
    "'[1, 2]'",
    "'{}'",
    "'[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'",
    "NULL",
    "CAST(X'C3' AS TEXT)",  # text that is not UTF-8
    "4611686018427387904",  # 2**62: within 64 bits, past every date and sum (a hand-edited days per turn)
    "'0001-01-01'",  # the calendar's ends: no local time zone holds them
    "'9999-12-31 23:59:59.999999'",
]


def _bad_value(table: str, column: str) -> Maker:
    def make(path: Path, real: Path, rng: random.Random) -> None:
        value = rng.choice(BAD_VALUES)
        db = _copy(real, path)
        try:
            db.execute(f'UPDATE "{table}" SET "{column}" = {value} WHERE rowid IN (SELECT rowid FROM "{table}" LIMIT 3)')
        except sqlite3.IntegrityError:  # NOT NULL: the file stays as it was, which is fine too
            pass
        except sqlite3.OperationalError:  # a table WITHOUT ROWID (the search index's config): unchanged too
            pass
        finally:
            db.close()

    make.__name__ = f"bad value in {table}.{column}"
    return make


def _escapes(table: str, column: str) -> Maker:
    def make(path: Path, real: Path, rng: random.Random) -> None:
        db = _copy(real, path)
        try:
            cut = rng.randrange(len(ESCAPES))
            db.execute(
                f'UPDATE "{table}" SET "{column}" = "{column}" || ? || ?',
                (ESCAPES[:cut], ESCAPES[cut:]),
            )
        finally:
            db.close()

    make.__name__ = f"escapes in {table}.{column}"
    return make


def every_text_escaped(path: Path, real: Path, _rng: random.Random) -> None:
    """Escape sequences in every text column at once: a file that is sound and must show inert."""
    db = _copy(real, path)
    try:
        for table, column, kind in columns(real):
            if kind.startswith("VARCHAR") and table != "alembic_version" and column not in _KEYS:
                db.execute(f'UPDATE "{table}" SET "{column}" = "{column}" || ?', (ESCAPES,))
    finally:
        db.close()


# Columns that hold a key, a word the code looks up, or a rule set's id: escapes there
# make a file that is damaged rather than one that shows text.
_KEYS = {"id", "nation", "side", "army", "general", "superior", "commander", "kind", "ruleset", "scenario",
         "dice_mode", "phase", "mode", "dice", "weather", "weather_source", "status", "resolver", "result",
         "action", "turn", "enemy_side", "fog_side"}


def makers(real: Path) -> list[Maker]:
    """Every kind of hostile file, each once."""
    return [*file_makers(real), *column_makers(real)]


def file_makers(real: Path) -> list[Maker]:
    """The kinds made of the whole file: bytes, structure, dropped objects (58)."""
    return [
        random_bytes, truncated, bit_flips, foreign_sqlite, wal_mode, every_text_escaped,
        *_structural(), *_dropped(real),
    ]


def column_makers(real: Path) -> list[Maker]:
    """A bad value in each column, and escapes in each text column (some 240)."""
    per_column: list[Maker] = []
    for table, column, kind in columns(real):
        if table == "alembic_version":
            continue
        per_column.append(_bad_value(table, column))
        if kind.startswith("VARCHAR") or kind == "JSON":
            per_column.append(_escapes(table, column))
    return per_column


def drawn_makers(real: Path, seed: int, columns_drawn: int, heavy_drawn: int) -> list[Maker]:
    """The suite's run: every kind made of the whole file, `columns_drawn` of the columns' kinds and
    `heavy_drawn` more byte-level files (random bytes, truncations, bit flips), drawn with `seed`."""
    rng = random.Random(seed)
    per_column = column_makers(real)
    heavy = [random_bytes, truncated, bit_flips]
    return [*file_makers(real), *rng.sample(per_column, min(columns_drawn, len(per_column))),
            *(rng.choice(heavy) for _ in range(heavy_drawn))]


def corpus(real: Path, folder: Path, count: int, seed: int = 1813,
           kinds: list[Maker] | None = None) -> Iterator[tuple[Path, str]]:
    """`count` hostile files in `folder`, each in a folder of its own: (path, how it was made).

    Every kind (of `kinds`, or of makers()) is made at least once when `count` allows; the
    rest are drawn at random, the byte-level kinds (random bytes, truncations, bit flips)
    more often."""
    rng = random.Random(seed)
    kinds = makers(real) if kinds is None else kinds
    heavy = [random_bytes, truncated, bit_flips, bit_flips, bit_flips, truncated]
    for number in range(count):
        make = kinds[number] if number < len(kinds) else rng.choice(kinds + heavy * 8)
        home = folder / f"{number:05d}"
        home.mkdir(parents=True)
        path = home / "hostile.campaign"
        make(path, real, random.Random(rng.random()))
        for leftover in home.glob("*-shm"):
            leftover.unlink()  # a WAL file keeps its -wal, as mailed with it; the -shm is per machine
        yield path, make.__name__


# -- hostile exports ---------------------------------------------------------------------


def hostile_exports(good: dict, seed: int = 1813, mangled: int = 20) -> Iterator[tuple[str, bytes]]:
    """(what, text) of exports a hostile sender might write, from a `good` export document:
    every kind, then `mangled` with random bytes changed."""
    import copy
    import json

    def variant(what: str, change: Callable[[dict], None]) -> tuple[str, bytes]:
        document = copy.deepcopy(good)
        change(document)
        return what, json.dumps(document).encode()

    def unit(key: str, value: object) -> Callable[[dict], None]:
        def change(document: dict) -> None:
            document["tables"]["unit"][0][key] = value

        return change

    yield "nested brackets", b"[" * 100_000 + b"]" * 100_000
    yield "nested objects", b'{"a":' * 5_000 + b"1" + b"}" * 5_000
    yield "a 30-digit SP", json.dumps(good).replace('"strength_points": ', '"strength_points": 123456789012345678901234567890', 1).encode()
    yield "not JSON", b"{not json"
    yield "empty", b""
    yield "a list", b"[]"
    yield "NUL bytes", b"{\x00\x00\x00}"
    yield "invalid UTF-8", b'{"format": "\xff\xfe"}'
    yield "a lone surrogate", json.dumps(good).replace('"name": "', '"name": "\\ud800', 1).encode()
    yield "infinite SP", json.dumps(good).replace('"strength_points": ', '"strength_points": 1e999', 1).encode()
    for what, value in [("SP as text", "abc"), ("SP 2.5", 2.5), ("SP true", True), ("SP negative", -3),
                        ("SP null", None), ("SP huge", 10**20), ("SP list", [1])]:
        yield variant(what, unit("strength_points", value))
    yield variant("unknown unit field", unit("colour", "blue"))
    yield variant("unit of an unknown nation", unit("nation", "atlantis"))
    yield variant("name of 300k characters", unit("name", "x" * 300_000))
    yield variant("unknown dice mode", lambda d: d["tables"]["campaign"][0].update(dice_mode="psychic"))
    yield variant("30-digit dice seed", lambda d: d["tables"]["campaign"][0].update(dice_seed=10**30))
    yield variant("two campaign rows", lambda d: d["tables"]["campaign"].append(dict(d["tables"]["campaign"][0], id=2)))
    yield variant("no campaign row", lambda d: d["tables"].update(campaign=[]))
    yield variant("campaign id 2", lambda d: d["tables"]["campaign"][0].update(id=2))
    yield variant("a date that is not one", lambda d: d["tables"]["campaign"][0].update(start_date="1813-13-45"))
    yield variant("changes of an event not a list", lambda d: d["tables"]["event"][0].update(changes="null"))
    yield variant("raw dice as text", lambda d: d["tables"]["dice_roll"][0].update(raw="6") if d["tables"]["dice_roll"] else d["tables"]["campaign"].clear())
    for dice in ("abc", "1D6", "1d6 + 2d6", "13d100"):  # no roll stores these dice (rules.dice.stored_dice)
        yield variant(f"dice {dice!r}", _dice_of_the_first_roll(dice))
    yield variant("an unknown top-level field", lambda d: d.update(comment="hello"))
    yield variant("a schema named 'abc'", lambda d: d.update(schema="abc"))
    yield variant("a schema from the future", lambda d: d.update(schema="0099"))
    yield variant("a table named 'orders'", lambda d: d["tables"].update(orders=[]))
    yield variant("a repeated unit", lambda d: d["tables"]["unit"].append(dict(d["tables"]["unit"][0])))
    yield variant("a deep options document", lambda d: d["tables"]["campaign"][0].update(options=_deep(60)))
    rng = random.Random(seed)
    text = json.dumps(good).encode()
    for number in range(mangled):
        data = bytearray(text)
        for _ in range(rng.choice([1, 3, 10])):
            data[rng.randrange(len(data))] = rng.randrange(256)
        yield f"mangled export {number}", bytes(data)


def _dice_of_the_first_roll(dice: str) -> Callable[[dict], None]:
    def change(document: dict) -> None:
        if document["tables"]["dice_roll"]:
            document["tables"]["dice_roll"][0]["dice"] = dice
        else:  # no roll to change: refused all the same
            document["tables"]["campaign"].clear()

    return change


def _deep(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    return value

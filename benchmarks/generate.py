"""Campaigns for the benchmarks, generated once and kept in a cache folder.

A campaign of 50,000 units and a million events takes a minute or more to
write through actions; written here as plain rows (sqlite3 `executemany` on the
file, after `create_campaign` made the scenario's own rows and the schema), it
takes some seconds. The file name carries the sizes, the schema revision and
GENERATOR, so a change of either builds new ones.

    python -m benchmarks.generate [--units 50000] [--events 1000000]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

# bump when what is generated changes. 3: a roll is in its event's changes (the dice_roll
# row inserted, the campaign's dice_next_index moved), as the store records an action's
# roll; before, `adjutant past` could not forget the events of rolls it did not know of.
# 4: the dice tally (models.tally, schema 0010) counts the rolls written.
GENERATOR = "5"
KINDS = ("infantry", "infantry", "infantry", "cavalry", "artillery", "dummy")
PLACES = (
    "Dresden", "Leipzig", "Lützen", "Bautzen", "Torgau", "Wittenberg", "Magdeburg", "Halle", "Naumburg", "Jena",
    "Erfurt", "Gotha", "Weimar", "Altenburg", "Chemnitz", "Freiberg", "Meissen", "Grossenhain", "Görlitz", "Berlin",
)
PURPOSES = ("forced march", "weather", "combat", "command points", "reconnaissance", "attrition")
CHUNK = 50_000


def cache_folder() -> Path:
    folder = Path(os.environ.get("ADJUTANT_BENCH_CACHE") or Path.home() / ".cache" / "adjutant-benchmarks")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def spring1813() -> Path:
    """The spring 1813 scenario as `adjutant new` makes it."""
    from campaigns.scenario import load_scenario
    from campaigns.setup import create_campaign

    return _cached("spring1813", lambda path: create_campaign(path, load_scenario("spring1813"), seed=1).close())


def generated(units: int, events: int, turns: int = 300) -> Path:
    """The autumn 1813 scenario with `units` units under its generals, `turns`
    turns and `events` past actions, a third of them with a roll."""

    def build(path: Path) -> None:
        from campaigns.scenario import load_scenario
        from campaigns.setup import create_campaign

        base = load_scenario("autumn1813")
        create_campaign(path, dataclasses.replace(base, turns=turns), seed=1).close()
        _fill(path, base, units, events)

    return _cached(f"u{units}-e{events}-t{turns}", build)


def _cached(name: str, build) -> Path:
    from models.schema import head

    path = cache_folder() / f"{name}-schema{head()}-g{GENERATOR}.campaign"
    if not path.exists():
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.unlink(missing_ok=True)
        build(temporary)
        os.replace(temporary, path)
    return path


def _fill(path: Path, base, units: int, events: int) -> None:
    chance = random.Random(1813)
    generals = [(g.id, g.nation) for g in base.generals]
    unit_ids = [f"unit_{n:06d}" for n in range(units)]
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA synchronous = OFF")  # a cache file, built under a temporary name
        db.execute("BEGIN")
        # The search index is built once at the end ('rebuild'), not row by row.
        db.executemany(
            "INSERT INTO unit (id, name, nation, kind, general, strength_points, cohesion, artillery_bonus, "
            "cavalry_bonus, fatigued, entrenched, out_of_command, location) VALUES (?,?,?,?,?,?,?,0,0,0,0,0,?)",
            _units(chance, unit_ids, generals),
        )
        rolls = 0
        for batch in _batches(_events(chance, unit_ids, events)):
            db.executemany(
                'INSERT INTO event (id, "when", kind, description, changes, undone) VALUES (?,?,?,?,?,0)',
                [row[:5] for row in batch],
            )
            dice = [(row[5][0], row[0], *row[5][1:]) for row in batch if row[5] is not None]
            db.executemany(
                'INSERT INTO dice_roll (id, event, purpose, dice, raw, modifiers, result, mode, stream_index, "by", "when") '
                "VALUES (?,?,?,'1d6',?,'[]',?,'rolled',NULL,'umpire',?)",
                dice,
            )
            rolls += len(dice)
        for table in ("event_search", "dice_roll_search"):
            db.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")
        db.execute("UPDATE campaign SET version = version + ?, dice_next_index = ?", (events, rolls))
        db.execute("COMMIT")
    finally:
        db.close()
    _count_dice(path)


def _count_dice(path: Path) -> None:
    """The dice tally counted once, and the units each event changed indexed, as an import
    does (models.tally, models.event_units)."""
    from sqlalchemy import create_engine

    from models import event_units, tally

    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as connection:
            tally.rebuild(connection)
            event_units.rebuild(connection)
    finally:
        engine.dispose()


def _units(chance: random.Random, unit_ids: list[str], generals: list[tuple[str, str]]) -> Iterator[tuple]:
    for n, unit_id in enumerate(unit_ids):
        general, nation = generals[n % len(generals)]
        kind = chance.choice(KINDS)
        strength = 0 if kind == "dummy" else chance.randint(1, 12)
        name = f"{kind.capitalize()} brigade {n}"
        yield unit_id, name, nation, kind, general, strength, chance.randint(1, 6), chance.choice(PLACES)


def _events(chance: random.Random, unit_ids: list[str], count: int) -> Iterator[tuple]:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for n in range(count):
        event_id = n + 2  # after the setup event
        when = (start + timedelta(seconds=n * 7)).strftime("%Y-%m-%d %H:%M:%S.%f")
        unit = chance.choice(unit_ids)
        place, other = chance.choice(PLACES), chance.choice(PLACES)
        template = n % 4
        if template == 0:
            description = f"{unit} marches from {place} to {other}"
            change = {"table": "unit", "key": {"id": unit}, "before": {"location": place}, "after": {"location": other}}
        elif template == 1:
            description = f"Mark {unit}: fatigued={n % 8 == 1}"
            change = {"table": "unit", "key": {"id": unit}, "before": {"fatigued": n % 8 != 1},
                      "after": {"fatigued": n % 8 == 1}}
        elif template == 2:
            description = f"Edit unit {unit} at {place}"
            change = {"table": "unit", "key": {"id": unit}, "before": {"cohesion": 3}, "after": {"cohesion": 2}}
        else:
            description = f"Attach {unit} to the corps at {place}"
            change = {"table": "unit", "key": {"id": unit}, "before": {"location": other}, "after": {"location": place}}
        changes = [change]
        roll = None
        if n % 3 == 0:  # the action's roll, recorded as the store records it (models.history)
            value, purpose = chance.randint(1, 6), chance.choice(PURPOSES)
            index = n // 3  # rolls so far; no stream index: the values are not the seed's
            stamp = (start + timedelta(seconds=n * 7)).isoformat()
            roll = (index + 1, purpose, json.dumps([value]), value, when)
            changes[:0] = [
                {"table": "dice_roll", "key": {"id": index + 1}, "before": None, "after": {
                    "id": index + 1, "event": event_id, "purpose": purpose, "dice": "1d6", "raw": [value], "modifiers": [],
                    "result": value, "mode": "rolled", "stream_index": None, "by": "umpire", "when": stamp, "battle": None,
                }},
                {"table": "campaign", "key": {"id": 1}, "before": {"dice_next_index": index}, "after": {"dice_next_index": index + 1}},
            ]
        yield event_id, when, "action", description, json.dumps(changes), roll


def _batches(rows: Iterator[tuple]) -> Iterator[list[tuple]]:
    batch: list[tuple] = []
    for row in rows:
        batch.append(row)
        if len(batch) == CHUNK:
            yield batch
            batch = []
    if batch:
        yield batch


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Generate (or find in the cache) a benchmark campaign.")
    parser.add_argument("--units", type=int, default=50_000)
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    path = generated(args.units, args.events)
    print(f"{path} ({path.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()

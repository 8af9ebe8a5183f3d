"""Storage benchmarks: the time one action takes to commit, and whether a long campaign opens
as fast as a new one.

    python -m benchmarks.bench_storage [--actions 200] [--opens 30]

Targets (issue 3): one action commits in 20 ms or less (median, SQLite), and a
generated campaign of 5,000 units, 300 turns and 100,000 events opens and gives
its overview in at most twice the time spring1813 takes.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import insert, update

from campaigns.scenario import Scenario, load_scenario
from campaigns.scenario import Unit as ScenarioUnit
from campaigns.setup import create_campaign
from models import Campaign, DiceRoll, Event, Unit, open_campaign, overview
from models.clock import utcnow
from models.engine import make_engine, writer
from models.targets import to_url
from rules.dice import Dice, seeded_dice

KINDS = ("infantry", "infantry", "infantry", "cavalry", "artillery", "dummy")
SEED = 1
DIE = Dice.parse("1d6")


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def time_each(repeat: int, work: Callable[[int], None]) -> list[float]:
    samples = []
    for n in range(repeat):
        start = time.perf_counter()
        work(n)
        samples.append(time.perf_counter() - start)
    return samples


def action_commits(folder: Path, repeat: int) -> list[float]:
    """Each sample: one action moving a unit, from opening the transaction to the commit on disk."""
    path = folder / "actions.campaign"
    scenario = load_scenario("spring1813")
    with create_campaign(path, scenario, seed=1) as store:
        units = [u.id for u in scenario.units]

        def act(n: int) -> None:
            with store.action(f"march {n}") as session:
                unit = session.get_one(Unit, units[n % len(units)])
                unit.location = f"hex {n}"

        return time_each(repeat, act)


def large_scenario(base: Scenario, units: int, turns: int) -> Scenario:
    """`base` with its generals commanding `units` generated units over `turns` turns."""
    chance = random.Random(1813)
    generals = base.generals
    generated = []
    for n in range(units):
        general = generals[n % len(generals)]
        kind = chance.choice(KINDS)
        generated.append(
            ScenarioUnit(
                id=f"unit_{n:05d}",
                name=f"Generated {kind} {n}",
                nation=general.nation,
                kind=kind,
                general=general.id,
                strength_points=0 if kind == "dummy" else chance.randint(1, 12),
                cohesion=chance.randint(1, 6),
                artillery_bonus=0,
                cavalry_bonus=0,
                location=f"hex {chance.randint(100, 4000)}",
            )
        )
    return dataclasses.replace(base, id="generated", units=tuple(generated), turns=turns)


def add_history(path: Path, events: int, unit_ids: list[str]) -> None:
    """`events` past actions, each a march with its before and after, a third of them with a roll."""
    chance = random.Random(1)
    now = utcnow()
    event_rows, roll_rows = [], []
    for n in range(1, events + 1):
        unit = chance.choice(unit_ids)
        change = {
            "table": "unit",
            "key": {"id": unit},
            "before": {"location": f"hex {n}"},
            "after": {"location": f"hex {n + 1}"},
        }
        event_rows.append(
            {
                "id": n + 1,
                "when": now,
                "kind": "action",
                "description": f"{unit} marches",
                "changes": [change],
                "undone": False,
            }
        )
        if n % 3 == 0:
            raw = list(seeded_dice(SEED, len(roll_rows), DIE))
            roll_rows.append(
                {
                    "event": n + 1,
                    "purpose": "forced march",
                    "dice": "1d6",
                    "raw": raw,
                    "modifiers": [],
                    "result": raw[0],
                    "mode": "rolled",
                    "stream_index": len(roll_rows),
                    "by": "umpire",
                    "when": now,
                }
            )
    engine = make_engine(to_url(path))
    try:
        with writer(engine).begin() as connection:
            connection.execute(insert(Event), event_rows)
            connection.execute(insert(DiceRoll), roll_rows)
            connection.execute(update(Campaign).values(version=events, dice_next_index=len(roll_rows)))
    finally:
        engine.dispose()


def open_and_overview(path: Path, repeat: int) -> list[float]:
    def view(_n: int) -> None:
        with open_campaign(path) as store:
            overview(store)

    view(0)  # warm the imports and the file cache, as a second opening would find them
    return time_each(repeat, view)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Storage benchmarks of Adjutant.")
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--opens", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="adjutant-bench-") as name:
        folder = Path(name)
        commits = action_commits(folder, args.actions)
        print(
            f"one action commit, SQLite: median {median_ms(commits):.1f} ms, "
            f"90th percentile {sorted(commits)[int(len(commits) * 0.9)] * 1000:.1f} ms "
            f"over {len(commits)} actions (target <= 20 ms)"
        )

        small = folder / "spring1813.campaign"
        create_campaign(small, load_scenario("spring1813"), seed=1).close()
        large = folder / "large.campaign"
        start = time.perf_counter()
        scenario = large_scenario(load_scenario("autumn1813"), units=5000, turns=300)
        create_campaign(large, scenario, seed=SEED).close()
        add_history(large, 100_000, [u.id for u in scenario.units])
        print(
            f"generated 5,000 units, 300 turns, 100,000 events in {time.perf_counter() - start:.1f} s "
            f"({large.stat().st_size / 1e6:.1f} MB)"
        )

        small_ms = median_ms(open_and_overview(small, args.opens))
        large_ms = median_ms(open_and_overview(large, args.opens))
        print(
            f"open + overview: spring1813 {small_ms:.1f} ms, generated {large_ms:.1f} ms, "
            f"ratio {large_ms / small_ms:.2f} (target <= 2.0)"
        )


if __name__ == "__main__":
    main()

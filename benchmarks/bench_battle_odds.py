"""Exact whole-battle odds for 150 SP a side, four rounds: the issue 5 target is
100 ms or less.  Run `python -m benchmarks.bench_battle_odds`.

Each case builds the set-up and its odds from scratch (no odds cached between
runs; the tables, options and icepool are loaded once, as in a running program)
and prints the median of several runs and its ratio to a baseline measured in
the same process: one single-roll table_distribution of the combat table, which
says how fast this machine is.
"""

from __future__ import annotations

import statistics
import time
from fractions import Fraction

from rules.allemagne1813.battle_odds import battle_odds
from rules.allemagne1813.combat import CombatSide, Leader
from rules.allemagne1813.data import Situation
from rules.loader import get_table
from rules.odds import NEAREST, table_distribution

RUNS = 15
TARGET_MS = 100.0

ATTACKER = CombatSide(
    {"infantry": 110, "cavalry": 30, "artillery": 10},
    [Leader("Napoleon", 5, 2)],
    average_cohesion=Fraction(4),
    artillery_bonus=9,
    cavalry_bonus=6,
)
DEFENDER = CombatSide(
    {"infantry": 115, "cavalry": 25, "artillery": 10},
    [Leader("Blücher", 4, 1)],
    average_cohesion=Fraction(7, 2),
    artillery_bonus=9,
    cavalry_bonus=5,
)
CASES = {
    "clear, defaults (morale tests counted as passed)": (Situation(), {}),
    "defensive terrain, morale_test = cohesion_d6": (
        Situation(defender_in_defensive_terrain=True),
        {"morale_test": "cohesion_d6"},
    ),
    "flank attack, attacker_first, artillery before combat, cohesion_d6": (
        Situation(flank_attack=True),
        {
            "morale_test": "cohesion_d6",
            "simultaneous_losses": "attacker_first",
            "artillery_timing": "before_combat",
        },
    ),
}


def median_ms(work, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    table = get_table("allemagne1813", "combat")
    table_distribution(table, 2, sp=150, beyond=NEAREST)  # load icepool and the tables
    baseline = median_ms(lambda: table_distribution(table, 2, sp=150, beyond=NEAREST), runs=200)
    print(f"baseline: one single-roll table_distribution: {baseline:.3f} ms")
    print(f"whole battle, 150 SP a side, 4 rounds, artillery in rounds 2 and 4 (median of {RUNS}):")
    worst = 0.0
    for name, (situation, options) in CASES.items():
        def odds(situation=situation, options=options):  # bound now: measured within this pass
            return battle_odds(ATTACKER, DEFENDER, situation, options)

        first = median_ms(odds, runs=1)
        ms = median_ms(odds)
        worst = max(worst, ms, first)
        print(f"  {name}: {ms:.1f} ms ({ms / baseline:.0f}x baseline; first call {first:.1f} ms)")
    verdict = "within" if worst <= TARGET_MS else "OVER"
    print(f"slowest {worst:.1f} ms: {verdict} the {TARGET_MS:.0f} ms target")


if __name__ == "__main__":
    main()

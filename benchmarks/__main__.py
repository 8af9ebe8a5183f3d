"""`python -m benchmarks [--json] [--quick]`: what users feel, beside its floor.

Every figure is a ratio to a baseline measured in the same run, or a latency
with its spread, because these machines are shared and noisy. The data is
generated here: a spring 1813 campaign and a campaign of 5,000 units, 300 turns
and 100,000 events.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_battle_odds import ATTACKER, DEFENDER
from benchmarks.bench_storage import SEED, action_commits, add_history, large_scenario
from benchmarks.startup import adjutant_argv, peak_rss_mb, startup_samples, time_until


def figure(value: float, target: float | None, unit: str, **detail: object) -> dict:
    ok = True if target is None else value <= target
    return {"value": round(value, 3), "target": target, "unit": unit, "ok": ok, **detail}


def spread(samples: list[float], scale: float = 1.0) -> dict:
    ordered = sorted(samples)
    return {
        "runs": len(samples),
        "min": round(ordered[0] * scale, 3),
        "median": round(statistics.median(ordered) * scale, 3),
        "max": round(ordered[-1] * scale, 3),
    }


def make_campaigns(folder: Path) -> tuple[Path, Path]:
    from campaigns.scenario import load_scenario
    from campaigns.setup import create_campaign

    small = folder / "spring1813.campaign"
    create_campaign(small, load_scenario("spring1813"), seed=1).close()
    big = folder / "big.campaign"
    scenario = large_scenario(load_scenario("autumn1813"), units=5000, turns=300)
    create_campaign(big, scenario, seed=SEED).close()
    add_history(big, 100_000, [u.id for u in scenario.units])
    return small, big


def rules_cli_ratio(runs: int) -> dict:
    lookup = [*adjutant_argv(Path("x"))[:-1], "rules", "lookup", "allemagne1813", "combat", "roll=8", "sp=35"]
    floor = [sys.executable, "-c", "import tomllib, json"]
    ours, base = [], []
    for _ in range(runs):
        for argv, into in ((lookup, ours), (floor, base)):
            start = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True)
            into.append(time.perf_counter() - start)
    ratio = statistics.median(ours) / statistics.median(base)
    return figure(ratio, 5.0, "ratio", adjutant=spread(ours, 1000), python=spread(base, 1000), detail_unit="ms")


SWITCHES = ("oob", "weather", "command", "history", "overview")


async def _switch_times(app, actions: list[str], rounds: int) -> list[float]:
    """Each sample: from the action that switches screen until the new screen has
    handled its messages and been drawn (the key press itself is not timed: under
    Pilot it costs more than the whole switch)."""
    samples: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(rounds):
            for action in actions:
                start = time.perf_counter()
                await app.run_action(action)
                await pilot.pause()
                samples.append(time.perf_counter() - start)
    return samples


def screen_switches(path: Path, rounds: int) -> dict:
    """Switch between the overview, order of battle, weather, command points and
    history screens of `path`, beside the same switches between two one-line
    screens of a bare Textual app, timed the same way."""
    from textual.app import App
    from textual.screen import Screen
    from textual.widgets import Static

    from campaigns.session import CampaignSession
    from tui.app import AdjutantApp

    class Line(Screen):
        def compose(self):
            yield Static(self.name or "")

    class Bare(App):
        def on_mount(self) -> None:
            for n in SWITCHES:
                self.install_screen(Line(name=n), n)
            self.push_screen(SWITCHES[-1])

        def action_show(self, name: str) -> None:
            self.switch_screen(name)

    app = AdjutantApp(CampaignSession.open(path))
    app.animation_level = "none"
    actions = [f"show('{name}')" for name in SWITCHES]
    ours = asyncio.run(_switch_times(app, actions, rounds))
    floor = asyncio.run(_switch_times(Bare(), actions, rounds))
    first, again = ours[: len(SWITCHES)], ours[len(SWITCHES):]
    return figure(
        p95_ms(ours), 50.0, "ms", **spread(ours, 1000),
        first_visits_ms=[round(t * 1000, 1) for t in first],  # each screen built and filled
        revisits_p95_ms=round(p95_ms(again), 3) if again else None,  # redrawn only if the campaign changed
        bare_app_p95_ms=round(p95_ms(floor), 3),
    )


def p95_ms(samples: list[float]) -> float:
    return sorted(samples)[max(0, int(len(samples) * 0.95) - 1)] * 1000


def battle_odds_ms(runs: int) -> dict:
    from rules.allemagne1813.battle_odds import battle_odds
    from rules.allemagne1813.data import Situation

    battle_odds(ATTACKER, DEFENDER, Situation(), {})  # icepool and the tables loaded, as in the app
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        battle_odds(ATTACKER, DEFENDER, Situation(), {})
        samples.append(time.perf_counter() - start)
    return figure(statistics.median(samples) * 1000, 100.0, "ms", **spread(samples, 1000))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="fewer runs: a rough figure in a minute")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else 10
    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="adjutant-bench-") as name:
        folder = Path(name)
        small, big = make_campaigns(folder)
        ours, floor = startup_samples(small, runs, folder)
        out["startup_ratio"] = figure(
            statistics.median(ours) / statistics.median(floor), 1.2, "ratio",
            adjutant=spread(ours, 1000), bare_app=spread(floor, 1000), detail_unit="ms",
        )
        big_runs = [time_until(adjutant_argv(big), rb"Turn \d+ of") for _ in range(runs)]
        out["big_open_ratio"] = figure(
            statistics.median(big_runs) / statistics.median(ours), 2.0, "ratio", big=spread(big_runs, 1000), detail_unit="ms"
        )
        out["screen_switch_p95_ms"] = screen_switches(big, 2 if args.quick else 6)
        commits = action_commits(folder, 50 if args.quick else 200)
        out["commit_median_ms"] = figure(statistics.median(commits) * 1000, 20.0, "ms", **spread(commits, 1000))
        out["battle_odds_ms"] = battle_odds_ms(5 if args.quick else 15)
        out["rules_cli_ratio"] = rules_cli_ratio(runs)
        out["peak_rss_mb_big"] = figure(
            peak_rss_mb(adjutant_argv(big), rb"Turn \d+ of"), None, "MB",
            bare_app=round(peak_rss_mb([sys.executable, str(folder / "bare_app.py"), str(big)], rb"READY"), 1),
        )
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        width = max(len(k) for k in out)
        for key, f in out.items():
            target = "reported" if f["target"] is None else f"target {f['target']}"
            mark = "ok" if f["ok"] else "MISSED"
            print(f"{key:<{width}}  {f['value']:>10} {f['unit']:<6} {target:<14} {mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`python -m benchmarks [--json] [--quick]`: what users feel, beside its floor.

Every figure is a ratio to a baseline run alternately with it in the same run
(ours, floor, ours, floor...), or a latency, each with min/median/max over 3 or
more repetitions and every sample counted: first visits, cold caches and the
slowest keystroke included. Each sample runs in a process of its own.

The campaigns are generated once into a cache folder (benchmarks/generate.py):
spring 1813, and the autumn 1813 scenario grown to 50,000 units, 300 turns and a
million events (and the same with 10,000 events, for memory). `--quick` uses
5,000 units and 100,000 events, fewer repetitions, and says so in the JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from benchmarks.generate import generated, spring1813
from benchmarks.startup import BARE_APP, adjutant_argv, time_until

READY = rb"Turn \d+ of"  # the overview shows the campaign's data
FILTER_WORDS = ("xylophone", "Dresden", "unit_004212", "combat", "fatigued=True")


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


def p95(samples: list[float]) -> float:
    """The 95th percentile, interpolated between the two samples around it (as numpy's
    default): with 30 samples the slowest two weigh in, and none is dropped."""
    ordered = sorted(samples)
    rank = 0.95 * (len(ordered) - 1)
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def ratio(ours: list[float], floor: list[float], target: float, **detail: object) -> dict:
    """The median of ours over the median of the floor, with the spread of each (ms)."""
    value = statistics.median(ours) / statistics.median(floor)
    return figure(value, target, "ratio", ours_ms=spread(ours, 1000), floor_ms=spread(floor, 1000), **detail)


# -- child processes -----------------------------------------------------------


# Started through this small program, which forks the command and reports its peak. Linux
# counts in a process's peak the memory of the process it was forked from, as it was when it
# called exec: forked straight from this benchmark (some 80 MB by then), every child's peak
# read as at least the benchmark's own, and the export's at 10k and 1M events both read as
# the benchmark's 82.6 MB (export_rss_ratio 1.0 whatever the export did). Forked from this
# program (about 9 MB, Python without site), a peak under that is all this one can hide.
PEAK = """import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_pid, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as told:
    told.write(f"{usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}")
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


class Child(NamedTuple):
    seconds: float  # wall
    peak_mb: float  # the largest peak of the command's processes
    out: str  # its standard output (empty if sent to a file)
    cpu: float  # user+sys seconds of the command and every process it waited for


def run_child(argv: list[str], *, output: Path | None = None) -> Child:
    """One child process; its output goes to `output` if given (an export of a
    million events is no pipe's business). The peak and the CPU are the command's own
    (and its children's, a forked helper's included), measured through PEAK."""
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as captured, tempfile.TemporaryDirectory() as here:
        sink = open(output, "wb") if output else captured  # noqa: SIM115
        told = Path(here) / "peak"
        try:
            start = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-I", "-S", "-c", PEAK, str(told), *argv], stdout=sink, stderr=err, env=_env())
            child.wait()
            elapsed = time.perf_counter() - start
        finally:
            if output:
                sink.close()
        if child.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(argv)} failed: {err.read().decode(errors='replace')[-2000:]}")
        captured.seek(0)
        peak_kb, cpu = told.read_text().split()
        return Child(elapsed, int(peak_kb) / 1024, captured.read().decode(errors="replace"), float(cpu))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


def probe(mode: str, path: Path, *extra: str) -> Any:  # seconds; [whole, action] pairs (commit); a dict (filter)
    out = run_child([sys.executable, "-m", "benchmarks.app_probe", mode, str(path), *extra]).out
    return json.loads(out.strip().splitlines()[-1])


# -- the figures -----------------------------------------------------------------


def startup(small: Path, big: Path, runs: int, folder: Path) -> dict[str, dict]:
    """The app until its overview shows the campaign, and the bare app until it shows
    one row of the same file, in a real pseudo-terminal, alternated."""
    bare = folder / "bare_app.py"
    bare.write_text(BARE_APP, encoding="utf-8")
    samples: dict[str, list[float]] = {"small": [], "small_bare": [], "big": [], "big_bare": []}
    for _ in range(runs):
        for name, path in (("small", small), ("big", big)):
            samples[name].append(time_until(adjutant_argv(path), READY))
            samples[f"{name}_bare"].append(time_until([sys.executable, str(bare), str(path)], b"READY"))
    return {
        "startup_ratio": ratio(samples["small"], samples["small_bare"], 1.2, campaign="spring1813"),
        "startup_ratio_50k": ratio(samples["big"], samples["big_bare"], 1.2, campaign=big.name),
    }


def screen_switches(big: Path, runs: int) -> dict:
    """Every screen a key reaches (app_probe.SWITCHES), twice round, from
    a fresh start each run (the first key as soon as the overview shows), each until
    the screen shows the campaign's rows; beside the same switches in a bare Textual
    app whose screens are each a title, a table filled from the same file on first
    visit, and a footer (app_probe.switch_bare). p95 over every sample of every run."""
    from benchmarks.app_probe import SWITCHES

    ours, floor = [], []
    firsts: dict[str, list[float]] = {name: [] for name in SWITCHES}
    for _ in range(runs):
        run = probe("switch", big)
        ours += run
        for name, seconds in zip(SWITCHES, run):  # the first round: every screen's first visit
            firsts[name].append(seconds)
        floor += probe("switch-bare", big)
    value = p95(ours) / p95(floor)
    return figure(
        value, 1.5, "ratio", ours_p95_ms=round(p95(ours) * 1000, 1), bare_p95_ms=round(p95(floor) * 1000, 1),
        baseline=(
            "a bare Textual app whose screens (one for each of ours) are each a title, a DataTable of 3-50 rows read with sqlite3 "
            "from the same file on first visit, and a Footer; built on first visit and kept, as ours are "
            "(before: one line of text a screen, which no screen of a campaign manager is)"
        ),
        ours_ms=spread(ours, 1000), bare_ms=spread(floor, 1000),
        first_visit_median_ms={name: round(statistics.median(t) * 1000, 1) for name, t in firsts.items()},
    )


def oob_first_visit(small: Path, big: Path, runs: int) -> dict:
    ours, floor = [], []
    for _ in range(runs):
        ours += probe("oob", big)
        floor += probe("oob", small)
    return ratio(ours, floor, 3.0, campaign=big.name, baseline="spring1813")


def dump_floor(path: Path, folder: Path | None) -> Child:
    """`sqlite3 FILE .dump` into a file in `folder`, or into /dev/null (None)."""
    return run_child(["sqlite3", str(path), ".dump"], output=folder / "dump.sql" if folder else Path(os.devnull))


def export_and_log(big: Path, mid: Path, runs: int, folder: Path) -> dict[str, dict]:
    """`adjutant export` and `adjutant log` of the big campaign into a file, against
    `sqlite3 FILE .dump` of the same file; the export's peak memory at the big
    history against the same campaign with a small one. Beside the wall-time ratio,
    which is the figure: the CPU ratio (the export and the log use two processes on two
    cores, the dump one, so on a loaded machine the wall ratio moves towards the CPU
    ratio) and the ratio to the dump into /dev/null (writing its 0.7 GB to a file is
    part of the file floor), alternated in the same runs."""
    cli = adjutant_argv(big)[:-1]
    samples: dict[str, list[Child]] = {"export": [], "log": [], "dump": [], "dump_null": [], "rss_big": [], "rss_mid": []}
    for _ in range(runs):
        samples["export"].append(run_child([*cli, "export", str(big)], output=folder / "export.json"))
        samples["dump"].append(dump_floor(big, folder))
        samples["dump_null"].append(dump_floor(big, None))
        samples["log"].append(run_child([*cli, "log", str(big)], output=folder / "log.txt"))
        samples["dump"].append(dump_floor(big, folder))
        samples["dump_null"].append(dump_floor(big, None))
        samples["rss_mid"].append(run_child([*cli, "export", str(mid)], output=folder / "export-mid.json"))
    samples["rss_big"] = samples["export"]
    rss = statistics.median(c.peak_mb for c in samples["rss_big"]) / statistics.median(c.peak_mb for c in samples["rss_mid"])

    def against_dump(ours: str) -> dict:
        wall, dump, null = ([c.seconds for c in samples[k]] for k in (ours, "dump", "dump_null"))
        cpu, dump_cpu = ([c.cpu for c in samples[k]] for k in (ours, "dump"))
        return ratio(
            wall, dump, 3.0, baseline="sqlite3 FILE .dump > FILE", campaign=big.name,
            cpu_ratio=round(statistics.median(cpu) / statistics.median(dump_cpu), 3),
            cpu_s=spread(cpu), floor_cpu_s=spread(dump_cpu),
            ratio_to_dump_into_devnull=round(statistics.median(wall) / statistics.median(null), 3),
            floor_devnull_ms=spread(null, 1000), load_average=round(os.getloadavg()[0], 1),
        )

    return {
        "export_ratio_1m": against_dump("export"),
        "log_ratio_1m": against_dump("log"),
        "export_rss_ratio": figure(
            rss, 1.5, "ratio", big_mb=spread([c.peak_mb for c in samples["rss_big"]]),
            small_mb=spread([c.peak_mb for c in samples["rss_mid"]]),
            big=big.name, small=mid.name,
        ),
    }


def history_filter(big: Path, runs: int) -> dict:
    """Typing words in the history filter: a word that matches nothing, a place, a unit
    id, a roll's purpose and a word with punctuation, the first letters included; each
    word a key at a time and again in a burst (app_probe.BURST apart). Every key is timed
    until the screen has drawn an answer holding it, a key folded into the next search
    with all of its wait."""
    from benchmarks.app_probe import BURST

    samples: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        run = probe("filter", big, *FILTER_WORDS)
        samples += run["samples"]
        cpu += run["cpu_per_key"]
    return figure(
        p95(samples) * 1000, 50.0, "ms", words=list(FILTER_WORDS), **spread(samples, 1000),
        cpu_per_key_ms=spread(cpu, 1000), load_average=round(os.getloadavg()[0], 1),
        timed=(
            f"each key, from the moment it is sent until the screen has drawn an answer that holds it (layout included); "
            f"each word typed a key at a time, then in a burst of a key every {BURST * 1000:.0f} ms"
        ),
    )


ODDS = """
import json, time
start = time.perf_counter()
from benchmarks.bench_battle_odds import ATTACKER, DEFENDER
from rules.allemagne1813.battle_odds import battle_odds
from rules.allemagne1813.data import Situation
imported = time.perf_counter()
battle_odds(ATTACKER, DEFENDER, Situation(), {})
print(json.dumps([time.perf_counter() - imported, imported - start]))
"""


def battle_odds_cold(runs: int) -> dict:
    """The first call in a fresh process (its tables and icepool's caches empty); the
    imports before it are reported apart."""
    calls, imports = [], []
    for _ in range(runs):
        out = run_child([sys.executable, "-c", ODDS]).out
        call, imported = json.loads(out.strip().splitlines()[-1])
        calls.append(call)
        imports.append(imported)
    return figure(statistics.median(calls) * 1000, 250.0, "ms", **spread(calls, 1000), imports_ms=spread(imports, 1000))


def commit_redraw(small: Path, runs: int, count: int, folder: Path) -> dict:
    """Marking a unit fatigued (and back) on the order of battle, from the action
    until the unit's line shows it: commit, the screen's reading and its drawing.
    Timed once the app has settled (the screens it builds after start-up built):
    start-up and first visits have figures of their own."""
    samples: list[float] = []
    stored: list[float] = []  # the action's own part: its transaction, committed (synchronous=FULL)
    for n in range(runs):
        copy = folder / f"commit-{n}.campaign"
        shutil.copyfile(small, copy)
        for whole, action in probe("commit", copy, str(count)):
            samples.append(whole)
            stored.append(action)
    return figure(
        statistics.median(samples) * 1000, 50.0, "ms", **spread(samples, 1000), p95_ms=round(p95(samples) * 1000, 1),
        action_ms=spread(stored, 1000), load_average=round(os.getloadavg()[0], 1),
        timed=(
            "from the action until the screen has drawn the unit's line with it (layout included), once the app "
            "has settled after start-up; action_ms is the action's own transaction and commit, within it"
        ),
    )


def rules_cli_ratio(runs: int) -> dict:
    lookup = [*adjutant_argv(Path("x"))[:-1], "rules", "lookup", "allemagne1813", "combat", "roll=8", "sp=35"]
    floor = [sys.executable, "-c", "import tomllib, json"]
    ours, base = [], []
    for _ in range(runs):
        ours.append(run_child(lookup).seconds)
        base.append(run_child(floor).seconds)
    return ratio(ours, base, 5.0, baseline="python -c import tomllib, json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="smaller campaigns and fewer runs: a rough figure")
    parser.add_argument("--only", action="append", help="measure only these figures (repeatable)")
    args = parser.parse_args(argv)
    if shutil.which("sqlite3") is None:
        print("the sqlite3 command is needed as the floor of export and log: apt-get install sqlite3", file=sys.stderr)
        return 1
    units, events, small_events = (5_000, 100_000, 1_000) if args.quick else (50_000, 1_000_000, 10_000)
    runs = 3 if args.quick else 5
    heavy = 3  # runs of the minute-long ones (export, log at a million events)
    started = time.perf_counter()
    small, big, mid = spring1813(), generated(units, events), generated(units, small_events)
    out: dict[str, object] = {
        "quick": args.quick,
        "sizes": {"units": units, "events": events, "small_history_events": small_events, "turns": 300},
        "generated_in_s": round(time.perf_counter() - started, 1),
    }
    wanted = set(args.only or [])

    def want(*names: str) -> bool:
        return not wanted or bool(wanted & set(names))

    with tempfile.TemporaryDirectory(prefix="adjutant-bench-") as name:
        folder = Path(name)
        if want("startup_ratio", "startup_ratio_50k"):
            out.update(startup(small, big, runs, folder))
        if want("screen_switch_p95_ratio"):
            out["screen_switch_p95_ratio"] = screen_switches(big, runs)
        if want("oob_first_visit_ratio_50k"):
            out["oob_first_visit_ratio_50k"] = oob_first_visit(small, big, runs)
        if want("history_filter_p95_ms_1m"):
            out["history_filter_p95_ms_1m"] = history_filter(big, 3)
        if want("battle_odds_cold_ms"):
            out["battle_odds_cold_ms"] = battle_odds_cold(runs)
        if want("commit_redraw_median_ms"):
            out["commit_redraw_median_ms"] = commit_redraw(small, 3, 10, folder)
        if want("rules_cli_ratio"):
            out["rules_cli_ratio"] = rules_cli_ratio(runs)
        if want("club_commit_p95_ratio"):
            from benchmarks.bench_club import club_figure

            out["club_commit_p95_ratio"] = club_figure(10 if args.quick else 30, figure, p95)
        if want("export_ratio_1m", "log_ratio_1m", "export_rss_ratio"):
            out.update(export_and_log(big, mid, heavy, folder))
    out["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        figures = {k: v for k, v in out.items() if isinstance(v, dict) and "value" in v}
        width = max(len(k) for k in figures)
        print(f"{'quick run: ' if args.quick else ''}{units:,} units, {events:,} events")
        for key, f in figures.items():
            mark = "ok" if f["ok"] else "MISSED"
            print(f"{key:<{width}}  {f['value']:>10} {f['unit']:<6} target {f['target']!s:<8} {mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

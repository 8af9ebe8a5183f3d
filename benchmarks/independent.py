"""An independent check of `python -m benchmarks --json` (issue 19's judge), sharing
none of its timing code: whole commands timed from outside, and the app seen in a
real tmux pane, as a person sees it.

    python -m benchmarks.independent heavy [--pairs 3]     # export, log, import vs sqlite3 .dump
    python -m benchmarks.independent startup [--runs 5]    # first frame in an 80x24 tmux pane vs a bare app
    python -m benchmarks.independent filter [--runs 2]     # history filter, key by key, in tmux, 1M events
    python -m benchmarks.independent odds [--runs 5]       # battle odds, first call in a fresh process
    python -m benchmarks.independent switch [--runs 3]     # every screen twice, first visits included, in tmux
    python -m benchmarks.independent oob [--runs 5]        # b as soon as the overview shows: 50k units vs spring 1813

Each prints one JSON object with every sample, min/median/max and the load average
before and after. Only the campaign files come from benchmarks.generate (the cache
folder); nothing here times through benchmarks/.

How it measures:
- a whole command: its wall time (perf_counter around fork and wait), its CPU
  (user+sys of it and every process it waited for, from os.wait4), its peak RSS two
  ways: GNU time's %M (ru_maxrss of the command: its largest single process; Linux
  keeps in it the size of the process that exec'd it, so it is taken by /usr/bin/time,
  a small C program, not from this script's own wait4) and the sum of the proportional set size (Pss) of every process
  of its process group, sampled every 10 ms from /proc (a forked helper counts with
  it, the pages it shares with the export once);
- a screen: a tmux server of its own (-L), one pane of 80x24, read through a control
  mode client (capture-pane on a pipe, no process started per look) every few ms.
  A key's time is from send-keys until the first look that shows the pane as it
  then stays (for SETTLE s): the answer drawn, whatever the app does inside.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

CACHE = Path(os.environ.get("ADJUTANT_BENCH_CACHE") or Path.home() / ".cache" / "adjutant-benchmarks")
PY = sys.executable
ADJUTANT = str(Path(PY).with_name("adjutant"))  # the console script, not a version manager's shim
SOCKET = os.environ.get("JUDGE_TMUX", "judge19")


def campaign(pattern: str) -> Path:
    found = sorted(CACHE.glob(pattern))
    if not found:
        raise SystemExit(f"no {pattern} in {CACHE}: generate it first (python -m benchmarks.generate)")
    return found[-1]


def stats(samples: list[float], nd: int = 3) -> dict:
    if not samples:
        return {"runs": 0}
    s = sorted(samples)
    return {"runs": len(s), "min": round(s[0], nd), "median": round(statistics.median(s), nd), "max": round(s[-1], nd)}


def p95(samples: list[float]) -> float:
    s = sorted(samples)
    rank = 0.95 * (len(s) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# -- whole commands ------------------------------------------------------------------


def _group_rss_kb(pgid: int) -> int:
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            if int(fields[2]) != pgid:  # field 5 (pgrp), counted after the name
                continue
            with open(f"/proc/{entry}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Pss:"):  # a forked helper's shared pages counted once
                        total += int(line.split()[1])
                        break
        except (OSError, IndexError, ValueError):
            continue
    return total


def run(argv: list[str], out: str | None) -> dict:
    """One command, its stdout into `out` (a path, or None for /dev/null)."""
    sink = open(out or os.devnull, "wb")  # noqa: SIM115
    told = tempfile.NamedTemporaryFile(prefix="rss-", dir=os.environ.get("JUDGE_RSS_DIR"), delete=False)  # noqa: SIM115
    told.close()
    start = time.perf_counter()
    child = subprocess.Popen(["/usr/bin/time", "-o", told.name, "-f", "%M", *argv], stdout=sink, stderr=subprocess.PIPE,
                             start_new_session=True)
    peak_group = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_group
        while not done.is_set():
            peak_group = max(peak_group, _group_rss_kb(child.pid))
            done.wait(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    sink.close()
    err = child.stderr.read().decode(errors="replace") if child.stderr else ""
    maxrss_kb = int(Path(told.name).read_text().split()[-1])
    os.unlink(told.name)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{argv} -> {child.returncode}: {err[-1500:]}")
    return {
        "wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "user": usage.ru_utime, "sys": usage.ru_stime,
        "maxrss_mb": maxrss_kb / 1024, "group_pss_mb": peak_group / 1024,
        "bytes": os.path.getsize(out) if out else None,
    }


def heavy(pairs: int, folder: Path) -> dict:
    big = campaign("u50000-e1000000-t300-*.campaign")
    small = campaign("u50000-e10000-t300-*.campaign")
    plan = [  # alternated: each of ours followed by the floor, to a file and to /dev/null
        ("export_file", [ADJUTANT, "export", str(big)], "export.json"),
        ("dump_file", ["sqlite3", str(big), ".dump"], "dump.sql"),
        ("log_file", [ADJUTANT, "log", str(big)], "log.txt"),
        ("dump_file", ["sqlite3", str(big), ".dump"], "dump.sql"),
        ("export_null", [ADJUTANT, "export", str(big)], None),
        ("dump_null", ["sqlite3", str(big), ".dump"], None),
        ("log_null", [ADJUTANT, "log", str(big)], None),
        ("dump_null", ["sqlite3", str(big), ".dump"], None),
        ("export_10k", [ADJUTANT, "export", str(small)], "export10k.json"),
        ("log_10k", [ADJUTANT, "log", str(small)], "log10k.txt"),
    ]
    raw: dict[str, list[dict]] = {}
    loads = [load()]
    for n in range(pairs):
        for name, argv, out in plan:
            r = run(argv, str(folder / out) if out else None)
            raw.setdefault(name, []).append(r)
            print(f"pair {n} {name}: wall {r['wall']:.2f} cpu {r['cpu']:.2f} maxrss {r['maxrss_mb']:.0f} "
                  f"group {r['group_pss_mb']:.0f} MB load {load()}", file=sys.stderr, flush=True)
        loads.append(load())
    # import of the exports (once each: a million events is minutes)
    for name, src in (("import_10k", "export10k.json"), ("import_1m", "export.json")):
        target = folder / f"{name}.campaign"
        target.unlink(missing_ok=True)
        r = run([ADJUTANT, "import", str(folder / src), str(target)], None)
        raw.setdefault(name, []).append(r)
        print(f"{name}: wall {r['wall']:.2f} cpu {r['cpu']:.2f} maxrss {r['maxrss_mb']:.0f} group {r['group_pss_mb']:.0f}",
              file=sys.stderr, flush=True)
    loads.append(load())
    summary: dict[str, dict] = {}
    for name, rows in raw.items():
        summary[name] = {k: stats([r[k] for r in rows], 2) for k in ("wall", "cpu", "maxrss_mb", "group_pss_mb")}
    med = {name: {k: statistics.median(r[k] for r in rows) for k in ("wall", "cpu", "maxrss_mb", "group_pss_mb")}
           for name, rows in raw.items()}
    ratios = {}
    for ours, floor in (("export_file", "dump_file"), ("log_file", "dump_file"),
                        ("export_null", "dump_null"), ("log_null", "dump_null")):
        ratios[f"{ours}/{floor}"] = {
            "wall": round(med[ours]["wall"] / med[floor]["wall"], 2),
            "cpu": round(med[ours]["cpu"] / med[floor]["cpu"], 2),
            # the pairs, each ours over the floor run next to it
            "wall_pairs": [round(a["wall"] / b["wall"], 2)
                           for a, b in zip(raw[ours], raw[floor][0 if ours.startswith("export") else 1::2])],
        }
    for what in ("export", "log", "import"):
        big_name = f"{what}_file" if what != "import" else "import_1m"
        ratios[f"{what}_rss_1m/10k"] = {
            k: round(med[big_name][k] / med[f"{what}_10k"][k], 2) for k in ("maxrss_mb", "group_pss_mb")
        }
    return {"load": loads, "summary": summary, "ratios": ratios, "raw": raw}


# -- a tmux pane ---------------------------------------------------------------------


class Pane:
    """A tmux server of its own, one 80x24 window, read through a control-mode client."""

    def __init__(self, socket: str, size: tuple[int, int] = (80, 24)) -> None:
        self.socket = socket
        self.tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)
        subprocess.run([*self.tmux, "new-session", "-d", "-s", "j", "-x", str(size[0]), "-y", str(size[1]), "sleep 100000"],
                       check=True)
        subprocess.run([*self.tmux, "set-option", "-g", "window-size", "manual"], check=True)
        subprocess.run([*self.tmux, "set-option", "-g", "remain-on-exit", "on"], check=True)
        subprocess.run([*self.tmux, "resize-window", "-t", "j", "-x", str(size[0]), "-y", str(size[1])], check=True)
        self.ctl = subprocess.Popen([*self.tmux, "-C", "attach", "-t", "j"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.serial = 0
        self.command("refresh-client -f no-output")
        self.command(f"refresh-client -C {size[0]}x{size[1]}")

    def command(self, line: str) -> list[str]:
        """The output of one command. Each is followed by a marker of its own and the block
        before the marker's is the command's: a block left unread (the attach's own, which
        tmux sends first) cannot shift the answers by one."""
        assert self.ctl.stdin and self.ctl.stdout
        self.serial += 1
        marker = f"JUDGE-SYNC-{self.serial}"
        self.ctl.stdin.write(f"{line}\ndisplay-message -p {marker}\n".encode())
        self.ctl.stdin.flush()
        blocks: list[tuple[bool, list[str]]] = []
        out: list[str] = []
        inside = False
        while True:
            raw = self.ctl.stdout.readline()
            if not raw:
                raise RuntimeError("tmux control client ended")
            text = raw.decode(errors="replace").rstrip("\n")
            if not inside and text.startswith("%begin"):
                inside, out = True, []
            elif inside and (text.startswith("%end") or text.startswith("%error")):
                inside = False
                if out == [marker]:
                    failed, answer = blocks[-1]
                    if failed:
                        raise RuntimeError(f"tmux: {line}: {answer}")
                    return answer
                blocks.append((text.startswith("%error"), out))
            elif inside:
                out.append(text)

    def screen(self) -> str:
        return "\n".join(self.command("capture-pane -p -t j"))

    def start(self, argv: list[str]) -> float:
        """Respawn the pane with `argv`; the moment the command was given."""
        cmd = " ".join(_quote(a) for a in argv)
        at = time.perf_counter()
        self.command(f"respawn-pane -k -t j {_quote(cmd)}")
        return at

    def keys(self, *keys: str, literal: bool = False) -> float:
        at = time.perf_counter()
        self.command(f"send-keys -t j {'-l ' if literal else ''}{' '.join(_quote(k) for k in keys)}")
        return at

    def wait_for(self, pattern: str, timeout: float = 120.0) -> tuple[float, str]:
        rx = re.compile(pattern)
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            text = self.screen()
            if rx.search(text):
                return time.perf_counter(), text
            time.sleep(0.002)
        raise RuntimeError(f"never showed {pattern!r}:\n{self.screen()}")

    def settle(self, since: float, settle: float, timeout: float = 60.0, must: str | None = None) -> tuple[float, str]:
        """The time of the first look showing the pane as it then stays for `settle` s
        (and holds `must`)."""
        rx = re.compile(must) if must else None
        last_text, last_change = self.screen(), time.perf_counter()
        end = since + timeout
        while True:
            now = time.perf_counter()
            text = self.screen()
            if text != last_text:
                last_text, last_change = text, now
            elif now - last_change >= settle and (rx is None or rx.search(text)):
                return last_change, text
            if now > end:
                raise RuntimeError(f"the pane never settled:\n{text}")
            time.sleep(0.002)

    def close(self) -> None:
        try:
            self.command("kill-server")
        except RuntimeError:
            pass
        self.ctl.kill()
        self.ctl.wait()
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


def _quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


BARE = r'''
import sys
from sqlmodel import Field, Session, SQLModel, create_engine, select
from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class Campaign(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str


class Bare(App):
    def compose(self) -> ComposeResult:
        yield Header()
        with Session(create_engine(f"sqlite:///{sys.argv[1]}")) as session:
            row = session.exec(select(Campaign)).first()
        yield Static(f"BARE-READY {row.name}")
        yield Footer()


Bare().run()
'''


def startup(runs: int, folder: Path) -> dict:
    spring = campaign("spring1813-*.campaign")
    big = campaign("u50000-e1000000-t300-*.campaign")
    bare = folder / "bare.py"
    bare.write_text(BARE)
    pane = Pane(SOCKET)
    samples: dict[str, list[float]] = {}
    loads = [load()]
    try:
        for n in range(runs):
            for name, argv, marker in (
                ("spring", [ADJUTANT, str(spring)], r"Turn \d+ of \d+"),
                ("spring_bare", [PY, str(bare), str(spring)], r"BARE-READY \S"),
                ("big", [ADJUTANT, str(big)], r"Turn \d+ of \d+"),
                ("big_bare", [PY, str(bare), str(big)], r"BARE-READY \S"),
            ):
                at = pane.start(argv)
                seen, _ = pane.wait_for(marker)
                samples.setdefault(name, []).append(seen - at)
                pane.start(["true"])
                time.sleep(0.3)
                print(f"run {n} {name}: {seen - at:.3f} s load {load()}", file=sys.stderr, flush=True)
            loads.append(load())
    finally:
        pane.close()
    out: dict[str, object] = {"load": loads, "seconds": {k: stats(v) for k, v in samples.items()}}
    for ours in ("spring", "big"):
        out[f"{ours}_ratio"] = round(statistics.median(samples[ours]) / statistics.median(samples[f"{ours}_bare"]), 3)
        out[f"{ours}_pair_ratios"] = [round(a / b, 3) for a, b in zip(samples[ours], samples[f"{ours}_bare"])]
    out["raw"] = samples
    return out


WORDS = ("xylophone", "Dresden", "unit_004212", "combat", "fatigued=True")


BARE_FILTER = r"""
from textual.app import App
from textual.widgets import DataTable, Footer, Input, Static

ROWS = [(n, f"unit_{n:06d} marches from Dresden to Leipzig" if n % 2 else f"Roll {n}: combat") for n in range(200)]

class Bare(App):
    def compose(self):
        yield Static("BARE History")
        yield Input(placeholder="filter", id="f")
        yield DataTable(id="t")
        yield Footer()

    def on_mount(self):
        self.query_one(DataTable).add_columns("#", "What")
        self.show("")

    def on_input_changed(self, event):
        self.show(event.value)

    def show(self, word):
        t = self.query_one(DataTable)
        t.clear()
        t.add_rows([r for r in ROWS if word.lower() in r[1].lower()][:20])

Bare().run()
"""


def history_filter_bare(runs: int, settle: float, folder: Path) -> dict:
    """The floor of a key in the filter as this script sees it: a bare Textual app,
    an Input and a table of 20 rows filtered in memory, in the same pane, same words."""
    bare = folder / "bare_filter.py"
    bare.write_text(BARE_FILTER)
    pane = Pane(SOCKET)
    every: list[float] = []
    try:
        for _ in range(runs):
            pane.start([PY, str(bare)])
            pane.wait_for(r"BARE History")
            pane.settle(time.perf_counter(), 0.5)
            for word in WORDS:
                for k, ch in enumerate(word):
                    at = pane.keys(ch, literal=True)
                    seen, _ = pane.settle(at, settle, must=re.escape(word[: k + 1]) + r"\s")
                    every.append(seen - at)
                for _ in word:
                    pane.settle(pane.keys("BSpace"), settle)
            print(f"bare p95 {p95(every) * 1000:.0f} ms load {load()}", file=sys.stderr, flush=True)
    finally:
        pane.close()
    return {"load": load(), "p95_ms": round(p95(every) * 1000, 1), "ms": stats([x * 1000 for x in every], 1)}


def history_filter(runs: int, settle: float) -> dict:
    """In the history at 1M events: each key of each word, from send-keys until the
    pane shows the answer (the first look of the pane as it then stays)."""
    big = campaign("u50000-e1000000-t300-*.campaign")
    pane = Pane(SOCKET)
    per_word: dict[str, list[float]] = {}
    loads = [load()]
    try:
        for _ in range(runs):
            pane.start([ADJUTANT, str(big)])
            pane.wait_for(r"Turn \d+ of \d+")
            time.sleep(8)  # the app prepares its screens in the background: typing starts once settled
            pane.keys("h")
            pane.wait_for(r"History")
            pane.settle(time.perf_counter(), 1.0)
            pane.keys("/")
            pane.settle(time.perf_counter(), 0.5)
            for word in WORDS:
                for k, ch in enumerate(word):
                    at = pane.keys(ch, literal=True)
                    seen, _ = pane.settle(at, settle, must=r"▊\s+" + re.escape(word[: k + 1]) + r"\s")
                    per_word.setdefault(word, []).append(seen - at)
                # clear the box: one backspace a letter, answered each
                for _ in word:
                    at = pane.keys("BSpace")
                    pane.settle(at, settle)
                print(f"{word}: {[round(x * 1000) for x in per_word[word][-len(word):]]} ms load {load()}",
                      file=sys.stderr, flush=True)
            loads.append(load())
    finally:
        pane.close()
    every = [x for v in per_word.values() for x in v]
    return {
        "load": loads, "settle_s": settle,
        "p95_ms": round(p95(every) * 1000, 1), "ms": stats([x * 1000 for x in every], 1),
        "per_word_ms": {w: [round(x * 1000, 1) for x in v] for w, v in per_word.items()},
    }


# Every screen a key reaches, in the project's order (tui.commands.SCREENS), the overview last,
# with what its first line shows.
SCREENS = (
    ("b", "Order of battle"), ("w", "Weather track"), ("c", "Command points"), ("h", "History"), ("t", "Turn sequence"),
    ("m", "Forced march"), ("x", "Battles"), ("i", "Reconnaissance"), ("P", "Plots"), ("L", "Luck"),
    ("l", "Artillery table"), ("p", "Map:"), ("S", "has seen"), ("O", "Orders"), ("o", "Overview"),
)

BARE_SWITCH = r"""
import sqlite3, sys
from textual.app import App
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

KEYS = sys.argv[2]
FOOTER = sys.argv[3:] == ["footer"]  # Textual's Footer of the 15 keys: 0.2-0.8 s a switch at load 11
db = sqlite3.connect(sys.argv[1])

class Page(Screen):
    def compose(self):
        yield Static(f"BARE {self.name}")
        yield DataTable()
        if FOOTER:
            yield Footer()

    def on_mount(self):
        t = self.query_one(DataTable)
        t.add_columns("id", "name", "kind", "SP")
        t.add_rows(db.execute("SELECT id, name, kind, strength_points FROM unit ORDER BY id LIMIT 40").fetchall())

class Bare(App):
    CSS = "DataTable { height: 1fr; }"
    BINDINGS = [(k, f"go('{k}')", k) for k in KEYS]

    def on_mount(self):
        self.push_screen(Page(name="o"))

    def action_go(self, k):
        if not self.is_screen_installed(k):
            self.install_screen(Page(name=k), k)
        self.switch_screen(k)

Bare().run()
"""


def switches(runs: int, settle: float, folder: Path, footer: bool) -> dict:
    """From a fresh start on 50,000 units and 1M events, the first key as soon as the
    overview shows, then every screen twice round: each key until the pane shows the
    screen's title and then stays as it is (its rows drawn); against a bare Textual app
    whose screens are a title and a table of 40 units read from the same file on first
    visit (and Textual's Footer of the keys, with --footer)."""
    big = campaign("u50000-e1000000-t300-*.campaign")
    bare = folder / "bare_switch.py"
    bare.write_text(BARE_SWITCH)
    keys = "".join(k for k, _ in SCREENS)
    pane = Pane(SOCKET)
    ours: list[float] = []
    floor: list[float] = []
    firsts: dict[str, list[float]] = {}
    loads = [load()]
    try:
        for _ in range(runs):
            pane.start([ADJUTANT, str(big)])
            pane.wait_for(r"Turn \d+ of \d+")
            for lap in range(2):
                for key, title in SCREENS:
                    at = pane.keys(key)
                    seen, _ = pane.settle(at, settle, must=r"\A[^\n]*" + re.escape(title))
                    ours.append(seen - at)
                    if lap == 0:
                        firsts.setdefault(title, []).append(seen - at)
            pane.start([PY, str(bare), str(big), keys, *(["footer"] if footer else [])])
            pane.wait_for(r"BARE o")
            for _lap in range(2):
                for key, _title in SCREENS:
                    at = pane.keys(key)
                    seen, _ = pane.settle(at, settle, must=r"\A\s*BARE " + re.escape(key) + r"\s")
                    floor.append(seen - at)
            print(f"ours p95 {p95(ours) * 1000:.0f} ms, bare p95 {p95(floor) * 1000:.0f} ms, load {load()}", file=sys.stderr, flush=True)
            loads.append(load())
    finally:
        pane.close()
    return {
        "load": loads, "settle_s": settle, "bare_footer": footer,
        "ratio": round(p95(ours) / p95(floor), 3),
        "ours_p95_ms": round(p95(ours) * 1000, 1), "bare_p95_ms": round(p95(floor) * 1000, 1),
        "ours_ms": stats([x * 1000 for x in ours], 1), "bare_ms": stats([x * 1000 for x in floor], 1),
        "first_visit_ms": {t: [round(x * 1000) for x in v] for t, v in firsts.items()},
    }


def oob_first_visit(runs: int, settle: float) -> dict:
    """`b` as soon as the overview shows, until the pane shows the order of battle as it
    then stays: 50,000 units against spring 1813, alternated."""
    spring = campaign("spring1813-*.campaign")
    big = campaign("u50000-e1000000-t300-*.campaign")
    pane = Pane(SOCKET)
    samples: dict[str, list[float]] = {"big": [], "spring": []}
    loads = [load()]
    try:
        for _ in range(runs):
            for name, path in (("big", big), ("spring", spring)):
                pane.start([ADJUTANT, str(path)])
                pane.wait_for(r"Turn \d+ of \d+")
                at = pane.keys("b")
                seen, _ = pane.settle(at, settle, must=r"\A[^\n]*Order of battle[^\n]*\n.*\n.*SP")
                samples[name].append(seen - at)
            print(f"oob big {samples['big'][-1] * 1000:.0f} spring {samples['spring'][-1] * 1000:.0f} ms load {load()}",
                  file=sys.stderr, flush=True)
            loads.append(load())
    finally:
        pane.close()
    return {
        "load": loads, "settle_s": settle,
        "ratio": round(statistics.median(samples["big"]) / statistics.median(samples["spring"]), 3),
        "big_ms": stats([x * 1000 for x in samples["big"]], 1), "spring_ms": stats([x * 1000 for x in samples["spring"]], 1),
    }


ODDS = r'''
import json, sys, time
from fractions import Fraction
t0 = time.perf_counter()
from rules.allemagne1813.battle_odds import battle_odds
from rules.allemagne1813.combat import CombatSide, Leader
from rules.allemagne1813.data import Situation
t1 = time.perf_counter()
case = sys.argv[1]
a = CombatSide({"infantry": 110, "cavalry": 30, "artillery": 10}, [Leader("Napoleon", 5, 2)],
               average_cohesion=Fraction(4), artillery_bonus=9, cavalry_bonus=6)
d = CombatSide({"infantry": 115, "cavalry": 25, "artillery": 10}, [Leader("Blücher", 4, 1)],
               average_cohesion=Fraction(7, 2), artillery_bonus=9, cavalry_bonus=5)
situation, options = {
    "plain": (Situation(), {}),
    "terrain": (Situation(defender_in_defensive_terrain=True), {"morale_test": "cohesion_d6"}),
    "flank": (Situation(flank_attack=True), {"morale_test": "cohesion_d6", "simultaneous_losses": "attacker_first",
                                            "artillery_timing": "before_combat"}),
}[case]
t2 = time.perf_counter()
battle_odds(a, d, situation, options)
t3 = time.perf_counter()
battle_odds(a, d, situation, options)
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first": t3 - t2, "second": t4 - t3}))
'''


def odds(runs: int) -> dict:
    out: dict[str, dict] = {}
    loads = [load()]
    for case in ("plain", "terrain", "flank"):
        rows = []
        for _ in range(runs):
            done = subprocess.run([PY, "-c", ODDS, case], capture_output=True, text=True, check=True)
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        out[case] = {k: stats([r[k] * 1000 for r in rows], 1) for k in ("first", "second", "import")}
        loads.append(load())
    return {"load": loads, "ms": out}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("heavy", "startup", "filter", "filter-bare", "odds", "switch", "oob"))
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--settle", type=float, default=0.4)
    parser.add_argument("--footer", action="store_true", help="switch: the bare app's screens with Textual's Footer")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix=os.environ.get("JUDGE_TMP", "/tmp/judge-")))
    os.environ["JUDGE_RSS_DIR"] = str(folder)
    try:
        if args.what == "heavy":
            result = heavy(args.pairs, folder)
        elif args.what == "startup":
            result = startup(args.runs, folder)
        elif args.what == "switch":
            result = switches(args.runs, args.settle, folder, args.footer)
        elif args.what == "oob":
            result = oob_first_visit(args.runs, args.settle)
        elif args.what == "filter-bare":
            result = history_filter_bare(args.runs, args.settle, folder)
        elif args.what == "filter":
            result = history_filter(args.runs, args.settle)
        else:
            result = odds(args.runs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    main()

"""Where the suite's time goes: `python -m pytest -n 2 -p tests.cpu_report`, then
`python -m tests.cpu_report [FOLDER]` for the summary.

Each worker writes one line a test to FOLDER (ADJUTANT_CPU_REPORT, default
/tmp/adjutant-cpu-report): its wall time, the CPU of the worker and of the processes
it started and waited for. The servers the tests start do not count there, as they
leave their starter: the PostgreSQL server (pg_ctl starts it and returns) and the tmux
server of every end-to-end test, which runs `adjutant` itself. With this plugin the
worker adopts them (Linux: PR_SET_CHILD_SUBREAPER) and collects them once they end,
so their CPU is counted with the worker's children, and `time` counts it too (a tmux
server's with its test, the PostgreSQL server's in the worker's total at its end).

Measured under load before this (session 9): the 23 end-to-end tests' tmux servers
used 105 CPU-s that neither pytest nor `time` saw (30 in the two-turn d10 play alone),
and PostgreSQL 16 CPU-s for tests/test_hostile_numbers_postgres.py alone (pytest 39):
the run is more CPU-bound than pytest's `user` time says."""

from __future__ import annotations

import collections
import json
import os
import sys
import time
from pathlib import Path

import pytest

FOLDER = Path(os.environ.get("ADJUTANT_CPU_REPORT", "/tmp/adjutant-cpu-report"))
ADOPTED = ("tmux", "postgres")  # the daemons collected when they end: nothing else of ours is reaped


def _adopt_orphans() -> None:
    if sys.platform != "linux":
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def _collect_adopted() -> None:
    """Reap the adopted servers that have ended (their CPU then counts as the worker's children's)."""
    try:
        children = Path(f"/proc/self/task/{os.getpid()}/children").read_text().split()
    except OSError:
        return
    for pid in children:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        name, state = stat[stat.find("(") + 1 : stat.rfind(")")], stat[stat.rfind(")") + 2]
        if state == "Z" and name.startswith(ADOPTED):
            try:
                os.waitpid(int(pid), os.WNOHANG)
            except ChildProcessError:
                pass


_out = None


def _write(record: dict) -> None:
    global _out
    if _out is None:
        FOLDER.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _out = open(FOLDER / f"{worker}-{os.getpid()}.jsonl", "a", encoding="utf-8")  # noqa: SIM115 - open for the session
    _out.write(json.dumps(record) + "\n")
    _out.flush()


def _children_cpu() -> float:
    times = os.times()
    return times.children_user + times.children_system


def pytest_configure(config: pytest.Config) -> None:
    _adopt_orphans()


def pytest_sessionstart(session: pytest.Session) -> None:
    _write({"event": "start", "t": time.time(), "cpu": time.process_time()})


def pytest_collection_finish(session: pytest.Session) -> None:
    _write({"event": "collected", "t": time.time(), "cpu": time.process_time()})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    t0, cpu0, child0, wall0 = time.time(), time.process_time(), _children_cpu(), time.perf_counter()
    yield
    _collect_adopted()
    _write({"id": item.nodeid, "t0": t0, "wall": time.perf_counter() - wall0,
            "cpu": time.process_time() - cpu0, "child": _children_cpu() - child0})


def pytest_sessionfinish(session: pytest.Session) -> None:
    deadline = time.monotonic() + 5  # the PostgreSQL server stopped at the end of the last test
    while time.monotonic() < deadline:
        _collect_adopted()
        if not any(
            Path(f"/proc/{pid}/stat").exists()
            for pid in Path(f"/proc/self/task/{os.getpid()}/children").read_text().split()
        ):
            break
        time.sleep(0.05)
    _write({"event": "finish", "t": time.time(), "cpu": time.process_time(), "child": _children_cpu()})


def summary(folder: Path) -> str:
    """CPU by file, and per worker: busy from start to finish, and when it ended."""
    files: collections.Counter[str] = collections.Counter()
    walls: collections.Counter[str] = collections.Counter()
    lines, ends = [], []
    paths = sorted(folder.glob("*.jsonl"))
    if any(not p.name.startswith("main-") for p in paths):  # xdist's controller: its children are the workers
        paths = [p for p in paths if not p.name.startswith("main-")]
    for path in paths:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        tests = [r for r in rows if "id" in r]
        events = {r["event"]: r for r in rows if "event" in r}
        for r in tests:
            files[r["id"].split("::")[0]] += r["cpu"] + r["child"]
            walls[r["id"].split("::")[0]] += r["wall"]
        if "start" in events and "finish" in events:
            start, finish = events["start"], events["finish"]
            own = finish["cpu"] - start["cpu"]
            span = finish["t"] - start["t"]
            ends.append(finish["t"])
            lines.append(f"{path.stem}: {len(tests)} tests, {span:.0f} s, own CPU {own:.0f} s, "
                         f"children {finish['child']:.0f} s, busy {(own + finish['child']) / span:.0%}")
    if ends:
        lines.append(f"the first worker ended {max(ends) - min(ends):.0f} s before the last")
    lines.append("CPU-s (own + children)  wall-s  file")
    lines += [f"{cpu:8.1f} {walls[name]:8.1f}  {name}" for name, cpu in files.most_common(40)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER))

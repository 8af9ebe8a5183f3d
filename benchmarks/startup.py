"""Start-up time as a person sees it: from starting `adjutant FILE` in a real
pseudo-terminal until the overview shows the campaign's data, against a bare
Textual app that imports sqlmodel and shows one row of the same file.

Both are whole processes, alternated, so the machine's noise falls on both.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import signal
import statistics
import sys
import time
from pathlib import Path

BARE_APP = r'''
import sys
from sqlmodel import Session, create_engine, text
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        engine = create_engine(f"sqlite:///{sys.argv[1]}")
        with Session(engine) as s:
            name = s.exec(text("SELECT name FROM campaign")).one()[0]
        yield Static(f"READY {name}")

Bare().run()
'''


def run_until(argv: list[str], marker: bytes, timeout: float = 60.0, size=(24, 80), on_seen=None) -> float:
    """Seconds from starting `argv` in a pty until `marker` (a regular expression)
    appears on its screen; `on_seen(pid)` runs then, before the program is stopped."""
    pattern = re.compile(marker)
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: a terminal of the given size, then the program
        os.environ["TERM"] = "xterm-256color"
        os.environ["LINES"], os.environ["COLUMNS"] = str(size[0]), str(size[1])
        os.execvp(argv[0], argv)
    seen = b""
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                seen = (seen + chunk)[-65536:]
                if pattern.search(seen):
                    elapsed = time.perf_counter() - start
                    if on_seen is not None:
                        on_seen(pid)
                    return elapsed
        raise RuntimeError(f"{argv[0]} never showed {marker!r}")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def time_until(argv: list[str], marker: bytes, timeout: float = 60.0) -> float:
    return run_until(argv, marker, timeout)


def peak_rss_mb(argv: list[str], marker: bytes) -> float:
    """The peak resident memory of the program once it shows `marker`."""
    peak: list[float] = []

    def read(pid: int) -> None:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak.append(int(line.split()[1]) / 1024)

    run_until(argv, marker, on_seen=read)
    return peak[0] if peak else float("nan")


def adjutant_argv(path: Path) -> list[str]:
    """The installed `adjutant` of the Python that runs the bare app: the console script
    next to sys.executable, not the first on PATH, which may be a version manager's shim
    (pyenv's is a bash script that runs `pyenv exec`: 0.2 of the bare app's start-up more
    in a paired run, which is pyenv's time, not the app's)."""
    script = Path(sys.executable).with_name("adjutant")
    exe = str(script) if script.is_file() else shutil.which("adjutant")
    return [exe, str(path)] if exe else [sys.executable, "-m", "tui.cli", str(path)]


def startup_samples(campaign: Path, runs: int, folder: Path) -> tuple[list[float], list[float]]:
    """(adjutant, bare) start-up seconds, alternated."""
    bare = folder / "bare_app.py"
    bare.write_text(BARE_APP, encoding="utf-8")
    ours, floor = [], []
    for _ in range(runs):
        ours.append(time_until(adjutant_argv(campaign), rb"Turn \d+ of"))
        floor.append(time_until([sys.executable, str(bare), str(campaign)], b"READY"))
    return ours, floor


def median(samples: list[float]) -> float:
    return statistics.median(samples)

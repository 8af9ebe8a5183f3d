"""The benchmarks' peak memory of a command is the command's own: not floored at the
benchmark's (Linux counts in a process's peak the memory of the process it was forked
from as it was at exec: the export at 10k and 1M events both read as the benchmark's
82.6 MB, export_rss_ratio 1.0 whatever the export did)."""

from __future__ import annotations

import sys

from benchmarks.__main__ import run_child

ALLOCATES = "b = bytearray(%d * 1024 * 1024); b[::4096] = b'x' * len(b[::4096])"


def test_a_small_command_is_not_charged_with_the_benchmarks_memory():
    ballast = bytearray(200 * 1024 * 1024)  # this process well above any small command
    ballast[::4096] = b"x" * len(ballast[::4096])
    small = run_child([sys.executable, "-I", "-S", "-c", "pass"]).peak_mb
    big = run_child([sys.executable, "-I", "-S", "-c", ALLOCATES % 120]).peak_mb
    assert small < 40, small
    assert 120 <= big < 200, big
    del ballast


def test_a_failed_command_is_said_with_its_error():
    import pytest

    with pytest.raises(RuntimeError, match="no such thing"):
        run_child([sys.executable, "-I", "-S", "-c", "raise SystemExit('no such thing')"])


# A command that forks a helper, as the export does, and waits for it: each spins this long.
SPINS = """import os, time
def spin(s):
    end = time.process_time() + s
    while time.process_time() < end:
        pass
pid = os.fork()
spin(%f)
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
"""


def test_the_cpu_of_a_command_counts_its_helper_and_not_its_waits():
    """export_ratio_1m's cpu_ratio: the export's CPU is its own process's and its forked
    helper's (on two cores, a wall time can hide half of it), and a wait is no CPU."""
    spun = run_child([sys.executable, "-I", "-S", "-c", SPINS % 0.4])
    assert 0.75 <= spun.cpu < 2.0, spun
    slept = run_child([sys.executable, "-I", "-S", "-c", "import time; time.sleep(0.5)"])
    assert slept.seconds >= 0.5 and slept.cpu < 0.3, slept

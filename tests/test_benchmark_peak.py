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
    _seconds, small, _out = run_child([sys.executable, "-I", "-S", "-c", "pass"])
    _seconds, big, _out = run_child([sys.executable, "-I", "-S", "-c", ALLOCATES % 120])
    assert small < 40, small
    assert 120 <= big < 200, big
    del ballast


def test_a_failed_command_is_said_with_its_error():
    import pytest

    with pytest.raises(RuntimeError, match="no such thing"):
        run_child([sys.executable, "-I", "-S", "-c", "raise SystemExit('no such thing')"])

"""The `adjutant` program leaves out Python's last garbage collection at exit (tui.cli.exit_without_collecting:
0.1-0.3 CPU-s a command); a caller of main() in a process that goes on (a test worker) keeps collecting."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
# Registered before main(), so run after everything main() registered (atexit: the last registered first).
LAST = "import atexit, gc, sys; atexit.register(lambda: sys.stderr.write(f'frozen at exit: {gc.get_freeze_count() > 0}\\n'))"


def test_the_program_exits_with_its_objects_frozen() -> None:
    program = f"{LAST}; from tui.cli import main; sys.exit(main())"  # as the installed script runs it
    done = subprocess.run(
        [sys.executable, "-c", program, "rules", "--help"], capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=False,
    )
    assert done.returncode == 0 and "options:" in done.stdout, done.stderr
    assert done.stderr == "frozen at exit: True\n"


def test_main_called_with_its_arguments_leaves_the_collection_alone(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    registered: list[object] = []
    monkeypatch.setattr("atexit.register", lambda function, *args, **kwargs: registered.append(function))
    assert main(["rules", "--help"]) == 0
    assert registered == []  # a test worker calls main() thousands of times
    monkeypatch.setattr(sys, "argv", ["adjutant", "rules", "--help"])
    assert main() == 0
    assert registered == [gc.freeze]
    capsys.readouterr()

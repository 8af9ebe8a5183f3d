"""`adjutant` (the app) without a terminal: one sentence and exit 2 at once.

A club login whose sshd ForceCommand is adjutant, reached with `ssh HOST COMMAND` (no terminal), ran the
app on pipes: Textual's driver read the ended standard input again and again, 40-70% of a core for as
long as nobody killed it (one such process ran 48 minutes after its connection was gone). Commands
(check, export, ...) need no terminal and are untouched; `adjutant serve` gives the app its web driver."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.templates import new_campaign

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("stdin", ["devnull", "ended pipe", "open pipe"])
@pytest.mark.parametrize("opened", ["file", "start screen"])
def test_the_app_without_a_terminal_is_one_sentence(tmp_path: Path, stdin: str, opened: str) -> None:
    path = tmp_path / "c.campaign"
    new_campaign(path, "spring1813", seed=1)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
    env.update(ADJUTANT_CONFIG_DIR=str(tmp_path / "config"), ADJUTANT_LOG_DIR=str(tmp_path / "logs"))
    args = [sys.executable, "-m", "tui.cli", *([str(path)] if opened == "file" else [])]
    feed = {"devnull": subprocess.DEVNULL, "ended pipe": subprocess.PIPE, "open pipe": subprocess.PIPE}[stdin]
    process = subprocess.Popen(args, stdin=feed, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    try:
        if stdin == "open pipe":  # nobody types, nobody hangs up: it ends by itself
            process.wait(timeout=60)
            out, err = process.stdout.read(), process.stderr.read()  # type: ignore[union-attr]
            process.stdin.close()  # type: ignore[union-attr]
        else:  # before: the app ran on, spinning, until killed
            out, err = process.communicate(b"" if stdin == "ended pipe" else None, timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    said = err.decode()
    assert process.returncode == 2, said[-500:]
    assert out == b"" and said.count("\n") == 1 and "\x1b" not in said, said[-500:]
    assert said.startswith("adjutant: the app reads its keys from a terminal, and standard input is not one")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before

"""The `adjutant` command itself: bad flags get one line."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_app_command_refuses_a_bad_flag_in_one_line():
    done = subprocess.run([sys.executable, "-m", "tui.cli", "--bogus"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--bogus" in done.stderr

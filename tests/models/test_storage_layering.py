"""The storage layer and the campaign commands never load the user interface."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_models_and_the_campaign_commands_do_not_import_textual() -> None:
    code = (
        "import sys, models, campaigns.cli, campaigns.setup, campaigns.log\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith(('textual.', 'tui')))\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

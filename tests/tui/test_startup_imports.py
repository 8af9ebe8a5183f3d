"""What `adjutant FILE` imports before its first frame: what the overview and the
status line show, not the rule set's tables (rules.loader, rules.schema: the weather
box's month modifier is read in a worker after that frame), nor pydantic (config.toml is
checked with it only when it holds entries; this one has none), nor
SQLModel and SQLAlchemy's ORM (150-250 ms of CPU; the overview is read with plain SQL,
and the store imports its ORM session where an action needs it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from campaigns.session import CampaignSession

ROOT = Path(__file__).resolve().parents[2]
NOT_BEFORE_THE_FIRST_FRAME = ("rules.loader", "rules.schema", "rules.tables", "rules.allemagne1813.weather",
                              "pydantic_settings", "pydantic", "models.tables", "sqlmodel", "sqlalchemy.orm", "models.history")


def test_the_first_screen_needs_no_rule_table(tmp_path: Path):
    path = tmp_path / "s.campaign"
    CampaignSession.new("spring1813", path, seed=1).close()
    code = (
        "import sys\n"
        "import tui.cli, tui.launch\n"
        "from campaigns.settings import load\n"
        "from campaigns.logfile import start_logging\n"
        "from campaigns.session import CampaignSession\n"
        "from tui.keymap import check_keymap\n"
        "settings = load(); check_keymap(settings)\n"
        "import tui.app, tui.screens.overview, tui.widgets.status\n"
        f"session = CampaignSession.open({str(path)!r})\n"
        "assert session.overview().turn == 1 and 'turn 1/' in session.status_line()\n"
        f"print(sorted(m for m in {NOT_BEFORE_THE_FIRST_FRAME!r} if m in sys.modules))\n"
    )
    env = {"ADJUTANT_CONFIG_DIR": str(tmp_path / "cfg"), "ADJUTANT_LOG_DIR": str(tmp_path / "log")}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_rule_set_still_answers_through_rules():
    """rules/__init__ imports its names on first use: each is still there, and the same object."""
    import rules
    from rules.loader import get_table
    from rules.tables import Cell

    assert rules.get_table is get_table and rules.Cell is Cell
    assert rules.lookup("allemagne1813", "combat", roll=8, sp=35).text == "3*"
    assert set(rules.__all__) <= set(dir(rules))

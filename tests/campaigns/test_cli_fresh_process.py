"""The commands that read or write a campaign's rows, each run as `adjutant` runs it: in
a process of its own, which has imported nothing before the command.

The in-process tests (test_campaign_commands.py) run every command after the suite has
imported everything, so they could not see an export that wrote no rows: the export
read its tables from SQLModel's metadata, which only the SQLModel classes' module
(models.tables) fills, and the CLI no longer imported it for `export`. Each command's
output is compared here with what the same reading gives in this process. And `log`
and `export` import only what they need: what they do without is checked too."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from campaigns.log import log_lines
from models import open_campaign
from models.exchange import loads, write
from tests import test_hostile_files as hostile_files
from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]


def adjutant(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`adjutant ARGS` in a fresh process, on this tree."""
    env = {
        **os.environ, "PYTHONPATH": str(ROOT),
        "ADJUTANT_CONFIG_DIR": str(tmp / "config"), "ADJUTANT_LOG_DIR": str(tmp / "log"),
    }
    env.pop("ADJUTANT_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
    )


def exported(path: Path) -> str:
    """The export of `path`, written in this process (which has every table class)."""
    parts: list[bytes] = []
    with open_campaign(path) as store:
        write(store, lambda chunk: parts.append(bytes(chunk)))
    return b"".join(parts).decode()


def in_process(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What `adjutant ARGS` prints when run in this process, which has imported everything."""
    assert main(list(args)) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Spring 1813 played a little (weather, command points, a battle and its dice, an action
    undone): tests/test_hostile_files.py's campaign."""
    return hostile_files.played(tmp_path_factory.mktemp("fresh") / "spring.campaign")


def test_export_writes_every_row(played: Path, tmp_path: Path) -> None:
    done = adjutant(tmp_path, "export", str(played))
    assert done.returncode == 0, done.stderr
    assert done.stdout == exported(played)
    tables = json.loads(done.stdout)["tables"]
    with sqlite3.connect(played) as db:
        for name, rows in tables.items():
            assert len(rows) == db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0], name
    db.close()
    assert all(tables[name] for name in ("campaign", "unit", "turn", "battle", "dice_roll", "event"))


def test_export_salvage_writes_every_row(played: Path, tmp_path: Path) -> None:
    """The salvaged rows are the file's own (its schema's columns, times as stored):
    imported, they give the campaign's export."""
    done = adjutant(tmp_path, "export", "--salvage", str(played))
    assert done.returncode == 0, done.stderr
    assert all(json.loads(done.stdout)["tables"][name] for name in ("unit", "battle", "dice_roll", "event"))
    loads(tmp_path / "salvaged.campaign", done.stdout).close()
    assert exported(tmp_path / "salvaged.campaign") == exported(played)


def test_import_builds_the_whole_campaign(played: Path, tmp_path: Path) -> None:
    text = exported(played)
    (tmp_path / "export.json").write_text(text)
    done = adjutant(tmp_path, "import", str(tmp_path / "export.json"), str(tmp_path / "copy.campaign"))
    assert done.returncode == 0, done.stderr
    assert exported(tmp_path / "copy.campaign") == text


def test_check_reads_every_row(played: Path, tmp_path: Path) -> None:
    done = adjutant(tmp_path, "check", str(played))
    assert done.returncode == 0 and "sound (schema" in done.stdout, done.stderr
    # A value no export takes, in a row the check reads only if it reads the tables' rows.
    damaged = tmp_path / "damaged.campaign"
    shutil.copyfile(played, damaged)
    with sqlite3.connect(damaged) as db:
        db.execute("UPDATE unit SET strength_points = 10000 WHERE rowid = (SELECT max(rowid) FROM unit)")
    db.close()
    done = adjutant(tmp_path, "check", str(damaged))
    assert done.returncode == 1 and "table 'unit'" in done.stderr, (done.stdout, done.stderr)


def test_dice_verify_replays_every_rolled_die(played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    done = adjutant(tmp_path, "dice", "verify", str(played))
    assert done.returncode == 0, done.stderr
    assert done.stdout == in_process(capsys, "dice", "verify", str(played))
    assert done.stdout.startswith("All ") and "match the campaign's seed" in done.stdout


def test_battles_list_names_every_battle(played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    done = adjutant(tmp_path, "battles", "--list", str(played))
    assert done.returncode == 0, done.stderr
    assert done.stdout == in_process(capsys, "battles", "--list", str(played))
    assert done.stdout.startswith("#1  turn 1  Lützen  ")


def test_past_rewinds_the_rows(played: Path, tmp_path: Path) -> None:
    """Undoing events from #2 on writes each change back through the tables (models.history)."""
    done = adjutant(tmp_path, "past", str(played), "--event", "2", "--save", str(tmp_path / "before.campaign"))
    assert done.returncode == 0, done.stderr
    with open_campaign(tmp_path / "before.campaign") as store:
        assert store.campaign().dice_next_index == 0
    with open_campaign(played) as store:
        assert store.campaign().dice_next_index > 0


# `log` then `export` in one fresh process (`adjutant log` as the command runs it: tui.cli's main
# first in a process that has imported nothing else): what each printed, a NUL line after it (no
# line of theirs holds one), and what each has imported once it has run.
IMPORTS = """
import json, sys
from tui.cli import main

LAZY = ("models.tables", "campaigns.setup", "campaigns.scenario", "campaigns.session", "models.check",
        "models.export_format", "models.export_quick", "rules.options", "rules.loader", "sqlalchemy.dialects.postgresql")
imported = {}
for command in ("log", "export"):
    assert main([command, sys.argv[1]]) == 0
    sys.stdout.write("\\0\\n")
    sys.stdout.flush()
    imported[command] = sorted(name for name in LAZY if name in sys.modules)
print(json.dumps(imported), file=sys.stderr)
"""


def test_log_prints_every_event_and_die_and_log_and_export_import_only_what_they_need(played: Path, tmp_path: Path) -> None:
    env = {
        **os.environ, "PYTHONPATH": str(ROOT),
        "ADJUTANT_CONFIG_DIR": str(tmp_path / "config"), "ADJUTANT_LOG_DIR": str(tmp_path / "log"),
    }
    env.pop("ADJUTANT_DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", IMPORTS, str(played)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    # The log, the first command of a fresh process: every event and die.
    log, _export, after = done.stdout.split("\0\n")
    assert after == ""
    with open_campaign(played) as store:
        assert log.splitlines() == list(log_lines(store))
    with sqlite3.connect(played) as db:
        dice, events = (db.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in ("dice_roll", "event"))
    db.close()
    assert dice >= 3 and log.count("dice #") == dice
    assert events >= 6 and log.splitlines()[-1].startswith(f"#{events} ")
    imported = json.loads(done.stderr.strip().splitlines()[-1])
    assert imported["log"] == []
    # The export reads the tables from their plain description (models.columns), not the SQLModel
    # classes, and checks every row (models.export_format reads the rule sets' options): not the
    # set-up, the scenarios, the check or the session.
    assert imported["export"] == [
        "models.export_format", "models.export_quick", "rules.loader", "rules.options",
    ]

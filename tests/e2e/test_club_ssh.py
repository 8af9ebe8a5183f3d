"""A club server end to end: a real PostgreSQL with `adjutant club setup`, a real sshd whose
ForceCommand runs Adjutant on the shared campaign as the club's role, and a player who logs in
with a throwaway key in tmux at 80x24, plays, and quits.

Until the player view of the fog-of-war issue exists the login is the umpire's
(`adjutant --db URL` as the umpires' role); a player's is the one line marked below.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from sqlalchemy import select

from tui.cli import main
from campaigns.scenario import load_scenario
from campaigns.setup import create_campaign
from models import Turn, open_campaign
from tests.e2e.conftest import Tmux, installed_adjutant, running_sshd

ROOT = Path(__file__).resolve().parents[2]


def test_a_player_logs_in_over_ssh_and_gets_only_adjutant(
    tmux: Tmux, postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    create_campaign(postgres_url, load_scenario("spring1813"), seed=1813).close()
    assert main(["club", "setup", "--db", postgres_url, "--json"]) == 0
    roles = json.loads(capsys.readouterr().out)
    # The login's command, as the README's sshd_config has it (PYTHONPATH: this checkout's code).
    login = ["env", f"PYTHONPATH={ROOT}", f"ADJUTANT_CONFIG_DIR={tmp_path / 'config'}", installed_adjutant()]
    login += ["--db", roles["umpire"]["url"]]  # a player: ["--side", "french", "--db", roles["french"]["url"]]
    with running_sshd(tmp_path / "sshd", force_command=shlex.join(login)) as sshd:
        # Whatever the player asks to run, sshd runs Adjutant instead.
        tmux.start(sshd.command("echo ESCAPED; cat /etc/hostname"))
        shown = tmux.wait_for("Overview", "Turn 1 of 20", "Phase: Weather")
        assert "ESCAPED" not in shown
        tmux.keys("w")
        tmux.wait_for("Weather track", "not rolled yet")
        tmux.keys("r")
        tmux.wait_for("Turn 1, 26 April 1813: ")
        tmux.keys("q")
        assert tmux.wait_until_exit() == 0
        assert "Accepted publickey" in sshd.log.read_text()
    with open_campaign(postgres_url) as store, store.read() as db:
        assert db.scalars(select(Turn.weather).where(Turn.number == 1)).one()  # written through the club's role
    assert main(["club", "revoke", "--db", postgres_url]) == 0  # roles outlive a dropped database

"""A club server end to end: a real PostgreSQL with `adjutant club setup`, a real sshd whose
ForceCommand runs Adjutant on the shared campaign as the club's role, and a login with a
throwaway key in tmux at 80x24.

The player's login (`adjutant --side french --db URL` as the French role) sees the French side
only and queues an order the umpire then finds in the campaign; the umpire's login
(`adjutant --db URL` as the umpires' role) plays the campaign as before.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from sqlalchemy import select

from tui.cli import main
from campaigns.scenario import load_scenario
from models import Turn, open_campaign
from tests.e2e.conftest import Tmux, installed_adjutant, running_sshd
from tests.templates import new_campaign

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = load_scenario("spring1813")


def club(postgres_url: str, capsys: pytest.CaptureFixture[str]) -> dict:
    new_campaign(postgres_url, SCENARIO, seed=1813)  # a copy of one made once per worker
    assert main(["club", "setup", "--db", postgres_url, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def login(tmp_path: Path, *argv: str) -> str:
    """The login's command, as the README's sshd_config has it (PYTHONPATH: this checkout's code)."""
    command = ["env", f"PYTHONPATH={ROOT}", f"ADJUTANT_CONFIG_DIR={tmp_path / 'config'}", "NO_COLOR=1", installed_adjutant()]
    return shlex.join([*command, *argv])


def allied_names() -> set[str]:
    side_of = {nation: side.id for side in SCENARIO.sides for nation in side.nations}
    named = [(u.name, side_of[u.nation]) for u in SCENARIO.units] + [(g.name, side_of[g.nation]) for g in SCENARIO.generals]
    french = {name for name, side in named if side == "french"}
    return {name for name, side in named if side == "allies" and name not in french}  # both field "Dummy"


def test_a_player_logs_in_over_ssh_sees_the_french_side_only_and_queues_an_order(
    tmux: Tmux, postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    roles = club(postgres_url, capsys)
    allied = allied_names()
    assert len(allied) > 20
    with running_sshd(tmp_path / "sshd", force_command=login(tmp_path, "--side", "french", "--db", roles["french"]["url"])) as sshd:
        tmux.start(sshd.command("echo ESCAPED; cat /etc/hostname"))  # whatever is asked, sshd runs Adjutant
        shown = [tmux.wait_for("CLUB: French Empire and allies (orders only)", "Turn 1 of 20", "Russia and Prussia: known only by")]
        assert "ESCAPED" not in shown[0]
        tmux.keys("b")
        shown.append(tmux.wait_for("Order of battle", "Army of the Main (Napoleon)", "Russia and Prussia (0 SP)"))
        tmux.keys("S")
        shown.append(tmux.wait_for("What French Empire and allies has seen, to turn 1: 0 sightings"))
        tmux.keys("O")
        shown.append(tmux.wait_for("Your orders, queued for the umpire as written"))
        tmux.keys("n")
        tmux.wait_for("An order to the umpire")
        for _ in range(4):  # Order, Stack, Place, Spend on: to Text
            tmux.keys("Tab")
        tmux.type("Hold the Saale crossings")
        tmux.keys("Enter")
        shown.append(tmux.wait_for("Order written.", "queued", "Hold the Saale crossings"))
        tmux.keys("q")
        assert tmux.wait_until_exit() == 0
        assert "Accepted publickey" in sshd.log.read_text()
    assert sorted(name for name in allied if any(name in screen for screen in shown)) == []
    assert main(["orders", "list", roles["umpire"]["url"]]) == 0  # the umpire, as the umpires' role
    assert capsys.readouterr().out == "#1 french, turn 1, note: Hold the Saale crossings [queued]\n"
    assert main(["club", "revoke", "--db", postgres_url]) == 0  # roles outlive a dropped database


def test_the_umpire_logs_in_over_ssh_and_gets_only_adjutant(
    tmux: Tmux, postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    roles = club(postgres_url, capsys)
    with running_sshd(tmp_path / "sshd", force_command=login(tmp_path, "--db", roles["umpire"]["url"])) as sshd:
        tmux.start(sshd.command("echo ESCAPED; cat /etc/hostname"))
        shown = tmux.wait_for("Overview", "Turn 1 of 20", "Phase: Weather")
        assert "ESCAPED" not in shown
        tmux.keys("w")
        tmux.wait_for("Weather track", "not rolled yet")
        tmux.keys("r")
        # Rolled: "not rolled yet" gone from the line "Turn 1, 26 April 1813: ..." (on it before the roll too).
        tmux.wait_until(lambda shown: "Turn 1, 26 April 1813: " in shown and "not rolled yet" not in shown, "the weather rolled")
        tmux.keys("q")
        assert tmux.wait_until_exit() == 0
        assert "Accepted publickey" in sshd.log.read_text()
    with open_campaign(postgres_url) as store, store.read() as db:
        assert db.scalars(select(Turn.weather).where(Turn.number == 1)).one()  # written through the club's role
    assert main(["club", "revoke", "--db", postgres_url]) == 0

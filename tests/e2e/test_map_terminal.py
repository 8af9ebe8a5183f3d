"""End to end: the map screen of the installed `adjutant` in tmux at 80x24 without colour.

Both sides' stacks show as side letters and SP; Marmont's stack is activated and
moved from the map; `adjutant log` shows the move with its route and cost; undo
puts the stack back. The same app (a start costs some 1.3 CPU-s) then sets a battle up
with keys in bursts (each burst one `tmux send-keys` call): the stacks marked are fought.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from campaigns import battles, command_points, forces, weather
from campaigns.session import CampaignSession
from models import General, open_campaign
from tui.cli import main
from tests.e2e.conftest import Tmux, installed_adjutant, new_campaign_file

MOVE = "Move Marshal Marmont (VI Corps)'s stack at Gotha to Erfurt by Gotha - Erfurt: 3 MP (Clear)"


def ready_campaign(folder: Path) -> Path:
    path = folder / "spring.campaign"
    new_campaign_file(path, seed=1813)
    session = CampaignSession.open(path)
    try:
        weather.roll(session, [2])  # April +1: 3, Clear
        for army in command_points.turn_points(session):
            command_points.roll(session, army.army, [3])
    finally:
        session.close()
    return path


def cursor_line(screen: str) -> str:
    """The place at the cursor, as the line under the map names it."""
    return next((line.strip() for line in screen.splitlines() if re.match(r"^ \S.* \((town|fortress|crossing)\)", line)), "")


def go_to(tmux: Tmux, place: str, line: str) -> None:
    """The map's cursor moved to `place` with / (the place typed, Enter), then waited for at the
    place: the line under the map starting with `line`, which names the place and its stacks."""
    tmux.keys("/")
    tmux.wait_for("Go to: type the place")
    tmux.type(place)
    tmux.keys("Enter")
    tmux.wait_until(lambda shown: cursor_line(shown).startswith(line), f"the cursor at {line!r}")


def marmont_at(path: Path) -> str:
    with open_campaign(path) as store, store.read() as db:
        return db.get_one(General, "marmont").location


def log_of(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What `adjutant log FILE` prints, run in this process (tui.cli.main, as the installed command
    runs it) while the app in tmux holds the file open: a start of the command costs 1.3 CPU-s."""
    capsys.readouterr()
    assert main(["log", str(path)]) == 0
    return capsys.readouterr().out


def test_a_stack_moved_from_the_map_in_tmux_is_in_the_log_and_undone_then_a_battle_set_up_in_bursts(tmux: Tmux, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = ready_campaign(tmp_path)
    tmux.start(shlex.join(["env", "NO_COLOR=1", f"ADJUTANT_CONFIG_DIR={tmp_path / 'config'}", installed_adjutant(), str(path)]))
    tmux.wait_for("Overview")
    tmux.keys("p")
    # Both sides' stacks, waited for with the title: the map may reach tmux after it.
    tmux.wait_until(
        lambda shown: "Map: turn 1" in shown
        and "Weimar F24" in shown
        and re.search(r"\bA\d+", shown)
        and re.search(r"\bF\d+", shown),
        "the map with both sides' stacks",
    )
    # To Gotha by name (/), not by counting n until the line under the map names it: the pane
    # can show a frame older than the app's cursor (a line drawn late, or in two pieces), and a
    # count read a key late went on past Gotha (a CI run of session 17: Enter opened Halle's
    # stacks). The cursor starts at Weimar, the biggest stack, and moves only for the pick.
    go_to(tmux, "Gotha", "Gotha (town) F13")
    tmux.keys("Enter")
    tmux.wait_for("Stacks at Gotha")
    tmux.type("Activate")
    tmux.keys("Enter")
    tmux.wait_for("Activate Marshal Marmont")
    tmux.keys("Enter")
    tmux.wait_for("Stacks at Gotha")
    tmux.type("Move")
    tmux.keys("Enter")
    tmux.wait_for("Move to: type the place")
    tmux.type("Erfurt")
    tmux.keys("Enter")
    tmux.wait_for("Route: Gotha - Erfurt (Clear)", "Move (y)")
    tmux.keys("y")
    tmux.wait_for(" Erfurt (fortress) F24")
    assert marmont_at(path) == "Erfurt"
    assert MOVE in log_of(path, capsys)
    tmux.keys("u")
    tmux.wait_for("Undone: Move Marshal")
    assert marmont_at(path) == "Gotha"
    log = log_of(path, capsys)
    assert any(MOVE in line and "undone" in line for line in log.splitlines())  # the move stays in the record, marked undone

    a_battle_set_up_in_bursts_is_fought_with_the_stacks_marked(tmux, path)
    tmux.keys("q")
    assert tmux.wait_until_exit() == 0
    session = CampaignSession.open(path)
    try:
        assert battles.load(session, 1).location == "Lützen", "the battle set up in bursts"
    finally:
        session.close()


def a_battle_set_up_in_bursts_is_fought_with_the_stacks_marked(tmux: Tmux, path: Path) -> None:
    """From the Overview: x and n in one burst; the place, then Tab past the two choices to the
    first side's stacks, its first stack marked by one key, the second side's first stack by
    Space on its place row, in one burst; the reason and the save in one more. The battle holds
    the SP of the stacks marked. The stacks as they are now, read while the app holds the file."""
    session = CampaignSession.open(path)
    try:
        french, allies = forces.stacks(session)
    finally:
        session.close()
    tmux.keys("o")
    tmux.wait_until(lambda shown: "Overview" in shown and "Map: turn 1" not in shown, "the Overview")
    tmux.burst("x", "n")
    tmux.wait_for("New battle", "nothing marked")
    tmux.burst("Lützen", "Tab", "Tab", "Tab", "s", "Tab", "Down", "Down", "Space", "Up", "Up", "Space")
    first, second = french.stacks[0], allies.stacks[0]
    sp = lambda stack: sum(f.strength_points for f in stack.forces if not f.dummy)  # noqa: E731
    # Marks in text: NO_COLOR and a capture show them. The form scrolls to the row
    # under the cursor once the burst is drawn, so the marked rows are waited for too.
    tmux.wait_for(
        f"Attacker ({french.name}): {sp(first)} SP", f"Defender ({allies.name}): {sp(second)} SP", "[x]", "[ ]"
    )
    # The two stacks stand at different places: the umpire gives the reason, in the same burst.
    tmux.burst("C-s", "the umpire brings them together", "C-s")
    tmux.wait_for("Battle of Lützen")
    session = CampaignSession.open(path)
    try:
        setup = battles.load(session, 1).setup["sides"]
        assert sum(setup["attacker"]["sp_by_arm"].values()) == sp(first), "the battle set up in bursts: the attacker's SP"
        assert sum(setup["defender"]["sp_by_arm"].values()) == sp(second), "the battle set up in bursts: the defender's SP"
    finally:
        session.close()

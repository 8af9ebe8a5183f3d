"""End to end in tmux at 80x24, keys sent in bursts (one send-keys call each): the
resolution form follows a change of target, a volley is taken back in one step after
the phase moved on, and the battle ends, returns and is applied (issue 24)."""

from __future__ import annotations

from pathlib import Path

from campaigns import battles, oob
from campaigns.session import CampaignSession
from models import Battle, open_campaign
from tests.e2e.conftest import result_shown, Tmux, new_campaign_file
from tests.e2e.test_terminal import app_command


def handed_off(folder: Path) -> Path:
    path = folder / "bursts.campaign"
    new_campaign_file(path, seed=1813)
    session = CampaignSession.open(path)
    try:
        tree = oob.tree(session)
        french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
        allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
        # the weather is not rolled: a tabletop battle is set up all the same
        battles.begin(session, battles.Draft("Lützen", french, allies, override="a test battle between forces placed by hand"), resolver="kallistra_acw")
    finally:
        session.close()
    return path


def burst(tmux: Tmux, *keys: str) -> None:
    tmux.burst(*keys)


def test_a_tabletop_battle_with_keys_in_bursts(tmux: Tmux, tmp_path: Path):
    path = handed_off(tmp_path)
    tmux.start(app_command(path, tmp_path / "config"))
    tmux.wait_for("Overview")
    burst(tmux, "x")
    tmux.wait_for("Lützen", "pending")
    burst(tmux, "Enter")
    tmux.wait_for("Fought on the tabletop")
    burst(tmux, "g")
    tmux.wait_for("▶ movement", "a1", "d4", "j Contact")
    burst(tmux, "n", "n")
    tmux.wait_for("▶ simultaneous fire")

    burst(tmux, "r")
    tmux.wait_for("Small-arms fire", "At       d1", "Needs:")
    # the target changed from the keyboard: Tab to the list and open it, then one down and pick
    burst(tmux, "Tab", "Enter")
    tmux.wait_for("d3 Langeron's divisions #3")
    burst(tmux, "Down", "Enter")
    tmux.wait_for("At       d2", "Needs:")
    burst(tmux, "C-r")
    tmux.wait_for("a1 small arms fire [")

    # n is refused while the hits wait to be read; z takes the volley back in one step
    burst(tmux, "n", "z")
    tmux.wait_for("[taken back]")

    burst(tmux, "d")
    tmux.wait_for("Who held the field?")
    tmux.type("defender")
    burst(tmux, "Enter")
    # the weather was never rolled: the return asks for it, naming the key
    shown = tmux.wait_for("Roll this turn's weather first (w")
    assert "Traceback" not in shown
    burst(tmux, "w")
    tmux.wait_for("Weather track")
    burst(tmux, "r")
    tmux.wait_for("Weather | Rain*")  # the seeded roll
    burst(tmux, "x")
    tmux.wait_for("Lützen", "pending")
    burst(tmux, "Enter")
    tmux.wait_for("On the tabletop under kallistra_acw")
    burst(tmux, "g")
    tmux.wait_for("▶ simultaneous fire")
    burst(tmux, "d")
    tmux.wait_for("Who held the field?")
    tmux.type("defender")
    burst(tmux, "Enter")
    tmux.wait_for("End the battle: the defender held the field")
    burst(tmux, "y")
    shown = tmux.wait_until(result_shown, "the tabletop result and the pursuit or the losses to apply")
    if "Pursuit" in shown:
        burst(tmux, "r")
    tmux.wait_for("a applies this to the campaign")
    burst(tmux, "a")
    tmux.wait_for("Apply the battle")
    burst(tmux, "y")
    tmux.wait_for("done")
    burst(tmux, "q")
    assert tmux.wait_until_exit() == 0

    with open_campaign(path) as store, store.read() as db:
        battle = db.get_one(Battle, 1)
        log = battle.detail["tactical"]["log"]
        fired = [e for e in log if e["action"] == "small_arms_fire"]
        assert len(fired) == 1 and fired[0]["target"].endswith("2") and fired[0]["taken_back"]
        assert battle.status == "done" and battle.detail["tactical"]["ended"]["winner"] == "defender"
        assert battle.detail["setup"]["weather"] is None  # set up before the weather; read from the turn since

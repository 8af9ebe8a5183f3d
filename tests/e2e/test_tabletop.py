"""End to end: a tabletop battle in tmux at 80x24, from the hand-off to the return.

The battle is set up from the campaign (the setup screen is tested under Pilot);
everything after is typed: the forces go on the resolver screen, a unit moves,
the sequence of play advances, a volley is fired with the dice typed in, the
battle ends, and its losses are applied to the campaign.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from campaigns import battles, oob
from campaigns.session import CampaignSession
from models import Battle, DiceRoll, open_campaign
from tests.e2e.conftest import result_shown, Tmux, new_campaign_file
from tests.e2e.test_terminal import app_command

# Forces from all over the map: the umpire overrides contact (campaigns/contact.py).
GATHERED = "forces gathered from the whole map for the test"


def handed_off(folder: Path) -> Path:
    path = folder / "tabletop.campaign"
    new_campaign_file(path, seed=1813, manual_dice=True)
    session = CampaignSession.open(path)
    try:
        tree = oob.tree(session)
        french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
        allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
        draft = battles.Draft("Lützen", french, allies, weather="clear", override=GATHERED)
        battles.begin(session, draft, resolver="kallistra_acw")
    finally:
        session.close()
    return path


def test_a_tabletop_battle_in_tmux(tmux: Tmux, tmp_path: Path):
    path = handed_off(tmp_path)
    tmux.start(app_command(path, tmp_path / "config"))
    tmux.wait_for("Overview")
    tmux.keys("x")
    tmux.wait_for("Lützen", "pending")
    tmux.keys("Enter")
    tmux.wait_for("Fought on the tabletop")
    tmux.keys("g")  # the forces go on the table
    tmux.wait_for("Kallistra's ACW hex rules", "▶ movement", "a1", "d1")

    tmux.keys("r")  # the first unit moves
    tmux.wait_for("Does", "Move", "Nothing is rolled")
    tmux.keys("C-r")
    tmux.wait_for("a1 move: moves up to")

    tmux.keys("n", "n")
    tmux.wait_for("▶ simultaneous fire")
    tmux.keys("r")  # a volley, at 2 hexes
    tmux.wait_for("Small-arms fire", "Hits:")
    tmux.keys("C-r")  # dice rolled on the table: this campaign types them in
    tmux.wait_for("Dice rolled on the table")
    tmux.type("1 2 3")
    tmux.keys("Enter")
    tmux.wait_for("a1 small arms fire [1 2 3]: 0 hits")

    tmux.keys("d")  # the end: the defender held the field
    tmux.wait_for("Who held the field?")
    tmux.type("defender")
    tmux.keys("Enter")
    tmux.wait_for("End the battle: the defender held the field")
    tmux.keys("y")
    shown = tmux.wait_until(result_shown, "the tabletop result and the pursuit or the losses to apply")
    if "Pursuit" in shown:
        tmux.keys("r")
        tmux.wait_for("Dice rolled on the table")
        tmux.type("1")
        tmux.keys("Enter")
    tmux.wait_for("a applies this to the campaign")
    tmux.keys("a")
    tmux.wait_for("Apply the battle")
    tmux.keys("y")
    tmux.wait_for("done")
    tmux.keys("q")
    assert tmux.wait_until_exit() == 0

    with open_campaign(path) as store, store.read() as db:
        battle = db.get_one(Battle, 1)
        assert battle.status == "done" and battle.result.startswith("defender wins")
        log = battle.detail["tactical"]["log"]
        assert [e["action"] for e in log] == ["move", "small_arms_fire"]
        assert log[-1]["raw"] == [1, 2, 3] and log[-1]["mode"] == "entered"
        rolls = list(db.scalars(select(DiceRoll)))
        assert any(list(r.raw) == [1, 2, 3] for r in rolls)

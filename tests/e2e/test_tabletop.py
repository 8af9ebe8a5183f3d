"""End to end: a tabletop battle in tmux at 80x24, from the hand-off to the return.

The battle is set up from the campaign (the setup screen is tested under Pilot);
everything after is typed: the forces go on the resolver screen, a unit moves,
the sequence of play advances, a volley is fired with the dice typed in, the
battle ends, and its losses are applied to the campaign.

The same app (a start costs some 1.3 CPU-s), the campaign's dice typed in, first takes keys
in bursts (each burst one `tmux send-keys` call) through the dice and general forms from the
Overview: what the umpire typed is what was stored, and nothing is undone.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from campaigns import battles, oob
from campaigns.session import CampaignSession
from models import Battle, CommandPointRoll, DiceRoll, Event, General, Turn, open_campaign
from tests.e2e.conftest import result_shown, Tmux, new_campaign_file
from tests.e2e.test_bursts import count, wait_gone
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


def bursts_through_the_dice_and_general_forms(tmux: Tmux, path: Path) -> None:
    """From the Overview of a campaign whose dice are typed in: the weather, a die out of range
    refused, corrected, recorded; then at once the first army's command points, typed in, and a
    general added in the order of battle. Checked in the file once the general's form has closed."""
    events = count(path, Event)
    with open_campaign(path) as store, store.read() as db:
        assert not db.get_one(Turn, 1).weather and list(db.scalars(select(DiceRoll))) == []
    burst = tmux.burst
    burst("w", "r", "7", "Enter", "BSpace", "4", "Enter", "c", "r", "3", "Enter")
    tmux.wait_for("Ledger of")
    burst("b", "/", "kleist", "Enter", "g", "C-a", "C-k", "Gen Bub", "C-s")
    # The general stored: the file counted again each time the pane writes (the form closing, the
    # tree redrawn), not every 100 ms (an open and a count: 13 ms of CPU each).
    tmux.wait_until(lambda _shown: count(path, Event) >= events + 3, "the general stored")
    wait_gone(tmux, "Escape cancels")
    with open_campaign(path) as store, store.read() as db:
        assert db.get_one(Turn, 1).weather, "the bursts: the weather"
        assert [r.raw for r in db.scalars(select(DiceRoll).order_by(DiceRoll.id))] == [[4], [3]], "the bursts: the dice"
        assert len(list(db.scalars(select(CommandPointRoll)))) == 1, "the bursts: the command points"
        under_kleist = [g.name for g in db.scalars(select(General).where(General.superior == "kleist"))]
        assert "Gen Bub" in under_kleist, under_kleist  # what was stored instead, if the keys went astray
    assert count(path, Event) == events + 3, "the bursts: weather, command points, the general; nothing undone"


def test_bursts_through_the_dice_and_general_forms_then_a_tabletop_battle_in_tmux(tmux: Tmux, tmp_path: Path):
    path = handed_off(tmp_path)
    tmux.start(app_command(path, tmp_path / "config"))
    tmux.wait_for("Overview")
    bursts_through_the_dice_and_general_forms(tmux, path)

    # The battle, one key at a time.
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

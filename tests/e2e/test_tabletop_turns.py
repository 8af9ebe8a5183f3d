"""End to end in tmux at 80x24, keys sent in bursts: two full turns of a napoleonic_d10
battle with the dice typed in, a target changed in the resolution form with the card's
modifier following it, only the unit in contact offered for the melee, the end, the
return and the campaign file afterwards (issue 24, item 7)."""

from __future__ import annotations

from pathlib import Path

from campaigns import battles
from campaigns.session import CampaignSession
from models import Battle, Unit, open_campaign
from tests.e2e.conftest import result_shown, Tmux, new_campaign_file
from tests.e2e.test_terminal import app_command

FRENCH = ["xi_fressinet", "i_cavalry_corps", "guard_artillery"]
ALLIES = ["barclay_infantry", "barclay_cavalry", "blucher_artillery"]


def handed_off(folder: Path) -> Path:
    """A d10 battle of campaign forces, set up before the weather; the dice typed in."""
    path = folder / "d10.campaign"
    new_campaign_file(path, seed=1813, manual_dice=True)
    session = CampaignSession.open(path)
    try:
        draft = battles.Draft("Lützen", FRENCH, ALLIES, battles.leaders_at(session, FRENCH),
                              battles.leaders_at(session, ALLIES), override="forces gathered by hand for the test")
        battles.begin(session, draft, resolver="napoleonic_d10")
    finally:
        session.close()
    return path


def burst(tmux: Tmux, *keys: str) -> None:
    tmux.burst(*keys)


def dice(tmux: Tmux, *values: int | list[int]) -> None:
    """ctrl+r, then the dice rolled on the table typed in one burst, once the entry shows: a
    list is one named expression's line (the attacker's dice, then the defender's), Enter after each."""
    burst(tmux, "C-r")
    tmux.wait_for("Dice rolled on the table")
    lines = [v if isinstance(v, list) else [v] for v in values] if any(isinstance(v, list) for v in values) else [list(values)]
    keys: list[str] = []
    for line in lines:
        for n, value in enumerate(line):
            keys += (["Space"] if n else []) + list(str(value))
        keys.append("Enter")
    burst(tmux, *keys)


def test_two_turns_of_napoleonic_d10_in_bursts(tmux: Tmux, tmp_path: Path):
    path = handed_off(tmp_path)
    with open_campaign(path) as store, store.read() as db:
        before = {u: db.get_one(Unit, u).strength_points for u in FRENCH + ALLIES}
    tmux.start(app_command(path, tmp_path / "config"))
    tmux.wait_for("Overview")
    burst(tmux, "x")
    tmux.wait_for("Lützen", "pending")
    burst(tmux, "Enter")
    tmux.wait_for("Fought on the tabletop")
    burst(tmux, "g")
    tmux.wait_for("▶ Initiative", "a1", "d1")

    # turn 1. Initiative: the army commanders roll
    burst(tmux, "r")
    tmux.wait_for("Initiative", "Needs:")
    dice(tmux, [7], [3])
    tmux.wait_for("a1 initiative [the attacker's commander 1d10: 7")
    # Movement: the next phase and the form in one burst
    burst(tmux, "n", "r")
    tmux.wait_for("Roll to move", "Needs:")
    dice(tmux, 5)
    tmux.wait_for("a1 move [5]")
    # Charges: a3 charges; the target changed from d1 to d2 in the form
    burst(tmux, "n", "Home", "Down", "Down", "r")
    tmux.wait_for("Charge", "At       d1")
    burst(tmux, "Tab", "Enter")
    tmux.wait_for("d3 Langeron's")
    burst(tmux, "Down", "Enter")
    tmux.wait_for("At       d2", "Needs:")
    dice(tmux, [5], [5])
    tmux.wait_for("a3 charge [")
    # Fire: a1 at d1, then at d5, the AB guns: the card's "Small Arms at Arty -5" follows
    burst(tmux, "n", "Home", "r")
    tmux.wait_for("Fire", "At       d1", "Needs:")
    burst(tmux, "Tab", "Enter")
    tmux.wait_for("d3 Langeron's")
    burst(tmux, "Down", "Down", "Down", "Down", "Enter")
    tmux.wait_for("At       d5", "Arty -5", "Short 2\" +0")
    dice(tmux, 3)
    tmux.wait_for("a1 fire [3]")
    # Melee: a3 and only d2, the unit its charge reached
    burst(tmux, "n", "Home", "Down", "Down", "r")
    tmux.wait_for("Melee round", "At       d2", "Needs:")
    burst(tmux, "Tab", "Enter")
    # The list open: d2 in it as well as in the closed field above it (shown there already
    # before the list opens, so one "d2" on the screen says nothing of the list).
    listed = tmux.wait_until(lambda shown: "▲" in shown and shown.count("d2 Langeron's") >= 2, "the list of targets open")
    assert "d1 Langeron's" not in listed and "d3 Langeron's" not in listed
    burst(tmux, "Escape")
    # The list closed before the next key: a key that reaches the app within Textual's ESCDELAY
    # (0.1 s) of an Escape is read with it as one key (ctrl+r: the Escape is lost), as from any
    # terminal; sent at once, the ctrl+r below always was, and the list stayed open under the form.
    tmux.wait_until(lambda shown: "▲" not in shown, "the list of targets closed")
    dice(tmux, [5], [5])
    tmux.wait_for("a3 melee [")
    # equal rolls: both check morale before the phase ends; the form offers it first
    burst(tmux, "r")
    tmux.wait_for("Morale check", "Needs:")
    dice(tmux, 9, 9)
    tmux.wait_for("a3 morale [9 9]")
    burst(tmux, "Home", *["Down"] * 12, "r")
    tmux.wait_for("Langeron's divisions #2", "Morale check", "Needs:")
    dice(tmux, 9, 9)
    tmux.wait_for("d2 morale [9 9]")
    burst(tmux, "n", "n")
    tmux.wait_for("Turn 2", "▶ Initiative")

    # turn 2: the initiative, then every phase ticked off in one burst
    burst(tmux, "Home", "r")
    tmux.wait_for("Initiative", "Needs:")
    dice(tmux, [8], [2])
    tmux.wait_for("a1 initiative [the attacker's commander 1d10: 8")
    burst(tmux, "n", "n", "n", "n", "n", "n")
    tmux.wait_for("Turn 3", "▶ Initiative")

    # the end: the weather was never rolled, so the return asks for it first
    burst(tmux, "d")
    tmux.wait_for("Who held the field?")
    tmux.type("defender")
    burst(tmux, "Enter")
    tmux.wait_for("Roll this turn's weather first (w")
    burst(tmux, "w")
    tmux.wait_for("Weather track")
    burst(tmux, "r")
    tmux.wait_for("Dice rolled on the table")
    burst(tmux, "2", "Enter")
    tmux.wait_for("Weather |")
    burst(tmux, "x")
    tmux.wait_for("Lützen", "pending")
    burst(tmux, "Enter")
    tmux.wait_for("On the tabletop under", "g Resolver")
    burst(tmux, "g")
    tmux.wait_for("Turn 3")
    burst(tmux, "d")
    tmux.wait_for("Who held the field?")
    tmux.type("defender")
    burst(tmux, "Enter")
    tmux.wait_for("End the battle: the defender held the field")
    burst(tmux, "y")
    shown = tmux.wait_until(result_shown, "the tabletop result and the pursuit or the losses to apply")
    if "Pursuit" in shown:
        burst(tmux, "r")
        tmux.wait_for("Dice rolled on the table")
        burst(tmux, "1", "Enter")
    tmux.wait_for("a applies this to the campaign")
    burst(tmux, "a")
    tmux.wait_for("Apply the battle")
    burst(tmux, "y")
    tmux.wait_for("done")
    burst(tmux, "q")
    assert tmux.wait_until_exit() == 0

    with open_campaign(path) as store, store.read() as db:
        battle = db.get_one(Battle, 1)
        tactical = battle.detail["tactical"]
        log = [(e["turn"], e["phase"], e["action"], e["actor"], e["target"], e["raw"]) for e in tactical["log"]]
        # the initiative's two rolls (who holds it is the battle's, however it is kept)
        assert [e["raw"] for e in tactical["log"] if e["action"] == "initiative"] == [[7, 3], [8, 2]]
        assert [entry for entry in log if entry[2] != "initiative"] == [
            (1, "movement", "move", "a1", None, [5]),
            (1, "charges", "charge", "a3", "d2", [5, 5]),
            (1, "fire", "fire", "a1", "d5", [3]),
            (1, "melee", "melee", "a3", "d2", [5, 5]),
            (1, "melee", "morale", "a3", None, [9, 9]),
            (1, "melee", "morale", "d2", None, [9, 9]),
        ]
        fired = next(e for e in tactical["log"] if e["action"] == "fire")
        assert "Small Arms at Arty -5" in fired["needed"]
        assert tactical["position"]["turn"] == 3 and tactical["ended"]["winner"] == "defender"
        assert battle.status == "done"
        lost = battle.losses["units"]
        for force, sp in before.items():
            assert db.get_one(Unit, force).strength_points == sp - lost.get(force, 0)

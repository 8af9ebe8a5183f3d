"""Keys sent in bursts, each burst one `tmux send-keys` call, at 80x24: nothing lands
on the wrong screen, forms keep what is typed into them, marks survive.

The file is read afterwards: what the umpire typed is what was stored.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from campaigns import battles, forces, weather
from campaigns.session import CampaignSession
from models import Battle, Event, Unit, open_campaign
from tests.e2e.conftest import Tmux, new_campaign_file
from tests.e2e.test_terminal import app_command


def campaign(folder: Path) -> Path:
    path = folder / "bursts.campaign"
    new_campaign_file(path, seed=1813)
    return path


def burst(tmux: Tmux, *keys: str) -> None:
    """All the keys in one send-keys call: they reach the app as fast as the terminal writes them."""
    tmux.burst(*keys)


def wait_gone(tmux: Tmux, text: str) -> None:
    """Wait until `text` has left the pane: looked for again each time the pane writes (Tmux.wait_until),
    not every 50 ms."""
    tmux.wait_until(lambda shown: text not in shown, f"{text!r} gone from the screen")


def count(path: Path, table) -> int:
    with open_campaign(path) as store, store.read() as db:
        return db.scalar(select(func.count()).select_from(table))


def test_bursts_through_the_unit_forms_the_d10_resolver_and_a_contact_battle(tmux: Tmux, tmp_path: Path):
    """Three bursts in one app (a start costs some 1.3 CPU-s), each checked before the next begins
    and named in its assertions' messages: the unit forms of the order of battle, then the issue's
    a, "Fr bn", ctrl+s, a, "Ru bn", ctrl+s in one send-keys on the d10 resolver (the `u` of "Ru" is
    not undo and its `b` is not the order of battle, in either), then a battle begun from a contact
    place in one send-keys. Set up before the app starts: the weather rolled, the Wagram game, and
    Kleist joining Macdonald at Merseburg."""
    from campaigns import tabletop
    from models import General

    path = campaign(tmp_path)
    session = CampaignSession.open(path)
    try:
        weather.roll(session, [2])
        game = tabletop.new_game(session, "napoleonic_d10", "Wagram")
        with session.store.action("Kleist to Merseburg (set up by hand)") as db:
            db.get_one(General, "kleist").location = "Merseburg"
            for unit in db.scalars(select(Unit).where(Unit.location == "Halle")):
                unit.location = "Merseburg"
    finally:
        session.close()
    units, events = count(path, Unit), count(path, Event)
    tmux.start(app_command(path, tmp_path / "config"))
    tmux.wait_for("Overview")

    # 1. The order of battle's unit forms.
    burst(tmux, "b", "/", "kleist", "Enter")
    tmux.wait_for("General Kleist")
    # A refused save (no name), the name, a save, a second form at once; "u" and "b"
    # in the names are undo and the order of battle beneath the form. Down after the Escape,
    # in the same burst: an Escape is held by the app for Textual's ESCDELAY (0.1 s) in case it
    # begins a sequence, and the x below, were it sent within that time, would be read with it
    # as alt+x (the form left open); a key that begins with Escape itself ends it at once.
    burst(tmux, "a", "C-s", "Fr bn", "C-s", "a", "C-a", "C-k", "Ru bn", "C-s", "e", "C-a", "C-k", "Rub", "Escape", "Down")
    tmux.wait_for("Ru bn")
    wait_gone(tmux, "Escape cancels")  # the last form is closed: every key of the burst handled
    with open_campaign(path) as store, store.read() as db:
        names = set(db.scalars(select(Unit.name).where(Unit.name.in_(["Fr bn", "Ru bn"]))))  # type: ignore[attr-defined]
    assert names == {"Fr bn", "Ru bn"}, "the order of battle's burst"
    assert (count(path, Unit), count(path, Event)) == (units + 2, events + 2), "the order of battle's burst"

    # 2. The d10 resolver's: the game's resolver screen, its unit form twice in one burst.
    burst(tmux, "x")
    tmux.wait_for("Wagram")
    burst(tmux, "Enter")
    tmux.wait_for("Units entered by hand")
    burst(tmux, "g")  # the game's resolver screen
    tmux.wait_for("Initiative")
    burst(tmux, "a", "Fr bn", "C-s", "a", "Ru bn", "C-s")
    tmux.wait_for("Fr bn", "Ru bn")
    wait_gone(tmux, "Escape cancels")
    session = CampaignSession.open(path)
    try:
        names_in_the_game = [u.name for u in tabletop.load(session, game).units.values()]
    finally:
        session.close()
    assert names_in_the_game == ["Fr bn", "Ru bn"], "the d10 resolver's burst"
    assert count(path, Event) == events + 4, "the d10 resolver's burst"
    assert count(path, Unit) == units + 2, "the order of battle's units, and none from the game's"

    # 3. A battle from a contact place: x, n, Enter on the place, both stacks marked with one key
    # each and the battle begun, all in one send-keys call; no reason is asked. The stacks at
    # Merseburg as they are now, read while the app holds the file.
    session = CampaignSession.open(path)
    try:
        there = {side.side: s for side in forces.stacks(session) for s in side.stacks if s.place == "Merseburg"}
    finally:
        session.close()
    tmux.keys("o")
    tmux.wait_until(lambda shown: "Overview" in shown and "Initiative" not in shown, "the Overview")
    burst(tmux, "x", "n", "Enter", "Tab", "Tab", "Tab", "s", "Tab", "s", "C-s")
    tmux.wait_for("Battle of Merseburg")
    tmux.keys("q")
    assert tmux.wait_until_exit() == 0
    sp = lambda stack: sum(f.strength_points for f in stack.forces if not f.dummy)  # noqa: E731
    with open_campaign(path) as store, store.read() as db:
        merseburg = list(db.scalars(select(Battle.id).where(Battle.location == "Merseburg")))  # type: ignore[call-overload]
    assert len(merseburg) == 1, f"the contact battle's burst: battles at Merseburg {merseburg}"
    session = CampaignSession.open(path)
    try:
        fight = battles.load(session, merseburg[0])
        assert "override" not in fight.setup, "the contact battle's burst"
        assert sum(fight.setup["sides"]["attacker"]["sp_by_arm"].values()) == sp(there["french"]), "the contact battle's burst: the attacker's SP"
        assert sum(fight.setup["sides"]["defender"]["sp_by_arm"].values()) == sp(there["allies"]), "the contact battle's burst: the defender's SP"
    finally:
        session.close()

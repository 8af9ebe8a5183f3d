"""Fog of war with real files: what each side's despatch holds, read from the file's bytes;
the dice commitment; orders from a side file back to the umpire's campaign."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from campaigns import command_points, knowledge, movement, orders
from campaigns.errors import CampaignError
from campaigns.player import PlayerSession, ReadOnlySideFile
from campaigns.reconnaissance import reconnoitre_stack
from campaigns.scenario import load_scenario
from campaigns.session import CampaignSession
from models import Turn
from tui.cli import main
from tests.templates import new_campaign

SEED = 1_234_567_891  # distinctive: its digits must not be in a side file


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def new(tmp_path: Path, scenario: str = "spring1813") -> Path:
    path = tmp_path / f"{scenario}.campaign"
    new_campaign(path, scenario, seed=SEED)
    return path


def forces(path: Path) -> list[tuple[str, str, str]]:
    """(id, name, side) of every unit and general, read from the umpire's file."""
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT u.id, u.name, n.side FROM unit u JOIN nation n ON n.id = u.nation "
            "UNION ALL SELECT g.id, g.name, n.side FROM general g JOIN nation n ON n.id = g.nation"
        ).fetchall()


def salt_of(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT dice_salt FROM campaign").fetchone()[0]


def sighted_names(path: Path, side: str) -> set[str]:
    """Every enemy name side `side` has learned, from the umpire's sightings."""
    with sqlite3.connect(path) as db:
        rows = [json.loads(r[0]) for r in db.execute("SELECT learned FROM sighting WHERE side = ?", (side,))]
    return {g for r in rows for g in r.get("generals", [])} | {u["name"] for r in rows for u in r.get("units", [])}


def held(name: str, data: bytes) -> bool:
    """Whether the bytes hold the name as text, or as a JSON column stores it (non-ASCII escaped)."""
    return name.encode() in data or json.dumps(name)[1:-1].encode() in data


WORD = rb"[A-Za-z0-9_]"


def as_a_word(ident: bytes, data: bytes, words: set[bytes]) -> bool:
    """Whether `ident` is in `data` with no letter, digit or underscore either side. An ident of
    such characters only is that exactly when it is one of the runs of them (`words`): one pass
    over the file for every ident, rather than a search of the whole file for each (0.2 CPU-s a
    despatch, most of this file's checks)."""
    if re.fullmatch(WORD + rb"+", ident):
        return ident in words
    return re.search(rb"(?<!" + WORD + rb")" + re.escape(ident) + rb"(?!" + WORD + rb")", data) is not None


def check_despatch(umpire: Path, side_file: Path, side: str) -> None:
    data = side_file.read_bytes()
    words = set(re.findall(WORD + rb"+", data))
    everyone = forces(umpire)
    own = [f for f in everyone if f[2] == side]
    own_names = {name for _id, name, _s in own}
    seen = sighted_names(umpire, side)
    for _id, name, _side in own:
        assert held(name, data), name
    for ident, name, _side in (f for f in everyone if f[2] != side):
        if name in seen:
            assert held(name, data), f"{name} was sighted but is not in the despatch"
            continue
        if not any(name in mine for mine in own_names):  # "Dummy" is every side's name for a dummy
            assert not held(name, data), f"unsighted {name} is in {side}'s despatch"
        # an id as a word of its own: "berg" (General Berg) is also inside "Merseburg"
        assert not as_a_word(ident.encode(), data, words), f"unsighted {ident} is in {side}'s despatch"
    assert str(SEED).encode() not in data
    assert salt_of(umpire).encode() not in data
    with sqlite3.connect(side_file) as db:
        assert db.execute("SELECT fog_side, dice_seed, dice_salt FROM campaign").fetchone() == (side, 0, None)
        kept = db.execute("SELECT place, source, learned FROM sighting ORDER BY id").fetchall()
    with sqlite3.connect(umpire) as db:
        sent = db.execute("SELECT place, source, learned FROM sighting WHERE side = ? ORDER BY id", (side,)).fetchall()
    assert kept == sent  # every sighting, no other


@pytest.mark.parametrize("scenario", ["spring1813", "autumn1813"])
def test_each_sides_despatch_holds_its_own_forces_and_only_what_it_sighted(tmp_path, capsys, scenario):
    umpire = new(tmp_path, scenario)
    session = CampaignSession.open(umpire)
    try:
        for side, enemy in (("french", "allies"), ("allies", "french")):
            places = sorted({s.place for s in knowledge.all_stacks_of(session, enemy)})
            knowledge.report(session, side, places[0], 4, "deserters' account")
            knowledge.report(session, side, places[1], 1)
    finally:
        session.close()
    for side in ("french", "allies"):
        out = tmp_path / f"{side}.campaign"
        code, _out, err = run(capsys, "despatch", umpire, "--side", side, "-o", out)
        assert code == 0, err
        name = {s.id: s.name for s in load_scenario(umpire.stem).sides}[side]  # "French Empire and allies", not "french"
        assert err.startswith(f"Wrote {out}: what {name} knows at turn 1; "), err
        check_despatch(umpire, out, side)
        assert len(sighted_names(umpire, side)) > 1  # the full report named a stack


def test_a_reconnaissance_reveals_what_its_result_says_and_no_more(tmp_path, capsys):
    umpire = new(tmp_path)
    session = CampaignSession.open(umpire)
    try:
        # I Cavalry Corps (3 cavalry SP) at Eisleben against Kleist's infantry at Halle, one road away:
        # column '3 à 4', 1d6 = 6, cohesion 3 - 4 = -1, row 5 -> result 2: the units counted, SP to 5.
        said = reconnoitre_stack(session, "french@Eisleben", "allies@Halle", entered=[6])
        assert "result 2" in said
    finally:
        session.close()
    out = tmp_path / "fr.campaign"
    assert run(capsys, "despatch", umpire, "--side", "french", "-o", out)[0] == 0
    check_despatch(umpire, out, "french")
    with sqlite3.connect(out) as db:
        (learned,) = db.execute("SELECT learned FROM sighting").fetchone()
    assert json.loads(learned) == {
        "strength_points": 5, "estimate": "about 5 SP", "units_counted": 1,
        "reveals": "also how many units it has; its SP rounded to the nearest 5",
    }
    assert b"Kleist" not in out.read_bytes()  # result 2 names no general
    code, text, _err = run(capsys, "knows", umpire, "--side", "french")
    assert "Halle (reconnaissance result 2): about 5 SP; 1 unit" in text
    picture = tmp_path / "french.svg"
    assert run(capsys, "map", umpire, "--side", "french", "-o", picture)[0] == 0
    drawn = picture.read_text()
    assert "A ?5" in drawn and "A 6" not in drawn  # Halle as sighted, no other allied stack


def test_a_sighting_is_undone_with_the_reconnaissance_that_made_it(tmp_path):
    session = CampaignSession.open(new(tmp_path))
    try:
        reconnoitre_stack(session, "french@Eisleben", "allies@Halle", entered=[6])
        assert len(knowledge.known(session, "french").sightings) == 1
        session.store.undo()
        assert knowledge.known(session, "french").sightings == ()
        session.store.redo()
        assert len(knowledge.known(session, "french").sightings) == 1
    finally:
        session.close()


def test_the_printed_despatch_lists_the_sides_forces_and_sightings(tmp_path, capsys):
    umpire = new(tmp_path)
    session = CampaignSession.open(umpire)
    try:
        reconnoitre_stack(session, "french@Eisleben", "allies@Halle", entered=[6])
    finally:
        session.close()
    md, page = tmp_path / "fr.md", tmp_path / "fr.html"
    assert run(capsys, "despatch", umpire, "--side", "french", "--format", "md", "-o", md)[0] == 0
    assert run(capsys, "despatch", umpire, "--side", "french", "--format", "html", "-o", page)[0] == 0
    text = md.read_text()
    assert "| **Marshal Ney (III Corps)** (rank 3, CV 2) | general | | | Weimar |" in text
    assert "- turn 1, Halle (reconnaissance result 2): about 5 SP; 1 unit" in text
    with sqlite3.connect(umpire) as db:
        commitment = db.execute("SELECT dice_commitment FROM campaign").fetchone()[0]
    assert commitment in text and commitment in page.read_text()
    assert "Blücher" not in text and str(SEED) not in text
    assert "<html" in page.read_text().lower()


# -- dice nobody can predict or change -----------------------------------------------


def test_the_revealed_seed_verifies_and_an_altered_die_fails(tmp_path, capsys):
    umpire = new(tmp_path)
    session = CampaignSession.open(umpire)
    try:
        from campaigns import weather

        weather.roll(session)
        command_points.roll(session, "allied_army")
    finally:
        session.close()
    code, out, _ = run(capsys, "dice", "reveal", umpire, "--json")
    revealed = json.loads(out)
    assert code == 0 and revealed == {"seed": SEED, "salt": salt_of(umpire)}
    code, out, err = run(capsys, "dice", "verify", umpire, "--seed", revealed["seed"], "--salt", revealed["salt"])
    assert code == 0, err
    assert "match the campaign's dice commitment" in out and "All 2 rolled dice match" in out
    # the allies' despatch holds the weather roll and their command points: it verifies too
    side = tmp_path / "al.campaign"
    assert run(capsys, "despatch", umpire, "--side", "allies", "-o", side)[0] == 0
    code, out, err = run(capsys, "dice", "verify", side, "--seed", SEED, "--salt", revealed["salt"])
    assert code == 0 and "All 2 rolled dice match" in out, err
    code, _, err = run(capsys, "dice", "verify", side)
    assert code == 2 and "a side file holds no dice seed" in err
    code, _, err = run(capsys, "dice", "verify", umpire, "--seed", SEED + 1, "--salt", revealed["salt"])
    assert code == 2 and "do not match the campaign's dice commitment" in err
    with sqlite3.connect(umpire) as db:  # one die edited behind Adjutant's back
        raw, result = db.execute("SELECT raw, result FROM dice_roll ORDER BY id LIMIT 1").fetchone()
        die = json.loads(raw)[0]
        db.execute("UPDATE dice_roll SET raw = ? WHERE id = (SELECT min(id) FROM dice_roll)", (json.dumps([die % 6 + 1]),))
    code, _, err = run(capsys, "dice", "verify", umpire, "--seed", SEED, "--salt", revealed["salt"])
    assert code == 1 and "does not match a replay" in err


def test_typed_dice_stay_typed_in_a_side_file(tmp_path, capsys):
    umpire = tmp_path / "manual.campaign"
    new_campaign(umpire, "spring1813", seed=SEED, dice_mode="entered")
    session = CampaignSession.open(umpire)
    try:
        from campaigns import weather

        weather.roll(session, [4])
    finally:
        session.close()
    side = tmp_path / "fr.campaign"
    code, _, err = run(capsys, "despatch", umpire, "--side", "french", "-o", side)
    assert code == 0 and "dice commitment " in err
    code, out, err = run(capsys, "dice", "verify", side, "--seed", SEED, "--salt", salt_of(umpire))
    assert code == 0 and "No rolled dice to verify; 1 typed in by the umpire." in out, err


def test_a_campaign_without_a_commitment_says_so(tmp_path, capsys):
    umpire = new(tmp_path)
    with sqlite3.connect(umpire) as db:
        db.execute("UPDATE campaign SET dice_commitment = NULL, dice_salt = NULL")
    code, _, err = run(capsys, "dice", "reveal", umpire)
    assert code == 2 and "made before dice commitments" in err and err.count("\n") == 1


# -- orders ---------------------------------------------------------------------


@pytest.fixture
def turn_ready(tmp_path) -> Path:
    """A spring1813 campaign with turn 1's weather set and command points rolled."""
    umpire = new(tmp_path)
    session = CampaignSession.open(umpire)
    try:
        with session.store.action("The umpire sets the weather: Clear") as db:
            turn = db.get_one(Turn, 1)
            turn.weather, turn.weather_source = "Clear", "set"
        command_points.roll(session, "army_of_the_main", [3])
        command_points.roll(session, "army_of_the_elbe", [3])
        command_points.roll(session, "allied_army", [4])
    finally:
        session.close()
    return umpire


def test_orders_go_from_the_side_file_to_the_umpires_queue_and_a_move_is_applied(turn_ready, tmp_path, capsys):
    side = tmp_path / "fr.campaign"
    assert run(capsys, "despatch", turn_ready, "--side", "french", "-o", side)[0] == 0
    player = CampaignSession.open(side)
    try:
        assert isinstance(player, PlayerSession) and player.side == "french"
        with pytest.raises(ReadOnlySideFile):
            movement.activate(player, "ney")
        with pytest.raises(ReadOnlySideFile):
            player.store.undo()
        said = orders.write(player, "move", "latour_maubourg", "Querfurt")
        assert "MP by" in said
        # a note has no stack: no gap for one (before: "Written: note : Ney...", "Order (note):   Ney...")
        assert orders.write(player, "note", text="Ney to hold the Saale crossings") == "Written: note: Ney to hold the Saale crossings"
        from campaigns.log import log_lines

        assert any(line.endswith("Order (note): Ney to hold the Saale crossings") for line in log_lines(player.store))
        with pytest.raises(CampaignError, match="not yours to order|no general"):
            orders.write(player, "move", "blucher", "Leipzig")
    finally:
        player.close()
    sent = tmp_path / "orders.json"
    assert run(capsys, "orders", side, "-o", sent)[0] == 0
    document = json.loads(sent.read_text())
    assert [o["kind"] for o in document["orders"]] == ["move", "note"]
    code, out, err = run(capsys, "orders", "import", turn_ready, sent)
    assert code == 0 and "Queued 2 orders of French" in out, err
    code, _, err = run(capsys, "orders", "import", turn_ready, sent)
    assert code == 2 and "queued already" in err
    code, out, _ = run(capsys, "orders", "list", turn_ready)
    assert out.count("[queued]") == 2
    assert ", note: Ney to hold the Saale crossings [queued]" in out, out
    session = CampaignSession.open(turn_ready)
    try:
        move, note = orders.listed(session, "french")
        assert "Querfurt" in orders.apply(session, move.id)
        orders.refuse(session, note.id, "no such crossing held")
        from models import General

        with session.store.read() as db:
            assert db.get_one(General, "latour_maubourg").location == "Querfurt"
        assert [o.status for o in orders.listed(session, "french")] == ["applied", "refused"]
    finally:
        session.close()
    # the campaign with its activation, orders and rulings exports and imports whole
    exported = tmp_path / "umpire.json"
    code, out, err = run(capsys, "export", turn_ready)
    assert code == 0, err
    exported.write_text(out)
    assert run(capsys, "import", exported, tmp_path / "again.campaign")[0] == 0
    code, out, _ = run(capsys, "orders", "list", tmp_path / "again.campaign")
    assert "[applied]" in out and "[refused] (no such crossing held)" in out


def test_a_command_points_order_spends_on_one_of_the_cards_actions(turn_ready, tmp_path, capsys):
    """Before: 'xyz' was written and queued, and refused only when the umpire applied it."""
    side = tmp_path / "fr.campaign"
    assert run(capsys, "despatch", turn_ready, "--side", "french", "-o", side)[0] == 0
    player = CampaignSession.open(side)
    try:
        for bad in ("xyz", "", "entrench\x1b[2J"):
            with pytest.raises(CampaignError, match="a command-points order spends them on one of activate_cinc, "
                                                    "activate_general, activate_force, entrench"):
                orders.write(player, "command_points", action=bad)
        assert orders.listed(player) == []
        assert "Written: command points" in orders.write(player, "command_points", action="entrench")
    finally:
        player.close()


def test_an_export_of_one_order_says_one_order(turn_ready, tmp_path, capsys):
    """Before: "Wrote orders.json: 1 orders of french for turn 1."."""
    side = tmp_path / "fr.campaign"
    assert run(capsys, "despatch", turn_ready, "--side", "french", "-o", side)[0] == 0
    player = CampaignSession.open(side)
    try:
        orders.write(player, "note", text="Ney to hold the Saale crossings")
    finally:
        player.close()
    code, _, err = run(capsys, "orders", side, "-o", tmp_path / "orders.json")
    assert code == 0 and err.endswith(": 1 order of french for turn 1.\n"), err


def test_a_despatch_of_a_past_turn_holds_what_the_side_knew_then(tmp_path, capsys):
    from campaigns import turns

    umpire = new(tmp_path)
    session = CampaignSession.open(umpire)
    try:
        knowledge.report(session, "french", "Halle", 1)
        while session.campaign().turn == 1:
            turns.advance(session, anyway=True)
        knowledge.report(session, "french", "Dresden", 4)
    finally:
        session.close()
    then, now = tmp_path / "then.campaign", tmp_path / "now.campaign"
    assert run(capsys, "despatch", umpire, "--side", "french", "--turn", 1, "-o", then)[0] == 0
    assert run(capsys, "despatch", umpire, "--side", "french", "-o", now)[0] == 0
    with sqlite3.connect(then) as db:
        assert db.execute("SELECT place, turn FROM sighting").fetchall() == [("Halle", 1)]
        assert db.execute("SELECT fog_turn FROM campaign").fetchone() == (1,)
    with sqlite3.connect(now) as db:
        assert db.execute("SELECT place, turn FROM sighting ORDER BY id").fetchall() == [("Halle", 1), ("Dresden", 2)]
    assert b"Tsar Alexander" not in then.read_bytes() and b"Tsar Alexander" in now.read_bytes()


def test_stale_foreign_and_hostile_orders_are_refused_in_one_sentence(turn_ready, tmp_path, capsys):
    side = tmp_path / "fr.campaign"
    run(capsys, "despatch", turn_ready, "--side", "french", "-o", side)
    player = CampaignSession.open(side)
    try:
        orders.write(player, "note", text="hold")
    finally:
        player.close()
    sent = tmp_path / "orders.json"
    run(capsys, "orders", side, "-o", sent)
    document = json.loads(sent.read_text())
    before = turn_ready.read_bytes()
    for change, said in (
        ({"turn": 2}, "answer the despatch of turn 2"),
        ({"campaign": "0" * 32}, "another campaign"),
        ({"orders": [{"kind": "burn", "text": "x"}]}, "is not an orders file Adjutant wrote"),
        ({"extra": 1}, "is not an orders file Adjutant wrote"),
    ):
        stale = tmp_path / "stale.json"
        stale.write_text(json.dumps({**document, **change}))
        code, out, err = run(capsys, "orders", "import", turn_ready, stale)
        assert code == 2 and said in err and err.count("\n") == 1 and not out, err
    (tmp_path / "junk.json").write_bytes(b"\x00\xff[[[")
    code, _, err = run(capsys, "orders", "import", turn_ready, tmp_path / "junk.json")
    assert code == 2 and "not JSON" in err
    assert turn_ready.read_bytes() == before

"""Commands whose work must not grow with the history (or with the units beyond what they
write): `dice verify`, `despatch`, `map --turn` and a redo with nothing to redo. Each test
counts what the command reads or builds, not how long it takes: a shape a 1M-event
campaign would show as minutes and gigabytes shows here as a count."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import event

from campaigns import command_points, dice_audit, movement, oob, theatre_map, turns
from campaigns.despatch import write_despatch
from campaigns.session import CampaignSession
from models import DiceRoll, Event, General, Turn, Unit, journal
from tui.cli import main
from tests.templates import new_campaign


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@contextmanager
def objects_of(model: type) -> Iterator[list[object]]:
    """Every ORM object of `model` loaded from a database or built in Python meanwhile."""
    made: list[object] = []

    def seen(target: object, *_args: object) -> None:
        made.append(target)

    event.listen(model, "load", seen)
    event.listen(model, "init", seen)
    try:
        yield made
    finally:
        event.remove(model, "load", seen)
        event.remove(model, "init", seen)


@contextmanager
def statements(session: CampaignSession) -> Iterator[list[str]]:
    said: list[str] = []

    def before(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        said.append(sql)

    event.listen(session.store.engine, "before_cursor_execute", before)
    try:
        yield said
    finally:
        event.remove(session.store.engine, "before_cursor_execute", before)


@pytest.fixture
def rolled(tmp_path: Path) -> Path:
    """spring1813 with seven rolls: the weather and six command point rolls, one of them undone."""
    path = tmp_path / "rolled.campaign"
    new_campaign(path, "spring1813", seed=1813)
    session = CampaignSession.open(path)
    try:
        for _ in range(3):
            session.store.dice().roll("1d6", "weather")
            session.store.dice().roll("2d6", "command points")
        session.undo()
    finally:
        session.close()
    return path


def test_dice_verify_reads_the_rolls_a_batch_at_a_time_and_builds_no_object_per_roll(rolled, capsys, monkeypatch):
    monkeypatch.setattr(dice_audit, "AUDIT_BATCH", 2)
    with sqlite3.connect(rolled) as db:
        stored = db.execute("SELECT count(*) FROM dice_roll").fetchone()[0]
    db.close()
    with objects_of(DiceRoll) as made:
        code, out, err = run(capsys, "dice", "verify", rolled)
    assert (code, out, err) == (0, f"All {stored} rolled dice match the campaign's seed.\n", "")
    assert made == []
    session = CampaignSession.open(rolled)
    try:
        with session.store.connect() as connection:
            sizes = [len(batch) for batch in dice_audit.stored_rolls(connection)]
    finally:
        session.close()
    assert sum(sizes) == stored and max(sizes) == 2  # 2 at a time, however many there are


def test_dice_verify_names_a_tampered_roll_and_counts_the_typed_ones_as_before(rolled, capsys):
    with sqlite3.connect(rolled) as db:
        db.execute("UPDATE dice_roll SET raw = '[6, 6]', result = 12 WHERE id = 2")
        db.execute("UPDATE dice_roll SET mode = 'entered' WHERE id = 3")
    db.close()
    code, out, err = run(capsys, "dice", "verify", rolled)
    assert code == 1 and out == ""
    assert err == "adjutant: dice #2 (command points, stream 1) does not match a replay from the campaign's seed\n"


def test_a_despatch_copies_the_sides_units_without_an_object_each(tmp_path, capsys):
    umpire = tmp_path / "umpire.campaign"
    new_campaign(umpire, "spring1813", seed=1813)
    session = CampaignSession.open(umpire)
    try:
        with objects_of(Unit) as made:
            write_despatch(session, "allies", tmp_path / "allies.campaign")
    finally:
        session.close()
    assert made == []
    query = "SELECT u.* FROM unit u JOIN nation n ON u.nation = n.id WHERE n.side = 'allies' ORDER BY u.id"
    with sqlite3.connect(umpire) as source, sqlite3.connect(tmp_path / "allies.campaign") as side_file:
        theirs = source.execute(query).fetchall()
        copied = side_file.execute("SELECT * FROM unit ORDER BY id").fetchall()
    source.close()
    side_file.close()
    assert copied == theirs and len(copied) > 10


def _played(path: Path, actions_on_turn_1: int) -> None:
    """Marmont moves to Erfurt on turn 1 after `actions_on_turn_1` marks, then the turn ends;
    on turn 2 he moves back to Gotha, then turn 2 ends."""
    new_campaign(path, "spring1813", seed=1813)
    s = CampaignSession.open(path)
    try:
        with s.store.action("The umpire sets the weather: Clear") as db:
            turn = db.get_one(Turn, 1)
            turn.weather, turn.weather_source = "Clear", "set"
        with s.store.connect() as db:
            unit = db.exec_driver_sql("SELECT id FROM unit WHERE kind != 'dummy' ORDER BY id LIMIT 1").scalar_one()
        for n in range(actions_on_turn_1):
            oob.set_unit_flags(s, unit, fatigued=n % 2 == 0)
        command_points.roll(s, "army_of_the_main", [3])
        movement.activate(s, "marmont")
        movement.move(s, "marmont", "Erfurt")
        while s.campaign().turn == 1:
            turns.advance(s, anyway=True)
        with s.store.action("Marmont back to Gotha on turn 2") as db:
            db.get_one(General, "marmont").location = "Gotha"
        while s.campaign().turn == 2:
            turns.advance(s, anyway=True)
    finally:
        s.close()


def test_the_map_of_a_past_turn_reads_only_the_history_since_that_turn_ended(tmp_path, monkeypatch):
    monkeypatch.setattr(theatre_map, "HISTORY_BATCH", 2)
    read = {}
    for actions in (4, 40):
        path = tmp_path / f"{actions}.campaign"
        _played(path, actions)
        s = CampaignSession.open(path)
        try:
            with statements(s) as said, objects_of(Event) as made:
                where = theatre_map.positions_at_end_of(s, 2)
                then = theatre_map.positions_at_end_of(s, 1)
            read[actions] = [sql for sql in said if "FROM event" in sql]
            assert made == []  # the stored text, not an object an event
        finally:
            s.close()
        assert where is not None and where[("general", "marmont")] == "Gotha"
        assert then is not None and then[("general", "marmont")] == "Erfurt"
    # Turn 1's own actions are never read (2 a query): ten times as many cost no more queries.
    assert len(read[4]) == len(read[40]) > 0


def test_the_map_of_a_past_turn_is_the_same_svg_when_the_history_is_read_in_batches(tmp_path, capsys, monkeypatch):
    path = tmp_path / "played.campaign"
    _played(path, 3)
    assert run(capsys, "map", path, "--turn", "1", "-o", tmp_path / "whole.svg")[0] == 0
    monkeypatch.setattr(theatre_map, "HISTORY_BATCH", 1)
    assert run(capsys, "map", path, "--turn", "1", "-o", tmp_path / "batched.svg")[0] == 0
    assert (tmp_path / "whole.svg").read_bytes() == (tmp_path / "batched.svg").read_bytes()
    assert ">Erfurt</text>" in (tmp_path / "whole.svg").read_text(encoding="utf-8")


def test_redo_with_nothing_to_redo_asks_the_index_not_every_event(tmp_path):
    path = tmp_path / "c.campaign"
    new_campaign(path, "spring1813", seed=1813)
    with sqlite3.connect(path) as db:
        plan = " ".join(row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + str(journal.ANY_UNDONE), {"yes": 1}))
    db.close()
    assert "USING INDEX ix_event_undone" in plan  # not SCAN event: a million events cost one index lookup


def test_a_sighting_reads_the_units_at_a_place_as_plain_rows(tmp_path):
    from campaigns import knowledge

    path = tmp_path / "c.campaign"
    new_campaign(path, "spring1813", seed=1813)
    s = CampaignSession.open(path)
    try:
        place = sorted({st.place for st in knowledge.all_stacks_of(s, "french")})[0]
        with objects_of(Unit) as made:
            said = knowledge.report(s, "allies", place, 4, "a deserter")
        with s.store.read() as db:
            generals, units = knowledge.stack_seen(db, "french", place)
    finally:
        s.close()
    assert made == [] and units and said
    with sqlite3.connect(path) as db:
        expected = db.execute(
            "SELECT u.name, u.kind, u.strength_points FROM unit u JOIN nation n ON u.nation = n.id "
            "WHERE u.location = ? AND n.side = 'french' ORDER BY u.id", (place,)
        ).fetchall()
    db.close()
    assert units == expected


def test_the_map_of_a_past_turn_counts_the_units_without_an_object_each(tmp_path):
    path = tmp_path / "played.campaign"
    _played(path, 3)
    s = CampaignSession.open(path)
    try:
        with objects_of(Unit) as made:
            then = theatre_map.map_data(s, 1)
        now = theatre_map.map_data(s)
    finally:
        s.close()
    assert made == []
    # Every unit is on the map then as now, counted where it stood: the same SP in all.
    assert sum(st.strength_points for p in then.places for st in p.stacks) == sum(st.strength_points for p in now.places for st in p.stacks) > 0
    assert any(g.id == "marmont" for st in then.at("Erfurt").stacks for g in st.generals)


def test_the_printed_despatch_lists_every_unit_without_an_object_each(tmp_path):
    from html import escape

    from campaigns import despatch_report
    from campaigns.despatch import despatch_session

    umpire = tmp_path / "umpire.campaign"
    new_campaign(umpire, "spring1813", seed=1813)
    session = CampaignSession.open(umpire)
    try:
        with objects_of(Unit) as made, despatch_session(session, "allies") as side_file:
            letter = despatch_report.markdown(side_file)
            page = despatch_report.html(side_file)
    finally:
        session.close()
    assert made == []
    with sqlite3.connect(umpire) as db:
        names = [row[0] for row in db.execute(
            "SELECT u.name FROM unit u JOIN nation n ON u.nation = n.id WHERE n.side = 'allies'"
        )]
    db.close()
    assert names and all(f"| {name} |" in letter or f"- {name}:" in letter for name in names)
    assert all(f"<td>{escape(name)}</td>" in page or f"<li>{escape(name)}:" in page for name in names)

"""The campaign as of a past turn, rebuilt into a copy; bookmarks and notes on the history."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from sqlalchemy import select

from campaigns import notes, oob, past, weather
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from campaigns.story import story
from models import Event, General, Unit
from tests.played import ney_location, play
from tui.cli import main
from tests.templates import new_campaign


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def ten_turns(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(tmp_path_factory.mktemp("past") / "ten.campaign", 10)


@pytest.fixture
def campaign(ten_turns: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(ten_turns, tmp_path / "ten.campaign"))


def test_turn_5_shows_its_weather_positions_and_sp_and_the_file_is_unchanged(campaign):
    before = sha256(campaign)
    session = CampaignSession.open(campaign)
    try:
        now = weather.track(session)
        sp_by_turn = story(session).sp  # walked back from today's SP, independently of the rewind
        view = past.open_past(session, past.moment(session, turn=5))
        try:
            then = weather.track(view)
            assert [(t.number, t.weather) for t in then[:5]] == [(t.number, t.weather) for t in now[:5]]
            assert all(t.weather is None for t in then[5:])
            assert next(t for t in then if t.current).number == 5
            with view.store.read() as db:
                assert db.get_one(General, "ney").location == ney_location(5) == "Leipzig"
            assert {s.id: s.strength_points for s in view.overview().sides} == {s: sp[4] for s, sp in sp_by_turn.items()}
            with view.store.read() as db:
                unit = db.scalars(select(Unit)).first()
            with pytest.raises(past.ReadOnly, match="as of the end of turn 5, read-only"):
                oob.set_unit_flags(view, unit.id, fatigued=True)
            with pytest.raises(past.ReadOnly):
                view.undo()
            folder = view.folder
        finally:
            view.close()
        assert not folder.exists()
        assert session.campaign().turn == 11
    finally:
        session.close()
    assert sha256(campaign) == before


def test_just_before_an_event(campaign):
    session = CampaignSession.open(campaign)
    try:
        events = [e for e in _events(session) if e.description == "Weather for turn 4"]
        view = past.open_past(session, past.moment(session, event=events[0].id))
        try:
            assert view.status_line().startswith(f"AS OF JUST BEFORE EVENT #{events[0].id} (read-only) | ")
            assert weather.now(view).turn == 4 and weather.now(view).weather is None
            assert max(e.id for e in _events(view)) < events[0].id  # the events after are forgotten in the copy
        finally:
            view.close()
    finally:
        session.close()


def _events(session):
    with session.store.read() as db:
        return list(db.scalars(select(Event).order_by(Event.id)))


@pytest.mark.parametrize("typed, message", [
    ("12", "turn 12 has not been played"),
    ("0", "'0' is too small for a turn number (at least 1)"),
    ("3000000000", "'3000000000' is too large for a turn number (at most 10000)"),
    ("9" * 5000, "is too large for a turn number (at most 10000)"),
    ("#99999", "there is no event #99999"),
    ("#3000000000", "'3000000000' is too large for an event number (at most 2147483647)"),  # PostgreSQL's integer
    ("#" + "9" * 40, "is too large for an event number (at most 2147483647)"),
    ("²", "type a turn number (5) or an event (#120), not '²'"),  # a digit to str.isdigit, not to int()
    ("#1", "the campaign's creation"),
    ("turn five", "type a turn number (5) or an event (#120), not 'turn five'"),
    ("\x1b[2J", "not '[2J'"),
])
def test_what_cannot_be_shown_is_said_in_one_sentence(campaign, typed, message):
    session = CampaignSession.open(campaign)
    try:
        with pytest.raises(CampaignError, match=re.escape(message)):
            past.moment(session, **past.parse_when(typed))
        with pytest.raises(CampaignError, match=re.escape(message)):  # the app's form, as a person types
            past.check_moment(session, **past.parse_when(typed))
    finally:
        session.close()


@pytest.mark.parametrize("typed", ["5", "#40"])
def test_the_forms_check_reads_rows_by_their_keys_and_never_the_whole_history(campaign, typed):
    """The app asks `check_moment` on its UI thread: at a million events, looking for the end of a
    turn through the history took most of a second there. `moment`, in the worker, looks."""
    from sqlalchemy import event

    session = CampaignSession.open(campaign)
    said: list[str] = []

    def heard(_connection, _cursor, statement, *_args) -> None:
        said.append(statement)

    event.listen(session.store.engine, "before_cursor_execute", heard)
    try:
        past.check_moment(session, **past.parse_when(typed))
        assert said and not any("LIKE" in statement.upper() for statement in said), said
        assert all(statement == "BEGIN" or re.search(r"WHERE \S+\.id = \?$", statement.strip()) for statement in said), said
        said.clear()
        past.moment(session, **past.parse_when(typed))
        assert any("LIKE" in statement.upper() for statement in said) == (typed == "5")
    finally:
        event.remove(session.store.engine, "before_cursor_execute", heard)
        session.close()


def test_bookmarks_and_notes_are_actions_that_undo(campaign):
    session = CampaignSession.open(campaign)
    try:
        battle = next(e for e in _events(session) if e.description.startswith("Battle of Lützen begins"))
        assert notes.toggle_bookmark(session, battle.id).startswith(f"Bookmarked #{battle.id}: Battle of Lützen begins")
        notes.add_note(session, battle.id, "  Ney arrives late; the umpire allowed the flank march.  ")
        assert [(m.kind, m.text) for m in notes.marked(session)] == [
            ("bookmark", ""), ("note", "Ney arrives late; the umpire allowed the flank march."),
        ]
        session.undo()  # the note
        assert [m.kind for m in notes.marked(session)] == ["bookmark"]
        notes.toggle_bookmark(session, battle.id)
        assert notes.marked(session) == []
        session.undo()
        assert [m.kind for m in notes.marked(session)] == ["bookmark"]
        with pytest.raises(CampaignError, match="needs some text"):
            notes.add_note(session, battle.id, "   ")
        with pytest.raises(CampaignError, match="there is no event #424242"):
            notes.toggle_bookmark(session, 424242)
    finally:
        session.close()


def test_the_command_line_shows_and_saves_the_past(campaign, capsys, tmp_path):
    before = sha256(campaign)
    assert main(["past", str(campaign), "--turn", "5"]) == 0
    out = capsys.readouterr().out
    assert "As of the end of turn 5: 04 May 1813, weather Mud; turn 5, phase End of turn." in out  # the phase's name, not its id
    assert "Marshal Ney (III Corps): Leipzig" in out
    saved = tmp_path / "turn5.campaign"
    assert main(["past", str(campaign), "--turn", "5", "--save", str(saved)]) == 0
    capsys.readouterr()
    copy = CampaignSession.open(saved)
    try:
        assert copy.campaign().turn == 5
    finally:
        copy.close()
    assert main(["past", str(campaign), "--turn", "50"]) == 2
    assert capsys.readouterr().err == "adjutant: turn 50 has not been played: the campaign is at turn 11\n"
    assert main(["past", str(campaign)]) == 2
    capsys.readouterr()
    assert main(["past", str(campaign), "--turn", "5", "--save", str(campaign)]) == 2
    assert capsys.readouterr().err == f"adjutant: {campaign} already exists; save the past under a new name\n"
    assert sha256(campaign) == before


def test_a_shared_campaign_on_postgresql_is_only_read(postgres_url):
    """The club's campaign in PostgreSQL: the past is an exported copy in a temporary file."""
    play(postgres_url, 3)
    session = CampaignSession.open(postgres_url)
    try:
        version, events = session.version(), len(_events(session))
        view = past.open_past(session, past.moment(session, turn=2))
        try:
            assert view.store.is_sqlite and weather.now(view).turn == 2
            with view.store.read() as db:
                assert db.get_one(General, "ney").location == ney_location(2)
        finally:
            view.close()
        assert (session.version(), len(_events(session)), session.campaign().turn) == (version, events, 4)
    finally:
        session.close()


def test_before_an_undone_action_and_before_its_undo_and_redo(tmp_path: Path) -> None:
    """An undo or a redo in the span rewound is itself taken back: found by the hostile numbers'
    corpus (`past --event 6` on a campaign whose last step undid #6 ended in a KeyError)."""
    from campaigns.scenario import load_scenario

    path = tmp_path / "undo.campaign"
    new_campaign(path, load_scenario("spring1813"), seed=7)
    session = CampaignSession.open(path)
    try:
        with session.store.action("Ney marches to Lützen") as db:
            db.get_one(Unit, "old_guard").location = "Lützen"
        session.store.undo()
        session.store.redo()
        session.store.undo()
        with session.store.read() as db:
            events = list(db.scalars(select(Event).order_by(Event.id)))
    finally:
        session.close()
    assert [e.kind for e in events[-4:]] == ["action", "undo", "redo", "undo"]
    before = sha256(path)

    def where(event: Event) -> str:
        session = CampaignSession.open(path)
        try:
            view = past.open_past(session, past.moment(session, event=event.id))
            try:
                with view.store.read() as db:
                    return db.get_one(Unit, "old_guard").location
            finally:
                view.close()
        finally:
            session.close()

    # just before: the march; its undo (marched); the redo (not); the second undo (marched again)
    assert [where(e) for e in events[-4:]] == ["Erfurt", "Lützen", "Erfurt", "Lützen"]
    assert sha256(path) == before

"""The history screen's reading: newest first, filtered in the database."""

from sqlalchemy import select
from sqlmodel import col

from campaigns import history, oob, weather
from campaigns.session import CampaignSession
from tests.templates import new_campaign


def test_filter_finds_old_changes_and_rolls(tmp_path):
    session = CampaignSession.open(new_campaign(tmp_path / "h.campaign", "spring1813", seed=3))
    weather.roll(session, [4])
    unit = oob.side_units(oob.tree(session)[0])[1]
    for n in range(history.LIMIT + 5):  # more recent actions than one screenful
        oob.set_unit_flags(session, unit.id, fatigued=n % 2 == 0)
    everything = history.entries(session)
    assert len([e for e in everything if e.ref.startswith("#")]) == history.LIMIT
    assert not any("Weather" in e.text for e in everything)  # the oldest have scrolled away
    found = history.entries(session, "weather")
    texts = [e.text for e in found]
    assert texts[0] == "Weather for turn 1"
    assert "  turn 1: weather (none) -> Rain; weather from (none) -> rolled; dice (none) -> #1" in texts
    assert any(t.startswith("  dice #1: weather 1d6 = 4") for t in texts)
    assert [e.ref for e in history.entries(session, "weather", dice_only=True)] == ["d1"]
    session.close()


def test_an_undone_edit_stays_with_its_changes_and_marks_by_name(tmp_path):
    session = CampaignSession.open(new_campaign(tmp_path / "h.campaign", "spring1813", seed=3))
    unit = oob.side_units(oob.tree(session)[0])[1]
    general = next(g for g in oob.tree(session)[0].armies[0].generals if g.general.id != unit.general).general
    note = "x" * 180  # a long marching note, within the 200 characters a location may have
    values = {"name": unit.name, "kind": unit.kind, "location": f"{unit.location} ({note})", "strength_points": str(unit.strength_points),
              "cohesion": str(unit.cohesion), "artillery_bonus": str(unit.artillery_bonus),
              "cavalry_bonus": str(unit.cavalry_bonus)}
    oob.edit_unit(session, unit.id, values)
    session.undo()
    session.redo()
    session.undo()
    oob.move_unit(session, unit.id, general.id)  # a new action: the edit can no longer be redone
    texts = [e.text for e in history.entries(session)]
    edit = texts.index(f"Edit unit {unit.name} [undone #3, redone #4, undone #5]")
    assert any(t.startswith(f"  unit {unit.name}: ") and t.endswith(f"-> {'x' * 59}…") for t in texts[edit + 1 : edit + 3])
    assert texts[0] == f"Attach {unit.name} to {general.name}"
    assert texts[1].startswith(f"  unit {unit.name}: general ") and f"-> {general.name}" in texts[1]
    assert f"Undo of #2: Edit unit {unit.name}" in texts
    session.close()


def test_the_log_keeps_an_undone_roll_with_its_marks_on_sqlite_and_postgresql(campaign_target):
    from campaigns.log import log_lines

    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    try:
        weather.roll(session)
        session.undo()
        session.redo()
        lines = list(log_lines(session.store))
    finally:
        session.close()
    weather_line = next(i for i, line in enumerate(lines) if "Weather for turn 1" in line)
    assert lines[weather_line].endswith("[undone #3, redone #4]")
    assert any(line.strip().startswith("turn 1: weather (none) -> ") for line in lines[weather_line:])
    assert lines[-2].split()[3:5] == ["undo", "#2"] and lines[-1].split()[3:5] == ["redo", "#2"]


def test_the_marks_read_once_follow_each_undo_and_redo(tmp_path):
    # The marks are kept between reads (a scan of every event): an undo or a redo shows at once.
    session = CampaignSession.open(new_campaign(tmp_path / "m.campaign", "spring1813", seed=3))
    unit = oob.side_units(oob.tree(session)[0])[1]
    oob.set_unit_flags(session, unit.id, fatigued=True)
    assert not any("[undone" in e.text for e in history.entries(session))  # read, and kept
    session.undo()
    texts = [e.text for e in history.entries(session)]
    assert any(t.endswith("[undone #3]") for t in texts), texts
    session.redo()
    texts = [e.text for e in history.entries(session)]
    assert any(t.endswith("[undone #3, redone #4]") for t in texts), texts
    session.close()


def test_names_read_a_table_at_a_time_are_the_names_read_one_by_one(campaign_target):
    """The history names the rows a page changed with one query a table (kept for the
    campaign's version): the lines are those of the log's one-by-one reading, a row
    renamed, moved under another general and removed included; on SQLite and PostgreSQL."""
    from campaigns.changes import Names, change_lines, load
    from models import Event

    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    try:
        units = oob.side_units(oob.tree(session)[0])
        unit, gone = units[1], units[2]
        general = next(g for g in oob.tree(session)[0].armies[0].generals if g.general.id != unit.general).general
        oob.move_unit(session, unit.id, general.id)
        oob.edit_unit(session, unit.id, {"name": "Renamed brigade", "kind": unit.kind, "location": unit.location,
                                         "strength_points": str(unit.strength_points), "cohesion": str(unit.cohesion),
                                         "artillery_bonus": str(unit.artillery_bonus), "cavalry_bonus": str(unit.cavalry_bonus)})
        oob.remove_unit(session, gone.id)
        history.entries(session)  # the names kept at this version
        shown = [e.text for e in history.entries(session) if e.ref == ""]
        with session.store.read() as db:
            events = list(db.scalars(select(Event).order_by(col(Event.id).desc()).limit(history.LIMIT)))
        with session.store.connect() as db:
            names = Names(db)
            expected = [
                "  " + line for e in events if e.kind not in ("undo", "redo")
                for line in change_lines(load(e.changes), names, width=history.WIDTH)
            ]
    finally:
        session.close()
    assert shown == expected
    assert any(f"-> {general.name}" in line for line in shown)  # a general named through the batch
    assert any(line.startswith(f"  unit {gone.name} removed") for line in shown)


def test_a_page_reads_the_marks_of_its_own_events_and_older_pages_add_theirs(tmp_path):
    """The marks of the actions from event N on are read from the undo and redo events
    after N only (a range of the key, not the whole history); reading further back puts
    the older marks first: the same marks, in the same order, as one read of them all."""
    from campaigns import replays

    session = CampaignSession.open(new_campaign(tmp_path / "r.campaign", "spring1813", seed=3))
    unit = oob.side_units(oob.tree(session)[0])[1]
    for n in range(4):
        oob.set_unit_flags(session, unit.id, fatigued=n % 2 == 0)
    session.undo()
    session.undo()
    session.redo()  # the last action undone; the one before undone, then redone
    try:
        with session.store.connect() as db:
            everything = replays.replay_marks(db)
            (last, [last_undone]), (before, [undone, redone]) = sorted(everything.items(), reverse=True)
            assert (undone.split()[0], redone.split()[0], last_undone.split()[0]) == ("undone", "redone", "undone")
            split = int(undone.split("#")[1])  # the undo of `before`: read after it, only its redo is found
            page = replays.kept_marks(session, db, session.version(), after=split)
            assert page == {before: [redone]}
            assert replays.kept_marks(session, db, session.version(), after=before) == everything
            assert replays.kept_marks(session, db, session.version(), after=last) == everything  # kept
        texts = [e.text for e in history.entries(session)]
        assert any(t.endswith(f"[{undone}, {redone}]") for t in texts), texts
    finally:
        session.close()


def test_the_plain_reading_shows_what_the_stored_rows_hold_on_sqlite_and_postgresql(campaign_target):
    """The history reads its pages with plain SQL, not the SQLModel classes: each event's
    time, kind, undone flag and dice read as those classes read them, on both databases."""
    from campaigns.log import dice_line
    from models import DiceRoll, Event

    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    try:
        weather.roll(session, [4])
        session.undo()
        session.redo()
        shown = history.entries(session)
        dice = history.entries(session, dice_only=True)
        with session.store.read() as db:
            events = list(db.scalars(select(Event).order_by(col(Event.id).desc())))
            rolls = list(db.scalars(select(DiceRoll).order_by(col(DiceRoll.id).desc())))
        session.undo()
        undone = [e.text for e in history.entries(session)]
    finally:
        session.close()
    heads = [e for e in shown if e.ref.startswith("#")]
    assert [e.ref for e in heads] == [f"#{e.id}" for e in events] == ["#4", "#3", "#2", "#1"]
    assert [e.when for e in heads] == [history._when(e.when) for e in events]
    assert [e.text for e in heads[:2]] == ["Redo of #2: Weather for turn 1", "Undo of #2: Weather for turn 1"]
    assert heads[2].text == "Weather for turn 1 [undone #3, redone #4]"
    assert [(e.ref, e.when, e.text) for e in dice] == [(f"d{r.id}", history._when(r.when), dice_line(r)) for r in rolls]
    assert len(rolls) == 1 and ("  d1", history._when(rolls[0].when), "  " + dice_line(rolls[0])) in [(e.ref, e.when, e.text) for e in shown]
    assert "Weather for turn 1 [undone #3, redone #4, undone #5]" in undone
    assert "  " + dice_line(rolls[0], undone=True) in undone  # its roll taken back, kept in the event's record


def test_a_longer_word_is_looked_for_among_the_rows_the_shorter_found_until_the_campaign_changes(campaign_target):
    """The filter reads what a word matched once when the next letter is typed (a word that
    matched nothing is not looked for again): the lines are those a fresh search finds."""
    from models import Unit

    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    unit = oob.side_units(oob.tree(session)[0])[0]

    def act(description: str) -> None:
        with session.store.action(description) as db:
            db.get_one(Unit, unit.id).location = description[:60]

    def heads(word: str) -> list[str]:
        return [e.text for e in history.entries(session, word) if e.ref.startswith("#")]

    def fresh(word: str) -> list[str]:
        history._WHOLE.pop(session, None)  # what was kept of the words before
        return heads(word)

    try:
        for description in ("Rain at Zwickau", "Snow at Zwenkau", "Rain at Zwickau bridge"):
            act(description)
        typed = ["Z", "Zw", "Zwi", "Zwic", "Zwickau b", "Zwe", "Zwenkau", "Zwickau", "xq", "xqz", "xqzw"]
        answers = [heads(word) for word in typed]
        assert answers[2] == answers[3] == answers[7] == ["Rain at Zwickau bridge", "Rain at Zwickau"]
        assert answers[4] == ["Rain at Zwickau bridge"]
        assert answers[5] == answers[6] == ["Snow at Zwenkau"]
        assert answers[8:] == [[], [], []]
        assert answers == [fresh(word) for word in typed]
        act("Fog at xqzw")  # the campaign changed: a word that matched nothing may match now
        assert heads("xqz") == heads("xqzw") == fresh("xqzw") == ["Fog at xqzw"]
        assert heads("xq") == ["Fog at xqzw"]
    finally:
        session.close()

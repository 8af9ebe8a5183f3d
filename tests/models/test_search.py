"""The history's search index: substrings found through it, kept in step with every
change in the same transaction, and built for files made before it existed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlalchemy import text

from campaigns import history, oob
from campaigns.session import CampaignSession
from models import DiceRoll, Unit, open_campaign
from models.clock import utcnow
from models.search import rebuild, SHORT_WINDOW, matching_ids, needle_kind, search_mode
from tests.templates import new_campaign

OLD_FILE = Path(__file__).parents[1] / "fixtures" / "spring1813-schema1.campaign"


def found(store, needle: str, table: str = "event", among: list[int] | None = None) -> list[int]:
    with store.connect() as connection:
        return matching_ids(connection, table, needle, 50, among=among)


def test_a_word_is_found_through_the_index_anywhere_in_the_text_ignoring_case(campaign_target: str) -> None:
    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    store = session.store
    with store.connect() as connection:
        assert search_mode(connection) == ("fts5" if store.is_sqlite else "trigram")
    unit = oob.side_units(oob.tree(session)[0])[0]
    with store.action("Ney marches his corps to Dresden") as db:
        db.get_one(Unit, unit.id).location = "Dresden"
    newest = found(store, "marches")[0]
    assert found(store, "ARCHES HIS") == [newest]  # the middle of a word, across words, any case
    assert found(store, "resd") == [newest]
    assert found(store, "Dresdenx") == []
    assert found(store, '50% "quoted"') == []  # the umpire's own quotes and wildcards are plain letters
    # One or two letters: the newest rows only, still substrings.
    assert newest in found(store, "ey")
    session.close()


def test_the_index_changes_in_the_transaction_of_the_action_and_with_undo(campaign_target: str) -> None:
    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    store = session.store
    unit = oob.side_units(oob.tree(session)[0])[0]
    with store.action("Blücher crosses the Elbe") as db:
        db.get_one(Unit, unit.id).location = "Elbe"
        db.add(DiceRoll(event=store.current_event, purpose="river crossing", dice="1d6", raw=[5], result=5,
                        mode="rolled", when=utcnow()))
        db.flush()
        # Inside the action, before it commits, its event and roll are already found.
        assert matching_ids(db.connection(), "event", "crosses the", 5) == [store.current_event]
        assert len(matching_ids(db.connection(), "dice_roll", "RIVER cross", 5)) == 1
        event_id = store.current_event
    assert found(store, "crosses the") == [event_id]

    with pytest.raises(RuntimeError), store.action("Oudinot marches on Berlin") as db:
        db.get_one(Unit, unit.id).location = "Berlin"
        raise RuntimeError("changed his mind")
    assert found(store, "on Berlin") == []  # rolled back with the action

    store.undo()  # the roll the action inserted is deleted, and leaves the index
    assert found(store, "river cross", "dice_roll") == []
    # The action stays, marked undone, and the undo is an event of its own with its description.
    undo_event = found(store, "crosses the")[0]
    assert found(store, "crosses the") == [undo_event, event_id] and undo_event > event_id
    with store.action("Davout holds Hamburg") as db:  # a new action deletes nothing from the record
        db.get_one(Unit, unit.id).location = "Hamburg"
    assert found(store, "crosses the") == [undo_event, event_id]
    assert [e.text for e in history.entries(session, "holds hamb")][0] == "Davout holds Hamburg"
    session.close()


def test_a_file_made_before_the_index_gets_it_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "old.campaign"
    shutil.copyfile(OLD_FILE, path)
    with open_campaign(path) as store:
        with store.connect() as connection:
            assert search_mode(connection) == "fts5"
            described = connection.execute(text("SELECT id, description FROM event ORDER BY id DESC")).all()
            rolls = connection.execute(text("SELECT id, purpose FROM dice_roll ORDER BY id DESC")).all()
        assert described and rolls
        event_id, description = described[0]
        assert event_id in found(store, description[1:-1].upper())
        roll_id, purpose = rolls[0]
        assert roll_id in found(store, purpose, "dice_roll")
        # The old rows and the new ones are found alike.
        with store.action("Eugène retires behind the Saale") as db:
            db.get_one(Unit, db.scalars(text("SELECT id FROM unit LIMIT 1")).one()).location = "Saale"
        assert len(found(store, "behind the saale")) == 1


def test_short_needles_look_through_the_newest_rows_only(tmp_path: Path) -> None:
    session = CampaignSession.open(new_campaign(tmp_path / "s.campaign", "spring1813", seed=3))
    store = session.store
    with store.engine.begin() as connection:
        connection.execute(
            text("INSERT INTO event (\"when\", kind, description, changes, undone) VALUES (:w, 'action', :d, '[]', 0)"),
            [{"w": utcnow(), "d": "zq old"}] + [{"w": utcnow(), "d": "filler"}] * SHORT_WINDOW,
        )
        rebuild(connection)  # rows written in bulk, as an import does
    assert found(store, "zq") == []  # beyond the window of one or two letters
    assert len(found(store, "zq ")) == 0 and len(found(store, "zq o")) == 1  # three letters search everything
    session.close()


def test_wildcards_typed_by_the_umpire_are_plain_letters(campaign_target: str) -> None:
    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    store = session.store
    unit = oob.side_units(oob.tree(session)[0])[0]
    for description in ("Move unit_042 to 50% of Leipzig", "Move unitX042 to 50x of Leipzig", "Back\\slash"):
        with store.action(description) as db:
            db.get_one(Unit, unit.id).location = description
    newest = found(store, "Back")
    first = newest[0] - 2
    assert found(store, "unit_042") == [first]  # not unitX042
    assert found(store, "50% of") == [first]
    assert found(store, "k\\sl") == newest
    session.close()


def test_a_unit_id_is_found_whole_and_only_among_the_rows_given(campaign_target: str) -> None:
    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    store = session.store
    unit = oob.side_units(oob.tree(session)[0])[0]
    for description in ("Mark unit_004212: fatigued", "Mark unitX004212: fatigued", "Mark unit_0042129: fatigued", "Mark UNIT_004212"):
        with store.action(description) as db:
            db.get_one(Unit, unit.id).location = description
    newest = found(store, "Mark")[0]
    # The index is asked for 004212 alone (a long run between the "_"): "unit_" is still required.
    assert found(store, "unit_004212") == [newest, newest - 1, newest - 3]
    assert found(store, "it_00421") == [newest, newest - 1, newest - 3]
    assert found(store, "unit_004212:") == [newest - 3]
    assert found(store, "unit_004212", among=[newest - 1, newest - 2]) == [newest - 1]
    assert found(store, "Mark", among=[]) == []
    assert found(store, "M", among=[newest - 2]) == [newest - 2]  # one letter too
    session.close()


def test_which_needles_are_looked_for_alike() -> None:
    """A needle holding another of the same kind matches among the rows the other matched."""
    assert needle_kind("fts5", "ab") == needle_kind("trigram", " ab ") == "window"  # the newest rows only
    assert needle_kind("fts5", "abc") == needle_kind("fts5", "a_bc") == needle_kind("trigram", "50%") == "substring"
    assert needle_kind("fts5", "50%") == needle_kind("fts5", "k\\sl") == "phrase"  # FTS5 matches them as a phrase
    assert needle_kind("scan", "ab") == needle_kind("scan", "abc") == "scan"
    assert needle_kind("words", "abc") is None  # full text matches words by their start: "ab" is not within "b"
    assert needle_kind("words", "ab") == "window"

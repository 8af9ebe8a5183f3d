"""Exports diff cleanly and round-trip; save-as makes a complete copy or none."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaigns.scenario import load_scenario
from campaigns.setup import create_campaign
from models import (
    Battle,
    CampaignFileError,
    CampaignStore,
    Unit,
    dump,
    dumps,
    load,
    loads,
    open_campaign,
    save_as,
)
from tests.templates import new_campaign

SCENARIO = load_scenario("autumn1813")
FIRST = SCENARIO.units[0].id


def play(store: CampaignStore) -> None:
    """A little of everything: moves, dice, a battle, an undone action."""
    with store.action("march") as session:
        session.get_one(Unit, FIRST).location = "Dresden"
    store.dice().roll("2d6", "weather", by="French player")
    with store.action("battle") as session:
        session.add(
            Battle(turn=1, location="Dresden", participants={"french": [FIRST]}, detail={"rounds": [1, 2]})
        )
    with store.action("tired") as session:
        session.get_one(Unit, FIRST).fatigued = True
    store.undo()


@pytest.fixture
def played(campaign_target: str) -> Iterator[CampaignStore]:
    with open_campaign(new_campaign(campaign_target, SCENARIO, seed=99)) as store:
        play(store)
        yield store


def test_export_import_export_is_identical(played: CampaignStore, tmp_path: Path) -> None:
    text = dumps(played)
    with loads(tmp_path / "copy.campaign", text) as copy:
        assert dumps(copy) == text


@pytest.fixture
def other_backend(played: CampaignStore, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A new target on the back end the played campaign is not on."""
    return request.getfixturevalue("postgres_url") if played.is_sqlite else str(tmp_path / "copy.campaign")


def test_an_export_moves_between_sqlite_and_postgresql_unchanged(
    played: CampaignStore, other_backend: str
) -> None:
    text = dumps(played)
    with loads(other_backend, text) as copy:
        assert dumps(copy) == text
        copy.redo()  # history carries over: the undone action can be redone
        with copy.read() as session:
            assert session.get_one(Unit, FIRST).fatigued


def test_an_imported_campaign_goes_on_with_new_rows(played: CampaignStore, other_backend: str) -> None:
    with load(other_backend, dump(played)) as copy:
        with copy.action("another battle") as session:
            session.add(Battle(turn=2, location="Kulm"))
        assert [b["location"] for b in dump(copy)["tables"]["battle"]] == ["Dresden", "Kulm"]


def test_the_export_is_sorted_and_stable(played: CampaignStore) -> None:
    text = dumps(played)
    document = json.loads(text)
    assert text == json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    ids = [row["id"] for row in document["tables"]["unit"]]
    assert ids == sorted(ids)
    assert dumps(played) == text


def test_import_refuses_to_overwrite(played: CampaignStore, tmp_path: Path) -> None:
    existing = tmp_path / "existing.campaign"
    existing.write_text("mine")
    with pytest.raises(CampaignFileError, match="already exists"):
        load(existing, dump(played))
    assert existing.read_text() == "mine"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "is not JSON"),
        ('{"format": "something"}', "not an Adjutant campaign export"),
        ('{"format": "adjutant-campaign", "schema": "0099", "tables": {}}', "newer version of Adjutant"),
        ('{"format": "adjutant-campaign", "schema": "0002", "tables": {"orders": []}}', "a table 'orders'"),
        (
            '{"format": "adjutant-campaign", "schema": "0002", '
            '"tables": {"side": [{"id": "x", "colour": "blue"}]}}',
            "unknown column 'colour'",
        ),
    ],
)
def test_a_bad_export_is_refused_and_leaves_no_file(text: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(CampaignFileError, match=message):
        loads(tmp_path / "new.campaign", text, source="orders.json")
    assert list(tmp_path.iterdir()) == []


def test_save_as_copies_the_whole_campaign(played: CampaignStore, tmp_path: Path) -> None:
    copy = save_as(played, tmp_path / "copy.campaign")
    with open_campaign(copy) as saved:
        assert dumps(saved) == dumps(played)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_save_as_replaces_an_older_copy_whole(played: CampaignStore, tmp_path: Path) -> None:
    destination = tmp_path / "copy.campaign"
    destination.write_text("last week's copy")
    save_as(played, destination)
    with open_campaign(destination) as saved:
        assert dumps(saved) == dumps(played)


def test_save_as_from_a_file_name_and_onto_itself(tmp_path: Path) -> None:
    original = tmp_path / "a.campaign"
    create_campaign(original, SCENARIO).close()
    save_as(original, tmp_path / "b.campaign")
    with open_campaign(original) as a, open_campaign(tmp_path / "b.campaign") as b:
        assert dumps(a) == dumps(b)
    with pytest.raises(CampaignFileError, match="is the campaign itself"):
        save_as(original, original)
    with pytest.raises(CampaignFileError, match="not a SQLite database"):
        (tmp_path / "c.txt").write_text("notes")
        save_as(tmp_path / "c.txt", tmp_path / "d.campaign")

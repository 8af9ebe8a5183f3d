"""Showing the map imports no SQLModel class: the turn, its weather and its pending battles
are read as plain rows (campaigns.theatre_map `map_data`, models.record_columns) and the
stacks and contacts counted (campaigns.stacks `counted_stacks`), so a first visit does not
wait for the ORM and models.tables (150-250 ms on a quiet machine). A side's map and the
sightings read what a side knows as plain rows too (campaigns.knowledge `known`,
`sighted_stacks`), and the orders screen its list (campaigns.orders `listed`), without pydantic (the orders file's schema).
The campaign is ten turns in: stacks of both sides on the map, weather
rolled, battles fought and the enemy seen in them.

One process for each file (a fresh one costs some 0.6 s of CPU, most of it imports), the
map shown first: what a process has imported only adds up, so the modules imported after
the map and again after the screen shown next tell which screen brought the ORM in, if one
did (tests/tui/test_switch_imports.py and test_story_imports.py do so too)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from campaigns.despatch import write_despatch
from campaigns.session import CampaignSession
from tests.played import play
from tests.tui.helpers import imports_on_showing

STEPS = """
await app.run_action("show('map')")
await until(pilot, lambda: type(app.screen).__name__ == "TheatreScreen" and app.screen.canvas.data is not None, "the map shown")
await app.workers.wait_for_complete()
data = app.screen.canvas.data
out["head"] = str(app.screen.query_one("#head").render())
out["stacks"] = sum(len(p.stacks) for p in data.places)
out["sides"] = list(data.sides)
out["after the map"] = orm_imported()
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder for the module's files, and the world its processes see as each test's
    (tests/tui/conftest.py still_world): a config dir of their own, UTC."""
    folder = tmp_path_factory.mktemp("imports")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ADJUTANT_CONFIG_DIR", str(folder / "config"))
        patch.setenv("TZ", "UTC")
        yield folder


@pytest.fixture(scope="module")
def umpires(folder: Path) -> dict:
    """The umpire's file, ten turns in: the map, then the sightings, in one process."""
    return imports_on_showing(STEPS + SIGHTINGS, str(play(folder / "ten.campaign", 10)))


def test_showing_the_map_imports_no_sqlmodel_class(umpires: dict) -> None:
    shown = umpires
    assert shown["after the map"] == []
    assert shown["head"].startswith("Map: turn 11, ")
    assert shown["stacks"] > 2 and len(shown["sides"]) == 2


def french_despatch(tmp_path: Path) -> Path:
    """The French side's file of a campaign ten turns in."""
    session = CampaignSession.open(play(tmp_path / "ten.campaign", 10))
    try:
        return write_despatch(session, "french", tmp_path / "french.campaign")
    finally:
        session.close()


@pytest.fixture(scope="module")
def players(folder: Path) -> dict:
    """The French side's file, ten turns in, with an order written: the map, then the orders, in one process."""
    from campaigns import orders

    french = french_despatch(folder)
    side = CampaignSession.open(french)
    try:
        orders.write(side, "note", text="Hold the bridges")
    finally:
        side.close()
    return imports_on_showing(STEPS + ORDERS, str(french))


def test_a_sides_map_imports_no_sqlmodel_class(players: dict) -> None:
    shown = players
    assert shown["after the map"] == []
    assert shown["head"].startswith("Map | seen by French Empire and allies: turn 11, ")
    assert shown["stacks"] > 2 and len(shown["sides"]) == 2  # its own stacks, and the enemy as seen


SIGHTINGS = """
await app.run_action("show('sightings')")
await until(pilot, lambda: type(app.screen).__name__ == "SightingsScreen" and app.screen.query_one("#list").row_count, "the sightings shown")
await app.workers.wait_for_complete()
out["title"] = str(app.screen.query_one("#title").render())
out["first"] = [str(cell) for cell in app.screen.query_one("#list").get_row_at(0)]
out["pydantic"] = "pydantic" in sys.modules  # the orders file's schema (campaigns.orders_schema) is for reading a file
"""


def test_showing_the_sightings_imports_no_sqlmodel_class(umpires: dict) -> None:
    shown = umpires
    assert shown["shown"] == [], f"imported by the sightings, or already by the map before them ({shown['after the map']})"
    assert shown["title"].startswith("What French Empire and allies has seen, to turn 11: 2 sightings")
    assert shown["first"][0].isdigit() and shown["first"][2] == "battle"


ORDERS = """
await app.run_action("show('orders')")
await until(pilot, lambda: type(app.screen).__name__ == "OrdersScreen" and app.screen.query_one("#list").row_count, "the orders shown")
await app.workers.wait_for_complete()
out["first"] = [str(cell) for cell in app.screen.query_one("#list").get_row_at(0)]
out["pydantic"] = "pydantic" in sys.modules  # the orders file's schema (campaigns.orders_schema) is for reading a file
"""


def test_showing_the_orders_imports_no_sqlmodel_class(players: dict) -> None:
    shown = players
    assert shown["shown"] == [], f"imported by the orders, or already by the map before them ({shown['after the map']})"
    assert shown["pydantic"] is False
    # a side's own table has no Side column: every order in it is the side's
    assert shown["first"][1:3] == ["written", "note"] and shown["first"][5] == "Hold the bridges"

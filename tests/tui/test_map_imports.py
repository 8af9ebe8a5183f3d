"""Showing the map imports no SQLModel class: the turn, its weather and its pending battles
are read as plain rows (campaigns.theatre_map `map_data`, models.record_columns) and the
stacks and contacts counted (campaigns.stacks `counted_stacks`), so a first visit does not
wait for the ORM and models.tables (150-250 ms on a quiet machine). A side's map and the
sightings read what a side knows as plain rows too (campaigns.knowledge `known`,
`sighted_stacks`), and the orders screen its list (campaigns.orders `listed`), without pydantic (the orders file's schema).
The campaign is ten turns in: stacks of both sides on the map, weather
rolled, battles fought and the enemy seen in them."""

from __future__ import annotations

from pathlib import Path

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
"""


def test_showing_the_map_imports_no_sqlmodel_class(tmp_path: Path) -> None:
    shown = imports_on_showing(STEPS, str(play(tmp_path / "ten.campaign", 10)))
    assert shown["shown"] == []
    assert shown["head"].startswith("Map: turn 11, ")
    assert shown["stacks"] > 2 and len(shown["sides"]) == 2


def french_despatch(tmp_path: Path) -> Path:
    """The French side's file of a campaign ten turns in."""
    session = CampaignSession.open(play(tmp_path / "ten.campaign", 10))
    try:
        return write_despatch(session, "french", tmp_path / "french.campaign")
    finally:
        session.close()


def test_a_sides_map_imports_no_sqlmodel_class(tmp_path: Path) -> None:
    french = french_despatch(tmp_path)
    shown = imports_on_showing(STEPS, str(french))
    assert shown["shown"] == []
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


def test_showing_the_sightings_imports_no_sqlmodel_class(tmp_path: Path) -> None:
    shown = imports_on_showing(SIGHTINGS, str(play(tmp_path / "ten.campaign", 10)))
    assert shown["shown"] == []
    assert shown["title"].startswith("What French Empire and allies has seen, to turn 11: 2 sightings")
    assert shown["first"][0].isdigit() and shown["first"][2] == "battle"


ORDERS = """
await app.run_action("show('orders')")
await until(pilot, lambda: type(app.screen).__name__ == "OrdersScreen" and app.screen.query_one("#list").row_count, "the orders shown")
await app.workers.wait_for_complete()
out["first"] = [str(cell) for cell in app.screen.query_one("#list").get_row_at(0)]
out["pydantic"] = "pydantic" in sys.modules  # the orders file's schema (campaigns.orders_schema) is for reading a file
"""


def test_showing_the_orders_imports_no_sqlmodel_class(tmp_path: Path) -> None:
    from campaigns import orders

    french = french_despatch(tmp_path)
    side = CampaignSession.open(french)
    try:
        orders.write(side, "note", text="Hold the bridges")
    finally:
        side.close()
    shown = imports_on_showing(ORDERS, str(french))
    assert shown["shown"] == [] and shown["pydantic"] is False
    # a side's own table has no Side column: every order in it is the side's
    assert shown["first"][1:3] == ["written", "note"] and shown["first"][5] == "Hold the bridges"

"""Showing the map imports no SQLModel class: the turn, its weather and its pending battles
are read as plain rows (campaigns.theatre_map `map_data`, models.record_columns) and the
stacks and contacts counted (campaigns.stacks `counted_stacks`), so a first visit does not
wait for the ORM and models.tables (150-250 ms on a quiet machine). The campaign is ten turns
in: stacks of both sides on the map, weather rolled, battles fought."""

from __future__ import annotations

from pathlib import Path

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

"""Showing the luck imports no SQLModel class: the ledger (campaigns.luck) reads plain rows
through table clauses (models.record_columns), a battle's too (campaigns.battles `load`), and
asks the dice tally whether it is in step without the ORM (models.tally), so a first visit does
not wait for the ORM and models.tables (150-250 ms on a quiet machine). The campaign is ten
turns in: a battle fought to its pursuit, forced marches, command points and weather."""

from __future__ import annotations

from pathlib import Path

from tests.played import play
from tests.tui.helpers import imports_on_showing

STEPS = """
await app.run_action("show('luck')")
await until(pilot, lambda: type(app.screen).__name__ == "LuckScreen" and app.screen.sides, "the luck shown")
await app.workers.wait_for_complete()
out["method"] = str(app.screen.query_one("#method").render())
out["sides"] = app.screen.sides
"""


def test_showing_the_luck_imports_no_sqlmodel_class(tmp_path: Path) -> None:
    shown = imports_on_showing(STEPS, str(play(tmp_path / "ten.campaign", 10)))
    assert shown["shown"] == []
    assert shown["method"].startswith("every side (s)")
    assert shown["sides"] == ["french", "allies"]

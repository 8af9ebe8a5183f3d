"""Showing the plots, the luck by turn too, imports no SQLModel class: the story (campaigns.story)
and the luck ledger (campaigns.luck) read plain rows through table clauses
(models.record_columns), so a first visit does not wait for the ORM and models.tables
(150-250 ms on a quiet machine). The campaign is ten turns in: a battle fought to its
pursuit, forced marches, command points and weather, every kind of row the story reads."""

from __future__ import annotations

from pathlib import Path

from tests.played import play
from tests.tui.helpers import imports_on_showing

STEPS = """
await app.run_action("show('plots')")
await until(pilot, lambda: type(app.screen).__name__ == "PlotsScreen" and app.screen.charts, "the plots shown")
out["first"] = str(app.screen.query_one("#which").render())
await pilot.press("p")  # the last chart, the luck by turn: the ledger is read for it
await until(pilot, lambda: app.screen.luck_read is app.screen.story, "the luck by turn read")
await app.workers.wait_for_complete()
out["lost"] = app.screen.story.losses
out["luck"] = app.screen.story.luck
"""


def test_showing_the_plots_imports_no_sqlmodel_class(tmp_path: Path) -> None:
    shown = imports_on_showing(STEPS, str(play(tmp_path / "ten.campaign", 10)))
    assert shown["shown"] == []
    assert shown["first"].startswith("1/6  [sp]")
    # what was read is the campaign's: a battle's and the marches' losses, each side's luck by turn
    assert any(sum(by_cause["battle"]) for by_cause in shown["lost"].values())
    assert any(sum(by_cause["forced march"]) for by_cause in shown["lost"].values())
    assert all(any(turn is not None for turn in luck) for luck in shown["luck"].values())

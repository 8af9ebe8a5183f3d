"""Showing the plots, the luck by turn too, and then the luck imports no SQLModel class: the
story (campaigns.story) and the luck ledger (campaigns.luck) read plain rows through table
clauses (models.record_columns), a battle's too (campaigns.battles `load`), and the luck asks
the dice tally whether it is in step without the ORM (models.tally), so neither first visit
waits for the ORM and models.tables (150-250 ms on a quiet machine). The campaign is ten
turns in: a battle fought to its pursuit, forced marches, command points and weather, every
kind of row the story reads.

One process for both screens (a fresh one costs some 2 s of CPU, most of it imports): what
a process has imported only adds up, so the modules imported after the plots and again
after the luck tell which screen brought the ORM in, if one did."""

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
out["after plots"] = orm_imported()
await app.run_action("show('luck')")
await until(pilot, lambda: type(app.screen).__name__ == "LuckScreen" and app.screen.sides, "the luck shown")
await app.workers.wait_for_complete()
out["method"] = str(app.screen.query_one("#method").render())
out["sides"] = app.screen.sides
"""


def test_showing_the_plots_and_the_luck_imports_no_sqlmodel_class(tmp_path: Path) -> None:
    shown = imports_on_showing(STEPS, str(play(tmp_path / "ten.campaign", 10)))
    assert shown["after plots"] == [], "the plots imported the ORM"
    assert shown["shown"] == [], "the luck imported the ORM"
    # the plots: what was read is the campaign's: a battle's and the marches' losses, each side's luck by turn
    assert shown["first"].startswith("1/6  [sp]")
    assert any(sum(by_cause["battle"]) for by_cause in shown["lost"].values())
    assert any(sum(by_cause["forced march"]) for by_cause in shown["lost"].values())
    assert all(any(turn is not None for turn in luck) for luck in shown["luck"].values())
    # the luck: every side, then each by name
    assert shown["method"].startswith("every side (s)")
    assert shown["sides"] == ["french", "allies"]

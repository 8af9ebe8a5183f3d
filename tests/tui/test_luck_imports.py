"""Showing the luck imports no SQLModel class: the ledger (campaigns.luck) reads plain rows
through table clauses (models.record_columns), a battle's too (campaigns.battles `load`), and
asks the dice tally whether it is in step without the ORM (models.tally), so a first visit does
not wait for the ORM and models.tables (150-250 ms on a quiet machine). The campaign is ten
turns in: a battle fought to its pursuit, forced marches, command points and weather."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.played import play
from tests.tui.helpers import in_fresh_process

# In a process of its own (this one has imported everything long ago), without the app's
# background work (tui.app warm_up imports the classes on purpose, once quiet).
SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from campaigns.session import CampaignSession
from tests.tui.polling import until
from tui.app import AdjutantApp

WATCHED = ("models.tables", "sqlalchemy.orm", "sqlmodel")

async def main(path):
    app = AdjutantApp(CampaignSession.open(Path(path)), prepare=False)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await app.run_action("show('luck')")
        await until(pilot, lambda: type(app.screen).__name__ == "LuckScreen" and app.screen.sides, "the luck shown")
        await app.workers.wait_for_complete()
        method = str(app.screen.query_one("#method").render())
        sides = app.screen.sides
        shown = [module for module in WATCHED if module in sys.modules]
    print(json.dumps({"shown": shown, "method": method, "sides": sides}))

asyncio.run(main(sys.argv[1]))
"""


def test_showing_the_luck_imports_no_sqlmodel_class(tmp_path: Path) -> None:
    shown: Any = in_fresh_process(SCRIPT, str(play(tmp_path / "ten.campaign", 10)))
    assert shown["shown"] == []
    assert shown["method"].startswith("every side (s)")
    assert shown["sides"] == ["french", "allies"]

"""Going round the screens a campaign grows under (the order of battle, the weather,
the command points, the history, the forced march: the benchmark's round) imports no
SQLModel class: each reads plain rows, so no first visit waits for models.tables (0.1 s
of CPU and more on a loaded machine). An action imports them when it runs. Nor do they
build pydantic's models of the rules' data files (rules.schema, 15-20 ms to import and
as much again to validate a first file): the forced march's odds read the campaign's
options plainly."""

from __future__ import annotations

from tests.tui.helpers import in_fresh_process


# In a process of its own (this one has imported everything long ago), without the
# app's background work (tui.app warm_up imports the classes on purpose, once quiet).
SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from campaigns.session import CampaignSession
from tests.tui.polling import until
from tui.app import AdjutantApp

SHOWN = {"oob": "#tree", "weather": "#turns", "command": "#armies", "history": "#events", "march": "#units"}
WATCHED = ("models.tables", "rules.schema")

async def main(path):
    app = AdjutantApp(CampaignSession.open(Path(path)), prepare=False)
    app.animation_level = "none"
    imported = {}
    async with app.run_test(size=(80, 24)) as pilot:
        for name in SHOWN:
            await app.run_action(f"show({name!r})")
            await until(pilot, lambda: app.screen.query(SHOWN[name]) and app.screen.query_one(SHOWN[name]).region.height
                        and not app.keys_held, f"the {name} screen shown")
            await app.workers.wait_for_complete()
            imported[name] = [module for module in WATCHED if module in sys.modules]
        await app.run_action("show('weather')")
        await pilot.press("r")  # an action (the weather rolled from the seed): the classes come with it
        await until(pilot, lambda: "not rolled yet" not in str(app.screen.query_one("#now").render()) and not app.keys_held,
                    "the weather rolled")
        await app.workers.wait_for_complete()
        imported["rolled"] = [module for module in WATCHED if module in sys.modules]
    print(json.dumps(imported))

asyncio.run(main(sys.argv[1]))
"""


def test_the_round_of_screens_imports_no_sqlmodel_class(campaign_file):
    shown = in_fresh_process(SCRIPT, str(campaign_file))
    assert shown == {"oob": [], "weather": [], "command": [], "history": [], "march": [], "rolled": ["models.tables"]}

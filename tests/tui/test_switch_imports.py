"""Going round the screens a campaign grows under (the battles, the order of battle, the
weather, the command points, the history, the forced march: the benchmark's round and the
battles) imports no SQLModel class and no ORM: each reads plain rows (the battles list and
the stacks in contact: campaigns.battles `battles`, campaigns.stacks `counted_stacks`; the
order of battle: models.oob_rows; the weather's track and this turn: campaigns.weather), so
no first visit waits for models.tables or sqlalchemy.orm (0.1-0.3 s of CPU and more on a
loaded machine). An action imports them when it runs (the weather rolled). Nor do they
build pydantic's models of the rules' data files (rules.schema, 15-20 ms to import and as
much again to validate a first file): the forced march's odds read the campaign's options
plainly. The order of battle is used as an umpire does (a general opened, the cursor down
his units, a search) without importing its edits (campaigns.oob), which come with the
first edit.

One process for the whole round (a fresh one costs some 2 s of CPU, most of it imports):
what a process has imported only adds up, so the modules imported after each screen tell
which screen brought one in, if one did."""

from __future__ import annotations

from tests.tui.helpers import ORM_MODULES, in_fresh_process

# In a process of its own (this one has imported everything long ago), without the
# app's background work (tui.app warm_up imports the classes on purpose, once quiet).
SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from campaigns.session import CampaignSession
from tests.tui.polling import until
from tui.app import AdjutantApp

SHOWN = {"battles": "#contacts", "oob": "#tree", "weather": "#turns", "command": "#armies", "history": "#events", "march": "#units"}
WATCHED = (*sys.argv[2].split(","), "rules.schema", "campaigns.oob")


async def use_the_order_of_battle(app, pilot):
    screen = app.screen
    await until(pilot, lambda: screen.query_one("#detail").row_count > 0, "the order of battle's detail")
    general = screen._lines["g:napoleon"]
    screen._select("napoleon")
    await until(pilot, lambda: screen.query_one("#tree").cursor_node is general, "the cursor on Napoleon")
    await pilot.press("enter")
    await until(pilot, lambda: general.children, "Napoleon's units")
    for _ in range(3):
        await pilot.press("down")
    await pilot.press("slash")
    for key in "zieten":
        await pilot.press(key)
    await pilot.press("enter")
    await until(pilot, lambda: "Zieten" in str(screen.query_one("#totals").render()), "the search's find")


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
            if name == "battles":
                await until(pilot, lambda: "contact" in str(app.screen.query_one("#contacts").render()), "the stacks in contact")
                imported["contacts"] = str(app.screen.query_one("#contacts").render()).splitlines()[0]
            elif name == "oob":
                await use_the_order_of_battle(app, pilot)
            elif name == "weather":
                await until(pilot, lambda: app.screen.query_one("#turns").row_count, "the weather's track")
                for _ in range(3):
                    await pilot.press("down")
            await app.workers.wait_for_complete()
            imported[name] = [module for module in WATCHED if module in sys.modules]
        await app.run_action("show('weather')")
        await pilot.press("r")  # an action (the weather rolled from the seed): the classes come with it
        await until(pilot, lambda: "not rolled yet" not in str(app.screen.query_one("#now").render()) and not app.keys_held,
                    "the weather rolled")
        await app.workers.wait_for_complete()
        imported["rolled"] = [module for module in WATCHED if module in sys.modules]
        await app.run_action("show('oob')")
        await pilot.press("f")  # the flags form of Zieten, found above: an edit, which may use the classes
        await until(pilot, lambda: type(app.screen).__name__ == "FormScreen", "the flags form")
    print(json.dumps(imported))

asyncio.run(main(sys.argv[1]))
"""


def test_the_round_of_screens_imports_no_sqlmodel_class(campaign_file):
    shown = in_fresh_process(SCRIPT, str(campaign_file), ",".join(ORM_MODULES))
    assert shown.pop("contacts").startswith(("Stacks in contact", "No stacks in contact"))
    assert shown == {"battles": [], "oob": [], "weather": [], "command": [], "history": [], "march": [],
                     "rolled": list(ORM_MODULES)}

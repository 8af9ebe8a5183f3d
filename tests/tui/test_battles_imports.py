"""Showing the battles imports no SQLModel class: the list of battles and the stacks in
contact are read as plain rows (campaigns.battles `battles`, campaigns.stacks
`counted_stacks`), so a first visit does not wait for the ORM and models.tables
(150-250 ms on a quiet machine); setting up a battle, an action, imports them when it runs."""

from __future__ import annotations

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
        await app.run_action("show('battles')")
        await until(pilot, lambda: type(app.screen).__name__ == "BattlesScreen" and "contact" in str(app.screen.query_one("#contacts").render())
                    and not app.keys_held, "the battles shown")
        await app.workers.wait_for_complete()
        contacts = str(app.screen.query_one("#contacts").render())
        shown = [module for module in WATCHED if module in sys.modules]
    print(json.dumps({"shown": shown, "contacts": contacts.splitlines()[0]}))

asyncio.run(main(sys.argv[1]))
"""


def test_showing_the_battles_imports_no_sqlmodel_class(campaign_file):
    shown = in_fresh_process(SCRIPT, str(campaign_file))
    assert shown["shown"] == []
    assert shown["contacts"].startswith(("Stacks in contact", "No stacks in contact"))

"""What the app imports in its background work after the first frame (tui.app warm_up),
watched in a process of its own (this one has imported everything long ago):

- SQLAlchemy's ORM is imported on the UI thread while no worker runs: its package
  registers how to inspect any object before its exceptions module is whole, and a
  statement built in another thread meanwhile failed ("partially initialized module
  'sqlalchemy.orm.exc'"): the battle set-up typed right after start-up ended the app.
- What the first undo checks a history with (models.history_checks, pydantic's row
  models) is imported there once the umpire pauses, not when the first `u` is pressed;
  and neither it nor SQLModel is imported before the first frame.

One process for both (a fresh one costs some 2 s of CPU, most of it imports): the ORM's
import is watched from the start, whatever comes after."""

from __future__ import annotations

from tests.tui.helpers import in_fresh_process

SCRIPT = """
import asyncio, importlib.abc, json, sys, threading
orm = []

class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "sqlalchemy.orm":
            workers = [w for w in app.workers if not w.is_finished] if "app" in globals() else []
            orm.append((threading.current_thread() is threading.main_thread(), len(workers)))
        return None

sys.meta_path.insert(0, Watch())
from campaigns.session import CampaignSession
from tui.app import AdjutantApp

CHECKS = ("models.history_checks", "models.history", "sqlmodel")

async def main(path):
    global app
    app = AdjutantApp(CampaignSession.open(path), prepare=True)
    app.animation_level = "none"
    seen = {}
    async with app.run_test(size=(80, 24)) as pilot:
        seen["first frame"] = [m for m in CHECKS if m in sys.modules]
        for _ in range(3000):
            await pilot.pause(0.01)
            if app.screens_prepared and app._imports is not None and app._imports.is_finished:
                break
        else:
            raise SystemExit("the background work never ended")
        seen["settled"] = [m for m in CHECKS if m in sys.modules]
        seen["orm imported (on the UI thread, workers running)"] = list(orm)
        await app.run_action("show('weather')")
        await pilot.press("r")  # an action, then its undo: both work with what was imported ahead
        for _ in range(1000):
            await pilot.pause()
            if "not rolled yet" not in str(app.screen.query_one("#now").render()) and not app.keys_held:
                break
        await app.workers.wait_for_complete()
        await pilot.press("u")
        for _ in range(1000):
            await pilot.pause()
            if "not rolled yet" in str(app.screen.query_one("#now").render()) and not app.keys_held:
                break
        else:
            raise SystemExit("the undo never showed")
    print(json.dumps(seen))

asyncio.run(main(sys.argv[1]))
"""


def test_the_orm_on_the_ui_thread_and_the_undo_checks_are_imported_in_the_background_not_before_the_first_frame(campaign_file):
    seen = in_fresh_process(SCRIPT, str(campaign_file))
    assert seen == {
        "first frame": [],
        "settled": ["models.history_checks", "models.history", "sqlmodel"],
        "orm imported (on the UI thread, workers running)": [[True, 0]],
    }

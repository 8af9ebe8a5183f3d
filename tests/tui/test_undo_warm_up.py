"""What the first undo checks a history with (models.history_checks, pydantic's row
models) is imported in the app's background work once the umpire pauses, not when
the first `u` is pressed; and neither it nor SQLModel is imported before the first
frame. In a process of its own: this one has imported everything long ago."""

from __future__ import annotations

from tests.tui.helpers import in_fresh_process

SCRIPT = """
import asyncio, json, sys
from campaigns.session import CampaignSession
from tui.app import AdjutantApp

CHECKS = ("models.history_checks", "models.history", "sqlmodel")

async def main(path):
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


def test_undo_checks_are_imported_in_the_background_and_not_before_the_first_frame(campaign_file):
    seen = in_fresh_process(SCRIPT, str(campaign_file))
    assert seen == {"first frame": [], "settled": ["models.history_checks", "models.history", "sqlmodel"]}

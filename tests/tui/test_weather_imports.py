"""Showing the weather imports no SQLModel class: the track and this turn are read as
plain rows (campaigns.weather), so a first visit does not wait for models.tables
(0.1-0.3 s); rolling the weather, an action, imports them when it runs."""

from __future__ import annotations

from tests.tui.helpers import in_fresh_process


# In a process of its own (this one has imported everything long ago): the app on the
# file without its background work (tui.app warm_up), the weather shown with its track,
# the cursor moved down it; then whether the classes are imported, before and after a roll.
SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from campaigns.session import CampaignSession
from tests.tui.polling import until
from tui.app import AdjutantApp

async def main(path):
    app = AdjutantApp(CampaignSession.open(Path(path)), prepare=False)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await app.run_action("show('weather')")
        await until(pilot, lambda: type(app.screen).__name__ == "WeatherScreen" and app.screen.query_one("#turns").row_count,
                    "the weather's track shown")
        for _ in range(3):
            await pilot.press("down")
        shown = "models.tables" in sys.modules
        await pilot.press("r")  # dice rolled from the campaign's seed: no form
        await until(pilot, lambda: "not rolled yet" not in str(app.screen.query_one("#now").render()), "the weather rolled")
    print(json.dumps({"shown": shown, "rolled": "models.tables" in sys.modules}))

asyncio.run(main(sys.argv[1]))
"""


def test_showing_the_weather_imports_no_sqlmodel_class(campaign_file):
    assert in_fresh_process(SCRIPT, str(campaign_file)) == {"shown": False, "rolled": True}

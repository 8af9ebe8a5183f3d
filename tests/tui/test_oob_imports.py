"""Showing the order of battle imports no SQLModel class: it reads plain rows
(models.oob_rows), so a first visit does not wait for models.tables (some 90 ms).
Edits still use them, imported when the first one runs."""

from __future__ import annotations

from tests.tui.helpers import in_fresh_process


# In a process of its own (this one has imported everything long ago): the app on the
# file, the order of battle shown, a general opened, the cursor down his units, a
# search; then which of the modules asked about are imported. The app's own
# background work (tui.app warm_up: the other screens' modules, the history's first
# page) is not the order of battle's and is left out.
SCRIPT = """
import asyncio, json, sys, time
from pathlib import Path
from campaigns.session import CampaignSession
from tui.app import AdjutantApp

async def main(path):
    app = AdjutantApp(CampaignSession.open(Path(path)))
    app.animation_level = "none"
    app.warm_up = lambda: None
    app._read_ahead = lambda: None
    async with app.run_test(size=(80, 24)) as pilot:
        await app.run_action("show('oob')")
        screen = app.screen

        async def until(done):
            # By the clock: a pause lasts until this process is idle, at once on a loaded machine.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                await pilot.pause()
                if done():
                    return
                await pilot.pause(0.01)
            raise SystemExit("the order of battle never showed " + repr(done))

        await until(lambda: screen.query_one("#detail").row_count > 0)
        general = screen._lines["g:napoleon"]
        screen._select("napoleon")
        await until(lambda: screen.query_one("#tree").cursor_node is general)
        await pilot.press("enter")
        await until(lambda: general.children)
        for _ in range(3):
            await pilot.press("down")
        await pilot.press("slash")
        for key in "zieten":
            await pilot.press(key)
        await pilot.press("enter")
        await until(lambda: "Zieten" in str(screen.query_one("#totals").render()))
        before_edit = {m: m in sys.modules for m in ("models.tables", "campaigns.oob")}
        await pilot.press("f")  # the flags form of Zieten: an edit, which may use the classes
        await until(lambda: type(app.screen).__name__ == "FormScreen")
    print(json.dumps(before_edit))

asyncio.run(main(sys.argv[1]))
"""


def test_showing_the_order_of_battle_imports_no_sqlmodel_class(campaign_file):
    imported = in_fresh_process(SCRIPT, str(campaign_file))
    assert imported == {"models.tables": False, "campaigns.oob": False}

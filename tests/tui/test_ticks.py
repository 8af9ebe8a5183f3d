"""The ticks modal ("Move part" on the map) at 80 columns: a long unit's name is read whole."""

from __future__ import annotations

from tests.tui.helpers import screen_text, wait_for, wait_for_screen
from tui.modals.ticks import TicksScreen
from tui.widgets.tickbox import TickBox

LONG = "III Corps: 8th Division (Souham), with the attached Baden and Hessian light battalions and the corps' reserve ENDOFNAME"


async def test_a_long_name_goes_on_to_a_second_line(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "New campaign")
        app.push_screen(TicksScreen("Which go?", [("long", LONG, True), ("short", "Marshal Ney (III Corps) (general)", True)]))
        await wait_for_screen(pilot, TicksScreen)
        await pilot.pause()
        drawn = screen_text(app)
        assert "ENDOFNAME" in drawn and "…" not in drawn, drawn  # was cut with an ellipsis at 80 columns
        boxes = list(app.screen.query(TickBox))
        assert boxes[0].region.height >= 2 and boxes[1].region.height == 1
        assert "[x] Marshal Ney (III Corps) (general)" in drawn

"""Notices (toasts) at 80x24: a few at once, never over a dialog's question and buttons."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widget import Widget

from tests.tui.helpers import screen_text, wait_for, wait_for_screen
from tests.tui.polling import until
from tui.modals.confirm import ConfirmScreen

# A roll's notice as the battle screens raise it: three or four lines in a 40-column toast.
ROLL = "Combat roll for the attacker: 2d6 = 9, +1 for the commander-in-chief, column 4: result 3*, {n} SP lost"
QUESTION = "\n".join(f"Line {n} of the question the umpire must read before answering" for n in range(1, 9))


def toasts(app) -> list[Widget]:
    return [toast for toast in app.screen.query("Toast") if toast.region.area]


async def test_a_burst_of_notices_shows_the_latest_few_and_not_over_the_dialog(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, "New campaign")
        app.push_screen(ConfirmScreen(QUESTION, "Roll"))
        await wait_for_screen(pilot, ConfirmScreen)
        confirm = app.screen
        for n in range(8):  # the umpire rolls fast
            app.notify(ROLL.format(n=n))
        await until(pilot, lambda: any("7 SP lost" in str(t.render()) for t in toasts(app)), "the latest notice shown")
        shown = toasts(app)
        assert 1 <= len(shown) <= 2, [str(t.render()) for t in shown]  # at 24 rows: two at most, the latest
        assert "7 SP lost" in str(shown[-1].render()) and not any("5 SP lost" in str(t.render()) for t in shown)
        dialog = confirm.query_one(Vertical).region
        assert any(toast.region.overlaps(dialog) for toast in shown)  # the case: a notice where the dialog is
        drawn = screen_text(app)
        for line in QUESTION.splitlines():  # yet the whole question and both buttons are read
            assert line in drawn, drawn
        assert "Roll (y)" in drawn and "No (n)" in drawn, drawn
        assert "lost" in drawn  # the notice is seen around the dialog

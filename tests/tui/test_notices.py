"""Notices (toasts) at 80x24: a few at once, the newest information replacing the oldest,
a refusal never dropped for information, never over a dialog's question and buttons."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widget import Widget

from tests.tui.helpers import screen_text, wait_for, wait_for_screen
from tests.tui.polling import until
from tui.modals.confirm import ConfirmScreen
from tui.notices import give_way

# A roll's notice as the battle screens raise it: three or four lines in a 40-column toast.
ROLL = "Combat roll for the attacker: 2d6 = 9, +1 for the commander-in-chief, column 4: result 3*, {n} SP lost"
REFUSED = "Roll this turn's weather first (w), then return the battle's losses"
QUESTION = "\n".join(f"Line {n} of the question the umpire must read before answering" for n in range(1, 9))

INFO, ERROR = "information", "error"


def toasts(app) -> list[Widget]:
    return [toast for toast in app.screen.query("Toast") if toast.region.area]


def said(app) -> list[str]:
    return [str(toast.render()) for toast in toasts(app)]


# -- which notices give way (tui.notices.give_way), two at once ----------------------------


def test_the_newest_information_replaces_the_oldest():
    assert give_way([(INFO, "a"), (INFO, "b")], (INFO, "c"), 2) == [0]
    assert give_way([(INFO, "a"), (INFO, "b"), (INFO, "c")], (INFO, "d"), 2) == [0, 1]
    assert give_way([(INFO, "a")], (INFO, "b"), 2) == []


def test_a_refusal_never_gives_way_to_information():
    assert give_way([(ERROR, "no"), (INFO, "b")], (INFO, "c"), 2) == [1]  # the information goes, not the refusal
    assert give_way([(INFO, "a"), (ERROR, "no")], (INFO, "c"), 2) == [0]
    assert give_way([(ERROR, "no"), (ERROR, "not that")], (INFO, "c"), 2) == []  # the information shows beside them
    assert give_way([("warning", "no"), (INFO, "b")], (INFO, "c"), 2) == [1]  # a warning is a refusal too


def test_a_refusal_gives_way_to_information_first_then_to_a_newer_refusal():
    assert give_way([(INFO, "a"), (ERROR, "no")], (ERROR, "not that"), 2) == [0]
    assert give_way([(ERROR, "no"), (ERROR, "not that")], (ERROR, "nor this"), 2) == [0]
    assert give_way([(ERROR, "no"), (ERROR, "not that"), (INFO, "c")], (ERROR, "nor this"), 2) == [0, 2]


def test_the_same_notice_again_shows_once():
    assert give_way([(ERROR, "no"), (INFO, "a")], (ERROR, "no"), 3) == [0]
    assert give_way([(INFO, "a"), (ERROR, "no")], (INFO, "a"), 3) == [0]


# -- in the app, at 80x24 ----------------------------------------------------------------------


async def test_a_burst_of_notices_shows_the_latest_few_and_not_over_the_dialog(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, "New campaign")
        app.push_screen(ConfirmScreen(QUESTION, "Roll"))
        await wait_for_screen(pilot, ConfirmScreen)
        confirm = app.screen
        for n in range(8):  # the umpire rolls fast
            app.notify(ROLL.format(n=n))
        await until(pilot, lambda: any("7 SP lost" in text for text in said(app)), "the latest notice shown")
        await until(pilot, lambda: len(toasts(app)) <= 2, "the older notices gone")
        shown = toasts(app)
        assert len(shown) == 2, said(app)  # at 24 rows: two at most, the latest
        assert "6 SP lost" in said(app)[0] and "7 SP lost" in said(app)[1]
        assert all(toast.region.height <= 4 for toast in shown)  # compact: no blank first and last lines
        dialog = confirm.query_one(Vertical).region
        assert any(toast.region.overlaps(dialog) for toast in shown)  # the case: a notice where the dialog is
        drawn = screen_text(app)
        for line in QUESTION.splitlines():  # yet the whole question and both buttons are read
            assert line in drawn, drawn
        assert "Roll (y)" in drawn and "No (n)" in drawn, drawn
        assert "lost" in drawn  # the notice is seen around the dialog


async def test_a_refusal_stays_through_a_burst_of_information(make_app):
    """A refused key in a burst, then the notices of the keys after it: the refusal is still
    on screen (tests/e2e/test_tabletop_bursts.py waits for it), with the latest information."""
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, "New campaign")
        app.notify(ROLL.format(n=0))
        for _ in range(3):  # the same key refused three times: said once
            app.notify(REFUSED, severity="error")
        for n in range(1, 6):
            app.notify(ROLL.format(n=n))
        await until(pilot, lambda: any("5 SP lost" in text for text in said(app)), "the latest notice shown")
        await until(pilot, lambda: len(toasts(app)) <= 2, "the older information gone")
        texts = said(app)
        assert len(texts) == 2 and REFUSED in texts[0].replace("\n", " ") and "5 SP lost" in texts[1], texts
        assert "Roll this turn's weather first" in screen_text(app)

"""The mark list (tui/widgets/marklist.py) of a side of thousands of units: it draws the
lines in view only, wraps only a row longer than it is wide, and marks whole stacks."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.strip import Strip

from campaigns.forces import Command, Force, Stack
from tests.tui.helpers import screen_text
from tests.tui.polling import settled, until
from tui.widgets.marklist import MarkList

LONG = "Corps of the Army of Bohemia under a general whose name and titles run on past the list's edge"
STACKS = [
    Stack(f"Place {p}", (Command(f"g{p}", f"General {p}", tuple(
        Force(f"u{p}-{n}", LONG if (p, n) == (3, 7) else f"Brigade {p}-{n}", "infantry", 4, 3, f"g{p}") for n in range(1000)
    )),))
    for p in range(20)
]


class Counted(MarkList):
    """A mark list that counts the lines it is asked to draw."""

    drawn = 0

    def render_line(self, y: int) -> Strip:
        self.drawn += 1
        return super().render_line(y)


class Lists(App):
    CSS = "Counted { height: 1fr; max-height: 100%; }"

    def compose(self) -> ComposeResult:
        yield Counted(STACKS, id="marks")

    def on_mount(self) -> None:
        self.query_one(Counted).focus()


async def test_twenty_thousand_units_are_drawn_a_screenful_at_a_time_and_only_the_long_row_wraps():
    app = Lists()
    async with app.run_test(size=(80, 24)) as pilot:
        marks = app.query_one(Counted)
        await until(pilot, lambda: "Brigade 0-0" in screen_text(app), "the first rows drawn")
        assert len(marks._rows) == 20 * (1 + 1 + 1000)
        long_row = next(i for i, row in enumerate(marks._rows) if row.label.startswith(LONG))
        assert list(marks._wrapped) == [long_row]  # the one row longer than the list is wide
        lines = marks.lines_of(long_row)
        assert len(lines) == 2 and lines[1].startswith(" " * 8) and lines[1].strip().endswith("infantry 4 SP")
        assert marks.virtual_size.height == len(marks._rows) + 1
        assert marks.drawn < 24 * 10  # a few screenfuls, not 20,000 lines
        await pilot.press("s")  # the whole stack at the cursor
        await settled(pilot)
        assert marks.selected == [f.id for f in STACKS[0].forces]
        await pilot.press("end")
        await until(pilot, lambda: "[ ] Brigade 19-999" in screen_text(app), "the last row in view")
        assert marks.highlighted == len(marks._rows) - 1
        await pilot.press("space")
        await until(pilot, lambda: "[x] Brigade 19-999" in screen_text(app), "the last row marked")
        assert marks.selected[-1] == "u19-999" and len(marks.selected) == 1001
        assert marks.drawn < 24 * 30

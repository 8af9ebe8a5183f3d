"""What Textual's caches keep of an app after it has ended, and forget_cached_widgets
(tui/textual_private.py), which the app tests' teardown calls so that a test worker
does not carry what hundreds of ended apps drew (tests/tui/conftest.py)."""

from __future__ import annotations

import asyncio
import gc

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from tui.textual_private import forget_cached_widgets

from .polling import until


class _Tables(App):
    def compose(self) -> ComposeResult:
        table: DataTable = DataTable()
        table.add_columns("Unit", "SP")
        for n in range(10):
            table.add_row(f"unit {n}", n)
        yield table


async def _draw_tables() -> None:
    app = _Tables()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(DataTable)
        await until(
            pilot, lambda: "unit 3" in "".join(strip.text for strip in table.render_lines(table.region.reset_offset)), "the table drawn"
        )


def _drawings() -> int:
    """How many widgets' caches of drawn lines are alive (Textual's StylesCache)."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o).__name__ == "StylesCache")


def test_what_an_ended_app_drew_is_let_go_once_textuals_caches_are_emptied():
    forget_cached_widgets()
    before = _drawings()
    # In an event loop of its own, ended before looking: while the loop's task runs,
    # the app is still its context's active app, and alive.
    asyncio.run(_draw_tables())
    # If this fails, a Textual upgrade no longer keeps widgets' objects in its caches:
    # forget_cached_widgets and its call in tests/tui/conftest.py can go.
    assert _drawings() > before, "Textual's caches no longer keep what an ended app drew"
    forget_cached_widgets()
    assert _drawings() == before

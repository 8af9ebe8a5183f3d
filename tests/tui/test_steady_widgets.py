"""A key typed in a field, or a line under a list changed, lays the screen out again
only when a size changes (tui.widgets.text_field, tui.widgets.in_place).

Each test drives a small app with Textual's own widget beside ours (or runs it once
each way), reads what both draw, and counts the screen's layouts: the same drawing,
fewer layouts."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Static

from tests.tui.helpers import letters, screen_text
from tests.tui.polling import until
from tests.tui.test_textual_private import counting_layouts
from tui.widgets.in_place import update_in_place
from tui.widgets.text_field import TextField

FITS = "Leipzig"  # shorter than the field's box (20 cells less its padding)
OUTGROWS = " and the Elster bridge"  # then longer


class _Fields(App):
    CSS = "Input { width: 20; }"

    def __init__(self, field: type[Input], **kwargs: object) -> None:
        super().__init__()
        self.field, self.kwargs = field, kwargs

    def compose(self) -> ComposeResult:
        yield self.field(id="field", **self.kwargs)  # type: ignore[arg-type]
        yield Static("below", id="below")


async def _typed(monkeypatch, field: type[Input], **kwargs: object) -> tuple[list[str], int, int]:
    """What the screen shows after each key typed (then Home, End, two words deleted), and
    the layouts counted while the text fits and once it outgrows the box."""
    counted = counting_layouts(monkeypatch)
    app = _Fields(field, **kwargs)
    shown = []
    async with app.run_test(size=(30, 5)) as pilot:
        box = app.query_one("#field", Input)
        await until(pilot, lambda: box.has_focus and "below" in screen_text(app), "the field focused")
        await pilot.press(FITS[0])  # the first key: the box's width is known from here
        await pilot.pause()
        before = len(counted)
        for key in letters(FITS[1:]):
            await pilot.press(key)
            shown.append(screen_text(app))
        fitting = len(counted) - before
        for key in [*letters(OUTGROWS), "home", "end", "ctrl+w", "ctrl+w"]:
            await pilot.press(key)
            shown.append(screen_text(app))
        assert box.value == FITS + " and the "
        return shown, fitting, len(counted) - before - fitting


async def test_a_text_field_draws_as_an_input_and_lays_out_only_when_its_text_outgrows_it(monkeypatch):
    for kwargs in ({}, {"compact": True}, {"placeholder": "a placeholder longer than the box"}):
        by_textual, textual_fitting, textual_grown = await _typed(monkeypatch, Input, **kwargs)
        ours, fitting, grown = await _typed(monkeypatch, TextField, **kwargs)
        assert ours == by_textual, kwargs  # every key's drawing, scrolled past the box and back
        assert any("Elster" in s for s in ours) and "and the" in ours[-1]
        assert textual_fitting == len(FITS) - 1  # Textual: a layout for every key
        assert fitting == 0, kwargs
        assert 0 < grown <= textual_grown  # past the box, the field scrolls: laid out as Textual does


class _Under(App):
    CSS = "#list { height: 1fr; } #mods { padding: 0 1; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("\n".join(f"unit {n}" for n in range(12)), id="list")
            yield Static("Weather: clear", id="mods")
            yield Static("fixed", id="fixed", classes="one")

    CSS += " .one { height: 1; }"


async def _updated(monkeypatch, update) -> tuple[list[str], list[int]]:
    """The screen after each change of the line under the list (and of a one-line box),
    and the layouts each took."""
    counted = counting_layouts(monkeypatch)
    app = _Under()
    shown, layouts = [], []
    async with app.run_test(size=(24, 10)) as pilot:
        mods, fixed = app.query_one("#mods", Static), app.query_one("#fixed", Static)
        await until(pilot, lambda: "Weather" in screen_text(app), "the line under the list")
        changes = [
            (mods, "Weather: rain"),  # as many lines
            (mods, "Weather: rain"),  # the same text
            (mods, "Weather: rain; Modifiers: night -1"),  # wraps onto a second line: the list shrinks
            (mods, "Weather: snow; Modifiers: mud -2"),  # wrapped onto two lines still
            (mods, "Weather: clear"),  # one again: the list grows back
            (fixed, "a box of one line, whatever it shows"),
        ]
        for widget, text in changes:
            before = len(counted)
            update(widget, text)
            await pilot.pause()
            await pilot.pause()
            shown.append(screen_text(app))
            layouts.append(len(counted) - before)
        return shown, layouts


async def test_a_line_updated_in_place_draws_as_updated_and_lays_out_only_when_its_height_changes(monkeypatch):
    by_textual, textual_layouts = await _updated(monkeypatch, lambda widget, text: widget.update(text))
    ours, layouts = await _updated(monkeypatch, update_in_place)
    assert ours == by_textual
    assert "Modifiers" in ours[2] and "unit 7" in ours[0] and "unit 7" not in ours[2] and "unit 7" in ours[4]  # the list made room, then took it back
    assert all(textual_layouts)  # Textual lays the screen out at every change
    assert [bool(n) for n in layouts] == [False, False, True, False, True, False]  # at the changes of height only

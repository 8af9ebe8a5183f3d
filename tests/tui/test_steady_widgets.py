"""A key typed in a field, or a line under a list changed, lays the screen out again
only when a size changes (tui.widgets.text_field, tui.widgets.in_place).

Each test runs a small app once with Textual's own way and once with ours, reads what
each draws, and counts the screen's layouts: the same drawing, fewer layouts."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Static

from tests.tui.helpers import letters, screen_text
from tests.tui.polling import until
from tests.tui.test_textual_private import counting_layouts
from tui.widgets.in_place import update_in_place
from tui.widgets.text_field import TextField

FITS = "Jena"  # shorter than each field's box (15 cells less its border and padding)
OUTGROWS = " and Auerstedt"  # then longer
FRAMES = 0.1  # seconds: a few of the screen's refreshes (60 a second), however loaded the machine
KINDS = ({"placeholder": "longer than the box"}, {"compact": True})  # a border and padding, or none


class _Fields(App):
    CSS = "Input { width: 50%; }"

    def __init__(self, field: type[Input]) -> None:
        super().__init__()
        self.field = field

    def compose(self) -> ComposeResult:
        for n, kwargs in enumerate(KINDS):
            yield self.field(id=f"field-{n}", **kwargs)  # type: ignore[arg-type]
        yield Static("below", id="below")


async def _typed(monkeypatch, field: type[Input]) -> tuple[list[str], list[int], list[int], list[int]]:
    """What the screen shows after each key typed in each field in turn (then Home, End,
    a word deleted), the layouts counted in each while the text fits and once it
    outgrows the box, and how far each scrolls once the boxes are made narrower."""
    counted = counting_layouts(monkeypatch)
    app = _Fields(field)
    shown, fitting, grown = [], [], []
    async with app.run_test(size=(30, 12)) as pilot:
        await until(pilot, lambda: "below" in screen_text(app), "the fields shown")
        for n in range(len(KINDS)):
            box = app.query_one(f"#field-{n}", Input)
            box.focus()
            await pilot.press(FITS[0])  # the first key: the box's width is known from here
            await pilot.pause()
            before = len(counted)
            for key in letters(FITS[1:]):
                await pilot.press(key)
                shown.append(screen_text(app))
            await pilot.pause(FRAMES)  # a layout asked for is done at the screen's next refresh
            fitting.append(len(counted) - before)
            for key in [*letters(OUTGROWS), "home", "end", "ctrl+w"]:
                await pilot.press(key)
                shown.append(screen_text(app))
            grown.append(len(counted) - before - fitting[-1])
            assert box.value == FITS + " and "
        await pilot.resize_terminal(24, 12)
        await until(pilot, lambda: app.query_one("#field-0").outer_size.width == 12, "the fields made narrower")
        await pilot.pause(FRAMES)  # and told so (Resize)
        furthest = [app.query_one(f"#field-{n}", Input).max_scroll_x for n in range(len(KINDS))]
    return shown, fitting, grown, furthest


async def test_a_text_field_draws_as_an_input_and_lays_out_only_when_its_text_outgrows_it(monkeypatch):
    by_textual, textual_fitting, textual_grown, textual_furthest = await _typed(monkeypatch, Input)
    ours, fitting, grown, furthest = await _typed(monkeypatch, TextField)
    assert ours == by_textual  # every key's drawing, scrolled past the box and back, in each kind of field
    assert any("stedt" in s for s in ours) and "and" in ours[-1]
    assert all(textual_fitting)  # Textual: a layout for each key (keys typed within one frame share it)
    assert fitting == [0] * len(KINDS)
    assert all(textual_grown) and all(grown)  # past the box, the field scrolls and is laid out as Textual's is
    assert furthest == textual_furthest and any(furthest)  # made narrower, each scrolls as far as Textual's


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
            await pilot.pause(FRAMES)  # a layout asked for is done at the screen's next refresh
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

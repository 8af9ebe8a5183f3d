"""Textual's private API is used in tui/textual_private.py only, and still does there
what is relied on: a Textual upgrade that renames, reshapes or changes one fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import DataTable, Static

from tui import textual_private
from tui.textual_private import (
    CatchesUnhandledErrors, draw_offscreen, draw_soon, driver, forget_notice, lay_out_offscreen, live_notices, mount_offscreen,
    notification_messages, other_threads_running, refresh_pending, screen_update, settle_offscreen, stop_at_once,
)

from .helpers import screen_text
from .polling import until

ROOT = Path(__file__).resolve().parents[2]


def _textual_private_names() -> set[str]:
    import textual

    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"\bself\.(_[a-z]\w*)", text)) | set(re.findall(r"\bdef (_[a-z]\w*)", text))
    return names


def test_no_private_textual_name_outside_the_one_module():
    ours = [p for folder in ("tui", "tests", "benchmarks") for p in (ROOT / folder).rglob("*.py")]
    defined: set[str] = set()  # our own private names, some of which Textual happens to use too
    for path in [*ours, *(p for folder in ("models", "campaigns", "rules") for p in (ROOT / folder).rglob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        defined |= set(re.findall(r"\bdef (_[a-z]\w*)", text))
        defined |= set(re.findall(r"\bself\.(_[a-z]\w*)\s*(?::[^=\n]*)?=[^=]", text))
        defined |= set(re.findall(r"^\s+(_[a-z]\w*)\s*[:=]", text, re.M))
    private = _textual_private_names() - defined
    found = []
    for path in ours:
        if path.name in ("textual_private.py", Path(__file__).name):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            # (a line without "._" holds no attribute of a private name: the pattern is not tried on it)
            found += [
                f"{path.relative_to(ROOT)}:{number}: {name}"
                for owner, name in (re.findall(r"(\w*)\.(_[a-z]\w*)", line) if "._" in line else ())
                if name in private and owner != "os"  # os._exit
            ]
            # An import of a private name, or from a private module (textual._wait), is one too.
            imported = re.match(r"\s*from (textual[\w.]*) import (.+)", line)
            if imported:
                module, names = imported.groups()
                found += [
                    f"{path.relative_to(ROOT)}:{number}: {module}.{name}"
                    for name in re.findall(r"\w+", names.split("#")[0])
                    if name.startswith("_") or any(part.startswith("_") for part in module.split("."))
                ]
    assert not found, "private Textual names outside tui/textual_private.py:\n" + "\n".join(found)


def test_every_private_name_used_is_where_it_was_with_the_same_parameters():
    assert textual_private.problems() == []


def test_a_name_gone_or_reshaped_in_an_upgrade_is_named(monkeypatch):
    gone, reshaped = "_gone_in_a_new_release", "_refresh_layout"
    monkeypatch.setitem(textual_private.USED, "Screen", (*textual_private.USED["Screen"], gone))
    monkeypatch.setitem(textual_private.PARAMETERS, ("Screen", reshaped), ("self", "region"))
    assert textual_private.problems() == [
        f"Screen.{gone} is gone",
        f"Screen.{reshaped} takes (self, size, scroll), not (self, region, ...)",
    ]


class _Table(Screen):
    def compose(self) -> ComposeResult:
        yield Static("a table built off screen")
        table: DataTable = DataTable(id="table")
        table.add_columns("Unit", "SP")
        for n in range(40):
            table.add_row(f"unit {n}", n)
        yield table


class _Probe(CatchesUnhandledErrors):
    BINDINGS = [("x", "pressed('x')", ""), ("f", "fail", "")]
    caught: list[Exception] = []
    pressed: list[str] = []

    def action_pressed(self, key: str) -> None:
        self.pressed.append(key)

    def on_mount(self) -> None:
        self.push_screen(Screen())

    def unhandled_error(self, error: Exception) -> None:
        self.caught.append(error)
        stop_at_once(self, error, 3)

    def action_fail(self) -> None:
        raise ValueError("broken on purpose")


async def test_a_screen_built_off_screen_shows_without_being_built_again():
    app = _Probe()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = _Table()
        app.install_screen(screen, "table")
        await mount_offscreen(app, screen)
        assert screen.is_mounted and not screen.is_current
        table = screen.query_one("#table", DataTable)
        assert table.row_count == 40
        lay_out_offscreen(screen, app.size)
        await until(pilot, lambda: not settle_offscreen(screen, app.size), "the screen laid out with nothing left to settle")
        laid_out = table.region
        assert laid_out.width > 70 and laid_out.height > 10  # laid out at the app's size, not shown
        draw_offscreen(screen)
        assert "unit 0" not in screen_text(app)  # the screen shown is still the other one
        mounts = len(screen.children)
        await app.switch_screen("table")
        draw_soon(app.screen)
        await until(pilot, lambda: "unit 0" in screen_text(app), "the table shown")
        assert app.screen is screen and len(screen.children) == mounts
        assert table.region == laid_out  # shown as it was laid out
        assert "a table built off screen" in screen_text(app) and "unit 0" in screen_text(app)


async def test_a_layout_or_a_callback_due_at_the_next_refresh_is_pending_until_it_is_done():
    """tui.keys waits for what refresh_pending sees before the next key."""
    app = _Probe()
    async with app.run_test(size=(40, 10)) as pilot:
        await until(pilot, lambda: not refresh_pending(app.screen), "the screen laid out")
        ran: list[bool] = []
        seen: list[bool] = []
        app.screen.call_after_refresh(ran.append, True)
        # Looked at from the screen's queue, behind the callback and before any refresh.
        app.screen.call_later(lambda: seen.append(refresh_pending(app.screen) and not ran))
        await until(pilot, lambda: seen, "the look")
        assert seen == [True]
        draw_soon(app.screen)
        await until(pilot, lambda: ran and not refresh_pending(app.screen), "the refresh done, and the callback")


async def test_the_test_helpers_see_notices_screens_and_send_keys():
    app = _Probe()
    async with app.run_test(size=(40, 10)) as pilot:
        app.notify("a notice")
        await until(pilot, lambda: notification_messages(app), "the notice")
        assert notification_messages(app) == ["a notice"]
        assert screen_update(app) is not None
        from textual import events

        app.pressed = []

        key = events.Key("x", "x")
        key.set_sender(app)
        driver(app).send_message(key)
        await until(pilot, lambda: app.pressed, "the key x delivered")
        assert app.pressed == ["x"]


async def test_a_notice_forgotten_leaves_the_others_and_its_toast_goes():
    """tui.notices: the notices that give way to a new one are forgotten one by one, and
    their toasts go when the new one is shown."""
    app = _Probe()
    async with app.run_test(size=(60, 20), notifications=True) as pilot:
        for text in ("first", "second", "third"):
            app.notify(text, timeout=30)
        await until(pilot, lambda: len(app.screen.query("Toast")) == 3, "three toasts")
        live = live_notices(app)
        assert [n.message for n in live] == ["first", "second", "third"]  # oldest first
        forget_notice(app, live[1])
        assert [n.message for n in live_notices(app)] == ["first", "third"]
        app.notify("fourth", timeout=30)
        shown = lambda: sorted(str(t.render()) for t in app.screen.query("Toast"))  # noqa: E731
        await until(pilot, lambda: shown() == ["first", "fourth", "third"], "the forgotten toast gone with the new one shown")


async def test_an_unhandled_error_reaches_the_app_and_ends_it_with_its_code():
    app = _Probe()
    app.caught = []
    with pytest.raises(ValueError, match="broken on purpose"):  # run_test hands it on, as Textual's own handling does
        async with app.run_test() as pilot:
            await pilot.press("f")
            await pilot.pause()
    assert [str(e) for e in app.caught] == ["broken on purpose"]
    assert app.return_code == 3


async def test_pilot_waits_for_an_idle_app_in_the_slices_set(monkeypatch):
    """Every pause and every key pressed waits in the slices tests/tui/conftest.py sets."""
    import asyncio

    from .conftest import PILOT_SLICE

    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float, *args) -> None:
        slept.append(seconds)
        await real_sleep(seconds, *args)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    app = _Probe()
    async with app.run_test() as pilot:
        await pilot.pause()
        slept.clear()
        await pilot.pause()
        pause = list(slept)
        slept.clear()
        await pilot.press("x")
    assert pause.count(PILOT_SLICE) >= 2 and 1 / 50 not in pause  # two looks at least, none of Textual's 20 ms
    assert slept.count(PILOT_SLICE) >= 4 and 1 / 50 not in slept  # a key: two waits


def test_a_thread_on_a_cpu_is_seen_running_and_one_asleep_is_not():
    import threading
    import time

    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            pass

    asleep = threading.Thread(target=stop.wait)
    asleep.start()
    try:
        time.sleep(0.05)
        assert not other_threads_running()
        spinning = threading.Thread(target=spin)
        spinning.start()
        time.sleep(0.05)
        assert other_threads_running()
    finally:
        stop.set()
    asleep.join()
    spinning.join()


async def test_a_pause_lasts_while_a_worker_thread_runs():
    """The wait for an idle app does not end while a thread worker is still at work, even
    when the machine has not given it a CPU in a slice (its state is R)."""
    import time

    app = _Probe()
    async with app.run_test() as pilot:
        await pilot.pause()
        until = time.monotonic() + 0.3

        def work() -> None:
            while time.monotonic() < until:
                pass

        worker = app.run_worker(work, thread=True)
        await pilot.pause()
        # The worker runs until `until`; timed from there, not from after run_worker, which a
        # loaded machine may keep for more than the 0.05 s a bound of 0.25 s left it.
        assert time.monotonic() >= until, "the pause ended while the worker ran"
        await worker.wait()


def _decorated(f):
    import functools

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)
    return wrapper


class _Callbacks:
    def none(self): ...
    def one(self, a): ...
    def many(self, a, /, b, *args, c, d=1, **kwargs): ...
    def only_args(*args): ...
    @classmethod
    def of_class(cls, a, b): ...
    @staticmethod
    def static(a): ...
    @_decorated
    def wrapped(self, a, b, c): ...
    def __call__(self, a): ...

    import functools as _functools
    part = _functools.partialmethod(many, 1, c=2)


def test_a_callbacks_parameters_are_counted_from_its_code_as_textual_counts_them():
    import functools

    from textual import _callback

    AdjutantApp_ = __import__("tui.app", fromlist=["AdjutantApp"]).AdjutantApp
    AdjutantApp_(None, prepare=False)  # the app turns the quick count on
    ours = _callback._count_parameters
    textual_count = ours.replaces
    assert textual_count.__module__ == "textual._callback"
    made = _Callbacks()

    def plain(a, b=2, *, c): ...
    def signed(a, b): ...
    signed.__signature__ = __import__("inspect").signature(lambda a: None)  # type: ignore[attr-defined]

    callables = [
        plain, lambda: None, lambda x, *y, **z: None, signed, _decorated(plain),
        made.none, made.one, made.many, made.only_args, made.of_class, _Callbacks.of_class, made.static,
        _Callbacks.many, made.wrapped, made.part, made, len, print, _Callbacks, functools.partial(plain, 1),
    ]
    for f in callables:
        assert ours(f) == textual_count(f), f
    # a fresh partial of a method each time, as call_later(method, x) makes: counted by ours
    for f in (made.one, made.many, plain):
        assert _callback.count_parameters(functools.partial(f, 1)) == textual_count(f) - 1, f


class _Fills(Screen):
    """A screen that fills its line in as it is shown: the line asks for a layout."""

    def compose(self) -> ComposeResult:
        yield Static("", id="line")

    def on_show(self) -> None:
        self.query_one("#line", Static).update("\n".join(f"line {n}" for n in range(5)))


def counting_layouts(monkeypatch) -> list[Screen]:
    """Each screen laid out from now on, once per layout (Screen._refresh_layout)."""
    counted: list[Screen] = []
    textual_layout = Screen._refresh_layout

    def count(self: Screen, size=None, scroll: bool = False) -> None:
        counted.append(self)
        textual_layout(self, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", count)
    return counted


async def _layouts_of_a_screen_shown_then_resized(monkeypatch) -> tuple[int, int]:
    counted = counting_layouts(monkeypatch)
    app = _Probe()
    async with app.run_test(size=(40, 12)) as pilot:
        screen = _Fills()
        await app.push_screen(screen)
        await until(pilot, lambda: screen.query_one("#line").size.height == 5, "the line's five rows laid out")
        await pilot.pause()
        shown = counted.count(screen)
        await pilot.resize_terminal(30, 10)
        await until(pilot, lambda: screen.query_one("#line").size.width == 30, "the line as wide as the screen")
        assert screen.query_one("#line").size.height == 5
        return shown, counted.count(screen) - shown


async def test_a_screen_shown_is_laid_out_once_for_its_size_and_again_when_resized(monkeypatch):
    # Textual alone lays the screen out as it is shown, again for the Resize that layout
    # sends the screen, and again for the layout the line asked for: with
    # lay_out_once_per_size the Resize's is left out, and the line is laid out all the same.
    textual_resized = getattr(Screen._screen_resized, "replaces", Screen._screen_resized)
    with monkeypatch.context() as textual_only:
        textual_only.setattr(Screen, "_screen_resized", textual_resized)
        shown_before, resized_before = await _layouts_of_a_screen_shown_then_resized(textual_only)
    textual_private.lay_out_once_per_size()
    textual_private.lay_out_once_per_size()  # the app calls it for each app made: once is once
    shown, resized = await _layouts_of_a_screen_shown_then_resized(monkeypatch)
    assert shown == shown_before - 1
    assert resized >= 1 and resized <= resized_before  # a real resize still lays the screen out


def test_css_is_parsed_once_per_process_for_each_theme_and_refused_when_wrong():
    from textual.css.stylesheet import Stylesheet, StylesheetParseError

    __import__("tui.app", fromlist=["AdjutantApp"]).AdjutantApp(None, prepare=False)  # the app turns the cache on
    textual_parse = Stylesheet._parse_rules.replaces  # type: ignore[attr-defined]
    css = "Label { color: $accent; background: $panel; } #probe-only { width: 3; }"
    dark, light = ({"accent": "#ff0000", "panel": "#000000"}, {"accent": "#0000ff", "panel": "#ffffff"})

    def rules(variables: dict[str, str], text: str = css) -> list:
        sheet = Stylesheet(variables=dict(variables))  # a new stylesheet, as every reparse and every app makes
        sheet.add_source(text, read_from=("probe.tcss", ""))
        return sheet.rules

    first, again = rules(dark), rules(dark)
    assert [id(r) for r in again] == [id(r) for r in first]  # parsed once: the same rules handed out again
    by_textual = list(textual_parse(Stylesheet(variables=dict(dark)), css, ("probe.tcss", "")))
    assert [r.css for r in first] == [r.css for r in by_textual]  # what Textual's own parse gives
    other = rules(light)  # another theme: parsed with its colours, not the first theme's rules
    assert [r.css for r in other] == [r.css for r in textual_parse(Stylesheet(variables=dict(light)), css, ("probe.tcss", ""))]
    assert [r.css for r in other] != [r.css for r in first]
    for _ in range(2):  # a source with an error is refused every time it is read, kept or not
        with pytest.raises(StylesheetParseError):
            rules(dark, "Label { colour: red; }")


class _Grows(Screen):
    """A line in a box whose text grows by two rows when asked."""

    def compose(self) -> ComposeResult:
        yield Static("one\ntwo", id="line")
        yield Static("below", id="below")


async def _layouts_as_a_line_grows(monkeypatch) -> tuple[int, Static]:
    counted = counting_layouts(monkeypatch)
    app = _Probe()
    async with app.run_test(size=(40, 12)) as pilot:
        screen = _Grows()
        await app.push_screen(screen)
        line = screen.query_one("#line", Static)
        await until(pilot, lambda: line.size.height == 2, "the line's two rows laid out")
        await pilot.pause()
        before = counted.count(screen)
        line.update("one\ntwo\nthree\nfour")
        await until(pilot, lambda: line.size.height == 4, "the line's four rows laid out")
        await pilot.pause()
        assert line.virtual_size == line.size  # its size found by the layout, stored
        assert screen.query_one("#below").region.y == line.region.bottom  # what is below moved down
        assert "four" in screen_text(app) and "below" in screen_text(app)
        return counted.count(screen) - before, line


async def test_a_line_that_grows_is_laid_out_once_not_again_for_its_new_size(monkeypatch):
    # Textual lays the screen out for the longer text, then again because that layout
    # stored the line's new (virtual) size through a reactive that asks for a layout.
    textual_size_updated = getattr(Widget._size_updated, "replaces", Widget._size_updated)
    with monkeypatch.context() as textual_only:
        textual_only.setattr(Widget, "_size_updated", textual_size_updated)
        by_textual, _line = await _layouts_as_a_line_grows(textual_only)
    textual_private.one_layout_for_the_sizes_found()
    textual_private.one_layout_for_the_sizes_found()  # the app calls it for each app made: once is once
    assert getattr(Widget._size_updated, "replaces", None) is textual_size_updated
    ours, _line = await _layouts_as_a_line_grows(monkeypatch)
    assert by_textual == 2
    assert ours == 1


class _Beneath(Screen):
    def compose(self) -> ComposeResult:
        yield Static("top", id="line")
        yield Static("under the line", id="below")


class _Form(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static("a form")


async def _layouts_as_a_form_closes(monkeypatch, change_beneath: bool) -> int:
    counted = counting_layouts(monkeypatch)
    app = _Probe()
    async with app.run_test(size=(40, 12)) as pilot:
        screen = _Beneath()
        await app.push_screen(screen)
        await until(pilot, lambda: "under the line" in screen_text(app), "the screen beneath shown")
        form = _Form()
        await app.push_screen(form)
        await until(pilot, lambda: "a form" in screen_text(app), "the form shown")
        line = screen.query_one("#line", Static)
        before = counted.count(screen)
        if change_beneath:
            line.update("top\nmiddle\nbottom")  # asks for a layout while the form is in front
            await pilot.pause()
        form.dismiss()
        await until(pilot, lambda: app.screen is screen and "a form" not in screen_text(app), "the form gone")
        await pilot.pause()
        shown = screen_text(app)
        assert "under the line" in shown
        if change_beneath:  # laid out as it came back in front: the line's three rows, the rest below
            assert line.size.height == 3 and "bottom" in shown
            assert screen.query_one("#below").region.y == 3
        return counted.count(screen) - before


async def test_a_form_closed_leaves_the_screen_beneath_redrawn_not_laid_out_again(monkeypatch):
    textual_prune = getattr(App._prune, "replaces", App._prune)
    with monkeypatch.context() as textual_only:
        textual_only.setattr(App, "_prune", textual_prune)
        by_textual = await _layouts_as_a_form_closes(textual_only, change_beneath=False)
    textual_private.no_layout_when_a_screen_closes()
    textual_private.no_layout_when_a_screen_closes()  # the app calls it for each app made: once is once
    assert getattr(App._prune, "replaces", None) is textual_prune
    ours = await _layouts_as_a_form_closes(monkeypatch, change_beneath=False)
    changed = await _layouts_as_a_form_closes(monkeypatch, change_beneath=True)
    assert by_textual >= 1  # Textual laid the screen beneath out again, nothing changed in it
    assert ours == 0
    assert changed >= 1  # what changed beneath is laid out all the same


class _CountsDrawing(Static):
    drawn = 0

    def render_lines(self, crop):  # type: ignore[no-untyped-def]
        type(self).drawn += 1
        return super().render_lines(crop)


async def _drawn_while_changing(times: int) -> tuple[int, str]:
    """How often a widget drew its lines while its text changed `times` times, the app
    idle after each change, and what the screen shows at the end."""
    class Shows(App):
        def compose(self) -> ComposeResult:
            yield _CountsDrawing("0", id="counter")

    app = Shows()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        _CountsDrawing.drawn = 0
        for n in range(1, times + 1):
            app.query_one("#counter", Static).update(f"changed {n}")
            await pilot.pause()
        drawn = _CountsDrawing.drawn
        return drawn, screen_text(app)


async def test_a_headless_app_draws_only_what_the_test_looks_at():
    drawn, shown = await _drawn_while_changing(5)
    assert drawn == 0  # five frames nobody saw: none drawn
    assert "changed 5" in shown  # what the test looks at is drawn, as it is now


@pytest.mark.every_frame
async def test_an_app_test_marked_every_frame_draws_each_frame():
    drawn, shown = await _drawn_while_changing(5)
    assert drawn >= 5
    assert "changed 5" in shown

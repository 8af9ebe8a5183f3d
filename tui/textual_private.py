"""Every use of Textual's private API, in one place.

Textual (pinned in pyproject.toml and constraints.txt) offers no public way to
do what these functions do. Each one says why it is needed and what the public
way would cost; tests/tui/test_textual_private.py checks that every name used
here still exists with the parameters used and still does what is relied on, so
a Textual upgrade that breaks one fails that test, by name, before anything else.
Nothing else in tui/ or tests/ may touch a private Textual name (the same test
greps for them).

What a newer Textual may change here, and what to do then, is in the README
("Following Textual").
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.widget import AwaitMount, Widget

if TYPE_CHECKING:
    from textual.widgets import Select
    from textual.driver import Driver
    from textual.geometry import Size
    from textual.screen import Screen
    from textual.notifications import Notification

# The private names used below, by owner: problems() checks each exists.
USED = {
    "App": ("_prune", "_load_screen_css", "_register", "_handle_exception", "_notifications", "_driver", "_background_screens",
            "_exception", "_exception_event", "_return_code", "_close_messages_no_wait", "_update_mouse_over",
            "_unnotify"),
    "Screen": ("_update_auto_focus", "_refresh_layout", "_layout_required", "_compositor", "_on_timer_update",
               "_screen_resized", "_layout_widgets", "_scroll_required", "_compositor_refresh", "_dirty_widgets", "_callbacks"),
    "Compositor": ("render_update", "_dirty_regions", "visible_widgets"),
    "Widget": ("_size_updated", "_anchored"),
    "Select": ("_options", "_value", "_allow_blank", "_type_to_search", "_watch_value", "_setup_options_renderables",
               "_select_current_toggle"),
    "textual._wait": ("SLEEP_GRANULARITY", "SLEEP_IDLE", "wait_for_idle"),
    "textual._callback": ("_count_parameters",),
    "Stylesheet": ("_parse_rules", "_variables"),
}
# The parameters each method is called with, first ones first.
PARAMETERS = {
    ("App", "_load_screen_css"): ("self", "screen"),
    ("App", "_prune"): ("self", "*nodes", "parent"),
    ("App", "_register"): ("self", "parent", "*widgets"),
    ("App", "_handle_exception"): ("self", "error"),
    ("App", "_close_messages_no_wait"): ("self",),
    ("Screen", "_refresh_layout"): ("self", "size"),
    ("Screen", "_update_auto_focus"): ("self",),
    ("Screen", "_on_timer_update"): ("self",),
    ("Screen", "_screen_resized"): ("self", "size"),
    ("Screen", "_compositor_refresh"): ("self",),
    ("App", "_update_mouse_over"): ("self", "screen"),
    ("App", "_unnotify"): ("self", "notification", "refresh"),
    ("Compositor", "render_update"): ("self", "full", "screen_stack"),
    ("Widget", "_size_updated"): ("self", "size", "virtual_size", "container_size", "layout"),
    ("textual._wait", "wait_for_idle"): ("min_sleep", "max_sleep"),
    ("textual._callback", "_count_parameters"): ("func",),
    ("Select", "_watch_value"): ("self", "value"),
    ("Select", "_setup_options_renderables"): ("self",),
    ("Select", "_select_current_toggle"): ("self", "event"),
    ("Stylesheet", "_parse_rules"): ("self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"),
}


@cache
def _class_source(cls: type) -> str:
    """The source of a Textual class, read once a process: inspect.getsource parses the
    whole module each time (Widget's, DOMNode's and MessagePump's come again in the MRO of
    each owner), 0.6 s of CPU a call of problems() read them 17 times."""
    import inspect

    return inspect.getsource(cls)


def problems() -> list[str]:
    """What a Textual upgrade changed of the private names used here, one line each;
    empty while every one is where it was with the parameters passed
    (tests/tui/test_textual_private.py; the behaviour is tested there too)."""
    import importlib
    import inspect
    import re

    from textual._compositor import Compositor
    from textual.css.stylesheet import Stylesheet
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import Select

    from textual import _callback, _wait

    owners = {"App": App, "Screen": Screen, "Compositor": Compositor, "Widget": Widget, "Select": Select, "textual._wait": _wait,
              "textual._callback": _callback, "Stylesheet": Stylesheet}
    found = []
    for owner, names in USED.items():
        cls = owners[owner]
        mro = cls.__mro__ if isinstance(cls, type) else ()
        source = "".join(_class_source(c) for c in mro if c.__module__.startswith("textual"))
        for name in names:  # a method, class or module attribute, or an attribute each instance is given
            if not hasattr(cls, name) and not re.search(rf"self\.{name}\b", source):
                found.append(f"{owner}.{name} is gone")
    for module in ("textual.app", "textual.pilot"):  # where the waits for an idle app are called from
        called = getattr(importlib.import_module(module), "wait_for_idle", None)
        if called is not _wait.wait_for_idle and not getattr(called, "in_slices", False):  # not ours either
            found.append(f"{module} no longer calls textual._wait.wait_for_idle")
    if getattr(_callback, "count_parameters", None) is None:  # what calls the count replaced below
        found.append("textual._callback.count_parameters is gone")
    for (owner, name), expected in PARAMETERS.items():
        method = getattr(owners[owner], name, None)
        if method is None:
            continue
        method = getattr(method, "replaces", method)  # ours, in place of Textual's (count_parameters_quickly)
        given = [("*" if p.kind is inspect.Parameter.VAR_POSITIONAL else "") + p.name
                 for p in inspect.signature(method).parameters.values()]
        if tuple(given[: len(expected)]) != expected:
            found.append(f"{owner}.{name} takes ({', '.join(given)}), not ({', '.join(expected)}, ...)")
    return found

# -- screens built before they are shown (tui.app.AdjutantApp.prepare_screens) ----------
#
# A screen is composed, mounted, filled, laid out and drawn off screen after
# start-up, so that its first visit only shows it. The public way (building it
# when its key is pressed) costs 200-600 ms on a campaign of 5,000 units against
# 25-70 ms for a prepared one (README, "Benchmarks"). switch_screen does these
# steps itself the first time a screen is shown; here they are done without
# showing it.


def mount_offscreen(app: App, screen: Screen) -> Awaitable[Any]:
    """Read the screen's CSS, then compose and mount it (and its children) without showing it."""
    app._load_screen_css(screen)
    return AwaitMount(screen, app._register(app, screen))


def lay_out_offscreen(screen: Screen, size: Size) -> None:
    """Focus what the screen would focus when shown, and lay it out at `size`."""
    screen._update_auto_focus()
    screen._refresh_layout(size)


def settle_offscreen(screen: Screen, size: Size) -> bool:
    """Style and lay out again if a widget asked for it since (a table that measured
    its rows); True if it did, so the caller tries again a frame later."""
    if not screen._layout_required:
        return False
    screen.update_node_styles(animate=False)
    screen._refresh_layout(size)
    screen._layout_required = False  # what the screen's own refresh does after a layout
    return True


def draw_offscreen(screen: Screen) -> None:
    """Draw every widget of the screen once, where nobody sees it: each keeps its lines."""
    screen._compositor.render_update(full=True)


def draw_soon(screen: Screen) -> None:
    """Draw the screen as soon as it has handled its messages, rather than at the next
    tick of its refresh timer, up to a frame (1/60 s) later."""
    screen.call_later(screen._on_timer_update)


def refresh_pending(screen: Screen) -> bool:
    """Whether the screen has a layout or a scroll still to apply at its next refresh, or
    callbacks waiting for that refresh (`call_after_refresh`: the scroll to a row a container
    does once laid out). tui.keys waits for them before the next key. The public way
    (`call_after_refresh` alone) waits for a refresh whatever has changed, a letter typed or a
    cursor moved within the view: a frame for every key, 10 ms of a burst's key on the dev
    machine against 4 (30 keys)."""
    return bool(screen._layout_required or screen._scroll_required or screen._callbacks)


def draw_changes(screen: Screen) -> object:
    """Draw what changed on the screen now, as its next refresh would (benchmarks)."""
    return screen._compositor.render_update(full=False)


# -- a Select whose list is built when it is first opened (tui.screens.recon) ------------

_LISTED_ON_OPEN: type[Select[Any]] | None = None


def select_listed_on_open() -> type[Select[Any]]:
    """Select, its list of choices built when it is first opened rather than with it.

    A Select composes the list it opens (an OptionList laid over the screen, hidden
    until opened) and fills it as it is mounted: with its CSS read, styled and
    restyled as the value and the focus are set, about a tenth of the work of the
    reconnaissance screen's first visit on the UI thread (counted in calls), for a
    list most visits never open. This one draws the same
    (the hidden list takes no room) and builds the list on the first Enter, Space,
    arrow or click, before the Select opens it as its own. What Select does with its
    list is private (compose, _setup_options_renderables, _watch_value): the list is
    left out of those until it is built. Its `compact` is the Select's as built (a
    Select binds it to its own); the class is made on first use, as Select's module
    is imported only then."""
    global _LISTED_ON_OPEN
    if _LISTED_ON_OPEN is None:
        from textual import on
        from textual.app import ComposeResult
        from textual.widgets import Select
        from textual.widgets._select import NoSelection, SelectCurrent, SelectOverlay

        class ListedOnOpen(Select[Any]):
            _listed = False  # the list built

            def compose(self) -> ComposeResult:
                current = SelectCurrent(self.prompt)
                if not self._allow_blank:
                    # It shows a value from the start (the first, unless given): styled so
                    # as it is built, not restyled as the value is set on mount.
                    current.add_class("-has-value", update=False)
                    current.set_reactive(SelectCurrent.has_value, True)
                yield current

            async def _list(self) -> None:
                if self._listed:
                    return
                self._listed = True
                overlay = SelectOverlay(type_to_search=self._type_to_search)
                overlay.compact = self.compact
                await self.mount(overlay)
                self._setup_options_renderables()
                # Highlighted on the value, as Select's _watch_value highlights it.
                overlay.highlighted = next((i for i, (_prompt, v) in enumerate(self._options) if v == self.value), None)

            def _setup_options_renderables(self) -> None:
                if self._listed:
                    super()._setup_options_renderables()

            def _watch_value(self, value: Any) -> None:
                if self._listed:
                    super()._watch_value(value)
                    return
                # Select's own, but for the highlight in the list not built yet.
                self._value = value
                current = self.query(SelectCurrent)
                if not current:
                    return
                if isinstance(value, NoSelection):
                    current.first().update(value)
                else:
                    prompt = next((prompt for prompt, v in self._options if v == value), None)
                    if prompt is not None:
                        current.first().update(prompt)
                self.post_message(self.Changed(self, value))

            @on(SelectCurrent.Toggle)
            async def _list_first(self, _event: SelectCurrent.Toggle) -> None:
                await self._list()  # then Select's own handler opens it

            async def action_show_overlay(self) -> None:  # type: ignore[override]  # Select's, awaited: the list built first
                await self._list()
                super().action_show_overlay()

        _LISTED_ON_OPEN = ListedOnOpen
    return _LISTED_ON_OPEN


# -- an error no handler caught (tui.app.AdjutantApp.unhandled_error) --------------------


class CatchesUnhandledErrors(App):
    """Textual prints a traceback for an error nothing handled; an app with this base
    gets it in `unhandled_error(error)` instead (Textual has no public hook)."""

    def unhandled_error(self, error: Exception) -> None:
        textual_handles(self, error)

    def _handle_exception(self, error: Exception) -> None:
        self.unhandled_error(error)


def textual_handles(app: App, error: Exception) -> None:
    """Textual's own handling: the traceback, and exit code 1."""
    App._handle_exception(app, error)


def stop_at_once(app: App, error: Exception, return_code: int) -> None:
    """Close the app now with `return_code`, the error kept as Textual keeps it, so that
    run_test() raises it in tests (as Textual's own handling does)."""
    if app._exception is None:
        app._exception = error
        app._exception_event.set()
    app._return_code = return_code
    app._close_messages_no_wait()


# -- tests ---------------------------------------------------------------------------


def screen_update(app: App) -> object:
    """What the terminal shows, modals over their screens, as a Rich renderable
    (run_test draws nothing to a terminal; export_screenshot gives SVG only)."""
    return app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)


def widget_update(widget: Widget) -> tuple[int, list[Any]]:
    """What the terminal shows of `widget`, as screen_update draws it (cut to where it is
    seen): the screen row of its first line, and its lines (strips). Only the widget is
    drawn: screen_update draws every widget of the screen, and a test that read the lines
    under the map after each move of its cursor drew the whole map each time (some 120 ms
    at 120x40). No public way draws one widget as the screen shows it."""
    from textual.geometry import Region

    region, clip = widget.screen._compositor.visible_widgets[widget]
    seen = region.intersection(clip)
    return seen.y, widget.render_lines(Region(seen.x - region.x, seen.y - region.y, seen.width, seen.height))


def notification_messages(app: App) -> list[str]:
    """The notices raised and not yet expired, oldest first (run_test shows no toasts)."""
    return [n.message for n in app._notifications]


def live_notices(app: App) -> list[Notification]:
    """The notices raised and not yet expired, oldest first, as the toasts show them."""
    return list(app._notifications)


def forget_notice(app: App, notification: Notification) -> None:
    """Forget one notice: its toast goes at the rack's next refresh (the new notice's).
    Textual keeps every notice until its timeout, and its only public way to drop one,
    clear_notifications, drops them all (tui.notices says which give way)."""
    app._unnotify(notification, refresh=False)


def driver(app: App) -> Driver:
    """The app's driver, to send keys as a terminal does, all at once (Pilot's press waits between keys)."""
    driver = app._driver
    assert driver is not None, "the app is not running"
    return driver


def select_options(select: Select[Any]) -> list[tuple[str, Any]]:
    """(label, value) of every choice a Select offers, in order: what a form lists
    (Select keeps them only privately; setting a value would only say yes or no)."""
    return [(str(label), value) for label, value in select._options]



def forget_cached_widgets() -> None:
    """Empty the two caches in which Textual keeps widgets' own objects after their app
    has ended: StylesCache.get_inner_outer and DataTable._get_styles_to_render_cell are
    functools.lru_cache on methods, so each keeps `self` (up to 1,024 styles caches with
    every line they drew, up to 32 tables). An app run once never notices; in a test
    worker that runs hundreds of apps they stayed alive, and every full collection went
    through them again (tests/tui/conftest.py). No public way empties them."""
    from textual._styles_cache import StylesCache
    from textual.widgets import DataTable

    StylesCache.get_inner_outer.cache_clear()
    DataTable._get_styles_to_render_cell.cache_clear()


# -- Pilot's wait for an idle app, in short slices (tests/tui/conftest.py) -----------------


# Each thread's /proc stat file, kept open and read again from its start (the kernel makes
# the text afresh at each read from offset 0): opening and closing each at every look of a
# pause was two thirds of the look's cost (62 against 22 us with five threads). By thread
# id, for the process that opened them (a forked child has threads and files of its own).
_STAT_FILES: dict[str, int] = {}
_STAT_PID = [0]


def other_threads_running() -> bool:
    """Whether a thread of this process other than the caller is on a CPU or waiting for
    one (Linux: state R, or D for disk) rather than asleep; False where /proc cannot tell."""
    import os
    import threading

    me = str(threading.get_native_id())
    try:
        threads = os.listdir("/proc/self/task")
    except OSError:
        return False
    files = _STAT_FILES
    if _STAT_PID[0] != os.getpid():
        files.clear()  # a forked child's: the parent's files name the parent's threads
        _STAT_PID[0] = os.getpid()
    for gone in files.keys() - set(threads):  # threads that ended
        os.close(files.pop(gone))
    running = False
    for thread in threads:
        if thread == me:
            continue
        try:
            line = _stat_line(files, thread)
        except OSError:  # ended meanwhile
            continue
        end = line.rfind(b")")  # the state is the field after "(name)"
        if end >= 0 and line[end + 2 : end + 3] in (b"R", b"D"):
            running = True
            break
    return running


def _stat_line(files: dict[str, int], thread: str) -> bytes:
    """The stat line of `thread`, from its file kept open (opened now if it is not)."""
    import os

    kept = files.pop(thread, None)
    if kept is not None:
        try:
            line = os.pread(kept, 1024, 0)
        except OSError:
            line = b""
        if line:
            files[thread] = kept
            return line
        os.close(kept)  # a thread that ended, its id maybe since given to another
    stat = os.open(f"/proc/self/task/{thread}/stat", os.O_RDONLY | os.O_CLOEXEC)
    try:
        line = os.pread(stat, 1024, 0)
    except OSError:
        os.close(stat)
        raise
    files[thread] = stat
    return line


def wait_for_idle_in_slices(seconds: float, idle: float, looks: int = 2) -> None:
    """Let Pilot's waits for an idle app (every pause, and twice after every key it
    presses) look every `seconds` rather than every 1/50 s. The app counts as idle after
    `looks` slices in a row in which the process used less than `idle` seconds of CPU
    and no thread of it but the test's was running or waiting for a CPU.

    Textual looks once, at CPU time only: most pauses of an app test find the app idle
    at the first look, yet each took a whole slice (20 ms), and each key pressed two.
    In a short slice on a loaded machine, a worker thread that the system has not given
    a CPU to uses none, and CPU time alone called the app idle while it still ran; a
    thread waiting for a CPU is in state R, which the look at the threads sees. Pilot
    takes no parameter for any of it: its module-level waits are replaced."""
    import asyncio
    from time import monotonic, process_time

    import textual.app
    import textual.pilot
    from textual import _wait

    async def wait_for_idle(min_sleep: float = seconds, max_sleep: float = 1) -> None:
        start = monotonic()
        quiet = 0
        while True:
            cpu = process_time()
            await asyncio.sleep(seconds)
            used = process_time() - cpu
            elapsed = monotonic() - start
            if elapsed >= max_sleep:
                return
            quiet = quiet + 1 if used < idle and not other_threads_running() else 0
            if elapsed > min_sleep and quiet >= looks:
                return

    wait_for_idle.in_slices = True  # type: ignore[attr-defined]
    for module in (textual.app, textual.pilot):  # each imported the function by name
        called = getattr(module, "wait_for_idle", None)
        if called is not _wait.wait_for_idle and not getattr(called, "in_slices", False):
            raise RuntimeError(f"{module.__name__} no longer calls textual._wait.wait_for_idle: see tui/textual_private.py")
    _wait.SLEEP_GRANULARITY = seconds
    _wait.SLEEP_IDLE = idle
    for module in (textual.app, textual.pilot):
        module.wait_for_idle = wait_for_idle  # type: ignore[attr-defined]


# -- counting a callback's parameters (tui.app, tests/tui/conftest.py) ----------------------


# Attributes through which inspect.signature would answer otherwise than the function's code.
_SIGNATURE_FROM_ELSEWHERE = ("__wrapped__", "__signature__", "__partialmethod__", "_partialmethod")


def count_parameters_quickly() -> None:
    """Count a callback's parameters from its code rather than with inspect.signature.

    Textual calls every callback (call_later, call_after_refresh, a message handler, a
    timer) with as many arguments as it takes, counted by textual._callback._count_parameters
    with inspect.signature. It keeps the count on the callable, so a method is counted
    once; but a callback with arguments bound (call_later(f, x) makes a new partial each
    time) or a lambda made afresh is counted again at every call: about 15-40 µs of CPU
    each, 12,600 times in tests/tui/test_resolution_form.py (2% of its CPU). For a plain
    Python function, or a method bound to one with a parameter besides `self`, the count
    is read from its code object (the same number: tests/tui/test_textual_private.py);
    anything else (a builtin, a class, a decorated or wrapped function) goes to Textual's
    own count. There is no public way to give Textual the count."""
    from inspect import CO_VARARGS, CO_VARKEYWORDS
    from types import FunctionType, MethodType

    from textual import _callback

    textual_count = getattr(_callback._count_parameters, "replaces", _callback._count_parameters)

    def _count_parameters(func: Any) -> int:
        bound = type(func) is MethodType
        function = func.__func__ if bound else func
        if type(function) is FunctionType and not any(name in function.__dict__ for name in _SIGNATURE_FROM_ELSEWHERE):
            code = function.__code__
            count = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & CO_VARARGS) + bool(code.co_flags & CO_VARKEYWORDS)
            if not bound:
                return count
            if code.co_argcount:  # `self` is bound (a method of only *args keeps them)
                return count - 1
        return int(textual_count(func))

    _count_parameters.replaces = textual_count  # type: ignore[attr-defined]
    _callback._count_parameters = _count_parameters


# -- one layout per size, not two (tui.app) ---------------------------------------------------


def lay_out_once_per_size() -> None:
    """A screen is laid out once when it is first shown, not twice.

    The first layout of a screen (pushed, switched to, or a modal opened) tells the
    screen itself it was resized, and Textual's handler of that Resize lays the whole
    screen out again at the same size, with nothing changed in between: every screen
    and every form, pick list or confirmation opened paid two full layouts. Opening
    a modal with a see-through background also lays out every screen behind it again.
    Most often a widget has asked for a layout meanwhile (it filled itself in as it
    was shown), and the screen's next update lays it out again anyway: Textual's
    Resize handler does not clear that request, so the screen was laid out three
    times. Here a resize to the size the screen was last laid out at does nothing
    when no layout is asked for, or when the screen is shown and its next update
    does the layout asked for; a real resize, or a screen behind a modal with a
    layout waiting, lays out as before. Measured on tests/tui/test_battles.py and test_resolver.py: 487 such
    layouts, 2.0 CPU-s of about 50 (tests/tui/test_textual_private.py checks that a
    screen shown is laid out once and a resize still lays it out). There is no public
    way to tell Textual a layout is already done."""
    from textual.screen import Screen

    textual_resized = getattr(Screen._screen_resized, "replaces", Screen._screen_resized)

    def _screen_resized(self: Screen, size: Size) -> None:
        if size == self._compositor.size:
            if not (self._layout_required or self._layout_widgets or self._scroll_required):
                return  # laid out at this size already, and nothing asked for a layout since
            if self._layout_required and self.is_current:
                return  # the layout asked for is done by the screen's next update, at this size
        textual_resized(self, size)

    _screen_resized.replaces = textual_resized  # type: ignore[attr-defined]
    Screen._screen_resized = _screen_resized  # type: ignore[method-assign]


# -- one layout for the sizes it finds, not a second one (tui.app) ---------------------------


def one_layout_for_the_sizes_found() -> None:
    """A layout that gives widgets a new size is not followed by a second, identical one.

    A layout tells each widget the size it found for it; Textual stores the widget's
    virtual (scrollable) size through a reactive that asks for a layout, so every
    layout in which a widget changed size (a line's text got longer, a screen shown for
    the first time, a form's field filled in) asked for another layout of the whole
    screen, with nothing changed in between: the same sizes found again. Counted on
    tests/tui/test_keys.py, test_march.py, test_resolution_form.py and
    test_prepared_screens.py: 249 of 1,115 whole-screen layouts were only that second
    one. Here the virtual size is stored without asking for a layout (as Textual does
    itself when it scrolls, `layout=False`), the widget is still redrawn as the
    reactive would have it, and a widget anchored to its end (whose scroll Textual sets
    from its virtual size as it lays out) keeps Textual's way. A scrolling view
    (ScrollView: DataTable, OptionList, Input) keeps its own virtual size and is not
    concerned. There is no public way to store a size found by a layout."""
    from textual.widget import Widget

    textual_size_updated = getattr(Widget._size_updated, "replaces", Widget._size_updated)

    def _size_updated(self: Widget, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        if not layout or self._anchored:
            return bool(textual_size_updated(self, size, virtual_size, container_size, layout))
        redraw = self.virtual_size != virtual_size
        changed = textual_size_updated(self, size, virtual_size, container_size, False)
        if redraw:
            self.refresh()  # what the reactive asked for besides the layout
        return bool(changed)

    _size_updated.replaces = textual_size_updated  # type: ignore[attr-defined]
    Widget._size_updated = _size_updated  # type: ignore[method-assign]


# -- a screen closed redraws the one beneath, without laying it out (tui.app) ----------------


class _RedrawsOnly:
    """The app as the end of App._prune sees it once a screen is removed: its `screen`,
    and a refresh that redraws without laying out."""

    def __init__(self, app: App) -> None:
        self._app = app

    @property
    def screen(self) -> Screen:
        return self._app.screen

    def refresh(self, *, repaint: bool = True, layout: bool = False, recompose: bool = False) -> object:
        return self._app.refresh(repaint=repaint, recompose=recompose)


def no_layout_when_a_screen_closes() -> None:
    """A screen that closes (a form, a pick list, the palette) leaves the screen beneath
    redrawn, not laid out again.

    Textual removes a closed screen as it removes any widget, and then asks its parent
    (the app) for a layout: the whole screen beneath was laid out again with nothing
    changed in it, once for every form, confirmation or pick list closed. A widget of the
    screen beneath that changed meanwhile asked for its own layout, which that screen
    does as it comes back in front (Textual lays out only the screen in front); a resize
    meanwhile was applied to it already (`_screen_resized`); what the screen shows is
    redrawn as before. Removing anything else than a screen is Textual's own. There is
    no public way to remove a screen without the layout."""
    from textual.screen import Screen

    textual_prune = getattr(App._prune, "replaces", App._prune)

    def _prune(self: App, *nodes: Any, parent: Any = None) -> Any:
        if parent is self and nodes and all(isinstance(node, Screen) for node in nodes):
            parent = _RedrawsOnly(self)
        return textual_prune(self, *nodes, parent=parent)

    _prune.replaces = textual_prune  # type: ignore[attr-defined]
    App._prune = _prune  # type: ignore[method-assign]


# -- CSS parsed once per process, not at every screen's first visit (tui.app) --------------

# Parsed rules kept for the process, by source and the theme's variables: each
# app's sources under one theme (~60) times the themes a user tries.
CSS_PARSED_KEPT = 2048


def parse_css_once_per_process() -> None:
    """Parse each CSS source once for the process and the theme's variables, not again.

    Textual parses a source (the app's .tcss, a screen's CSS, a widget class's
    DEFAULT_CSS) into rules and keeps them in its stylesheet, but `Stylesheet.reparse`,
    run at the first visit to every screen with CSS of its own (App._load_screen_css)
    and at every theme change, parses every source again in a new stylesheet whose
    cache is empty: each first visit parsed the whole app's CSS anew (27-31 ms of CPU
    with the app's 21 sources, against 0.1 ms kept), and every app of a process (the
    tests run hundreds) did it again. The rules a source gives depend only on its text, where it was read from,
    its place and scope, and the variables (the theme's colours): with all of them as
    the key, the rules are the same objects Textual's own cache hands out again to the
    same stylesheet (nothing changes a rule once parsed). A source with errors is parsed
    and refused as before (Stylesheet.parse raises on the rules' errors). There is no
    public way to keep parsed CSS."""
    from textual.css.stylesheet import Stylesheet

    if hasattr(Stylesheet._parse_rules, "replaces"):
        return  # kept already: the cache lives as long as the process, for every app it runs
    textual_parse = Stylesheet._parse_rules
    kept: dict[tuple, Any] = {}
    themes: dict[tuple, int] = {}  # each set of variables seen, numbered: a short key to hash
    named: list[Any] = [None, 0]  # the variables dict last seen and its number

    def _parse_rules(self: Any, css: str, read_from: Any, is_default_rules: bool = False, tie_breaker: int = 0,
                     scope: str = "") -> Any:
        variables = self._variables
        if variables is not named[0]:
            named[:] = [variables, themes.setdefault(tuple(sorted(variables.items())), len(themes))]
        key = (css, read_from, is_default_rules, tie_breaker, scope, named[1])
        rules = kept.get(key)
        if rules is None:
            rules = textual_parse(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(kept) >= CSS_PARSED_KEPT:
                kept.clear()  # the numbers of the variables stay: a few per theme tried
            kept[key] = rules
        return rules

    _parse_rules.replaces = textual_parse  # type: ignore[attr-defined]
    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]


# -- in tests only: a frame drawn when the test looks at it (tests/tui/conftest.py) ---------


def draw_frames_only_when_looked_at(every_frame: Callable[[], bool]) -> None:
    """In tests only: an app run headless (run_test) no longer draws the frames nobody sees.

    A headless app has no terminal: Textual throws each frame away unwritten, but first
    draws it, every widget that changed rendering its lines (a third of an app test's
    CPU: tests/tui/test_oob.py, test_march.py and test_keys.py took 39-48 CPU-s drawing
    each frame, 24-32 without, paired runs). Here the screen in front, headless, forgets
    what changed instead of drawing it; what a test looks at (`screen_update`, a
    snapshot's SVG) is drawn whole when it looks, from the widgets as they are then. A
    test whose point is a frame drawn at an awkward moment (keys in bursts, the key
    sweep) asks for every frame (`every_frame()` true: the `every_frame` mark in
    tests/tui/conftest.py), and so does a snapshot test (a few widgets settle what they
    show as they are drawn: an option list's scroll bar, a plot's colours; a snapshot is
    the picture after every frame); the app run in a terminal (tmux, sshd, the browser: the
    end-to-end tests and the benchmarks) draws every frame as ever. There is no public
    way to run an app headless without drawing."""
    from textual.screen import Screen

    textual_refresh = getattr(Screen._compositor_refresh, "replaces", Screen._compositor_refresh)

    def _compositor_refresh(self: Screen) -> None:
        app = self.app
        if self is app.screen and app.is_headless and not app.is_inline and not every_frame():
            self._compositor._dirty_regions.clear()  # drawn whole when looked at
            self._dirty_widgets.clear()
            app._update_mouse_over(self)
            return
        textual_refresh(self)

    _compositor_refresh.replaces = textual_refresh  # type: ignore[attr-defined]
    Screen._compositor_refresh = _compositor_refresh  # type: ignore[method-assign]


# -- the input thread ended at once at quit (tui.app.AdjutantApp.get_driver_class) ---------


def driver_woken_at_exit(driver_class: type[Driver]) -> type[Driver]:
    """`driver_class`; for Textual's LinuxDriver (a real terminal: a console, tmux, ssh), a
    subclass whose input thread ends as soon as input is disabled, at quit or suspend.

    That thread waits for the terminal in `select` a tenth of a second at a time, and only
    then sees it should stop; once stopped it waits a last tenth with nothing to wait for
    (the terminal already left out of the selector). Quitting waits for the thread: every
    quit took 0.1-0.2 s longer than it needed. Here the selector it makes
    (linux_driver's module-level `selectors.SelectSelector()`) also watches a pipe of the
    driver's, written to when its `exit_event` is set; what that pipe wakes is not passed
    on as input. Textual offers no way to stop the thread sooner."""
    from textual.drivers import linux_driver

    if driver_class is not linux_driver.LinuxDriver:
        return driver_class
    global _WOKEN
    if _WOKEN is None:
        import os
        import selectors
        import threading
        import types

        if getattr(linux_driver, "selectors", None) is not selectors:
            raise RuntimeError("textual.drivers.linux_driver no longer makes its selector from `selectors`: see tui/textual_private.py")
        woken = threading.local()  # the wake pipe of the driver whose input thread this is

        def drain(fd: int) -> None:
            try:
                while os.read(fd, 512):
                    pass
            except BlockingIOError:
                pass

        class WakingSelector(selectors.SelectSelector):
            def __init__(self) -> None:
                super().__init__()
                self.wake: int | None = getattr(woken, "fd", None)
                if self.wake is not None:
                    self.register(self.wake, selectors.EVENT_READ)

            def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
                return [(key, events) for key, events in super().select(timeout) if key.fd != self.wake]

        class WakingEvent(threading.Event):
            """The driver's exit_event, with the pipe its input thread's selector watches: open
            while an input thread may run (closed with the driver, made again on a resume)."""

            def __init__(self) -> None:
                super().__init__()
                self.read: int | None = None
                self.write: int | None = None

            def open(self) -> int:
                if self.read is None:
                    self.read, self.write = os.pipe()
                    os.set_blocking(self.read, False)
                    os.set_blocking(self.write, False)
                return self.read

            def close(self) -> None:
                for fd in (self.read, self.write):
                    if fd is not None:
                        os.close(fd)
                self.read = self.write = None

            def set(self) -> None:
                super().set()
                if self.write is not None:
                    try:
                        os.write(self.write, b"x")  # after the flag: the thread it wakes sees it set
                    except BlockingIOError:  # full: a byte is there already
                        pass

            def clear(self) -> None:
                super().clear()
                if self.read is not None:
                    drain(self.read)  # the next input thread (after a resume) waits again

        class WokenAtExit(linux_driver.LinuxDriver):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self.exit_event = WakingEvent()
                self.reading = False  # while its input thread runs

            def run_input_thread(self) -> None:
                event = self.exit_event
                assert isinstance(event, WakingEvent)
                woken.fd, self.reading = event.open(), True
                try:
                    super().run_input_thread()
                finally:
                    woken.fd, self.reading = None, False

            def close(self) -> None:
                # At the end, and on a suspend (ctrl+z: stop_application_mode, close; the resume
                # starts a new input thread, which opens the pipe again).
                super().close()
                event = self.exit_event
                if isinstance(event, WakingEvent) and not self.reading:  # no input thread left to wake
                    event.close()

        WokenAtExit.__name__ = WokenAtExit.__qualname__ = "LinuxDriver"  # as Textual names it in its logs
        linux_driver.selectors = types.SimpleNamespace(**{**vars(selectors), "SelectSelector": WakingSelector})  # type: ignore[assignment]
        _WOKEN = WokenAtExit
    return _WOKEN


_WOKEN: type[Driver] | None = None

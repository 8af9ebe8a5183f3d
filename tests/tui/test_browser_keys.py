"""Keys a browser keeps (ctrl+n, ctrl+w, ctrl+t) never reach an app served by `adjutant serve`:
every binding on one of them answers to a second key too."""

from __future__ import annotations

import importlib
import pkgutil

from textual.binding import Binding
from textual.dom import DOMNode

import tui
from tui.app import AdjutantApp
from tui.commands import BROWSER_KEPT, browser_safe
from tests.tui.polling import until


def every_binding() -> list[tuple[str, Binding]]:
    for module in pkgutil.walk_packages(tui.__path__, "tui."):
        importlib.import_module(module.name)
    found = []
    pending = [DOMNode]
    while pending:
        cls = pending.pop()
        pending += cls.__subclasses__()
        if cls.__module__.startswith("tui."):
            found += [(cls.__name__, b) for b in cls.BINDINGS if isinstance(b, Binding)]
    return found


def test_every_binding_on_a_browser_kept_key_has_a_second():
    bindings = every_binding()
    assert any(owner == "StartScreen" for owner, _ in bindings) and any(owner == "AdjutantApp" for owner, _ in bindings)
    for owner, binding in bindings:
        keys = [k.strip() for k in binding.key.split(",")]
        for key in keys:
            if key in BROWSER_KEPT:
                assert BROWSER_KEPT[key] in keys, f"{owner}: {binding.id or binding.action} is on {key}, which a browser keeps"


def test_second_keys_are_added_once_and_bind_nothing_else():
    assert browser_safe("ctrl+n") == "ctrl+n,alt+n"
    assert browser_safe("ctrl+n,alt+n") == "ctrl+n,alt+n"
    assert browser_safe("q") == "q"
    seconds = set(BROWSER_KEPT.values())
    taken = [
        (owner, b.id or b.action) for owner, b in every_binding()
        if seconds & {k.strip() for k in b.key.split(",")} and not BROWSER_KEPT.keys() & {k.strip() for k in b.key.split(",")}
    ]
    assert taken == []
    assert {b.key for b in AdjutantApp.BINDINGS if isinstance(b, Binding)}  # the app's bindings come from tui/commands.py


async def test_alt_n_starts_a_new_campaign_on_the_start_screen():
    app = AdjutantApp(None, prepare=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: type(app.screen).__name__ == "StartScreen", "the start screen")
        app.set_focus(None)
        await pilot.press("alt+n")
        await until(pilot, lambda: app.focused is not None and app.focused.id == "scenario", "the focus on the scenario")

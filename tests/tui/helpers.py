"""What the app tests share: reading the screen as text, reopening the stored campaign."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from sqlmodel import Session
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget

from models import CampaignStore, open_campaign
from tui.textual_private import driver as keyboard
from tui.textual_private import notification_messages, screen_update, widget_update

from .polling import rest


def screen_text(app: App) -> str:
    """The terminal as plain text, modals included: each row's characters as drawn, the
    rows joined by newlines. The text Rich's export of the drawing gives (printed to a
    recording Console, as this did), read off the drawing's lines without printing them:
    a third of the CPU of each look a wait_for takes at the screen (4.3 to 1.5 ms at
    80x24, 8.6 to 2.5 ms at 120x40)."""
    return drawn_text(screen_update(app))


def drawn_text(update: object) -> str:
    """screen_text of a drawing already made (screen_update)."""
    lines = update.strips  # type: ignore[attr-defined]
    return "\n".join("".join(segment.text for strip in line for segment in strip if not segment.control) for line in lines)


def screen_rows(widget: Widget, top: int, bottom: int) -> list[str]:
    """Rows `top` to `bottom - 1` of screen_text that `widget` covers, drawing only the widget
    (a few rows read again and again under a big widget that changes: the map's canvas);
    the widget's columns only, and only the rows where it is seen."""
    first, lines = widget_update(widget)
    return ["".join(segment.text for segment in strip if not segment.control)
            for strip in lines[max(0, top - first) : max(0, bottom - first)]]


def screen_text_printed(app: App, update: object = None) -> str:
    """screen_text as Rich exports the drawing (`update`, or one made now) printed to a
    recording Console (the check that reading the lines gives the same text)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, record=True, legacy_windows=False)
    console.print(update if update is not None else screen_update(app))
    return console.export_text()


async def wait_for(pilot: Pilot, text: str, *, tries: int = 50, seconds: float = 15.0) -> str:
    """Let the app run until `text` is on the screen; the screen text. At least `tries`
    pauses and, on a loaded machine (the suite in parallel), up to `seconds`: a search or
    an action in a worker may take longer than fifty pauses."""
    deadline = time.monotonic() + seconds
    done = 0
    while True:
        await pilot.pause()
        shown = screen_text(pilot.app)
        if text in shown:
            return shown
        done += 1
        if done >= tries and time.monotonic() > deadline:
            raise AssertionError(f"{text!r} never appeared on the screen:\n{shown}")
        await rest(pilot, done)


def key(owner: type, binding_id: str) -> str:
    """The first key bound to `binding_id` on a screen class (or the app), so the
    tests follow a rebinding."""
    for binding in owner.BINDINGS:
        if getattr(binding, "id", None) == binding_id:
            return binding.key.split(",")[0]
    raise KeyError(f"{owner.__name__} has no binding {binding_id!r}")


async def wait_for_screen(pilot: Pilot, screen_type: type, *, tries: int = 50, seconds: float = 15.0) -> None:
    """As wait_for: at least `tries` pauses and, on a loaded machine, up to `seconds`."""
    deadline = time.monotonic() + seconds
    done = 0
    while True:
        await pilot.pause()
        if isinstance(pilot.app.screen, screen_type):
            return
        done += 1
        if done >= tries and time.monotonic() > deadline:
            raise AssertionError(f"the screen is {pilot.app.screen!r}, not a {screen_type.__name__}")
        await rest(pilot, done)


async def palette_offers(pilot: Pilot, text: str, *, seconds: float = 15.0) -> None:
    """Let the app run until the command palette's highlighted hit holds `text` (its search
    runs in a task: Enter before it ends picks nothing). A wait on the hit, not a fixed sleep."""
    from textual.command import CommandList

    from .polling import until

    def offered() -> bool:
        hits = pilot.app.screen.query(CommandList)
        highlighted = hits.first().highlighted if hits else None
        if highlighted is None:
            return False
        return text in str(hits.first().get_option_at_index(highlighted).prompt)

    try:
        await until(pilot, offered, f"the palette to offer {text!r}", seconds=seconds)
    except AssertionError as error:
        raise AssertionError(f"{error}:\n{screen_text(pilot.app)}") from None


def notices(app: App) -> list[str]:
    """The notices raised so far and not yet expired, oldest first; each, in the app, a
    sentence: a capital first letter (or a digit, a quote...) and a closing full stop.

    run_test() keeps toasts off the screen, so tests read them here. Every Pilot test
    that reads a notice checks them all, whatever the screen or refusal that raised them."""
    said = notification_messages(app)
    from tui.app import AdjutantApp

    if isinstance(app, AdjutantApp):
        loose = [n for n in said if n.strip() and not (not n.lstrip()[0].islower() and n.rstrip().endswith((".", "!", "?", "…")))]
        assert not loose, f"notices that are not sentences (a capital first, a full stop last): {loose}"
    return said


async def wait_for_notice(pilot: Pilot, text: str, *, tries: int = 50, seconds: float = 15.0) -> str:
    """Let the app run until a notice holding `text` is raised; that notice. As wait_for:
    at least `tries` pauses and, on a loaded machine, up to `seconds`."""
    deadline = time.monotonic() + seconds
    done = 0
    while True:
        await pilot.pause()
        found = [n for n in notices(pilot.app) if text in n]
        if found:
            return found[-1]
        done += 1
        if done >= tries and time.monotonic() > deadline:
            raise AssertionError(f"no notice holding {text!r}; notices: {notices(pilot.app)}")
        await rest(pilot, done)


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(c, c) for c in text])


@contextmanager
def stored(path: Path | str) -> Iterator[Session]:
    """The campaign file as stored on disk, opened afresh."""
    store: CampaignStore = open_campaign(path)
    try:
        with store.read() as db:
            yield db
    finally:
        store.close()


async def burst(pilot: Pilot, *keys: str, tries: int = 200, seconds: float = 15.0) -> None:
    """Send `keys` all at once, as a fast typist or `tmux send-keys` does: no
    pause between them for the app to catch up. Then wait until it has: as
    wait_for, at least `tries` pauses and, on a loaded machine, up to `seconds`."""
    from textual import events

    driver = keyboard(pilot.app)
    for name in keys:
        char = name if len(name) == 1 else {"space": " "}.get(name)
        event = events.Key(name, char)
        event.set_sender(pilot.app)
        driver.send_message(event)
    deadline = time.monotonic() + seconds
    done = 0
    while True:
        await pilot.pause()
        if not getattr(pilot.app, "keys_held", 0):
            await pilot.pause()
            return
        done += 1
        if done >= tries and time.monotonic() > deadline:
            raise AssertionError(f"the app never caught up with {keys}")


def letters(text: str) -> list[str]:
    """The key names that type `text`."""
    return [{" ": "space"}.get(c, c) for c in text]


def in_fresh_process(script: str, *args: str) -> object:
    """Run `script` with `args` in a Python process of its own, on this tree (what a
    process imports is asked of one that has imported nothing yet); the JSON of the
    last line it printed."""
    import json
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, timeout=120, cwd=root
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


ORM_MODULES = ("models.tables", "sqlalchemy.orm", "sqlmodel")


def imports_on_showing(steps: str, path: str) -> dict:
    """In a process of its own (a test's has imported everything long ago), an app on the
    campaign at `path`, without its background work (tui.app warm_up imports the ORM on
    purpose, once quiet), runs `steps`: Python lines inside `run_test`, with `app` and
    `pilot`, `until` (tests.tui.polling), `orm_imported()` (which of ORM_MODULES the process
    has imported so far: imports only add up, so steps that show screens one after another
    can tell which one brought them in), and `out`, a dict returned as JSON. `out["shown"]`
    is which of ORM_MODULES that process had imported once the steps were done."""
    import textwrap

    script = f"""
import asyncio, json, sys
from pathlib import Path
from campaigns.session import CampaignSession
from tests.tui.polling import until
from tui.app import AdjutantApp

def orm_imported():
    return [module for module in {ORM_MODULES!r} if module in sys.modules]

async def main(path):
    app = AdjutantApp(CampaignSession.open(Path(path)), prepare=False)
    app.animation_level = "none"
    out = {{}}
    async with app.run_test(size=(80, 24)) as pilot:
{textwrap.indent(textwrap.dedent(steps).strip(), " " * 8)}
        await app.workers.wait_for_complete()
        out["shown"] = orm_imported()
    print(json.dumps(out))

asyncio.run(main(sys.argv[1]))
"""
    shown = in_fresh_process(script, path)
    assert isinstance(shown, dict)
    return shown


def sizes_in_colour_or_not(sizes: list[tuple[int, int]], test: str) -> list[object]:
    """pytest params (size, colour) for a test of text and layout at each of `sizes`, in colour
    and under NO_COLOR: every size once a run, the first in colour or not as the run's seed
    draws for `test` (tests/seeds.py), the next the other way, and so on; ids such as
    "80x24-NO_COLOR".
    ADJUTANT_COLOUR_GRID=all: every size both ways, as before.

    NO_COLOR changes what Textual sends (its line filter greys the colours) and the `:nocolor`
    rules (a cursor's text-style, in the product and in Textual), not the text or the layout
    such a test reads: the whole grid, size by mode, did the same work twice. Each run now
    has every size and both modes; over runs every pairing (each with chance 1/2 a run)."""
    import os
    import random

    import pytest

    from tests import seeds

    def param(size: tuple[int, int], colour: bool) -> object:
        return pytest.param(size, colour, id=f"{size[0]}x{size[1]}-{'colour' if colour else 'NO_COLOR'}")

    if os.environ.get("ADJUTANT_COLOUR_GRID") == "all":
        return [param(size, colour) for size in sizes for colour in (True, False)]
    first = random.Random(f"{seeds.run_seed()} {test}").random() < 0.5
    return [param(size, first == (number % 2 == 0)) for number, size in enumerate(sizes)]

"""One measurement of the app in a process of its own, printed as JSON on the last line.

    python -m benchmarks.app_probe switch FILE          # screen switches, first visits included
    python -m benchmarks.app_probe switch-bare FILE     # the same switches in a bare Textual app (a table a screen)
    python -m benchmarks.app_probe oob FILE             # pressing b once, until the tree and totals show
    python -m benchmarks.app_probe filter FILE WORD...  # typing in the history filter, key by key
    python -m benchmarks.app_probe commit FILE COUNT    # an action until the screen shows it

A fresh process for every run, so a first visit is a first visit (imports,
screens, caches) and the parent can read the child's peak memory. Every sample
is timed from the key (or the action) until the screen has drawn what it was
asked for, the database work of its workers included.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

# Every screen a key reaches (tui.commands.SCREENS), the overview last: a screen left
# out of the switches is a screen whose cost no figure shows. The first five are the
# ones the app prepares in the background (tui.app.PREPARED) and the overview.
SWITCHES = (
    "oob", "weather", "command", "history", "turn", "march", "battles", "recon",
    "plots", "luck", "rules", "map", "sightings", "orders", "overview",
)
ROUNDS = 2  # per process: the first round is all first visits
SIZE = (80, 24)


async def until(pilot, done: Callable[[], bool], limit: float = 120.0) -> None:
    """Let the app run until `done()` holds (the screen's widgets hold the answer),
    then draw what changed, as its next refresh would. Polled every millisecond,
    not with Pilot's pause, which waits for the app to be idle and costs more than
    a switch."""
    end = time.perf_counter() + limit
    while time.perf_counter() < end:
        await asyncio.sleep(0.001)
        if done():
            from tui.textual_private import draw_changes

            draw_changes(pilot.app.screen)
            return
    raise RuntimeError("the screen never showed what was asked")


async def timed(pilot, act: Callable[[], Awaitable[object]], done: Callable[[], bool]) -> float:
    start = time.perf_counter()
    await act()
    await until(pilot, done)
    return time.perf_counter() - start


def _app(path: Path):
    """The app on `path`, started as tui.launch starts it (the collector off while
    importing and opening, then calmed)."""
    import gc

    gc.disable()
    from campaigns.session import CampaignSession
    from tui.app import AdjutantApp, calm_collector

    app = AdjutantApp(CampaignSession.open(path))
    calm_collector()
    gc.enable()
    app.animation_level = "none"
    return app


# The table each screen fills from the campaign: a screen counts as shown once it holds rows.
FILLED = {"history": "#events", "weather": "#turns", "command": "#armies", "overview": "#armies"}


def _shown(app, name: str) -> bool:
    from textual.css.query import NoMatches

    from tui.screens.registry import screen_class

    screen = app.screen
    if not isinstance(screen, screen_class(name)):
        return False
    try:
        if name == "oob":
            return _oob_ready(screen)
        if name in FILLED:
            return screen.query_one(FILLED[name]).row_count > 0
    except NoMatches:  # the screen is on show but not composed yet (built on the key)
        return False
    return _settled(app, screen)


def _settled(app, screen) -> bool:
    """A screen with no table of its own to watch: shown once it has read the campaign's
    version it shows (tui.screens.base.CampaignScreen.show_campaign, which starts its
    loads) and none of the workers of the screen or its widgets still runs: what it
    reads in the background counts, as the umpire waits for it."""
    if not screen.is_mounted or getattr(screen, "shown_version", 0) is None:
        return False
    return not any(
        worker.is_running and (worker.node is screen or screen in getattr(worker.node, "ancestors", ()))
        for worker in app.workers
    )


def _prepared(app) -> bool:
    """The app has settled: every screen it builds in the background is built and drawn."""
    return app.screens_prepared


def _oob_ready(screen) -> bool:
    """The tree's sides, the totals of the selection and its first units listed."""
    tree = screen.query_one("#tree")
    totals = str(screen.query_one("#totals").render()).strip()
    return bool(tree.root.children) and bool(totals) and screen.query_one("#detail").row_count > 0


async def switch(path: Path) -> list[float]:
    app = _app(path)
    samples = []
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "Turn" in str(app.screen.query_one("#when").render()))
        for _ in range(ROUNDS):
            for name in SWITCHES:
                samples.append(await timed(pilot, lambda n=name: app.run_action(f"show('{n}')"), lambda n=name: _shown(app, n)))
    return samples


# What each screen of the bare app shows: a title, then a table of rows of the same
# campaign file, read when the screen is first shown, as each of ours does.
BARE_TABLES = {
    "oob": "SELECT id, name, kind, strength_points FROM unit ORDER BY id LIMIT 40",
    "weather": "SELECT number, date, weather, weather_source FROM turn ORDER BY number LIMIT 40",
    "command": "SELECT id, name, side FROM army ORDER BY id",
    "history": "SELECT id, description FROM event ORDER BY id DESC LIMIT 50",
    "overview": "SELECT id, name FROM side ORDER BY id",
}
BARE_UNITS = BARE_TABLES["oob"]  # every other screen of the switches: a page of units


async def switch_bare(path: Path) -> list[float]:
    """The floor of a screen switch: the same switches, each screen a title, a
    table filled from the same file on its first visit, and Textual's footer; built
    on first visit and kept, as ours are. Plain sqlite3, no campaign logic."""
    import sqlite3

    from textual.app import App
    from textual.binding import Binding
    from textual.screen import Screen
    from textual.widgets import DataTable, Footer, Static

    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)

    class Table(Screen):
        BINDINGS = [Binding("r", "noop", "Roll"), Binding("e", "noop", "Enter die")]

        def compose(self):
            yield Static(self.name or "", classes="title")
            yield DataTable(id="rows", cursor_type="row", zebra_stripes=True)
            yield Footer()

        def on_mount(self) -> None:
            cursor = db.execute(BARE_TABLES.get(self.name or "", BARE_UNITS))
            table = self.query_one(DataTable)
            table.add_columns(*(c[0] for c in cursor.description))
            table.add_rows(tuple(str(v) for v in row) for row in cursor)

    class Bare(App):
        def on_mount(self) -> None:
            self.push_screen(Table(name=SWITCHES[-1]))

        def action_show(self, name: str) -> None:
            if not self.is_screen_installed(name):
                self.install_screen(Table(name=name), name)
            self.switch_screen(name)

    app = Bare()
    samples = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(ROUNDS):
            for name in SWITCHES:
                samples.append(
                    await timed(
                        pilot, lambda n=name: app.run_action(f"show('{n}')"),
                        lambda n=name: app.screen.name == n and app.screen.query_one(DataTable).row_count > 0,
                    )
                )
    return samples


async def oob(path: Path) -> list[float]:
    """Pressing b as soon as the overview shows: the order of battle's first visit."""
    app = _app(path)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "Turn" in str(app.screen.query_one("#when").render()))
        return [await timed(pilot, lambda: app.run_action("show('oob')"), lambda: _shown(app, "oob"))]


# Keys of a burst, this far apart: a key held down repeats about as fast, and no one
# types faster (10 keys a second is 120 words a minute).
BURST = 0.05


async def history_filter(path: Path, words: list[str]) -> dict[str, list[float]]:
    """Each word typed twice into the history filter: a key at a time, each waiting for
    its answer; then in a burst, a key every BURST seconds, where the keys typed while a
    search runs are answered together by the next one. Every key is timed from the moment
    it is sent until the screen has drawn the answer to its text (or to a longer text
    that holds it, for a key folded into the next search): the search, the list, and the
    screen's layout and drawing. A folded key counts with all of its wait."""
    app = _app(path)
    samples: list[float] = []
    cpu: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: _prepared(app))  # typing starts once the app has settled
        await app.run_action("show('history')")
        await until(pilot, lambda: _shown(app, "history"))
        screen = app.screen
        box = screen.query_one("#filter")
        for word in words:
            for burst in (False, True):
                box.focus()
                box.value = ""
                await until(pilot, lambda: screen.shown_query is not None and screen.shown_query[0] == "")
                used = time.process_time()
                samples += await _typed(screen, box, word, BURST if burst else None)
                cpu.append((time.process_time() - used) / len(word))
    # The process's CPU time a key (its threads, the probe's polling included): what a
    # key costs whatever else the machine runs, where the wall times above wait for it.
    return {"samples": samples, "cpu_per_key": cpu}


async def _typed(screen, box, word: str, every: float | None) -> list[float]:
    """The seconds from each key of `word` to the drawing of an answer that holds it;
    the next key `every` seconds after the one before, or once the last is answered
    (None). A burst's key counts from when it was due: if the probe sends it late
    (drawing the answer before it), the key still waited from then, as a key the
    terminal had sent would."""
    sent: list[float] = []
    samples: list[float] = []
    start = time.perf_counter()
    while len(samples) < len(word):
        now = time.perf_counter()
        if now > start + 120.0:
            raise RuntimeError("the filter never showed what was typed")
        if len(sent) < len(word):
            if every is None and len(samples) == len(sent):
                sent.append(now)
                await _type(box, word[len(sent) - 1])
            elif every is not None and now >= start + len(sent) * every:
                sent.append(start + len(sent) * every)
                await _type(box, word[len(sent) - 1])
        shown = screen.shown_query[0] if screen.shown_query is not None else None
        answered = len(shown) if shown and word.startswith(shown) else 0
        if answered > len(samples):
            await _drawn(screen)
            drawn = time.perf_counter()
            samples += [drawn - sent[k] for k in range(len(samples), answered)]
        await asyncio.sleep(0.001)
    return samples


async def _drawn(screen) -> None:
    """Until the screen has drawn what it was given: its own refresh (the layout the
    answer asked for, if any, then every widget that changed) run now rather than at
    the next tick of its frame timer, as a screen switch is drawn (tui.app)."""
    from tui.textual_private import draw_soon

    drawn: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def done() -> None:
        if not drawn.done():
            drawn.set_result(None)

    draw_soon(screen)
    screen.call_after_refresh(done)
    await drawn


async def _type(box, character: str) -> None:
    """The key as the terminal sends it, to the focused filter (Pilot's press waits for idle)."""
    import unicodedata

    from textual import events
    from textual.keys import KEY_NAME_REPLACEMENTS

    # The key's name as Textual's driver gives it: the character itself, or its Unicode name ("space").
    key = character if character.isalnum() else unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    box.post_message(events.Key(KEY_NAME_REPLACEMENTS.get(key, key), character))


async def commit(path: Path, count: int) -> list[list[float]]:
    """Marking a unit fatigued and back on the order of battle, until the screen has
    drawn its line with the mark (its layout included, as the filter's keys are
    timed); each sample [the whole, the action's own part: its transaction and commit]."""
    from campaigns import oob as campaign_oob
    from campaigns import oob_view
    from models.oob_rows import UnitRow

    app = _app(path)
    samples = []
    async with app.run_test(size=SIZE) as pilot:
        # An umpire's action, not the start-up: the screens the app builds in the
        # background after start-up are built first (start-up and first visits
        # have figures of their own).
        await until(pilot, lambda: _prepared(app))
        await app.run_action("show('oob')")
        await until(pilot, lambda: _shown(app, "oob"))
        screen = app.screen
        general = next(g for g in oob_view.all_generals(screen.sides[0].armies[0].generals) if set(g.own) - {"dummy"})
        key = f"g:{general.general.id}"
        screen._select(general.general.id)
        await until(pilot, lambda: key in screen._lines)
        screen._fill(screen._lines[key])
        screen._lines[key].expand()
        leaf = next(
            c for c in screen._lines[key].children
            if isinstance(c.data, UnitRow) and c.data.kind != "dummy"  # a dummy's line shows no flags
        )
        unit_id = leaf.data.id
        for n in range(count):
            tired = n % 2 == 0
            stored: list[float] = []

            def action(t: bool = tired, stored: list[float] = stored) -> None:
                began = time.perf_counter()
                campaign_oob.set_unit_flags(app.session, unit_id, fatigued=t)
                stored.append(time.perf_counter() - began)

            start = time.perf_counter()
            screen.attempt(action)
            while str(leaf.label).endswith("[F]") != tired:
                await asyncio.sleep(0.001)
                if time.perf_counter() - start > 120:
                    raise RuntimeError("the order of battle never showed the mark")
            await _drawn(screen)
            samples.append([time.perf_counter() - start, stored[0]])
    return samples


def main(argv: list[str]) -> None:
    mode, path = argv[0], Path(argv[1])
    runs: dict[str, Callable[[], Awaitable[list]]] = {
        "switch": lambda: switch(path),
        "switch-bare": lambda: switch_bare(path),
        "oob": lambda: oob(path),
        "filter": lambda: history_filter(path, argv[2:]),
        "commit": lambda: commit(path, int(argv[2])),
    }
    samples = asyncio.run(runs[mode]())
    print(json.dumps(samples))


if __name__ == "__main__":
    main(sys.argv[1:])

"""Every screen's keys typed in one burst with the key that opens it, as tmux sends them:
the screen ends as the same keys typed one at a time leave it.

The cases are made from the registry (tui.screens.registry) and each screen's own
bindings, so that a screen or a binding added later is swept too: for each screen, the
key that opens it, then each of its bindings alone or after a cursor move, or two cursor
moves. Each run types every screen's core case (a cursor move and its first binding) and
a sample of the others drawn with the run's seed, of every kind (DRAWN), half on the played
and half on a new campaign. A binding that opens a form is followed by text, which must reach
the form's field (not the screen behind it). The campaign is one played for ten turns,
so that the screens' first readings, in workers, take time: a key that comes before a
screen has read what it shows must wait for it, not be dropped or act on an empty table.

In the burst, every answer of a worker thread reaches the screen ANSWER_LATE seconds late
(a loaded machine, a slow PostgreSQL): on this machine the readings of a ten-turn campaign
can end before the keys after the screen's key are delivered, and the test then passes by
luck.

The keys typed slowly decide what the case is (a form opened: text typed into it), then
the same keys go in one burst to a fresh copy of the campaign. Typed slowly, each key
waits until the app has settled, its workers' answers shown: late answers would only make
it wait longer for the same screen (ANSWER_LATE a worker's answer, a quarter of this file's
wall time), so the keys typed slowly get them at once; and the burst's app gets them late
from the burst on, not while it shows its first screen before any key is typed.
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from textual.binding import Binding

from tests import seeds
from tests.played import play
from tests.tui.helpers import burst, letters, screen_text
from tests.tui.polling import settled
from tui.commands import SCREENS
from tui.screens.base import CampaignScreen
from tui.screens.registry import screen_class, screen_names

# Frames drawn at awkward moments (mid-burst, before a table is idle) are what these
# tests can catch: the app draws every frame, as in a terminal (tests/tui/conftest.py).
pytestmark = pytest.mark.every_frame

TYPED = letters("z7")  # text for a form a key opened: bound to nothing, on the screen or the app
SIZE = (80, 24)
ANSWER_LATE = 0.3
# Cases drawn each run beyond the screens' cores (tests/seeds.py), one of each kind: of the
# 100, 50 are a binding alone, 35 a cursor move and a binding, 15 two cursor moves. The
# cores already type every screen and every kind but a binding alone each run (14 a cursor
# move and a binding, the overview two cursor moves); over runs the draw reaches every
# case on both campaigns (a case of its kind drawn with chance 1/50, 1/35 or 1/15 a run,
# on either campaign). Two of a binding alone a run found nothing one did not: a sixth of
# this file's CPU.
DRAWN = {"a binding alone": 1, "a cursor move and a binding": 1, "two cursor moves": 1}


def answering_late(app):
    """The app, with every worker's answer (tui.workers.back_to: App.call_from_thread) late."""
    call = app.call_from_thread

    def late(*args, **kwargs):
        if threading.current_thread() is not threading.main_thread():
            time.sleep(ANSWER_LATE)
        return call(*args, **kwargs)

    app.call_from_thread = late
    return app


def opening_key(name: str) -> str:
    command = next(c for c in SCREENS if c.action == f"show('{name}')")
    return command.key.split(",")[0]


def bound_keys(name: str) -> list[str]:
    """The first key of each of the screen's own bindings (those with an id)."""
    return [b.key.split(",")[0] for b in screen_class(name).BINDINGS if isinstance(b, Binding) and b.id]


def keyed(name: str) -> list[list[str]]:
    """Every case of a screen, the first one its core: a cursor move, then its first binding."""
    bound = bound_keys(name)
    first = [["down", bound[0]]] if bound else [["down", "down"]]
    others = [["down", "down"], *[[k] for k in bound], *[["down", k] for k in bound]]
    return first + [keys for keys in others if keys not in first]


SWEPT = [name for name in screen_names() if name != "start"]  # start: no campaign open, nothing read in a worker


def kind(keys: list[str]) -> str:
    if keys == ["down", "down"]:
        return "two cursor moves"
    return "a binding alone" if len(keys) == 1 else "a cursor move and a binding"


def drawn(seed: int) -> list[tuple[str, list[str], str]]:
    """Of the cases beyond each screen's core, DRAWN of each kind, half on the played and
    half on the new campaign; every case on both with ADJUTANT_KEY_SWEEP=all."""
    rest = [(name, keys) for name in SWEPT for keys in keyed(name)[1:]]
    if os.environ.get("ADJUTANT_KEY_SWEEP") == "all":
        return [(name, keys, campaign) for name, keys in rest for campaign in ("played", "new")]
    rng = random.Random(seed)
    chosen = [case for wanted, count in DRAWN.items() for case in rng.sample([c for c in rest if kind(c[1]) == wanted], count)]
    campaigns = [("played", "new")[number % 2] for number in range(len(chosen))]
    rng.shuffle(campaigns)
    return [(name, keys, campaign) for (name, keys), campaign in zip(chosen, campaigns, strict=True)]


@pytest.fixture(scope="module")
def ten_turns(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(play(tmp_path_factory.mktemp("played") / "ten.campaign", 10))


def shown(app) -> tuple[str, str]:
    return type(app.screen).__name__, screen_text(app)


async def typed_slowly(make_app, path: Path, start: str, keys: list[str]) -> tuple[tuple[str, str], list[str]]:
    """What the keys give pressed one at a time, each after the app has settled; and the keys
    typed (TYPED added when the last one opened a form)."""
    async with make_app(path, start=start).run_test(size=SIZE) as pilot:
        await settled(pilot)
        for key in keys:
            await burst(pilot, key)
            await settled(pilot)
        if not isinstance(pilot.app.screen, CampaignScreen):  # a form (or a picker) opened
            keys = [*keys, *TYPED]
            for key in TYPED:
                await burst(pilot, key)
                await settled(pilot)
        return shown(pilot.app), keys


async def typed_at_once(make_app, path: Path, start: str, keys: list[str]) -> tuple[str, str]:
    async with make_app(path, start=start).run_test(size=SIZE) as pilot:
        await settled(pilot)
        answering_late(pilot.app)
        await burst(pilot, *keys)
        await settled(pilot)
        return shown(pilot.app)


async def typed_both_ways(make_app, campaign: Path, folder: Path, name: str, keys: list[str]) -> None:
    start = "turn" if name == "overview" else "overview"
    slow_file, burst_file = (Path(shutil.copy(campaign, folder / f"{which}.campaign")) for which in ("slow", "burst"))
    slowly, typed = await typed_slowly(make_app, slow_file, start, [opening_key(name), *keys])
    at_once = await typed_at_once(make_app, burst_file, start, typed)
    assert at_once[0] == slowly[0], f"{typed} in one burst ended on {at_once[0]}, typed slowly on {slowly[0]}"
    assert at_once[1] == slowly[1], f"{typed} in one burst:\n{at_once[1]}\ntyped slowly:\n{slowly[1]}"


@pytest.mark.parametrize("name", SWEPT)
async def test_a_cursor_key_and_a_binding_typed_with_the_screens_key_act_as_typed_slowly(make_app, ten_turns, tmp_path, name):
    await typed_both_ways(make_app, ten_turns, tmp_path, name, keyed(name)[0])


async def test_a_drawn_sample_of_every_screens_keys_acts_as_typed_slowly(make_app, ten_turns, campaign_file, tmp_path):
    """Each binding alone, after a cursor move, two cursor moves: DRAWN cases a run, with the
    run's seed (ADJUTANT_KEY_SWEEP=all: every case, on both campaigns)."""
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    cases = drawn(seed)
    if os.environ.get("ADJUTANT_KEY_SWEEP") != "all":  # every kind, on both campaigns, every run
        assert Counter(kind(keys) for _, keys, _ in cases) == DRAWN and {c for *_, c in cases} == {"played", "new"}, cases
    for number, (name, keys, campaign) in enumerate(cases):
        folder = tmp_path / str(number)
        folder.mkdir()
        try:
            await typed_both_ways(make_app, ten_turns if campaign == "played" else campaign_file, folder, name, keys)
        except AssertionError as failed:
            raise AssertionError(f"{name} {keys} on the {campaign} campaign ({seeds.replay(seed)}): {failed}") from None

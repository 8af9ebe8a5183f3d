"""The map's canvas keeps what it drew (the ground per data, view and size; each line made)
and repaints only the lines that changed: whatever it kept, what it shows is what a fresh
drawing of the same state shows, line by line as Textual would make it from the Text.

The states are drawn from the run's seed (tests/seeds.py): cursor moves, zooms, sizes and a
new reading of the campaign (a stack moved), on the spring 1813 theatre."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.visual import Visual, visualize

from campaigns.session import CampaignSession
from campaigns.theatre_map import MapData, map_data
from models import General
from tests import seeds
from tests.tui.helpers import wait_for_screen
from tests.tui.polling import settled
from tui.screens.theatre import TheatreScreen
from tui.widgets.theatre_canvas import ZOOMS, Drawing, View, draw, step, texts, whole_theatre


def moved(path: Path, general: str, place: str) -> None:
    session = CampaignSession.open(path)
    try:
        with session.store.action(f"Put {general} at {place}") as db:
            db.get_one(General, general).location = place
    finally:
        session.close()


def first_general(path: Path) -> str:
    session = CampaignSession.open(path)
    try:
        return next(g.id for p in map_data(session).places for s in p.stacks for g in s.generals)
    finally:
        session.close()


def read(path: Path) -> MapData:
    session = CampaignSession.open(path)
    try:
        return map_data(session)
    finally:
        session.close()


def test_a_kept_drawing_equals_a_fresh_one_after_moves_zooms_resizes_and_a_new_reading(campaign_file):
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    rng = random.Random(seed)
    readings = [read(campaign_file)]
    general = first_general(campaign_file)
    moved(campaign_file, general, "Leipzig")
    readings.append(read(campaign_file))  # a new reading: the same theatre, a stack elsewhere
    assert readings[0].places != readings[1].places
    readings.append(dataclasses.replace(readings[1], roads=readings[1].roads[::2]))  # another theatre: half its roads
    names = [p.place.name for p in readings[0].places]
    kept = {size: Drawing(*size) for size in ((80, 18), (120, 33), (rng.randint(1, 160), rng.randint(1, 50)))}
    data, cursor, view = readings[0], "Weimar", whole_theatre()
    for number in range(120):
        change = rng.choice(["step", "step", "step", "zoom", "place", "reading", "view"])
        if change == "step":
            cursor = step(data, cursor, *rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)]))
        elif change == "zoom":
            zoom = rng.randrange(len(ZOOMS))
            here = data.at(cursor)
            view = View(here.x, here.y, zoom) if zoom else whole_theatre()
        elif change == "place":
            cursor = rng.choice(names)
        elif change == "reading":
            data = rng.choice(readings)
        else:  # centred anywhere, the cursor maybe off the map
            view = View(rng.uniform(-200, 900), rng.uniform(-200, 900), rng.randrange(len(ZOOMS)))
        for (width, height), drawing in kept.items():
            rows, plain = drawing.rows(data, view, cursor)
            fresh = draw(data, view, width, height, cursor)
            assert plain, (number, change)
            shown = texts(rows)
            assert [t.plain for t in shown] == [t.plain for t in fresh], (seeds.replay(seed), number, change, width, height)
            assert [t.spans for t in shown] == [t.spans for t in fresh], (seeds.replay(seed), number, change, width, height)


def test_a_label_with_a_wide_or_control_character_is_not_plain(campaign_file):
    data = read(campaign_file)
    here = next(p for p in data.places if p.stacks)
    for side in ("世界", "\x1bx"):
        stacks = tuple(dataclasses.replace(s, side=side) for s in here.stacks)
        hostile = dataclasses.replace(data, places=tuple(dataclasses.replace(p, stacks=stacks) if p is here else p for p in data.places))
        assert Drawing(120, 33).rows(hostile, whole_theatre(), here.place.name)[1] is False


KEYS = ["left", "right", "up", "down", "left", "right", "up", "down", "plus", "minus", "n"]


@pytest.mark.every_frame
@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")])
async def test_the_map_shows_after_each_key_what_a_fresh_drawing_shows(make_app, campaign_file, size):
    """After each key (and a resize, and a new reading with a stack moved): every line the
    canvas makes equals the line Textual makes from its Text, and the lines shown (the ones
    kept from before included) equal the lines of a whole repaint."""
    seed = seeds.run_seed()
    rng = random.Random(seed)
    # Moves at the whole theatre's zoom first (a few lines change: the labels moved), then drawn keys.
    keys = ["right", "down", "left", "up", "n", "right", "down"] + [rng.choice(KEYS) for _ in range(14)]
    general = first_general(campaign_file)
    app = make_app(campaign_file, start="map")
    async with app.run_test(size=size) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)
        screen = app.screen
        canvas = screen.canvas

        async def check(after: str) -> None:
            await pilot.pause()
            width, height = canvas.size
            textual = Visual.to_strips(canvas, visualize(canvas, canvas.render()), width, height, canvas.visual_style)
            made = [canvas.render_line(y) for y in range(height)]
            assert [list(s) for s in made] == [list(s) for s in textual], f"{after} ({seeds.replay(seed)})"
            shown = canvas.render_lines(Region(0, 0, width, height))
            canvas.refresh()
            whole = canvas.render_lines(Region(0, 0, width, height))
            assert [list(s) for s in shown] == [list(s) for s in whole], f"{after} ({seeds.replay(seed)})"

        await check("the first drawing")
        for number, key in enumerate(keys):
            await pilot.press(key)
            await check(f"key {number} {key} of {keys}")
        await pilot.resize_terminal(size[0] - 7, size[1] + 3)
        await settled(pilot)
        await check("a resize")
        with screen.session.store.action("Put a general at Leipzig") as db:
            db.get_one(General, general).location = "Leipzig"
        screen.refresh_view()
        await settled(pilot)
        assert any(s.generals and s.generals[0].id == general for s in canvas.data.at("Leipzig").stacks)
        await check("a new reading")
        await pilot.press("right")
        await check("a move after the new reading")


async def test_a_zoomed_move_after_a_theme_change_shows_what_a_fresh_drawing_shows(make_app, campaign_file):
    """The styles kept for each cell (a zoomed move draws every line anew, mostly the same
    styles at the same cells) are the widget's base style's: after a change of theme, the
    lines made are Textual's from the Text again, not the old theme's."""
    app = make_app(campaign_file, start="map")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)
        canvas = app.screen.canvas

        async def check(after: str) -> None:
            await pilot.pause()
            width, height = canvas.size
            textual = Visual.to_strips(canvas, visualize(canvas, canvas.render()), width, height, canvas.visual_style)
            assert [list(canvas.render_line(y)) for y in range(height)] == [list(s) for s in textual], after

        for key in ("plus", "plus", "right", "left", "down"):
            await pilot.press(key)
        await check("zoomed moves")
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await settled(pilot)
        for key in ("up", "right", "left"):
            await pilot.press(key)
        await check("zoomed moves after a change of theme")

"""The map screen: both sides' stacks without colour, the cursor and zoom from the keyboard,
a stack activated and moved from the map as one action that undo takes back; snapshots."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import col, select

from campaigns import command_points, weather
from campaigns.session import CampaignSession
from models import Event, General, Unit
from tests.tui.conftest import built_once
from tests.tui.helpers import key, screen_rows, screen_text, stored, type_text, wait_for, wait_for_notice, wait_for_screen
from tests.tui.polling import settled, until
from tui.modals.confirm import ConfirmScreen
from tui.modals.pick import PickScreen
from tui.screens.theatre import TheatreScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def roll_the_turn(path: Path) -> None:
    session = CampaignSession.open(path)
    try:
        weather.roll(session, [2])  # April +1: 3, Clear
        for army in command_points.turn_points(session):
            command_points.roll(session, army.army, [3])
    finally:
        session.close()


@pytest.fixture
def ready_file(tmp_path: Path) -> Path:
    """Turn 1 with the weather and every army's command points rolled from fixed dice, rolled
    once per worker and copied (tests/tui/conftest.py built_once)."""
    return built_once(tmp_path / "spring.campaign", "map-ready", roll_the_turn)


@pytest.fixture
def no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.mark.parametrize("size", SIZES)
def test_map_snapshot(snap_compare, make_app, ready_file, no_color, size):
    assert snap_compare(make_app(ready_file, start="map"), run_before=settled, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_map_zoomed_snapshot(snap_compare, make_app, ready_file, no_color, size):
    assert snap_compare(make_app(ready_file, start="map"), run_before=settled, press=["plus", "plus"], terminal_size=size)


async def test_the_map_shows_both_sides_without_colour(make_app, ready_file, no_color):
    app = make_app(ready_file)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.no_color
        await pilot.press("p")
        await wait_for_screen(pilot, TheatreScreen)
        shown = await wait_for(pilot, "Weimar F24")  # the cursor starts on the strongest stack
        assert "Clear" in shown
        assert "F7" in shown and "A6" in shown  # side letters and SP of both sides (F10 yields to a label when the line under the map wraps)


async def test_arrows_move_the_cursor_place_to_place_and_zoom_keeps_it(make_app, ready_file):
    app = make_app(ready_file, start="map")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)  # the map is read in a worker
        canvas = app.screen.canvas
        assert canvas.cursor == "Weimar"
        await pilot.press("right")
        east = canvas.cursor
        assert east != "Weimar" and canvas.data.at(east).x > canvas.data.at("Weimar").x
        await pilot.press("left")
        assert canvas.data.at(canvas.cursor).x < canvas.data.at(east).x
        await pilot.press("plus")
        assert canvas.view.zoom == 1 and canvas.view.cx == canvas.data.at(canvas.cursor).x
        await pilot.press("minus")
        assert canvas.view.zoom == 0


async def test_a_stack_is_activated_and_moved_from_the_map_then_undone(make_app, ready_file):
    app = make_app(ready_file, start="map")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)  # the map is read in a worker
        app.screen.canvas.cursor = "Gotha"  # Marmont
        for choice in ("Activate", "Move"):
            await pilot.press(key(TheatreScreen, "map.stacks"))
            await wait_for_screen(pilot, PickScreen)
            await type_text(pilot, choice)
            await pilot.press("enter")
            await wait_for_screen(pilot, TheatreScreen if choice == "Activate" else PickScreen)
            await settled(pilot)
        await type_text(pilot, "Erfurt")
        await pilot.press("enter")
        await wait_for_screen(pilot, ConfirmScreen)
        assert "Route: Gotha - Erfurt (Clear)" in screen_text(app)
        await pilot.press("y")
        await wait_for_screen(pilot, TheatreScreen)
        await wait_for_notice(pilot, "Move Marshal Marmont")
        assert app.screen.canvas.cursor == "Erfurt"
        with stored(ready_file) as db:
            assert db.get(General, "marmont").location == "Erfurt"
        await pilot.press("u")
        await wait_for_notice(pilot, "Undone: Move Marshal Marmont")  # undone in a worker: the app is left once it is
    with stored(ready_file) as db:
        assert db.get(General, "marmont").location == "Gotha"
        assert {u.location for u in db.exec(select(Unit).where(Unit.general == "marmont"))} == {"Gotha"}


async def test_part_of_a_stack_over_the_stacking_limits_moves_from_the_map(make_app, ready_file):
    # Ney's 4 infantry and a dummy at Weimar are over the card's 2 infantry + 1 cavalry: the whole
    # stack may not move, and the map offered no way to move part of it (only adjutant move --only).
    from tui.modals.ticks import TicksScreen

    app = make_app(ready_file, start="map")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)
        app.screen.canvas.cursor = "Weimar"
        for choice in ("Activate", "Move part"):
            await pilot.press(key(TheatreScreen, "map.stacks"))
            await wait_for_screen(pilot, PickScreen)
            await type_text(pilot, choice)
            await pilot.press("enter")
            await wait_for_screen(pilot, TheatreScreen if choice == "Activate" else TicksScreen)
            await settled(pilot)
        ticks = app.screen
        shown = screen_text(app)
        assert "[x] Marshal Ney (III Corps) (general)" in shown and "[x] III Corps: 8th Division (Souham)" in shown
        staying = [n for n, (i, _, _) in enumerate(ticks.items) if i in ("iii_brenier_girard", "iii_marchand", "french_dummy_2")]
        for n in range(len(ticks.items)):
            await pilot.press(*(["space"] if n in staying else []), "down")
        await until(pilot, lambda: shown.count("[x]") - 3 == screen_text(app).count("[x]"), "three unticked")
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, PickScreen)
        await type_text(pilot, "Jena")
        await pilot.press("enter")
        await wait_for_screen(pilot, ConfirmScreen)
        assert "Allowed." in screen_text(app)
        await pilot.press("y")
        await wait_for_screen(pilot, TheatreScreen)
        await wait_for_notice(pilot, "Move Marshal Ney")
    with stored(ready_file) as db:
        at = {u.id: u.location for u in db.exec(select(Unit).where(Unit.general == "ney"))}
        assert db.get(General, "ney").location == "Jena"
    assert at == {"iii_souham": "Jena", "iii_ricard": "Jena", "iii_brenier_girard": "Weimar", "iii_marchand": "Weimar",
                  "french_dummy_2": "Weimar"}


async def test_the_map_is_saved_as_svg(make_app, ready_file):
    app = make_app(ready_file, start="map")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await pilot.press(key(TheatreScreen, "map.svg"))
        await wait_for_notice(pilot, "Wrote")
    written = ready_file.with_name(f"{ready_file.stem}-turn1.svg")
    assert ">Weimar</text>" in written.read_text(encoding="utf-8")


async def test_typing_a_location_offers_the_places_and_an_unknown_one_is_refused(make_app, campaign_file):
    from textual.widgets import Input

    from tui.modals.form import FormScreen
    from tui.screens.oob import OrderOfBattleScreen

    app = make_app(campaign_file, start="oob")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, OrderOfBattleScreen)
        await pilot.press("slash")
        await type_text(pilot, "zieten")
        await pilot.press("enter")
        await wait_for(pilot, "Brigade Zieten: 3 SP")
        await pilot.press("e")
        await wait_for_screen(pilot, FormScreen)
        box = app.screen.query_one("#f-location", Input)
        box.focus()
        box.value = ""
        await type_text(pilot, "Lüb")
        # The suggester answers in a task: wait for the completion, not a fixed 0.2 s.
        def drawn() -> str:  # the completion offered as typed
            return "".join(box.render_line(y).text for y in range(box.size.height))

        await until(pilot, lambda: any(place in drawn() for place in ("Lübben", "Lübbenau", "Lübeck")), "a completion of 'Lüb'")
        box.value = "Lutzn"
        await pilot.press("ctrl+s")
        shown = await wait_for(pilot, "did you mean")
        assert "There is no place 'Lutzn' in the gazetteer" in shown


async def test_the_battle_phase_lists_the_places_in_contact(make_app, ready_file):
    from campaigns import turns

    session = CampaignSession.open(ready_file)
    try:
        with session.store.action("Ney reaches Altenburg") as db:
            db.get(General, "ney").location = "Altenburg"
            for unit in db.exec(select(Unit).where(Unit.general == "ney")):
                unit.location = "Altenburg"
        while turns.status(session).phase.id != "battles":
            turns.advance(session, anyway=True)
    finally:
        session.close()
    app = make_app(ready_file, start="turn")
    async with app.run_test(size=(80, 24)) as pilot:
        shown = await wait_for(pilot, "Battles to set up")
        assert "Altenburg: French Empire and allies F 24 at Altenburg; Russia and Prussia" in shown


async def test_the_stack_actions_at_the_cursor_include_entrenching_and_reconnaissance(make_app, ready_file):
    app = make_app(ready_file, start="map")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)  # the map is read in a worker
        app.screen.canvas.cursor = "Weissenfels"  # Winzingerode's cavalry, one road from Macdonald at Merseburg
        await pilot.press(key(TheatreScreen, "map.stacks"))
        await wait_for_screen(pilot, PickScreen)
        shown = await wait_for(pilot, "Entrench (2 PC)")  # drawn a frame after the modal is pushed
        assert "Reconnoitre from Russia and Prussia" in shown
        await type_text(pilot, "Reconnoitre")
        await pilot.press("enter")
        await wait_for_notice(pilot, "Reconnaissance by")


async def test_a_battle_is_set_up_from_the_map_at_a_place_in_contact(make_app, ready_file):
    from tui.screens.battle_setup import BattleSetupScreen

    session = CampaignSession.open(ready_file)
    try:
        with session.store.action("Ney reaches Altenburg") as db:
            db.get(General, "ney").location = "Altenburg"
            for unit in db.exec(select(Unit).where(Unit.general == "ney")):
                unit.location = "Altenburg"
    finally:
        session.close()
    app = make_app(ready_file, start="map")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)  # the map is read in a worker
        app.screen.canvas.cursor = "Gotha"  # Marmont, nobody in contact with him: no battle offered
        await pilot.press(key(TheatreScreen, "map.stacks"))
        await wait_for_screen(pilot, PickScreen)
        assert "Battle at" not in screen_text(app)
        await pilot.press("escape")
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)  # the map is read in a worker
        app.screen.canvas.cursor = "Altenburg"
        await pilot.press(key(TheatreScreen, "map.stacks"))
        await wait_for_screen(pilot, PickScreen)
        await type_text(pilot, "Battle at")
        await pilot.press("enter")
        await wait_for_screen(pilot, BattleSetupScreen)
        screen = app.screen
        assert {st.place for side in screen.sides for st in side.stacks} == {"Altenburg"}
        assert all(side.stacks for side in screen.sides)  # Ney's and Blücher's


@pytest.mark.parametrize("size", SIZES)
async def test_the_stacks_roads_and_legend_under_the_map_are_whole(make_app, tmp_path, no_color, size):
    """Autumn's crowded places (four generals at one town): the line under the map goes
    on over more lines, never cut with an ellipsis; the legend too, where it is shown."""
    from tests.tui.conftest import new_campaign
    from tui.widgets.theatre_canvas import LEGEND

    path = new_campaign(tmp_path / "autumn.campaign", scenario="autumn1813")
    async with make_app(path, start="map").run_test(size=size) as pilot:
        await wait_for(pilot, "Roads to")
        screen = pilot.app.screen
        held = [p for p in screen.canvas.data.places if p.stacks]
        assert held
        longest = 0
        for place in held:
            screen.canvas.cursor = place.place.name
            screen.show_cursor()
            info = screen.query_one("#info")
            stacks = "; ".join(s.summary() for s in place.stacks)

            rows: list[str] = []

            def shows_the_stacks() -> bool:
                # the rows under the map as drawn now, kept for the checks below: only they are
                # drawn, not the map above them (a drawing of the whole map at each look was
                # three quarters of this test's CPU)
                rows[:] = screen_rows(info, info.content_region.y, info.content_region.bottom)  # noqa: B023
                return stacks in " ".join(row.strip() for row in rows)  # noqa: B023

            await until(pilot, shows_the_stacks, f"the stacks at {place.place.name}")
            if not longest:  # the rows read are those of the whole screen drawn
                assert rows == screen_text(pilot.app).splitlines()[info.content_region.y : info.content_region.bottom]
            text = " ".join(row.strip() for row in rows)
            assert "…" not in text
            assert stacks in text
            assert (LEGEND in text) == (size[1] >= 30)  # at 24 rows the map keeps the legend's rows
            longest = max(longest, len(rows))
        assert longest > 3 or size[0] > 80  # at 80 columns the long lines reach the wrapping


async def test_the_line_under_the_map_names_a_place_nobody_holds_without_a_stray_space(make_app, campaign_file):
    """Before: "Pegau (town) : no stack", the empty badges leaving their space."""
    async with make_app(campaign_file, start="map").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Roads to")
        screen = pilot.app.screen
        screen.canvas.cursor = "Pegau"
        screen.show_cursor()
        await wait_for(pilot, "Pegau (town): no stack")
        screen.canvas.cursor = "Erfurt"
        screen.show_cursor()
        await wait_for(pilot, "Erfurt (fortress) F11: ")


async def test_a_forced_march_is_asked_for_without_a_refusal_above_the_question(make_app, campaign_file):
    """Two of Ney's divisions to Weissenfels, 7 MP of 6: the question offers the forced
    march. Before, the route's verdict "Refused: ..." stood just above "Force-march ...?"."""
    from campaigns import movement

    session = CampaignSession.open(campaign_file)
    try:
        weather.roll(session, [2])  # Clear
        command_points.roll(session, "army_of_the_main", [3])
        movement.activate(session, "ney")
    finally:
        session.close()
    async with make_app(campaign_file, start="map").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Roads to")
        pilot.app.screen.confirm_move("ney", "Weissenfels", ["iii_brenier_girard", "iii_marchand"])
        await wait_for_screen(pilot, ConfirmScreen)
        shown = await wait_for(pilot, "Force-march")
        assert "Cost: 7 MP" in shown and "1 MP beyond" in shown
        assert "Refused" not in shown


async def test_a_crowded_place_opened_names_its_first_units_and_counts_the_rest(make_app, campaign_file):
    """Every unit at Dresden: Enter names each stack's first units (theatre_map.NAMED_UNITS) and
    counts the others with the stack's SP, rather than a line naming every unit."""
    from campaigns.theatre_map import NAMED_UNITS

    session = CampaignSession.open(campaign_file)
    try:
        with session.store.action("Every unit to Dresden") as db:
            units = db.exec(select(Unit).order_by(Unit.id)).all()
            for unit in units:
                unit.location = "Dresden"
        french = [u for u in units if u.nation == units[0].nation]
    finally:
        session.close()
    app = make_app(campaign_file, start="map")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)
        app.screen.canvas.cursor = "Dresden"
        await pilot.press(key(TheatreScreen, "map.stacks"))
        await wait_for_screen(pilot, PickScreen)
        moves = [label for name, label in app.screen.items if name.startswith("move:")]
        assert len(moves) == 2 and all(" more units (" in m and m.endswith(" SP in all)") for m in moves)
        assert all(m.count(" SP), ") == NAMED_UNITS for m in moves)  # each named unit, then "and N more"
        assert f"{french[0].name} ({french[0].kind}, {french[0].strength_points} SP)" in "".join(moves)


async def test_a_place_typed_by_name_moves_the_cursor_there(make_app, ready_file):
    # The map had no way to a place but arrows and "next stack": / asks for it, any spelling.
    app = make_app(ready_file, start="map")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)
        assert app.screen.canvas.cursor != "Lützen"
        await pilot.press(key(TheatreScreen, "map.go_to"))
        await wait_for_screen(pilot, PickScreen)
        await type_text(pilot, "lutz")  # the plain spelling finds Lützen
        await pilot.press("enter")
        await wait_for_screen(pilot, TheatreScreen)
        await until(pilot, lambda: app.screen.canvas.cursor == "Lützen", "the cursor at Lützen")
        await pilot.press(key(TheatreScreen, "map.go_to"), "escape")  # Escape leaves the cursor where it was
        await wait_for_screen(pilot, TheatreScreen)
        assert app.screen.canvas.cursor == "Lützen"


async def test_a_move_the_enemy_bars_asks_the_umpires_reason_and_records_it(make_app, ready_file):
    """Every road from Gotha passes a Prussian-held place (option enemy_held_place): the map asks
    the umpire's reason, then prices the move through and records the reason with it."""
    from tui.modals.form import FormScreen

    session = CampaignSession.open(ready_file)
    with session.store.action("test: Prussians round Gotha") as db:
        prussians = list(db.exec(select(Unit).where(Unit.nation == "Prussia").order_by(Unit.id)))[:3]
        for unit, where in zip(prussians, ("Eisenach", "Erfurt", "Langensalza"), strict=True):
            unit.location = where
    session.close()
    app = make_app(ready_file, start="map")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_screen(pilot, TheatreScreen)
        await settled(pilot)
        app.screen.canvas.cursor = "Gotha"  # Marmont
        for choice in ("Activate", "Move"):
            await pilot.press(key(TheatreScreen, "map.stacks"))
            await wait_for_screen(pilot, PickScreen)
            await type_text(pilot, choice)
            await pilot.press("enter")
            await wait_for_screen(pilot, TheatreScreen if choice == "Activate" else PickScreen)
            await settled(pilot)
        await type_text(pilot, "Arnstadt")
        await pilot.press("enter")
        await wait_for_screen(pilot, FormScreen)
        await wait_for(pilot, "Every road an army can march from Gotha to Arnstadt")
        await type_text(pilot, "night march")
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, ConfirmScreen)
        await wait_for(pilot, "Through Erfurt, held by the enemy: the umpire's reason:")
        await pilot.press("y")
        await wait_for_screen(pilot, TheatreScreen)
        await wait_for_notice(pilot, "Move Marshal Marmont")
    with stored(ready_file) as db:
        assert db.get(General, "marmont").location == "Arnstadt"
        moved = db.exec(select(Event).where(col(Event.description).like("Move Marshal Marmont%"))).one()
        assert moved.description.endswith("through Erfurt, held by the enemy: the umpire's reason: night march")

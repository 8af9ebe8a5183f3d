"""Undo (u), redo (y), save-as (s) and the history screen's filter."""

from __future__ import annotations

from sqlalchemy import select

from campaigns.session import CampaignSession
from models import Event, Turn
from tests.tui.helpers import screen_text, stored, type_text, wait_for, wait_for_notice
from tests.tui.polling import caught_up, until
from tui.screens.files import SaveAsScreen


def weather_of_turn_1(path) -> str | None:
    with stored(path) as db:
        return db.get_one(Turn, 1).weather


async def test_undo_and_redo_are_stored_and_survive_reopening_the_file(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "r")
        await wait_for_notice(pilot, "Turn 1:")
    rolled = weather_of_turn_1(campaign_file)
    assert rolled

    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:  # the file opened again
        await pilot.press("u")
        await wait_for_notice(pilot, "Undone: Weather for turn 1")
        await wait_for(pilot, "weather not rolled")  # the status line follows: redrawn after the notice
    assert weather_of_turn_1(campaign_file) is None

    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await wait_for(pilot, "Weather for turn 1 [undone #")
        await pilot.press("y")
        await wait_for_notice(pilot, "Redone: Weather for turn 1")
        await wait_for(pilot, f"| {rolled} |")
    assert weather_of_turn_1(campaign_file) == rolled

    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("y")
        said = await wait_for_notice(pilot, "There is nothing to redo")  # the store's clause, as a sentence
        assert said.endswith("."), said
        await pilot.press("u", "u")
        assert await wait_for_notice(pilot, "There is nothing to undo") == "There is nothing to undo."  # the setup cannot be undone
    assert weather_of_turn_1(campaign_file) is None


async def test_save_as_writes_a_copy_that_opens_and_the_app_stays_on_the_original(campaign_file, make_app, tmp_path):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "r")
        await caught_up(pilot)  # rolled and stored before the copy is made
        await pilot.press("s")
        await wait_for(pilot, "Save a copy of the campaign as")
        await type_text(pilot, "c.txt")
        await pilot.press("enter")
        await wait_for(pilot, "A campaign file ends in .campaign: c.txt.")
        assert isinstance(pilot.app.screen, SaveAsScreen)
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "copy.campaign")
        await pilot.press("enter")
        await wait_for_notice(pilot, "Saved a copy as copy.campaign")
        assert pilot.app.session.where.endswith("spring.campaign")
        await pilot.press("s")
        await wait_for(pilot, "Save a copy")
        await type_text(pilot, "copy.campaign")
        await pilot.press("enter")
        await wait_for(pilot, "already exists")
        await pilot.press("escape")
    copy = tmp_path / "copy.campaign"
    assert weather_of_turn_1(copy) == weather_of_turn_1(campaign_file)
    session = CampaignSession.open(copy)
    try:
        assert session.overview().name == "Spring 1813: Lützen and Bautzen"
    finally:
        session.close()
    assert not (tmp_path / "c.txt").exists()


async def test_the_history_lists_rolls_and_changes_and_filters_them(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "r", "c", "r")
        await caught_up(pilot)
        await pilot.press("h")
        shown = await wait_for(pilot, "Command points of Russo-Prussian Army")
        assert "Weather for turn 1" in shown and "26 Apr 09:30:00" in shown  # the frozen clock
        table = pilot.app.screen.query_one("#events")
        everything = table.row_count
        await pilot.press("slash")
        await type_text(pilot, "weather")

        def events_shown() -> list[str]:
            return [str(table.get_row_at(i)[2]) for i in range(table.row_count) if str(table.get_row_at(i)[0]).startswith("#")]

        await until(
            pilot,
            lambda: table.row_count < everything and events_shown() and all("weather" in r.lower() for r in events_shown()),
            "the history filtered to the weather",
        )
        rows = [str(table.get_row_at(i)[2]) for i in range(table.row_count)]
        events = [r for i, r in enumerate(rows) if str(table.get_row_at(i)[0]).startswith("#")]
        assert events and all("weather" in r.lower() for r in events)
        assert any(r.startswith("  turn 1: weather (none) -> ") for r in rows)  # what it changed, old -> new
        assert table.row_count < everything
        await pilot.press("enter")  # back to the table
        await until(pilot, lambda: pilot.app.focused is table, "the focus back on the table after enter")
        await pilot.press("slash", "down")  # down, too, goes from the filter to the table (it stayed in the filter)
        await until(pilot, lambda: pilot.app.focused is table, "the focus back on the table after down")
        await pilot.press("slash", "ctrl+a", "ctrl+k", "escape")  # clear the filter, back to the table
        await until(pilot, lambda: pilot.app.focused is table and table.row_count == everything, "the whole history again")
        await pilot.press("d")  # dice only

        def refs() -> list[str]:
            return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]

        await until(pilot, lambda: refs() and all(r.startswith("d") for r in refs()), "the dice only")
        rows = refs()
        assert rows and all(r.startswith("d") for r in rows)
    with stored(campaign_file) as db:
        assert len(list(db.scalars(select(Event)))) >= 3


async def test_older_lines_are_read_a_page_at_a_time_as_the_cursor_reaches_the_end(campaign_file, make_app):
    from campaigns import oob
    from tui.screens.history import PAGE

    session = CampaignSession.open(campaign_file)
    unit = oob.side_units(oob.tree(session)[0])[0]
    for n in range(2 * PAGE + 30):
        oob.set_unit_flags(session, unit.id, fatigued=n % 2 == 0)
    session.close()
    async with make_app(campaign_file, start="history").run_test(size=(80, 24)) as pilot:
        table = pilot.app.screen.query_one("#events")
        size = pilot.app.screen.page_size  # a screenful: the list's 17 lines at 80x24
        assert size == 17
        await wait_for(pilot, f"Mark {unit.name}")
        first = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert len([r for r in first if r.startswith("#")]) == size  # the newest page of events only
        def events() -> int:  # each event is a line and a line of what it changed
            return sum(1 for i in range(table.row_count) if str(table.get_row_at(i)[0]).startswith("#"))

        for page in (2, 3):
            shown_before = table.row_count
            await pilot.press("ctrl+end")  # the last line
            await until(pilot, lambda: events() > (page - 1) * size, f"page {page} read")  # noqa: B023
            if page == 2:
                second_last = shown_before + (table.row_count - shown_before) - 1
        refs = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert refs[: len(first)] == first
        # Every event once, newest first, down to the setup (#1).
        ids = [int(r.strip("#")) for r in refs if r.startswith("#")]
        assert ids == sorted(set(ids), reverse=True) and ids[-1] == 1 and len(ids) == 2 * PAGE + 31
        assert table.cursor_row == second_last  # the cursor stays on the line it reached


async def test_long_changes_wrap_within_80_columns_and_are_read_whole(campaign_file, make_app):
    """What changed wraps onto more lines of its row instead of running off the right edge;
    a resize lays the rows out again at the new width."""
    from campaigns import oob

    session = CampaignSession.open(campaign_file)
    unit = oob.side_units(oob.tree(session)[0])[0]
    long_name = "Grande Armée reserve of the Imperial Guard under the Duke of Treviso, with its parks"
    oob.edit_unit(session, unit.id, {**unit.model_dump(), "name": long_name})
    session.close()
    async with make_app(campaign_file, start="history").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "of the Imperial Guard")
        table = pilot.app.screen.query_one("#events")

        def fits(width: int) -> None:
            used = sum(w + 2 for w in table.widths)  # each column padded one cell each side
            assert used <= width - 2, (used, width)  # the columns and a scroll bar
            texts = ["\n".join(table.lines_of(i)) for i in range(table.row_count)]
            whole = [" ".join(e.text.split()) for e in pilot.app.screen._rows]
            assert [" ".join(t.split()) for t in texts] == whole  # every word of every line, none cut
            assert whole[0].endswith("with its parks")
            what = table.widths[2]
            assert all(len(line) <= what for t in texts for line in t.split("\n"))

        fits(80)
        assert any(len(table.lines_of(i)) > 1 for i in range(table.row_count))  # it did wrap
        shown = screen_text(pilot.app)
        assert "with its parks" in shown
        await pilot.resize_terminal(140, 30)

        def fitting(width: int) -> bool:
            try:
                fits(width)
            except AssertionError:
                return False
            return table.widths[2] > 80 - 2 - sum(w + 2 for w in table.widths[:2]) - 2  # laid out at the new width

        await until(pilot, lambda: fitting(140), "the rows laid out again at 140 columns")
        fits(140)


async def test_the_note_on_a_short_filter_is_read_whole_at_80_columns(campaign_file, make_app):
    async with make_app(campaign_file, start="history").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "New campaign")
        await pilot.press("slash")
        await type_text(pilot, "w")
        shown = await wait_for(pilot, "one or two letters")
        assert "lines only" in shown  # the end of the note, on the title's one line


async def test_a_letter_is_drawn_without_its_answer_when_the_search_is_slow(campaign_file, make_app, monkeypatch):
    """A letter waits to be drawn with its answer, in one pass over the screen, but no
    longer than FilterBox.HOLD: a slow database never hides what is typed."""
    import threading

    from campaigns import history

    gate = threading.Event()
    gate.set()
    read = history.entries

    def slow(*args, **kwargs):  # the real search, once the test lets it go on
        gate.wait(60)
        return read(*args, **kwargs)

    async with make_app(campaign_file, start="history").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "New campaign")
        screen = pilot.app.screen
        monkeypatch.setattr(history, "entries", slow)
        box_line = lambda: screen_text(pilot.app).splitlines()[2]  # noqa: E731  (the filter box's text, under its border)
        await pilot.press("slash", "w")
        await until(pilot, lambda: screen.shown_query is not None and screen.shown_query[0] == "w", "the answer to w")
        assert "w " in box_line()
        gate.clear()  # the searches from here wait
        try:
            await pilot.press("e")
            await until(pilot, lambda: "we " in box_line(), "the letter drawn")
            assert screen.shown_query[0] == "w"  # the answer to "we" has not come
        finally:
            gate.set()
        await until(pilot, lambda: screen.shown_query is not None and screen.shown_query[0] == "we", "the answer to we")


async def test_the_filter_deletes_a_word_with_alt_w_as_with_ctrl_w(campaign_file, make_app):
    """A browser keeps ctrl+w (adjutant serve): the filter box answers to alt+w as well."""
    async with make_app(campaign_file, start="history").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "New campaign")
        await pilot.press("slash")
        await type_text(pilot, "weather turn")
        box = pilot.app.screen.query_one("#filter")
        await pilot.press("alt+w")
        assert box.value == "weather "
        await pilot.press("ctrl+w")
        assert box.value == ""


async def test_a_change_made_while_the_first_page_was_read_early_is_shown(campaign_file, make_app):
    """The newest page is read as the screen is built, before it shows the campaign. An
    action committed in between (here by another umpire on the same file) moves the
    version on: the screen reads the page again rather than show the one read before it."""
    import time

    from campaigns import weather
    from tui.screens.history import HistoryScreen
    from tui.textual_private import mount_offscreen

    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = HistoryScreen()
        app.install_screen(screen, "history")
        await mount_offscreen(app, screen)  # composed: the first page is being read
        deadline = time.monotonic() + 30
        while screen._early is None:  # read, and kept until the screen shows the campaign
            assert time.monotonic() < deadline, "the first page was never read"
            await pilot.pause(0.01)
        other = CampaignSession.open(campaign_file)
        try:
            weather.roll(other, [4])
        finally:
            other.close()
        await app.switch_screen("history")
        await wait_for(pilot, "Weather for turn 1")


async def test_undo_of_a_hostile_history_shows_one_sentence_and_changes_nothing(campaign_file, make_app):
    """A history edited by another hand to write SP 10,000 back (the order of battle's form takes
    0 to 9,999): `u` shows the sentence naming the event and the value, and the file is as it was."""
    import json
    import sqlite3

    from models import Unit

    session = CampaignSession.open(campaign_file)
    try:
        with session.store.action("Ney's corps reinforced") as db:
            unit = db.scalars(select(Unit).order_by(Unit.id)).first()
            unit.strength_points += 1
            number = session.store.current_event
    finally:
        session.close()
    with sqlite3.connect(campaign_file) as db:
        (changes,) = db.execute("SELECT changes FROM event WHERE id = ?", (number,)).fetchone()
        changes = json.loads(changes)
        changes[0]["before"]["strength_points"] = 10_000
        db.execute("UPDATE event SET changes = ? WHERE id = ?", (json.dumps(changes), number))
    db.close()
    planted = campaign_file.read_bytes()
    async with make_app(campaign_file).run_test(size=(100, 30)) as pilot:
        await pilot.press("u")
        notice = await wait_for_notice(pilot, f"Cannot undo event #{number}")
    assert "unit.strength_points = 10000" in notice and notice.endswith("nothing was changed."), notice
    assert campaign_file.read_bytes() == planted


async def test_the_filters_hint_promises_only_what_the_filter_finds(campaign_file, make_app):
    """Each example the filter box gives finds an action of a turn played, and a unit's name finds
    the move that took it along with its stack, as the box says. Before (session 17), a unit moved
    with Ney's stack ("Brenier", "Marchand") found no move: only the description and a roll's purpose
    were searched (models.search); the units each event changed are indexed now (models.event_units),
    and typed in the box a letter at a time the move is listed."""
    import re

    from campaigns import battles, command_points, history, movement, oob, turns, weather

    session = CampaignSession.open(campaign_file)
    try:
        weather.roll(session, [2])
        turns.advance(session)
        command_points.roll(session, "army_of_the_main", [3])
        turns.advance(session, anyway=True)
        movement.activate(session, "ney")
        movement.move(session, "ney", "Naumburg", ["ney", "iii_brenier_girard", "iii_marchand"])
        with stored(campaign_file) as db:
            moved = db.scalars(select(Event.id).order_by(Event.id.desc())).first()
        tree = oob.tree(session)
        french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
        allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
        battles.begin(session, battles.Draft("Lützen", french, allies, battles.leaders_at(session, french),
                                             battles.leaders_at(session, allies), {}, override="placed by hand for the test"))
        async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
            await pilot.press("h")
            await wait_for(pilot, "History")
            hint = pilot.app.screen.query_one("#filter").placeholder
            await pilot.press("slash")
            await type_text(pilot, "Marchand")  # the 39th Division, named by no event's words
            table = pilot.app.screen.query_one("#events")

            def events() -> list[str]:
                return [str(table.get_row_at(i)[0]) for i in range(table.row_count) if str(table.get_row_at(i)[0]).startswith("#")]

            await until(pilot, lambda: events() == [f"#{moved}"], f"the history filtered to the move #{moved}")
        examples = re.findall(r"'([^']+)'", hint)
        assert examples
        for word in examples:
            assert [e for e in history.entries(session, word) if e.ref.startswith("#")], f"{word!r} finds nothing"
        assert "a unit" in hint
        found = [e.ref for e in history.entries(session, "Brenier")]
        assert f"#{moved}" in found, f"the hint names a unit, but 'Brenier' finds {found}, not the move #{moved}"
        with stored(campaign_file) as db:
            assert "Marchand" not in db.get_one(Event, moved).description
    finally:
        session.close()

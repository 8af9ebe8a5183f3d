"""Keys sent in one burst, with no pause for the app: each lands where the umpire is looking.

A key that opens a form is finished (the form drawn and focused) before the
next key is delivered; keys typed while a form closes go to the screen it
returns to, after it has returned. Nothing reaches the screen beneath a form.
"""

from __future__ import annotations


from collections.abc import Callable

import pytest

from sqlalchemy import func, select
from textual import events
from textual.pilot import Pilot

from models import Event, Unit
from tests.tui.helpers import burst, letters, notices, stored, wait_for, wait_for_screen
from tests.tui.polling import caught_up, settled, until
from tui.modals.form import FormScreen
from tui.screens.oob import OrderOfBattleScreen

# Frames drawn at awkward moments (mid-burst, before a table is idle) are what these
# tests can catch: the app draws every frame, as in a terminal (tests/tui/conftest.py).
pytestmark = pytest.mark.every_frame


def count(db, table) -> int:
    return db.scalar(select(func.count()).select_from(table))


async def test_a_burst_through_two_add_forms_adds_both_units_and_undoes_nothing(campaign_file, make_app):
    with stored(campaign_file) as db:
        units, events = count(db, Unit), count(db, Event)
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await burst(pilot, "slash", *letters("kleist"), "enter")
        await wait_for(pilot, "General Kleist")
        # A refused save (no name yet), then the name, saved; the second form typed at once.
        await burst(pilot, "a", "ctrl+s", *letters("Fr bn"), "ctrl+s", "a", "ctrl+a", "ctrl+k", *letters("Ru bn"), "ctrl+s")
        assert isinstance(pilot.app.screen, OrderOfBattleScreen)
    with stored(campaign_file) as db:
        names = set(db.scalars(select(Unit.name).where(Unit.name.in_(["Fr bn", "Ru bn"]))))  # type: ignore[attr-defined]
        assert names == {"Fr bn", "Ru bn"}
        assert (count(db, Unit), count(db, Event)) == (units + 2, events + 2)  # no undo among them


async def test_letters_typed_into_a_refused_form_stay_in_it(campaign_file, make_app):
    with stored(campaign_file) as db:
        events = count(db, Event)
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await burst(pilot, "slash", *letters("zieten"), "enter")
        await wait_for(pilot, "Brigade Zieten")
        # e opens the edit form; clear the name, a refused save, then u and b (undo and
        # the order of battle, beneath the form) typed as part of a new name.
        await burst(pilot, "e", "ctrl+a", "ctrl+k", "ctrl+s", *letters("ub"))
        assert isinstance(pilot.app.screen, FormScreen)
        assert pilot.app.screen.query_one("#f-name").value == "ub"
        assert "Name cannot be empty." in str(pilot.app.screen.query_one("#error").render())
        await burst(pilot, "escape")
        assert isinstance(pilot.app.screen, OrderOfBattleScreen)
    with stored(campaign_file) as db:
        assert count(db, Event) == events


async def test_an_open_form_lays_itself_out_again_when_the_terminal_is_resized(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(120, 40)) as pilot:
        await burst(pilot, "slash", *letters("zieten"), "enter")
        await pilot.app.workers.wait_for_complete()  # the search runs in the database, off the UI thread
        await burst(pilot, "e")
        assert isinstance(pilot.app.screen, FormScreen)
        for width, height in ((60, 20), (80, 24), (120, 40)):
            await pilot.resize_terminal(width, height)

            def laid_out(width: int = width, height: int = height) -> bool:
                box = pilot.app.screen.query_one("VerticalScroll").region
                return box.right <= width and box.bottom <= height and box.width <= 66

            await until(pilot, laid_out, f"the form laid out again at {width}x{height}")
            box = pilot.app.screen.query_one("VerticalScroll").region
            assert box.right <= width and box.bottom <= height and box.width <= 66, (width, box)
            assert pilot.app.focused is pilot.app.screen.query_one("#f-name")  # the focus stays in the form


async def test_a_general_added_right_after_a_search_goes_under_the_one_found_however_slow_the_tree(
    campaign_file, make_app, monkeypatch
):
    """b, /, a name, Enter and g in one burst, with the tree's first reading slow (a loaded
    machine): the keys wait for the tree (the screen's first reading, tui.screens.base), then
    g waits until the cursor is on the general found, and the new general's form is for him
    (it was refused for want of a selection, or opened on another line)."""
    import threading

    from campaigns import oob_view
    from tests.tui.helpers import wait_for_screen
    from tui.textual_private import driver as keyboard

    read_tree = oob_view.skeleton
    tree_may_read = threading.Event()

    def slow_skeleton(session):  # the real reading, once the test lets it go
        tree_may_read.wait(30)
        return read_tree(session)

    monkeypatch.setattr(oob_view, "skeleton", slow_skeleton)
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        for name in ("b", "slash", *letters("kleist"), "enter", "g"):  # as tmux send-keys: no pause between them
            event = events.Key(name, name if len(name) == 1 else None)
            event.set_sender(pilot.app)
            keyboard(pilot.app).send_message(event)
        await wait_for_screen(pilot, OrderOfBattleScreen)
        await pilot.pause(0.1)  # time for a `g` let go too early to land
        assert pilot.app.keys_held, "g was let go before the tree was read"  # type: ignore[attr-defined]
        tree_may_read.set()
        await wait_for_screen(pilot, FormScreen)
        # Until the form is mounted and focused: left while it was being built (a loaded
        # machine), the app closed around it and its on_mount found no field.
        await caught_up(pilot)
        assert pilot.app.screen.title_text == "New general under General Kleist"  # type: ignore[attr-defined]


def typed_at_once(pilot, *names: str) -> None:
    """The keys sent as tmux send-keys sends them, without waiting for the app to catch up."""
    from tui.textual_private import driver as keyboard

    for name in names:
        event = events.Key(name, name if len(name) == 1 else None)
        event.set_sender(pilot.app)
        keyboard(pilot.app).send_message(event)


def held_back(monkeypatch, module, name: str):
    """`module.name` made to wait, in its worker, until the Event returned is set (a slow database)."""
    import threading

    real = getattr(module, name)
    may_read = threading.Event()

    def slow(*args, **kwargs):
        may_read.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, slow)
    return may_read


async def typed(pilot, keys, *, at_once: bool, monkeypatch, hold: tuple[object, str], while_held) -> None:
    """`keys` typed one at a time, each let settle (`at_once` False); or in one burst while
    `hold`, a (module, name), is slow to read, `while_held()` checking what the burst has done
    before the reading is let go, then let settle (`at_once` True)."""
    if not at_once:
        for key in keys:
            await pilot.press(key)
            await settled(pilot)
        return
    may_read = held_back(monkeypatch, *hold)
    try:
        await pilot.press(*keys)
        await while_held()
    finally:
        may_read.set()
    await settled(pilot)


@pytest.mark.parametrize("keys, module, name, shown", [
    pytest.param(("P", "n"), "campaigns.story", "story", "2/6  sp  [losses-french]", id="plots"),
    pytest.param(("h", "k"), "campaigns.history", "entries", "Bookmark on #", id="history"),
    pytest.param(("b", "down", "down"), "campaigns.oob_view", "skeleton", "French Empire and allies: 108 SP", id="oob"),
])
async def test_a_key_typed_with_the_screens_key_waits_for_its_first_reading(campaign_file, make_app, monkeypatch, keys, module, name, shown):
    """P n, h k or b and cursor keys in one burst, the screen slow to read: the keys after the
    screen's wait for the reading (tui.screens.base: the screen's first reading) and act on
    what it shows; they were dropped (the first chart shown, no line under the cursor to
    bookmark, the cursor left on the tree's root)."""
    from importlib import import_module

    from tests.tui.polling import settled
    from tui.screens.registry import screen_class

    may_read = held_back(monkeypatch, import_module(module), name)
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        try:
            typed_at_once(pilot, *keys)
            await wait_for_screen(pilot, screen_class({"P": "plots", "h": "history", "b": "oob"}[keys[0]]))
            await pilot.pause(0.1)  # time for a key let go too early to land
            assert pilot.app.keys_held, f"{keys[1]} was let go before the screen had read"  # type: ignore[attr-defined]
        finally:
            may_read.set()
        await settled(pilot)
        await wait_for(pilot, shown)


@pytest.mark.parametrize("screen_key, module, name", [
    pytest.param("P", "campaigns.story", "story", id="plots"),  # a reading in the screen's own worker
    pytest.param("x", "campaigns.battles", "battles", id="battles"),  # a reading through attempt's worker
])
async def test_a_key_of_the_app_typed_while_a_screen_reads_goes_at_once(campaign_file, make_app, monkeypatch, screen_key, module, name):
    """A screen slow to read can be left: b (the order of battle) typed right after the screen's
    key acts while the screen still reads, and the screen's answer, come later, lands on it."""
    from importlib import import_module

    may_read = held_back(monkeypatch, import_module(module), name)
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        try:
            typed_at_once(pilot, screen_key, "b")
            await wait_for_screen(pilot, OrderOfBattleScreen)
            assert not may_read.is_set()
        finally:
            may_read.set()
        await burst(pilot, "down")  # the reading has ended: the keys go on as ever
        assert isinstance(pilot.app.screen, OrderOfBattleScreen)


async def test_a_burst_through_the_battle_set_up_scrolls_it_as_slow_keys_do(campaign_file, make_app, monkeypatch):
    """A stack marked, the next list's cursor moved down and a row marked, in one burst, on a
    machine whose screen refreshes late (loaded: the refresh comes 1/8 s apart, not 1/60):
    the form is scrolled as after the same keys typed slowly, the row marked in view. Each key
    scrolled the form from the sizes and the scroll as they were before the keys ahead of it
    had been laid out (the summary under the form grown by a line, a scroll not yet done),
    and the form was left a line short of the row marked (a CI snapshot failure)."""
    import shutil

    import textual.screen
    from textual.containers import VerticalScroll

    from tests.tui.helpers import screen_text
    from tests.tui.polling import settled

    keys = ["s", "tab", "down", "down", "down", "space"]

    async def shown(path, slow_refresh: bool) -> tuple[float, str]:
        async with make_app(path, start="battles").run_test(size=(80, 24)) as pilot:
            await pilot.press("n")
            await wait_for(pilot, "nothing marked")
            await burst(pilot, *letters("Lützen"), "tab", "tab", "tab")
            if slow_refresh:
                await burst(pilot, *keys)
            else:
                for name in keys:  # a slow typist: a key, then longer than a frame (1/60 s) before the next
                    await burst(pilot, name)
                    await settled(pilot)
                    await pilot.pause(0.05)
            await settled(pilot)
            form = pilot.app.screen.query_one(VerticalScroll)
            return form.scroll_y, screen_text(pilot.app)

    slow_keys = shutil.copyfile(campaign_file, campaign_file.with_name("slow.campaign"))
    expected = await shown(slow_keys, slow_refresh=False)
    assert "[x]" in expected[1]
    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 1 / 8)  # read as each screen makes its refresh timer
    assert await shown(campaign_file, slow_refresh=True) == expected


async def test_a_key_typed_right_after_a_move_acts_on_the_tree_read_again(campaign_file, make_app, monkeypatch):
    """v, a general's name, Enter and e in one burst, the tree slow to read again after the move
    (a loaded machine): e waits for the tree read again and edits the unit moved, as stored after
    the move. It was delivered as the move ended, while the tree was read: the form was the unit
    as read before the move (its old place; saved, it would have moved him back), or, the tree
    being rebuilt, his old general's."""
    from campaigns import oob_view

    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await burst(pilot, "slash", *letters("zieten"), "enter")
        await wait_for(pilot, "Brigade Zieten: 3 SP")
        await settled(pilot)
        may_read = held_back(monkeypatch, oob_view, "skeleton")
        try:
            typed_at_once(pilot, "v", *letters("Kleist"), "enter", "e")
            await until(pilot, lambda: any("now under General Kleist" in n for n in notices(pilot.app)), "the move told")
            await pilot.pause(0.1)  # time for an e let go too early to land
            assert not isinstance(pilot.app.screen, FormScreen), "e was let go before the tree was read again"
        finally:
            may_read.set()
        await wait_for_screen(pilot, FormScreen)
        await settled(pilot)
        form = pilot.app.screen
        with stored(campaign_file) as db:
            zieten = db.get_one(Unit, "brigade_zieten")
            assert zieten.general == "kleist"
        assert form.title_text == f"Edit {zieten.name}"  # type: ignore[attr-defined]
        assert form.query_one("#f-location").value == zieten.location


async def bookmarked_on_the_history(make_app, path, keys, *, at_once: bool, monkeypatch, held: Callable[[Pilot], bool],
                                    held_for: str, let_go: str) -> tuple[list[str], list[tuple[int, str]]]:
    """`keys` typed on the history of `path` (slowly, or at once with its reading held back until
    `held` holds and a k let go too early has had time to land, which must not happen: `let_go`
    says so); the notices told, and the events bookmarked (id, description), in id order."""
    from campaigns import history
    from models import EventNote

    async with make_app(path, start="history").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "New campaign")
        await settled(pilot)

        async def while_held() -> None:
            await until(pilot, lambda: held(pilot), held_for)
            await pilot.pause(0.1)  # time for a k let go too early to land
            assert pilot.app.keys_held, let_go  # type: ignore[attr-defined]

        await typed(pilot, keys, at_once=at_once, monkeypatch=monkeypatch, hold=(history, "entries"), while_held=while_held)
        told = notices(pilot.app)
    with stored(path) as db:
        return told, sorted((note.event, db.get_one(Event, note.event).description) for note in db.scalars(select(EventNote)))


async def test_a_key_typed_right_after_a_bookmark_acts_on_the_history_read_again(campaign_file, make_app, monkeypatch, tmp_path):
    """k twice in one burst on the history, its page slow to read again after the first
    (a loaded machine): the second k waits for the page read again and bookmarks what the
    same keys typed slowly bookmark (the line under the cursor once the first bookmark's own
    event has come in at the top). It was delivered as the first bookmark was told, while the
    page was read again, and was for the line as read before: it took that bookmark off again."""
    import shutil

    slow_file = tmp_path / "slow.campaign"
    shutil.copy(campaign_file, slow_file)

    async def bookmarked(path, *, at_once: bool) -> tuple[list[str], list[int]]:
        told, notes = await bookmarked_on_the_history(
            make_app, path, ("k", "k"), at_once=at_once, monkeypatch=monkeypatch,
            held=lambda pilot: any("Bookmarked" in n for n in notices(pilot.app)), held_for="the first bookmark told",
            let_go="the second k was let go before the page was read again",
        )
        return [n for n in told if "Bookmark" in n], [event for event, _description in notes]

    slowly = await bookmarked(slow_file, at_once=False)
    assert len(slowly[1]) == 2  # two events bookmarked, none taken off
    assert await bookmarked(campaign_file, at_once=True) == slowly


@pytest.mark.parametrize("keys, found", [
    pytest.param(("slash", *letters("weather"), "enter", "k"), ["Bookmarked #2: Weather for turn 1."], id="filter"),
    # The dice only list no event (a line starting with #) to bookmark: k says so.
    pytest.param(("d", "k"), ["Choose an event (a line starting with #) first."], id="dice-only"),
])
async def test_a_key_typed_right_after_the_history_filter_acts_on_the_lines_it_finds(campaign_file, make_app, monkeypatch, tmp_path, keys, found):
    """/, a word, Enter and k in one burst (or d and k: the dice only), the history slow to
    search: k waits for the lines found and bookmarks the newest of them, as the same keys
    typed slowly do. It was delivered as Enter left the filter (as d was taken), while the
    search ran, and bookmarked the line under the cursor among the lines shown before (the
    newest event of all, which the search does not find)."""
    import shutil

    from campaigns import oob, weather
    from campaigns.session import CampaignSession

    session = CampaignSession.open(campaign_file)
    weather.roll(session, [2])  # the event the word finds
    unit = oob.side_units(oob.tree(session)[0])[0]
    oob.set_unit_flags(session, unit.id, fatigued=True)  # and a newer one it does not
    session.close()
    slow_file = tmp_path / "slow.campaign"
    shutil.copy(campaign_file, slow_file)

    async def bookmarked(path, *, at_once: bool) -> tuple[list[str], list[str]]:
        told, notes = await bookmarked_on_the_history(
            make_app, path, keys, at_once=at_once, monkeypatch=monkeypatch,
            held=lambda pilot: pilot.app.focused is pilot.app.screen.query_one("#events"), held_for="Enter taken",
            let_go="k was let go before the search had answered",
        )
        return told, [description for _event, description in notes]

    slowly = await bookmarked(slow_file, at_once=False)
    assert slowly[0] == found
    assert await bookmarked(campaign_file, at_once=True) == slowly


async def test_a_cursor_key_typed_at_the_last_line_of_the_history_goes_into_the_next_page(campaign_file, make_app, monkeypatch, tmp_path):
    """ctrl+end and Down in one burst, the history slow to read its next page: Down waits for the
    page the cursor reaching the last line asks for, and goes to its first line, as typed slowly.
    It was delivered while the page was read, at the last line there was, and was lost."""
    import shutil

    from campaigns import history, oob
    from campaigns.session import CampaignSession
    from tui.screens.history import PAGE

    session = CampaignSession.open(campaign_file)
    unit = oob.side_units(oob.tree(session)[0])[0]
    for n in range(2 * PAGE):
        oob.set_unit_flags(session, unit.id, fatigued=n % 2 == 0)
    session.close()
    slow_file = tmp_path / "slow.campaign"
    shutil.copy(campaign_file, slow_file)
    keys = ("ctrl+end", "down")

    async def under_cursor(path, *, at_once: bool) -> tuple[int, str]:
        async with make_app(path, start="history").run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, f"Mark {unit.name}")
            await settled(pilot)
            table = pilot.app.screen.query_one("#events")

            async def while_held() -> None:
                await pilot.pause(0.1)  # time for a Down let go too early to land
                assert pilot.app.keys_held, "Down was let go before the next page was read"  # type: ignore[attr-defined]

            await typed(pilot, keys, at_once=at_once, monkeypatch=monkeypatch, hold=(history, "entries"), while_held=while_held)
            return table.cursor_row, str(table.get_row_at(table.cursor_row)[0])

    slowly = await under_cursor(slow_file, at_once=False)
    assert slowly[1].startswith("#")  # the first line of the next page: an event
    assert await under_cursor(campaign_file, at_once=True) == slowly


async def test_a_unit_edited_right_after_a_cursor_move_is_one_of_the_line_moved_to(campaign_file, make_app, monkeypatch, tmp_path):
    """Down, Tab and e in one burst on the order of battle, its units slow to list (a loaded
    machine): the form edits the first unit of the general the cursor moved to, as typed slowly.
    e was delivered while that general's units were read, and edited the first unit the table
    still listed: the general's the cursor had left (saved, the form would change that unit)."""
    import shutil

    from campaigns import oob_view

    slow_file = tmp_path / "slow.campaign"
    shutil.copy(campaign_file, slow_file)
    keys = ("down", "tab", "e")

    async def edited(path, *, at_once: bool) -> str:
        async with make_app(path, start="oob").run_test(size=(100, 30)) as pilot:
            await burst(pilot, "slash", *letters("kleist"), "enter")
            await wait_for(pilot, "Kleist's Corps")  # his units listed
            await settled(pilot)

            async def while_held() -> None:
                await pilot.pause(0.1)  # time for an e let go too early to land
                assert not isinstance(pilot.app.screen, FormScreen), "e was let go before the units were listed"

            await typed(pilot, keys, at_once=at_once, monkeypatch=monkeypatch, hold=(oob_view, "listed"), while_held=while_held)
            await wait_for_screen(pilot, FormScreen)
            await settled(pilot)
            return pilot.app.screen.title_text  # type: ignore[attr-defined]

    slowly = await edited(slow_file, at_once=False)
    assert slowly.startswith("Edit ") and "Kleist" not in slowly
    assert await edited(campaign_file, at_once=True) == slowly

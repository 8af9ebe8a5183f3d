"""The Plots and Luck screens on a campaign ten turns in, without colour, at 80x24 and 120x40."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from sqlalchemy import select

from campaigns import notes
from campaigns.session import CampaignSession
from models import Event
from tests.played import play
from tests.tui.helpers import burst, screen_text, type_text, wait_for
from tests.tui.polling import settled, until
from tui.textual_private import notification_messages

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.fixture(scope="module")
def ten_turns(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(tmp_path_factory.mktemp("played") / "ten.campaign", 10)


@pytest.fixture
def played(ten_turns: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NO_COLOR", "1")
    return Path(shutil.copy(ten_turns, tmp_path / "ten.campaign"))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name, shown, keys", [
    pytest.param("plots", "Strength points at the end of each turn", [], id="plots-sp"),
    pytest.param("plots", "SP lost by Russia and Prussia", ["n", "n"], id="plots-losses"),
    pytest.param("plots", "Luck by turn", ["p"], id="plots-luck"),
    pytest.param("luck", "French Empire", [], id="luck"),
])
def test_story_screen(snap_compare, make_app, played, name, shown, keys, size):
    async def loaded(pilot):
        await wait_for(pilot, shown if not keys else "(n/p)")
        for key in keys:
            await pilot.press(key)
        await wait_for(pilot, shown)

    app = make_app(played, start=name)
    assert app.no_color
    assert snap_compare(app, run_before=loaded, terminal_size=size)


async def test_the_plots_turn_and_the_luck_shows_one_side(make_app, played):
    app = make_app(played, start="plots")  # P typed on the overview: test_plots_typed_with_the_key_that_opens_them...
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "1/6  [sp]")
        await pilot.press("n")
        assert "SP lost by French Empire and allies" in await wait_for(pilot, "2/6")
        await pilot.press("L")
        await wait_for(pilot, "every side")
        await pilot.press("s")
        text = await wait_for(pilot, "French Empire and allies (s)")
        assert "Russia and" not in text.split("\n", 5)[4]
        await pilot.press("s", "s")
        assert "every side" in await wait_for(pilot, "every side")
        assert "Luck" in screen_text(app)


@pytest.mark.parametrize(("keys", "shown"), [(("n", "n"), "3/6  sp  losses-french  [losses-allies]"), (("p",), "6/6")])
async def test_plots_typed_with_the_key_that_opens_them_are_the_plots_shown(make_app, played, keys, shown):
    """P n n (or P p) in one burst, as tmux send-keys sends them: the steps typed before the
    story is read are taken once it is (they were lost, and the first chart shown)."""
    app = make_app(played, start="overview")
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "P", *keys)
        assert shown in await wait_for(pilot, shown)


async def test_a_side_typed_with_the_key_that_opens_the_luck_is_the_side_shown(make_app, played):
    """L s in one burst: the s typed before the sides are read is taken once they are."""
    app = make_app(played, start="overview")
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "L", "s")
        assert "every side" not in await wait_for(pilot, "French Empire and allies (s)")


async def test_the_plots_read_the_luck_when_its_chart_is_shown(make_app, played):
    """The luck by turn needs the luck ledger (every roll): the charts before it are shown
    without it, and once it is shown it is the chart the report draws, read again after a change."""
    from campaigns.charts import charts
    from campaigns.luck import ledger
    from campaigns.story import story

    app = make_app(played, start="plots")  # P typed on the overview: test_plots_typed_with_the_key_that_opens_them...
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "1/6  [sp]")
        await settled(pilot)
        screen = app.screen
        assert screen.luck_asked is None and screen.luck_read is None
        assert not [w for w in app.workers if w.group == "luck"]
        assert "luck.tallied" not in app.session._kept  # no roll counted yet
        whole = charts(story(app.session, ledger(app.session, latest=0)))
        assert screen.charts[:-1] == whole[:-1] and screen.charts[-1].id == whole[-1].id == "luck"
        await pilot.press("p")
        await wait_for(pilot, "Luck by turn")
        assert screen.charts == whole and screen.luck_read is screen.story
        assert "luck.tallied" in app.session._kept
        before = screen.story
        screen.refresh_view()  # as after a change: the story is read again, and its luck
        await until(pilot, lambda: screen.story is not before and screen.luck_read is screen.story, "the luck read again")
        assert screen.charts == whole
        assert "Luck by turn" in await wait_for(pilot, "6/6")


async def test_the_campaign_as_of_turn_5_and_back(make_app, played):
    before = hashlib.sha256(played.read_bytes()).hexdigest()
    app = make_app(played, start="overview")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("T")
        await type_text(pilot, "5")
        await pilot.press("enter")
        await wait_for(pilot, "AS OF THE END OF TURN 5 (read-only)")
        await pilot.press("w")
        await wait_for(pilot, "Turn 5, 04 May 1813: Mud")
        await pilot.press("u")
        await notified(pilot, "This is the campaign as of the end of turn 5, read-only")
        await pilot.press("T")
        await pilot.press("enter")
        await notified(pilot, "Back to the campaign as it is now")
        text = await wait_for(pilot, "Turn 11 of 20")
        assert "AS OF" not in text
    assert hashlib.sha256(played.read_bytes()).hexdigest() == before


async def test_the_overview_of_the_past_reads_its_weather_with_the_screens_prepared(make_app, played):
    # The overview's weather box waits for the umpire to pause; the screens prepared for the
    # past waited for that box's reading to end, and each put the other off for ever: the box
    # said "Next turn: …" as long as the view of the past was shown.
    app = make_app(played, start="overview", prepare=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Month modifier: +")
        await pilot.press("T")
        await type_text(pilot, "5")
        await pilot.press("enter")
        await wait_for(pilot, "AS OF THE END OF TURN 5 (read-only)")
        await wait_for(pilot, "Month modifier: +", seconds=20)


async def test_a_bookmark_is_a_place_to_go_back_to(make_app, played):
    session = CampaignSession.open(played)
    try:
        with session.store.read() as db:
            lutzen = db.scalars(select(Event.id).where(Event.description.like("Battle of Lützen begins%"))).one()
        notes.toggle_bookmark(session, lutzen)
    finally:
        session.close()
    app = make_app(played, start="overview")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("T")
        await wait_for(pilot, "Or a bookmark")
        choice = next(c for c in app.screen.fields[1][3] if c.startswith(f"#{lutzen} Battle of Lützen begins"))
        app.screen.query_one("#f-mark").value = choice
        await pilot.press("ctrl+s")
        await wait_for(pilot, f"AS OF JUST BEFORE EVENT #{lutzen} (read-only)")
        assert "Turn 3 of 20" in await wait_for(pilot, "Pending battles: 0")


async def test_a_bookmark_from_the_history_is_an_action(make_app, played):
    app = make_app(played, start="history")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "End of turn 10")
        await pilot.press("k")
        await notified(pilot, "Bookmarked #")
        await pilot.press("a")
        await type_text(pilot, "Ney reaches Dresden")
        await pilot.press("enter")
        await notified(pilot, "Note added to #")
        await pilot.press("u")
        await notified(pilot, "Undone: Note on #")
    session = CampaignSession.open(played)
    try:
        assert [(m.kind, m.description) for m in notes.marked(session)] == [("bookmark", "End of turn 10: turn 11 begins")]
    finally:
        session.close()


async def notified(pilot, text: str) -> None:
    """Wait for a notification holding `text` (toasts stack up, and at 80x24 one can be off screen)."""
    try:
        await until(pilot, lambda: any(text in m for m in notification_messages(pilot.app)), f"a notification {text!r}")
    except AssertionError as error:
        raise AssertionError(f"{error}: {notification_messages(pilot.app)}") from None


async def test_the_luck_tables_keep_80_columns_and_cut_no_name(make_app, played):
    """Nine columns of figures by side, and what each roll decided: the side's name and
    the decision wrap onto more lines of their rows; nothing runs off the right edge."""
    app = make_app(played, start="luck")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "French Empire")
        await settled(pilot)
        await until(pilot, lambda: all(app.screen.query_one(n).row_count for n in ("#sides", "#rolls")), "both tables filled")
        for name in ("#sides", "#rolls"):
            table = app.screen.query_one(name)
            assert table.row_count
            assert table.virtual_size.width <= table.size.width, name  # nothing off the right edge
            assert not any("…" in str(cell) for row in table.ordered_rows for cell in table.get_row(row.key))
        sides = app.screen.query_one("#sides")
        names = [" ".join(str(sides.get_row(r.key)[0]).split()) for r in sides.ordered_rows if str(r.key.value).endswith(":all")]
        assert "French Empire and allies" in names


def test_the_rolls_columns_are_as_wide_as_every_roll_counted(played):
    """The rolls' columns are sized from their few distinct figures, each row's text made only
    as it scrolls into view: the widths are those of counting every row (names with accents)."""
    from rich.cells import cell_len

    from campaigns.luck import ledger
    from campaigns.text import shown
    from tui.screens.luck import ROLL_HEADERS, Rolls

    session = CampaignSession.open(played)
    try:
        book = ledger(session)
    finally:
        session.close()
    rolls = Rolls(book.rolls)
    assert [key for key, _cells in rolls] == [str(r.roll_id) for r in reversed(book.rolls)]
    counted = [len(h) for h in ROLL_HEADERS]
    for _key, cells in rolls:
        counted = [max(w, cell_len(shown(c))) for w, c in zip(counted, cells)]
    assert any(not c.isascii() for _key, cells in rolls for c in cells)
    assert rolls.widths(ROLL_HEADERS) == counted

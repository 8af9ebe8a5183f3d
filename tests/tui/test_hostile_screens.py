"""The app on campaign files from a hostile sender: every screen shows their text inert, or the
file is refused in one sentence; a screen that cannot be built ends in one sentence, not a traceback.

The bytes checked are the ones the terminal would be sent: each screen's full
update rendered as Textual renders it for the terminal (`render_segments`),
with Textual's own sequences (colours, cursor moves, links) taken out; what is
left must hold no control character at all.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from campaigns.text import BIDI_CONTROLS
from models import check_campaign
from tests import hostile, seeds
from tests.test_hostile_files import played
from tui.app import AdjutantApp
from tui.commands import SCREENS
from tui.textual_private import notification_messages, screen_update

from .helpers import drawn_text, screen_text_printed
from .polling import settled

# What Textual itself writes in a frame: SGR colours, cursor moves and OSC 8 links.
TEXTUAL_SEQUENCES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\]8;[^\x1b]*\x1b\\")
# Control characters, and the bidirectional ones (on screen a table writes them out, "<U+202E>",
# and the line filter removes any left: tui/widgets/inert.py).
CONTROL = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}]")
# Files with a bad value in a column drawn each run, as of every other kind: one. Of the 168 such
# files 144 open, and each open file is every screen built and read (about 1 CPU-s); a second
# one a run found nothing the first did not. Over runs the seed reaches every column.
BAD_VALUES = 1


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played(tmp_path_factory.mktemp("real") / "real.campaign")


def terminal_bytes(app: AdjutantApp) -> str:
    update = screen_update(app)
    return update.render_segments(app.console)


def assert_inert(app: AdjutantApp, where: str) -> None:
    # The app tests read the screen from the drawing's lines (helpers.screen_text): on every
    # screen of every hostile file, the text Rich exports of the drawing printed. One
    # drawing for both readings and the bytes sent (three of the same screen were 30 ms).
    update = screen_update(app)
    assert drawn_text(update) == screen_text_printed(app, update), where
    sent = update.render_segments(app.console)
    assert "\x1b]0;" not in sent and "\x1b[2J" not in sent and "\x9b" not in sent, where
    left = CONTROL.findall(TEXTUAL_SEQUENCES.sub("", sent).replace("\n", ""))
    assert not left, f"{where}: the terminal would be sent {left[:5]!r}"


async def visit_every_screen(path: Path, what: str) -> None:
    try:
        session = CampaignSession.open(path)
    except CampaignError as exc:  # refused: one sentence, as the command line says it
        assert "\n" not in str(exc) and not CONTROL.search(str(exc)), what
        return
    app = AdjutantApp(session, prepare=False)  # each screen built as it is shown
    app.animation_level = "none"
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settled(pilot)
            for command in SCREENS:
                await app.run_action(command.action)
                await settled(pilot)  # shown (or refused in a notice), and what its workers read drawn
                assert_inert(app, f"{what}: {command.name}")
            await pilot.press("question_mark")
            await settled(pilot)
            assert_inert(app, f"{what}: help")
    except AssertionError:
        raise
    except Exception:  # noqa: BLE001  (Pilot hands on what ended the app: it must have ended in one sentence)
        assert app.return_code == 2, what
        assert app.failure is not None and app.failure.startswith("adjutant: "), what
        assert "\n" not in app.failure and not CONTROL.search(app.failure), what
        # A file the app cannot show is one `check` refuses.
        assert not check_campaign(path).sound, f"{what}: the app failed on it, yet check calls it sound"


async def test_every_screen_shows_escapes_in_every_text_column_inert(real: Path, tmp_path: Path) -> None:
    path = tmp_path / "escapes.campaign"
    hostile.every_text_escaped(path, real, random.Random(1))
    await visit_every_screen(path, "every text escaped")


async def test_a_bidi_override_in_a_name_is_written_out_in_the_order_of_battle(real: Path, tmp_path: Path) -> None:
    """U+202E turns what follows it around on a terminal ("Trojan Source": "\u202eetoN" reads "Note"):
    the tree and the table show it as <U+202E>, so the umpire sees it, and send none to the terminal."""
    import shutil
    import sqlite3

    path = tmp_path / "bidi.campaign"
    shutil.copyfile(real, path)
    db = sqlite3.connect(path)
    db.execute("UPDATE army SET name = char(8238) || name")
    db.execute("UPDATE unit SET name = char(8238) || name")
    db.commit()
    db.close()
    app = AdjutantApp(CampaignSession.open(path), prepare=False)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("b")
        await settled(pilot)
        assert_inert(app, "order of battle")
        lines = TEXTUAL_SEQUENCES.sub("", terminal_bytes(app)).splitlines()
        written = [line for line in lines if "<U+202E>" in line]
        assert any(line.rstrip().endswith("SP)") for line in written), lines  # an army of the tree
        assert any(" infantry " in line or " DUMMY " in line for line in written), lines  # a unit of the table


async def test_luck_and_its_chart_say_a_roll_whose_dice_no_roll_stores_is_damaged(real: Path, tmp_path: Path) -> None:
    """The luck's worker failed silently on such a file: "Reading every roll..." stayed for ever."""
    import shutil
    import sqlite3

    path = tmp_path / "dice.campaign"
    shutil.copyfile(real, path)
    db = sqlite3.connect(path)
    db.execute("UPDATE dice_roll SET dice = 'abc' WHERE rowid = (SELECT min(rowid) FROM dice_roll)")
    db.commit()
    db.close()
    app = AdjutantApp(CampaignSession.open(path), prepare=False)
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await pilot.press("L")
        await settled(pilot)
        said = "The campaign is damaged: a roll's dice cannot be weighed"
        assert said in str(app.screen.query_one("#method").content)
        assert any(said in message for message in notification_messages(app))
        app.clear_notifications()
        await pilot.press("P")
        await settled(pilot)
        await pilot.press("p")  # the last chart: the luck by turn
        await settled(pilot)
        assert any(said in message for message in notification_messages(app))
        assert app.return_code is None and app.failure is None


def kind_of(make: hostile.Maker) -> str:
    """The kind of hostile file a maker makes: its name up to the column, table or statement it picks
    ("bad value in", "escapes in", "sql:", "random_bytes", ...)."""
    name = make.__name__
    for kind in ("bad value in", "escapes in", "sql: DROP TABLE", "sql:"):
        if name.startswith(kind):
            return kind
    return name


def drawn(real: Path, seed: int) -> list[hostile.Maker]:
    """One maker of every kind of the corpus, drawn with `seed`: over runs, every column and
    statement is tried; each run, every kind (bytes, truncation, bit flips, foreign SQLite, WAL,
    a trigger, view, table, index or version, a dropped table, a bad value in a column, escapes
    in a column), and BAD_VALUES bad values, the corpus's largest kind (168 files)."""
    rng = random.Random(seed)
    by_kind: dict[str, list[hostile.Maker]] = {}
    for make in hostile.makers(real):
        if make is not hostile.every_text_escaped:  # every run, in the test above
            by_kind.setdefault(kind_of(make), []).append(make)
    return [make for kind, makers in sorted(by_kind.items()) for make in rng.sample(makers, BAD_VALUES if kind == "bad value in" else 1)]


async def test_a_sample_of_the_corpus_opens_inert_or_is_refused(real: Path, tmp_path: Path) -> None:
    """Every kind of the corpus once, its column, statement or bytes drawn with the run's seed
    (tests/seeds.py); `python -m tests.tui.hostile_screens_corpus` opens the whole corpus in the app."""
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    chosen = drawn(real, seed)
    assert len({kind_of(make) for make in chosen}) == 9 and len(chosen) == 9 + BAD_VALUES - 1
    for number, make in enumerate(chosen):
        (tmp_path / str(number)).mkdir()
        path = tmp_path / str(number) / "hostile.campaign"
        make(path, real, random.Random(seed + number))
        await visit_every_screen(path, f"{make.__name__} ({seeds.replay(seed)})")


async def test_a_screen_that_cannot_be_built_ends_the_app_in_one_sentence(
    campaign_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error while the first screen mounts: no traceback, one sentence for stderr, exit code 2."""
    from tui.screens.overview import OverviewScreen

    def damaged(_self: object) -> None:
        raise CampaignError("the campaign's order of battle cannot be read")

    monkeypatch.setattr(OverviewScreen, "refresh_view", damaged)
    app = AdjutantApp(CampaignSession.open(campaign_file), prepare=False)
    with pytest.raises(CampaignError):  # Pilot hands the error on to the test as well
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
    assert app.return_code == 2
    assert app.failure == "adjutant: the campaign's order of battle cannot be read"


async def test_a_screen_prepared_in_the_background_that_fails_is_a_notice(
    campaign_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other screens still work: the app says so and goes on."""
    from tui.screens.history import HistoryScreen

    def damaged(_self: object) -> None:
        raise CampaignError("the history cannot be read")

    monkeypatch.setattr(HistoryScreen, "refresh_view", damaged)
    app = AdjutantApp(CampaignSession.open(campaign_file), prepare=True)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        deadline = time.monotonic() + 15  # built once its imports are done and no screen is asked for
        while time.monotonic() < deadline:
            await pilot.pause(0.02)
            if any("history cannot be read" in str(m) for m in notification_messages(app)):
                break
        assert any("history cannot be read" in str(m) for m in notification_messages(app))
        assert app.is_running and app.return_code is None


async def test_quitting_while_screens_are_prepared_does_not_crash(campaign_file: Path) -> None:
    for delay in (0, 2, 5):
        app = AdjutantApp(CampaignSession.open(campaign_file), prepare=True)
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(delay):
                await pilot.pause()
            await pilot.press("q")
        assert app.return_code in (0, None) and app.failure is None

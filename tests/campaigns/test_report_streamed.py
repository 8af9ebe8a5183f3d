"""`adjutant luck` and `adjutant report` read every roll as they write it, in memory that does
not grow with the campaign, and write what they wrote when they held the whole ledger:

- `luck.each_roll` lists the rolls `luck.ledger` lists, the same, in the same order, for the
  whole campaign, a side, a turn or a battle; `luck.Tally` counts them as `luck.luck_of` does;
- `adjutant luck` prints, byte for byte, the ledger with every roll (text and JSON);
- a report's long table (`report_rows.Rows`) is drawn, text and HTML, as rich draws the
  whole table, on cells meant to break it: long words, wide and combining characters, line
  separators, trailing spaces, tables wider than the page.
"""

from __future__ import annotations

import json
import random
import sqlite3
import tracemalloc
from pathlib import Path

import pytest
from sqlalchemy import select

from campaigns import luck, report, report_rows
from campaigns.errors import CampaignError
from campaigns.output import indented_json
from campaigns.printable import printable
from campaigns.session import CampaignSession
from models import DiceRoll
from rules.odds import roll_distribution
from tests.played import play
from tests.seeds import replay, run_seed
from tui.cli import main

DICE = [("1d6", []), ("2d6", [{"value": -1, "why": "b"}, {"value": 2, "why": "c"}]), ("1d10", []), ("3d6>=5", [])]
PURPOSES = ["a die", "tabletop", "reconnaissance, column Nowhere", "forced march of Nobody"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six turns played (weather, command points, battles, marches), and 600 rolls more: some
    of undone actions, some of no action, some in the turn not ended yet."""
    path = Path(play(tmp_path_factory.mktemp("streamed") / "played.campaign", 6, ney_unit_name="Ney \u2028 日本 `x`"))
    rng = random.Random(19)
    with sqlite3.connect(path) as db:
        events = [e for (e,) in db.execute("SELECT id FROM event WHERE undone = 0")]
        top = max(events)
        for n, undone in ((1, 1), (2, 0)):
            db.execute("INSERT INTO event (id, \"when\", kind, description, changes, undone) "
                       "SELECT ?, \"when\", kind, 'a roll', '[]', ? FROM event WHERE id = ?", (top + n, undone, top))
        for i in range(600):
            dice, modifiers = rng.choice(DICE)
            d = roll_distribution(dice, sum(int(m["value"]) for m in modifiers))
            result = rng.choices(list(d), weights=[float(p) for p in d.values()])[0]
            db.execute(
                "INSERT INTO dice_roll (event, purpose, dice, raw, modifiers, result, mode, \"by\", \"when\") "
                "VALUES (?, ?, ?, ?, ?, ?, 'rolled', 'umpire', '2025-01-01 00:00:00.000000')",
                (rng.choice([*events, None, top + 1, top + 2]) if i % 40 else None, rng.choice(PURPOSES), dice,
                 json.dumps([rng.randint(1, 6) for _ in range(rng.randint(0, 3))]), json.dumps(modifiers), result),
            )
    return path


def test_each_roll_lists_what_the_ledger_lists(played):
    s = CampaignSession.open(played)
    try:
        book = luck.ledger(s)
        assert list(luck.each_roll(s, batch=7)) == book.rolls  # batches of 7: many a batch
        kinds = {r.kind for r in book.rolls}
        assert {luck.WEATHER, luck.COMMAND, luck.BATTLE, luck.OTHER} <= kinds
        for side in book.sides:
            assert list(luck.each_roll(s, side)) == luck.ledger(s, side).rolls
        turns = {r.turn for r in book.rolls}
        assert {None, 1, 6, 7} <= turns
        for turn in [*(t for t in turns if t is not None), 0, 8, 2**40]:
            assert list(luck.each_roll(s, turn=turn)) == [r for r in book.rolls if r.turn == turn], turn
        with s.store.read() as db:
            battles = set(db.scalars(select(DiceRoll.battle).where(DiceRoll.battle.is_not(None))))
        assert battles
        for battle in battles:
            mine = list(luck.each_roll(s, battle=battle))
            assert mine and all(r.kind in (luck.BATTLE, luck.MORALE, luck.PURSUIT, luck.TACTICAL) for r in mine)
            assert mine == [r for r in book.rolls if r.roll_id in {m.roll_id for m in mine}]
        with pytest.raises(CampaignError, match="there is no side 'prussia'"):
            next(luck.each_roll(s, "prussia"))
    finally:
        s.close()


def test_a_tally_counts_as_luck_of(played):
    s = CampaignSession.open(played)
    try:
        book = luck.ledger(s)
    finally:
        s.close()
    for side in [*book.sides, luck.BOTH]:
        for turn in [None, 1, 3, 7]:
            rolls = [r for r in book.rolls if luck.counts_for(r, side) and (turn is None or r.turn == turn)]
            tally = luck.Tally(side, turn)
            for r in rolls:
                tally.add(r)
            assert tally.rolls == len(rolls)
            assert tally.luck() == luck.luck_of(side, turn, rolls), (side, turn)


@pytest.mark.parametrize("side", [None, "french"])
def test_luck_prints_the_whole_ledger_byte_for_byte(played, capsys, side):
    s = CampaignSession.open(played)
    try:
        book = luck.ledger(s, side)
    finally:
        s.close()
    extra = ["--side", side] if side else []
    assert main(["luck", str(played), *extra]) == 0
    assert capsys.readouterr().out == "".join(printable(line) + "\n" for line in luck.lines(book))
    assert main(["luck", str(played), "--json", *extra]) == 0
    assert capsys.readouterr().out == json.dumps(luck.as_json(book), indent=2, ensure_ascii=True) + "\n"


def test_indented_json_is_json_dumps(played):
    seed = run_seed()
    rng = random.Random(seed)
    letters = [*"az09 \"\\/", "\x00", "\x1f", "\x7f", "é", "日", "\u2028", "\U0001f600"]

    def drawn(depth: int = 0) -> object:
        k = rng.random()
        if depth < 3 and k < 0.2:
            return {"".join(rng.choices(letters, k=rng.randint(0, 3))): drawn(depth + 1) for _ in range(rng.randint(0, 3))}
        if depth < 3 and k < 0.35:
            return [drawn(depth + 1) for _ in range(rng.randint(0, 3))]
        return rng.choice([
            "".join(rng.choices(letters, k=rng.randint(0, 6))), None, True, False, rng.randint(-10**6, 10**6), 2**70, -(2**64),
            round(rng.random() * 10 ** rng.randint(-9, 20), rng.randint(0, 9)), 1e-4, 1e16, -0.0, float("nan"), float("inf"),
        ])

    for _ in range(3000):
        value, level = drawn(), rng.randint(0, 3)
        assert indented_json(value, level) == json.dumps(value, indent=2, ensure_ascii=True).replace("\n", "\n" + "  " * level), replay(seed)


# -- a long table, drawn as it is read ------------------------------------------------------------

HOSTILE_CELLS = [
    "", " ", "x", "trailing  ", "  leading", "a" * 140, "word " * 30, "日本語の長い名前" * 6, "e\u0301te\u0301", "\u2028between\u2029",
    "tab\there", "Lützen", "😀 emoji 😀", "right-to-left \u202e", "`code`", "<b>&amp;</b>", "[bold]markup[/bold]", "-",
]


def _drawn_both_ways(rows: list[list[object]], headers: list[str], right: tuple[int, ...], html: bool,
                     title: str | None = "A table", **extra) -> tuple[str, str]:
    draw = lambda part: report._drawn(part, html)  # noqa: E731
    streamed = "".join(report_rows.drawn(report_rows.Rows(title, headers, lambda: iter(rows), right, **extra), draw, html=html, width=report.WIDTH))
    if not rows and extra.get("none") is not None:
        whole = draw(extra["none"])
    else:
        whole = draw(report_rows.table(title, headers, rows, right=right)) + (draw(extra["after"]) if rows and extra.get("after") is not None else "")
    return streamed, whole


@pytest.mark.parametrize("html", [False, True])
def test_a_long_table_is_drawn_as_rich_draws_it_whole(html):
    seed = run_seed()
    rng = random.Random(seed)
    for case in range(30):
        columns = rng.randint(1, 7)
        right = tuple(i for i in range(columns) if rng.random() < 0.4)
        headers = [rng.choice(["#", "Turn", "What", "A long header name", "日本"]) for _ in range(columns)]
        plain = case % 3 == 0  # tables whose cells all fit, as nearly all rolls' do
        rows = [[rng.randint(0, 10**rng.randint(0, 8)) if rng.random() < 0.3 else
                 (rng.choice(["1d6 3 +0 = 3", "other", "8 points", "55%"]) if plain else rng.choice(HOSTILE_CELLS))
                 for _ in range(columns)] for _ in range(rng.randint(0, 60))]
        streamed, whole = _drawn_both_ways(rows, headers, right, html, title=rng.choice([None, "A title", "What was done in turn 3"]))
        assert streamed == whole, f"case {case}: {replay(seed)}"
    text = report._drawn(report._t("none"), html)
    assert _drawn_both_ways([], ["a"], (), html, none=report._t("none"))[0] == text
    assert _drawn_both_ways([[1]], ["a"], (), html, none=report._t("none"), after=report._t("after"))[0].endswith(report._drawn(report._t("after"), html))


def test_a_long_table_holds_only_a_batch_in_memory(monkeypatch):
    """20,000 rows drawn: what is held at once is a batch of them, not the table (rich's
    own table of as many rows holds some 100 MB)."""
    monkeypatch.setattr(report_rows, "SPOOL_BYTES", 64 * 1024)  # spooled to disk past 64 KB, so the spool is not counted

    def rows():
        for n in range(20_000):
            yield [n, "-", "other", f"2d6 3 4 +0 = {n % 11 + 2}", "50%", "7.00", f"{n % 11 + 2} points"]

    tracemalloc.start()
    try:
        written = 0
        for piece in report_rows.drawn(report_rows.Rows(None, ["#", "Turn", "What", "Dice", "Pct", "Mean", "Decided"], rows, (0, 1, 4, 5)),
                                       lambda part: report._drawn(part, False), html=False, width=report.WIDTH):
            written += len(piece)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert written > 20_000 * 60
    assert peak < 3 * 1024 * 1024, f"{peak / 1e6:.1f} MB held at once"

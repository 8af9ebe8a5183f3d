"""The luck ledger counts the rolls that decide nothing the campaign knows in the
database (by turn, dice, modifiers and result) and reads the others one by one: on
a played campaign with a few thousand such rolls added, every total and every turn's
figures are exactly those of the rolls read one by one, and a ledger that lists only
the latest rolls counts the same."""

from __future__ import annotations

import json
import random
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

from campaigns import luck
from campaigns.session import CampaignSession
from rules.odds import roll_distribution
from tests.played import play
from tests.rules.test_luck import one_by_one

DICE = [("1d6", []), ("1d6", [{"value": 1, "why": "a"}]), ("2d6", [{"value": -1, "why": "b"}, {"value": 2, "why": "c"}]),
        ("1d10", []), ("3d6>=5", []), ("1d6", [{"value": 1, "why": "another reason"}])]
ADDED = 3000
PLAYED = 10


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # the ten turns the past, report and screen tests play (played once for the run, tests/played.py)
    path = Path(play(tmp_path_factory.mktemp("counted") / "many.campaign", PLAYED))
    rng = random.Random(19)
    with sqlite3.connect(path) as db:
        events = [e for (e,) in db.execute("SELECT id FROM event WHERE undone = 0")]
        top = max(events)
        # two undone actions, whose rolls count for nothing, and one in the turn not ended yet
        for n, undone in ((1, 1), (2, 1), (3, 0)):
            db.execute("INSERT INTO event (id, \"when\", kind, description, changes, undone) "
                       "SELECT ?, \"when\", kind, 'a roll', '[]', ? FROM event WHERE id = ?", (top + n, undone, top))
        purposes = ["a die", "tabletop", "reconnaissance, column Nowhere", "forced march of Nobody"]
        for i in range(ADDED):
            dice, modifiers = rng.choice(DICE)
            d = roll_distribution(dice, sum(int(str(m["value"])) for m in modifiers))
            result = rng.choices(list(d), weights=[float(p) for p in d.values()])[0]
            event = rng.choice([*events, None, top + 1, top + 2, top + 3]) if i % 50 else None
            db.execute(
                "INSERT INTO dice_roll (event, purpose, dice, raw, modifiers, result, mode, \"by\", \"when\") "
                "VALUES (?, ?, ?, '[]', ?, ?, 'rolled', 'umpire', '2025-01-01 00:00:00.000000')",
                (event, rng.choice(purposes), dice, json.dumps(modifiers), result),
            )
    return path


def reference(side: str, rolls: list[luck.RollLuck]) -> tuple[dict[str, Fraction], object]:
    """A side's sums and run from the rolls read one by one, each on its own."""
    sums: dict[str, Fraction] = {}
    for r in rolls:
        for e in r.effects:
            if e.side == side:
                sums[e.unit] = sums.get(e.unit, Fraction(0)) + e.difference
    turned = [(r, f) for r in rolls for s, f in r.favours if s == side] if side else [(r, 1) for r in rolls]
    return sums, one_by_one([(r.distribution, r.result) for r, _ in turned], [f for _, f in turned])


def test_counted_totals_are_those_of_the_rolls_one_by_one(many):
    s = CampaignSession.open(many)
    try:
        book = luck.ledger(s)
        latest = luck.ledger(s, latest=40)
        french = luck.ledger(s, "french", latest=5)
    finally:
        s.close()
    kinds = {r.kind for r in book.rolls}
    assert {luck.WEATHER, luck.COMMAND, luck.MARCH, luck.BATTLE, luck.OTHER} <= kinds  # the played campaign's and ours
    assert book.counted == len(book.rolls)
    assert ADDED * 0.9 < book.totals[luck.BOTH].run.rolls < ADDED  # the undone actions' rolls left out
    assert {r.turn for r in book.rolls if r.kind == luck.OTHER} >= {None, 1, PLAYED, PLAYED + 1}  # the last turn ended, the one not
    for side, item in book.totals.items():
        mine = [r for r in book.rolls if luck.counts_for(r, side)]
        sums, run = reference(side, mine)
        assert (item.sums, item.run) == (sums, run), side
        for t in {r.turn for r in mine if r.turn is not None}:
            by = next(b for b in book.by_turn if (b.side, b.turn) == (side, t))
            sums, run = reference(side, [r for r in mine if r.turn == t])
            assert (by.sums, by.run) == (sums, run), (side, t)
    # listing only the latest rolls changes no figure
    assert (latest.totals, latest.by_turn, latest.counted) == (book.totals, book.by_turn, book.counted)
    assert latest.rolls == book.rolls[-40:]
    mine = [r for r in book.rolls if luck.counts_for(r, "french")]
    assert (french.totals["french"], french.rolls, french.counted) == (book.totals["french"], mine[-5:], len(mine))


def test_counted_on_sqlite_and_postgresql(campaign_target):
    from datetime import datetime, timezone

    from sqlalchemy import select

    from campaigns import command_points, turns, weather
    from models import DiceRoll, Event
    from tests.templates import new_campaign

    s = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=5))
    try:
        weather.roll(s)
        for army in command_points.turn_points(s):
            command_points.roll(s, army.army)
        while turns.status(s).turn == 1:
            turns.advance(s, anyway=True)
        weather.roll(s)
        with s.store.read() as db:
            events = list(db.scalars(select(Event.id)))
        rng = random.Random(7)
        with s.store.action("Add dice for a test") as db:
            for _ in range(200):
                dice, modifiers = rng.choice(DICE)
                d = roll_distribution(dice, sum(int(str(m["value"])) for m in modifiers))
                db.add(DiceRoll(event=rng.choice([*events, None]), purpose="a die", dice=dice, raw=[], modifiers=modifiers,
                                result=rng.choice(list(d)), mode="rolled", when=datetime(2025, 1, 1, tzinfo=timezone.utc)))
            # The latest rolls are read a page at a time, skipping those read one by one (a march's
            # purpose): more of those last than a page holds, then 3 plain rolls after them.
            for n in range(70 + 3):
                db.add(DiceRoll(event=None, purpose="forced march of Nobody" if n < 70 else "a die", dice="1d6", raw=[n % 6 + 1],
                                modifiers=[], result=n % 6 + 1, mode="rolled", when=datetime(2025, 1, 1, tzinfo=timezone.utc)))
        book = luck.ledger(s)
        latest = luck.ledger(s, latest=3)
        paged = luck.ledger(s, latest=75)
    finally:
        s.close()
    assert book.totals[luck.BOTH].run.rolls >= 200
    assert {r.turn for r in book.rolls if r.kind == luck.OTHER} >= {1, 2}
    for side, item in book.totals.items():
        mine = [r for r in book.rolls if luck.counts_for(r, side)]
        assert (item.sums, item.run) == reference(side, mine), side
        for t in {r.turn for r in mine if r.turn is not None}:
            by = next(b for b in book.by_turn if (b.side, b.turn) == (side, t))
            assert (by.sums, by.run) == reference(side, [r for r in mine if r.turn == t]), (side, t)
    assert (latest.totals, latest.by_turn, latest.rolls) == (book.totals, book.by_turn, book.rolls[-3:])
    assert [r.purpose for r in latest.rolls] == ["a die"] * 3
    assert (paged.totals, paged.by_turn, paged.rolls) == (book.totals, book.by_turn, book.rolls[-75:])

"""The dice tally (models.tally, migration 0010) is a count of the rolls as they are: after drawn
actions that roll dice with modifiers, end turns, undo and redo (on SQLite and PostgreSQL), after
`adjutant past` (in one pass and one event at a time), after an export and import, and after the
migration on a file the current code wrote, it equals the rolls counted from scratch; and the luck
ledger's plain rolls counted from it are those counted from the rolls themselves."""

from __future__ import annotations

import atexit
import random
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, String, cast, select, text

from campaigns import luck, past, turns
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import DiceRoll, dumps, loads, open_campaign, rewind, tally
from models.engine import make_engine, writer
from models.errors import StoreError
from models.schema import alembic_config, head, upgrade
from models.targets import to_url
from rules.dice import Modifier
from tests import seeds
from tests.templates import new_campaign

DICE = ("1d6", "2d6", "1d10", "3d6>=5")


def from_scratch(connection: Connection) -> Counter[tally.Key]:
    counts: Counter[tally.Key] = Counter()
    query = select(DiceRoll.event, DiceRoll.dice, cast(DiceRoll.modifiers, String), DiceRoll.result)  # type: ignore[call-overload]
    for event, dice, modifiers, result in connection.execute(query):
        counts[tally.key_of(event, dice, modifiers, result)] += 1
    return counts


def tallied(connection: Connection) -> Counter[tally.Key]:
    return Counter({(b, d, m, r): n for b, d, m, r, n in tally.read(connection)})


def agree(session: CampaignSession, why: str) -> None:
    """The tally is the rolls counted from scratch, and the ledger's plain rolls read from it are
    those counted from the rolls."""
    with session.store.read() as db:
        connection = db.connection()
        assert tallied(connection) == from_scratch(connection), why
        assert tally.in_step(connection), why
        ends = luck.turn_end_events(db)
        special = luck._special_rows(db)
        found = luck._tallied(connection, ends, lambda: None, special)
        assert found is not None, why
        assert found == {k: n for k, n in luck._counted(db, ends, lambda: None).items() if n}, why


def drawn(session: CampaignSession, rng: random.Random, steps: int, check_every: int = 0) -> None:
    """Rolls with modifiers, a turn ended now and then, runs of undos, a redo."""
    for step in range(steps):
        draw = rng.random()
        try:
            if draw < 0.3:
                for _n in range(rng.randint(1, 3)):
                    session.store.undo()
                if rng.random() < 0.6:
                    session.store.redo()
            elif draw < 0.4:  # to the end of the turn, phase by phase
                now = turns.status(session).turn
                while turns.status(session).turn == now:
                    turns.advance(session, anyway=True)
            elif draw < 0.5:
                with session.store.action("Several rolls") as _db:
                    dice = session.store.dice()
                    for _n in range(rng.randint(2, 4)):
                        dice.roll(rng.choice(DICE), "a die", [Modifier("m", rng.randint(-2, 2))])
            else:
                modifiers = [Modifier(f"m{n}", rng.randint(-2, 3)) for n in range(rng.randint(0, 2))]
                session.store.dice().roll(rng.choice(DICE), rng.choice(("a die", "forced march of Nobody")), modifiers)
        except (CampaignError, StoreError):  # nothing to undo or redo
            continue
        if check_every and step % check_every == 0:
            agree(session, f"after step {step}")


@pytest.mark.parametrize("block", [tally.BLOCK, 4])
def test_the_tally_follows_rolls_undo_and_redo(campaign_target: str, block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With blocks of 4 events, most blocks hold an end of turn and many do not: both readings."""
    monkeypatch.setattr(tally, "BLOCK", block)
    run = seeds.run_seed()
    print(seeds.replay(run))
    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    try:
        agree(session, "new")  # nothing rolled yet: nothing counted under another block size
        drawn(session, random.Random(run + block), 60, check_every=7)
        while True:  # some seeds undo most of what they did: end turns and roll until enough is kept
            with session.store.read() as db:
                ends = len(luck.turn_end_events(db))
                rolls = db.connection().execute(text("SELECT count(*) FROM dice_roll")).scalar() or 0
            if ends >= 2 and rolls >= 8:
                break
            if ends < 2:
                now = turns.status(session).turn
                while turns.status(session).turn == now:
                    turns.advance(session, anyway=True)
            session.store.dice().roll("2d6", "a die", [Modifier("m", 1)])
        agree(session, "at the end")
        with session.store.read() as db:
            assert len(luck.turn_end_events(db)) >= 2
            assert (db.connection().execute(text("SELECT count(*) FROM dice_roll")).scalar() or 0) >= 8
    finally:
        session.close()


_played: dict[tuple[int, int], Path] = {}


def played(path: Path, seed: int, steps: int = 50) -> Path:
    """A new campaign at `path` after `steps` drawn actions of `seed`: drawn once per worker for each
    (seed, steps) and copied (the draw is the same every time; three tests ask for the 50 steps)."""
    key = (seed, steps)
    made = _played.get(key)
    if made is None:
        folder = Path(tempfile.mkdtemp(prefix="adjutant-tally-"))
        atexit.register(shutil.rmtree, folder, True)
        made = folder / "drawn.campaign"
        session = CampaignSession.open(new_campaign(made, "spring1813", seed=3))
        try:
            drawn(session, random.Random(seed), steps)
        finally:
            session.close()
        assert [p.name for p in folder.iterdir()] == [made.name], "a campaign is more than one file: copy them all"
        _played[key] = made
    shutil.copyfile(made, path)
    return path


def file_agrees(path: Path, why: str) -> None:
    session = CampaignSession.open(path)
    try:
        agree(session, why)
    finally:
        session.close()


@pytest.mark.parametrize("row_by_row", [True, False])
def test_the_tally_follows_the_past(tmp_path: Path, row_by_row: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not row_by_row:  # rewound in bulk: the tally counted again
        monkeypatch.setattr(rewind, "INDEX_ROW_BY_ROW", 0)
    run = seeds.run_seed()
    print(seeds.replay(run))
    source = played(tmp_path / "drawn.campaign", run)
    with open_campaign(source) as store, store.read() as db:
        points = [n for (n,) in db.connection().execute(text("SELECT id FROM event WHERE kind <> 'setup' ORDER BY id"))]
    # One at a time: one copy rewound from the newest point to the oldest. `_rewind_each` undoes the
    # events from a point on, newest first, and forgets them: rewinding the copy already rewound to
    # a later point undoes the same events in the same order as rewinding the whole history would,
    # each once (eight points from the whole history undid about four times as many).
    # INDEX_ROW_BY_ROW is read by the rewind in one pass alone (models.rewind): the one at a time
    # (the ORM's undo) is the same under both, and is run under the default's only, not twice.
    each = tmp_path / "each.campaign"
    shutil.copyfile(source, each)
    for first in sorted(set(random.Random(run).sample(points, 6)) | {points[0], points[-1]}, reverse=True):
        for one_at_a_time in (True, False) if row_by_row else (False,):
            copy = tmp_path / f"past-{first}-{one_at_a_time}.campaign"
            if not one_at_a_time:
                shutil.copyfile(source, copy)
            store = open_campaign(each if one_at_a_time else copy)
            try:
                (past._rewind_each if one_at_a_time else past._rewind)(store, first)
            finally:
                store.close()
            if one_at_a_time:  # a copy of it is read: the one rewound on stays as the rewind left it
                shutil.copyfile(each, copy)
            file_agrees(copy, f"before #{first}, {'one at a time' if one_at_a_time else 'in one pass'}")


def test_an_imported_campaign_counts_its_rolls(tmp_path: Path) -> None:
    source = played(tmp_path / "drawn.campaign", seeds.run_seed())
    with open_campaign(source) as store:
        exported = dumps(store)
    assert tally.TABLE not in exported  # the tally is counted again on import, not carried
    with loads(tmp_path / "copy.campaign", exported):
        pass
    file_agrees(tmp_path / "copy.campaign", "imported")


def test_the_migration_counts_the_rolls_of_a_file_the_current_code_wrote(campaign_target: str) -> None:
    from alembic import command

    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=3))
    try:
        drawn(session, random.Random(seeds.run_seed()), 40)
        # Ten rolls more whatever was drawn: some seeds undo nearly all (seed 20 leaves 4 rolls).
        with session.store.action("Rolls the count needs") as _db:
            dice = session.store.dice()
            for n in range(10):
                dice.roll(DICE[n % len(DICE)], "a die", [Modifier("m", n % 3 - 1)])
    finally:
        session.close()
    engine = make_engine(to_url(campaign_target))
    try:
        with writer(engine).begin() as connection:
            config = alembic_config(connection)
            command.downgrade(config, "0009")
            assert not tally.present(connection)
        with writer(engine).begin() as connection:
            upgrade(connection)
        with engine.connect() as connection:
            assert tally.present(connection) and head() >= "0010"
            assert tallied(connection) == from_scratch(connection)
            assert sum(from_scratch(connection).values()) >= 10
    finally:
        engine.dispose()


def test_a_session_that_read_a_ledger_reads_the_next_version_anew(tmp_path: Path) -> None:
    """What the tally says is kept per version of the campaign (the plots and the luck screen both
    draw a ledger): after every roll, undo, redo and end of turn, the ledger of a session that read
    one before is the ledger of a session that has read none."""
    run = seeds.run_seed()
    print(seeds.replay(run))
    path = played(tmp_path / "drawn.campaign", run, 10)
    session = CampaignSession.open(path)
    rng = random.Random(run + 1)
    try:
        for step in range(12):
            again = luck.as_json(luck.ledger(session))
            fresh = CampaignSession.open(path)
            try:
                assert again == luck.as_json(luck.ledger(fresh)), f"after step {step}"
            finally:
                fresh.close()
            drawn(session, rng, 1)
    finally:
        session.close()


def test_a_roll_written_around_the_store_sends_the_ledger_to_the_rolls(tmp_path: Path) -> None:
    """The ledger checks the tally counts as many rolls as the table holds; when it does not (a file
    changed by hand), the plain rolls are counted from the rolls themselves, with the same figures."""
    run = seeds.run_seed()
    print(seeds.replay(run))
    path = played(tmp_path / "drawn.campaign", run)  # the 50 steps three other tests draw: copied where this worker drew them
    session = CampaignSession.open(path)
    try:
        # A roll to copy, whatever the draw kept: seeds 79 and 88 undid every "a die" they rolled.
        session.store.dice().roll("2d6", "a die", [Modifier("m", 1)])
        before = luck.ledger(session)
        with session.store.read() as db:
            row: Any = db.scalars(select(DiceRoll).where(DiceRoll.purpose == "a die")).first()  # type: ignore[arg-type]
        assert row is not None
        import sqlite3

        with sqlite3.connect(path) as raw:
            raw.execute(
                "INSERT INTO dice_roll (event, purpose, dice, raw, modifiers, result, mode, \"by\", \"when\") "
                "SELECT event, purpose, dice, raw, modifiers, result, mode, \"by\", \"when\" FROM dice_roll WHERE id = ?",
                (row.id,),
            )
        raw.close()
        with session.store.read() as db:
            assert not tally.in_step(db.connection())
        after = luck.ledger(session)
    finally:
        session.close()
    assert after.counted == before.counted + 1
    assert after.totals[luck.BOTH].run.rolls == before.totals[luck.BOTH].run.rolls + 1

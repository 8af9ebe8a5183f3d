"""The past rebuilt in one pass (models.rewind) against the past rebuilt one event at a time.

`past._rewind_each` undoes the events newest first through the ORM (models.history.undo
and redo), as `adjutant past` did before it read them in one pass: it is the independent
reading here. On histories drawn with a seed (actions that change, insert and delete rows,
roll dice, bookmark events; undos and redos, and actions that abandon what was undone),
for many cut points, both rewinds must leave the same rows in every table, and a search
index that agrees with its table. The hostile-history corpus (tests/hostile_history.py)
planted in the history: the same sentence, or the same rows for its controls.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlmodel import col

from campaigns import notes, past
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Event, Unit, open_campaign, table_metadata
from models import rewind
from models.errors import StoreError
from tests import seeds
from tests.played import play

TOWNS = ("Leipzig", "Dresden", "Halle", "Lützen", "Erfurt", "Weimar", "Naumburg")


def dump(path: Path) -> dict[str, Any]:
    """Every row of every table of the campaign, in key order; and whether the search indexes of the
    dice and of the history agree with their tables (FTS5's integrity check against the content
    table, which writes nothing but is asked for as an INSERT: `path` is a scratch copy)."""
    db = sqlite3.connect(path)
    try:
        rows: dict[str, Any] = {
            table.name: db.execute(f'SELECT * FROM "{table.name}" ORDER BY 1').fetchall()
            for table in table_metadata().sorted_tables
        }
        for index in ("dice_roll_search", "event_search"):
            try:
                db.execute(f"INSERT INTO {index}({index}, rank) VALUES ('integrity-check', 1)")
                rows[index] = "agrees"
            except sqlite3.DatabaseError as error:
                rows[index] = str(error)
        rows["schema"] = db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()  # as it was
        rows["found 'roll'"] = db.execute(
            "SELECT rowid FROM dice_roll_search WHERE purpose LIKE '%roll%' ORDER BY rowid"
        ).fetchall()
        return rows
    finally:
        db.close()


def rewound(source: Path, first: int, folder: Path, *, each: bool) -> Any:
    """The rows of a copy of `source` rewound to just before `first` (or the sentence refusing it)."""
    copy = folder / f"{'each' if each else 'bulk'}-{first}.campaign"
    shutil.copyfile(source, copy)
    store = open_campaign(copy)
    try:
        if each:
            past._rewind_each(store, first)
        else:
            assert past._rewind_in_bulk(store, first), f"#{first}: left to the one-at-a-time rewind"
    except CampaignError as refused:
        return str(refused)
    finally:
        store.close()
    try:
        return dump(copy)
    finally:
        copy.unlink()


def rewound_each(source: Path, points: list[int], folder: Path) -> dict[int, Any]:
    """`rewound(source, first, folder, each=True)` for every first of `points`, newest first, on one copy.

    `_rewind_each` undoes the events from `first` on newest first, one pass, and forgets them: to
    rewind to an earlier point it undoes the same events in the same order, then those between the
    two points. So the copy rewound to a point is rewound on from there to the next earlier one, and
    each rewind's events are undone once, not once for every later point: 16 points undid about
    eight times the history before. A refusal stands for every earlier point (its event is undone
    on the way to them)."""
    copy = folder / "each.campaign"
    shutil.copyfile(source, copy)
    seen: dict[int, Any] = {}
    refused = None
    try:
        for first in sorted(set(points), reverse=True):
            if refused is None:
                store = open_campaign(copy)
                try:
                    past._rewind_each(store, first)
                except CampaignError as error:
                    refused = str(error)
                finally:
                    store.close()
            seen[first] = refused if refused is not None else dump(copy)
    finally:
        copy.unlink()
    return seen


def history(path: Path, seed: int, steps: int) -> Path:
    """Three turns of the played campaign, then `steps` drawn actions, undos and redos."""
    play(path, 3)
    rng = random.Random(seed)
    session = CampaignSession.open(path)
    try:
        with session.store.read() as db:
            units = [u.id for u in db.scalars(select(Unit).order_by(Unit.id))][:12]
        added = 0
        for _ in range(steps):
            draw = rng.random()
            try:
                if draw < 0.25:  # a run of undos, and sometimes a redo of the last
                    for _n in range(rng.randint(1, 3)):
                        session.store.undo()
                    if rng.random() < 0.6:
                        session.store.redo()
                elif draw < 0.4:
                    session.store.dice().roll("2d6", f"roll {rng.randrange(5)} for forage")
                elif draw < 0.5:
                    with session.store.read() as db:
                        latest = [n for n in db.scalars(select(col(Event.id)).order_by(col(Event.id).desc()).limit(8)) if n is not None]
                    notes.toggle_bookmark(session, rng.choice(latest))
                elif draw < 0.55:
                    added += 1
                    with session.store.action(f"Raise unit {added}") as db:
                        model = db.get_one(Unit, units[0])  # never disbanded
                        db.add(Unit(**{**model.model_dump(), "id": f"raised_{added}", "name": f"Raised {added}"}))
                    units.append(f"raised_{added}")
                elif draw < 0.6:
                    gone = rng.choice(units[1:])
                    with session.store.action(f"Disband {gone}") as db:
                        unit = db.get(Unit, gone)
                        if unit is None:
                            continue
                        db.delete(unit)
                else:
                    with session.store.action("Move and mark") as db:
                        for _n in range(rng.randint(1, 3)):
                            unit = db.get(Unit, rng.choice(units))
                            if unit is None:
                                continue
                            column = rng.choice(("location", "strength_points", "fatigued"))
                            unit.location = rng.choice(TOWNS) if column == "location" else unit.location
                            if column == "strength_points":
                                unit.strength_points = rng.randint(0, 12)
                            if column == "fatigued":
                                unit.fatigued = not unit.fatigued
                        if rng.random() < 0.2:
                            db.get_one(Unit, units[0]).location = rng.choice(TOWNS)
            except (CampaignError, StoreError):  # nothing to undo or redo, an action that changed nothing
                continue
        with session.store.read() as db:
            kinds = set(db.scalars(select(col(Event.kind))))
        if not {"undo", "redo"} <= kinds:  # a draw of no redo in 70 steps: 0.85 ** 70, one seed in 85,000
            session.store.undo()
            session.store.redo()
    finally:
        session.close()
    return path


def cut_points(path: Path) -> list[int]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [n for (n,) in db.execute("SELECT id FROM event WHERE kind IN ('action', 'undo', 'redo') ORDER BY id")]
    finally:
        db.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_past_in_one_pass_is_the_past_one_event_at_a_time(tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    if seed == 2:  # the search indexes built again from their tables, as after thousands of rows forgotten
        monkeypatch.setattr(rewind, "INDEX_ROW_BY_ROW", 0)
    else:  # rows confirmed and written a few at a time, as a million events' are in batches
        monkeypatch.setattr(rewind, "IN_BATCH", 3)
    run = seeds.run_seed()
    print(seeds.replay(run))
    source = history(tmp_path / "drawn.campaign", run + seed, 70)
    points = cut_points(source)
    kinds = dict(sqlite3.connect(source).execute("SELECT id, kind FROM event").fetchall())
    assert {"undo", "redo"} <= set(kinds.values())
    chosen = sorted({points[0], points[-1], *random.Random(run + seed).sample(points, 10)})  # new ones each run (tests/seeds.py)
    chosen += [n for n in points if kinds[n] in ("undo", "redo") and n not in chosen][:4]
    each_at = rewound_each(source, chosen, tmp_path)
    for first in chosen:
        each = each_at[first]
        bulk = rewound(source, first, tmp_path, each=False)
        assert isinstance(each, dict), f"#{first}: {each}"
        assert bulk["dice_roll_search"] == bulk["event_search"] == "agrees", f"#{first}: the search index differs from its table"
        for table in each:
            assert bulk[table] == each[table], f"just before #{first} ({kinds[first]}): {table} differs"


# -- a hostile history -------------------------------------------------------------------------

DRAWN = 12  # of the corpus's cases beyond its core (each kind of bad value once, the replays, the controls)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from tests.test_hostile_history import imported_campaign

    return imported_campaign(tmp_path_factory.mktemp("hostile"))


def past_of(source: Path, first: int, folder: Path, *, each: bool) -> Any:
    """The product's rewind (bulk, or one at a time where it declines) or the one-at-a-time rewind
    of a copy of `source`: the sentence refusing it, or the rows."""
    copy = folder / f"{'each' if each else 'past'}.campaign"
    shutil.copyfile(source, copy)
    store = open_campaign(copy)
    try:
        (past._rewind_each if each else past._rewind)(store, first)
    except CampaignError as refused:
        return str(refused)
    finally:
        store.close()
    return dump(copy)


def past_in_bulk(source: Path, first: int, folder: Path) -> Any:
    """The product's rewind in one pass of a copy of `source` (models.rewind): its rows, or None where
    it declines, which must leave the copy as it was, byte for byte (`_rewind` then rewinds that
    very store one event at a time, which is `past_of(..., each=True)` of `source`)."""
    copy = folder / "bulk.campaign"
    shutil.copyfile(source, copy)
    store = open_campaign(copy)
    try:
        taken = past._rewind_in_bulk(store, first)
    finally:
        store.close()
    if not taken:
        assert copy.read_bytes() == source.read_bytes(), f"#{first}: declined, yet the copy was written"
    return dump(copy) if taken else None


def test_a_hostile_history_is_refused_as_one_event_at_a_time_refuses_it(imported: Any, tmp_path: Path) -> None:
    """Each case planted where an undo (of the action undo would undo) or a redo (of the action
    the undo event names) reads it: the sentence of the one-at-a-time rewind, word for word, or
    for the corpus's controls the same rows, taken in one pass.

    Where the one pass declines (it must write nothing), the product rewinds the unchanged store
    one event at a time, which is the independent reading itself: its answer is the product's."""
    from tests.hostile_history import sample
    from tests.test_hostile_history import plant

    pristine, campaign = imported
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    first = min(campaign.undo, campaign.undo_event, campaign.redo)
    path = tmp_path / "hostile.campaign"
    seen = {"refused": 0, "taken": 0, "declined": 0}
    for case in sample(campaign, seed, DRAWN):
        plant(pristine, path, case)
        each = past_of(path, first, tmp_path, each=True)
        bulk = past_in_bulk(path, first, tmp_path)
        if bulk is not None:
            assert bulk == each, f"{case.what}: rows / {each if isinstance(each, str) else 'rows'}"
        elif not seen["declined"]:  # the fallback itself, once: `_rewind` of what the one pass declines
            assert past_of(path, first, tmp_path, each=False) == each, f"{case.what}: the product's rewind answers otherwise"
        if case.taken is not None:
            assert isinstance(each, dict), f"{case.what}: refused: {each}"
            assert bulk is not None, f"{case.what}: a control left to the one-at-a-time rewind"
        seen["taken" if isinstance(each, dict) else "refused"] += 1
        seen["declined"] += bulk is None
    assert seen["refused"] >= 60 and seen["taken"] >= 10 and seen["declined"] >= 60, seen


# -- the plain tests of a value (models.rewind._plain) -------------------------------------------

PROBES: list[Any] = [
    None, True, False, 0, 1, -1, 5, 99, 100, 9_999, 10_000, -(1 << 31), (1 << 31) - 1, 1 << 31, -(1 << 31) - 1,
    1 << 63, -(1 << 63), 1.0, 0.5, "", "a", "rolled", "entered", "Rolled", "x" * 100_000, "x" * 100_001,
    "tab\there", "new\nline", "esc\x1b[2J", "nul\x00", "c1\x85", "del\x7f", "lone\ud800", "Lützen",
    "2025-01-01", "2025-01-01T00:00:00+00:00", [], [1], {}, {"a": 1},
]


def test_a_value_the_plain_test_takes_is_one_the_undo_checks_take() -> None:
    """`_plain` reads a column's pydantic schema to judge a key or an updated value without pydantic:
    what it takes, `models.history_checks._value` (the validator, then no control character) must take,
    for every column of every table."""
    from models import history_checks

    taken = 0
    for table in table_metadata().sorted_tables:
        for column in table.columns:
            test = rewind._plain(history_checks._adapter(table, column.name).core_schema, history_checks.CONTROL)
            for value in PROBES:
                if test(value):
                    taken += 1
                    history_checks._value(table, column.name, value, "would write")  # raises BadHistory if not
    assert taken > 200

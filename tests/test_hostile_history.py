"""Undo and redo of a hostile history: one sentence naming the event and the value, and nothing changed.

A campaign's event log records the before and after of every row an action changed,
and undo and redo write them back. An imported export or a campaign file from
another hand may hold anything there. For every case of the seeded corpus of
tests/hostile_history.py (bad values of every kind of column, bad keys, tables and
columns, changes that are no change, no JSON, undo events naming no undone action),
planted with sqlite3 in the event log of an imported campaign file as a hostile
sender would, `CampaignSession.undo` or `redo`:

- refuses with CampaignError, in one line with no control character, that names
  the event (and the value, as JSON reads it, when a value is at fault) and says
  nothing was changed, and leaves the file byte for byte as it was, with no journal
  beside it;
- or, for the corpus's controls (a whole number at either end of its range), takes
  the change and writes exactly that value.

The same corpus runs on a PostgreSQL campaign against the same campaign in a file:
the same answer, and no row of the database changed by a refusal. In the app, `u`
on such a history shows the sentence and changes nothing (tests/tui/test_history.py).
"""

from __future__ import annotations

import collections
import json
import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests import seeds
from tests.hostile_history import NO_VALUE, NOT_JSON, Campaign, Case, corpus, parts, sample
from tests.test_hostile_files import CONTROL, played, run

# On a file, each run: every kind of bad value once (on a column drawn), the undo events and
# changes that are no JSON or no list, the controls (97 cases), and DRAWN of the other 1,500
# (bad keys, tables, columns and changes, every other bad value of every column), with a new
# seed each run (tests/seeds.py). On PostgreSQL: the controls and DRAWN_POSTGRES of the rest of
# that core. `python -m tests.hostile_corpus` runs the whole corpus.
DRAWN = 60
DRAWN_POSTGRES = 30


def campaign_of(path: Path | str, good: dict[str, Any]) -> Campaign:
    """The corpus's source: `good`, and the targets of undo and redo as the store finds them."""
    from models import journal, open_campaign

    store = open_campaign(path)
    try:
        with store.connect() as connection:
            undo, redo = journal.undo_target(connection), journal.redo_target(connection)
    finally:
        store.close()
    assert undo is not None and redo is not None, "the played campaign has an action to undo and one to redo"
    undo_event = max(e["id"] for e in good["tables"]["event"] if e["kind"] == "undo" and e["changes"] == [{"event": redo}])
    return Campaign(good, undo, redo, undo_event)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Campaign]:
    return imported_campaign(tmp_path_factory.mktemp("history"))


def imported_campaign(folder: Path) -> tuple[Path, Campaign]:
    """A played campaign exported and imported into a new file, and the corpus's source."""
    code, exported, err = run("export", str(played(folder / "played.campaign")))
    assert code == 0, err
    (folder / "played.json").write_bytes(exported)
    target = folder / "imported.campaign"
    code, _out, err = run("import", str(folder / "played.json"), str(target))
    assert code == 0, err
    return target, campaign_of(target, json.loads(exported))


def attempt(target: Path | str, doing: str) -> str | None:
    """Undo or redo through the campaign flow, as every screen does: None when taken, else the sentence."""
    from campaigns.errors import CampaignError
    from campaigns.session import CampaignSession

    session = CampaignSession.open(target)
    try:
        getattr(session, doing)()
    except CampaignError as refused:
        return str(refused)
    finally:
        session.close()
    return None


def quoted(value: Any) -> str:
    """How much of a value's repr a refusal must hold: all of a short one, the start of a long one."""
    try:
        text = repr(value)
    except RecursionError:  # nested deeper than repr goes: its first levels
        return "[[["
    return text if len(text) <= 40 else text[:30]


def judge_refusal(case: Case, said: str | None) -> None:
    assert said is not None, f"{case.what}: taken"
    assert "\n" not in said and not CONTROL.search(said), f"{case.what}: not one printable line: {said!r}"
    assert said.startswith(f"cannot {case.doing} event #") and said.endswith("nothing was changed"), f"{case.what}: {said!r}"
    if not case.what.startswith("redo: the undo event names"):
        assert said.startswith(f"cannot {case.doing} event #{case.event}"), f"{case.what}: names another event: {said!r}"
    if case.named is NOT_JSON:
        assert "not JSON" in said, f"{case.what}: {said!r}"
    elif case.named is not NO_VALUE:
        assert quoted(case.named) in said, f"{case.what}: the value {case.named!r} is not named: {said!r}"


def plant(pristine: Path, path: Path, case: Case) -> bytes:
    """The pristine file with the case's changes written into its event log by sqlite3; its bytes."""
    shutil.copyfile(pristine, path)
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA synchronous = OFF")  # a scratch copy: no need to wait for the disk
        db.execute("UPDATE event SET changes = ? WHERE id = ?", (case.changes, case.event))
        db.commit()
    finally:
        db.close()
    return path.read_bytes()


def stored(path: Path, table: str, key: dict[str, Any], column: str) -> Any:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        where = " AND ".join(f'"{name}" = ?' for name in key)
        return db.execute(f'SELECT "{column}" FROM "{table}" WHERE {where}', list(key.values())).fetchone()[0]
    finally:
        db.close()


def check_file(pristine: Path, campaign: Campaign, folder: Path, count: int, seed: int,
               cases: list[Case] | None = None) -> collections.Counter[str]:
    """The first `count` cases of the corpus drawn with `seed` (or `cases`) on copies of `pristine`."""
    seen: collections.Counter[str] = collections.Counter()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "hostile.campaign"
    for case in corpus(campaign, count, seed) if cases is None else cases:
        planted = plant(pristine, path, case)
        said = attempt(path, case.doing)
        if case.taken is not None:
            assert said is None, f"{case.what}: refused: {said}"
            table, key, column, value = case.taken
            assert stored(path, table, key, column) == value, f"{case.what}: not written"
            seen["taken"] += 1
            continue
        judge_refusal(case, said)
        assert path.read_bytes() == planted, f"{case.what}: refused, yet the file changed"
        assert [p.name for p in folder.iterdir()] == [path.name], f"{case.what}: left {list(folder.iterdir())}"
        seen["refused"] += 1
    return seen


def test_every_hostile_history_is_refused_in_one_sentence_and_changes_nothing(imported: tuple[Path, Campaign], tmp_path: Path) -> None:
    pristine, campaign = imported
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    cases = sample(campaign, seed, DRAWN)
    seen = check_file(pristine, campaign, tmp_path / "cases", len(cases), seed, cases)
    assert seen["taken"] >= 15 and seen["refused"] >= 120, seen


def test_sp_beyond_9999_in_an_imported_history_is_not_undone(imported: tuple[Path, Campaign], tmp_path: Path) -> None:
    """The leftover that started the corpus: SP 10,000 written back by undo, as the order of battle's form refuses it."""
    pristine, campaign = imported
    unit = campaign.good["tables"]["unit"][0]
    for sp, taken in ((10_000, False), (9_999, True)):
        change = {"table": "unit", "key": {"id": unit["id"]}, "before": {"strength_points": sp}, "after": {"strength_points": 1}}
        case = Case(f"undo: SP {sp}", "undo", campaign.undo, json.dumps([*campaign.event(campaign.undo)["changes"], change]), sp)
        planted = plant(pristine, tmp_path / "sp.campaign", case)
        said = attempt(tmp_path / "sp.campaign", "undo")
        if taken:
            assert said is None and stored(tmp_path / "sp.campaign", "unit", {"id": unit["id"]}, "strength_points") == sp
        else:
            judge_refusal(case, said)
            assert said is not None and "unit.strength_points = 10000" in said, said
            assert (tmp_path / "sp.campaign").read_bytes() == planted


# -- PostgreSQL ---------------------------------------------------------------------------------


def test_a_hostile_history_gets_the_same_sentence_on_postgresql_and_changes_no_row(postgres_url: str, tmp_path: Path) -> None:
    seed = seeds.run_seed() + 1
    print(seeds.replay(seed - 1))

    def drawn(campaign: Campaign) -> list[Case]:
        core, _more = parts(campaign, seed)  # every kind of bad value once, the replays, changes and controls
        controls = [case for case in core if case.taken is not None]
        others = [case for case in core if case.taken is None]
        return controls + random.Random(seed).sample(others, DRAWN_POSTGRES)

    seen = check_postgres(postgres_url, tmp_path, 0, seed, drawn)
    # Each drawn case is refused alike or is a text PostgreSQL's json does not hold (NaN, Infinity,
    # a NUL, no JSON): some 11 of the core's 78 others, so 19 or more of the 30 are refused, and
    # never fewer than 15 while that kind is at most 15 of them. The bound of 20 failed when all 11
    # were drawn (hypergeometric, 30 of 78: 7.0e-6).
    assert seen["refused"] + seen["not held by PostgreSQL"] == DRAWN_POSTGRES, seen
    assert seen["refused"] >= 15 and seen["taken"] >= 10, seen


def check_postgres(url: str, folder: Path, count: int, seed: int,
                   draw: Callable[[Campaign], list[Case]] | None = None) -> collections.Counter[str]:
    """The first `count` cases of the corpus drawn with `seed` (or those `draw` picks), each planted with psycopg in a PostgreSQL campaign and with sqlite3 in the same campaign
    in a file: the same answer, and a refusal leaves every row of the database as it was. A text
    PostgreSQL's JSON refuses to store (NaN, Infinity) cannot be planted there, and is counted."""
    import psycopg
    from psycopg import errors

    from tests.test_hostile_numbers_postgres import Twins, _libpq

    (folder / "twins").mkdir(parents=True)
    twins = Twins(url, folder / "twins")
    seen: collections.Counter[str] = collections.Counter()
    try:
        code, exported, err = run("export", str(twins.file))
        assert code == 0, err
        campaign = campaign_of(twins.file, json.loads(exported))
        originals = {e["id"]: json.dumps(e["changes"]) for e in campaign.good["tables"]["event"]}
        path = folder / "hostile.campaign"

        writing: list[Any] = []  # one connection, made again after a taken case's restore dropped the database

        def write_changes(number: int, text: str) -> None:
            if not writing:
                writing.append(psycopg.connect(_libpq(url), autocommit=True))
            writing[0].execute("UPDATE event SET changes = %s::json WHERE id = %s", (text, number))

        def dropped() -> None:
            if writing:
                writing.pop().close()

        for case in corpus(campaign, count, seed) if draw is None else draw(campaign):
            plant(twins.pristine_file, path, case)
            on_file = attempt(path, case.doing)
            try:
                write_changes(case.event, case.changes)
            except (errors.InvalidTextRepresentation, errors.UntranslatableCharacter, errors.DataError):
                seen["not held by PostgreSQL"] += 1
                continue
            planted = twins.rows()
            on_db = attempt(url, case.doing)
            assert on_db == on_file, f"{case.what}: PostgreSQL answers otherwise than a file: {on_db!r} / {on_file!r}"
            if on_db is None:
                dropped()
                twins.restore()
                seen["taken"] += 1
                continue
            judge_refusal(case, on_db)
            assert twins.rows() == planted, f"{case.what}: refused, yet a row changed"
            write_changes(case.event, originals[case.event])
            seen["refused"] += 1
    finally:
        dropped()
        twins.close()
    return seen


def test_every_rule_of_a_whole_row_names_the_columns_it_reads() -> None:
    """Undo runs a rule set's check of a row (a turn's weather, the campaign's options) only when it
    writes a column the check reads: each check must say which it reads."""
    from models.export_format import ROW_CHECKED_COLUMNS, ROW_CHECKS

    assert set(ROW_CHECKED_COLUMNS) == set(ROW_CHECKS)

"""The schema's Alembic history matches the tables, and an old campaign file opens after a backup."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import importlib.util
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import select

from models import Battle, CampaignStore, Event, Unit, check_campaign, dump, open_campaign, table_metadata
from models.engine import make_engine, writer
from models.search import outside_models as search_excluded
from models.schema import alembic_config, current_revision, head, revisions, upgrade
from models.sqlite_header import APPLICATION_ID
from models.targets import to_url

FIXTURES = Path(__file__).parents[1] / "fixtures"
OLD_FILE = FIXTURES / "spring1813-schema1.campaign"


@functools.cache
def fixture_maker() -> ModuleType:
    """tests/fixtures/make_old_fixture.py, loaded once for the module."""
    spec = importlib.util.spec_from_file_location("make_old_fixture", FIXTURES / "make_old_fixture.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _played_once() -> dict[str, Any]:
    return fixture_maker().played_campaign()


def played_campaign() -> dict[str, Any]:
    """The fixture maker's played campaign (an export): a new campaign made once for the module
    (some 0.6 CPU-s each, six times before), each test given its own copy to change."""
    return copy.deepcopy(_played_once())


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_revision_files_form_one_numbered_chain_as_alembic_reads_it() -> None:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    chain = [r.revision for r in reversed(list(script.walk_revisions()))]
    assert chain == list(revisions()) == [f"{n:04d}" for n in range(1, len(chain) + 1)]
    assert script.get_current_head() == head()


def test_the_migrations_build_exactly_the_tables_of_the_models(campaign_target: str) -> None:
    engine = make_engine(to_url(campaign_target))
    try:
        with writer(engine).begin() as connection:
            upgrade(connection)
        with engine.connect() as connection:
            assert current_revision(connection) == head()
            # The history's search index (migration 0003) is made by SQL the models do not describe.
            context = MigrationContext.configure(connection, opts={"include_name": search_excluded})
            assert compare_metadata(context, table_metadata()) == []
    finally:
        engine.dispose()


def test_a_campaign_file_carries_its_application_id_and_schema_number(tmp_path: Path) -> None:
    path = tmp_path / "new.campaign"
    engine = make_engine(to_url(path))
    with writer(engine).begin() as connection:
        upgrade(connection)
    engine.dispose()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA user_version").fetchone()[0] == int(head())
    db.close()


def test_the_old_fixture_is_at_schema_1() -> None:
    with sqlite3.connect(f"file:{OLD_FILE}?mode=ro", uri=True) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchone() == ("0001",)
        assert "resolver" not in [row[1] for row in db.execute("PRAGMA table_info(battle)")]
    db.close()


def test_an_old_file_is_backed_up_then_migrated_keeping_every_row(tmp_path: Path) -> None:
    path = tmp_path / "spring.campaign"
    shutil.copy(OLD_FILE, path)
    original = digest(path)
    with sqlite3.connect(path) as db:
        counts = {
            t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("unit", "general", "event", "dice_roll", "battle")
        }
        locations = dict(db.execute("SELECT id, location FROM unit"))
    db.close()

    with open_campaign(path) as store:
        backup = tmp_path / "spring.campaign.bak-v1"
        assert digest(backup) == original
        document = dump(store)
        assert {t: len(document["tables"][t]) for t in counts} == counts
        # Free text of schema 1 is split into the place and the marching note in brackets.
        assert {row["id"]: row["location"] for row in document["tables"]["unit"]} == {
            key: text.split(" (")[0] for key, text in locations.items()
        }
        notes = {row["id"]: row["march_note"] for row in document["tables"]["unit"] if row["march_note"]}
        assert notes and all(f"{document_location(document, key)} ({note})" == locations[key] for key, note in notes.items())
        with store.read() as session:
            assert session.exec(select(Battle)).one().resolver == "allemagne1813"
        check_history_still_works(store)
    assert check_campaign(path).sound and check_campaign(path).revision == head()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == int(head())
    db.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spring.campaign", "spring.campaign.bak-v1"]


def document_location(document: dict, unit_id: str) -> str:
    return next(row["location"] for row in document["tables"]["unit"] if row["id"] == unit_id)


def check_history_still_works(store: CampaignStore) -> None:
    """The fixture's last action was undone: redo it, then undo everything undoable."""
    with store.read() as session:
        undone = session.exec(select(Event).where(Event.undone)).one()
    store.redo()
    unit_id = undone.changes[0]["key"]["id"]
    with store.read() as session:
        assert session.get_one(Unit, unit_id).location == undone.changes[0]["after"]["location"]
    for _ in range(4):  # the march, the battle, the dice roll, the first march
        store.undo()


def test_a_second_migration_of_the_same_version_keeps_the_first_backup(tmp_path: Path) -> None:
    path = tmp_path / "spring.campaign"
    (tmp_path / "spring.campaign.bak-v1").write_text("an older backup")
    shutil.copy(OLD_FILE, path)
    open_campaign(path).close()
    assert (tmp_path / "spring.campaign.bak-v1").read_text() == "an older backup"
    assert digest(tmp_path / "spring.campaign.bak-v1-2") == digest(OLD_FILE)


def test_an_old_campaign_in_postgresql_is_migrated_on_open(postgres_url: str) -> None:
    maker = fixture_maker()
    document = maker.as_schema1(played_campaign())
    maker.write_at_revision(postgres_url, document)
    with open_campaign(postgres_url) as store:
        with store.read() as session:
            assert session.exec(select(Battle)).one().resolver == "allemagne1813"
        assert len(dump(store)["tables"]["event"]) == len(document["tables"]["event"])
        check_history_still_works(store)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_export_of_schema_1_imports_and_is_migrated(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from models import load

    maker = fixture_maker()
    target = (
        str(tmp_path / "imported.campaign")
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    document = maker.as_schema1(played_campaign())
    # The fixture names a battle's attacker by a bare list of unit ids, which no Adjutant ever
    # wrote (campaigns/battles.py has always written an object of side, units and generals), and
    # which an opening refuses (models.gate.battle_records): the units as Adjutant names them.
    for row in document["tables"]["battle"]:
        row["participants"] = {role: {"units": {unit: unit for unit in units}} for role, units in row["participants"].items()}
    with load(target, document) as store:
        assert [row["resolver"] for row in dump(store)["tables"]["battle"]] == ["allemagne1813"]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_games_outside_the_campaign_stored_as_pending_become_games(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Migration 0007: a tabletop game outside the campaign's forces, stored "pending" before
    the status "game" existed, becomes "game"; the campaign's own battles and ended games stay."""
    maker = fixture_maker()
    document = {**maker.at_schema7(played_campaign()), "schema": "0005"}
    # Written as schema 5 held it: no fog-of-war tables or campaign columns (0006) yet.
    document["tables"] = {k: v for k, v in document["tables"].items() if k not in ("sighting", "side_order")}
    document["tables"]["campaign"] = [
        {k: v for k, v in row.items() if k not in maker.SCHEMA6_CAMPAIGN} for row in document["tables"]["campaign"]
    ]
    first = document["tables"]["battle"][0]
    standalone = {"tactical": {"ruleset": "kallistra_acw", "standalone": True, "units": [], "log": []}}
    document["tables"]["battle"] = [
        {**first, "id": 1, "status": "pending", "detail": standalone},  # the game to migrate
        {**first, "id": 2, "status": "pending", "detail": {"tactical": {"ruleset": "kallistra_acw", "units": []}}},
        {**first, "id": 3, "status": "done", "detail": standalone},
        {**first, "id": 4, "status": "pending", "detail": {}},
    ]
    target = str(tmp_path / "old.campaign") if backend == "sqlite" else request.getfixturevalue("postgres_url")
    maker.write_at_revision(target, document)
    with open_campaign(target) as store:
        with store.read() as session:
            statuses = {b.id: b.status for b in session.exec(select(Battle))}
            assert session.get_one(Battle, 1).detail == standalone  # the detail is kept as it was
    assert statuses == {1: "game", 2: "pending", 3: "done", 4: "pending"}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_rolls_of_a_battle_are_marked_with_it_when_an_old_campaign_is_migrated(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Migration 0008: each roll made for a battle (its actions are described "Battle #N at
    PLACE: ...") gets the battle's id, and so does the history's record of it, so that a step
    undone before the upgrade and redone after it still has its battle; other rolls get none."""
    from campaigns import battles, weather
    from campaigns.session import CampaignSession
    from models import DiceRoll

    session = CampaignSession.new("spring1813", tmp_path / "new.campaign", seed=1813)
    try:
        weather.roll(session, [2])
        lutzen = battles.begin(session, battles.Draft("Lützen", ["iii_souham"], ["brigade_klux"], [], [], override="for the test"))
        battles.roll_step(session, lutzen)
        battles.roll_step(session, lutzen)
        halle = battles.begin(session, battles.Draft("Halle", ["iii_ricard"], ["brigade_zieten"], [], [], override="for the test"))
        battles.roll_step(session, halle)
        battles.roll_step(session, halle)
        session.store.undo()  # Halle's second step: its roll is gone, its action kept, undone
        document = dump(session.store)
    finally:
        session.close()
    marked = {row["id"]: row["battle"] for row in document["tables"]["dice_roll"]}
    assert sorted(marked.values(), key=str) == [lutzen, lutzen, halle, None]  # the weather's roll is no battle's
    target = str(tmp_path / "old.campaign") if backend == "sqlite" else request.getfixturevalue("postgres_url")
    maker = fixture_maker()
    old = maker.at_schema7(document)
    assert all("battle" not in row for row in old["tables"]["dice_roll"])
    maker.write_at_revision(target, old)
    with open_campaign(target) as store:
        with store.read() as db:
            assert {r.id: r.battle for r in db.exec(select(DiceRoll))} == marked
        store.redo()  # Halle's step again, as its action recorded it
        with store.read() as db:
            redone = db.exec(select(DiceRoll).where(DiceRoll.id.not_in(list(marked)))).one()  # type: ignore[union-attr]
            assert redone.battle == halle
            recorded = [c["after"] for e in db.exec(select(Event)) for c in e.changes
                        if c.get("table") == "dice_roll" and c.get("before") is None]
            # the weather's roll is recorded as it was: an old action that rolled for no battle
            assert sorted((r.get("battle") for r in recorded), key=str) == [lutzen, lutzen, halle, halle, None]


def test_a_club_sides_role_that_reads_some_dice_columns_may_read_the_battle_too(postgres_url: str) -> None:
    """Migration 0008 on a club's campaign: a role `club setup` gave some columns of dice_roll
    reads the new one as well (the player's screens load whole rows); a role without any gets none."""
    import psycopg
    from sqlalchemy.engine import make_url

    maker = fixture_maker()
    maker.write_at_revision(postgres_url, maker.at_schema7(played_campaign()))
    database = make_url(postgres_url).database
    reader, stranger = f"{database}_reader", f"{database}_stranger"
    owner = make_url(postgres_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(owner, autocommit=True) as db:
        db.execute(f'CREATE ROLE "{reader}"')
        db.execute(f'CREATE ROLE "{stranger}"')
        db.execute(f'GRANT SELECT (id, purpose, result) ON dice_roll TO "{reader}"')
    try:
        open_campaign(postgres_url).close()  # migrated to 0008
        with psycopg.connect(owner, autocommit=True) as db:
            may = "SELECT has_column_privilege(%s, 'dice_roll', 'battle', 'SELECT')"
            assert [db.execute(may, (role,)).fetchone()[0] for role in (reader, stranger)] == [True, False]
    finally:
        with psycopg.connect(owner, autocommit=True) as db:
            for role in (reader, stranger):
                db.execute(f'DROP OWNED BY "{role}"')
                db.execute(f'DROP ROLE "{role}"')


def test_down_from_schema_8_and_up_again_keeps_the_battles_of_the_rolls(tmp_path: Path) -> None:
    """Going down, the column and the history's record of it go (schema 7 would refuse a redo
    naming it); coming back up, both are filled again from the actions' descriptions."""
    from alembic import command

    from campaigns import battles, weather
    from models import gate
    from campaigns.session import CampaignSession

    path = tmp_path / "s.campaign"
    session = CampaignSession.new("spring1813", path, seed=1813)
    try:
        weather.roll(session, [2])
        lutzen = battles.begin(session, battles.Draft("Lützen", ["iii_souham"], ["brigade_klux"], [], [], override="for the test"))
        battles.roll_step(session, lutzen)
    finally:
        session.close()

    def recorded() -> list:
        with sqlite3.connect(path) as db:
            changes = [json.loads(c) for (c,) in db.execute("SELECT changes FROM event WHERE changes LIKE '%dice_roll%'")]
        db.close()
        return sorted((c["after"].get("battle") for cs in changes for c in cs if c.get("table") == "dice_roll"), key=str)

    engine = make_engine(to_url(path))
    try:
        with writer(engine).begin() as connection:
            command.downgrade(alembic_config(connection), "0007")
        with sqlite3.connect(path) as db:
            db.text_factory = bytes
            assert gate._objects(db) == gate.expected_objects("0007")  # the gate opens it as schema 7
        db.close()
        assert recorded() == [None, None]
        with writer(engine).begin() as connection:
            upgrade(connection)
    finally:
        engine.dispose()
    with sqlite3.connect(path) as db:
        assert sorted(db.execute("SELECT battle FROM dice_roll"), key=str) == [(lutzen,), (None,)]
    db.close()
    assert recorded() == [lutzen, None]


def test_down_from_schema_9_and_up_again_finds_the_undos_and_redos_by_their_index(campaign_target: str) -> None:
    """Migration 0009: the index of the undo and redo events goes down and comes back, the
    marks read the same at each step, and the queries of them reach it (on PostgreSQL with
    sequential scans off: a table of a dozen rows is read whole whatever its indexes)."""
    from alembic import command
    from sqlalchemy import text

    from campaigns import weather
    from campaigns.replays import REPLAY_EVENTS, replay_marks
    from campaigns.session import CampaignSession
    from models import gate

    session = CampaignSession.new("spring1813", campaign_target, seed=1813)
    try:
        weather.roll(session, [2])
        session.undo()
        session.redo()
    finally:
        session.close()
    engine = make_engine(to_url(campaign_target))
    sqlite = engine.dialect.name == "sqlite"

    def indexed(connection) -> bool:
        if sqlite:
            return connection.execute(text("SELECT count(*) FROM sqlite_master WHERE name = 'ix_event_replays'")).scalar() == 1
        return connection.execute(text("SELECT count(*) FROM pg_indexes WHERE indexname = 'ix_event_replays'")).scalar() == 1

    def plan(connection) -> str:
        values = {"after": 0, "upto": 2**63 - 1}
        if sqlite:
            explained = connection.execute(text(f"EXPLAIN QUERY PLAN {REPLAY_EVENTS.text}"), values)
            return " ".join(str(row[-1]) for row in explained)
        connection.execute(text("SET LOCAL enable_seqscan = off"))
        return " ".join(row[0] for row in connection.execute(text(f"EXPLAIN {REPLAY_EVENTS.text}"), values))

    try:
        with engine.connect() as connection:
            marks = replay_marks(connection)
            assert indexed(connection) and "ix_event_replays" in plan(connection)
        assert marks == {2: ["undone #3", "redone #4"]}  # #1 the setup, #2 the weather, #3 its undo, #4 its redo
        with writer(engine).begin() as connection:
            command.downgrade(alembic_config(connection), "0008")
        with engine.connect() as connection:
            assert not indexed(connection) and current_revision(connection) == "0008"
            assert replay_marks(connection) == marks
        if sqlite:
            with sqlite3.connect(campaign_target) as db:
                db.text_factory = bytes
                assert gate._objects(db) == gate.expected_objects("0008")  # the gate opens it as schema 8
                assert db.execute("PRAGMA user_version").fetchone() == (8,)
            db.close()
        with writer(engine).begin() as connection:
            upgrade(connection)
        with engine.connect() as connection:
            assert indexed(connection) and "ix_event_replays" in plan(connection)
            assert replay_marks(connection) == marks
    finally:
        engine.dispose()


def _index_exists(connection, name: str) -> bool:
    """Whether the campaign's database holds index `name` (SQLite or PostgreSQL)."""
    from sqlalchemy import text

    if connection.dialect.name == "sqlite":
        return connection.execute(text("SELECT count(*) FROM sqlite_master WHERE name = :n"), {"n": name}).scalar() == 1
    return connection.execute(text("SELECT count(*) FROM pg_indexes WHERE indexname = :n"), {"n": name}).scalar() == 1


def _down_and_up(engine, campaign_target: str, index: str, revision: str, read: Callable[[], object], planned: Callable[[], None]) -> None:
    """Migrate down to `revision` (which has no `index`) and up again by opening the file:
    `read()` gives the same at head, down and up, and `planned()` holds at head both times."""
    from alembic import command

    try:
        before = read()
        with engine.connect() as connection:
            assert _index_exists(connection, index)
        planned()
        with writer(engine).begin() as connection:
            command.downgrade(alembic_config(connection), revision)
        with engine.connect() as connection:
            assert not _index_exists(connection, index) and current_revision(connection) == revision
        if engine.dialect.name == "sqlite":
            with sqlite3.connect(campaign_target) as db:
                assert db.execute("PRAGMA user_version").fetchone() == (int(revision),)
            db.close()
        assert read() == before  # the file opens at `revision`, upgraded again on the way
        with engine.connect() as connection:
            assert _index_exists(connection, index) and current_revision(connection) == head()
        planned()
    finally:
        engine.dispose()


def test_down_from_schema_11_and_up_again_counts_the_stacks_from_their_index(campaign_target: str) -> None:
    """Migration 0011: the index of the units' places goes down and comes back, the counted
    stacks read the same at each step, and their count reads the index alone (on SQLite, a
    covering index; on PostgreSQL with sequential scans off)."""

    from campaigns.session import CampaignSession
    from campaigns.stacks import _count_stacks

    count = (
        "SELECT unit.location, nation.side, count(*), coalesce(sum(unit.strength_points), 0) FROM unit"
        " JOIN nation ON nation.id = unit.nation WHERE unit.location != '' GROUP BY unit.location, nation.side"
    )

    def stacks() -> object:
        session = CampaignSession.open(campaign_target)
        try:
            return _count_stacks(session)
        finally:
            session.close()

    session = CampaignSession.new("spring1813", campaign_target, seed=1813)
    session.close()
    engine = make_engine(to_url(campaign_target))
    sqlite = engine.dialect.name == "sqlite"

    def covered() -> None:
        """On SQLite the count reads the index alone (PostgreSQL's planner picks by the size
        of the tables, and a scenario's few hundred units are read whole whatever it has)."""
        if sqlite:
            with sqlite3.connect(campaign_target) as db:
                plan = " ".join(str(row[-1]) for row in db.execute(f"EXPLAIN QUERY PLAN {count}"))
            db.close()
            assert "COVERING INDEX ix_unit_location" in plan

    def counted() -> object:
        found = stacks()
        assert found and sum(st.count for st in found) > 0
        return found

    _down_and_up(engine, campaign_target, "ix_unit_location", "0010", counted, covered)


def test_down_from_schema_12_and_up_again_lists_the_same_stacks_from_their_index(campaign_target: str) -> None:
    """Migration 0012: the index of the units by nation, place and general goes down and
    comes back; every side's listed stacks (counts, SP, widths, places, order) are the
    same at each step, and on SQLite a side's groups are read from the index alone with
    no sort (PostgreSQL's planner picks by the size of the tables)."""
    from sqlalchemy import event, text

    from campaigns.listed import Listing
    from campaigns.session import CampaignSession

    grouped: list[tuple[str, object]] = []  # the listing's own statements that group the units

    def listed() -> list[tuple]:
        session = CampaignSession.open(campaign_target)

        def seen(_conn, _cursor, statement, parameters, _context, _many) -> None:
            if "GROUP BY u." in statement and "FROM unit u WHERE u.nation IN" in statement:
                grouped.append((statement, parameters))

        event.listen(session.store.engine, "before_cursor_execute", seen)
        try:
            with session.store.connect() as db:
                sides = db.execute(text("SELECT DISTINCT side FROM nation ORDER BY side")).scalars().all()
            return [(st.side, st.place, st.commands) for side in sides for st in Listing(session, [side]).stacks]
        finally:
            session.close()

    session = CampaignSession.new("spring1813", campaign_target, seed=1813)
    session.close()
    engine = make_engine(to_url(campaign_target))
    sqlite = engine.dialect.name == "sqlite"
    with writer(engine).begin() as db:  # units of several nations at one place, some of no general
        db.execute(text("UPDATE unit SET location = 'Dresden' WHERE id IN (SELECT id FROM unit ORDER BY id LIMIT 40)"))
        db.execute(text("UPDATE unit SET general = NULL WHERE id IN (SELECT id FROM unit ORDER BY id LIMIT 5)"))

    def unsorted() -> None:
        """Each statement the listing grouped a side's units with, read from the index alone."""
        assert grouped
        if sqlite:
            with sqlite3.connect(campaign_target) as raw:
                for statement, parameters in grouped:
                    plan = " ".join(str(row[-1]) for row in raw.execute(f"EXPLAIN QUERY PLAN {statement}", parameters))
                    assert "COVERING INDEX ix_unit_stacks" in plan and "TEMP B-TREE" not in plan, plan
            raw.close()
        grouped.clear()

    def some() -> object:
        found = listed()
        assert found and any(len(commands) > 1 for _s, _p, commands in found)
        return found

    _down_and_up(engine, campaign_target, "ix_unit_stacks", "0011", some, unsorted)


def _catalogue(target: str) -> object:
    """Everything a schema is made of, as the database describes it."""
    engine = make_engine(to_url(target))
    try:
        with engine.connect() as connection:
            if connection.dialect.name == "sqlite":
                return (
                    connection.exec_driver_sql("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid").all(),
                    [connection.exec_driver_sql(f"PRAGMA {p}").all() for p in ("user_version", "application_id")],
                    connection.exec_driver_sql("SELECT version_num FROM alembic_version").all(),
                )
            queries = [
                "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default"
                " FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 3",
                "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
                " WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
                "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2",
                "SELECT sequencename, data_type, start_value, increment_by FROM pg_sequences ORDER BY 1",
                "SELECT extname FROM pg_extension ORDER BY 1",
                "SELECT version_num FROM alembic_version",
            ]
            return [connection.exec_driver_sql(query).all() for query in queries]
    finally:
        engine.dispose()


def _migrate(target: str) -> None:
    engine = make_engine(to_url(target))
    try:
        with writer(engine).begin() as connection:
            upgrade(connection)
    finally:
        engine.dispose()


@contextmanager
def _another(target: str) -> Iterator[str]:
    """A second empty campaign target beside `target`: a file, or a database on the same server."""
    if not target.startswith("postgresql"):
        yield str(Path(target).with_name("second.campaign"))
        return
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(target)
    name = f"{url.database}_second"
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        copying = " STRATEGY FILE_COPY" if connection.info.server_version >= 150000 else ""  # as tests/conftest.py's
        connection.execute(f'CREATE DATABASE "{name}"{copying}')
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_schema_built_again_from_nothing_is_the_one_alembic_builds(
    campaign_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """models.schema sends the statements Alembic sent for the first empty database to the next:
    the second database must be the first, and Alembic must not run for it."""
    from models import schema

    monkeypatch.setattr(schema, "_FROM_NOTHING", {})
    _migrate(campaign_target)
    assert len(schema._FROM_NOTHING) == 1

    def alembic(*_args: object) -> None:
        raise AssertionError("Alembic ran for a second empty database")

    monkeypatch.setattr(schema, "_alembic_upgrade", alembic)
    with _another(campaign_target) as second:
        _migrate(second)
        assert _catalogue(second) == _catalogue(campaign_target)


def test_a_reflected_schema_is_shared_by_databases_of_the_same_schema_only(campaign_target: str) -> None:
    """models.exchange.reflected keeps a reading for the schema's text: a second database of the
    same schema gets it again; one with a column more gets its own, with that column."""
    from sqlalchemy import text

    from models.exchange import reflected

    _migrate(campaign_target)
    with _another(campaign_target) as second:
        _migrate(second)
        readings = []
        for target, change in ((campaign_target, None), (second, None), (second, "ALTER TABLE unit ADD COLUMN spy INTEGER")):
            engine = make_engine(to_url(target))
            try:
                with writer(engine).begin() as connection:
                    if change:
                        connection.execute(text(change))
                    readings.append(reflected(connection))
            finally:
                engine.dispose()
    assert readings[1] is readings[0]
    assert readings[2] is not readings[0] and "spy" in readings[2].tables["unit"].c and "spy" not in readings[0].tables["unit"].c


def _move_ney(session) -> None:
    """Ney's stack (five units) from Weimar to Erfurt, the weather and command points rolled first."""
    from campaigns import command_points, movement, weather

    weather.roll(session, [2])
    for army in command_points.turn_points(session):
        command_points.roll(session, army.army, [3])
    movement.activate(session, "ney")
    movement.move(session, "ney", "Erfurt")


def test_down_from_schema_13_and_up_again_finds_the_units_each_event_moved(campaign_target: str) -> None:
    """Migration 0013: the units each event changed (models.event_units) go down and come back,
    filled from the events already stored (here by the store, then by the migration: the same
    rows); the history's filter by a unit moved with its stack, whose name no event holds, finds
    the move at head and again after the way down and up; on SQLite the newest events of a unit
    are read from the table's key alone. An undo names no unit of its own: the action has them."""
    from sqlalchemy import text

    from campaigns import history, movement
    from campaigns.session import CampaignSession
    from models import event_units

    session = CampaignSession.new("spring1813", campaign_target, seed=1813)
    try:
        _move_ney(session)
        movement.activate(session, "bertrand")
        session.undo()
        session.redo()
    finally:
        session.close()
    engine = make_engine(to_url(campaign_target))

    def read() -> object:
        again = CampaignSession.open(campaign_target)  # at 0012, upgraded as it opens
        try:
            found = [e.ref for e in history.entries(again, "Marchand") if e.ref.startswith("#")]
            with again.store.connect() as db:
                rows = db.execute(text("SELECT event, unit FROM event_unit ORDER BY event, unit")).all()
            return found, rows
        finally:
            again.close()

    found, rows = read()
    assert len(found) == 1 and {unit for _event, unit in rows} >= {"iii_marchand", "iii_souham", "iii_ricard"}
    assert len({event for event, _unit in rows}) == 1  # the move; the activations, undo and redo change no unit

    def planned() -> None:
        if engine.dialect.name != "sqlite":
            return
        statement = str(event_units.NEWEST).replace("(__[POSTCOMPILE_units])", "('iii_marchand')")
        with sqlite3.connect(campaign_target) as raw:
            plan = " ".join(str(row[-1]) for row in raw.execute(f"EXPLAIN QUERY PLAN {statement}", {"before": 99, "limit": 5}))
        raw.close()
        assert "USING PRIMARY KEY" in plan and "SCAN" not in plan, plan

    _down_and_up(engine, campaign_target, "ix_event_unit_event", "0012", read, planned)


def test_a_rewind_forgets_and_an_import_rebuilds_the_units_of_each_event(tmp_path: Path) -> None:
    """The past (a copy rewound to before the move) holds no row of the events it forgot; an
    export imported holds the same rows as the campaign it came from."""
    from sqlalchemy import text

    from campaigns.past import moment, open_past
    from campaigns.session import CampaignSession
    from models import dumps, loads

    path = tmp_path / "lutzen.campaign"
    session = CampaignSession.new("spring1813", path, seed=1813)
    try:
        _move_ney(session)
        with session.store.connect() as db:
            moved = db.execute(text("SELECT max(id) FROM event")).scalar_one()
            rows = db.execute(text("SELECT event, unit FROM event_unit ORDER BY event, unit")).all()
        assert rows and {event for event, _unit in rows} == {moved}
        past = open_past(session, moment(session, event=moved))
        try:
            with past.store.connect() as db:
                assert db.execute(text("SELECT count(*) FROM event_unit")).scalar_one() == 0
        finally:
            past.close()
        imported = loads(tmp_path / "imported.campaign", dumps(session.store))
        try:
            with imported.connect() as db:
                assert db.execute(text("SELECT event, unit FROM event_unit ORDER BY event, unit")).all() == rows
        finally:
            imported.close()
    finally:
        session.close()

"""The tables of a turn's paperwork (models.records) are built only when first asked for,
yet they are models.tables' like the others: by name, in the metadata and in the schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy.orm import configure_mappers

import models
import models.tables
from models import table_metadata
from tests.templates import new_campaign

ROOT = Path(__file__).resolve().parents[2]
RECORDS = {"activation", "command_point_roll", "command_point_spend", "event_note", "pontoon", "side_order"}


def _fresh(code: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_reading_the_map_and_the_battles_builds_no_record_table(tmp_path: Path) -> None:
    # The campaign is made here (a copy of the worker's, tests/templates.py): only its reading
    # needs a process whose modules are its own.
    made = new_campaign(tmp_path / "spring.campaign", "spring1813", seed=7)
    found = _fresh(
        "import json, sys\n"
        "from sqlmodel import SQLModel, col, select\n"
        "from models import Battle, General, Nation, Side, Unit, open_campaign\n"
        "seen = {'built': sorted(SQLModel.metadata.tables), 'records': 'models.records' in sys.modules}\n"
        "with open_campaign(sys.argv[1]) as store:\n"
        "    with store.read() as db:\n"
        "        seen['units'] = len(db.exec(select(Unit).join(Nation, col(Nation.id) == col(Unit.nation))).all())\n"
        "        seen['battles'] = len(db.exec(select(Battle)).all())\n"
        "    with store.action('Ney marches to Dresden') as db:\n"  # a flush with models.tables' classes alone
        "        db.get_one(General, 'ney').location = 'Dresden'\n"
        "    with store.read() as db:\n"
        "        seen['ney'] = db.get_one(General, 'ney').location\n"
        "from models.tables import SideOrder\n"
        "seen['asked'] = SideOrder.__tablename__\n"
        "print(json.dumps(seen))\n",
        str(made),
    )
    assert not RECORDS & set(found["built"]), found["built"]
    assert found["records"] is False
    assert found["units"] > 0 and found["battles"] == 0
    assert found["ney"] == "Dresden"
    assert found["asked"] == "side_order"


def test_every_key_of_the_tables_built_first_names_a_table_built_with_them() -> None:
    # What lets models.tables stand alone: a flush or a join of its classes resolves every key.
    for table in table_metadata().tables.values():
        if table.name in RECORDS:
            continue
        for key in table.foreign_keys:
            assert key.column.table.name not in RECORDS, f"{table.name}.{key.parent.name} -> {key.target_fullname}"


def test_the_records_are_models_tables_by_name_and_in_the_whole_schema() -> None:
    configure_mappers()
    for name in models.tables.RECORDS:
        cls = getattr(models.tables, name)
        assert cls is getattr(models, name)
        assert cls.__tablename__ in RECORDS
    assert RECORDS <= set(table_metadata().tables)
    assert len(table_metadata().tables) == 17


def test_the_column_clauses_name_the_paperwork_tables_columns() -> None:
    """models.record_columns names tables and columns that the story and the ledger read without
    the ORM classes: each is a column of the class's own table, of the same kind of type."""
    from sqlalchemy import JSON, Integer, String
    from sqlalchemy.types import TypeDecorator

    from models import CommandPointRoll, CommandPointSpend, SideOrder
    from models.record_columns import COMMAND_POINT_ROLL, COMMAND_POINT_SPEND, SIDE_ORDER

    for clause, model in ((COMMAND_POINT_ROLL, CommandPointRoll), (COMMAND_POINT_SPEND, CommandPointSpend), (SIDE_ORDER, SideOrder)):
        real = model.__table__  # type: ignore[attr-defined]
        assert clause.name == real.name
        assert len(clause.c) >= 4
        for named in clause.c:
            assert named.name in real.c, (real.name, named.name)
            stored = real.c[named.name].type
            stored = stored.impl if isinstance(stored, TypeDecorator) else stored  # SQLModel's AutoString: a String
            kind = next(k for k in (JSON, Integer, String) if isinstance(stored, k))
            assert isinstance(named.type, kind), (real.name, named.name, real.c[named.name].type, named.type)


def test_the_column_clauses_name_the_campaign_tables_columns() -> None:
    """The clauses of models.tables' own tables, which the story, the luck ledger and a battle's
    loading read without the classes: each is a column of the class's table, of its type (a JSON
    column decoded as the class's is, a date read as a date)."""
    from sqlalchemy import JSON, Boolean, Date, Integer, String
    from sqlalchemy.types import TypeDecorator

    from models import record_columns, tables

    clauses = {
        record_columns.CAMPAIGN: tables.Campaign, record_columns.SIDE: tables.Side, record_columns.NATION: tables.Nation,
        record_columns.ARMY: tables.Army, record_columns.UNIT: tables.Unit, record_columns.TURN: tables.Turn,
        record_columns.BATTLE: tables.Battle, record_columns.EVENT: tables.Event, record_columns.DICE_ROLL: tables.DiceRoll,
        record_columns.SIGHTING: tables.Sighting,
    }
    for clause, model in clauses.items():
        real = model.__table__  # type: ignore[attr-defined]
        assert clause.name == real.name
        for named in clause.c:
            assert named.name in real.c, (real.name, named.name)
            stored = real.c[named.name].type
            stored = stored.impl if isinstance(stored, TypeDecorator) else stored  # SQLModel's AutoString: a String
            kind = next(k for k in (JSON, Boolean, Date, Integer, String) if isinstance(stored, k))
            assert isinstance(named.type, kind), (real.name, named.name, stored, named.type)

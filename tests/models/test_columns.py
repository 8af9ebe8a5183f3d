"""The plain description of the tables (models.columns) says what the SQLModel classes say.

`export` and `check` read every table through that description instead of the
classes: a column added, dropped, retyped or made nullable in models/tables.py
and not there would be exported wrongly, so the two are compared here column
by column, types, keys, defaults and all.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import JSON, BigInteger, Boolean, Date, Integer, String, TypeDecorator
from sqlalchemy.dialects import sqlite
from sqlmodel.sql.sqltypes import AutoString
from sqlmodel.sql.sqltypes import UTCDateTime as SQLModelUTCDateTime

from models import columns, table_metadata


def _kind(column) -> str:
    """The description's word for a class's column type (models.columns.KINDS)."""
    kind = column.type
    if isinstance(kind, SQLModelUTCDateTime):
        return "moment"
    if isinstance(kind, AutoString):
        kind = kind.impl_instance
    for word, exact in (("bigint", BigInteger), ("integer", Integer), ("boolean", Boolean), ("date", Date), ("json", JSON)):
        if type(kind) is exact:
            return word
    if type(kind) is String and kind.length is None:
        return "text"
    raise AssertionError(f"{column.table.name}.{column.name} has a type models.columns does not know: {kind!r}")


def _described(table) -> str:
    """The classes' table as models.columns writes it."""
    specs = []
    for column in table.columns:
        flags = ["key"] * column.primary_key + ["null"] * bool(column.nullable)
        if column.server_default is not None:
            flags.append(f"default={column.server_default.arg}")
        specs.append(" ".join([column.name, _kind(column), *flags]))
    return ", ".join(specs)


def test_the_description_is_the_classes_tables() -> None:
    classes = {table.name: _described(table) for table in table_metadata().sorted_tables}
    wrong = {name: line for name, line in classes.items() if columns.TABLES.get(name) != line}
    extra = sorted(set(columns.TABLES) - set(classes))
    assert not wrong and not extra, (
        f"models/columns.py differs from models/tables.py; write these tables there as {wrong!r}"
        + (f" and remove {extra}" if extra else "")
    )


def test_the_described_tables_read_as_the_classes_tables() -> None:
    """Same names, order, keys, emptiness and defaults, and types that read a value alike."""
    classes = table_metadata().tables
    described = columns.tables()
    assert [table.name for table in described] == sorted(classes)
    dialect = sqlite.dialect()
    for table in described:
        theirs = classes[table.name]
        assert [c.name for c in table.columns] == [c.name for c in theirs.columns]
        assert [c.name for c in table.primary_key.columns] == [c.name for c in theirs.primary_key.columns]
        for ours, their in zip(table.columns, theirs.columns, strict=True):
            where = f"{table.name}.{ours.name}"
            assert ours.nullable == their.nullable, where
            assert (ours.server_default is None) == (their.server_default is None), where
            if ours.server_default is not None:
                assert ours.server_default.arg == their.server_default.arg, where
            assert _impl(ours.type).__class__ is _impl(their.type).__class__, where
            assert isinstance(ours.type, TypeDecorator) == (isinstance(their.type, TypeDecorator) and not isinstance(their.type, AutoString)), where
            ours_reads = ours.type.dialect_impl(dialect).result_processor(dialect, None)
            theirs_reads = their.type.dialect_impl(dialect).result_processor(dialect, None)
            assert (ours_reads is None) == (theirs_reads is None), where


def _impl(kind):
    return kind.impl_instance if isinstance(kind, TypeDecorator) else kind


@pytest.mark.parametrize(
    "stored",
    [
        "2025-01-01 00:00:07.000000",
        "2025-01-01 00:00:07.123456",
        "2025-01-01T00:00:07+02:00",
        "1813-05-02 12:00:00",
    ],
)
def test_a_moment_reads_as_sqlmodel_reads_it(stored: str) -> None:
    dialect = sqlite.dialect()
    ours = columns.UTCDateTime().dialect_impl(dialect).result_processor(dialect, None)
    theirs = SQLModelUTCDateTime().dialect_impl(dialect).result_processor(dialect, None)
    read = ours(stored)
    assert read == theirs(stored)
    assert read.isoformat() == theirs(stored).isoformat()
    assert read.utcoffset() == timedelta(0)


def test_a_moment_the_database_hands_back_is_put_in_utc_as_sqlmodel_does() -> None:
    """PostgreSQL hands back aware moments: read in UTC by both."""
    aware = datetime(2025, 1, 1, 12, tzinfo=timezone(timedelta(hours=2)))
    naive = datetime(2025, 1, 1, 12)
    dialect = sqlite.dialect()
    for value in (aware, naive, None):
        assert columns.UTCDateTime().process_result_value(value, dialect) == SQLModelUTCDateTime().process_result_value(value, dialect)

"""A whole campaign as JSON, and a new campaign built from such an export.

The export lists every row of every table, keyed by column, rows in key order,
so exports diff cleanly and export, import, export gives the same text. It names
its schema revision; an export of an older schema is loaded at that revision and
then migrated like an old file.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, MetaData, Table, select, text
from sqlmodel import SQLModel

from models import schema
from models.errors import CampaignFileError
from models.opening import build_new
from models.store import CampaignStore
from models.targets import Target
from models.values import row_from_json, row_to_json

FORMAT = "adjutant-campaign"


def dump(store: CampaignStore) -> dict[str, Any]:
    """The campaign as a JSON-ready document."""
    tables: dict[str, list[dict[str, Any]]] = {}
    with store.read() as session:
        for table in SQLModel.metadata.sorted_tables:
            rows = [row_to_json(table, row) for row in session.execute(select(table)).mappings()]
            keys = [column.name for column in table.primary_key.columns]
            # Sorted here, not by the database, whose collation of text differs between back ends.
            tables[table.name] = sorted(rows, key=lambda row: tuple(row[k] for k in keys))
    return {"format": FORMAT, "schema": schema.head(), "tables": tables}


def dumps(store: CampaignStore) -> str:
    return json.dumps(dump(store), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def load(target: Target, document: Any, *, source: str = "the export") -> CampaignStore:
    """Build a new campaign at `target` from an export; `source` names it in errors."""
    revision = _revision(document, source)

    def fill(connection: Connection) -> None:
        schema.upgrade(connection, revision)
        metadata = MetaData()
        metadata.reflect(connection)
        tables = document["tables"]
        unknown = sorted(set(tables) - set(metadata.tables) - {schema.VERSION_TABLE})
        if unknown:
            raise CampaignFileError(
                f"{source} has a table {unknown[0]!r} that schema {revision} does not have"
            )
        for table in metadata.sorted_tables:
            if table.name in tables and table.name != schema.VERSION_TABLE:
                _insert(connection, table, tables[table.name], source)
        if connection.dialect.name == "postgresql":
            # Check the rows' references now: PostgreSQL alters no table with checks pending.
            connection.execute(text("SET CONSTRAINTS ALL IMMEDIATE"))
            _advance_sequences(connection, metadata)
        schema.upgrade(connection)

    return build_new(target, fill)


def loads(target: Target, exported: str, *, source: str = "the export") -> CampaignStore:
    """Build a new campaign at `target` from the text of an export."""
    try:
        document = json.loads(exported)
    except json.JSONDecodeError as error:
        raise CampaignFileError(f"{source} is not JSON: {error.msg} at line {error.lineno}") from None
    return load(target, document, source=source)


def _revision(document: Any, source: str) -> str:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise CampaignFileError(f"{source} is not an Adjutant campaign export")
    revision = document.get("schema")
    if not isinstance(revision, str) or not isinstance(document.get("tables"), dict):
        raise CampaignFileError(f"{source} is not an Adjutant campaign export: it lacks its schema or tables")
    if not schema.is_known(revision):
        raise CampaignFileError(
            f"{source} was exported by a newer version of Adjutant (schema {revision}); "
            "upgrade Adjutant to import it"
        )
    return revision


def _insert(connection: Connection, table: Table, rows: Any, source: str) -> None:
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise CampaignFileError(f"{source}: table {table.name!r} is not a list of rows")
    batches: dict[frozenset[str], list[dict[str, Any]]] = {}
    for number, row in enumerate(rows, 1):
        unknown = sorted(set(row) - set(table.columns.keys()))
        if unknown:
            raise CampaignFileError(
                f"{source}: row {number} of {table.name!r} has an unknown column {unknown[0]!r}"
            )
        try:
            batches.setdefault(frozenset(row), []).append(row_from_json(table, row))
        except (TypeError, ValueError) as error:
            raise CampaignFileError(
                f"{source}: row {number} of {table.name!r} has a bad value: {error}"
            ) from None
    for batch in batches.values():
        connection.execute(table.insert(), batch)


def _advance_sequences(connection: Connection, metadata: MetaData) -> None:
    """Rows came with their ids, so move each id sequence past the largest one."""
    for table in metadata.sorted_tables:
        for column in table.primary_key.columns:
            sequence = connection.execute(
                text("SELECT pg_get_serial_sequence(:table, :column)"),
                {"table": table.name, "column": column.name},
            ).scalar()
            if sequence:
                largest = f'SELECT coalesce(max("{column.name}"), 0) FROM "{table.name}"'
                connection.execute(
                    text(f"SELECT setval(:sequence, ({largest}) + 1, false)"), {"sequence": sequence}
                )

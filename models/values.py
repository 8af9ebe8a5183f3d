"""Column values to and from JSON, for the event log and for exports.

Dates and times travel as ISO 8601 strings; everything else a campaign stores
(text, whole numbers, booleans, JSON documents) is JSON already.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from sqlalchemy import Column, Date, DateTime, Table, TypeDecorator


def to_json(value: Any) -> Any:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return value


def from_json(column: Column[Any], value: Any) -> Any:
    if value is None:
        return None
    kind = column.type.impl_instance if isinstance(column.type, TypeDecorator) else column.type
    if isinstance(kind, DateTime):
        return datetime.fromisoformat(value)
    if isinstance(kind, Date):
        return date.fromisoformat(value)
    return value


def row_to_json(table: Table, row: Mapping[Any, Any]) -> dict[str, Any]:
    """A row as a JSON object keyed by column name."""
    return {column.name: to_json(row[column.name]) for column in table.columns}


def row_from_json(table: Table, values: Mapping[str, Any]) -> dict[str, Any]:
    """The column values of a JSON object, ready to write to `table`."""
    return {name: from_json(table.c[name], value) for name, value in values.items()}

"""The quick judge of export rows (models.export_quick) says what the row model says.

Every column of a played campaign gets, one at a time, every bad value of the
hostile corpus and a few that look almost right (a moment without microseconds,
the 31st of February, a Boolean stored as 2, an undo's target among changes);
the rows read with the quick judge and with the row model alone must be the same
rows, or the same refusal.
"""

from __future__ import annotations

import collections
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Column, MetaData, Table, TypeDecorator, create_engine

from models import export_quick
from models.errors import CampaignFileError
from models.exchange import batches, tables
from tests import hostile, seeds
from tests.test_hostile_files import played

ALMOST_RIGHT = [
    "'2025-01-01 00:00:00'",
    "'2025-02-31 10:00:00.000000'",
    "'2025-01-01 24:00:00.000000'",
    "'2025-01-01T00:00:00+02:00'",
    "'2025-01-01 00:00:07.000001'",
    "'1813-02-29'",
    # days the quick judge reads without `date.fromisoformat` (models.export_quick EVERY_MONTHS_DATES) and about them
    "'2024-02-29 10:00:00.000000'",
    "'2025-04-31 10:00:00.000000'",
    "'2025-13-01 10:00:00.000000'",
    "'2025-00-10 10:00:00.000000'",
    "'2025-01-00 10:00:00.000000'",
    "'0999-12-28 10:00:00.000000'",
    "'0000-01-01 10:00:00.000000'",
    "'1000-01-28'",
    "'0000-01-01'",
    "2",
    "1.0",
    "'[{\"event\": 1}]'",
    "'[{\"event\": 1}, {\"table\": \"unit\", \"key\": {}, \"before\": null, \"after\": null}]'",
    "'[{\"table\": \"unit\", \"key\": {}, \"before\": null, \"after\": null, \"extra\": 1}]'",
    "'rolled'",
    "'entered'",
    "' spaced '",
    "'[1e2]'",
    "'{\"a\": 18446744073709551615}'",
    "'[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'",
    "2147483647",
    "2147483648",
    # the time of day out of range, which the quick judge reads from the pattern alone
    "'2025-01-01 23:59:60.000000'",
    "'2025-01-01 19:60:00.000000'",
    # shapes the C-level checks (models.export_shapes) must leave to pydantic
    "'[{\"table\": true, \"key\": {}, \"before\": null, \"after\": null}]'",
    "'[{\"table\": \"unit\", \"key\": {}, \"before\": [], \"after\": {}}]'",
    "'[{\"table\": \"unit\", \"before\": null, \"after\": null}]'",
    "'[[]]'",
    "'[true, 1]'",
    "'[1.0]'",
    "'[1000001]'",
    "'[{\"value\": true, \"label\": \"x\"}]'",
    "'[{\"value\": 1}]'",
]


def read_all(connection, table) -> object:
    try:
        return [row for batch in batches(connection, table, "the file") for row in batch]
    except CampaignFileError as error:
        return str(error)


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cut_campaign(tmp_path_factory.mktemp("quick"))


def cut_campaign(folder: Path) -> Path:
    """A played campaign cut to a few rows a table, so that each case reads in a moment."""
    import sqlite3

    path = played(folder / "real.campaign")
    db = sqlite3.connect(path, isolation_level=None)
    for table in ("unit", "general", "turn", "nation", "army"):
        db.execute(f"DELETE FROM {table} WHERE rowid NOT IN (SELECT rowid FROM {table} ORDER BY rowid LIMIT 4)")
    db.close()
    return path


# Cases drawn with the run's seed beyond the core (every value on every class of column, and every
# column once); `python -m tests.hostile_corpus` compares every column with every value.
DRAWN = 200


def column_class(table: Table, column: Column[Any], reflected: bool) -> tuple[Any, ...]:
    """Which of the quick judge's ways a column is read by (models.export_quick `_column_judge`):
    its type and the type it stands for, with a shape or limits of its own or not, nullable or
    not, a model's table or one reflected, and whether its table is left to the row model."""
    from models.export_format import DOMAIN, ROW_CHECKS, SHAPES

    kind = column.type.impl_instance if isinstance(column.type, TypeDecorator) else column.type
    where = (table.name, column.name)
    return (
        table.name in ROW_CHECKS or export_quick.table_judge(table) is None,  # left to the row model
        reflected, type(column.type).__name__, type(kind).__name__, column.nullable,
        where in SHAPES, where in DOMAIN,
    )


def compare(real: Path, seed: int | None, drawn: int = DRAWN) -> collections.Counter[str]:
    """Give columns of `real` bad values one at a time and read the table with the quick judge and
    with the row model alone: the same rows or the same refusal. With `seed`, the core (every value
    on a column of every class, and every column) and `drawn` more cases; without, every column
    with every value. A case SQLite itself refuses (a NOT NULL, a key) has nothing to read: the
    next column of the class, or value for the column, stands in for it."""
    rng = random.Random(seed)
    engine = create_engine(f"sqlite:///{real}", json_deserializer=orjson.loads)
    seen: collections.Counter[str] = collections.Counter()
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA foreign_keys = OFF")
            metadata = MetaData()
            names = [table.name for table in tables()]
            metadata.reflect(connection, only=names)
            # The models' tables, and as reflected (by `export --salvage`) those with moments and
            # Booleans, whose reflected types read otherwise (no UTC offset added).
            reflected = [t for t in metadata.sorted_tables if any(c.type.python_type in (bool, datetime) for c in t.columns)]
            grid = [
                (table, column, value, (column_class(table, column, table.metadata is metadata), value),
                 (table.name, table.metadata is metadata, column.name))
                for table in [*tables(), *reflected]
                if table.name != "campaign" and connection.exec_driver_sql(f'SELECT count(*) FROM "{table.name}"').scalar()
                for column in table.columns
                for value in hostile.BAD_VALUES + ALMOST_RIGHT
            ]
            rng.shuffle(grid)
            kinds_read: set[tuple[Any, ...]] = set()
            columns_read: set[tuple[str, bool, str]] = set()
            refused_by_sqlite: collections.Counter[Any] = collections.Counter()
            for table, column, value, kind, where in grid:
                if seed is not None and kind in kinds_read and where in columns_read:
                    if drawn <= 0:
                        continue
                    drawn -= 1
                savepoint = connection.begin_nested()
                try:
                    connection.exec_driver_sql(f'UPDATE "{table.name}" SET "{column.name}" = {value}')
                except Exception:  # noqa: BLE001 - a value SQLite itself refuses here: nothing to read
                    savepoint.rollback()
                    refused_by_sqlite[kind] += 1
                    refused_by_sqlite[where] += 1
                    continue
                quick = read_all(connection, table)
                with _row_model_only():
                    model = read_all(connection, table)
                savepoint.rollback()
                assert quick == model, f"{table.name}.{column.name} = {value}"
                kinds_read.add(kind)
                columns_read.add(where)
                seen["refused" if isinstance(model, str) else "taken"] += 1
    finally:
        engine.dispose()
    # The core ran: every value was read on every class of column, and every column was read,
    # unless SQLite refused each of its cases.
    cases = collections.Counter(key for *_rest, kind, where in grid for key in (kind, where))
    unread = [key for key in cases if key not in kinds_read and key not in columns_read]
    assert all(refused_by_sqlite[key] == cases[key] for key in unread), [k for k in unread if refused_by_sqlite[k] != cases[k]][:3]
    return seen


@contextmanager
def _row_model_only() -> Iterator[None]:
    """Read with the row model alone: exchange imports export_quick's table_judge when it reads."""
    kept = export_quick.table_judge
    export_quick.table_judge = lambda _table: None  # type: ignore[assignment]
    try:
        yield
    finally:
        export_quick.table_judge = kept  # type: ignore[assignment]


def test_the_quick_judge_and_the_row_model_read_every_bad_value_alike(real: Path) -> None:
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    seen = compare(real, seed)
    assert seen["refused"] + seen["taken"] > 500 and seen["refused"] > 100, seen  # the cases ran, and many were refused


def test_the_quick_judge_reads_a_sound_campaign_without_the_row_model(
    real: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from models import export_format

    calls = []
    monkeypatch.setattr(export_format, "validate_row", lambda table, row: calls.append(table.name))  # exchange's too: imported when it reads
    engine = create_engine(f"sqlite:///{real}", json_deserializer=orjson.loads)
    with engine.connect() as connection:
        for table in tables():
            read_all(connection, table)
    engine.dispose()
    assert set(calls) <= set(export_format.ROW_CHECKS)  # only the rows the rule sets judge too (a handful)


def _nested(depth: int, opening: str = "[", closing: str = "]") -> str:
    return opening * depth + "1" + closing * depth


def _change(depth: int, opening: str = "[", closing: str = "]") -> str:
    """An event's changes nested `depth` deep in all: its list, the change, the row after it, then a value."""
    return '[{"table": "unit", "key": {"id": "x"}, "before": null, "after": {"a": ' + _nested(depth - 3, opening, closing) + "}}]"


@pytest.mark.parametrize(
    ("value", "refused"),
    [
        (_change(31), False), (_change(32), False), (_change(33), True), (_change(300), True), (_change(2000), True),
        (_change(32, '{"a": ', "}"), False), (_change(33, '{"a": ', "}"), True),
        (_change(5, "[" + "[1], " * 40, "]"), False),  # many brackets, not deep
    ],
)
def test_the_export_reads_the_depth_of_json_from_its_text_as_the_row_model_does(
    real: Path, monkeypatch: pytest.MonkeyPatch, value: str, refused: bool
) -> None:
    """The export leaves a JSON value's depth to the text it writes (models.exchange._shallow):
    what it writes, or the sentence it refuses with, is the row model's."""
    import io

    from models import schema
    from models.exchange import _write_tables

    def export(connection, table) -> object:
        out = io.BytesIO()
        try:
            _write_tables(connection, "the file", schema.head(), [table], out.write)
        except CampaignFileError as error:
            return str(error)
        return out.getvalue()

    engine = create_engine(f"sqlite:///{real}", json_deserializer=orjson.loads)
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys = OFF")
        described = {table.name: table for table in tables()}
        for table, column in (("event", "changes"),):
            savepoint = connection.begin_nested()
            connection.exec_driver_sql(f'UPDATE "{table}" SET "{column}" = ? WHERE rowid = (SELECT max(rowid) FROM "{table}")', (value,))
            quick = export(connection, described[table])
            with monkeypatch.context() as patch:
                patch.setattr(export_quick, "table_judge", lambda _table, **_options: None)
                model = export(connection, described[table])
            savepoint.rollback()
            assert quick == model, f"{table}.{column} = {value[:40]}"
    engine.dispose()
    assert isinstance(quick, str) == refused, quick


def test_the_depth_of_json_text_is_how_deep_its_arrays_and_objects_nest_outside_strings() -> None:
    """models.export_format._depth reads the depth from the text orjson writes; here it is read from
    the value itself. Strings full of brackets, quotes and backslashes (escaped by orjson) count for
    nothing, however many; nesting on either side of MAX_JSON_DEPTH is told apart."""
    from models.export_format import MAX_JSON_DEPTH, _depth

    seed = seeds.run_seed()
    rng = random.Random(seed)
    pieces = ["[", "]", "{", "}", '"', "\\", '\\"', "\\\\", '"]', "\\]", "a", "\n", "日", "\u2028", "[[[[[[[[[["]

    def text() -> str:
        return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))

    def value(level: int) -> Any:
        draw = rng.random()
        if level < 5 and draw < 0.4:
            return [value(level + 1) for _ in range(rng.randint(0, 3))]
        if level < 5 and draw < 0.6:
            return {text(): value(level + 1) for _ in range(rng.randint(0, 3))}
        return rng.choice([text(), 1, None, True])

    def nested(inner: Any, levels: int) -> Any:
        for _ in range(levels):
            inner = [inner] if rng.random() < 0.5 else {text(): inner}
        return inner

    def nesting(of: Any) -> int:
        children = list(of.values()) if isinstance(of, dict) else of if isinstance(of, list) else None
        return 0 if children is None else 1 + max(map(nesting, children), default=0)

    kinds: collections.Counter[str] = collections.Counter()
    for _ in range(3000):
        case = value(0)
        draw = rng.random()
        if draw < 0.4:  # about the limit
            case = nested(case, MAX_JSON_DEPTH - 3 + rng.randint(0, 5))
        elif draw < 0.6:  # shallow, with more brackets in its strings than the limit
            case = {"[" * (MAX_JSON_DEPTH + 1): [text() + "{" * MAX_JSON_DEPTH for _ in range(3)], '\\"[': case}
        encoded = orjson.dumps(case)
        deep = nesting(case)
        assert (_depth(encoded) > MAX_JSON_DEPTH) == (deep > MAX_JSON_DEPTH), (encoded[:200], deep, seeds.replay(seed))
        if encoded.count(b"[") + encoded.count(b"{") > MAX_JSON_DEPTH:  # read from the text, to the level
            assert _depth(encoded) == deep, (encoded[:200], deep, seeds.replay(seed))
        kinds["too deep" if deep > MAX_JSON_DEPTH else "deep enough" if deep == MAX_JSON_DEPTH else "shallow"] += 1
        kinds["brackets in strings"] += any(mark in text_ for text_ in _strings(case) for mark in "[]{}")
    assert min(kinds.values()) >= 100, kinds


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)

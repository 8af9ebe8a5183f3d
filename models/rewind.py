"""A campaign rewound to just before one of its events, in one pass over the later events.

Undoing a million events one at a time through the ORM (`models.history.undo`) takes
minutes. The same end state is reached by reading the events from the newest down,
as that rewind does, and keeping in memory, for every row the undos and redos would
write, only what the last write leaves there (a value per column, the whole row, or
no row); then writing that in bulk, in one transaction.

The reading follows the one-at-a-time rewind (campaigns.past) exactly:

- an action (any event but an undo or a redo) whose changes are in the campaign is
  undone: its changes' `before`, newest change first;
- an undo event makes its action again (its changes' `after`, oldest first) and marks
  it not undone; a redo event undoes its action again and marks it undone; those marks
  are what the older events are then read with, and an action older than the cut keeps
  its new mark;
- an action already undone is left as it is.

Every change is judged as `models.history_checks` judges it before an undo or redo
writes it, and every row it updates or deletes must be there (and a row it inserts
must not). Where anything is out of the ordinary (a history that is refused, a row that
is not there, JSON that is not read), `rewind` writes nothing and answers False: the
one-at-a-time rewind then gives the history's own sentence.

Memory: a dict entry per row written (its columns as the rewind leaves them; one shared
object for every row the rewind deletes), and the marks of the actions the undos and redos
name; the events are read, and the rows written, a batch at a time.

Speed: most changes of a long history are alike (a flag set, a dice roll added), so what
`models.history_checks` judges of a change is remembered where the verdict depends only on
what is remembered: the columns an update writes (by their JSON), the columns a row added
holds; a key is judged by its validator's own bounds (read from its pydantic schema) where
that schema is a plain whole number or text, else by the validator itself.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from collections.abc import Callable
from typing import Any

import orjson
from sqlalchemy import Connection, Integer, Table, bindparam, insert, select, update

from models import search, table_metadata, tally
from models.journal import REDO, REPLAYS, UNDO, target
from models.values import row_from_json, row_to_json
from rules.numbers import EVENT

BATCH = 2_000  # events read at a time
IN_BATCH = 5_000  # keys looked up, rows written, in one statement
# Past this many rows of an indexed table written, its search index is built again from the
# table rather than kept row by row: 33,333 rolls forgotten took 8 s one statement a row,
# a rebuild of the whole dice_roll index at a million events about a second.
INDEX_ROW_BY_ROW = 2_000
REMEMBERED = 100_000  # updates' columns and values remembered as judged good: the memory they take is bounded

# What a row is left as: no row, or the columns given (over the row the campaign holds now, or whole).
ABSENT, PATCH, WHOLE = 0, 1, 2


class _Refer(Exception):
    """Not for the bulk rewind: the one-at-a-time rewind gives the answer."""


class _Row:
    __slots__ = ("state", "values", "there")

    def __init__(self, state: int, values: dict[str, Any] | None, there: bool) -> None:
        self.state = state
        self.values = values
        self.there = there  # whether the row is in the campaign now, as its first write takes it


# A table as `_judge` reads it: the table, its key's name and type, the columns its rule set reads,
# its key's plain test (`_plain`), and its rows as the rewind leaves them.
_Known = tuple[Table, str, type, frozenset[str], Callable[[Any], bool], dict[Any, "_Row"]]

# The commonest row of a long history: added after the cut (a dice roll), so deleted by the rewind.
# One object for all of them, never changed: a later write to such a row puts a new _Row in its place.
_GONE = _Row(ABSENT, None, there=True)


def rewind(connection: Connection, first: int) -> bool:
    """Put the campaign back as it stood just before event `first` and forget the events from it on,
    within `connection`'s transaction. False, with nothing written, where the history is for the
    one-at-a-time rewind to judge."""
    try:
        plan = _Plan(connection)
        plan.read(first)
        plan.confirm()
    except _Refer:
        return False
    except ValueError:  # JSON or a moment that the ORM refuses too: its sentence is the other rewind's
        return False
    plan.write(first)
    return True


class _Plan:
    def __init__(self, connection: Connection) -> None:
        from models.tables import Event

        self.connection = connection
        self.tables = table_metadata().tables
        self.rows: dict[str, dict[Any, _Row]] = defaultdict(dict)  # table -> key -> what the rewind leaves there
        self.marks: dict[int, bool] = {}  # the undone mark of each action an undo or redo named, as last set
        self.event = Event.__table__  # type: ignore[attr-defined]  # a table class
        self._targets_ok: set[tuple[str, bytes]] = set()
        self._columns_ok: set[tuple[str, tuple[str, ...]]] = set()  # (table, the columns of a row added) judged good
        self._tests: dict[tuple[str, ...], tuple[Callable[[Any], bool], ...]] = {}  # (table, an update's columns): judged good
        self._plains: dict[tuple[str, str], Callable[[Any], bool]] = {}  # (table, column): `_plain`
        self._known: dict[str, _Known] = {}
        from models import history_checks  # pydantic's models: only once a rewind needs them
        from models.export_format import ROW_CHECKED_COLUMNS, ROW_CHECKS

        self.checks, self.row_checks, self.row_checked = history_checks, ROW_CHECKS, ROW_CHECKED_COLUMNS

    # -- reading ------------------------------------------------------------------------------

    def read(self, first: int) -> None:
        """Each event from `first` on, newest first, each column as the ORM reads it (a moment that
        `datetime.fromisoformat` reads, changes that orjson reads), so that what the ORM refuses
        stops this rewind as it stops that one."""
        cursor = self.connection.connection.driver_connection.execute(  # type: ignore[union-attr]  # an sqlite3 connection: the copy is a file
            'SELECT id, "when", kind, changes, undone FROM event WHERE id >= ? ORDER BY id DESC', (first,)
        )
        try:
            loads, moment, marks, replay = orjson.loads, datetime.fromisoformat, self.marks, self._replay
            while batch := cursor.fetchmany(BATCH):
                for number, when, kind, changes, undone in batch:  # text read as UTF-8, as the ORM reads it
                    if type(when) is not str:
                        raise _Refer
                    moment(when)
                    if changes is not None:
                        changes = loads(changes)
                    if kind in REPLAYS:
                        self._replayed(kind, changes)
                    elif not marks.get(number, undone):  # undone as the ORM reads it: None, or 0 or 1 as a Boolean
                        replay(changes, undo=True)
        finally:
            cursor.close()

    def _replayed(self, kind: str, changes: Any) -> None:
        """An undo (its action made again, and marked not undone) or a redo (undone again, and marked)."""
        action = target(changes)
        if action is None or not EVENT.holds(action):
            raise _Refer
        found = self.connection.execute(select(self.event.c.changes).where(self.event.c.id == action)).first()
        if found is None:
            raise _Refer
        self._replay(found[0], undo=kind != UNDO)
        self.marks[action] = kind == REDO

    def _replay(self, changes: Any, *, undo: bool) -> None:
        if type(changes) is not list:
            raise _Refer
        judge, write = self._judge, self._write
        if len(changes) == 1:
            change = changes[0]
            rows, value, before, after = judge(change, undo)
            write(rows, value, change, before if undo else after, after if undo else before)
            return
        judged = [judge(change, undo) for change in changes]
        for (rows, value, before, after), change in zip(reversed(judged), reversed(changes)) if undo else zip(judged, changes):
            write(rows, value, change, before if undo else after, after if undo else before)

    def _judge(self, change: Any, undo: bool) -> tuple[dict[Any, _Row], Any, Any, Any]:
        """`models.history_checks.check` of one change, with the row a rule set reads as this rewind has
        it: the rows of its table as this rewind has them, its key, its before and after."""
        if type(change) is not dict or len(change) != 4:
            raise _Refer
        try:
            name, key, before, after = change["table"], change["key"], change["before"], change["after"]
        except KeyError:
            raise _Refer from None
        known = self._known.get(name) if type(name) is str else None
        table, pk_name, pk_type, checked, plain_key, rows = known if known is not None else self._table(name)
        if type(key) is not dict or len(key) != 1:
            raise _Refer
        value = key.get(pk_name)
        if type(value) is not pk_type:
            raise _Refer  # a key as Adjutant writes one, so that rows are told apart by value alone
        try:
            if value not in rows and not plain_key(value):  # a row written already had its key judged
                self.checks._key(table, key)
            if before is None or after is None:  # an insert or a delete: judged whole
                self._whole(table, change, before, after, undo=undo)
                return rows, value, before, after
            if type(before) is not dict or type(after) is not dict or before.keys() != after.keys() or not before:
                raise _Refer
            wanted = before if undo else after
            tests = self._tests.get((name, *wanted))
            if tests is None:
                self._target(table, wanted)
            else:
                for test, written in zip(tests, wanted.values()):
                    if not test(written):
                        self._target(table, wanted)
                        break
            if checked and not checked.isdisjoint(wanted):
                self._rules(table, key, wanted)
        except self.checks.BadHistory:
            raise _Refer from None
        return rows, value, before, after

    def _rules(self, table: Table, key: dict[str, Any], wanted: dict[str, Any]) -> None:
        """The rule set's checks of the row as the update leaves it (history_checks._update)."""
        stored = self._row_now(table, key)
        if stored is not None:
            whole = {**stored, **wanted}
            for rule in self.row_checks[table.name]:
                try:
                    rule(whole)
                except Exception:  # noqa: BLE001 - as history_checks: any refusal of a rule set
                    raise _Refer from None

    def _whole(self, table: Table, change: dict[str, Any], before: Any, after: Any, *, undo: bool) -> None:
        """`history_checks._check` of an insert or a delete. Where it writes no row (an insert undone,
        a delete redone) it judges the columns the row names (remembered) and that the row's key is
        the change's: here, without the rest of `_check`'s work; else `_check` itself."""
        checks = self.checks
        row = after if undo else before  # the side the change's row is read from, the other None
        if (before if undo else after) is not None or type(row) is not dict or table.name in checks.ONE_ROW_TABLES:
            checks._check(self.connection, change, undo=undo)
            return
        columns = (table.name, tuple(row))
        if columns not in self._columns_ok:
            checks._columns(table, row)
            self._columns_ok.add(columns)
        key = change["key"]
        for name in key:
            if name in row and row[name] != key[name]:
                raise _Refer

    def _table(self, name: Any) -> _Known:
        try:
            table = self.checks._writable(name)
        except self.checks.BadHistory:
            raise _Refer from None
        pk = _pk(table)
        known = (
            table, pk.name, int if isinstance(pk.type, Integer) else str, self.row_checked.get(table.name, frozenset()),
            self._plain_test(table, pk.name), self.rows[table.name],
        )
        self._known[table.name] = known
        return known

    def _target(self, table: Table, values: dict[str, Any]) -> None:
        """What `history_checks._update` judges of the columns an update writes: its columns remembered,
        each value by its column's plain test (`_plain`), else the whole remembered by its JSON."""
        checks = self.checks
        names = (table.name, *values)
        tests = self._tests.get(names)
        if tests is None:
            checks._columns(table, values)
            if any(table.c[name].primary_key for name in values):
                raise _Refer
            tests = tuple(self._plain_test(table, name) for name in values)
            if len(self._tests) < REMEMBERED:
                self._tests[names] = tests
        if all(test(value) for test, value in zip(tests, values.values())):
            return
        try:
            remembered = (table.name, orjson.dumps(values))
        except TypeError:  # a number orjson does not write: judged each time
            remembered = None
        if remembered is not None and remembered in self._targets_ok:
            return
        checks._values(table, values)
        if remembered is not None and len(self._targets_ok) < REMEMBERED:
            self._targets_ok.add(remembered)

    def _plain_test(self, table: Table, name: str) -> Callable[[Any], bool]:
        found = self._plains.get((table.name, name))
        if found is None:
            found = self._plains[table.name, name] = _plain(self.checks._adapter(table, name).core_schema, self.checks.CONTROL)
        return found

    def _row_now(self, table: Table, key: dict[str, Any]) -> dict[str, Any] | None:
        """The row as this rewind has it so far (None: no row)."""
        pk = _pk(table)
        row = self.rows[table.name].get(key[pk.name])
        if row is not None and row.state == ABSENT:
            return None
        if row is not None and row.state == WHOLE:
            return dict(row.values or {})
        stored = self.connection.execute(select(table).where(pk == key[pk.name])).mappings().first()
        if stored is None:
            return None
        return {**row_to_json(table, stored), **(row.values if row is not None and row.values else {})}

    def _write(
        self, rows: dict[Any, _Row], value: Any, change: dict[str, Any], wanted: dict[str, Any] | None,
        current: dict[str, Any] | None,
    ) -> None:
        """`models.history._apply` of one change, on the rows in memory (`rows`: its table's; `value`: its key)."""
        row = rows.get(value)
        if wanted is None:  # the row is deleted: it must be there
            if row is None:
                rows[value] = _GONE
            elif row.state == ABSENT:
                raise _Refer
            else:
                rows[value] = _GONE if row.there else _Row(ABSENT, None, there=False)
        elif current is None:  # the row is inserted: it must not be there
            if row is not None and row.state != ABSENT:
                raise _Refer
            rows[value] = _Row(WHOLE, {**change["key"], **wanted}, there=row is not None and row.there)
        elif row is None:  # updated: it must be there
            rows[value] = _Row(PATCH, dict(wanted), there=True)
        elif row.state == ABSENT:
            raise _Refer
        else:
            assert row.values is not None
            row.values.update(wanted)

    # -- confirming and writing ---------------------------------------------------------------

    def confirm(self) -> None:
        """Every row taken to be in the campaign now is, and every other is not."""
        for name, rows in self.rows.items():
            table = self.tables[name]
            for chunk in _chunks(list(rows)):
                there = self._present(table, chunk)
                for value in chunk:
                    if rows[value].there != (value in there):
                        raise _Refer

    def _present(self, table: Table, values: list[Any]) -> set[Any]:
        return {found for (found,) in self._keyed(table, f'SELECT "{_pk(table).name}" FROM "{table.name}"', values)}

    def _keyed(self, table: Table, statement: str, values: list[Any]) -> Any:
        """`statement` (on `table`, up to its WHERE) for the rows whose key is one of `values`: one
        parameter, the keys as JSON (each a whole number or a text, as `_judge` saw to), rather than a
        statement with a parameter a key compiled for each batch."""
        return self.connection.exec_driver_sql(
            f'{statement} WHERE "{_pk(table).name}" IN (SELECT value FROM json_each(?))', (orjson.dumps(values),)
        )

    def write(self, first: int) -> None:
        """Each table's rows deleted, then added, then updated (as a whole table at a time before: the
        same order, so that no row added meets one not yet deleted), a batch at a time."""
        connection = self.connection
        made = self._child_indexes()
        for name, rows in self.rows.items():
            table = self.tables[name]
            pk = _pk(table)
            indexed = search.CONTENT.get(name)
            by_row = indexed is not None and len(rows) <= INDEX_ROW_BY_ROW  # else its search index is built again
            old_texts: dict[Any, Any] = {}
            if by_row and indexed:  # the search index forgets the text the row holds now
                for values in _chunks(list(rows)):
                    old_texts.update(self._keyed(table, f'SELECT "{pk.name}", "{indexed}" FROM "{table.name}"', values).all())
            # The dice tally takes away the rolls as the table holds them and adds them as written (models.tally).
            counted = name == "dice_roll" and tally.present_cached(connection)
            before = tally.keys(connection, list(rows)) if counted and len(rows) <= INDEX_ROW_BY_ROW else None
            for values in _chunks([v for v, row in rows.items() if row.there and row.state != PATCH]):
                self._keyed(table, f'DELETE FROM "{table.name}"', values)
            for values in _chunks([v for v, row in rows.items() if row.state == WHOLE]):
                inserts: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
                for value in values:
                    whole = rows[value].values or {}
                    inserts[tuple(sorted(whole))].append(row_from_json(table, whole))
                for inserted in inserts.values():
                    connection.execute(insert(table), inserted)
            for values in _chunks([v for v, row in rows.items() if row.state == PATCH]):
                updates: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
                for value in values:
                    patch = rows[value].values or {}
                    updates[tuple(sorted(patch))].append(
                        {f"v_{column}": v for column, v in row_from_json(table, patch).items()} | {"k_row": value}
                    )
                for columns, updated in updates.items():
                    statement = update(table).where(pk == bindparam("k_row")).values(
                        {column: bindparam(f"v_{column}") for column in columns}
                    )
                    connection.execute(statement, updated)
            if counted and before is None:
                tally.rebuild(connection)
            elif counted and before is not None:
                tally.replace(connection, before, list(rows))
            if by_row and indexed:
                for value, row in rows.items():
                    old = old_texts.get(value) if row.there else None
                    if row.state == ABSENT:
                        new = None
                    elif row.state == WHOLE:
                        new = (row.values or {}).get(indexed)
                    else:
                        new = (row.values or {}).get(indexed, old)
                    search.index_row(connection, name, value, old=old, new=new)
            elif indexed:
                search.rebuild_table(connection, name)
        for index in made:
            connection.exec_driver_sql(f'DROP INDEX "{index}"')
        event = self.event
        older = [{"_id": number, "_undone": mark} for number, mark in self.marks.items() if number < first]
        if older:
            connection.execute(
                update(event).where(event.c.id == bindparam("_id")).values(undone=bindparam("_undone")), older
            )


    def _child_indexes(self) -> list[str]:
        """Indexes, for this write alone, on the columns that refer to a table it deletes thousands of rows
        of, where the table holding them has none (turn.dice_roll): SQLite checks each row deleted against
        them, which without an index reads the whole of that table each time (333,333 dice rolls forgotten:
        7 s). Made and dropped within the rewind's transaction: the campaign's schema is as it was."""
        deleting = {
            name for name, rows in self.rows.items()
            if sum(row.there and row.state != PATCH for row in rows.values()) > INDEX_ROW_BY_ROW
        }
        made: list[str] = []
        for child in self.tables.values():
            for key in sorted(child.foreign_keys, key=lambda key: key.parent.name):
                column = key.parent.name
                if key.column.table.name not in deleting or any(
                    next(iter(index.columns)).name == column for index in child.indexes
                ) or next(iter(child.primary_key.columns)).name == column:
                    continue
                index = f"adjutant_rewind_{child.name}_{column}"
                if index not in made:
                    self.connection.exec_driver_sql(f'CREATE INDEX "{index}" ON "{child.name}" ("{column}")')
                    made.append(index)
        return made


def _chunks(values: list[Any]) -> Any:
    for start in range(0, len(values), IN_BATCH):
        yield values[start:start + IN_BATCH]


def _plain(schema: Any, control: Any) -> Callable[[Any], bool]:
    """A column's validator read from its pydantic schema, where that schema is a plain strict whole
    number with bounds, a strict Boolean, a plain strict text with a length, a choice of texts, or
    one of those or null: a test that says True only of a value the validator accepts (and, for a
    text, with no control character: history_checks' own rule). Else a test that says False, and
    the validator judges each value."""
    never: Callable[[Any], bool] = lambda _value: False  # noqa: E731 - a test, as the others
    if not isinstance(schema, dict):
        return never
    kind, keys = schema.get("type"), set(schema) - {"metadata"}
    if schema.get("metadata"):
        return never
    if kind == "nullable" and keys == {"type", "schema"}:
        inner = _plain(schema["schema"], control)
        return lambda value: value is None or inner(value)
    if kind == "bool" and keys == {"type", "strict"} and schema["strict"] is True:
        return lambda value: type(value) is bool
    if kind == "literal" and keys == {"type", "expected"} and all(type(v) is str and not control.search(v) for v in schema["expected"]):
        expected = frozenset(schema["expected"])
        return lambda value: type(value) is str and value in expected
    if kind == "int" and keys == {"type", "strict", "ge", "le"} and schema["strict"] is True:
        low, high = schema["ge"], schema["le"]
        if type(low) is not int or type(high) is not int:
            return never
        return lambda value: type(value) is int and low <= value <= high
    if kind == "str" and keys == {"type", "strict", "max_length"} and schema["strict"] is True:
        longest, search_control = schema["max_length"], control.search
        if type(longest) is not int:
            return never
        return lambda value: type(value) is str and len(value) <= longest and search_control(value) is None
    return never


def _pk(table: Table) -> Any:
    (column,) = table.primary_key.columns
    return column

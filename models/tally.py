"""The dice counted ahead: how many stored rolls there are of each dice, modifier and
result, in each block of `BLOCK` events, so that the luck of a million dice is read
from a few thousand rows (campaigns.luck).

`dice_tally` (migration 0010) holds, for every row of `dice_roll` as the table is
now, one count under its key (block, dice, modifier, result):

- block: the roll's event // BLOCK; NO_EVENT for a roll of no event, NEGATIVE for an
  event below 0 (a hand-made file), UNREADABLE for a roll whose modifiers do not
  add up as integers, or whose event or result is not a number (the reader then
  counts from `dice_roll` itself, and says what is wrong as it always did);
- modifier: the sum of the modifiers' values, as campaigns.luck reads them.

It counts the rows as they are, undone actions' rolls included: what is undone is
left out when the tally is read, as the rolls of undone actions are few and indexed.

No triggers (the schema gate refuses code in a file): the store keeps the tally in
step in the same transaction as each write of a roll, as it does the search index:
the ORM's writes (`listen`), undo and redo (models.history), the bulk rewind
(models.rewind), and a rebuild after rows were written in bulk (import, the
benchmark's generator). `in_step` says whether the tally still counts as many rows as
the table holds; a reader that finds it does not counts from the table.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, String, cast, func, select, text

TABLE = "dice_tally"
BLOCK = 1024  # events a block
NO_EVENT = -1
NEGATIVE = -2
UNREADABLE = -3
IN_BATCH = 500
PENDING = "dice_tally_before"  # connection.info: a roll's keys read before the ORM updates it

Key = tuple[int, str, int, int]  # block, dice, modifier, result


def block_of(event: int | None) -> int:
    if event is None:
        return NO_EVENT
    if type(event) is not int:  # text where a number belongs (a hand-made file): the tally cannot place it
        return UNREADABLE
    if event < 0:
        return NEGATIVE
    return event // BLOCK


def modifier_sum(stored: str | None) -> int | None:
    """The modifiers' sum as campaigns.luck reads it from the stored JSON text; None when
    they do not add up (not JSON, not a list of {"value": integer}...)."""
    if not stored:
        return 0
    try:
        return sum(int(m["value"]) for m in json.loads(stored))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError):
        return None


def key_of(event: int | None, dice: str, modifiers: str | None, result: int) -> Key:
    modifier = modifier_sum(modifiers)
    block = block_of(event)
    if modifier is None or block == UNREADABLE or type(result) is not int or not isinstance(dice, str):
        return (UNREADABLE, "", 0, 0)
    return (block, dice, modifier, result)


def _dice_roll() -> Any:
    """The dice_roll table's columns as a table clause (models.record_columns), not its class:
    the luck ledger asks whether the tally is in step on the Plots and Luck screens' first
    visits, which do without the ORM (its import is 150-250 ms)."""
    from models.record_columns import DICE_ROLL

    return DICE_ROLL


def present(connection: Connection) -> bool:
    """Whether the database has the tally (migration 0010)."""
    from sqlalchemy import inspect

    return bool(inspect(connection).has_table(TABLE))


def usable(connection: Connection) -> bool:
    """Whether this connection may read the tally: the database has it and, on PostgreSQL, the
    role may read it (a club side's role may not: it reads only some rolls)."""
    if not present_cached(connection):
        return False
    if connection.dialect.name != "postgresql":
        return True
    return bool(connection.execute(text(f"SELECT has_table_privilege('{TABLE}', 'SELECT')")).scalar())


def keys(connection: Connection, ids: Iterable[int]) -> Counter[Key]:
    """The keys of these rolls as the table holds them now (a roll not there counts nothing)."""
    table = _dice_roll()
    out: Counter[Key] = Counter()
    wanted = list(ids)
    query = select(table.c.event, table.c.dice, cast(table.c.modifiers, String), table.c.result)
    for start in range(0, len(wanted), IN_BATCH):
        chunk = wanted[start:start + IN_BATCH]
        for event, dice, modifiers, result in connection.execute(query.where(table.c.id.in_(chunk))):
            out[key_of(event, dice, modifiers, result)] += 1
    return out


def add(connection: Connection, counts: Counter[Key], sign: int = 1) -> None:
    """Add (sign -1: take away) these counts."""
    rows = [
        {"block": b, "dice": d, "modifier": m, "result": r, "count": sign * n}
        for (b, d, m, r), n in counts.items() if n
    ]
    if not rows:
        return
    connection.execute(
        text(
            f"INSERT INTO {TABLE} (block, dice, modifier, result, count) VALUES (:block, :dice, :modifier, :result, :count) "
            f"ON CONFLICT (block, dice, modifier, result) DO UPDATE SET count = {TABLE}.count + excluded.count"
        ),
        rows,
    )


def replace(connection: Connection, before: Counter[Key], ids: Iterable[int]) -> None:
    """After rolls were written: take away what they were (`before`, from `keys`), add what they are."""
    after = keys(connection, ids)
    delta = Counter(after)
    delta.subtract(before)
    add(connection, delta)


def rebuild(connection: Connection) -> None:
    """Count every roll anew (after rows were written in bulk). Nothing on a database without the tally."""
    if not present(connection):
        return
    connection.execute(text(f"DELETE FROM {TABLE}"))
    table = _dice_roll()
    stored = cast(table.c.modifiers, String)
    query = select(table.c.event, table.c.dice, stored, table.c.result, func.count()).group_by(
        table.c.event, table.c.dice, stored, table.c.result
    )
    counts: Counter[Key] = Counter()
    for event, dice, modifiers, result, count in connection.execute(query.execution_options(yield_per=5000)):
        counts[key_of(event, dice, modifiers, result)] += count
    add(connection, counts)


def in_step(connection: Connection) -> bool:
    """Whether the tally counts as many rolls as the table holds (a write that went around the
    store, or a file written before the tally, does not)."""
    tallied = connection.execute(text(f"SELECT coalesce(sum(count), 0) FROM {TABLE}")).scalar()
    held = connection.execute(select(func.count()).select_from(_dice_roll())).scalar()
    return bool(tallied == held)


def read(connection: Connection) -> list[tuple[int, str, int, int, int]]:
    """(block, dice, modifier, result, count) for every count not zero."""
    return [tuple(row) for row in connection.execute(
        text(f"SELECT block, dice, modifier, result, count FROM {TABLE} WHERE count <> 0")
    )]


SPECIAL = (NO_EVENT, NEGATIVE, UNREADABLE)  # the blocks that are no block of events
LOWEST, HIGHEST = -(2 ** 63), 2 ** 63 - 1  # the blocks a BIGINT holds


def sound(connection: Connection) -> str:
    """SQL true for a row `read` reads as it is written: no UNREADABLE block and, on SQLite,
    whose columns hold any type a hand writes in, each value of the column's own type."""
    checks = [f"block <> {UNREADABLE}"]
    if connection.dialect.name == "sqlite":
        checks += [f"typeof({column}) = '{kind}'" for column, kind in (
            ("block", "integer"), ("dice", "text"), ("modifier", "integer"), ("result", "integer"), ("count", "integer"))]
    return " AND ".join(checks)


def summed(connection: Connection, ranges: Sequence[tuple[int, int, int]], apart: Iterable[int]) -> list[tuple[int, str, int, int, int]] | None:
    """(group, dice, modifier, result, count summed) over the blocks of each of `ranges` (group,
    lowest block, highest block: in order, each next to the one before), the SPECIAL blocks and
    those `apart` left out, the counts not zero: one pass over the table, each block's group
    found in a few comparisons (a tree of CASEs). None if a count is not `sound`."""
    if not ranges:
        return []

    def group(within: Sequence[tuple[int, int, int]]) -> str:
        if len(within) == 1:
            return str(int(within[0][0]))
        middle = len(within) // 2
        return f"CASE WHEN block <= {int(within[middle - 1][2])} THEN {group(within[:middle])} ELSE {group(within[middle:])} END"

    left_out = ", ".join(str(int(b)) for b in (*SPECIAL, *apart))
    rows = [tuple(row) for row in connection.exec_driver_sql(
        f"SELECT {group(ranges)} AS grp, dice, modifier, result, CAST(sum(count) AS BIGINT), min(CASE WHEN {sound(connection)} THEN 1 ELSE 0 END) "
        f"FROM {TABLE} WHERE count <> 0 AND block NOT IN ({left_out}) GROUP BY grp, dice, modifier, result"
    )]
    if any(not row[5] for row in rows):
        return None
    return [row[:5] for row in rows]


def read_blocks(connection: Connection, blocks: Iterable[int]) -> list[tuple[int, str, int, int, int]]:
    """`read` of these blocks only."""
    wanted = ", ".join(str(int(b)) for b in blocks)
    if not wanted:
        return []
    return [tuple(row) for row in connection.exec_driver_sql(
        f"SELECT block, dice, modifier, result, count FROM {TABLE} WHERE count <> 0 AND block IN ({wanted})"
    )]


def listen(model: type) -> None:
    """Count what the ORM writes to dice_roll in the same flush: each row as the table holds it,
    taken away before it is changed or deleted and added once it is written."""
    from sqlalchemy import event, inspect

    watched = ("event", "dice", "modifiers", "result")

    def inserted(_mapper: object, connection: Connection, row: Any) -> None:
        if present_cached(connection):
            add(connection, keys(connection, [row.id]))

    def changing(_mapper: object, connection: Connection, row: Any) -> None:
        state = inspect(row)
        if any(state.attrs[name].history.added for name in watched) and present_cached(connection):
            connection.info.setdefault(PENDING, {})[row.id] = keys(connection, [row.id])

    def changed(_mapper: object, connection: Connection, row: Any) -> None:
        before = connection.info.get(PENDING, {}).pop(row.id, None)
        if before is not None:
            replace(connection, before, [row.id])

    def deleting(_mapper: object, connection: Connection, row: Any) -> None:
        if present_cached(connection):
            add(connection, keys(connection, [row.id]), -1)

    event.listen(model, "after_insert", inserted)
    event.listen(model, "before_update", changing)
    event.listen(model, "after_update", changed)
    event.listen(model, "before_delete", deleting)


def present_cached(connection: Connection) -> bool:
    """`present`, remembered once found on a connection (a write of a roll must not inspect the
    schema each time; an older schema is asked again, as a migration may have come since)."""
    if connection.info.get(TABLE):
        return True
    found = present(connection)
    if found:
        connection.info[TABLE] = True
    return found

"""Finding the events and rolls whose text holds a few letters, through an index.

The history filter must not read every event at every keystroke: a campaign
played for years holds a million of them. Migration 0003 builds the index and
keeps it up to date in the same transaction as each change:

- SQLite: FTS5 tables with the trigram tokenizer (`event_search` over
  `event.description`, `dice_roll_search` over `dice_roll.purpose`), external
  content, kept in step by triggers. A trigram index answers any substring of
  three letters or more, ignoring case, as `ILIKE '%word%'` would.
- PostgreSQL: GIN indexes with `pg_trgm` (`ix_event_description_trgm`...), which
  `ILIKE '%word%'` uses. Where the extension cannot be created (no contrib
  package, no right to create it), full-text GIN indexes instead
  (`ix_event_description_fts`...): they match words that *start* with each word
  typed, not any substring; `search_mode` says which one a database has.

One or two letters make no trigram. Rather than read the whole history for
them, they are looked for in the `SHORT_WINDOW` newest rows only; the screen
says so, and a third letter searches everything.
"""

from __future__ import annotations

import re
from functools import cache

from sqlalchemy import Connection, TextClause, bindparam, text

SHORT_WINDOW = 20_000  # rows looked through for a needle of one or two letters
TRIGRAM = 3
RARE_RUN = 5  # letters between two "_" of a needle that the index is asked for on their own

# What migration 0003 makes; tests and the schema comparison know them by these names.
SQLITE_TABLES = {"event_search": ("event", "description"), "dice_roll_search": ("dice_roll", "purpose")}
POSTGRES_INDEXES = {"event": "description", "dice_roll": "purpose"}
CONTENT = {"event": "description", "dice_roll": "purpose"}  # the indexed column of each table


def index_row(connection: Connection, table: str, rowid: int, *, old: str | None, new: str | None) -> None:
    """Keep `table`'s SQLite search index in step with one row whose text went from `old` to `new`
    (None: the row was not there, or is no longer). PostgreSQL keeps its indexes itself."""
    if connection.dialect.name != "sqlite" or table not in CONTENT or old == new and old is not None:
        return
    forget, add = _index_statements(table)
    if old is not None:
        connection.execute(forget, {"id": rowid, "text": old})
    if new is not None:
        connection.execute(add, {"id": rowid, "text": new})


@cache
def _index_statements(table: str) -> tuple[TextClause, TextClause]:
    """The statements that take a row's text out of `table`'s SQLite index and put it in, built
    once (every action indexes its event's description, every roll its purpose)."""
    search, column = f"{table}_search", CONTENT[table]
    return (
        text(f"INSERT INTO {search}({search}, rowid, {column}) VALUES ('delete', :id, :text)"),
        text(f"INSERT INTO {search}(rowid, {column}) VALUES (:id, :text)"),
    )


def rebuild_table(connection: Connection, table: str) -> None:
    """Build `table`'s SQLite search index anew from the table: after many of its rows were
    written in bulk, cheaper than keeping it row by row (a few seconds a million rows,
    against a statement a row). Nothing to do on PostgreSQL or an unmigrated file."""
    if connection.dialect.name == "sqlite" and table in CONTENT and search_mode(connection) == "fts5":
        connection.execute(text(f"INSERT INTO {table}_search({table}_search) VALUES ('rebuild')"))


def rebuild(connection: Connection) -> None:
    """Build the SQLite search index anew from its tables (after rows were written in bulk)."""
    if connection.dialect.name != "sqlite" or search_mode(connection) != "fts5":
        return
    for search in SQLITE_TABLES:
        connection.execute(text(f"INSERT INTO {search}({search}) VALUES ('rebuild')"))


def listen(model: type, table: str) -> None:
    """Index what the ORM writes to `table` (an event or a dice roll) in the same flush."""
    from sqlalchemy import event, inspect

    column = CONTENT[table]

    def inserted(_mapper: object, connection: Connection, row: object) -> None:
        index_row(connection, table, row.id, old=None, new=getattr(row, column))  # type: ignore[attr-defined]  # a row of an indexed table: it has an id

    def updated(_mapper: object, connection: Connection, row: object) -> None:
        change = inspect(row).attrs[column].history
        if change.deleted:
            index_row(connection, table, row.id, old=change.deleted[0], new=getattr(row, column))  # type: ignore[attr-defined]  # a row of an indexed table: it has an id

    def deleted(_mapper: object, connection: Connection, row: object) -> None:
        index_row(connection, table, row.id, old=getattr(row, column), new=None)  # type: ignore[attr-defined]  # a row of an indexed table: it has an id

    event.listen(model, "after_insert", inserted)
    event.listen(model, "after_update", updated)
    event.listen(model, "after_delete", deleted)


def is_search_object(name: str | None) -> bool:
    """Whether `name` is one of the search index's tables, shadow tables, triggers or indexes."""
    if not name:
        return False
    return name.startswith(tuple(SQLITE_TABLES)) or name.endswith(("_trgm", "_fts"))


def outside_models(name: str | None, _type: str, _parent: object) -> bool:
    """Alembic's `include_name`: False for what migrations 0003, 0010 and 0013 made outside the
    SQLModel tables (the search index, the dice tally of models.tally, the units of each event of
    models.event_units)."""
    return not is_search_object(name) and name not in ("dice_tally", "event_unit", "ix_event_unit_event")


def postgres_index(table: str, kind: str) -> str:
    return f"ix_{table}_{POSTGRES_INDEXES[table]}_{kind}"


def search_mode(connection: Connection) -> str:
    """"fts5", "trigram", "words" (PostgreSQL full text) or "scan" (no index: an unmigrated database)."""
    if connection.dialect.name == "sqlite":
        found = connection.execute(
            text("SELECT 1 FROM sqlite_master WHERE name = 'event_search'")
        ).first()
        return "fts5" if found else "scan"
    names = set(
        connection.execute(text("SELECT indexname FROM pg_indexes WHERE tablename = 'event'")).scalars()
    )
    if postgres_index("event", "trgm") in names:
        return "trigram"
    if postgres_index("event", "fts") in names:
        return "words"
    return "scan"


def is_short(needle: str) -> bool:
    return len(needle.strip()) < TRIGRAM


def needle_kind(mode: str, needle: str) -> str | None:
    """How `needle` is looked for in a database of search `mode` (search_mode). The rows
    that match a needle holding another needle of the same kind, as typed, are among
    those that match the other: "Dresde" only among the rows "Dresd" matched. None where
    that does not hold (PostgreSQL's full text matches words by their start: "b" finds
    "bridge", "ab" does not)."""
    needle = needle.strip()
    if mode == "scan":
        return "scan"
    if is_short(needle):
        return "window"  # the same newest rows, while no row is added
    if mode == "words":
        return None
    return "phrase" if mode == "fts5" and re.search(r"[\\%]", needle) else "substring"


def matching_ids(
    connection: Connection, table: str, needle: str, limit: int, *, before: int | None = None,
    among: list[int] | None = None, mode: str | None = None,
) -> list[int]:
    """The ids of the newest rows of `table` ("event" or "dice_roll") whose text
    holds `needle`, newest first, at most `limit`; only ids below `before` if given,
    and only among the ids `among` if given. `mode`: the database's search_mode, if known."""
    if among is not None and not among:
        return []
    column = POSTGRES_INDEXES[table]
    needle = needle.strip()
    mode = mode or search_mode(connection)
    key = "rowid" if mode == "fts5" and not is_short(needle) else "id"
    older = "" if before is None else f"AND {key} < {int(before)}"
    if among is not None:
        older += f" AND {key} IN :among"
    like = "ILIKE" if connection.dialect.name == "postgresql" else "LIKE"  # SQLite's LIKE ignores case
    values: dict[str, object] = {"limit": limit} if among is None else {"limit": limit, "among": among}
    if is_short(needle) or mode == "scan":
        window = "" if mode == "scan" else f"AND id > (SELECT coalesce(max(id), 0) FROM {table}) - {SHORT_WINDOW}"
        query = f"SELECT id FROM {table} WHERE {column} {like} :like ESCAPE '\\' {window} {older} ORDER BY id DESC LIMIT :limit"
        return _ids(connection, query, {**values, "like": _pattern(needle)})
    if mode == "fts5":
        # FTS5 answers LIKE from the trigram index, and faster than the same letters as
        # a phrase (MATCH): fewer position lists are read. A LIKE with ESCAPE would not
        # reach the index: a "_" (any one letter to LIKE) is checked again with instr(),
        # and a needle holding "%" or "\\" is matched as a phrase.
        values.update({"value": f"%{needle}%", "needle": needle.lower()})
        if re.search(r"[\\%]", needle):
            where, values["value"] = f"{table}_search MATCH :value", '"' + needle.replace('"', '""') + '"'
        elif "_" in needle:
            # A run of letters between the "_" long enough to be rare on its own (five
            # letters, three trigrams) is the only one the index is asked for: the others
            # are often in every row ("unit" of unit_004212), and reading their lists cost
            # more than the rest of the search (5-10 ms against 1-2 at 1M events). A
            # shorter run alone would find too many rows to check ("0042").
            longest = max(needle.split("_"), key=len)
            if len(longest) >= RARE_RUN:
                values["value"] = f"%{longest}%"
            where = f"{column} LIKE :value AND instr(lower({column}), :needle) > 0"
        else:
            where = f"{column} LIKE :value"
        query = f"SELECT rowid FROM {table}_search WHERE {where} {older} ORDER BY rowid DESC LIMIT :limit"
        return _ids(connection, query, values)
    if mode == "trigram":
        query = f"SELECT id FROM {table} WHERE {column} ILIKE :like ESCAPE '\\' {older} ORDER BY id DESC LIMIT :limit"
        return _ids(connection, query, {**values, "like": _pattern(needle)})
    words = re.findall(r"\w+", needle)
    if not words:
        return []
    query = (
        f"SELECT id FROM {table} WHERE to_tsvector('simple', {column}) @@ to_tsquery('simple', :words) "
        f"{older} ORDER BY id DESC LIMIT :limit"
    )
    return _ids(connection, query, {**values, "words": " & ".join(f"{w}:*" for w in words)})


def _ids(connection: Connection, query: str, values: dict[str, object]) -> list[int]:
    statement = text(query)
    if "among" in values:
        statement = statement.bindparams(bindparam("among", expanding=True))
    return list(connection.execute(statement, values).scalars())


def _pattern(needle: str) -> str:
    """`%needle%` for LIKE, with the umpire's own "%", "_" and "\\" taken literally."""
    return "%" + re.sub(r"([\\%_])", r"\\\1", needle) + "%"

"""Numbers from a hostile hand on a PostgreSQL campaign: the same one sentence as on a file, and no row changed.

PostgreSQL keeps turns, ids and counts in 32-bit INTEGER columns; SQLite in 64 bits.
A number between 2**31 and 2**63 that reached the database would be refused there
(NumericValueOutOfRange) instead of by Adjutant. Every case here runs on a played
campaign in a real PostgreSQL database and on the same campaign in a file, and:
no traceback, no hang, a refusal is one line on stderr and a non-zero exit, the two
answers are the same (the campaign's name aside), and a refusal leaves every row of
every table of the database as it was (a dump of them compared before and after).

The numbers: every numeric argument of the command table (found by itself, as in
tests/test_hostile_inputs.py) given the seeded numbers' corpus and the numbers on
both sides of the stores' limits; an export (`adjutant import`) and an orders file
(`orders import`) holding big ids, turn numbers and SP.
"""

from __future__ import annotations

import collections
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import hostile_inputs as corpus
from tests.test_hostile_files import played, run
from tests.test_hostile_inputs import SEED, _argv, judge, numeric_arguments, orders_campaign

INT32, INT64 = 2**31 - 1, 2**63 - 1
NOT_NUMBERS = 4  # texts of the corpus that are no whole number, run on both stores for each argument
# Each side of every limit a store or a kind of number has: 32 and 64 bits, the turns' 10,000.
EDGES = [
    str(n) for n in (INT32, INT32 + 1, 3_000_000_000, 2**40, INT64, -INT32, -INT32 - 1, -(2**40), -INT64, 10_000, 10_001, 9_999)
]


def _libpq(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _database(url: str, name: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(database=name).render_as_string(hide_password=False)


def copying(connection: Any) -> str:
    """How CREATE DATABASE copies its template: file by file from PostgreSQL 15 on (its default there
    writes every page of the template to the log, some 2.5 times the server's CPU), as before 15."""
    return " STRATEGY FILE_COPY" if connection.info.server_version >= 150000 else ""


class Rows:
    """Every row of every table of the database's public schema, as a count and a digest a table
    (what a refusal must leave alone): read by the server in one query, on a connection kept open."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.connection: Any = None

    def __call__(self) -> dict[str, tuple[int, str]]:
        import psycopg

        for attempt in (1, 2):  # once more on a new connection: the database may have been made again
            try:
                if self.connection is None:
                    self.connection = psycopg.connect(_libpq(self.url), autocommit=True)
                return self._read(self.connection)
            except psycopg.OperationalError:
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("not reached")

    @staticmethod
    def _read(connection: Any) -> dict[str, tuple[int, str]]:
        tables = [t for (t,) in connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]
        if not tables:
            return {}
        query = " UNION ALL ".join(
            f"SELECT '{t}', count(*), md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) FROM \"{t}\" r"
            for t in tables)
        return {table: (count, digest) for table, count, digest in connection.execute(query)}

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Twins:
    """The same played campaign in a file and in a PostgreSQL database; each kept as first made,
    for the next case, after a case that was taken and changed it."""

    def __init__(self, url: str, folder: Path) -> None:
        import psycopg

        self.url, self.folder = url, folder
        self.file = played(folder / "numbers.campaign")
        self.pristine_file = folder / "pristine.campaign"
        shutil.copyfile(self.file, self.pristine_file)
        played(url)  # type: ignore[arg-type]  # CampaignSession.new takes a URL as well as a path
        self.name = _libpq(url).rsplit("/", 1)[1]
        # One connection to the server's own database makes and drops the others (a new server
        # backend for each would cost more than most of the statements it runs).
        self.admin = psycopg.connect(_libpq(_database(url, "postgres")), autocommit=True)
        self.copying = copying(self.admin)
        self.admin.execute(f'CREATE DATABASE "{self.name}_pristine" TEMPLATE "{self.name}"{self.copying}')  # a copy to start again from
        self.fresh = _database(url, f"{self.name}_fresh")  # where `new` creates one
        self.fresh_empty = False  # not made yet
        self.rows = Rows(url)
        self.first = self.rows()

    def restore(self) -> None:
        shutil.copyfile(self.pristine_file, self.file)
        if self.rows() != self.first:
            self.admin.execute(f'DROP DATABASE "{self.name}" WITH (FORCE)')
            self.admin.execute(f'CREATE DATABASE "{self.name}" TEMPLATE "{self.name}_pristine"{self.copying}')

    def empty_fresh(self) -> None:
        """An empty database where `new` creates a campaign: made again only after a `new` took it
        (`fresh_empty` False). A `new` refused leaves it empty, or the next one is refused there and
        answers otherwise than on a file."""
        if not self.fresh_empty:
            self.admin.execute(f'DROP DATABASE IF EXISTS "{self.name}_fresh" WITH (FORCE)')
            self.admin.execute(f'CREATE DATABASE "{self.name}_fresh"{self.copying}')
            self.fresh_empty = True

    def close(self) -> None:
        self.rows.close()
        try:
            for suffix in ("_pristine", "_fresh"):
                self.admin.execute(f'DROP DATABASE IF EXISTS "{self.name}{suffix}" WITH (FORCE)')
        finally:
            self.admin.close()


def same(err: str, *names: str) -> str:
    """A refusal with the campaign's name (its file, its URL, the new one's) taken out."""
    for name in sorted(names, key=len, reverse=True):
        err = err.replace(name, "CAMPAIGN")
    return err


def answer(code: int, err: str, names: tuple[str, ...]) -> tuple[int, str]:
    """What must be the same on a file and in a database: the exit code and a refusal's sentence
    (what a command taken says may differ: a new campaign's dice commitment is its own)."""
    return code, same(err, *names) if code != 0 else ""


def check_numbers_on_postgres(url: str, folder: Path, count: int, seed: int) -> collections.Counter[str]:
    folder.mkdir(parents=True, exist_ok=True)
    twins = Twins(url, folder)
    out = folder / "out.file"
    seen: collections.Counter[str] = collections.Counter()
    try:
        for command, flag in [*numeric_arguments(), ("orders apply", "ID"), ("orders refuse", "ID")]:
            generated = corpus.numbers(count, seed)
            # A text that is no whole number is refused by the command line before any store
            # is opened (the file corpus, tests/test_hostile_inputs.py, runs every one of
            # them); a few here show it on PostgreSQL too. Every whole number goes to both.
            words = [v for v in generated if not corpus.is_whole(v)][:NOT_NUMBERS]
            # A seed `new` takes makes a whole campaign in each store (0.5 s): the edges of
            # the stores' integers are the seeds that tell them apart.
            # A whole number of the corpus that is one of the EDGES already (2**31, 2**63 - 1) is
            # not run twice: the same command line gives the same answer.
            wholes = [] if command == "new" else [v for v in generated if corpus.is_whole(v) and v not in EDGES]
            for value in [*EDGES, *wholes, *words]:
                what = f"{command} {flag} {value[:30]!r}"
                fresh = folder / "fresh.campaign"
                if command == "new":
                    twins.empty_fresh()
                on_file = _argv(command, flag, value, twins.file, out, str(fresh))
                code_file, err_file = judge(on_file, f"{what} (file)", twins.file)
                out.unlink(missing_ok=True)
                on_db = _argv(command, flag, value, url, out, twins.fresh)
                stand_in = folder / "campaign-on-postgresql"  # the campaign is the database: nothing in this folder may change
                # Every case starts from the rows as first made: a refusal leaves them so (judged), a
                # command taken is followed by restore().
                code_db, err_db = judge(on_db, f"{what} (PostgreSQL)", stand_in, twins.rows, twins.first)
                out.unlink(missing_ok=True)
                fresh.unlink(missing_ok=True)
                names = (str(twins.file), str(fresh), twins.url, twins.fresh, _libpq(twins.url), _libpq(twins.fresh))
                assert answer(code_db, err_db, names) == answer(code_file, err_file, names), (
                    f"{what}: PostgreSQL answers otherwise than a file: {err_db!r} / {err_file!r}")
                if not corpus.is_whole(value):
                    assert code_db != 0, f"{what}: taken as a number"
                seen["taken" if code_db == 0 else "refused"] += 1
                if command == "new":
                    twins.fresh_empty = code_db != 0
                if code_db == 0:
                    twins.restore()
    finally:
        twins.close()
    return seen


def test_hostile_numbers_get_the_same_sentence_on_postgresql_and_change_no_row(postgres_url: str, tmp_path: Path) -> None:
    seen = check_numbers_on_postgres(postgres_url, tmp_path, 2, SEED)
    assert seen["taken"] >= 10 and seen["refused"] >= 250, seen


def test_every_numeric_argument_reads_one_kind_of_number() -> None:
    """A number that may reach a store is read as its kind (rules.numbers), within the store's integer."""
    from rules.numbers import INTEGER, Span
    from tui.cli import COMMANDS

    from rules.commandline import OneOf

    kinds = {}

    def walk(commands: Any, prefix: str) -> None:
        for command in commands:
            for item in command.args:
                for one in item.args if isinstance(item, OneOf) else (item,):
                    kinds[f"{prefix}{command.name} {one.flags[-1]}"] = one.options.get("type")
            walk(command.sub, f"{prefix}{command.name} ")

    walk(COMMANDS, "")
    # --port and --level never reach a store: their commands refuse anything beyond 65535 and 4
    plain = {name for name, kind in kinds.items() if kind is int}
    assert plain == {"serve --port", "sight --level"}, plain
    spans = {name: kind for name, kind in kinds.items() if isinstance(kind, Span)}
    assert {n for n in spans if n.endswith("--turn")} == {f"{c} --turn" for c in ("report", "past", "map", "despatch", "knows")}
    for name, kind in spans.items():
        assert kind.high <= INTEGER or name.endswith("--seed"), name


# -- numbers in an imported export and an orders file -------------------------------------------


def _numbers_in(document: Any, where: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The place of every whole number in a JSON document (a Boolean is not one)."""
    items = document.items() if isinstance(document, dict) else enumerate(document) if isinstance(document, list) else ()
    for key, value in items:
        if isinstance(value, int) and not isinstance(value, bool):
            yield (*where, key)
        else:
            yield from _numbers_in(value, (*where, key))


def _set(document: Any, where: tuple[Any, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(document))
    target = copy
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    return copy


def big_numbers(document: Any, count: int, seed: int) -> Iterator[tuple[str, bytes]]:
    """`count` copies of `document`, each with one whole number in it (a row's, or one deep in a
    JSON column's) made one beyond a limit: 2**31, 2**40, 2**63 - 1, -(2**31) - 1, 10,001."""
    import random

    rng = random.Random(seed)
    places = list(_numbers_in(document))
    for _ in range(count):
        where = rng.choice(places)
        value = rng.choice([INT32 + 1, 2**40, INT64, -INT32 - 2, 10_001, 3_000_000_000])
        yield f"{'.'.join(map(str, where))} = {value}", json.dumps(_set(document, where, value)).encode()


# What reads an imported campaign: each answers a number deep in a JSON column alike on a file and in PostgreSQL.
READERS = [["check"], ["log"], ["battles"], ["luck"], ["report", "-o", "-"], ["past", "--turn", "1"], ["knows", "--side", "french"]]


def test_an_export_with_big_numbers_is_refused_on_postgresql_as_on_a_file(postgres_url: str, tmp_path: Path) -> None:
    """`adjutant import` of an export holding a number beyond a store's integer: the file and the
    database answer alike, and the database is left empty when refused."""
    import psycopg

    source = played(tmp_path / "played.campaign")
    code, exported, err = run("export", str(source))
    assert code == 0, err
    document = json.loads(exported)
    read = Rows(postgres_url)
    seen: collections.Counter[str] = collections.Counter()
    for number, (what, data) in enumerate(big_numbers(document, 24, SEED)):
        given = tmp_path / f"big-{number}.json"
        given.write_bytes(data)
        target = tmp_path / f"imported-{number}" / "copy.campaign"
        target.parent.mkdir()
        code_file, err_file = judge(["import", str(given), str(target)], f"{what} (file)", target)
        # Empty before each import (a campaign taken is dropped below): judge reads it after a
        # refusal and finds it as it was, empty, with no table made.
        code_db, err_db = judge(["import", str(given), "--db", postgres_url], f"{what} (PostgreSQL)", given, read, {})
        names = (str(target), postgres_url, _libpq(postgres_url))
        assert answer(code_db, err_db, names) == answer(code_file, err_file, names), (
            f"{what}: PostgreSQL answers otherwise than a file: {err_db!r} / {err_file!r}")
        seen["taken" if code_db == 0 else "refused"] += 1
        if code_db == 0:  # taken (the number is deep in a JSON column): every reading command answers alike on both
            imported = read()  # what a reader refusing leaves as it was
            for argv in READERS:
                on_file = judge([argv[0], str(target), *argv[1:]], f"{what}: {argv[0]} (file)", target)
                on_db = judge([argv[0], "--db", postgres_url, *argv[1:]], f"{what}: {argv[0]} (PostgreSQL)", given, read, imported)
                assert answer(*on_db, names) == answer(*on_file, names), (
                    f"{what}: {argv[0]} on PostgreSQL answers otherwise than a file: {on_db[1]!r} / {on_file[1]!r}")
            with psycopg.connect(_libpq(postgres_url), autocommit=True) as connection:
                connection.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        shutil.rmtree(target.parent)
    read.close()
    assert seen["refused"] >= 12 and seen["taken"] >= 3, seen


def test_an_orders_file_with_big_numbers_is_refused_on_postgresql_and_changes_no_row(postgres_url: str, tmp_path: Path) -> None:
    """`orders import` into an umpire's campaign in PostgreSQL of orders holding big turn numbers
    and MP costs: the sentence a file gets, and no row changed."""
    umpire, valid = orders_campaign(tmp_path)
    code, exported, err = run("export", str(umpire))
    assert code == 0, err
    (tmp_path / "umpire.json").write_bytes(exported)
    code, _out, err = run("import", str(tmp_path / "umpire.json"), "--db", postgres_url)
    assert code == 0, err
    valid["orders"][0]["cost"] = 3  # a priced move's field, so that the cost is among the numbers
    pristine = tmp_path / "pristine.campaign"
    shutil.copyfile(umpire, pristine)
    read = Rows(postgres_url)
    imported = read()  # every case is refused (below) and leaves it so
    seen: collections.Counter[str] = collections.Counter()
    for number, (what, data) in enumerate(big_numbers(valid, 12, SEED)):
        given = tmp_path / f"orders-{number}.json"
        given.write_bytes(data)
        code_file, err_file = judge(["orders", "import", str(umpire), str(given)], f"{what} (file)", umpire)
        code_db, err_db = judge(["orders", "import", postgres_url, str(given)], f"{what} (PostgreSQL)", given, read, imported)
        names = (str(umpire), postgres_url, _libpq(postgres_url))
        assert answer(code_db, err_db, names) == answer(code_file, err_file, names), (
            f"{what}: PostgreSQL answers otherwise than a file: {err_db!r} / {err_file!r}")
        assert code_db != 0, f"{what}: taken"
        seen["refused"] += 1
    read.close()
    assert seen["refused"] == 12


@pytest.mark.parametrize("text", ["3000000000", "9223372036854775807", "-2147483649", "0", "10001", "٣", " 7", "9" * 5000])
def test_a_kind_of_number_refuses_beyond_its_range_in_one_sentence(text: str) -> None:
    from rules.errors import RulesError
    from rules.numbers import TURN

    with pytest.raises(RulesError) as refused:
        TURN.read(text)
    said = str(refused.value)
    assert "a turn number" in said and "\n" not in said and len(said) < 120, said
    assert TURN.read("12") == 12 and TURN.read("+3") == 3 and TURN.read("10000") == 10_000


def test_an_imported_history_holding_a_big_number_is_not_undone_on_either_store(postgres_url: str, tmp_path: Path) -> None:
    """An export is checked row by row, but an event's changes are JSON: a change that would write
    2**40 into an INTEGER column on undo is refused with the same sentence on a file and in
    PostgreSQL (SQLite would have stored it, PostgreSQL refused it), and nothing is changed."""
    from campaigns.session import CampaignSession
    from models.errors import StoreError

    code, exported, err = run("export", str(played(tmp_path / "played.campaign")))
    assert code == 0, err
    document = json.loads(exported)
    last = max((e for e in document["tables"]["event"] if e["kind"] == "action" and not e["undone"]), key=lambda e: e["id"])
    change = next(c for c in last["changes"] if c["before"] and any(type(v) is int for v in c["before"].values()))
    column = next(k for k, v in change["before"].items() if type(v) is int)
    change["before"][column] = 2**40
    given = tmp_path / "big-history.json"
    given.write_text(json.dumps(document))
    said = []
    for target, read in ((str(tmp_path / "copy.campaign"), None), (postgres_url, Rows(postgres_url))):
        code, _out, err = run("import", str(given), *(["--db", target] if read else [target]))
        assert code == 0, err  # the row checks pass: the number is inside an event's JSON
        before = read() if read else (tmp_path / "copy.campaign").read_bytes()
        session = CampaignSession.open(target)
        try:
            with pytest.raises(StoreError) as refused:
                session.store.undo()
        finally:
            session.close()
        said.append(str(refused.value))
        assert (read() if read else (tmp_path / "copy.campaign").read_bytes()) == before, "refused, yet changed"
        if read:
            read.close()
    assert said[0] == said[1], said
    assert said[0].startswith(f"cannot undo event #{last['id']} ") and said[0].endswith("; nothing was changed"), said
    assert f"would write {change['table']}.{column} = {2**40} (input should be less than or equal to" in said[0], said

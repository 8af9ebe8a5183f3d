"""The health check of a campaign: the gate, integrity and every value, without changing a byte.

`check` runs the very gate that opening runs (models.gate), then SQLite's own
integrity and foreign-key checks, then reads every row through the export
format's models (models.export_format), the same reading `export` does. So a
file `check` calls sound opens and exports, and one it refuses, opening or
`export` refuses for the same reason. A file is read through a read-only
connection; one with an unfinished change in its `-journal` (a process killed
mid-write, which opening rolls back) is checked on a copy rolled back in a
temporary folder, so the file itself still does not change.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Connection, Engine, exc, inspect, text
from sqlalchemy.engine import URL

from models import schema
from models.copies import sweep_leftovers
from models.engine import make_engine, read_only_engine
from models.errors import CampaignFileError, StoreError, first_line, refused_to_role
from models.gate import Dangling, Rows, finish_rollback, shown_value, verify
from models.gate import first_dangling as gate_first_dangling
from models.sqlite_header import hot_journal, read_header
from models.targets import Target, describe, sqlite_path, to_url


@dataclass
class CheckReport:
    """What `check_campaign` found: `problems` (sentences) is empty when the campaign is sound."""

    name: str
    revision: str | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return not self.problems


def check_campaign(target: Target) -> CheckReport:
    """Check a campaign's schema, integrity and values without changing it.

    Raises CampaignFileError when the target is not a campaign at all (missing,
    empty, not SQLite, another program's database, truncated).
    """
    url = to_url(target)
    path = sqlite_path(url)
    if path is None:
        return _check_database(url)
    sweep_leftovers(path)  # temporary files of an import or a save that was killed
    read_header(path)
    if not hot_journal(path):
        return _check_file(path, path)
    with tempfile.TemporaryDirectory(prefix="adjutant-check-") as folder:
        copy = Path(folder) / path.name
        shutil.copyfile(path, copy)
        shutil.copyfile(f"{path}-journal", f"{copy}-journal")
        try:
            finish_rollback(copy)
        except CampaignFileError as error:
            return CheckReport(str(path), problems=[str(error).replace(str(copy), str(path))])
        return _check_file(copy, path)


def _check_file(path: Path, shown: Path) -> CheckReport:
    report = CheckReport(str(shown))
    try:
        report.revision = verify(path, read_header(path)).revision
    except CampaignFileError as error:
        report.problems.append(str(error).replace(str(path), str(shown)))
        return report
    engine = read_only_engine(path)
    try:
        _check_values(engine, str(shown), report)
    except exc.DBAPIError as error:
        report.problems.append(refused_to_role(str(shown), error) or f"{shown} is damaged: {first_line(error)}")
    except UnicodeDecodeError:
        report.problems.append(f"{shown} is damaged: it holds text that is not UTF-8")
    finally:
        engine.dispose()
    _note_older(report)
    return report


def _check_database(url: URL) -> CheckReport:
    report = CheckReport(describe(url))
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            report.revision = schema.current_revision(connection)
        if report.revision is None:
            report.problems.append(f"{report.name} carries no schema version")
        elif not schema.is_known(report.revision):
            report.problems.append(
                f"{report.name} was written by a newer version of Adjutant (schema {report.revision})"
            )
        else:
            _check_values(engine, report.name, report)
    except exc.DBAPIError as error:
        report.problems.append(f"{report.name} cannot be read: {first_line(error)}")
    finally:
        engine.dispose()
    _note_older(report)
    return report


def _check_values(engine: Engine, name: str, report: CheckReport) -> None:
    """Read every row as `export` does: a value export would refuse is a problem here."""
    from models.exchange import (
        batches,
        integrity_problem,
        no_collection,
        reflected,
        tables,
    )

    with engine.connect() as connection:
        damage = (
            integrity_problem(connection, name) or dangling_reference(connection, name)
            or across_sides(connection, name)
        )
        if damage:  # the same sentence `export` refuses with
            report.problems.append(damage)
            return
        # Only the tables export writes: reflecting the search index's virtual tables would
        # run their constructor, which a damaged index fails, though export never reads them.
        present = set(inspect(connection).get_table_names())
        metadata = reflected(connection, [t.name for t in tables() if t.name in present])
        campaigns = connection.execute(text("SELECT count(*) FROM campaign")).scalar()
        if campaigns != 1:
            report.problems.append(f"{name} is damaged: it holds {campaigns} campaign rows instead of one")
            return
        try:
            with no_collection():
                for exported in tables():  # the tables export writes, as this file's schema has them
                    if exported.name in metadata.tables:
                        for _batch in batches(connection, metadata.tables[exported.name], name):
                            pass
        except CampaignFileError as error:
            report.problems.append(str(error))


class DanglingRow(StoreError):
    """A new campaign's rows would name a row it does not hold (`create_store` refuses to write it)."""

    def __init__(self, found: Dangling) -> None:
        super().__init__(f"the new campaign would be damaged: {found.sentence()}")
        self.found = found


def connection_rows(connection: Connection) -> Rows:
    """`rows` for models.gate.first_dangling on a SQLAlchemy connection."""
    return lambda sql, parameters: list(connection.exec_driver_sql(sql, parameters).all())


def first_dangling(connection: Connection) -> Dangling | None:
    """The first row of the database that names a row that does not exist (every table's)."""
    if connection.dialect.name != "sqlite":
        return None
    return gate_first_dangling(connection_rows(connection))


def dangling_reference(connection: Connection, name: str) -> str | None:
    """`first_dangling` as the sentence `check` says."""
    found = first_dangling(connection)
    return None if found is None else f"{name} is damaged: {found.sentence()}"


# Rows of one side that name a row of another: a side file (a despatch) holds only its side's
# rows, so it could not be written. (table, column, the row's side, the named row's side.)
_ACROSS_SIDES = [
    ("unit", "general", "SELECT c.id, c.general, n.side, pn.side FROM unit c JOIN nation n ON n.id = c.nation "
     "JOIN general p ON p.id = c.general JOIN nation pn ON pn.id = p.nation WHERE n.side <> pn.side LIMIT 1"),
    ("general", "army", "SELECT c.id, c.army, n.side, p.side FROM general c JOIN nation n ON n.id = c.nation "
     "JOIN army p ON p.id = c.army WHERE n.side <> p.side LIMIT 1"),
    ("army", "commander", "SELECT c.id, c.commander, c.side, pn.side FROM army c JOIN general p ON p.id = c.commander "
     "JOIN nation pn ON pn.id = p.nation WHERE c.side <> pn.side LIMIT 1"),
    ("general", "superior", "SELECT c.id, c.superior, n.side, pn.side FROM general c JOIN nation n ON n.id = c.nation "
     "JOIN general p ON p.id = c.superior JOIN nation pn ON pn.id = p.nation WHERE n.side <> pn.side LIMIT 1"),
]


def across_sides(connection: Connection, name: str) -> str | None:
    """A sentence naming the first row of one side that names a row of the other (a unit of the
    allies under a French general), if any: Adjutant never writes one, and no despatch holds both."""
    for table, column, query in _ACROSS_SIDES:
        found = connection.execute(text(query)).first()
        if found is not None:
            row, named, side, other = (shown_value(value) for value in found)
            parent = "army" if column == "army" else "general"  # the commander and superior are generals
            return (
                f"{name} is damaged: the {table} row {row} of side {side} names {parent} {named} of side "
                f"{other} in its column {column}"
            )
    return None


def _note_older(report: CheckReport) -> None:
    head = schema.head()
    if report.sound and report.revision is not None and report.revision != head:
        report.notes.append(
            f"schema {schema.schema_number(report.revision)} is older than this version's "
            f"{schema.schema_number(head)}: it is backed up and upgraded when opened"
        )



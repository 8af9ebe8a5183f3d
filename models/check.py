"""The health check of a campaign: integrity and schema version, without changing a byte."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Connection, exc, text

from models import schema
from models.engine import make_engine
from models.sqlite_header import read_header
from models.targets import Target, describe, sqlite_path, to_url


@dataclass
class CheckReport:
    """What `check_campaign` found: `problems` is empty when the campaign is sound."""

    name: str
    revision: str | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return not self.problems


def check_campaign(target: Target) -> CheckReport:
    """Check a campaign's integrity and schema version without changing it.

    Raises CampaignFileError when the target is not a campaign at all (missing,
    empty, not SQLite, another program's database, truncated).
    """
    url = to_url(target)
    report = CheckReport(describe(url))
    path = sqlite_path(url)
    if path is not None:
        read_header(path)
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            if path is not None:
                _check_sqlite(connection, report)
            report.revision = schema.current_revision(connection)
            _check_revision(report)
            if report.revision is not None and schema.is_known(report.revision):
                rows = connection.execute(text("SELECT count(*) FROM campaign")).scalar()
                if rows != 1:
                    report.problems.append(f"it holds {rows} campaign rows instead of one")
    except exc.DBAPIError as error:
        report.problems.append(f"the database cannot be read: {str(error.orig).strip().splitlines()[0]}")
    finally:
        engine.dispose()
    return report


def _check_sqlite(connection: Connection, report: CheckReport) -> None:
    results = [row[0] for row in connection.execute(text("PRAGMA integrity_check(20)"))]
    if results != ["ok"]:
        report.problems.extend(f"integrity check: {line}" for line in results)
    orphans = connection.execute(text("PRAGMA foreign_key_check")).all()
    if orphans:
        tables = sorted({row[0] for row in orphans})
        report.problems.append(f"{len(orphans)} rows of {', '.join(tables)} point at rows that do not exist")


def _check_revision(report: CheckReport) -> None:
    head = schema.head()
    if report.revision is None:
        report.problems.append("it carries no schema version")
    elif not schema.is_known(report.revision):
        report.problems.append(f"it was written by a newer version of Adjutant (schema {report.revision})")
    elif report.revision != head:
        report.notes.append(
            f"schema {schema.schema_number(report.revision)} is older than this version's "
            f"{schema.schema_number(head)}: it is backed up and upgraded when opened"
        )

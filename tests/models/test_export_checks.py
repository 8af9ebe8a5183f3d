"""The export's integrity check runs beside its rows (models.export_checks) and still refuses
as `check` does: the same sentence, nothing printed, nothing changed, no thread left behind."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from models import exchange, open_campaign
from models.export_checks import BackgroundChecks
from tests.test_hostile_files import digest, played, run


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played(tmp_path_factory.mktemp("checks") / "real.campaign")


def swapped_indexes(real: Path, path: Path) -> Path:
    """Two indexes of `unit` pointing at each other's pages: every row reads, the integrity
    check fails (the rows are missing from both indexes)."""
    path.write_bytes(real.read_bytes())
    db = sqlite3.connect(path, isolation_level=None)
    pages = dict(db.execute("SELECT name, rootpage FROM sqlite_master WHERE name IN ('ix_unit_nation', 'ix_unit_general')"))
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET rootpage = ? WHERE name = 'ix_unit_nation'", (pages["ix_unit_general"],))
    db.execute("UPDATE sqlite_master SET rootpage = ? WHERE name = 'ix_unit_general'", (pages["ix_unit_nation"],))
    db.close()
    return path


def test_a_file_whose_rows_read_but_whose_check_fails_is_refused_with_checks_sentence(
    real: Path, tmp_path: Path
) -> None:
    damaged = swapped_indexes(real, tmp_path / "damaged.campaign")
    before = digest(damaged)
    code, out, err = run("export", str(damaged))
    check_code, _out, check_err = run("check", str(damaged))
    assert code == 2 and out == b""
    assert "SQLite's integrity check says row 1 missing from index" in err
    assert check_code == 1 and check_err == err  # word for word what `check` says
    assert digest(damaged) == before
    assert not [t for t in threading.enumerate() if t.name == "export-integrity-check"]


def test_a_sound_file_exports_as_before_and_leaves_no_thread(real: Path) -> None:
    code, out, err = run("export", str(real))
    assert code == 0 and err == "" and out.startswith(b'{\n  "format": "adjutant-campaign"')
    assert not [t for t in threading.enumerate() if t.name == "export-integrity-check"]


def test_an_export_stopped_part_way_stops_its_check(real: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = threading.Event()

    def slow_check(connection, name):  # noqa: ANN001, ANN202 - the checks' own signature
        started.set()
        connection.exec_driver_sql(  # some seconds of SQLite, which an interrupt ends at once
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000000) SELECT count(*) FROM n"
        ).fetchall()
        return None

    def interrupted(*_args: object) -> None:
        started.wait(10)
        raise KeyboardInterrupt

    monkeypatch.setattr(exchange, "_damage", slow_check)
    monkeypatch.setattr(exchange, "_write_tables", interrupted)
    with open_campaign(real) as store, pytest.raises(KeyboardInterrupt):
        exchange.write(store, lambda _data: None)
    assert not [t for t in threading.enumerate() if t.name == "export-integrity-check"]


def test_a_check_that_cannot_run_beside_the_rows_runs_after_them(real: Path) -> None:
    """A writer waiting for the lock refuses new readers: the check then runs on the export's
    own connection, which still reads the same rows."""
    calls: list[str] = []

    def damage(connection, name):  # noqa: ANN001, ANN202 - the checks' own signature
        calls.append(threading.current_thread().name)
        if threading.current_thread().name == "export-integrity-check":
            raise sqlite3.OperationalError("database is locked")
        return exchange.integrity_problem(connection, name)

    with open_campaign(real) as store, store.connect() as connection:
        checks = BackgroundChecks(connection, store.name, damage)
        assert checks.result() is None
    assert calls == ["export-integrity-check", threading.current_thread().name]

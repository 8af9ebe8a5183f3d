"""SQLite's integrity and foreign-key checks of an export, run beside its rows.

`export` refuses a file whose integrity check fails, as `check` does, and with
the same sentence (models.exchange.integrity_problem, first_orphan). On a
million events the check reads the whole file once more, some seconds, which
the export used to wait for before writing its first row. Here it runs in a
thread on a connection of its own while the rows stream into the output:
sqlite3 lets go of the GIL for the whole of `PRAGMA integrity_check`, one step
in SQLite's C, so on two cores the check costs the export next to nothing.

Nothing is given away for it:
- the output is all or nothing (campaigns.output): an export the check then
  refuses leaves nothing behind, as a refused row always did;
- when the rows themselves fail (a damaged index can make a read fail), the
  check's verdict is awaited and, if it fails, its sentence is the one given:
  the same sentence `check` gives, which runs the checks first;
- both connections read the same state: the export's connection holds its read
  transaction (SQLite's shared lock) before the check's connection starts, and no
  writer can commit while a reader holds one;
- a check that cannot start (a writer waiting for the lock refuses new readers)
  is run after the rows on the export's own connection, as before.

Why the whole integrity check, not `PRAGMA quick_check` (a third of its CPU at a million
events: 0.7 against 1.8 CPU-s), which does not compare an index with its table: the export
reads army, general, nation, side and unit in key order through their primary keys' indexes
(sqlite_autoindex_*, EXPLAIN QUERY PLAN of its queries), and the foreign-key check finds their
rows through them, so a damaged index could drop a row unnoticed; and `check` and `export`
must refuse the same files (tests/test_hostile_files.py, tests/models/test_export_checks.py,
whose damaged indexes of `unit` only the whole check sees).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, exc

Damage = Callable[[Connection, str], str | None]


class BackgroundChecks:
    """`damage(connection, name)` run in a thread on a second connection of `connection`'s engine."""

    def __init__(self, connection: Connection, name: str, damage: Damage) -> None:
        self.connection = connection
        self.name = name
        self.damage = damage
        self.verdict: str | None = None
        self.failed: BaseException | None = None
        self.driver: Any = None  # the check's sqlite3 connection, to interrupt it
        self.lock = threading.Lock()
        self.cancelled = False
        # Take the export's read lock first: the check then sees exactly the rows the export reads.
        connection.exec_driver_sql("SELECT count(*) FROM sqlite_master").fetchall()
        self.thread = threading.Thread(target=self._run, name="export-integrity-check", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            with self.connection.engine.connect() as own:
                with self.lock:
                    if self.cancelled:
                        return
                    self.driver = own.connection.driver_connection
                self.verdict = self.damage(own, self.name)
        except (sqlite3.Error, exc.DBAPIError) as error:
            self.failed = error
        except BaseException as error:  # noqa: BLE001 - handed to the export's thread, which raises it
            self.failed = error

    def result(self) -> str | None:
        """The checks' sentence, or None when the file passes them."""
        self.thread.join()
        if self.failed is not None:
            if self.cancelled or not isinstance(self.failed, (sqlite3.Error, exc.DBAPIError)):
                raise self.failed
            # The check could not run beside the rows (the file busy, say): run it here, as before.
            return self.damage(self.connection, self.name)
        return self.verdict

    def cancel(self) -> None:
        """Stop the check (the export failed or was interrupted) and wait for its thread."""
        with self.lock:
            self.cancelled = True
        # An interrupt reaches only a statement already running (SQLite drops one sent a moment
        # before the check's statement starts), so it is sent again until the thread has ended.
        while self.thread.is_alive():
            with self.lock:
                if self.driver is not None:
                    self.driver.interrupt()
            self.thread.join(0.05)

"""The export's text is written by a thread of its own (models.export_out): the same bytes,
the output's own error when it fails, and nothing written once the export has stopped."""

from __future__ import annotations

import errno
import io
import sqlite3
import threading
from pathlib import Path

import pytest

from models import exchange, export_out, open_campaign
from models.errors import CampaignFileError
from tests.test_hostile_files import played


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played(tmp_path_factory.mktemp("out") / "real.campaign")


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export_out, "CHUNK_BYTES", 4096)  # a played campaign's export in many chunks


def no_writer_left() -> bool:
    return not [t for t in threading.enumerate() if t.name == "export-writer"]


def unthreaded(real: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """The export written by the export's own thread, write by write, as before."""
    import contextlib

    buffer = io.BytesIO()
    with monkeypatch.context() as patch:
        patch.setattr(export_out, "written_beside", contextlib.nullcontext)
        with open_campaign(real) as store:
            exchange.write(store, buffer.write)
    return buffer.getvalue()


def test_the_text_written_beside_is_the_text_written_in_turn(real: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chunks: list[bytes] = []
    writers: set[str] = set()

    def out(data: bytes | memoryview) -> None:
        writers.add(threading.current_thread().name)
        chunks.append(bytes(data))

    with open_campaign(real) as store:
        exchange.write(store, out)
    assert b"".join(chunks) == unthreaded(real, monkeypatch)
    assert len(chunks) > 3 and writers == {"export-writer"}
    assert no_writer_left()


def test_an_output_that_fails_fails_the_export_with_its_own_error(real: Path) -> None:
    written = 0

    def full(data: bytes | memoryview) -> None:
        nonlocal written
        if written > 10_000:
            raise OSError(errno.ENOSPC, "No space left on device")
        written += len(data)

    with open_campaign(real) as store, pytest.raises(OSError, match="No space left"):
        exchange.write(store, full)
    assert no_writer_left()


def test_the_output_failing_first_is_the_error_given_and_nothing_is_written_after(
    real: Path, tmp_path: Path
) -> None:
    """The output refuses early text; a row late in the file is bad too: the output's error, as
    when each write came before the next row was read; and no write once `write` has returned."""
    damaged = tmp_path / "damaged.campaign"
    damaged.write_bytes(real.read_bytes())
    db = sqlite3.connect(damaged, isolation_level=None)
    db.execute("UPDATE unit SET strength_points = -1 WHERE rowid = (SELECT max(rowid) FROM unit)")
    db.close()
    with open_campaign(damaged) as store, pytest.raises(CampaignFileError):
        exchange.write(store, lambda _data: None)  # the row alone: refused

    calls: list[int] = []
    refused = threading.Event()

    def failing(data: bytes | memoryview) -> None:
        calls.append(len(data))
        refused.set()
        raise OSError(errno.ENOSPC, "No space left on device")

    with open_campaign(damaged) as store, pytest.raises(OSError, match="No space left"):
        exchange.write(store, failing)
    assert refused.is_set() and len(calls) == 1
    assert no_writer_left()


def test_a_bad_row_stops_the_writer_before_the_error_goes_on(real: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.campaign"
    damaged.write_bytes(real.read_bytes())
    db = sqlite3.connect(damaged, isolation_level=None)
    db.execute("UPDATE unit SET strength_points = -1 WHERE rowid = (SELECT max(rowid) FROM unit)")
    db.close()
    calls: list[int] = []
    with open_campaign(damaged) as store, pytest.raises(CampaignFileError, match="strength_points"):
        exchange.write(store, lambda data: calls.append(len(data)))
    assert no_writer_left()
    made = len(calls)
    threading.Event().wait(0.1)
    assert len(calls) == made  # nothing written after the export stopped

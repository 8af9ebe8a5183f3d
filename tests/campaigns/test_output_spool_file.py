"""The export's spool for a pipe or a terminal is a file from the start (campaigns.output
`all_or_nothing(..., spool_file=True)`): the export's helper process writes its pieces straight
into it (models.export_split), as into a regular file. Without a temporary folder to write in, it
is memory first, as any other spool."""

from __future__ import annotations

import io
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from campaigns.output import Write, all_or_nothing
from models.export_split import output_descriptor


def printed(produce: Callable[[Write], None], **options: bool) -> bytes:
    """What `all_or_nothing(produce)` prints to a standard output with no descriptor, as a pipe
    is to it (spooled); set here, in the test's own call (pytest sets its own around each phase)."""
    buffer = io.BytesIO()
    kept = sys.stdout
    sys.stdout = io.TextIOWrapper(buffer, encoding="utf-8")
    try:
        all_or_nothing(produce, **options)
        sys.stdout.flush()
        return buffer.getvalue()
    finally:
        sys.stdout = kept


def test_the_exports_spool_is_a_file_the_helper_can_write_into() -> None:
    seen = []

    def produce(write: Write) -> None:
        seen.append(output_descriptor(write))
        write(b"all of it\n")

    assert printed(produce, spool_file=True) == b"all of it\n" and seen[0] is not None
    assert printed(produce) == b"all of it\n" and seen[1] is None  # any other command's: memory first


def test_without_a_temporary_folder_the_spool_is_memory_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "not there"))
    seen = []

    def produce(write: Write) -> None:
        seen.append(output_descriptor(write))
        write(b"all of it\n")

    assert printed(produce, spool_file=True) == b"all of it\n" and seen == [None]


def test_a_refusal_prints_nothing_from_a_spool_file() -> None:
    def produce(write: Write) -> None:
        write(b"half of it\n")
        raise RuntimeError("refused")

    buffer = io.BytesIO()
    kept = sys.stdout
    sys.stdout = io.TextIOWrapper(buffer, encoding="utf-8")
    try:
        with pytest.raises(RuntimeError):
            all_or_nothing(produce, spool_file=True)
        sys.stdout.flush()
        assert buffer.getvalue() == b""
    finally:
        sys.stdout = kept

"""`export` and `log` print all or nothing, also straight into a file (campaigns.output)."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_hostile_files import deadline, played, run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played(tmp_path_factory.mktemp("output") / "real.campaign")


def adjutant_into(out: Path, *args: str, append: bool = False) -> subprocess.CompletedProcess[bytes]:
    """`adjutant ARGS > out` (or `>> out`) in a process of its own: standard output is the regular file itself."""
    with out.open("ab" if append else "wb") as stdout:
        return subprocess.run(
            [sys.executable, "-m", "tui.cli", *args], stdout=stdout, stderr=subprocess.PIPE, cwd=ROOT, check=False,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(out.parent)},
        )


def in_process_into(out: Path, *args: str, append: bool = False) -> tuple[int, str]:
    """`adjutant ARGS > out` (or `>> out`) in this process: standard output is the regular file
    itself, opened as the shell opens it (O_APPEND for `>>`), as `python -m tui.cli` wraps it;
    (exit code, stderr). A fresh `python` with our imports costs a second of CPU; the code
    that writes into the file (campaigns.output) reads only sys.stdout, so one process of its
    own (test_an_export_written_into_a_file_is_the_export_printed) shows the real thing."""
    from tui.cli import main

    err = io.StringIO()
    streams = sys.stdout, sys.stderr
    with out.open("ab" if append else "wb") as binary:
        sys.stdout, sys.stderr = io.TextIOWrapper(binary, encoding="utf-8"), err
        try:
            with deadline(20):
                code = main(list(args))
            sys.stdout.flush()  # what the interpreter does on exit
        finally:
            sys.stdout.detach()
            sys.stdout, sys.stderr = streams
    return code, err.getvalue()


def test_an_export_written_into_a_file_is_the_export_printed(real: Path, tmp_path: Path) -> None:
    code, piped, err = run("export", str(real))  # into a buffer: spooled and copied, as into a pipe
    assert code == 0, err
    out = tmp_path / "copy.json"
    out.write_bytes(b"earlier\n")
    done = adjutant_into(out, "export", str(real), append=True)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == b"earlier\n" + piped
    out.write_bytes(b"earlier\n")  # and in this process, as the refusals below are run
    assert in_process_into(out, "export", str(real), append=True) == (0, "")
    assert out.read_bytes() == b"earlier\n" + piped


@pytest.mark.parametrize("command", ["export", "log"])
def test_a_refusal_late_in_the_file_leaves_the_file_as_it_was(real: Path, tmp_path: Path, command: str) -> None:
    damaged = tmp_path / "damaged.campaign"
    damaged.write_bytes(real.read_bytes())
    db = sqlite3.connect(damaged, isolation_level=None)
    last = db.execute("SELECT max(id) FROM event").fetchone()[0]
    # A value no sound file holds, in the last table export writes and in the last event log reads.
    db.execute("UPDATE unit SET strength_points = -1 WHERE rowid = (SELECT max(rowid) FROM unit)")
    db.execute("UPDATE event SET \"when\" = 'not a moment' WHERE id = ?", (last,))
    db.close()
    for append in (False, True):
        out = tmp_path / f"{command}-{append}.txt"
        out.write_bytes(b"kept\n")
        code, err = in_process_into(out, command, str(damaged), append=append)
        assert code != 0 and err.startswith("adjutant: "), err
        assert out.read_bytes() == (b"kept\n" if append else b""), "half an output was left in the file"


def test_printed_lines_lose_exactly_the_characters_shown_removes() -> None:
    """The C-level filter of the log's bytes (campaigns.output._encoded) is `shown`: every
    code point alone, and beside the characters whose UTF-8 bytes it could be mistaken among."""
    from campaigns.output import _encoded
    from campaigns.text import shown

    for start in range(0, 0x110000, 0x8000):
        line = "".join(f"a{chr(cp)}\u00e9\u0080" for cp in range(start, start + 0x8000))
        assert _encoded([line, "\t\x1b[2Jb\x9b"]) == (shown(f"{line}\n\t\x1b[2Jb\x9b") + "\n").encode("utf-8", "replace")


def test_an_export_into_the_null_device_is_written_straight_to_it(real: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`adjutant export FILE > /dev/null` (a timing, a check that the file reads): nothing is spooled, as the
    device keeps nothing; a refusal still says its sentence and fails. Run in this process, standard
    output the device itself (in_process_into): the code that writes reads only sys.stdout, and a
    process of its own writing into a file is test_an_export_written_into_a_file_is_the_export_printed's
    (a process cost some 1.5 CPU-s here)."""
    import tempfile

    def no_spool(*_args, **_kwargs):
        raise AssertionError("spooled: the null device needs no holding back")

    monkeypatch.setattr(tempfile, "SpooledTemporaryFile", no_spool)
    monkeypatch.setattr(tempfile, "TemporaryFile", no_spool)  # the export's spool is a file from the start
    assert in_process_into(Path(os.devnull), "export", str(real)) == (0, "")  # `>`, as a shell opens it
    assert in_process_into(Path(os.devnull), "export", str(real), append=True) == (0, "")
    assert in_process_into(Path(os.devnull), "log", str(real), append=True) == (0, "")
    damaged = tmp_path / "damaged.campaign"
    damaged.write_bytes(real.read_bytes())
    db = sqlite3.connect(damaged, isolation_level=None)
    db.execute("UPDATE unit SET strength_points = -1 WHERE rowid = (SELECT max(rowid) FROM unit)")
    db.close()
    code, err = in_process_into(Path(os.devnull), "export", str(damaged), append=True)
    assert code == 2 and err.startswith("adjutant: ") and err.count("\n") == 1, err

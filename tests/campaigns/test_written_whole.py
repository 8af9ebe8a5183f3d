"""What `-o NAME` does with a name that is not a plain file (campaigns.output.written_whole,
models.copies.write_atomically): a named pipe (and so a device such as /dev/null) is
written into and stays what it was, a folder or a missing folder is one sentence.

Before: `adjutant report -o /dev/null`, run as root, renamed a plain file over the device
(found by a helper's benchmark: /dev/null was a file for a minute and initdb failed
machine-wide). The pipe stands in for the device here: a test that got it wrong must not
break the machine it runs on."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from tests.test_hostile_files import run


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("whole") / "spring.campaign"
    code, _, err = run("new", "spring1813", str(path), "--seed", "7")
    assert code == 0, err
    return path


def _read_from_pipe(pipe: Path) -> tuple[threading.Thread, list[bytes]]:
    read: list[bytes] = []

    def reader() -> None:
        with pipe.open("rb") as source:
            read.append(source.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    return thread, read


@pytest.mark.parametrize(("command", "name"), [("report", "report.md"), ("map", "map.svg")])
def test_a_named_pipe_is_written_into_and_stays_a_pipe(campaign: Path, tmp_path: Path, command: str, name: str) -> None:
    plain = tmp_path / name
    code, _, err = run(command, str(campaign), "-o", str(plain))
    assert code == 0, err
    pipe = tmp_path / f"pipe-{name}"
    os.mkfifo(pipe)
    thread, read = _read_from_pipe(pipe)
    code, _, err = run(command, str(campaign), "-o", str(pipe))
    thread.join(10)
    assert code == 0, err
    assert stat.S_ISFIFO(pipe.stat().st_mode), "the pipe was replaced by a plain file"
    assert read == [plain.read_bytes()]
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")], "a partial file was left"


def test_a_link_to_a_file_has_its_file_replaced_and_stays_a_link(campaign: Path, tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("an older report\n", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    code, _, err = run("report", str(campaign), "-o", str(link))
    assert code == 0, err
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8").startswith("#"), real.read_text(encoding="utf-8")[:80]


@pytest.mark.parametrize("command", ["report", "map"])
def test_a_folder_or_a_missing_folder_is_one_sentence_and_nothing_is_written(campaign: Path, tmp_path: Path, command: str) -> None:
    folder = tmp_path / ("out.svg" if command == "map" else "out")
    folder.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run(command, str(campaign), "-o", str(folder))
    assert code != 0
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "folder" in err, err
    code, out, err = run(command, str(campaign), "-o", str(tmp_path / "not-there" / "x.svg"))
    assert code != 0
    assert err.count("\n") == 1 and "no folder" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert list(folder.iterdir()) == []


def test_a_campaign_is_never_saved_over_a_pipe_or_a_folder(campaign: Path, tmp_path: Path) -> None:
    from models.copies import copy_sqlite
    from models.errors import CampaignFileError

    pipe = tmp_path / "pipe.campaign"
    os.mkfifo(pipe)
    folder = tmp_path / "folder.campaign"
    folder.mkdir()
    for target in (pipe, folder):
        with pytest.raises(CampaignFileError, match="not a file"):
            copy_sqlite(campaign, target)
    assert stat.S_ISFIFO(pipe.stat().st_mode)
    assert list(folder.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.campaign", "pipe.campaign"]


@pytest.mark.parametrize(
    ("command", "extra"),
    [("report", ()), ("map", ()), ("despatch", ("--side", "french", "--format", "md"))],
)
def test_standard_output_into_a_pipe_is_written_into(campaign: Path, command: str, extra: tuple[str, ...]) -> None:
    """`-o /dev/stdout | less`: /dev/stdout is a link to /proc/self/fd/1, a link to
    "pipe:[N]", which is no path. Before, the real path was asked for and the command
    ended in "…/fd/.pipe:[N].partial: No such file or directory" (a report), "not stdout"
    (the map) or "/dev/stdout already exists" (a despatch); the README promises it works.
    A pipe's own /proc/self/fd link stands in for /dev/stdout here."""
    read_end, write_end = os.pipe()
    read: list[bytes] = []

    def reader() -> None:
        with os.fdopen(read_end, "rb") as source:
            read.append(source.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    try:
        code, _, err = run(command, str(campaign), *extra, "-o", f"/proc/self/fd/{write_end}")
    finally:
        os.close(write_end)
    thread.join(10)
    assert code == 0, err
    assert read and read[0].strip(), "nothing came through the pipe"
    assert read[0].lstrip().startswith(b"<?xml" if command == "map" else b"#")

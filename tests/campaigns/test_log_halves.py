"""`adjutant log` of a long history writes its newer half in a second process (campaigns.log
`_newer_half`): the same bytes as one process writes, the same refusal of a damaged row in
either half, and no process left behind."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import sys
from pathlib import Path
import pytest

from campaigns import log
from campaigns.changes import Names
from models import open_campaign
from tests.campaigns.test_log_quick import drawn_events, slow_refuses, with_drawn
from tests.test_hostile_files import played
from tui.cli import main

ROLL = (
    'INSERT INTO dice_roll (event, purpose, dice, raw, modifiers, result, mode, stream_index, "by", "when")'
    " VALUES (?, 'combat', '1d6', '[4]', '[]', 4, 'rolled', 3, 'umpire', '2025-02-01 10:00:00.000000')"
)


@pytest.fixture(scope="module")
def long(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A played campaign and 1,500 drawn events of every form (tests/campaigns/test_log_quick.py),
    with rolls across the history, one of an event that is not there and one after the last."""
    path = played(tmp_path_factory.mktemp("halves") / "long.campaign")
    drawn = drawn_events(11, 1500)
    with open_campaign(path) as store, store.connect() as connection:
        names = Names(connection, preload=True)
        kept = [event for event in drawn if not slow_refuses(event[3], event[1], event[4], names)]
    db = sqlite3.connect(path, isolation_level=None)
    first, second = (row[0] for row in db.execute("SELECT id FROM unit ORDER BY id LIMIT 2"))
    db.close()
    moment = "2025-02-01 09:00:00.000000"
    renamed = [  # early in the older half: the name each change shows of these units in the newer (Names.remember)
        (moment, "action", "Rename", json.dumps([{"table": "unit", "key": {"id": first}, "before": {"name": "Renamed Early"}, "after": {"name": "B"}}]), 0),
        (moment, "action", "Rename", f'[{{"table": "unit", "key": {{"id": "{second}"}}, "before": {{"n\\u0061me": "Escaped"}}, "after": {{"sp": 1}}}}]', 0),
    ]
    moved = [
        (moment, "action", "Move", json.dumps([{"table": "unit", "key": {"id": unit}, "before": {"location": "A"}, "after": {"location": "B"}}]), 0)
        for unit in (first, second)
    ]
    drawn_kept = [(when, kind, f"{description}\n\u2028\u202e\x1b[2J", text, undone) for when, kind, description, text, undone in kept]
    with_drawn(path, [*renamed, *drawn_kept, *moved])
    db = sqlite3.connect(path, isolation_level=None)
    last = db.execute("SELECT max(id) FROM event").fetchone()[0]
    db.executemany(ROLL, [(event,) for event in range(1, last + 3, 7)])
    db.execute("DELETE FROM event WHERE id = ?", (last - 300,))
    db.close()
    return path


def logged(path: Path, tmp_path: Path, *, to_file: bool) -> tuple[int, bytes, str]:
    """`adjutant log FILE` in this process, its output into a regular file (written in place)
    or into a buffer (spooled): (exit code, bytes, stderr)."""
    out = tmp_path / "log.txt"
    streams = sys.stdout, sys.stderr
    sys.stdout = open(out, "w", encoding="utf-8") if to_file else io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # noqa: SIM115
    sys.stderr = io.StringIO()
    try:
        code = main(["log", str(path)])
        sys.stdout.flush()
        printed = out.read_bytes() if to_file else sys.stdout.buffer.getvalue()  # type: ignore[attr-defined]
        return code, printed, sys.stderr.getvalue()
    finally:
        sys.stdout.close()
        sys.stdout, sys.stderr = streams


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The second processes started, by pid (each must be gone when the log is done)."""
    started: list[int] = []
    fork = os.fork

    def counted() -> int:
        pid = fork()
        if pid:
            started.append(pid)
        return pid

    monkeypatch.setattr(log.os, "fork", counted)
    return started


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def in_one_process(monkeypatch: pytest.MonkeyPatch, path: Path, tmp_path: Path, *, to_file: bool) -> tuple[int, bytes, str]:
    with monkeypatch.context() as patch:
        patch.setattr(log, "HALVES_FROM", 10**12)
        return logged(path, tmp_path, to_file=to_file)


@pytest.mark.parametrize("to_file", [True, False])
def test_a_long_log_in_two_processes_is_the_log_of_one(
    to_file: bool, long: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    alone = in_one_process(monkeypatch, long, tmp_path, to_file=to_file)
    assert not forks
    monkeypatch.setattr(log, "HALVES_FROM", 2 * log.BATCH)
    halves = logged(long, tmp_path, to_file=to_file)
    assert len(forks) == 1 and gone(forks[0])
    assert alone[0] == 0 and alone[2] == "", alone[2]
    assert halves == alone
    assert alone[1].count(b"\n#") > 1200 and alone[1].count(b"dice #") > 200
    assert b"unit Renamed Early: location A -> B" in alone[1] and b"unit Escaped: location A -> B" in alone[1]


@pytest.mark.parametrize("where", ["older", "newer"])
@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE event SET changes = '[{\"table\": 7}]' WHERE id = ?",  # a change no action stores
        "UPDATE event SET description = CAST(X'61ff' AS TEXT) WHERE id = ?",  # not UTF-8
        "UPDATE dice_roll SET raw = '[1' WHERE event = ?",  # a roll's faces that are no list
    ],
)
def test_a_damaged_row_in_either_half_is_refused_as_by_one_process(
    where: str, damage: str, long: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    path = tmp_path / "damaged.campaign"
    path.write_bytes(long.read_bytes())
    db = sqlite3.connect(path, isolation_level=None)
    first, last = db.execute("SELECT min(id), max(id) FROM event").fetchone()
    event = db.execute("SELECT event FROM dice_roll WHERE event > ? ORDER BY event LIMIT 1", (first + 50 if where == "older" else last - 100,)).fetchone()[0]
    db.execute(damage, (event,))
    db.close()
    alone = in_one_process(monkeypatch, path, tmp_path, to_file=True)
    monkeypatch.setattr(log, "HALVES_FROM", 2 * log.BATCH)
    halves = logged(path, tmp_path, to_file=True)
    assert len(forks) == 1 and gone(forks[0])
    assert halves == alone
    assert alone[0] != 0 and alone[1] == b"" and "is damaged" in alone[2]


def test_without_a_second_process_the_first_writes_the_whole_log(long: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alone = in_one_process(monkeypatch, long, tmp_path, to_file=True)

    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(log.os, "fork", refused)
    monkeypatch.setattr(log, "HALVES_FROM", 2 * log.BATCH)
    assert logged(long, tmp_path, to_file=True) == alone

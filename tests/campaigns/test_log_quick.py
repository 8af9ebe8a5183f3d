"""The log's quick paths (a batch of moments and changes read a column at a time, a one-change
update shown in one call) print exactly what the row-by-row paths print, on every form of
change and moment, odd ones included; and they are the paths a played campaign takes."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from campaigns import log
from campaigns.changes import Names, change_lines, load, update_line
from models import open_campaign
from tests.test_hostile_files import played

ODD_EVENTS = [  # ("when", changes as stored): forms a played campaign may not hold
    ("2025-01-01 10:00:00.000000", '[{"table": "unit", "key": {"id": "gone"}, "before": {"name": "Old", "sp": 3}, "after": {"name": "New", "sp": 4}}]'),
    ("2025-01-01 10:00:01.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"location": " "}, "after": {"location": ""}}]'),
    ("2025-01-01 10:00:02.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"fatigued": false, "cohesion": 1.5}, "after": {"fatigued": true, "cohesion": null}}]'),
    ("2025-01-01 10:00:03.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"general": "g1"}, "after": {"general": null}}]'),
    ("2025-01-01 10:00:04.000000", '[{"table": "campaign", "key": {"id": 1}, "before": {"phase": "weather"}, "after": {"phase": "movement"}}]'),
    ("2025-01-01 10:00:05.000000", '[{"table": "battle", "key": {"id": 3}, "before": {"detail": {"a": [1]}}, "after": {"detail": {"a": [1, 2]}}}]'),
    ("2025-01-01 10:00:06.000000", '[{"table": "battle", "key": {"id": 3}, "before": {"detail": [1]}, "after": {"detail": {"b": 1}}}]'),
    ("2025-01-01 10:00:07.000000", '[{"table": "turn", "key": {"number": 2}, "before": {"dice_roll": null}, "after": {"dice_roll": 7}}]'),
    ("2025-01-01 10:00:08.000000", '[{"table": "command_point_roll", "key": {"id": 2}, "before": {"army": "a1"}, "after": {"army": "a1", "points": 3}}]'),
    ("2025-01-01 10:00:09.000000", '[{"table": "unit", "key": {"id": "y"}, "before": null, "after": {"name": "Added"}}]'),
    ("2025-01-01 10:00:10.000000", '[{"table": "unit", "key": {"id": "y"}, "before": {"name": "Gone"}, "after": null}]'),
    ("2025-01-01 10:00:11.000000", '[{"table": "unit", "key": {"id": "y"}, "before": {}, "after": {}}]'),
    ("2025-01-01 10:00:12.000000", '[{"table": "unit", "key": {"id": 5}, "before": {"sp": 1}, "after": {"sp": 2}}]'),
    ("2025-01-01 10:00:13.000000", '[{"table": "unit", "key": [], "before": {"sp": 1}, "after": {"sp": 2}}]'),
    ("2025-01-01 10:00:15.000000", '[{"table": "dice_roll", "key": {"id": 1}, "before": {"result": 1}, "after": {"result": 2}}]'),
    ("2025-01-01 10:00:16.000000", '[{"table": "unit", "key": {"id": "z"}, "before": {"sp": 1}, "after": {"sp": 2}}, '
     '{"table": "unit", "key": {"id": "z"}, "before": {"sp": 2}, "after": {"sp": 5}}]'),
    ("2025-01-01 10:00:17.000000", '{"not": "a list"}'),
    ("2025-01-01 10:00:18.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"sp": NaN}, "after": {"sp": 1}}]'),
    ("2025-01-01 10:00:19.000000", "[]"),
    ("2025-01-01T10:00:20+02:00", '[{"table": "side", "key": {"id": "s"}, "before": {"name": "A"}, "after": {"name": "B"}}]'),
    ("2025-01-01 10:00:21", '[{"table": "army", "key": {"id": "a"}, "before": {"x_y": [1, 2]}, "after": {"x_y": [3]}}]'),
    ("2025-01-01 23:59:59.999999", '[{"table": "general", "key": {"id": "g1"}, "before": {"superior": null}, "after": {"superior": "g2"}}]'),
    # one plain value of a named row, read from its text (log._ONE_UPDATE): its edges
    ("2025-01-01 10:01:00.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"location": "L\\u00fctzen"}, "after": {"location": "a\\"b\\\\c\\/d\\n"}}]'),
    ("2025-01-01 10:01:01.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"location": "\\u00a0"}, "after": {"location": "\\t"}}]'),
    ("2025-01-01 10:01:02.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"sp": 1.50}, "after": {"sp": 1e3}}]'),
    ("2025-01-01 10:01:03.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"sp": -0}, "after": {"sp": 123456789012345678901234567890}}]'),
    ("2025-01-01 10:01:04.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"sp": -7}, "after": {"sp": 0}}]'),
    ("2025-01-01 10:01:05.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"name": "A"}, "after": {"name": "B"}}]'),
    ("2025-01-01 10:01:06.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"location": "A"}, "after": {"location": "B"}}]'),
    ("2025-01-01 10:01:07.000000", '[{"table": "side", "key": {"id": "s"}, "before": {"army": "a"}, "after": {"army": null}}]'),
    ("2025-01-01 10:01:08.000000", '[{"table": "army", "key": {"id": "no such army"}, "before": {"dice_roll": 1}, "after": {"dice_roll": 2}}]'),
    ("2025-01-01 10:01:09.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"a_b": "\\ud800"}, "after": {"a_b": true}}]'),
    ("2025-01-01 10:01:10.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"\\u0061": 1}, "after": {"a": 2}}]'),
    ("2025-01-01 10:01:11.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"": false}, "after": {"": null}}]'),
    ("2025-01-01 10:01:12.000000", '[{"table": "unit", "key": {"id": "Gone"}, "before": {"sp": 2}, "after": {"sp": 3}}]'),
    ("2025-01-01 10:01:13.000000", '[{"table": "unit", "key": {"id": "y"}, "before": {"sp": 2}, "after": {"sp": 3}}]'),
    ("2025-01-01 10:01:14.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"cohesion": 3}, "after": {"cohesion": 2}}] '),
    ("2025-01-01 10:01:15.000000", '[{"table": "unit", "key": {"id": "x"}, "before": {"sp": 1, "cohesion": 3}, "after": {"cohesion": 2}}]'),
]

REFUSED = [  # changes no action stores, which end the log in one sentence (campaigns.cli.reading)
    '[{"table": 7, "key": {}, "before": {"sp": 1}, "after": {"sp": 2}}]',
    '[{"table": "unit", "key": [1], "before": {"sp": 1}, "after": {"sp": 2}}]',
    '[{"table": "unit", "key": {"id": [1]}, "before": {"name": "A"}, "after": {"name": "B"}}]',
    '[{"table": "unit", "key": {"id": "x"}, "before": {"sp": 1}, "after": 3}]',
]


def with_events(path: Path, events: list[tuple[str, str]]) -> Path:
    db = sqlite3.connect(path, isolation_level=None)
    db.executemany(
        "INSERT INTO event (\"when\", kind, description, changes, undone) VALUES (?, 'action', 'odd', ?, 0)", events
    )
    db.close()
    return path


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played(tmp_path_factory.mktemp("log") / "real.campaign")


@pytest.fixture
def campaign(real: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "odd.campaign"
    copy.write_bytes(real.read_bytes())
    return with_events(copy, ODD_EVENTS)


def outcome(path: Path) -> list[str] | str:
    try:
        with open_campaign(path) as store:
            return list(log.log_lines(store))
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError) as error:
        return type(error).__name__  # what the sentence of campaigns.cli.reading names


@pytest.fixture(params=["UTC", "Europe/Berlin"])
def zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The moments read where local time is UTC (their quick path) and where it is not."""
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    monkeypatch.setattr(log, "_LOCAL_IS_UTC", request.param == "UTC")
    yield request.param
    monkeypatch.undo()
    time.tzset()


def row_by_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(log, "_shown_times", lambda whens: [None] * len(whens))
    monkeypatch.setattr(log, "_one_updates", lambda stored, _kinds: [None] * len(stored))
    monkeypatch.setattr(log, "update_line", lambda _change, _names: None)


def test_the_quick_log_is_the_row_by_row_log(campaign: Path, zone: str, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = outcome(campaign)
    with monkeypatch.context() as patch:
        row_by_row(patch)
        slow = outcome(campaign)
    assert quick == slow
    assert sum(line.startswith("#") for line in quick) > len(ODD_EVENTS)


@pytest.mark.parametrize("changes", REFUSED)
def test_a_change_the_log_refuses_is_refused_alike(
    changes: str, real: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "refused.campaign"
    copy.write_bytes(real.read_bytes())
    with_events(copy, [("2025-01-01 10:00:00.000000", changes)])
    quick = outcome(copy)
    with monkeypatch.context() as patch:
        row_by_row(patch)
        assert outcome(copy) == quick
    assert isinstance(quick, str)


def test_update_line_is_change_lines_of_its_change(campaign: Path) -> None:
    db = sqlite3.connect(campaign)
    stored = [load(text) for (text,) in db.execute("SELECT changes FROM event WHERE kind = 'action'")]
    db.close()
    shown = 0
    with open_campaign(campaign) as store, store.connect() as connection:
        names = Names(connection, preload=True)
        for changes in stored:
            for change in changes if isinstance(changes, list) else []:
                line = update_line(change, names)
                if line is not None:
                    assert [line] == list(change_lines([change], names)), change
                    shown += 1
    assert shown >= 8  # the plain updates, played and odd, went the quick way


def test_an_undo_shaped_as_an_update_is_read_as_an_undo(real: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "undo.campaign"
    copy.write_bytes(real.read_bytes())
    db = sqlite3.connect(copy, isolation_level=None)
    db.execute(
        "INSERT INTO event (\"when\", kind, description, changes, undone) VALUES ('2025-01-01 10:00:00.000000', 'undo', 'odd', ?, 0)",
        ('[{"table": "unit", "key": {"id": "x"}, "before": {"sp": 1}, "after": {"sp": 2}}]',),
    )
    db.close()
    quick = outcome(copy)
    with monkeypatch.context() as patch:
        row_by_row(patch)
        assert outcome(copy) == quick
    assert quick[-1].endswith("undo    #None odd")


def test_plain_updates_are_read_from_their_text() -> None:
    """The odd events above that the text path takes, and those it leaves to JSON."""
    changes = tuple(text for _when, text in ODD_EVENTS)
    matched = [text for text, match in zip(changes, log._one_updates(changes, ("action",) * len(changes)), strict=True) if match]
    assert len(matched) == 17  # of the 38: four of the first 22, 13 of the 16 added for this path
    assert all('"key": {"id": "' in text and text.endswith("}}]") for text in matched)
    assert log._one_updates(changes[:3], ("action", "undo", "redo")) == [None, None, None]


def test_a_batch_of_moments_is_read_at_once_exactly_when_each_is_a_real_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every day of the calendar's edges (leap years, centuries, year 0, month 13, day 32), and
    times of day out of range, against what `date.fromisoformat` and `time.fromisoformat` read."""
    from datetime import date
    from datetime import time as time_of_day

    monkeypatch.setattr(log, "_LOCAL_IS_UTC", True)
    days = [f"{y:04d}-{m:02d}-{d:02d}" for y in (0, 1, 4, 100, 400, 1900, 2000, 2024, 2025, 9999) for m in range(14) for d in range(33)]
    days += [f"{y:04d}-02-29" for y in range(10000)]
    times = ["00:00:00", "23:59:59", "24:00:00", "23:60:00", "23:59:60", "1٣:00:00"]
    plain = "2025-01-01 00:00:00.000000"
    for day in days:
        for at in times if day == "2024-02-29" else times[:2]:
            when = f"{day} {at}.999999"
            try:
                date.fromisoformat(day), time_of_day.fromisoformat(at)
            except ValueError:
                assert log._shown_times((plain, when)) == [None, None], when
            else:
                assert log._shown_times((plain, when)) == [plain[:19], when[:19]], when
    assert log._shown_times((plain, plain[:-1] + "\n")) == [None, None]
    assert log._shown_times((plain + "\n" + plain, "")) == [None, None]


@pytest.mark.parametrize("raw", ["[3, 5]", "[3,5]", "[]", "[6]", '["a", 1.5]', "[true, null]", "[-0, 1e2]", "{}"])
def test_a_rolls_faces_read_once_are_shown_as_each_roll_reads_them(raw: str) -> None:
    import orjson

    roll = (7, 2, "combat", "2d6", raw, "[]", 8, "rolled", 3, "umpire", None)
    shown = log._reading(7, "combat", "2d6", orjson.loads(raw), [], 8, "rolled", 3, "umpire", False)
    log._SHOWN_FACES.pop(raw, None)
    assert log._dice_text(roll) == shown  # read
    assert raw in log._SHOWN_FACES
    assert log._dice_text(roll) == shown  # kept


@pytest.mark.parametrize("raw", ["5", "[1", "NaN"])
def test_faces_that_are_no_list_of_faces_refuse_the_log_each_time(raw: str) -> None:
    roll = (7, 2, "combat", "2d6", raw, "[]", 8, "rolled", 3, "umpire", None)
    for _ in range(2):
        with pytest.raises((TypeError, ValueError)):
            log._dice_text(roll)
    assert raw not in log._SHOWN_FACES

"""The log's quick paths (a batch of moments and changes read a column at a time, a one-change
update shown in one call) print exactly what the row-by-row paths print, on every form of
change and moment, odd ones included; and they are the paths a played campaign takes."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from campaigns import log
from campaigns.changes import Names, change_lines, load, update_line
from models import open_campaign
from models.journal import REPLAYS, target
from tests import seeds
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
    monkeypatch.setattr(log, "_one_updates", lambda stored, *_: [None] * len(stored))
    monkeypatch.setattr(log, "update_line", lambda _change, _names: None)
    monkeypatch.setattr(log, "_quick_lines", lambda *_: None)


def test_the_quick_log_is_the_row_by_row_log(campaign: Path, zone: str, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = outcome(campaign)
    with monkeypatch.context() as patch:
        row_by_row(patch)
        slow = outcome(campaign)
    assert quick == slow
    assert sum(line.startswith("#") for line in quick) > len(ODD_EVENTS)


def logged_alike(changes: str, real: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str] | str:
    """The log (or its refusal) of a copy of `real` with one odd event holding `changes`, the
    same read quickly as row by row."""
    copy = tmp_path / "odd.campaign"
    copy.write_bytes(real.read_bytes())
    with_events(copy, [("2025-01-01 10:00:00.000000", changes)])
    quick = outcome(copy)
    with monkeypatch.context() as patch:
        row_by_row(patch)
        assert outcome(copy) == quick
    return quick


# changes no action stores that the log shows as they are, alike both ways (a key that is not an
# object is shown as it is: the log copes with it, as `adjutant history` and `changes` do)
SHOWN = ['[{"table": "unit", "key": [1], "before": {"sp": 1}, "after": {"sp": 2}}]']


@pytest.mark.parametrize("changes", SHOWN)
def test_a_change_no_action_stores_is_shown_alike(
    changes: str, real: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick = logged_alike(changes, real, tmp_path, monkeypatch)
    assert isinstance(quick, list) and any("odd" in line for line in quick)


@pytest.mark.parametrize("changes", REFUSED)
def test_a_change_the_log_refuses_is_refused_alike(
    changes: str, real: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick = logged_alike(changes, real, tmp_path, monkeypatch)
    assert isinstance(quick, str)


ROLL_ROW = (
    '{"id": 1, "event": 1, "purpose": "weather", "dice": "1d6", "raw": [4], "modifiers": [], "result": 4, '
    '"mode": "rolled", "stream_index": 0, "by": "%s", "when": null, "battle": null}'
)
PAST_64_BITS = "123456789012345678901234567890"


@pytest.mark.parametrize("by", ["umpire", "\\ud800"])  # a lone surrogate: orjson refuses the whole text, json reads it
@pytest.mark.parametrize("where", ["stream", "update", "update first"])
def test_a_whole_number_past_64_bits_is_shown_as_the_row_by_row_log_shows_it(
    real: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, by: str, where: str
) -> None:
    """Seed 31337 drew a roll by "\\ud800" and a stream position of 30 digits: the quick log showed
    the position as orjson's float, the row-by-row log (the whole text read by json) as a whole number.
    The big number in the stream position (_quick_lines), in a unit's update of the form every roll
    stores (_ONE_UPDATE), and in an update before the roll (_quick_lines)."""
    db = sqlite3.connect(real)
    unit = db.execute("SELECT id FROM unit ORDER BY id LIMIT 1").fetchone()[0]
    db.close()
    big = {"stream": PAST_64_BITS if where == "stream" else "33", "update": PAST_64_BITS if where != "stream" else "2"}
    rolled = '{"table": "dice_roll", "key": {"id": 1}, "before": null, "after": %s}' % (ROLL_ROW % by)
    stream = '{"table": "campaign", "key": {"id": 1}, "before": {"dice_next_index": %s}, "after": {"dice_next_index": 34}}' % big["stream"]
    moved = '{"table": "unit", "key": {"id": "%s"}, "before": {"strength_points": %s}, "after": {"strength_points": 3}}' % (unit, big["update"])
    changes = f"[{moved}, {rolled}]" if where == "update first" else f"[{rolled}, {stream}, {moved}]"
    copy = tmp_path / "big.campaign"
    copy.write_bytes(real.read_bytes())
    with_events(copy, [("2025-01-01 10:00:00.000000", changes)])
    quick = outcome(copy)
    with monkeypatch.context() as patch:
        row_by_row(patch)
        assert outcome(copy) == quick
    assert isinstance(quick, list) and any(PAST_64_BITS in line or "e+29" in line for line in quick)


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


@pytest.mark.parametrize(
    "odd", ["2025-01-01 24:00:00.000000", "2025-02-30 00:00:00.000000", "0000-01-01 00:00:00.000000", "2025-01-01 02:00:00.000000"]
)
def test_a_batch_is_read_at_once_only_when_every_moment_in_it_is_real(odd: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The day and hour of a batch are checked once each where its moments hold the first one's
    or the last one's: a moment between them that holds neither is checked too."""
    monkeypatch.setattr(log, "_LOCAL_IS_UTC", True)
    a, b = "2025-01-01 00:00:00.000000", "2025-01-01 01:00:00.000000"
    real = odd.endswith("02:00:00.000000")
    for whens in [(a, odd, odd, a), (a, odd, a), (a, b, odd, b), (odd, a, a, odd), (a, a, b, odd), (a, odd, b, a)]:
        assert log._shown_times(whens) == ([when[:19] for when in whens] if real else [None] * len(whens)), whens


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


# -- drawn events: every form of change, in every combination, against the row-by-row log --------

NAMED_IDS = ["old_guard", "young_guard_1", "brigade_klux", "nobody", "L\u00fctzen", "a b", "", 'x"y', "\u65e5\u672c"]
ODD_TEXTS = [
    "", " ", "\t", "a\nb", "\x00", "\x1f", "\x7f", "\x85", "\u2028", "L\u00fctzen", "\u65e5\u672c", "\U0001f600",
    'say "no"', "back\\slash", "/", "Clear", "  padded  ", "\u00a0",
]
ODD_NUMBERS = ["-0", "1.0", "1e2", "-5", "0", "-0.0", "5E+1", "123456789012345678901234567890", "999999999999999999"]
COLUMNS = [
    "location", "strength_points", "fatigued", "cohesion", "name", "general", "superior", "army", "side", "phase",
    "dice_next_index", "dice_roll", "detail", "note", "out_of_command", "weather", "", "a_b",
]
TABLES = ["unit", "general", "army", "side", "campaign", "battle", "turn", "dice_roll", "command_point_roll", "odd table"]


def drawn_value(chance: random.Random, depth: int = 0) -> Any:
    pick = chance.random()
    if pick < 0.3:
        return chance.choice(ODD_TEXTS)
    if pick < 0.55:
        return chance.choice([0, 1, -7, 12, 1.5, -0.25, 1e300, 2**40, 10**17, True, False])
    if pick < 0.7:
        return None
    if pick < 0.85 and depth < 3:
        return [drawn_value(chance, depth + 1) for _ in range(chance.randint(0, 3))]
    if depth < 3:
        return {chance.choice(COLUMNS + ODD_TEXTS): drawn_value(chance, depth + 1) for _ in range(chance.randint(0, 3))}
    return chance.choice(ODD_TEXTS)


def drawn_key(chance: random.Random, table: str) -> Any:
    pick = chance.random()
    if pick < 0.6:
        return {"id": chance.choice(NAMED_IDS)}
    if pick < 0.8:
        return {"id": chance.choice([0, 1, 7, 10**17, 10**19, -1, 1.0, "1", "7"])}
    if pick < 0.9:
        return {"number": chance.randint(1, 3)} if table == "turn" else {"id": None}
    return chance.choice([{}, {"id": 1, "number": 2}])


def drawn_roll(chance: random.Random, ident: int, event: int) -> dict[str, Any]:
    """A roll's row as the store records it (models.history), at times with odd values."""
    row: dict[str, Any] = {
        "id": ident, "event": event, "purpose": chance.choice(["weather", "forced march", "battle round 1: attacker combat roll, column 7-10"]),
        "dice": "1d6", "raw": [chance.randint(1, 6) for _ in range(chance.randint(1, 2))],
        "modifiers": [{"label": chance.choice(ODD_TEXTS), "value": chance.randint(-2, 2)} for _ in range(chance.randint(0, 2))],
        "result": chance.randint(1, 12), "mode": chance.choice(["rolled", "typed"]), "stream_index": chance.choice([None, 0, 5]),
        "by": chance.choice(["umpire", "\u65e5\u672c"]), "when": chance.choice(["2026-11-26T21:27:54.085471+00:00", None]),
        "battle": chance.choice([None, 1]),
    }
    if chance.random() < 0.2:  # nested values, keys added or lost: no longer the store's form
        row[chance.choice(list(row) + ["extra"])] = drawn_value(chance)
    return row


def drawn_change(chance: random.Random, event: int) -> dict[str, Any]:
    pick = chance.random()
    if pick < 0.25:
        ident = chance.randint(1, 50)
        return {"table": "dice_roll", "key": {"id": ident}, "before": None, "after": drawn_roll(chance, ident, event)}
    table = chance.choice(TABLES)
    if pick < 0.35:  # a row added or removed, its values nested at times
        row = {column: drawn_value(chance) for column in chance.sample(COLUMNS, chance.randint(0, 4))}
        before, after = (None, row) if chance.random() < 0.5 else (row, None)
        return {"table": table, "key": drawn_key(chance, table), "before": before, "after": after}
    columns = chance.sample(COLUMNS, 1 if pick < 0.8 else chance.randint(0, 3))
    before = {column: drawn_value(chance) if chance.random() < 0.5 else chance.choice(ODD_TEXTS + [3, None]) for column in columns}
    after = {column: drawn_value(chance) if chance.random() < 0.5 else chance.choice(ODD_TEXTS + [2, True]) for column in columns}
    if chance.random() < 0.05:
        before.pop(columns[0], None) if columns else None
    return {"table": table, "key": drawn_key(chance, table), "before": before, "after": after}


def stored_text(chance: random.Random, changes: list[dict[str, Any]]) -> str:
    """As SQLAlchemy stores them (json.dumps), or otherwise: unescaped, compact, edited by hand."""
    pick = chance.random()
    if pick < 0.75:
        return json.dumps(changes)
    if pick < 0.85:
        return json.dumps(changes, ensure_ascii=False)
    if pick < 0.9:
        return json.dumps(changes, separators=(",", ":"))
    text = json.dumps(changes)
    edits = [  # texts a hand or another program may leave: each read as JSON reads it
        ('"table": "dice_roll", ', '"table": "dice_roll", "table": "unit", '),
        ('"before": null, ', '"before": null, "before": {}, '),
        (', "after": {', ', "after": {"location": "x"}, "after": {'),
        ("12", "12.0"), ("1, ", "1e0, "), ("7", "-0"), ('"umpire"', '"\\ud800"'), ('"Clear"', '"Cl\\u0065ar"'),
        ("null", "NaN"), ("}]", "}] "), ('"id": "', '"id": "\\u0061'), (", {", ",{"), ("[", "[ "),
    ]
    old, new = chance.choice(edits)
    return text.replace(old, new, chance.randint(1, 2))


def drawn_events(seed: int, count: int) -> list[tuple[str, str, str, str, int]]:
    """("when", kind, description, changes as stored, undone): one to four changes each, the
    product's forms (a roll, the stream position, a unit moved) mixed with every other."""
    chance = random.Random(seed)
    events = []
    for n in range(count):
        when = f"2025-02-01 10:{n // 60 % 60:02d}:{n % 60:02d}.000000"
        if chance.random() < 0.3:  # the form of generated campaigns: a roll, the stream position, a row updated
            ident = chance.randint(1, 50)
            changes: list[dict[str, Any]] = [
                {"table": "dice_roll", "key": {"id": ident}, "before": None, "after": drawn_roll(chance, ident, n)},
                {"table": "campaign", "key": {"id": 1}, "before": {"dice_next_index": n}, "after": {"dice_next_index": n + 1}},
                {"table": chance.choice(["unit", "general", "side"]), "key": {"id": chance.choice(NAMED_IDS)},
                 "before": {"location": chance.choice(ODD_TEXTS)}, "after": {"location": chance.choice(ODD_TEXTS)}},
            ]
            if chance.random() < 0.5:  # the store's order, or another
                chance.shuffle(changes)
        else:
            changes = [drawn_change(chance, n) for _ in range(chance.randint(1, 4))]
        if chance.random() < 0.1:  # one row updated twice: shown merged
            changes.append({**changes[0], "before": {"cohesion": 1}, "after": {"cohesion": 2}})
        kind = chance.choice(["action"] * 12 + ["setup", "undo", "redo"])
        text = json.dumps([{"event": chance.randint(1, 9)}]) if kind in ("undo", "redo") and chance.random() < 0.7 else stored_text(chance, changes)
        if chance.random() < 0.2:  # the stream position as another program may write it
            text = text.replace(f'"before": {{"dice_next_index": {n}}}', f'"before": {{"dice_next_index": {chance.choice(ODD_NUMBERS)}}}')
        events.append((when, kind, f"drawn {n}", text, int(chance.random() < 0.15)))
    return events


def slow_refuses(text: str, kind: str, undone: int, names: Names) -> bool:
    """Whether the row-by-row log ends at this event's changes (campaigns.cli.reading names why)."""
    try:
        if kind in REPLAYS:
            target(text)
            return False
        changes = load(text)
        line = update_line(changes[0], names) if len(changes) == 1 and type(changes[0]) is dict else None
        if line is None:
            list(change_lines(changes, names))
        if undone and changes:
            [log.dice_line(kept, undone=True) for kept in log.stored_dice(changes)]
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError):
        return True
    return False


def with_drawn(path: Path, events: list[tuple[str, str, str, str, int]]) -> Path:
    db = sqlite3.connect(path, isolation_level=None)
    db.executemany('INSERT INTO event ("when", kind, description, changes, undone) VALUES (?, ?, ?, ?, ?)', events)
    db.close()
    return path


# Fixed seeds, then the run's seed (tests/seeds.py), a new one each run, printed when it fails; drawn
# inside the test, as every xdist worker must collect the same tests. A run's seed that failed is
# kept here: 2990076061 drew a kept event whose dice modifiers were an object, which the batch test
# undid (fixed in 2ddab4d: it undoes only events whose dice the row-by-row log reads when undone).
SEEDS = [1, 2, 3, 2990076061, "run"]


def with_the_logged(real: Path, copy: Path, drawn: list[Any]) -> tuple[list[Any], list[Any]]:
    """`copy`: the real campaign with the drawn events the row-by-row log would show;
    those events and the others, which it refuses."""
    copy.write_bytes(real.read_bytes())
    with open_campaign(copy) as store, store.connect() as connection:
        names = Names(connection, preload=True)
        refused = [event for event in drawn if slow_refuses(event[3], event[1], event[4], names)]
    kept = [event for event in drawn if event not in refused]
    with_drawn(copy, kept)
    return kept, refused


@pytest.mark.parametrize("drawn_by", SEEDS)
def test_drawn_events_of_every_form_log_as_row_by_row(
    drawn_by: int | str, real: Path, tmp_path: Path, zone: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = seeds.run_seed() if drawn_by == "run" else int(drawn_by)
    drawn = drawn_events(seed, 600)
    copy = tmp_path / "drawn.campaign"
    kept, refused = with_the_logged(real, copy, drawn)
    taken: list[Any] = []  # the events read from their text by _quick_lines
    updates: list[Any] = []  # and by _one_updates
    quick_lines = log._quick_lines

    def counted(*args: Any) -> list[str] | None:
        lines = quick_lines(*args)
        if lines is not None:
            taken.append(lines)
        return lines

    one_updates = log._one_updates

    def matched(*args: Any) -> list[Any]:
        matches = one_updates(*args)
        updates.extend(match for match in matches if match is not None)
        return matches

    monkeypatch.setattr(log, "_quick_lines", counted)
    monkeypatch.setattr(log, "_one_updates", matched)
    quick = outcome(copy)
    with monkeypatch.context() as patch:
        row_by_row(patch)
        slow = outcome(copy)
    assert isinstance(quick, list), f"seed {seed}: {quick}"
    for number, (fast, plain) in enumerate(zip(quick, slow, strict=True)):
        assert fast == plain, f"seed {seed}, line {number}"
    # Both quick paths were taken. Each of the 600 events is drawn alike and apart, so each count is
    # binomial: over 25 seeds _quick_lines took 11.4% of events and _one_updates 6.2% (at least
    # 10.6% and 5.6%, three standard errors down), so 20 or fewer is a chance of 2.9e-11 and 5 or
    # fewer one of 5.8e-10. (A total of 60 or fewer, the bound before, is about 1e-7 to 3e-6.)
    assert len(taken) > 20 and len(updates) > 5, f"seed {seed}: {len(taken)} and {len(updates)} events read from their text"
    for event in refused[:4]:  # and a change the row-by-row log refuses is refused alike
        alone = tmp_path / f"refused-{len(refused)}-{event[2]}.campaign"
        alone.write_bytes(real.read_bytes())
        with_drawn(alone, [event])
        alike = outcome(alone)
        with monkeypatch.context() as patch:
            row_by_row(patch)
            assert outcome(alone) == alike, f"seed {seed}: {event}"
        assert isinstance(alike, str), f"seed {seed}: {event}"


@pytest.mark.parametrize("drawn_by", SEEDS)
def test_drawn_actions_in_batches_of_the_common_form_log_as_row_by_row(
    drawn_by: int | str, real: Path, tmp_path: Path, zone: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch of actions alone, none undone, redone or undone (almost every batch of a long
    history) goes the quickest way: an event whose one change _ONE_UPDATE reads is one text.
    Every form of change drawn there logs as row by row, and a change the row-by-row log
    refuses in the middle of such a batch is refused alike."""
    seed = seeds.run_seed() if drawn_by == "run" else int(drawn_by)
    drawn = [(when, "action", description, text, 0) for when, _kind, description, text, _undone in drawn_events(seed, 600)]
    copy = tmp_path / "actions.campaign"
    kept, refused = with_the_logged(real, copy, drawn)
    # in two batches of actions: one undone, one (of the form _ONE_UPDATE reads) undone by a later event;
    # each one whose dice the row-by-row log reads when undone too (an undone event's dice come from its text)
    with open_campaign(copy) as store, store.connect() as connection:
        names = Names(connection, preload=True)
        undoable = [not slow_refuses(event[3], event[1], 1, names) for event in kept]
    matched = [n for n, event in enumerate(kept) if n >= 420 and undoable[n] and log._ONE_UPDATE.fullmatch(event[3])]
    db = sqlite3.connect(copy, isolation_level=None)
    first = db.execute("SELECT max(id) FROM event").fetchone()[0] - len(kept) + 1
    undone, marked = first + undoable.index(True, 210), first + matched[0]
    db.execute("UPDATE event SET undone = 1 WHERE id = ?", (undone,))
    db.execute(
        "INSERT INTO event (\"when\", kind, description, changes, undone) VALUES ('2025-02-02 10:00:00.000000', 'undo', 'Undo', ?, 0)",
        (json.dumps([{"event": marked}]),),
    )
    db.close()
    quick = outcome(copy)
    with monkeypatch.context() as patch:
        row_by_row(patch)
        slow = outcome(copy)
    assert isinstance(quick, list), f"seed {seed}: {quick}"
    for number, (fast, plain) in enumerate(zip(quick, slow, strict=True)):
        assert fast == plain, f"seed {seed}, line {number}"
    assert sum(line.startswith(f"#{undone} ") and line.endswith("  [undone]") for line in quick) == 1
    assert sum(line.startswith(f"#{marked} ") and line.endswith(f"  [undone #{first + len(kept)}]") for line in quick) == 1
    with open_campaign(copy) as store:
        joined = sum("\n" in text for chunk in log.log_chunks(store) for text in chunk)
    if zone == "UTC":  # the moments read a batch at a time: the quickest way taken
        assert joined > 20, f"seed {seed}: {joined} events in one text"
    for event in refused[:4]:  # a batch's 250th event, behind actions of the common form
        alone = tmp_path / f"refused-{len(refused)}-{event[2]}.campaign"
        alone.write_bytes(real.read_bytes())
        with_drawn(alone, [*kept[:250], event])
        alike = outcome(alone)
        with monkeypatch.context() as patch:
            row_by_row(patch)
            assert outcome(alone) == alike, f"seed {seed}: {event}"
        assert isinstance(alike, str), f"seed {seed}: {event}"


# The calendar's ends, stored by a hand or an import (`check` and `import` take them): no zone may
# carry them past year 1 or year 9999, which Python's datetime cannot hold.
EDGE_MOMENTS = ["0001-01-01 00:00:00.000000", "0001-01-01", "9999-12-31 23:59:59.999999", "9999-12-31"]


@pytest.mark.parametrize("when", EDGE_MOMENTS)
def test_a_moment_at_the_calendars_ends_is_shown_as_stored(
    when: str, real: Path, tmp_path: Path, zone: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log showed it by astimezone(), which raised ('year 0 is out of range' where the local time
    is UTC, 'year 10000' an hour east of it), and the log refused a file `check` calls sound."""
    from datetime import UTC, datetime

    from campaigns import history

    copy = tmp_path / "edge.campaign"
    copy.write_bytes(real.read_bytes())
    db = sqlite3.connect(copy, isolation_level=None)
    db.execute('UPDATE event SET "when" = ? WHERE id = (SELECT min(id) FROM event)', (when,))
    db.execute('UPDATE dice_roll SET "when" = ? WHERE id = (SELECT min(id) FROM dice_roll)', (when,))
    db.close()
    quick = outcome(copy)
    assert isinstance(quick, list) and any(f"{when[:10]} " in line for line in quick), quick
    with monkeypatch.context() as patch:
        row_by_row(patch)
        assert outcome(copy) == quick
    with open_campaign(copy) as store:
        assert any(f"{when[:10]} " in line for line in log.log_lines(store, dice_only=True))
    moment = datetime.fromisoformat(when).replace(tzinfo=UTC)  # as the history screen reads one
    assert history._when(moment)[:6] == ("01 Jan" if when.startswith("0001") else "31 Dec")

"""`adjutant log` streams the history: its memory does not grow with the number of events."""

from __future__ import annotations

import sqlite3
import tracemalloc
from pathlib import Path

from campaigns import oob
from campaigns.log import log_lines
from campaigns.session import CampaignSession
from models import open_campaign
from tests.templates import new_campaign


def campaign_with_events(path: Path, events: int) -> Path:
    session = CampaignSession.open(new_campaign(path, "spring1813", seed=5))
    unit = oob.side_units(oob.tree(session)[0])[1]
    oob.set_unit_flags(session, unit.id, fatigued=True)
    session.close()
    with sqlite3.connect(path) as db:  # the same action, many times over: a long history quickly
        row = db.execute('SELECT "when", kind, description, changes, undone FROM event ORDER BY id DESC LIMIT 1').fetchone()
        db.executemany('INSERT INTO event ("when", kind, description, changes, undone) VALUES (?, ?, ?, ?, ?)', [row] * events)
    db.close()
    return path


def peak_while_logging(path: Path) -> tuple[int, int]:
    with open_campaign(path) as store:
        tracemalloc.start()
        lines = sum(1 for _ in log_lines(store))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return lines, peak


def test_the_log_of_ten_times_the_events_takes_no_more_memory(tmp_path: Path) -> None:
    small_file = campaign_with_events(tmp_path / "small.campaign", 300)
    peak_while_logging(small_file)  # once first, so both are measured with the caches filled
    small_lines, small = peak_while_logging(small_file)
    big_lines, big = peak_while_logging(campaign_with_events(tmp_path / "big.campaign", 3_000))
    assert big_lines > 9 * small_lines  # every event printed, with its change
    assert big < small * 1.5 + 256_000, (small, big)

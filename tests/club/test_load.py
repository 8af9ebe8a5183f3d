"""The club benchmark's bookkeeping, small: sessions in processes of their own on one PostgreSQL
campaign lose no update, every refusal is a sentence, and a mark changed behind their backs is
counted as lost (so the benchmark's zero means something)."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy.engine import make_url

from benchmarks.bench_club import _club, _run, lost_updates
from tui.cli import main


def test_sessions_at_once_lose_nothing_and_a_lost_update_is_seen(postgres_url: str, capsys: pytest.CaptureFixture[str]):
    url = _club(postgres_url)
    try:
        run = _run(url, [("umpire", 0, 1, 3), ("session", 0, 2, 3), ("session", 1, 2, 3)])
        assert (run["lost_updates"], run["committed"], run["errors"], run["bad_refusals"]) == (0, 9, [], [])
        unit = next(iter(run["results"][-1]["last"]))
        field = "fatigued" if run["results"][-1]["kind"] == "session" else "out_of_command"
        owner = make_url(postgres_url).set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(owner, autocommit=True) as connection:
            connection.execute(f"UPDATE unit SET {field} = NOT {field} WHERE id = %s", (unit,))
        assert lost_updates(url, run["results"], *run["before"]) == 1
    finally:
        assert main(["club", "revoke", "--db", postgres_url]) == 0

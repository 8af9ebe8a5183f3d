"""The club benchmark's bookkeeping, small: umpires and players in processes of their own on one
PostgreSQL campaign, the players as their sides' roles, lose no update and no order, every refusal
is a sentence, and a mark changed or an order dropped behind their backs is counted as lost (so the
benchmark's zero means something)."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy.engine import make_url

from benchmarks.bench_club import PLAYER, UMPIRE, _club, _run, lost_updates
from tui.cli import main


def test_sessions_at_once_lose_nothing_and_a_lost_update_is_seen(postgres_url: str, capsys: pytest.CaptureFixture[str]):
    urls = _club(postgres_url)
    try:
        run = _run(urls, [(UMPIRE, 0, 2, 3), (UMPIRE, 1, 2, 3), (PLAYER, 0, 2, 3), (PLAYER, 1, 2, 3)])
        assert (run["lost_updates"], run["committed"], run["errors"], run["bad_refusals"]) == (0, 12, [], [])
        assert sorted(r["side"] for r in run["results"] if r["kind"] == PLAYER) == ["allies", "french"]
        owner = make_url(postgres_url).set(drivername="postgresql").render_as_string(hide_password=False)
        umpire = next(r for r in run["results"] if r["kind"] == UMPIRE)
        with psycopg.connect(owner, autocommit=True) as connection:
            connection.execute("UPDATE unit SET out_of_command = NOT out_of_command WHERE id = %s", (next(iter(umpire["last"])),))
        assert lost_updates(urls[UMPIRE], run["results"], *run["before"]) == 1
        with psycopg.connect(owner, autocommit=True) as connection:
            connection.execute("DELETE FROM side_order WHERE id = (SELECT max(id) FROM side_order)")
        assert lost_updates(urls[UMPIRE], run["results"], *run["before"]) == 3  # not queued, and one row short
    finally:
        assert main(["club", "revoke", "--db", postgres_url]) == 0

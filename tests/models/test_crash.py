"""A process killed at any moment of play leaves a sound file holding every action it completed."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from sqlmodel import select

from campaigns.scenario import load_scenario
from campaigns.setup import create_campaign
from models import DiceRoll, Event, Unit, check_campaign, open_campaign

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = load_scenario("spring1813")

# Plays actions until killed, printing each action's number once it has committed.
PLAYER = textwrap.dedent(
    """
    import sys
    from models import Battle, Unit, open_campaign

    store = open_campaign(sys.argv[1])
    dice = store.dice()
    units = sys.argv[2:]
    start = int(store.campaign().version)
    for n in range(start + 1, start + 100_000):
        with store.action(f"action {n}") as session:
            unit = session.get_one(Unit, units[n % len(units)])
            unit.location = f"hex {n}"
            unit.strength_points += 1
            dice.roll("2d6", f"roll of action {n}")
            if n % 5 == 0:
                session.add(Battle(turn=1, location=f"hex {n}", detail={"action": n}))
        print(n, flush=True)
    """
)


def play_until_killed(path: Path, seconds: float, committed: int = 1) -> list[int]:
    """Start a player, kill it with SIGKILL `seconds` after it has reported `committed` actions,
    and return the actions it reported."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    units = [unit.id for unit in SCENARIO.units[:5]]
    player = subprocess.Popen(
        [sys.executable, "-c", PLAYER, str(path), *units], stdout=subprocess.PIPE, env=environment, text=True
    )
    assert player.stdout is not None
    first = "".join(player.stdout.readline() for _ in range(committed))  # the player is running and has committed
    time.sleep(seconds)
    player.send_signal(signal.SIGKILL)
    rest, _ = player.communicate()
    assert player.returncode == -signal.SIGKILL
    return [int(line) for line in (first + rest).split()]


def test_a_killed_player_loses_no_completed_action(tmp_path: Path) -> None:
    path = tmp_path / "crash.campaign"
    create_campaign(path, SCENARIO, seed=8).close()
    chance = random.Random()
    seed = chance.randrange(1_000_000)
    chance.seed(seed)
    reported: list[int] = []
    for kill in range(4):
        # A kill in the middle of play: the last one after a second commit when no sleep before
        # saw one (at load 16 a sleep under 0.1 s saw none; four such sleeps, about one run in 10,000).
        committed = 2 if kill == 3 and len(reported) == 3 else 1
        reported += play_until_killed(path, chance.uniform(0.05, 0.6), committed)
        report = check_campaign(path)
        assert report.sound, f"kill seed {seed}: {report.problems}"
        assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith("-journal")) == [
            "crash.campaign"
        ]
        with open_campaign(path) as store, store.read() as session:
            done = {
                int(e.description.split()[1])
                for e in session.exec(select(Event).where(Event.kind == "action"))
            }
            assert set(reported) <= done, f"kill seed {seed}: lost {sorted(set(reported) - done)}"
            # Each committed action is whole: its roll and its march are there, the stream has no gap.
            rolls = session.exec(select(DiceRoll).order_by(DiceRoll.id)).all()
            assert [r.stream_index for r in rolls] == list(range(len(done)))
            assert store.campaign().dice_next_index == len(done) == store.campaign().version
            last = max(done)
            unit_id = SCENARIO.units[:5][last % 5].id
            assert session.get_one(Unit, unit_id).location == f"hex {last}"
    assert len(reported) > 4

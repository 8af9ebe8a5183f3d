"""The overview read with plain SQL agrees with the order of battle, and needs no SQLModel class."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from campaigns import command_points, oob
from campaigns.glance import glance
from campaigns.session import CampaignSession
from tests.templates import new_campaign

ROOT = Path(__file__).resolve().parents[2]


def test_each_army_counts_the_units_of_its_order_of_battle(tmp_path: Path):
    session = CampaignSession.open(new_campaign(tmp_path / "a.campaign", "autumn1813", seed=1))
    try:
        view = session.overview()
        sides = oob.tree(session)
        armies = {a.id: a for a in view.armies}
        assert [a.id for a in view.armies] == [n.army.id for s in sides for n in s.armies]
        for side in sides:
            for node in side.armies:
                total = oob.totals(oob.army_units(node))
                army = armies[node.army.id]
                assert (army.strength_points, army.units, army.dummies) == (
                    total.strength_points, total.units, total.dummies
                )
        for strength, node in zip(view.sides, sides):
            total = oob.totals(oob.side_units(node))
            assert (strength.strength_points, strength.units - strength.dummies, strength.dummies) == (
                total.strength_points, total.units, total.dummies
            )
    finally:
        session.close()


def test_command_points_left_follow_the_ledger(tmp_path: Path):
    session = CampaignSession.open(new_campaign(tmp_path / "s.campaign", "spring1813", seed=1))
    try:
        army = command_points.turn_points(session)[0].army
        waiting = {a.id for a in session.overview().armies if a.points_rolled is None}
        command_points.roll(session, army)
        command_points.spend(session, army, "activate_general", True)
        view = session.overview()
        glanced = {a.id: a for a in view.armies}[army]
        ledger = {a.army: a for a in command_points.turn_points(session)}[army]
        assert (glanced.points_rolled, glanced.points_left) == (ledger.rolled, ledger.balance)
        assert {a.id for a in view.armies if a.points_rolled is None} == waiting - {army}
    finally:
        session.close()


def test_the_overview_reads_no_sqlmodel_class(tmp_path: Path):
    path = tmp_path / "s.campaign"
    new_campaign(path, "spring1813", seed=1)
    code = (
        "import sys\n"
        "from campaigns.glance import glance\n"
        "from campaigns.session import CampaignSession\n"
        f"session = CampaignSession.open({str(path)!r})\n"
        "assert glance(session).view.turn == 1\n"
        "session.version(); session.status_line()\n"
        "print('models.tables' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_glance_says_what_the_phase_still_needs(tmp_path: Path):
    session = CampaignSession.open(new_campaign(tmp_path / "s.campaign", "spring1813", seed=1))
    try:
        now = glance(session)
        assert now.phase.id == "weather"
        assert now.outstanding == ("roll (or take the forced) weather for this turn",)
        assert now.next_weather == "to be rolled"
    finally:
        session.close()


def test_the_mud_a_rain_star_forces_is_this_turns_weather_before_it_is_taken(tmp_path: Path):
    """Turn 1 Rain* (1d6 = 5 +1, April): turn 2 is Mud without a roll. Before, the overview
    said "Weather now: not rolled" and "Next turn: to be rolled" until the umpire took it."""
    from campaigns import turns, weather

    session = CampaignSession.open(new_campaign(tmp_path / "s.campaign", "spring1813", seed=1))
    try:
        assert glance(session).weather_now == "not rolled"
        weather.roll(session, entered=[5])
        now = glance(session)
        assert (now.weather_now, now.next_weather) == ("Rain*", "Mud (forced by Rain*)")
        while session.overview().turn == 1:
            turns.advance(session, anyway=True)
        now = glance(session)
        assert now.view.weather is None
        assert now.weather_now == "Mud (forced by Rain*)"
        # The status line says the same, read from its two small rows and from the overview.
        from_overview = session.status_line()  # the overview glance just read, at this version
        session._overview = None  # as after an action: the status line's two small rows
        light = session.status_line()
        assert " | Mud (forced by Rain*) | " in light and "not rolled" not in light, light
        assert from_overview == light
        weather.roll(session)  # takes it
        assert glance(session).weather_now == "Mud"
        assert " | Mud | " in session.status_line()
    finally:
        session.close()


def test_the_status_line_reads_the_same_without_the_overview(tmp_path: Path):
    """The status line reads two small rows after an action, not the whole overview:
    what it shows is the same either way, before and after the weather and a turn."""
    from campaigns import turns, weather
    from models.glance import status

    session = CampaignSession.open(new_campaign(tmp_path / "s.campaign", "spring1813", seed=1))
    try:
        for step in (lambda: None, lambda: weather.roll(session), lambda: turns.advance(session)):
            step()
            light = session.status_line()  # the overview not read at this version
            view, small = session.overview(), status(session.store)
            assert session.status_line() == light  # now from the overview read just above
            assert (small.name, small.turn, small.turns, small.phase, small.date, small.weather, small.dice_mode, small.weather_before) == (
                view.name, view.turn, view.turns, view.phase, view.date, view.weather, view.dice_mode, view.weather_before
            )
    finally:
        session.close()


def test_a_days_per_turn_past_any_calendar_is_read_or_refused_in_one_sentence(tmp_path: Path):
    """A hand-edited days per turn (2**62, drawn by tests/test_hostile_edits.py) counted a day for
    every turn, even one whose row holds its day: `past --turn 2` ended in OverflowError. The day
    is counted only for a turn without its row (past the calendar's last), and there such a count
    is a damaged file."""
    import sqlite3

    from models import open_campaign
    from models.glance import overview, status

    path = tmp_path / "spring.campaign"
    new_campaign(path, "spring1813", seed=1)
    db = sqlite3.connect(path)
    db.execute("UPDATE campaign SET turn = 2, turn_days = ?", (2**62,))
    db.commit()
    with open_campaign(path) as store:  # turn 2 has its row: its day, whatever the days per turn
        assert status(store).turn == 2 and overview(store).date == status(store).date
    db.close()

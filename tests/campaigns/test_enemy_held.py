"""Moves and the enemy (option enemy_held_place): a route passes through no place the enemy holds."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from campaigns import command_points, movement
from campaigns.rules_options import choose
from campaigns.session import CampaignSession
from models import Unit
from tests.campaigns.test_theatre import new, run, set_weather


@pytest.fixture
def session(tmp_path):
    path = new(tmp_path)
    set_weather(path, "Clear")
    s = CampaignSession.open(path)
    command_points.roll(s, "army_of_the_main", [3])
    with s.store.action("test: a Prussian unit holds Erfurt, on Marmont's road from Gotha to Weimar") as db:
        prussian = db.exec(select(Unit).where(col(Unit.nation).ilike("prussia"), Unit.kind == "infantry").order_by(Unit.id)).first()
        prussian.location = "Erfurt"
    yield s
    s.close()


def test_a_route_goes_round_the_enemy_and_adjutant_route_says_the_same(session, capsys):
    report = movement.plan_move(session, "marmont", "Weimar")
    assert "Erfurt" not in report.route.places  # the cheapest road (Gotha - Erfurt - Weimar, 6 MP) passes it
    assert report.route.places[0] == "Gotha" and report.route.places[-1] == "Weimar"
    assert "Passes no place the enemy holds (option enemy_held_place)." in report.lines()
    code, out, _ = run(capsys, "route", session.where, "marmont", "Weimar")
    assert code == 0 and f"Route: {report.route.describe()} (Clear)" in out


def test_a_move_may_end_at_the_enemy(session):
    movement.activate(session, "marmont")
    said = movement.move(session, "marmont", "Erfurt")
    assert "by Gotha - Erfurt: 3 MP" in said


def test_the_umpire_may_let_a_move_through_with_a_reason(session):
    report = movement.plan_move(session, "marmont", "Weimar", override="the Prussians are asleep")
    assert report.route.describe() == "Gotha - Erfurt - Weimar"
    assert any("Through Erfurt, held by the enemy: the umpire's reason: the Prussians are asleep" in line for line in report.lines())
    movement.activate(session, "marmont")
    said = movement.move(session, "marmont", "Arnstadt", override="the Prussians are asleep")
    assert "by Gotha - Erfurt - Arnstadt" in said
    assert "through Erfurt, held by the enemy: the umpire's reason: the Prussians are asleep" in said


def test_the_option_pass_through_ignores_the_enemy(session):
    choose(session, "enemy_held_place", "pass_through")
    assert movement.plan_move(session, "marmont", "Weimar").route.describe() == "Gotha - Erfurt - Weimar"

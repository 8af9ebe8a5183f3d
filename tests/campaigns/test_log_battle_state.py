"""`adjutant log` on a tabletop battle and a note: a short summary of the battle's state
(the whole of it under --full), and the note's own text."""

from __future__ import annotations

import pytest

from campaigns import battles, notes, tabletop, weather
from campaigns.session import CampaignSession
from tests.templates import new_campaign
from tui.cli import main

FRENCH = ["xi_fressinet", "ii_cavalry_corps", "guard_artillery"]
ALLIES = ["brigade_klux", "barclay_cavalry", "blucher_artillery"]
NOTE = "Ney was late: the umpire ruled the bridge held"


@pytest.fixture
def fought(tmp_path):
    path = tmp_path / "x.campaign"
    session = CampaignSession.open(new_campaign(path, "spring1813", seed=1813))
    try:
        weather.roll(session, [2])
        draft = battles.Draft("Lützen", FRENCH, ALLIES, battles.leaders_at(session, FRENCH), battles.leaders_at(session, ALLIES), {},
                              override="forces gathered for the test")
        battle_id = battles.begin(session, draft, resolver="napoleonic_13phase")
        tabletop.start(session, battle_id)
        notes.add_note(session, 3, NOTE)
    finally:
        session.close()
    return path


def log(capsys, *args) -> str:
    assert main(["log", *map(str, args)]) == 0
    return capsys.readouterr().out


def test_the_battles_state_is_summed_up_and_a_note_shows_its_text(fought, capsys):
    out = log(capsys, fought)
    state = next(line for line in out.splitlines() if "detail.tactical (none) ->" in line)
    assert len(state) < 300, state  # was one JSON line of thousands of characters
    assert "ruleset: napoleonic_13phase" in state and "units: [18 items]" in state and "--full shows them" in state
    assert f"event note #1 added: {NOTE}" in out


def test_full_prints_the_whole_state(fought, capsys):
    out = log(capsys, "--full", fought)
    state = next(line for line in out.splitlines() if "detail.tactical (none) ->" in line)
    assert len(state) > 3000 and '"ruleset": "napoleonic_13phase"' in state and "--full" not in state

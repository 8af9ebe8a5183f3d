"""The campaign's own readings of its card: shown, changed as one action, used by the rules."""

from __future__ import annotations

import pytest

from campaigns import battles, oob, rules_options, weather
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Campaign
from tui.cli import main
from tests.templates import new_campaign


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "o.campaign", "spring1813", seed=7))
    weather.roll(s, [2])  # Clear
    yield s
    s.close()


def test_a_reading_chosen_for_the_campaign_is_used_by_its_battles(session):
    assert rules_options.choose(session, "battle_rounds", "6") == "Rules option battle_rounds: 6"
    assert session.options()["battle_rounds"] == "6"
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
    fight = battles.load(session, battles.begin(session, battles.Draft("Halle", french, allies, override="a test battle between forces placed by hand")))
    assert fight.battle is not None and fight.battle.rounds == 6
    assert "(chosen)" in rules_options.describe(session)
    # back to the default: the campaign's own choice is gone, not stored as the default
    assert rules_options.choose(session, "battle_rounds", "4") == "Rules option battle_rounds: 4 (the default)"
    assert session.campaign().options == {}


def test_a_choice_is_one_undoable_action(session):
    rules_options.choose(session, "reconnaissance_units", "any_unit")
    session.undo()
    assert session.options()["reconnaissance_units"] == "cavalry_only"


@pytest.mark.parametrize(
    "option, value, message",
    [("battle_rounds", "5", "is one of 4, 6, not '5'"), ("nosuch", "1", "has no option 'nosuch'"),
     ("battle_rounds", "4", "is 4 already")],
)
def test_a_bad_choice_is_one_sentence_and_changes_nothing(session, option, value, message):
    before = session.version()
    with pytest.raises(CampaignError, match=message):
        rules_options.choose(session, option, value)
    assert session.version() == before and session.campaign().options == {}


def test_the_command_line_shows_and_sets_the_readings(tmp_path, capsys):
    path = tmp_path / "c.campaign"
    assert main(["new", "spring1813", str(path), "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["options", str(path), "--set", "reconnaissance_units=with_cavalry"]) == 0
    assert capsys.readouterr().out == "Rules option reconnaissance_units: with_cavalry\n"
    assert main(["options", str(path)]) == 0
    out = capsys.readouterr().out
    assert "- with_cavalry (chosen): at least one cavalry unit" in out and "Card: Differential in of Cavalry SP" in out
    assert main(["options", str(path), "--set", "battle_rounds"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--set takes OPTION=VALUE" in err
    session = CampaignSession.open(path)
    try:
        with session.store.read() as db:
            assert db.get_one(Campaign, 1).options == {"reconnaissance_units": "with_cavalry"}
    finally:
        session.close()

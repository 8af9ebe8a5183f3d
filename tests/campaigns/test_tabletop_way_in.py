"""The way in to a tabletop battle (issue 24): set up whatever the weather, the
weather asked for only when the result goes back (the pursuit needs it), and a game
outside the campaign kept apart from the campaign's pending battles."""

from __future__ import annotations

import pytest

from campaigns import battles, oob, tabletop, weather
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from tests.templates import new_campaign


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "x.campaign", "spring1813", seed=1813))
    yield s
    s.close()


def draft(session):
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
    return battles.Draft("Lützen", french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies), override="a test battle between forces placed by hand")


def test_a_tabletop_battle_is_set_up_before_the_weather_is_rolled(session):
    # the campaign's tables still need it for their rounds
    with pytest.raises(CampaignError, match="roll this turn's weather before a battle"):
        battles.begin(session, draft(session))
    bid = battles.begin(session, draft(session), resolver="napoleonic_d10")
    assert battles.load(session, bid).setup["weather"] is None
    tabletop.start(session, bid)
    with pytest.raises(CampaignError, match="roll this turn's weather first .w, the weather screen.: the pursuit"):
        tabletop.end(session, bid, "attacker")
    weather.roll(session, [2])
    assert battles.load(session, bid).setup["weather"] == "clear"  # the turn's, once rolled
    tabletop.end(session, bid, "attacker")
    assert battles.load(session, bid).tabletop["winner"] == "attacker"


def test_a_game_outside_the_campaign_does_not_wait_in_the_battles_phase(session):
    game = tabletop.new_game(session, "kallistra_acw", "Gettysburg")
    assert battles.load(session, game).status == tabletop.GAME
    assert session.overview().pending_battles_this_turn == 0
    tabletop.add_unit(session, game, {"name": "1st Minnesota", "side": "attacker", "arm": "infantry", "size": "4"})
    weather.roll(session, [2])
    battles.begin(session, draft(session), resolver="kallistra_acw")
    assert session.overview().pending_battles_this_turn == 1  # the campaign's own battle waits
    assert tabletop.end(session, game, "attacker") == "Tabletop game over: the attacker held the field"
    assert battles.load(session, game).status == "done"


def test_a_unit_added_by_hand_takes_a_type_of_its_arm(session):
    game = tabletop.new_game(session, "napoleonic_13phase", "Leipzig")
    # the form's default type (infantry column) left as it was: the first artillery type
    tabletop.add_unit(session, game, {"name": "Foot battery", "side": "attacker", "arm": "artillery", "size": "4",
                                      "unit_type": "infantry_column"})
    assert tabletop.load(session, game).units["a1"].attr("unit_type") == "limbered_artillery"
    # a type chosen that is not the arm's: one sentence, with the card's types for the arm
    with pytest.raises(CampaignError, match="hussars is not one for artillery; artillery takes limbered artillery, artillery"):
        tabletop.add_unit(session, game, {"name": "Horse battery", "side": "attacker", "arm": "artillery",
                                          "size": "4", "unit_type": "hussars"})
    resolver = tabletop.load(session, game).resolver
    unit_type = next(a for a in resolver.attributes if a.id == "unit_type")
    assert unit_type.choices_for("artillery") == ("limbered_artillery", "artillery")


def test_uc_um_qualities_read_with_the_card_s_accents(session):
    from rules.resolver import get_resolver

    quality = get_resolver("napoleonic_uc_um").attributes[0]
    assert quality.label_of("veteran/intrepide") == "Vétéran/Intrépide"
    assert quality.label_of("conscrit/hesitant") == "Conscrit/Hésitant"
    formation = get_resolver("napoleonic_uc_um").attributes[1]
    assert formation.choices_for("artillery") == ("limbered", "unlimbered")
    assert formation.label_of("attack_column") == "en colonne d'attaque (attack column)"

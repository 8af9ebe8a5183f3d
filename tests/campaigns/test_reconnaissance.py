"""Reconnaissance as an action: the card's column and modifiers from the stored units."""

import pytest
from sqlalchemy import select

from campaigns import oob, reconnaissance
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Campaign, DiceRoll
from tests.templates import new_campaign


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "r.campaign", "spring1813", seed=5))
    yield s
    s.close()


def units(session, side, kind):
    tree = oob.tree(session)
    return [u for u in oob.side_units(tree[side]) if u.kind == kind]


def test_column_is_the_cavalry_differential_and_cohesion_modifies(session):
    ours, theirs = units(session, 0, "cavalry"), units(session, 1, "infantry")[:1]
    step = reconnaissance.plan(session, [u.id for u in ours], [u.id for u in theirs])
    assert step.differential == sum(u.strength_points for u in ours)  # no cavalry in the screen
    mean = sum(u.cohesion for u in ours) / len(ours) - theirs[0].cohesion
    assert step.modifier == int(mean)  # rounded toward zero (option average_cohesion)


def test_roll_is_stored_with_its_action(session):
    ours, theirs = units(session, 0, "cavalry"), units(session, 1, "cavalry")
    line = reconnaissance.reconnoitre(session, [u.id for u in ours], [u.id for u in theirs[:1]], [4])
    assert "Reconnaissance by" in line
    with session.store.read() as db:
        rolls = list(db.scalars(select(DiceRoll)))
    assert [r.raw for r in rolls] == [[4]] and rolls[0].mode == "entered"


def test_refuses_without_units(session):
    with pytest.raises(CampaignError, match="choose the units"):
        reconnaissance.plan(session, [], [])
    ours = units(session, 0, "cavalry")
    with pytest.raises(CampaignError, match="screening"):
        reconnaissance.plan(session, [ours[0].id], [])


def choose(session, **options):
    """The campaign's own rules options (Campaign.options), as an umpire sets them."""
    with session.store.action("rules options") as db:
        db.get_one(Campaign, 1).options = dict(options)


def test_a_reconnaissance_without_cavalry_is_refused(session):
    # The card reads the 'Differential in of Cavalry SP': its reconnaissance is made by cavalry.
    infantry, screen = units(session, 0, "infantry")[:1], units(session, 1, "infantry")[:1]
    with pytest.raises(CampaignError) as caught:
        reconnaissance.plan(session, [infantry[0].id], [screen[0].id])
    assert str(caught.value) == (
        "the card's reconnaissance is made by cavalry ('Differential in of Cavalry SP'): choose a cavalry unit"
        " (option reconnaissance_units=any_unit lets any unit reconnoitre)"
    )
    with session.store.read() as db:
        assert list(db.scalars(select(DiceRoll))) == []


def test_other_arms_join_the_cavalry_only_by_option(session):
    cavalry, infantry = units(session, 0, "cavalry")[:1], units(session, 0, "infantry")[:1]
    screen = units(session, 1, "infantry")[:1]
    both = [cavalry[0].id, infantry[0].id]
    with pytest.raises(CampaignError, match=r"made by cavalry \('Differential in of Cavalry SP'\), not infantry"):
        reconnaissance.plan(session, both, [screen[0].id])
    choose(session, reconnaissance_units="with_cavalry")
    step = reconnaissance.plan(session, both, [screen[0].id])
    assert step.differential == cavalry[0].strength_points  # the infantry adds no SP, only its cohesion
    with pytest.raises(CampaignError, match="choose a cavalry unit"):
        reconnaissance.plan(session, [infantry[0].id], [screen[0].id])
    choose(session, reconnaissance_units="any_unit")
    assert reconnaissance.plan(session, [infantry[0].id], [screen[0].id]).differential == 0


def ids_at(session, place):
    with session.store.read() as db:
        from models import Unit

        return [u.id for u in db.scalars(select(Unit).where(Unit.location == place))]


def test_a_reconnaissance_is_made_from_one_stack_against_a_screen_in_its_reach(session):
    from campaigns import rules_options

    eisleben, halle, weissenfels = ids_at(session, "Eisleben"), ids_at(session, "Halle"), ids_at(session, "Weissenfels")
    # Latour-Maubourg's cavalry at Eisleben; Kleist at Halle, one road away (option reconnaissance_reach = one_road).
    assert reconnaissance.reach_from(session, "Eisleben") >= {"Eisleben", "Halle"}
    reconnaissance.check_reach(session, eisleben, halle)
    assert "Reconnaissance by" in reconnaissance.reconnoitre(session, eisleben, halle, [4], in_reach=True)
    with pytest.raises(CampaignError, match="at Weissenfels is out of reach of a reconnaissance from Eisleben: it reaches an enemy at the same place or one road away"):
        reconnaissance.reconnoitre(session, eisleben, weissenfels, [4], in_reach=True)
    with pytest.raises(CampaignError, match="made from one stack: the units marked stand at Coburg and Eisleben"):
        reconnaissance.check_reach(session, eisleben + ids_at(session, "Coburg"), halle)
    rules_options.choose(session, "reconnaissance_reach", "same_place")
    with pytest.raises(CampaignError, match="it reaches an enemy at the same place \\(option reconnaissance_reach\\)"):
        reconnaissance.check_reach(session, eisleben, halle)

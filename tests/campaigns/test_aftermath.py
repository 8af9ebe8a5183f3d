"""After a battle: a unit left with 0 SP (option zero_sp_unit)."""

import pytest
from sqlalchemy import select

from campaigns import battles, oob, weather
from campaigns.account import all_accounts
from campaigns.contact import contacts, forces_at
from campaigns.errors import CampaignError
from campaigns.rules_options import choose
from campaigns.session import CampaignSession
from campaigns.stacks import all_stacks, counted_stacks
from models import General, Unit
from tests.templates import new_campaign

PLACE, OVERRIDE = "Querfurt", "the test brings both sides to Querfurt"


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "a.campaign", "spring1813", seed=1813))
    weather.roll(s, [2])
    yield s
    s.close()


def _put(session, french, allies):
    """Both sides' units at Querfurt; the allies' first one down to 1 SP."""
    with session.store.action("test: the forces meet at Querfurt") as db:
        for u in french + allies:
            unit = db.get_one(Unit, u)
            unit.location = PLACE
            if unit.general:
                db.get_one(General, unit.general).location = PLACE
        db.get_one(Unit, allies[0]).strength_points = 1


def _forces(session):
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:2]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:2]
    _put(session, french, allies)
    return french, allies


def _fought(session, french, allies, defender_lost="1"):
    """A tabletop battle at Querfurt the French win, the allies losing `defender_lost` SP (the
    largest unit first: the allies' 1-SP unit keeps its SP unless the loss reaches it)."""
    draft = battles.Draft(PLACE, french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies))
    battle_id = battles.begin(session, draft, resolver="kallistra_acw")
    battles.record_tabletop(session, battle_id, {"attacker": "0", "defender": defender_lost, "winner": "attacker"})
    if battles.load(session, battle_id).pursuit_step() is not None:
        battles.roll_pursuit(session, battle_id, [1])  # a 1: no pursuit loss
    return battle_id


def _unit(session, unit_id):
    with session.store.read() as db:
        u = db.get_one(Unit, unit_id)
        return u.location, u.strength_points, u.march_note


def _all_sp(session, allies):
    with session.store.read() as db:
        return sum(db.get_one(Unit, u).strength_points for u in allies)


def test_a_unit_at_0_sp_is_eliminated_with_the_losses_and_undone_with_them(session):
    french, allies = _forces(session)
    total = _all_sp(session, allies)
    battle_id = _fought(session, french, allies, defender_lost=str(total))  # every allied SP
    plan = battles.settlement(session, battle_id)
    assert plan.zero_sp_rule == "eliminated" and set(plan.eliminated) == set(allies)
    said = battles.apply(session, battle_id)
    assert "Eliminated at 0 SP (option zero_sp_unit)" in said
    for u in allies:
        place, sp, note = _unit(session, u)
        assert (place, sp) == ("", 0) and f"battle of {PLACE} (#{battle_id})" in note
    # never offered again: not in a stack, a contact, the forces of a place
    on_map = {u.id for s in all_stacks(session) for u in s.units}
    assert not on_map & set(allies)
    assert not [c for c in contacts(session) if c.place == PLACE]  # the allied generals alone offer no battle
    assert [c for c in contacts(session, armed=False) if c.place == PLACE]  # but are seen (contact_reveals)
    assert all(s.side == "french" or s.unit_count == 0 for s in counted_stacks(session) if s.place == PLACE)
    assert not {u.id for s in forces_at(session, PLACE) for u in s.units} & set(allies)
    with pytest.raises(CampaignError, match="off the map at 0 SP"):  # not even with the umpire's override
        battles.begin(session, battles.Draft(PLACE, french, allies[:1], override=OVERRIDE))
    # the record: the account names them; the order of battle still lists them at 0 SP
    account = "\n".join(all_accounts(session))
    assert "Left with 0 SP (option zero_sp_unit = eliminated)" in account and "eliminated, they left the map" in account
    assert set(allies) <= {u.id for u in oob.side_units(oob.tree(session)[1])}
    from campaigns.report import build, render

    told = render(build(session, battle=battle_id), "txt")
    assert "Left with 0 SP (option zero_sp_unit = eliminated)" in told and "they left the map" in told
    session.undo()  # one action: losses and elimination together
    assert _unit(session, allies[0])[:2] == (PLACE, 1)
    assert _all_sp(session, allies) == total


def test_a_unit_with_sp_left_stays(session):
    french, allies = _forces(session)
    battle_id = _fought(session, french, allies, defender_lost="1")
    plan = battles.settlement(session, battle_id)
    assert plan.eliminated == ()
    said = battles.apply(session, battle_id)
    assert "0 SP" not in said
    assert all(_unit(session, u)[0] == PLACE for u in allies)


def test_the_umpire_decides_option_leaves_it_on_the_map(session):
    french, allies = _forces(session)
    choose(session, "zero_sp_unit", "umpire_decides")
    battle_id = _fought(session, french, allies, defender_lost=str(_all_sp(session, allies)))
    said = battles.apply(session, battle_id)
    assert "stay on the map for the umpire" in said
    assert all(_unit(session, u)[:2] == (PLACE, 0) for u in allies)
    assert "they stayed on the map for the umpire" in "\n".join(all_accounts(session))


def test_a_dummy_is_never_eliminated(session):
    french, allies = _forces(session)
    with session.store.action("test: a dummy with the allies") as db:
        db.add(Unit(id="dummy_x", name="Dummy X", nation=db.get_one(Unit, allies[0]).nation, kind="dummy",
                    strength_points=0, cohesion=0, location=PLACE))
    battle_id = _fought(session, french, [*allies, "dummy_x"], defender_lost="1")
    assert "dummy_x" not in battles.settlement(session, battle_id).eliminated
    battles.apply(session, battle_id)
    assert _unit(session, "dummy_x")[0] == PLACE


# -- the loser's retreat (option loser_retreat) ----------------------------------------


def _applied(session):
    french, allies = _forces(session)
    battle_id = _fought(session, french, allies, defender_lost="1")
    battles.apply(session, battle_id)
    return battle_id, french, allies


def test_the_umpire_retreats_the_loser_to_an_adjacent_place(session):
    from campaigns.aftermath import plan_retreat, retreat

    french, allies = _forces(session)
    battle_id = _fought(session, french, allies, defender_lost="1")
    assert "R on the battles screen retreats the defender (option loser_retreat)" in battles.apply(session, battle_id)
    plan = plan_retreat(session, battle_id)
    assert plan.loser == "defender" and {u for u, _ in plan.units} == set(allies)
    assert {p for p, _ in plan.choices} == {"Eisleben", "Freyburg", "Merseburg", "Sangerhausen"}
    with pytest.raises(CampaignError, match="not one road from Querfurt"):
        retreat(session, battle_id, "Dresden")
    said = retreat(session, battle_id, "Sangerhausen")
    assert "retreats from Querfurt to Sangerhausen" in said
    assert all(_unit(session, u)[0] == "Sangerhausen" for u in allies)
    assert all(_unit(session, u)[0] == PLACE for u in french)  # the winner holds the field
    assert not [c for c in contacts(session) if c.place == PLACE]
    with pytest.raises(CampaignError, match="retreated from .* already"):
        retreat(session, battle_id, "Eisleben")
    assert "Retreat: the defender to Sangerhausen" in "\n".join(all_accounts(session))
    session.undo()
    assert all(_unit(session, u)[0] == PLACE for u in allies)


def test_a_retreat_into_the_enemy_needs_a_reason(session):
    from campaigns.aftermath import plan_retreat, retreat

    battle_id, french, allies = _applied(session)
    with session.store.action("test: a French unit at Eisleben") as db:
        db.get_one(Unit, french[0]).location = "Eisleben"
    assert dict(plan_retreat(session, battle_id).choices)["Eisleben"] is True
    with pytest.raises(CampaignError, match="enemy holds Eisleben"):
        retreat(session, battle_id, "Eisleben")
    assert "the umpire's reason: cut through" in retreat(session, battle_id, "Eisleben", reason="cut through")


def test_no_retreat_before_the_result_or_under_the_option_stays(session):
    from campaigns.aftermath import plan_retreat

    french, allies = _forces(session)
    battle_id = _fought(session, french, allies)
    with pytest.raises(CampaignError, match="not applied yet"):
        plan_retreat(session, battle_id)
    battles.apply(session, battle_id)
    choose(session, "loser_retreat", "stays")
    with pytest.raises(CampaignError, match="the loser stays"):
        plan_retreat(session, battle_id)


def _general_at(session, place, allies):
    """An allied general who takes no part in the battle (none of his units fights), put at `place`."""
    with session.store.action(f"test: an allied general at {place}") as db:
        fighting = {db.get_one(Unit, u).general for u in allies}
        nation = db.get_one(Unit, allies[0]).nation
        general = next(g for g in db.scalars(select(General).where(General.nation == nation).order_by(General.id))
                       if g.id not in fighting and g.location != place)
        general.location = place
        return general.id, general.name


def _where(session, general_id):
    with session.store.read() as db:
        return db.get_one(General, general_id).location


def test_a_general_left_alone_at_the_place_goes_with_the_retreat(session):
    """Option retreat_generals_left = go_with_the_retreat: a general of the beaten side at the
    battle's place who did not fight is not left alone among the victors; the history says so."""
    from campaigns.aftermath import plan_retreat, retreat
    from models import Event

    french, allies = _forces(session)
    alone, name = _general_at(session, PLACE, allies)
    battle_id = _fought(session, french, allies, defender_lost="1")
    battles.apply(session, battle_id)
    plan = plan_retreat(session, battle_id)
    assert plan.alone == ((alone, name),)
    said = retreat(session, battle_id, "Sangerhausen")
    assert f"left alone at {PLACE}: {name}" in said
    assert _where(session, alone) == "Sangerhausen"
    with session.store.read() as db:
        told = db.scalars(select(Event.description).order_by(Event.id.desc())).first()
    assert "the defender retreats to Sangerhausen" in told and f"left alone at {PLACE}: {name}" in told
    assert all(n in told for _, n in plan.units) and all(n in told for _, n in plan.generals)
    session.undo()
    assert _where(session, alone) == PLACE


def test_a_general_with_troops_of_his_side_staying_stays(session):
    from campaigns.aftermath import plan_retreat, retreat

    french, allies = _forces(session)
    alone, _ = _general_at(session, PLACE, allies)
    with session.store.action("test: an allied unit that does not fight, at Querfurt") as db:
        other = next(u for u in db.scalars(select(Unit).where(Unit.nation == db.get_one(Unit, allies[0]).nation))
                     if u.id not in allies and u.kind != "dummy" and u.strength_points > 0)
        other.location = PLACE
    battle_id = _fought(session, french, allies, defender_lost="1")
    battles.apply(session, battle_id)
    assert plan_retreat(session, battle_id).alone == ()
    retreat(session, battle_id, "Sangerhausen")
    assert _where(session, alone) == PLACE


def test_under_the_option_stay_the_other_generals_stay(session):
    from campaigns.aftermath import plan_retreat, retreat

    french, allies = _forces(session)
    alone, _ = _general_at(session, PLACE, allies)
    choose(session, "retreat_generals_left", "stay")
    battle_id = _fought(session, french, allies, defender_lost="1")
    battles.apply(session, battle_id)
    assert plan_retreat(session, battle_id).alone == ()
    retreat(session, battle_id, "Sangerhausen")
    assert _where(session, alone) == PLACE

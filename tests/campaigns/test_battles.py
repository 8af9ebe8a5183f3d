"""Battles in the campaign: set-up from stored forces, the fight, the hand-off, applying."""

import pytest

from campaigns import battles, oob, weather
from campaigns.account import all_accounts
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Unit
from tests.templates import new_campaign

# Forces from all over the map: the umpire overrides contact (campaigns/contact.py).
GATHERED = "forces gathered from the whole map for the test"


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "b.campaign", "spring1813", seed=1813))
    weather.roll(s, [2])  # April +1: 3, Clear
    yield s
    s.close()


def forces(session):
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:2]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:2]
    return french, allies


def draft(session, **facts):
    french, allies = forces(session)
    return battles.Draft(
        "Lützen", french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies), facts,
        override=GATHERED,
    )


def sp(session, unit_ids):
    with session.store.read() as db:
        return {u: db.get_one(Unit, u).strength_points for u in unit_ids}


def fight_to_the_end(session, battle_id, entered=None):
    while True:
        fight = battles.load(session, battle_id)
        step = fight.next_step
        if step is None:
            break
        if step.kind == "morale test" and step.dice is None:
            battles.record_morale(session, battle_id, True)
        else:
            battles.roll_step(session, battle_id, entered)
    if battles.load(session, battle_id).pursuit_step() is not None:
        battles.roll_pursuit(session, battle_id, entered)


def test_set_up_takes_the_stored_forces_and_weather(session):
    d = draft(session)
    battle_id = battles.begin(session, d)
    fight = battles.load(session, battle_id)
    attacker = fight.setup["sides"]["attacker"]
    assert sum(attacker["sp_by_arm"].values()) == sum(sp(session, d.attacker_units).values())
    assert fight.setup["weather"] == "clear"
    assert fight.status == "pending" and fight.journal == []


def test_stored_state_fills_the_situation(session):
    french, allies = forces(session)
    with session.store.action("Entrenched before the battle (set up by hand)") as db:
        db.get_one(Unit, allies[0]).entrenched = True  # entrenching is paid for: see test_theatre
    oob.set_unit_flags(session, french[0], fatigued=True)
    facts = battles.suggested_facts(session, french, allies)
    assert facts["defender_entrenched"] and facts["attacker_fatigued"] and not facts["flank_attack"]


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(location=" "), "say where"),
        (dict(attacker_units=[]), "at least one force"),
        (dict(defender_units=["nosuch"]), "there is no unit 'nosuch'"),
    ],
)
def test_bad_set_up_is_refused_and_stores_nothing(session, change, message):
    d = draft(session)
    for key, value in change.items():
        setattr(d, key, value)
    with pytest.raises(CampaignError, match=message):
        battles.begin(session, d)
    assert battles.battles(session) == []


def test_same_side_is_refused(session):
    french, _ = forces(session)
    d = battles.Draft("X", french[:1], french[1:2])
    with pytest.raises(CampaignError, match="same side"):
        battles.begin(session, d)


@pytest.mark.parametrize("resolver", [battles.TABLES, "kallistra_acw"])
def test_open_terrain_with_mountain_is_refused_in_one_sentence(session, resolver):
    # 'Defence is open terrain: D +1' excludes 'Defender in mountain: A –1L'.
    d = draft(session, defence_in_open_terrain=True, defender_in_mountain=True)
    with pytest.raises(CampaignError) as caught:
        battles.begin(session, d, resolver)
    assert str(caught.value) == (
        "the card's 'Defence is open terrain: D +1' excludes 'Defender in mountain': the defender cannot be in both"
    )
    assert battles.battles(session) == []


def test_a_battle_needs_the_weather(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "w.campaign", "spring1813", seed=1))
    french, allies = forces(s)
    with pytest.raises(CampaignError, match="weather"):
        battles.begin(s, battles.Draft("X", french, allies))


def test_first_step_by_hand(session):
    """Entered dice make the first combat roll checkable by hand against the card."""
    battle_id = battles.begin(session, draft(session))
    fight = battles.load(session, battle_id)
    step = fight.next_step
    assert (step.round_number, step.side, step.kind) == (1, "attacker", "combat")
    line = battles.roll_step(session, battle_id, [6])
    modified = 6 + step.modifier
    column = step.column
    from rules import lookup
    from rules.allemagne1813.combat import whole_sp  # noqa: F401  (the column was read from these SP)

    cell = lookup("allemagne1813", "combat", roll=min(max(modified, -1), 10), sp=int(column.split("-")[0].split()[0]))
    assert f"-> {cell.text}" in line


def test_whole_battle_applied_as_one_action_and_undone(session):
    d = draft(session)
    before = sp(session, d.attacker_units + d.defender_units)
    battle_id = battles.begin(session, d)
    fight_to_the_end(session, battle_id)
    plan = battles.settlement(session, battle_id)
    battles.apply(session, battle_id)
    after = sp(session, d.attacker_units + d.defender_units)
    assert sum(before.values()) - sum(after.values()) == plan.losses["attacker"] + plan.losses["defender"]
    assert all(after[u] == before[u] - plan.by_unit.get(u, 0) for u in before)
    assert battles.load(session, battle_id).status == "done"
    session.undo()
    assert sp(session, list(before)) == before
    assert battles.load(session, battle_id).status == "pending"


def test_pending_battle_survives_a_restart(session, tmp_path):
    battle_id = battles.begin(session, draft(session))
    battles.roll_step(session, battle_id, [4])
    battles.roll_step(session, battle_id, [3])
    steps_before = battles.load(session, battle_id).next_step
    lost_before = battles.load(session, battle_id).battle.sp_lost("defender")
    path = session.store.name
    session.close()
    again = CampaignSession.open(path)
    fight = battles.load(again, battle_id)
    assert fight.next_step == steps_before
    assert fight.battle.sp_lost("defender") == lost_before
    fight_to_the_end(again, battle_id)
    battles.apply(again, battle_id)
    again.close()


def test_tabletop_hand_off_and_back(session):
    d = draft(session)
    before = sp(session, d.attacker_units + d.defender_units)
    battle_id = battles.begin(session, d, resolver="kallistra_acw")
    with pytest.raises(CampaignError, match="whole number"):
        battles.record_tabletop(session, battle_id, {"attacker": "x", "defender": "1", "winner": "attacker"})
    with pytest.raises(CampaignError, match="held the field"):
        battles.record_tabletop(session, battle_id, {"attacker": "1", "defender": "1", "winner": "nobody"})
    with pytest.raises(CampaignError, match="cannot lose"):
        battles.record_tabletop(session, battle_id, {"attacker": "999", "defender": "1", "winner": "attacker"})
    battles.record_tabletop(session, battle_id, {"attacker": "1", "defender": "2", "winner": "attacker"})
    fight = battles.load(session, battle_id)
    if fight.pursuit_step() is not None:
        battles.roll_pursuit(session, battle_id, [1])  # a 1 on the pursuit table: no loss
    plan = battles.settlement(session, battle_id)
    assert plan.winner == "attacker" and plan.losses == {"attacker": 1, "defender": 2}
    battles.apply(session, battle_id)
    after = sp(session, list(before))
    assert sum(before.values()) - sum(after.values()) == 3


def test_after_action_account(session):
    battle_id = battles.begin(session, draft(session))
    fight_to_the_end(session, battle_id, [5])
    battles.apply(session, battle_id)
    text = "\n".join(all_accounts(session))
    assert "Battle of Lützen (#1)" in text and "Result:" in text and "battle round 1" in text


def test_the_list_of_battles_is_what_is_stored_without_the_set_ups(session):
    """The battles' list (the Battles screen, the palette) reads plain rows, not each battle's
    set-up and journal: the same battles, in the same order, with the same columns as the
    stored rows, a battle done and one pending."""
    from sqlmodel import select

    from models import Battle

    done = battles.begin(session, draft(session))
    fight_to_the_end(session, done, [5])
    battles.apply(session, done)
    pending = battles.begin(session, draft(session), resolver="kallistra_acw")
    with session.store.read() as db:
        stored = [(b.id, b.turn, b.location, b.status, b.resolver, b.result) for b in db.exec(select(Battle).order_by(Battle.id))]
    assert [tuple(b) for b in battles.battles(session)] == stored
    assert [(b.id, b.status) for b in battles.battles(session)] == [(done, "done"), (pending, "pending")]
    assert battles.battles(session)[0].result.startswith("attacker wins") or battles.battles(session)[0].result.startswith("defender wins")


def test_allocation_takes_an_arm_from_its_biggest_unit():
    units = [
        Unit(id="a", name="A", nation="n", kind="infantry", strength_points=5, cohesion=3),
        Unit(id="b", name="B", nation="n", kind="infantry", strength_points=3, cohesion=3),
        Unit(id="c", name="C", nation="n", kind="cavalry", strength_points=2, cohesion=3),
    ]
    # 5/3: a loses to 4, then 3; on the tie a (first) loses again; the next goes to b.
    assert battles.allocate(units, {"infantry": 3, "cavalry": 1}) == {"a": 3, "c": 1}
    assert battles.allocate(units, {"infantry": 4}) == {"a": 3, "b": 1}
    assert battles.allocate(units, {"cavalry": 5}) == {"c": 2}  # never below 0


def test_the_conversion_is_shown_and_can_be_edited_before_the_battle(session):
    battle_id = battles.begin(session, draft(session), resolver="napoleonic_13phase")
    conversion, order = battles.tactical_order(battles.load(session, battle_id), "attacker")
    sizes = {u.size for u in order.units if u.arm == "infantry"}
    assert sizes == {conversion.size["infantry"]}
    with pytest.raises(CampaignError, match=r"'0' is too small for infantry \(at least 1\)"):
        battles.edit_conversion(session, battle_id, {"infantry": "0"})
    with pytest.raises(CampaignError, match=r"'3000000000' is too large for infantry \(at most 99999\)"):
        battles.edit_conversion(session, battle_id, {"infantry": "3000000000"})
    battles.edit_conversion(session, battle_id, {"infantry": "6", "sp_per_unit": "2"})
    conversion, order = battles.tactical_order(battles.load(session, battle_id), "attacker")
    assert conversion.size["infantry"] == 6 and conversion.sp_per_unit == 2
    assert {u.size for u in order.units if u.arm == "infantry"} == {6}
    battles.record_tabletop(session, battle_id, {"attacker": "0", "defender": "0", "winner": "defender"})
    with pytest.raises(CampaignError, match="before the tabletop result"):
        battles.edit_conversion(session, battle_id, {"infantry": "4"})


def test_a_game_outside_the_campaign_has_no_losses_to_apply_and_says_so(tmp_path):
    from campaigns import tabletop

    session = CampaignSession.open(new_campaign(tmp_path / "game.campaign", "spring1813", seed=1))
    try:
        game = tabletop.new_game(session, "napoleonic_d10", "Wagram")
        with pytest.raises(CampaignError, match="units entered by hand: it has no campaign losses to apply"):
            battles.settlement(session, game)
    finally:
        session.close()

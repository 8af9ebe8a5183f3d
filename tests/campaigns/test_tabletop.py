"""A battle on the tabletop: the tactical order of battle stored in the campaign,
resolutions with their dice in the campaign's records, and the losses back."""

import re

import pytest

from campaigns import battles, tabletop, weather
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Unit
from tests.campaigns.test_battles import draft, session, sp  # noqa: F401 - the session fixture
from tests.templates import new_campaign


@pytest.fixture
def battle(session):  # noqa: F811
    battle_id = battles.begin(session, draft(session), resolver="kallistra_acw")
    tabletop.start(session, battle_id)
    return battle_id


def units_of(session, battle_id, side):  # noqa: F811 - the fixture's name, as a parameter
    return tabletop.load(session, battle_id).side_units(side)


def to_phase(session, battle_id, phase_id):  # noqa: F811
    while tabletop.load(session, battle_id).phase.id != phase_id:
        tabletop.next_phase(session, battle_id)


def test_the_campaign_forces_become_units_by_the_conversion(session, battle):  # noqa: F811
    table = tabletop.load(session, battle)
    fight = battles.load(session, battle)
    for role in ("attacker", "defender"):
        forces = fight.setup["sides"][role]["forces"]
        units = table.side_units(role)
        # one regiment per SP (sp_per_unit = 1), of 4 stands for infantry, from a campaign force
        assert len([u for u in units if u.force]) == sum(f[3] for f in forces if f[2] in ("infantry", "cavalry", "artillery"))
        # [artillery_bonus] units_per_point = 1: a battery of 2 stands per point of AB,
        # carrying no SP back (no campaign force on the table)
        guns = [u for u in units if u.force is None]
        assert len(guns) == sum(f[5] for f in forces) and all(u.arm == "artillery" and u.size == 2 for u in guns)
        assert all(u.name.endswith("AB guns") for u in guns)
    first = table.side_units("attacker")[0]
    assert first.size == first.start == 4 and first.attr("weapon") == "RM" and first.force
    assert table.position == tabletop.Position(1, "attacker", 0)
    with pytest.raises(CampaignError, match="already on the tabletop"):
        tabletop.start(session, battle)
    with pytest.raises(CampaignError, match="change them on the resolver screen"):
        battles.edit_conversion(session, battle, {"infantry": "3"})
    with pytest.raises(CampaignError, match="ending it there returns the result"):
        battles.record_tabletop(session, battle, {"attacker": "1", "defender": "1", "winner": "attacker"})


def test_a_resolution_is_one_action_with_its_dice_in_the_records(session, battle):  # noqa: F811
    a = units_of(session, battle, "attacker")[0]
    d = units_of(session, battle, "defender")[0]
    with pytest.raises(CampaignError, match="not done in the movement phase"):
        tabletop.resolve(session, battle, "small_arms_fire", a.id, d.id, numbers={"range": 2})
    to_phase(session, battle, "simultaneous_fire")
    before = session.version()
    shown = tabletop.resolve(session, battle, "small_arms_fire", a.id, d.id, numbers={"range": 2}, entered=[12, 12, 1])
    assert "[12 12 1]" in shown and "2 hits" in shown
    assert session.version() > before
    table = tabletop.load(session, battle)
    assert table.units[d.id].attr("hits") == 2
    entry = table.log[-1]
    assert entry["raw"] == [12, 12, 1] and entry["mode"] == "entered"
    assert entry["needed"] == {"elite": "6+", "regular": "7+", "militia": "8+"}[a.attr("quality")]  # RM at 2 hexes
    with session.store.read() as db:
        from sqlalchemy import select

        from models import DiceRoll

        last = db.scalars(select(DiceRoll).order_by(DiceRoll.id.desc())).first()
    assert last is not None and list(last.raw) == [12, 12, 1] and f"needs {entry['needed']}" in last.purpose
    # the phase cannot end with hits waiting
    with pytest.raises(CampaignError, match="has 2 hits to read on the combat table"):
        tabletop.next_phase(session, battle)
    tabletop.resolve(session, battle, "combat", d.id)
    assert tabletop.load(session, battle).units[d.id].has("disrupted")
    tabletop.next_phase(session, battle)


def test_bad_input_changes_nothing(session, battle):  # noqa: F811
    a = units_of(session, battle, "attacker")[0]
    before = session.version()
    stored = tabletop.load(session, battle)
    for call, message in [
        (lambda: tabletop.resolve(session, battle, "move", "zz9"), "there is no unit 'zz9'"),
        (lambda: tabletop.resolve(session, battle, "fly", a.id), "'fly' is not a resolution"),
        (lambda: tabletop.resolve(session, battle, "move", a.id, ticked=["cover"]), "not a modifier the card lists"),
        (lambda: tabletop.resolve(session, battle, "move", a.id, entered=[3]), "rolls no dice"),
        (lambda: tabletop.edit_unit(session, battle, a.id, {"size": "-1"}), r"'-1' is too small for a unit's size in stands \(at least 0\)"),
        (lambda: tabletop.edit_unit(session, battle, a.id, {"size": str(2**40)}), r"too large for a unit's size in stands \(at most 99999\)"),
        (lambda: tabletop.edit_unit(session, battle, a.id, {"size": "²"}), r"'²' is not a whole number"),
        (lambda: tabletop.edit_unit(session, battle, a.id, {"size": "9"}), r"more stands \(9\) than it began with \(4\)"),
        (lambda: tabletop.edit_unit(session, battle, a.id, {"weapon": "musket"}), "Small arms is one of SM, RM"),
        (lambda: tabletop.add_unit(session, battle, {"name": "", "side": "attacker", "arm": "infantry", "size": "4"}), "needs a name"),
        (lambda: tabletop.add_unit(session, battle, {"name": "X", "side": "rebels", "arm": "infantry", "size": "4"}), "side is attacker or defender"),
        (lambda: tabletop.set_option(session, battle, "hits_on_one_hex", "sometimes"), "hits_on_one_hex is one of"),
    ]:
        with pytest.raises(CampaignError, match=message):
            call()
    assert session.version() == before
    assert tabletop.load(session, battle) == stored


def test_entered_dice_must_fit_the_dice(session, battle):  # noqa: F811
    to_phase(session, battle, "simultaneous_fire")
    a = units_of(session, battle, "attacker")[0]
    d = units_of(session, battle, "defender")[0]
    with pytest.raises(CampaignError, match="d12 shows 1 to 12"):
        tabletop.resolve(session, battle, "small_arms_fire", a.id, d.id, numbers={"range": 2}, entered=[13, 1, 1])


def test_units_entered_by_hand_markers_and_options(session, battle):  # noqa: F811
    tabletop.add_unit(session, battle, {"name": "Iron Brigade", "side": "defender", "arm": "infantry", "size": "4",
                                        "quality": "elite", "weapon": "RM"})
    table = tabletop.load(session, battle)
    new = [u for u in table.units.values() if u.name == "Iron Brigade"][0]
    assert new.force is None and new.attr("quality") == "elite" and new.id.startswith("d")
    tabletop.edit_unit(session, battle, new.id, {"size": "3", "formation": "column"})
    tabletop.set_state(session, battle, new.id, "disrupted", True)
    table = tabletop.load(session, battle)
    assert table.units[new.id].size == 3 and table.units[new.id].attr("formation") == "column"
    assert table.units[new.id].has("disrupted")
    tabletop.set_option(session, battle, "hits_on_one_hex", "separately")
    assert tabletop.load(session, battle).options["hits_on_one_hex"] == "separately"
    session.undo()
    assert tabletop.load(session, battle).options["hits_on_one_hex"] == "added"


def test_the_umpire_goes_back_a_phase_within_the_bound(session, battle):  # noqa: F811
    with pytest.raises(CampaignError, match="begins with this phase; undo"):
        tabletop.previous_phase(session, battle)
    to_phase(session, battle, "simultaneous_fire")
    assert tabletop.previous_phase(session, battle) == "Back to artillery fire"
    assert tabletop.load(session, battle).phase.id == "artillery_fire"


def test_states_that_last_a_bound_run_out_at_the_next_bound(session, battle):  # noqa: F811
    a = units_of(session, battle, "attacker")[0]
    d = units_of(session, battle, "defender")[0]
    tabletop.resolve(session, battle, "declare_charge", a.id, d.id)
    assert tabletop.load(session, battle).units[a.id].states == {"charging": 1}
    # The charged unit has not tested its response: the movement phase cannot end.
    with pytest.raises(CampaignError, match=f"must test its response to the charge of {re.escape(a.name)}"):
        tabletop.next_phase(session, battle)
    tabletop.resolve(session, battle, "response_to_charge", d.id, a.id, entered=[6])  # more than 3: stands
    to_phase(session, battle, "hand_to_hand")
    tabletop.next_phase(session, battle)  # the defender's bound
    table = tabletop.load(session, battle)
    assert table.position == tabletop.Position(1, "defender", 0)
    assert table.units[a.id].states == {}


def test_the_battle_survives_closing_the_file_and_goes_back_unit_by_unit(session, battle):  # noqa: F811
    to_phase(session, battle, "simultaneous_fire")
    d = units_of(session, battle, "defender")[0]
    a = units_of(session, battle, "attacker")[0]
    tabletop.set_option(session, battle, "hits_on_one_hex", "separately")
    # Elite class? the converted class of the first attacker decides; 3 twelves are 3 hits at 1 hex
    tabletop.resolve(session, battle, "small_arms_fire", a.id, d.id, numbers={"range": 1}, entered=[12, 12, 12])
    left = tabletop.load(session, battle).units[d.id].size
    tabletop.edit_unit(session, battle, d.id, {"size": "0"})  # the players say it is gone
    from campaigns.account import account

    told = "\n".join(account(session, battle))
    assert "On the tabletop under kallistra_acw: 2 entries" in told
    # the tactical order of battle, to hand the players: every unit put on the table, at the start and now
    table = tabletop.load(session, battle)
    assert f"The tactical order of battle: {len(table.units)} units (stands at the start -> now)" in told
    assert f"    {d.id} {d.name} (defender, {d.arm}): {d.start} -> 0 stands" in told and ", off the table" in told
    assert f"    {a.id} {a.name} (attacker, {a.arm}): {a.start} -> {table.units[a.id].size} stands" in told
    assert f"{a.name} (attacker), small arms fire at {d.name} [12 12 12]" in told
    # the umpire's edit, old → new, under the side of the unit edited
    assert f"{d.name} (defender), edit: umpire's edit: Stands now {left} → 0; Removed from the table no → yes" in told
    path = session.store.name
    session.close()
    again = CampaignSession.open(path)
    table = tabletop.load(again, battle)
    assert table.units[d.id].removed and table.units[d.id].lost == 4
    back = tabletop.returned(again, battle, "attacker")
    force = table.units[d.id].force
    # 4 stands of infantry lost = one regiment = 1 SP (conversion: 4 stands per SP)
    assert back.sp_by_force == {force: 1} and back.sp_by_side == {"attacker": 0, "defender": 1}
    before = sp(again, [force])[force]
    tabletop.end(again, battle, "attacker")
    with pytest.raises(CampaignError, match="is over"):
        tabletop.next_phase(again, battle)
    fight = battles.load(again, battle)
    if fight.pursuit_step() is not None:
        battles.roll_pursuit(again, battle, [1])
    plan = battles.settlement(again, battle)
    assert plan.by_unit[force] >= 1 and plan.winner == "attacker"
    battles.apply(again, battle)
    with again.store.read() as db:
        assert db.get_one(Unit, force).strength_points == before - plan.by_unit[force]
    again.undo()  # the apply
    again.undo()  # the end
    assert tabletop.load(again, battle).ended is None
    again.close()


def test_a_tabletop_game_outside_the_campaign(session):  # noqa: F811
    with pytest.raises(CampaignError, match="has no tabletop resolver"):
        tabletop.new_game(session, "chess", "Board")
    battle_id = tabletop.new_game(session, "kallistra_acw", "Gettysburg")
    tabletop.add_unit(session, battle_id, {"name": "1st Minnesota", "side": "attacker", "arm": "infantry", "size": "4"})
    tabletop.add_unit(session, battle_id, {"name": "Wilcox", "side": "defender", "arm": "infantry", "size": "4"})
    assert tabletop.returned(session, battle_id, "defender").sp_by_force == {}
    tabletop.end(session, battle_id, "defender")
    row = [b for b in battles.battles(session) if b.id == battle_id][0]
    assert row.status == "done" and "defender held the field" in row.result


def test_a_tabletop_battle_on_both_back_ends_and_two_umpires(campaign_target):
    first = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=7))
    try:
        weather.roll(first, [2])
        battle_id = battles.begin(first, draft(first), resolver="kallistra_acw")
        tabletop.start(first, battle_id)
        second = CampaignSession.open(campaign_target)
        try:
            a = units_of(first, battle_id, "attacker")[0]
            tabletop.resolve(first, battle_id, "move", a.id)
            # the second umpire, on what it saw before the move, is refused; nothing is written
            before = tabletop.load(second, battle_id)
            with pytest.raises(CampaignError, match="another umpire changed the campaign"):
                tabletop.next_phase(second, battle_id)
            assert tabletop.load(first, battle_id) == before
            # once it has reloaded (F5) it sees the move and acts on the battle in turn
            second.reload()
            assert tabletop.load(second, battle_id).log[-1]["action"] == "move"
            tabletop.next_phase(second, battle_id)
            first.reload()
            assert tabletop.load(first, battle_id).phase.id == "artillery_fire"
            tabletop.end(first, battle_id, "attacker")
            assert battles.load(second, battle_id).tabletop["winner"] == "attacker"
        finally:
            second.close()
    finally:
        first.close()


def test_a_campaign_with_a_tabletop_battle_exports_and_imports(session, battle, tmp_path):  # noqa: F811
    """The battle names its tactical rule set; its set-up holds the campaign's options (the
    operational rule set's): the export's check read them against the tactical one and called
    the file damaged, so no campaign with a battle on the tabletop could be exported."""
    from tests.test_hostile_files import run

    # `adjutant export` and `adjutant import` run in this process (tui.cli.main, with its own
    # standard streams): a process of its own cost a second of CPU each, and what is checked
    # here is the export's check of the set-up, not the process (tests/campaigns/test_output.py
    # and test_cli_fresh_process.py start the real command).
    code, exported, err = run("export", str(tmp_path / "b.campaign"))
    assert code == 0, err
    document = tmp_path / "with-tabletop.json"
    document.write_bytes(exported)
    copy = tmp_path / "copy.campaign"
    code, _out, err = run("import", str(document), str(copy))
    assert code == 0, err
    again = CampaignSession.open(copy)
    try:
        assert tabletop.load(again, battle).resolver.ruleset == "kallistra_acw"
        assert battles.load(again, battle).setup["options"] == battles.load(session, battle).setup["options"]
    finally:
        again.close()

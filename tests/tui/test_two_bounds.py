"""A whole battle in the rule sets where each side has a bound of its own (issue 24, item
7): Kallistra's ACW and the UC/UM rules, two full turns of both bounds, every phase and
every kind of resolution the card has, a change of target in the resolution form with
the number needed read against the card, an edit mid-battle (old → new in the account
and the log; the tests and the end conversion read the same losses), the end, the return
to the campaign and the checks of the file and the account.

The forces and the way of playing are those of test_two_turns.py (tabletop_play).
"""

from __future__ import annotations

from campaigns import tabletop, weather
from tests.tui.polling import caught_up

from .tabletop_play import (
    Play,
    account,
    applied,
    edit,
    end_and_apply,
    handed_off,
    needs,
    offered,
    on_resolver,
    open_form,
    retarget,
    roll_typed,
    strengths,
)

KALLISTRA_KINDS = {"move", "rally", "declare_charge", "response_to_charge", "evade", "artillery_fire",
                   "small_arms_fire", "canister", "hand_to_hand", "combat", "rout", "recoil"}


def read_hits(play: Play) -> None:
    """Hits waiting on the combat table are read before the phase ends (the checklist waits)."""
    for unit in play.table.units.values():
        if unit.attr("hits") and not unit.removed:
            play.act("combat", unit.id)


async def test_kallistra_acw_two_turns_to_the_end(campaign_file, make_app, capsys):
    before = strengths(campaign_file)
    bid = handed_off(campaign_file, "kallistra_acw")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_resolver(pilot)
        play = Play(app.session, bid)
        tabletop.add_unit(app.session, bid, dict(name="Skirmishers", side="defender", arm="infantry", size="1",
                                                 skirmishing="yes"))
        # a1-a2 31st Division (militia, RM), a3-a5 cavalry, a6 Guard battery (12lb);
        # d1-d4 Langeron's infantry, d6-d7 Chaplits' cavalry, d8 battery, d11 skirmishers

        # -- turn 1, the attacker's bound. Movement: charges and the responses
        play.act("move", "a1")
        play.act("declare_charge", "a3", "d1")
        # "Response to charge": d1 fails and routs; hand to hand is no longer against it
        assert "must route" in play.act("response_to_charge", "d1", "a3", dice=[1])["text"]
        play.act("declare_charge", "a4", "d2")
        play.act("response_to_charge", "d2", "a4", dice=[6])
        play.act("declare_charge", "a5", "d11")
        play.act("evade", "d11")
        play.next()
        # Artillery fire
        play.act("artillery_fire", "a6", "d3", numbers={"range": 3})
        read_hits(play)
        play.next()
        # Simultaneous fire, through the form: "+2 skirmishing infantry" follows the target
        modal = await open_form(pilot, "a1", "small_arms_fire")
        modal.numbers["range"].value = "1"
        await caught_up(pilot)
        at_line = await retarget(pilot, modal, "d4")
        at_skirmishers = await retarget(pilot, modal, "d11")
        assert "skirmishing" not in at_line and "+2 skirmishing" in at_skirmishers
        assert int(at_skirmishers.split()[1].rstrip("+")) == int(at_line.split()[1].rstrip("+")) + 2
        assert (await retarget(pilot, modal, "d4")) == at_line
        await roll_typed(pilot, [12, 12, 12])  # 4 stands fire 3 dice: "roll one D12 per stand ... less one"
        assert play.table.log[-1]["target"] == "d4"
        play.act("small_arms_fire", "d4", "a1", numbers={"range": 1})
        play.act("canister", "d8", "a2")
        read_hits(play)
        play.next()
        # Hand to hand: only the unit that stood is offered
        assert [u.id for u in tabletop.reachable(play.table, "hand_to_hand", "a3")[0]] == []
        assert "not in contact" in play.refused("hand_to_hand", "a3", "d1")
        modal = await open_form(pilot, "a4", "hand_to_hand")
        assert offered(modal) == ["d2"]
        await roll_typed(pilot, [5, 5, 5, 5])
        play.act("hand_to_hand", "d2", "a4")
        read_hits(play)
        play.next()

        # -- turn 1, the defender's bound
        assert (play.table.position.turn, play.table.position.bound) == (1, "defender")
        play.act("rout", "d1")
        if play.unit("d2").has("disrupted"):
            play.act("rally", "d2", dice=[6])
        # a Recoil read off the combat table is made as it is read (option recoil_contact = at_once)
        assert "has no recoil to make" in play.refused("recoil", "a2")
        play.act("move", "d3")
        play.next()
        play.act("artillery_fire", "d8", "a6", numbers={"range": 4})
        read_hits(play)
        # the other reading, the Recoil kept for the table (recoil_contact = on_the_table): a2 (militia)
        # reads 2 hits, "1 stand lost, Recoil, Disrupted", and the checklist waits for its Recoil
        tabletop.set_option(app.session, bid, "recoil_contact", "on_the_table")
        tabletop.edit_unit(app.session, bid, "a2", {"hits": "2"})
        assert "must recoil one hex" in play.act("combat", "a2")["text"]
        assert any("must recoil one hex (Recoil)" in line for line in play.table.unfinished())
        play.act("recoil", "a2")
        assert not play.table.unfinished()
        tabletop.set_option(app.session, bid, "recoil_contact", "at_once")
        play.next()
        play.act("small_arms_fire", "d3", "a1", numbers={"range": 2})
        read_hits(play)
        play.next()
        read_hits(play)
        play.next()

        # -- turn 2: the edit mid-battle; the dice follow the stands left
        assert play.table.position.turn == 2
        for bound in ("attacker", "defender"):
            while play.table.position.bound == bound and play.table.position.turn == 2:
                if play.table.phase.id == "simultaneous_fire" and bound == "attacker":
                    dice = play.prepared("small_arms_fire", "d6", "a2", numbers={"range": 2}).dice
                    stands = play.unit("d6").size
                    await edit(pilot, "d6", {"size": str(stands - 1)})
                    assert f"Stands now {stands} → {stands - 1}" in play.table.log[-1]["changes"]
                    shot = play.act("small_arms_fire", "d6", "a2", numbers={"range": 2})
                    # a die less for the stand the edit took off
                    assert int(shot["dice"].split("d")[0]) == int(dice.split("d")[0]) - 1
                read_hits(play)
                play.next()
        assert play.table.position.turn == 3
        phases = {"movement", "artillery_fire", "simultaneous_fire", "hand_to_hand"}
        for turn in (1, 2):
            assert play.ticked_off(turn, "attacker") == play.ticked_off(turn, "defender") == phases
        assert play.kinds() >= KALLISTRA_KINDS

        weather.roll(app.session, [2])
        back = tabletop.returned(app.session, bid, "attacker")
        langeron = next(line for line in back.lines if "Langeron's divisions: lost" in line)
        lost = sum(play.table.resolver.lost_at_end(u, play.table.options) for u in play.table.units.values()
                   if u.force == "barclay_infantry")
        assert f"lost {lost} stands" in langeron
        # the stand the edit took off is in the conversion too
        chaplits = next(line for line in back.lines if "cavalry and Cossacks (Chaplits): lost" in line)
        edited = sum(play.table.resolver.lost_at_end(u, play.table.options) for u in play.table.units.values()
                     if u.force == "barclay_cavalry")
        assert f"lost {edited} stand" in chaplits and edited >= 1
        # d1 routed: every stand lost (option routed_at_end = lost)
        assert play.table.resolver.lost_at_end(play.unit("d1"), play.table.options) == play.unit("d1").start
        await end_and_apply(pilot, "attacker")

    lost = applied(campaign_file, before)
    assert lost.get("barclay_infantry", 0) > 0
    battles_text, log_text = account(campaign_file, capsys)
    assert f"Stands now {stands} → {stands - 1}" in battles_text and f"{stands} → {stands - 1}" in log_text
    assert "turn 1, defender's bound, artillery fire: Reserve Artillery (defender)" in battles_text
    assert "Tabletop battle ended: the attacker held the field" in battles_text


UC_UM_KINDS = {"loss_test", "um_test", "division_test", "replace_general", "fill_ranks", "command", "move",
               "change_formation", "fire", "save", "charge", "test_a", "test_b", "counter_charge", "chargers_test",
               "melee", "after_melee_test", "pursuit", "new_contact", "stand_still"}


def saves(play: Play) -> None:
    """Hits waiting for their saves are saved before the step ends (the checklist waits)."""
    if "save" not in play.table.phase.actions:
        return
    for unit in play.table.units.values():
        if not unit.removed and (unit.attr("fire_hits") or unit.attr("melee_hits")):
            play.act("save", unit.id)


def until(play: Play, phase: str) -> None:
    """Saves owed, then the next step, until `phase`."""
    while play.table.phase.id != phase:
        saves(play)
        play.next()


async def test_napoleonic_uc_um_two_turns_to_the_end(campaign_file, make_app, capsys):
    before = strengths(campaign_file)
    bid = handed_off(campaign_file, "napoleonic_uc_um")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_resolver(pilot)
        play = Play(app.session, bid)
        # a Prussian division of three small UM, by hand, for the UM's and the division's tests
        for name in ("Klüx", "Zieten", "Kleist"):
            tabletop.add_unit(app.session, bid, dict(name=name, side="defender", arm="infantry", size="4",
                                                     um=name.lower(), division="prussians"))
        # a1-a2 31st Division (conscrit/hésitant), a3-a5 cavalry, a6 Guard battery; d1-d4 Langeron's
        # UC (aguerri/confiant), d6-d7 Chaplits' cavalry, d8 battery, d11-d13 the Prussians

        # -- turn 1, the attacker's bound: nobody lost over half, nothing to test in 1.1
        assert "no test" in play.refused("loss_test", "a1")
        until(play, "1.3")
        play.act("replace_general", "a1", ticked=["killed"])
        until(play, "2.2")
        assert "non commandé" in play.act("command", "a1", numbers={"distance": 30})["text"]
        until(play, "2.3")
        play.act("move", "a1")
        until(play, "2.4")
        play.act("change_formation", "a2", ticked=["to_line"])
        until(play, "3.1")
        play.act("fire", "a6", "d1", numbers={"distance": 20})
        saves(play)
        until(play, "3.2")
        play.act("charge", "a3", "d2", numbers={"distance": 4})
        play.act("charge", "a2", "d6", numbers={"distance": 4})
        until(play, "3.3")
        play.act("test_a", "a2", "d6")
        until(play, "3.4")
        play.act("test_b", "d2", "a3")
        play.act("test_b", "d6", "a2")
        until(play, "3.5")
        play.act("counter_charge", "d6", "a2")
        play.act("fire", "d2", "a3", numbers={"distance": 4})
        until(play, "3.6")
        saves(play)
        until(play, "3.7")
        play.act("chargers_test", "a3", "d2")
        play.act("chargers_test", "a2", "d6")
        until(play, "3.8")

        # (c) through the form: only the UC the charge reached, then the card's -2 follows the target
        modal = await open_form(pilot, "a3", "melee")
        assert offered(modal) == ["d2"]
        await pilot.press("escape")
        tabletop.rule_contact(app.session, bid, "a3", "d6", True, "the hussars' charge reached both")
        modal = await open_form(pilot, "a3", "melee")
        assert offered(modal) == ["d2", "d6"]
        # CORPS A CORPS: Aguerri 4+; "Cavalerie contre infanterie non en carré -2"
        assert needs(modal).startswith("Needs: 2 +") and "cavalry_vs_open_infantry" in {
            k for k, box in modal.ticks.items() if box.value}
        # against Chaplits' cavalry the -2 goes (what else counts for Cossacks is another change's)
        assert not (await retarget(pilot, modal, "d6")).startswith("Needs: 2 +")
        assert not modal.ticks["cavalry_vs_open_infantry"].value
        assert (await retarget(pilot, modal, "d2")).startswith("Needs: 2 +")
        await roll_typed(pilot, [1, 1, 1, 1])  # no hit
        assert play.table.log[-1]["target"] == "d2" and play.table.log[-1]["needed"].startswith("2 +")
        play.act("melee", "d2", "a3")
        play.act("melee", "a2", "d6")
        play.act("melee", "d6", "a2")
        saves(play)
        until(play, "3.9")
        assert "poursuite du combat" in play.act("after_melee_test", "d2", "a3", dice=[6])["text"]
        assert "rupture" in play.act("after_melee_test", "a3", "d2", dice=[1])["text"]
        assert play.unit("a3").has("rout")
        assert [u.id for u in tabletop.reachable(play.table, "melee", "a3")[0]] == []  # routed: in contact with nobody
        until(play, "3.10")
        play.act("pursuit", "d2", "a3")
        until(play, "3.11")
        play.act("new_contact", "a1")
        until(play, "3.12")
        tabletop.set_state(app.session, bid, "d4", "disordered", True)  # the umpire's marker (k)
        play.act("stand_still", "d4")
        play.next()

        # -- turn 1, the defender's bound: the edit mid-battle makes Klüx test
        assert (play.table.position.turn, play.table.position.bound, play.table.phase.id) == (1, "defender", "1.1")
        assert "lost 0 of its 4 EC" in play.refused("loss_test", "d11")
        await edit(pilot, "d11", {"size": "1"})
        assert "EC now 4 → 1" in play.table.log[-1]["changes"]  # the card's EC, not "Ec"
        # lost 3 of 4: more than half ('+ de la moitié'); a 1 fails: en rupture
        assert "raté" in play.act("loss_test", "d11", dice=[1])["text"]
        tabletop.edit_unit(app.session, bid, "d12", {"size": "1"})
        play.act("loss_test", "d12", dice=[6])
        play.act("um_test", "d12", dice=[1])  # the UM zieten lost 3 of its 4 EC; it fails
        # a campaign UC too: Langeron's d1, 6 → 2 EC, tests; the return counts the same 4 EC
        await edit(pilot, "d1", {"size": "2"})
        play.act("loss_test", "d1", dice=[6])
        until(play, "1.2")
        play.act("division_test", "d13")  # klux and zieten lost: 2 of the division's 3 UM
        while play.table.position.turn == 1:
            saves(play)
            play.next()

        # -- turn 2: both bounds, every step
        for bound in ("attacker", "defender"):
            while play.table.position.turn == 2 and play.table.position.bound == bound:
                if play.table.phase.id == "2.1" and bound == "attacker":
                    # "Comblent les rangs": under option loss_unit = figure, the EC whose figures are gone
                    assert "loss_unit = ec" in play.refused("fill_ranks", "a1", numbers={"ec_off": 1})
                    tabletop.set_option(app.session, bid, "loss_unit", "figure")
                    play.act("fill_ranks", "a1", numbers={"ec_off": 1})
                    tabletop.set_option(app.session, bid, "loss_unit", "ec")
                if play.table.phase.id == "3.1" and bound == "defender":
                    play.act("fire", "d8", "a1", numbers={"distance": 20})
                saves(play)
                play.next()
        assert play.table.position.turn == 3
        steps = {p.id for p in play.table.resolver.phases}
        for turn in (1, 2):
            assert play.ticked_off(turn, "attacker") == play.ticked_off(turn, "defender") == steps
        assert play.kinds() >= UC_UM_KINDS

        weather.roll(app.session, [2])
        back = tabletop.returned(app.session, bid, "defender")
        # a3 routed ('rupture'): its 4 EC lost whole (option broken_at_end = lost)
        assert play.table.resolver.lost_at_end(play.unit("a3"), play.table.options) == play.unit("a3").start
        cavalry = next(line for line in back.lines if "I Cavalry Corps (Bruyère, Bordesoulle): lost" in line)
        lost = sum(play.table.resolver.lost_at_end(u, play.table.options) for u in play.table.units.values()
                   if u.force == "i_cavalry_corps")
        assert f"lost {lost} EC" in cavalry and lost >= 4
        langeron = next(line for line in back.lines if "Langeron's divisions: lost" in line)
        edited = sum(play.table.resolver.lost_at_end(u, play.table.options) for u in play.table.units.values()
                     if u.force == "barclay_infantry")
        assert f"lost {edited} EC" in langeron and edited >= 4
        await end_and_apply(pilot, "defender")

    lost = applied(campaign_file, before)
    assert lost.get("i_cavalry_corps", 0) > 0
    battles_text, log_text = account(campaign_file, capsys)
    assert "EC now 4 → 1" in battles_text and "EC now 4 → 1" in log_text
    assert "turn 1, defender's bound" in battles_text and "(defender), melee at" in battles_text
    assert "Tabletop battle ended: the defender held the field" in battles_text

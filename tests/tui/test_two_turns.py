"""A whole battle in the rule sets where both sides act in every phase (issue 24, item 7):
napoleonic_d10 and the 13-phase rules (Kallistra and UC/UM: test_two_bounds.py). Two full
turns, every phase and every kind of resolution the card has, a change of target in the
resolution form with the number needed read against the card, an edit mid-battle (old →
new in the account and the log; the morale modifiers and the end conversion read the
same losses), the end, the return to the campaign and the checks of the file and the
account.

Forces: XI Corps' 31st Division, I Cavalry Corps and the Guard artillery against
Langeron's divisions, Chaplits' cavalry and Blücher's reserve artillery (tabletop_play).
Dice are typed in, so each result is the card's for those dice; the card's numbers are
quoted in the comments (/work/shared/seeds).
"""

from __future__ import annotations

import re

from campaigns import tabletop, weather

from tests.tui.polling import until

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

D10_KINDS = {"initiative", "contest_initiative", "move", "local_initiative", "disruptive_terrain", "crash_through",
             "charge", "fire", "fire_discipline", "skirmish", "melee", "morale", "friend_breaks", "pass_through",
             "surrender", "ammunition"}


async def test_napoleonic_d10_two_turns_to_the_end(campaign_file, make_app, capsys):
    before = strengths(campaign_file)
    bid = handed_off(campaign_file, "napoleonic_d10")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_resolver(pilot)
        play = Play(app.session, bid)
        # a1-a2 31st Division, a3-a5 cavalry, a6 Guard battery (a7-a11 its AB guns);
        # d1-d4 Langeron's infantry, d5 its AB guns, d6-d7 Chaplits' cavalry, d8 Reserve battery
        assert play.table.phase.id == "initiative" and play.table.position.turn == 1

        # -- turn 1: Initiative. The army commanders roll; a division commander contests
        play.act("initiative", "a1", dice=[7, 3])
        play.act("contest_initiative", "d1", "a2", dice=[3, 6])
        play.act("local_initiative", "d2")
        play.next()

        # Movement
        play.act("move", "a1")
        assert play.act("disruptive_terrain", "a3", ticked=["d1"])["text"] == "NE"  # 2d10 10: NE on 4-20
        play.act("crash_through", "a2")
        play.next()

        # Charges: the cavalry on d1's flank, 10 against 1: +15, the defender surrenders
        charged = play.act("charge", "a4", "d1", dice=[10, 1], ticked=["charging_flank"])
        assert "Charging Flank +6" in charged["needed"] and "surrenders" in charged["text"]
        assert "50% surrender" in play.act("surrender", "d1", dice=[5])["text"]  # 1d10 x 10%
        assert play.unit("d1").removed
        assert "MELEE!" in play.act("charge", "a3", "d2")["text"]  # 5 against 5, Cav vs. Inf Col +4
        # defensive fire at 4": "Def. Fire Range: Small Arms 4"", Medium 4" -3, at a Disordered unit -4
        fired = play.act("fire", "d2", "a3", numbers={"distance": 4}, ticked=["defensive_fire"])
        assert 'Medium 4" -3' in fired["needed"]
        play.act("fire_discipline", "d4")
        play.next()

        # Fire, through the form: the modifiers follow the target picked
        modal = await open_form(pilot, "a1", "fire")
        assert "d1" not in offered(modal)  # surrendered: off the table, no target
        assert "Arty" not in needs(modal) and "Square" not in needs(modal)
        at_guns = await retarget(pilot, modal, "d5")
        assert "Small Arms at Arty -5" in at_guns  # the card's Target modifiers
        at_column = await retarget(pilot, modal, "d3")
        # Short 2" +0 for 6 stands: "5 on 1-2, 6 on 3-6, 7 on 7-10 casualty steps"
        assert "Arty" not in at_column and "7 on 7-10" in at_column
        await roll_typed(pilot, [10])  # a natural 10: 7 steps, and an ammunition roll
        entry = play.table.log[-1]
        assert (entry["action"], entry["target"], entry["raw"]) == ("fire", "d3", [10])
        assert play.unit("d3").has("ammunition_roll") is False and play.unit("a1").has("ammunition_roll")
        play.act("ammunition", "a1")
        play.act("morale", "d3")  # hit after the class break point: due before the phase ends
        play.act("skirmish", "d4", "a2")
        play.act("fire", "a6", "d5", numbers={"distance": 5})  # the Guard battery, Short, Ball
        play.next()

        # Melee: only the unit in contact is offered
        modal = await open_form(pilot, "a3", "melee")
        assert offered(modal) == ["d2"]
        await roll_typed(pilot, [5, 5])
        for unit_id in ("a3", "d2"):  # equal rolls: both sides check morale
            if play.unit(unit_id).has("morale_due"):
                play.act("morale", unit_id)
        play.next()

        # Morale: a disordered unit passes through a friend, which then checks; one breaks
        assert play.unit("a3").has("disordered")
        play.act("pass_through", "a3", "a1")
        play.act("morale", "a1")
        play.act("friend_breaks", "a5")
        play.act("morale", "a5")

        # the edit mid-battle: d4 lost 3 stands the umpire counted on the table
        await edit(pilot, "d4", {"size": "3"})
        entry = play.table.log[-1]
        assert entry["action"] == "edit" and "Stands now 6 → 3" in entry["changes"]
        # the card's "50% or more losses -5" reads the stands the edit took off
        assert "50% or more losses -5" in play.act("morale", "d4")["needed"]
        for unit in play.table.units.values():
            if unit.has("morale_due") and not unit.removed:
                play.act("morale", unit.id)
        play.next()

        # -- turn 2: the defender wins the initiative
        assert play.table.position.turn == 2
        play.act("initiative", "d3", dice=[8, 2])
        play.next()
        play.act("move", "d6")
        play.act("move", "a2")
        play.next()
        charge = play.act("charge", "d6", "a2", dice=[5, 5])
        play.next()
        play.act("fire", "d8", "a6", numbers={"distance": 5})
        # the attacker's fire back, by a unit the card lets fire (not broken, not routed)
        firer = next(u for u in ("a2", "a1", "a6") if not play.unit(u).has("broken") and not play.unit(u).removed)
        play.act("fire", firer, "d5", numbers={"distance": 2})
        for unit in play.table.units.values():
            if unit.has("morale_due") and not unit.removed:
                play.act("morale", unit.id)
        play.next()
        if "MELEE!" in charge["text"]:
            play.act("melee", "d6", "a2")
        for unit in play.table.units.values():
            if unit.has("morale_due") and not unit.removed:
                play.act("morale", unit.id)
        play.next()
        for unit in play.table.units.values():
            if unit.has("morale_due") and not unit.removed:
                play.act("morale", unit.id)
        play.next()
        assert play.table.position.turn == 3
        assert play.ticked_off(1) == play.ticked_off(2) == {
            "initiative", "movement", "charges", "fire", "melee", "morale"}
        assert play.kinds() >= D10_KINDS

        # the end conversion reads the same stands as the morale modifiers
        weather.roll(app.session, [2])  # the weather is rolled at last: the battle can end
        back = tabletop.returned(app.session, bid, "defender")
        langeron = next(line for line in back.lines if "Langeron's divisions: lost" in line)
        lost = sum(play.table.resolver.lost_at_end(u, play.table.options) for u in play.table.units.values()
                   if u.force == "barclay_infantry")
        # d4's 3 by the edit, d1's 3 prisoners (its routed stands kept: option routed_stands = kept)
        assert f"lost {lost} stands" in langeron and lost >= 3 + 3
        await end_and_apply(pilot)

    lost = applied(campaign_file, before)
    assert lost.get("barclay_infantry", 0) > 0
    battles_text, log_text = account(campaign_file, capsys)
    assert "Stands now 6 → 3" in battles_text and "Stands now 6 → 3" in log_text
    assert "(defender), fire at" in battles_text and "(attacker), fire at" in battles_text
    assert "Tabletop battle ended: the defender held the field" in battles_text


THIRTEEN_KINDS = {"unlimber", "artillery_fire", "artillery_behind", "morale", "cannot_form_line", "move",
                  "change_formation", "charge", "fire", "square_fire", "skirmishers_evade", "stand", "guard_presses",
                  "melee", "support", "loser_retires", "recall"}


def owed_tests(play: Play) -> None:
    """The tests the checklist waits for, taken with a die that passes (1)."""
    table = play.table
    number = int(table.phase.id.removeprefix("phase_"))
    for unit in table.units.values():
        if unit.removed:
            continue
        if unit.has("d6_casualties"):
            play.act("cannot_form_line", unit.id, dice=[2])
        if (number in (2, 4, 9) and unit.has("casualties")) or (number in (7, 12) and unit.has("lost_melee")):
            play.act("morale", unit.id, dice=[1])
        if number == 13 and unit.has("charge_marker"):
            play.act("recall", unit.id, dice=[1])
        if play.unit(unit.id).has("retires"):
            play.act("loser_retires", unit.id)


async def test_napoleonic_13phase_two_turns_to_the_end(campaign_file, make_app, capsys):
    before = strengths(campaign_file)
    bid = handed_off(campaign_file, "napoleonic_13phase")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_resolver(pilot)
        play = Play(app.session, bid)
        # the attacker plays the French (option french_side); units the forces do not give,
        # added by hand: a horse battery, the Guard, a French square, Austrian skirmishers
        for values in (dict(name="Horse battery", side="attacker", arm="artillery", size="4",
                            unit_type="limbered_artillery", horse_artillery="yes"),
                       dict(name="Old Guard", side="attacker", arm="infantry", size="24", unit_type="infantry_column",
                            guard="yes", quality="elite"),
                       dict(name="2e Ligne", side="attacker", arm="infantry", size="24", unit_type="infantry_square"),
                       dict(name="Grenzer", side="defender", arm="infantry", size="12", unit_type="skirmishers"),
                       dict(name="IR 4", side="defender", arm="infantry", size="24", unit_type="infantry_line")):
            tabletop.add_unit(app.session, bid, values)
        # a1-a2 31st Division, a3-a5 cavalry, a6 Guard battery, a12 horse battery, a13 Old Guard,
        # a14 2e Ligne; d1-d4 Langeron's columns, d6-d7 Chaplits' cavalry, d8 battery, d11 Grenzer, d12 IR 4

        # 1. artillery: horse artillery unlimbers; "Unit 12” behind the target" takes the same dice
        play.act("unlimber", "a12")
        play.act("artillery_fire", "a12", "d1")
        play.act("artillery_fire", "a6", "d1")
        play.act("artillery_behind", "a6", "d2")
        play.act("artillery_fire", "d8", "a1")
        play.next()
        # 2. d1 fails by 1 or 2 beside another column: d6 casualties; the French pass
        failed = play.act("morale", "d1", dice=[5], ticked=["column_on_flank"])
        assert "Austrian infantry columns and battalion masse form line." in failed["text"]
        play.act("cannot_form_line", "d1", dice=[5])
        owed_tests(play)
        play.next()

        # 3. the French move and charge; the Austrian infantry shoots
        play.act("move", "a1")
        play.act("change_formation", "a2", ticked=["line"])
        play.act("charge", "a3", "d2")
        play.act("charge", "a13", "d3")
        play.act("charge", "a4", "d4")
        play.act("charge", "a5", "d11")
        play.act("skirmishers_evade", "d11")
        # the form: "Column 4+", "Charging Cavalry 6+" follow the target picked
        modal = await open_form(pilot, "d3", "fire")
        assert (await retarget(pilot, modal, "a13")).startswith("Needs: 4+")
        assert (await retarget(pilot, modal, "a3")).startswith("Needs: 6+")
        assert (await retarget(pilot, modal, "a13")).startswith("Needs: 4+")
        await roll_typed(pilot, [5] * 6)  # 12 figures: one die per two
        assert play.table.log[-1]["target"] == "a13" and play.unit("a13").has("casualties")
        play.next()
        # 4. the Guard closes
        play.act("morale", "a13", dice=[1], ticked=["infantry_charging"])
        play.next()
        # 5. the Austrians stand, or not; the Guard presses on
        assert "moves into contact" in play.act("stand", "d2", "a3", dice=[5])["text"]
        play.act("stand", "d3", "a13", dice=[1])
        play.act("guard_presses", "a13", "d3")
        play.act("stand", "d4", "a4", dice=[1])
        play.next()

        # 6. melees: the form offers only the unit the charge reached
        modal = await open_form(pilot, "a3", "melee")
        assert offered(modal) == ["d2"]
        await pilot.press("ctrl+r")  # cavalry against a column: "Infantry destroyed", no dice
        await until(pilot, lambda: play.unit("d2").removed, "play.unit('d2').removed")
        assert play.unit("d2").removed and not play.unit("d4").removed  # d4, charged by a4, untouched
        # a second melee of the same charge is not there to be fought (the wiped-out d2)
        assert "removed from the table" in play.refused("melee", "a3", "d2")
        play.act("melee", "a13", "d3")
        play.act("support", "a2", "a6")
        play.act("melee", "a4", "d4")
        play.next()
        owed_tests(play)  # 7.
        # no loser here: "Loser retires d6”" is refused to a unit that did not lose in line
        assert "owes no d6 inches" in play.refused("loser_retires", "a13")
        play.next()

        # 8. the Austrians move and charge; a French square fires
        play.act("charge", "d6", "a14")
        play.act("charge", "d7", "a2")
        play.act("square_fire", "a14", "d6")
        play.next()
        owed_tests(play)  # 9.
        play.next()
        play.act("stand", "a14", "d6", dice=[1])  # 10.
        play.act("stand", "a2", "d7", dice=[6])
        play.next()
        for contact in play.table.contacts:  # 11.
            play.act("melee", contact.charger, contact.charged)
        play.next()
        owed_tests(play)  # 12.
        play.next()
        owed_tests(play)  # 13.
        play.next()

        # -- turn 2: the edit mid-battle, then every phase
        assert play.table.position.turn == 2
        await edit(pilot, "a1", {"size": "5"})  # 8 → 5: 7 figures lost in all
        assert "Figures now 8 → 5" in play.table.log[-1]["changes"]
        play.act("artillery_fire", "d8", "a1")  # 4 more: 11 lost
        play.next()
        # "-1 per 3 casualties": the 11 the edit and the guns took, -3
        assert "-3 per 3 casualties" in play.act("morale", "a1", dice=[1])["needed"]
        owed_tests(play)
        play.next()
        while play.table.position.turn == 2:
            phase = play.table.phase.id
            if phase == "phase_3":
                play.act("change_formation", "a14", ticked=["line"])
            if phase == "phase_6":
                # the 2e Ligne, now in line, meets IR 4 and loses: its dice 1s, theirs 6s
                tabletop.rule_contact(app.session, bid, "a14", "d12", True, "the lines met in the smoke")
                needed = play.prepared("melee", "a14", "d12").needed
                ours, theirs = (int(n) for n in re.findall(r"on each of (\d+) dice", needed))
                play.act("melee", "a14", "d12", dice=[1] * ours + [6] * theirs)
            if phase == "phase_7" and play.unit("a14").has("lost_melee"):
                passes = int(play.prepared("morale", "a14").needed.split()[0])
                # one over: "Fail by 1 or 2 ... If already in line, loser retires d6”"
                assert "retires d6”" in play.act("morale", "a14", dice=[passes + 1])["text"]
            owed_tests(play)
            play.next()
        assert play.ticked_off(1) == play.ticked_off(2) == {
            f"phase_{n}" for n in range(1, 14)}
        assert play.kinds() >= THIRTEEN_KINDS

        weather.roll(app.session, [2])
        back = tabletop.returned(app.session, bid, "attacker")
        # d2 and d4 destroyed, d1 and d3 routed or destroyed: every figure lost (option routed_at_end = lost)
        langeron = next(line for line in back.lines if "Langeron's divisions: lost" in line)
        lost = sum(play.table.resolver.lost_at_end(u, play.table.options) for u in play.table.units.values()
                   if u.force == "barclay_infantry")
        assert f"lost {lost} figures" in langeron
        await end_and_apply(pilot, "attacker")

    lost = applied(campaign_file, before)
    assert lost.get("barclay_infantry", 0) > 0
    battles_text, log_text = account(campaign_file, capsys)
    assert "Figures now 8 → 5" in battles_text and "Figures now 8 → 5" in log_text
    assert "(defender), charge at" in battles_text and "(attacker), charge at" in battles_text
    assert "Tabletop battle ended: the attacker held the field" in battles_text

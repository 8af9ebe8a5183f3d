"""A whole battle in every rule set (issue 24, item 7): two full turns, every phase and
every kind of resolution the card has, a change of target in the resolution form with
the number needed read against the card, an edit mid-battle (old → new in the account
and the log; the morale modifiers and the end conversion read the same losses), the
end, the return to the campaign and the checks of the file and the account.

Forces: XI Corps' 31st Division, I Cavalry Corps and the Guard artillery against
Langeron's divisions, Chaplits' cavalry and Blücher's reserve artillery (tabletop_play).
Dice are typed in, so each result is the card's for those dice; the card's numbers are
quoted in the comments (/work/shared/seeds).
"""

from __future__ import annotations

from campaigns import tabletop, weather

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
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_resolver(pilot)
        play = Play(app.session, bid)
        # a1-a2 31st Division, a3-a5 cavalry, a6 Guard battery (a7-a11 its AB guns);
        # d1-d4 Langeron's infantry, d5 its AB guns, d6-d7 Chaplits' cavalry, d8 Reserve battery
        assert play.table.phase.id == "initiative" and play.table.position.turn == 1

        # -- turn 1: Initiative. The army commanders roll; a division commander contests
        assert "the attacker has the initiative" in play.act("initiative", "a1", dice=[7, 3])["text"]
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
        assert {p for t, p in play.phases if t == 2} == {p for t, p in play.phases if t == 1} == {
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

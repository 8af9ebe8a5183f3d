"""The 13-phase card on the resolver screen: every resolution against the procedures and the card.

Each test quotes the card's line (../shared/seeds/004_3c19d583169bac2b.txt) and works
its numbers out by hand in the comments; the odds are also compared with the rule set's
own procedures. Units are built by hand: the attacker plays the French (option
french_side, default attacker), the defender the Austrians.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from rules.dice import DiceService
from rules.errors import RulesError
from rules.napoleonic_13phase import fire as firing
from rules.napoleonic_13phase import melee as melees
from rules.napoleonic_13phase import morale as morales
from rules.napoleonic_13phase import movement as moving
from rules.napoleonic_13phase.resolver import RESOLVER
from rules.options import resolve_options
from rules.resolver import (
    ATTACKER,
    DEFENDER,
    Contact,
    Request,
    Unit,
    apply_effects,
    check_request,
    get_resolver,
    roll_prepared,
    still_in_contact,
)

ROUT = "Rout. Remove the unit from the game."


def unit(uid, arm, unit_type, *, side=ATTACKER, size=12, start=None, quality="veteran", states=None, **attrs):
    """A unit; attributes named with a leading _ are what resolutions keep (a charge's target...)."""
    hidden = {k: v for k, v in attrs.items() if k.startswith("_")}
    shown = {k: v for k, v in attrs.items() if not k.startswith("_")}
    checked = RESOLVER.attrs_for({"quality": quality, "unit_type": unit_type, **shown})
    return Unit(uid, uid.upper(), side, arm, size, start if start is not None else size, {**checked, **hidden}, dict(states or {}))


def paired(actor, target):
    """The two units of a resolution in contact, as the charge that brought them together leaves them:
    these tests read the card's procedures for the pair (the contact rule is tested in test_resolver.py)."""
    return (Contact(target.id, actor.id),) if target is not None and target.side != actor.side else ()


def request(action, actor, target=None, phase=1, ticked=(), numbers=None, options=None, others=(), turn=1):
    units = {u.id: u for u in (actor, target, *others) if u is not None}
    return Request(action, actor, target, frozenset(ticked), dict(numbers or {}), dict(options or {}), units,
                   f"phase_{phase}", turn, contacts=paired(actor, target))


def prepare(req):
    check_request(RESOLVER, req)
    return RESOLVER.action(req.action).prepare(req)


def resolve(req, entered=None):
    prepared = prepare(req)
    record = roll_prepared(DiceService(seed=4), prepared, prepared.what, entered)
    return RESOLVER.action(req.action).resolve(req, record)


def after(req, outcome):
    return apply_effects(req.units, outcome.effects)


def binomial(n, p):
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def words(odds):
    return {f"{n} {'casualty' if n == 1 else 'casualties'}": p for n, p in odds.items() if p}


# ---------------------------------------------------------------------------
# The checklist
# ---------------------------------------------------------------------------


def test_the_resolver_is_found_by_its_rule_set():
    assert get_resolver("napoleonic_13phase") is RESOLVER


def test_one_phase_per_line_of_the_card_with_its_heading():
    assert [p.id for p in RESOLVER.phases] == [f"phase_{n}" for n in range(1, 14)]
    assert RESOLVER.phases[0].printed == "1. Adjust and Fire Artillery, Roll for Reserves"
    assert RESOLVER.phases[4].printed == (
        "5. Austrian Infantry Check Morale to Stand for Melee - (Infantry in melee and Cavalry do not test)")
    assert RESOLVER.phases[12].title == "13. Recall Cavalry"
    assert not RESOLVER.alternating  # both sides act in each phase of one turn
    by_phase = {p.id: p.actions for p in RESOLVER.phases}
    assert by_phase["phase_1"] == ("artillery_fire", "artillery_behind", "unlimber")
    assert "charge" in by_phase["phase_3"] and "fire" in by_phase["phase_8"]
    assert by_phase["phase_6"] == by_phase["phase_11"] == ("melee", "support")
    assert by_phase["phase_13"] == ("recall",)
    assert "loser_retires" in by_phase["phase_7"] and "loser_retires" not in by_phase["phase_2"]


# ---------------------------------------------------------------------------
# Phase 1: artillery
# ---------------------------------------------------------------------------


def test_artillery_close_range_heavy_guns_at_a_column():
    # "Column/Square/Battalion Masse/Enfiladed Line 4+", "+1 Close Range +1 if 12lbs or heavier":
    # each die needs 2+ (5/6); 4 crew figures, 4 dice.
    guns = unit("a1", "artillery", "artillery", size=4, gun_pounds=12)
    column = unit("d1", "infantry", "infantry_column", side=DEFENDER)
    req = request("artillery_fire", guns, column, ticked={"close_range", "heavy"})
    prepared = prepare(req)
    assert prepared.needed.startswith("2+ on each of 4 dice (4+, +1 Close Range, +1 if 12lbs or heavier)")
    assert prepared.dice == "4d6>=2"
    assert dict(prepared.odds)["Casualties"] == words(binomial(4, Fraction(5, 6)))
    procedure = firing.artillery_fire(firing.ArtilleryFire(crew=4, gun_pounds=12, target="column", range="close"))
    assert dict(prepared.odds)["Casualties"] == words(procedure.at_target.odds())
    assert dict(prepared.odds)["Casualties"]["4 casualties"] == Fraction(625, 1296)
    outcome = resolve(req, [1, 2, 3, 6])  # 2, 3 and 6 hit
    assert outcome.text == "3 hits on D1: 3 casualties; it checks morale in phase 2"
    units = after(req, outcome)
    assert units["d1"].size == 9 and units["d1"].has("casualties")
    assert units["a1"].has("fired")


def test_artillery_cannot_hit_cavalry_at_long_range_with_light_guns():
    # Cavalry is read as Line (option cavalry_target): 5+, -1 Long Range, -1 if 6lbs or lighter: 7, no hit.
    guns = unit("a1", "artillery", "artillery", size=4, gun_pounds=6)
    horse = unit("d1", "cavalry", "hussars", side=DEFENDER, size=8)
    req = request("artillery_fire", guns, horse, ticked={"long_range", "light"})
    prepared = prepare(req)
    assert prepared.dice == "4d6" and prepared.needed.startswith("cannot hit")
    assert dict(prepared.odds)["Casualties"] == {"0 casualties": 1}
    assert resolve(req, [6, 6, 6, 6]).text.startswith("0 hits")
    as_column = prepare(request("artillery_fire", guns, horse, ticked={"light"}, options={"cavalry_target": "column"}))
    assert as_column.needed.startswith("5+ on each of 4 dice (4+, -1 if 6lbs or lighter)")


def test_artillery_refusals():
    guns = unit("a1", "artillery", "artillery", size=4, gun_pounds=6)
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    with pytest.raises(RulesError, match="its guns are 6 lbs"):
        prepare(request("artillery_fire", guns, line, ticked={"heavy"}))
    with pytest.raises(RulesError, match="close range or at long range, not both"):
        prepare(request("artillery_fire", guns, line, ticked={"close_range", "long_range"}))
    with pytest.raises(RulesError, match="only horse artillery may unlimber"):
        prepare(request("artillery_fire", unit("a2", "artillery", "limbered_artillery", size=4), line))
    with pytest.raises(RulesError, match="Artillery fire is for artillery only"):
        prepare(request("artillery_fire", unit("a3", "infantry", "infantry_column"), line))
    with pytest.raises(RulesError, match="phase 1"):
        prepare(request("artillery_fire", guns, line, phase=3))


def test_horse_artillery_unlimbers_to_fire():
    guns = unit("a1", "artillery", "limbered_artillery", size=4, horse_artillery=True, gun_pounds=6)
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    req = request("artillery_fire", guns, line, ticked={"light"})
    assert "Horse artillery may unlimber" in " ".join(prepare(req).notes)
    assert after(req, resolve(req, [6, 6, 6, 6]))["a1"].attr("unit_type") == "artillery"


def test_the_unit_behind_is_hit_by_the_same_dice():
    # The battery rolled 1 2 3 6 at a column (2+ with 12 lb guns at close range). The line 12" behind
    # at medium range needs 5+ with +1 if 12lbs or heavier: a 4 or better, so the 6 only.
    guns = unit("a1", "artillery", "artillery", size=4, gun_pounds=12)
    column = unit("d1", "infantry", "infantry_column", side=DEFENDER)
    line = unit("d2", "infantry", "infantry_line", side=DEFENDER)
    first = request("artillery_fire", guns, column, ticked={"close_range", "heavy"}, others=(line,))
    units = after(first, resolve(first, [1, 2, 3, 6]))
    behind = request("artillery_behind", units["a1"], units["d2"], others=(units["d1"],))
    prepared = prepare(behind)
    assert prepared.dice is None and "1 2 3 6" in prepared.notes[0]
    assert prepared.needed.startswith("4+ on each of 4 dice (5+, +1 if 12lbs or heavier)")
    outcome = RESOLVER.action("artillery_behind").resolve(behind, None)
    assert outcome.text == "Unit behind: 1 hit on D2: 1 casualty"
    again = prepare(request("artillery_behind", units["a1"], units["d2"], others=(units["d1"],),
                            options={"artillery_unit_behind": "roll_again"}))
    assert again.dice == "4d6>=4"
    with pytest.raises(RulesError, match="level ground"):
        prepare(request("artillery_behind", units["a1"], units["d2"], ticked={"not_level"}, others=(units["d1"],)))
    with pytest.raises(RulesError, match=r"has not fired this turn: fire at the target first \(r on the battery, Artillery fire\)"):
        prepare(request("artillery_behind", guns, line))


# ---------------------------------------------------------------------------
# Morale
# ---------------------------------------------------------------------------


def test_morale_for_artillery_casualties_halts_and_austrian_columns_form_line():
    # "Veteran: 5 or less", "-1 per 3 casualties": 3 casualties, pass on 4 or less.
    # A 6 fails by 2: "Halt. No movement this turn. Austrian infantry columns ... form line."
    column = unit("d1", "infantry", "infantry_column", side=DEFENDER, size=9, start=12, states={"casualties": None})
    req = request("morale", column, phase=2)
    prepared = prepare(req)
    assert prepared.needed == "4 or less on 1d6 (Veteran 5 or less, -1 per 3 casualties)"
    assert dict(prepared.odds)["Result"] == {"Pass": Fraction(4, 6), "Fail by 1 or 2": Fraction(2, 6)}
    check = morales.morale_check(morales.MoraleTest(2, "austrian", "infantry_column", "veteran", casualties=3))
    assert dict(prepared.odds)["Result"] == check.odds()
    outcome = resolve(req, [6])
    assert outcome.text.startswith("Fail by 1 or 2: Halt. No movement this turn.")
    d1 = after(req, outcome)["d1"]
    assert d1.attr("unit_type") == "infantry_line" and d1.states["halted"] == 1 and not d1.has("casualties")
    with pytest.raises(RulesError, match="Halt. No movement this turn."):
        prepare(request("move", d1, phase=8))


def test_a_french_unit_is_not_shown_the_austrian_columns_result():
    # Phase 2, "Fail by 1 or 2: Halt. No movement this turn. Austrian infantry columns and
    # battalion masse form line. (Take d6 casualties ...)": both sides test in phase 2; the
    # French column halts and is told only that (issue 24: Austrian-only text shown to French)
    french = unit("a1", "infantry", "infantry_column", size=9, start=12, states={"casualties": None})
    req = request("morale", french, phase=2)
    outcome = resolve(req, [6])  # Veteran 5, -1 for 3 casualties: 4 or less; a 6 fails by 2
    assert outcome.text == "Fail by 1 or 2: Halt. No movement this turn."
    assert after(req, outcome)["a1"].attr("unit_type") == "infantry_column"
    austrian = unit("d1", "infantry", "infantry_column", side=DEFENDER, size=9, start=12, states={"casualties": None})
    assert "Austrian infantry columns and battalion masse form line." in resolve(request("morale", austrian, phase=2), [6]).text


def test_morale_general_attached_and_rout():
    # Conscript 4 or less, 6 casualties -2, general +1: pass on 3 or less; a 6 fails by 3: Rout.
    french = unit("a1", "infantry", "infantry_line", size=6, start=12, quality="conscript", general=True,
                  states={"casualties": None})
    req = request("morale", french, phase=2, ticked={"general_attached"})
    assert prepare(req).needed == "3 or less on 1d6 (Conscript 4 or less, -2 per 3 casualties, +1 General attached to unit)"
    outcome = resolve(req, [6])
    assert outcome.text == f"Fail by 3+: {ROUT}"
    a1 = after(req, outcome)["a1"]
    assert a1.removed and a1.lost == 6  # routed: no more figures lost than the 6 casualties


def test_who_checks_morale():
    fresh = unit("a1", "infantry", "infantry_column")
    with pytest.raises(RulesError, match="took no artillery casualties"):
        prepare(request("morale", fresh, phase=2))
    with pytest.raises(RulesError, match="did not lose a melee"):
        prepare(request("morale", fresh, phase=7))
    with pytest.raises(RulesError, match="the austrian do not test morale in phase 4"):
        prepare(request("morale", unit("d1", "infantry", "infantry_column", side=DEFENDER, states={"casualties": None}), phase=4))
    charging_horse = unit("a2", "cavalry", "cuirassiers", size=8, states={"casualties": None, "charging": 1})
    with pytest.raises(RulesError, match="charging cavalry do not test in phase 4"):
        prepare(request("morale", charging_horse, phase=4))
    with pytest.raises(RulesError, match="only infantry takes -1 Infantry Charging"):
        prepare(request("morale", charging_horse, phase=2, ticked={"infantry_charging"}))


def test_charging_column_closes_or_forms_line():
    # Phase 4, "-1 Infantry Charging": a Veteran column passes on 4 or less.
    column = unit("a1", "infantry", "infantry_column", states={"charging": 1})
    req = request("morale", column, phase=4, ticked={"infantry_charging"})
    assert prepare(req).needed == "4 or less on 1d6 (Veteran 5 or less, -1 Infantry Charging)"
    passed = resolve(req, [4])
    assert passed.text == "Pass: En Evant! Continue to phase 5."
    assert after(req, passed)["a1"].has("closing")
    failed = resolve(req, [5])
    assert failed.text.startswith("Fail by 1 or 2: Charging infantry columns form line 2” from target.")
    a1 = after(req, failed)["a1"]
    assert a1.attr("unit_type") == "infantry_line" and not a1.has("charging")


def test_a_charger_that_fails_to_close_is_in_contact_with_nobody():
    # Phase 4 "Fail by 1 or 2: Charging infantry columns form line 2” from target ... Others
    # stand in place": the charge never reaches its target, so phase 6 offers no melee with it
    column = unit("a1", "infantry", "infantry_column", states={"charging": 1}, _charge_target="d1")
    target = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    req = request("morale", column, phase=4, ticked={"infantry_charging"}, others=(target,))
    units = after(req, resolve(req, [5]))
    assert units["a1"].has("held_off") and not units["a1"].has("charging")
    contacts = still_in_contact(RESOLVER, [Contact("a1", "d1")], units)
    assert contacts == []
    melee = Request("melee", units["a1"], units["d1"], units=units, phase="phase_6", contacts=tuple(contacts))
    with pytest.raises(RulesError, match="is not in contact with"):
        check_request(RESOLVER, melee)
    # nor does a Guard column that failed to close press on in phase 5: only one the Austrians' stand held off
    guard = unit("a2", "infantry", "infantry_column", quality="elite", guard=True, states={"charging": 1},
                 _charge_target="d1")
    req = request("morale", guard, phase=4, ticked={"infantry_charging"}, others=(target,))
    held = after(req, resolve(req, [6]))  # Elite 6 or less, -1 Infantry Charging: 5 or less; a 6 fails by 1
    assert held["a2"].has("held_off") and held["a2"].attr("_charge_target") is None
    with pytest.raises(RulesError, match="was not placed 2” away"):
        prepare(request("guard_presses", held["a2"], held["d1"], phase=5))


def test_stand_for_melee():
    # Phase 5: Veteran line 5, "- 1 Infantry not in column", "- 1 Charged in flank/rear": pass on 3 or less.
    charger = unit("a1", "infantry", "infantry_column", states={"charging": 1, "closing": 1}, _charge_target="d1")
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    req = request("stand", line, charger, phase=5, ticked={"not_in_column", "flank_or_rear"})
    prepared = prepare(req)
    assert prepared.needed == "3 or less on 1d6 (Veteran 5 or less, -1 Infantry not in column, -1 Charged in flank/rear)"
    assert dict(prepared.odds)["Result"] == {"Pass": Fraction(1, 2), "Fail by 1 or 2": Fraction(1, 3), "Fail by 3+": Fraction(1, 6)}
    passed = resolve(req, [3])
    assert passed.text.startswith("Pass: Stand. May form battalion masse if currently in column.")
    assert not after(req, passed)["a1"].has("charging")
    failed = resolve(req, [4])
    assert "The charging French unit moves into contact. Fight in phase 6." in failed.text
    units = after(req, failed)
    assert units["a1"].has("contact") and units["d1"].has("contact")
    routed = resolve(req, [6])
    assert routed.text == f"Fail by 3+: {ROUT}" and after(req, routed)["d1"].removed


def test_stand_refusals():
    charger = unit("a1", "infantry", "infantry_column", states={"charging": 1}, _charge_target="d1")
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    with pytest.raises(RulesError, match="has not passed its test to close"):
        prepare(request("stand", line, charger, phase=5))
    with pytest.raises(RulesError, match="has not charged"):
        prepare(request("stand", line, unit("a2", "infantry", "infantry_column"), phase=5))
    in_melee = unit("d2", "infantry", "infantry_line", side=DEFENDER, states={"in_melee": None})
    closing = unit("a3", "infantry", "infantry_column", states={"charging": 1, "closing": 1}, _charge_target="d2")
    with pytest.raises(RulesError, match="infantry already in melee do not test"):
        prepare(request("stand", in_melee, closing, phase=5))
    with pytest.raises(RulesError, match="Infantry not in column .*: D3 is in column"):
        # "- 1 Infantry not in column" is read off the formation: a column cannot tick it
        prepare(request("stand", unit("d3", "infantry", "infantry_column", side=DEFENDER), closing, ticked={"not_in_column"}, phase=5))


def held_off(charger, line):
    """Phase 5: the Austrian line passes its test to stand: 'Charging French infantry are placed 2” away'."""
    stand = request("stand", line, charger, phase=5, ticked={"not_in_column"})
    outcome = resolve(stand, [1])
    assert outcome.text.startswith("Pass: Stand.")
    return after(stand, outcome)


def test_french_guard_presses_the_charge():
    # "French Guard infantry may take one casualty and continue the charge."
    guard = unit("a1", "infantry", "infantry_column", quality="elite", guard=True, states={"charging": 1, "closing": 1},
                 _charge_target="d1")
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    with pytest.raises(RulesError, match="was not placed 2” away from D1"):
        prepare(request("guard_presses", guard, line, phase=5))
    units = held_off(guard, line)
    assert units["a1"].has("held_off") and not units["a1"].has("charging")
    req = request("guard_presses", units["a1"], units["d1"], phase=5)
    assert prepare(req).dice is None and prepare(req).needed == "1 casualty, no roll"
    units = after(req, resolve(req))
    assert units["a1"].size == 11 and units["a1"].has("contact") and units["d1"].has("contact")
    assert not units["a1"].has("held_off") and units["a1"].attr("_opponent") == "d1"
    line_charger = unit("a2", "infantry", "infantry_column", states={"held_off": 1}, _charge_target="d1")
    with pytest.raises(RulesError, match="not Guard infantry"):
        prepare(request("guard_presses", line_charger, line, phase=5))


def test_a_charge_held_off_may_form_line():
    # Phase 5, Pass: "Charging French infantry are placed 2” away and may form line if there is enough room."
    column = unit("a1", "infantry", "infantry_column", states={"charging": 1, "closing": 1}, _charge_target="d1")
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    units = held_off(column, line)
    req = request("change_formation", units["a1"], phase=5, ticked={"line"})
    assert "may form line if there is enough room" in prepare(req).needed
    assert after(req, resolve(req))["a1"].attr("unit_type") == "infantry_line"
    with pytest.raises(RulesError, match="may only form line"):
        prepare(request("change_formation", units["a1"], phase=5, ticked={"square"}))


def test_recall():
    # Phase 13: Veteran cavalry 5 or less; "Fail: Cavalry take one casualty."
    horse = unit("a1", "cavalry", "cuirassiers", size=8, states={"charge_marker": None, "charging": 1})
    req = request("recall", horse, phase=13)
    assert dict(prepare(req).odds)["Result"] == {"Pass": Fraction(5, 6), "Fail": Fraction(1, 6)}
    passed = resolve(req, [5])
    assert passed.text.startswith("Pass: The cavalry unit is picked up and placed at the spot where they began the charge")
    assert not after(req, passed)["a1"].has("charge_marker")
    failed = resolve(req, [6])
    assert failed.text.startswith("Fail: Cavalry take one casualty. Next turn they cannot move")
    a1 = after(req, failed)["a1"]
    assert a1.size == 7 and a1.states["recall_failed"] == 2 and a1.has("charge_marker")
    with pytest.raises(RulesError, match="Recall cavalry is for cavalry only"):
        prepare(request("recall", unit("a2", "infantry", "infantry_column"), phase=13))


# ---------------------------------------------------------------------------
# Phases 3 and 8: movement, charges, fire
# ---------------------------------------------------------------------------


def test_movement_allowance():
    # "Light Cavalry 14”", "Half movement ... outside command range": 7”.
    horse = unit("a1", "cavalry", "light_cavalry", size=8)
    req = request("move", horse, phase=3, ticked={"outside_command_range"})
    expected = moving.movement_allowance(moving.Move(3, "french", "light_cavalry", outside_command_range=True))
    assert expected.inches == 7
    assert prepare(req).needed.startswith("7” (14”; half (outside command range)")
    assert resolve(req).text.startswith("moves up to 7”")
    with pytest.raises(RulesError, match="the French do not move in phase 8: the Austrians move in it"):
        prepare(request("move", horse, phase=8))
    with pytest.raises(RulesError, match="Cavalry/Artillery must stay out of woods."):
        prepare(request("move", horse, phase=3, ticked={"into_woods"}))
    with pytest.raises(RulesError, match="45 degrees"):
        prepare(request("move", horse, phase=3, numbers={"wheel": 60}))


def test_limbering_takes_the_move():
    guns = unit("d1", "artillery", "artillery", side=DEFENDER, size=4)
    req = request("move", guns, phase=8, ticked={"limbering"})
    assert prepare(req).needed.startswith("0”")
    assert after(req, resolve(req))["d1"].attr("unit_type") == "limbered_artillery"
    with pytest.raises(RulesError, match="only artillery limbers"):
        check_request(RESOLVER, request("move", unit("d2", "infantry", "infantry_line", side=DEFENDER), phase=8, ticked={"limbering"}))


def test_change_formation():
    column = unit("d1", "infantry", "infantry_column", side=DEFENDER)
    req = request("change_formation", column, phase=8, ticked={"masse"})
    assert prepare(req).needed == "Full move to change formation."
    assert after(req, resolve(req))["d1"].attr("unit_type") == "battalion_masse"
    with pytest.raises(RulesError, match="no infantry square"):
        prepare(request("change_formation", column, phase=8, ticked={"square"}))
    locked = unit("d2", "infantry", "infantry_line", side=DEFENDER)
    with pytest.raises(RulesError, match="locked in a firefight"):
        prepare(request("change_formation", locked, phase=8, ticked={"column", "in_firefight"}))
    # Phase 5, Pass: "May form battalion masse if currently in column."
    assert prepare(request("change_formation", column, phase=5, ticked={"masse"})).needed.startswith("Stand. May form battalion masse")
    with pytest.raises(RulesError, match="allows only"):
        prepare(request("change_formation", locked, phase=5, ticked={"column"}))


def test_infantry_charge():
    column = unit("a1", "infantry", "infantry_column")
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    req = request("charge", column, line, phase=3)
    assert prepare(req).dice is None and prepare(req).needed.startswith("8”")
    units = after(req, resolve(req))
    assert units["a1"].has("charging") and units["a1"].attr("_charge_target") == "d1"
    with pytest.raises(RulesError, match="Infantry may only charge if in column."):
        prepare(request("charge", unit("a2", "infantry", "infantry_line"), line, phase=3))
    with pytest.raises(RulesError, match="Infantry cannot charge cavalry."):
        prepare(request("charge", column, unit("d2", "cavalry", "hussars", side=DEFENDER, size=8), phase=3))
    second = request("charge", unit("a3", "infantry", "infantry_column"), line, phase=3, others=(units["a1"],))
    with pytest.raises(RulesError, match="Multiple infantry columns may not charge the same target."):
        prepare(second)
    with pytest.raises(RulesError, match="charging cavalry make a full move"):
        check_request(RESOLVER, request("charge", unit("a4", "cavalry", "dragoons", size=8), line, phase=3, ticked={"difficult_terrain"}))


def test_cavalry_charge():
    # "Light Cavalry 14”" and "Roll 2d6” bonus movement dice": 16” to 26”, 21” on 3 and 4.
    horse = unit("a1", "cavalry", "light_cavalry", size=8)
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    req = request("charge", horse, line, phase=3)
    prepared = prepare(req)
    assert prepared.dice == "2d6"
    odds = dict(prepared.odds)["Charge move"]
    assert odds["16”"] == Fraction(1, 36) and odds["21”"] == Fraction(6, 36)
    assert odds == {f"{n}”": p for n, p in moving.cavalry_charge(moving.CavalryCharge(3, "french", "light_cavalry")).odds.items()}
    outcome = resolve(req, [3, 4])
    assert outcome.text.startswith("charges D1: 21” (14” + 7” bonus)")
    a1 = after(req, outcome)["a1"]
    assert a1.has("charging") and a1.has("charge_marker")
    enemy_horse = unit("d2", "cavalry", "hussars", side=DEFENDER, size=8)
    first = after(request("charge", horse, enemy_horse, phase=3), resolve(request("charge", horse, enemy_horse, phase=3), [1, 1]))
    with pytest.raises(RulesError, match="Enemy cavalry may only be contacted by one French unit."):
        prepare(request("charge", unit("a2", "cavalry", "dragoons", size=8), enemy_horse, phase=3, others=(first["a1"],)))
    with pytest.raises(RulesError, match="charge marker"):
        prepare(request("charge", a1, line, phase=3))


def test_fire_one_die_per_two_figures():
    # Phase 8, the French shoot: 12 figures, 6 dice at a Column, 4+: binomial(6, 1/2).
    line = unit("a1", "infantry", "infantry_line")
    column = unit("d1", "infantry", "infantry_column", side=DEFENDER)
    req = request("fire", line, column, phase=8, numbers={"distance": 3})
    prepared = prepare(req)
    assert prepared.dice == "6d6>=4"
    assert dict(prepared.odds)["Casualties"] == words(binomial(6, Fraction(1, 2)))
    procedure = firing.fire(firing.Fire(8, "french", "infantry_line", 12, "column", 3))
    assert dict(prepared.odds)["Casualties"] == words(procedure.odds())
    outcome = resolve(req, [4, 5, 6, 1, 2, 3])
    assert outcome.text == "3 hits on D1: 3 casualties; it checks morale in phase 9"
    assert after(req, outcome)["d1"].has("casualties")


def test_fire_targets_and_refusals():
    line = unit("a1", "infantry", "infantry_line", size=7)
    horse = unit("d1", "cavalry", "hussars", side=DEFENDER, size=8, states={"charging": 1})
    # "Skirmishers/Fortification/Charging Cavalry 6+"; 7 figures: 3 dice (option fire_odd_figure)
    assert prepare(request("fire", line, horse, phase=8, ticked={"charging_cavalry"})).dice == "3d6>=6"
    enfiladed = prepare(request("fire", line, unit("d2", "infantry", "infantry_line", side=DEFENDER), phase=8, ticked={"enfiladed"}))
    assert enfiladed.needed.startswith("4+")
    with pytest.raises(RulesError, match="beyond the 4” range"):
        prepare(request("fire", line, horse, phase=8, numbers={"distance": 5}))
    with pytest.raises(RulesError, match="the French do not shoot in phase 3: the Austrians shoot in it"):
        prepare(request("fire", line, horse, phase=3))
    with pytest.raises(RulesError, match="Units continuing a previous melee cannot shoot."):
        prepare(request("fire", unit("a2", "infantry", "infantry_line", states={"in_melee": None}), horse, phase=8))
    with pytest.raises(RulesError, match="do not shoot"):
        prepare(request("fire", unit("a3", "cavalry", "dragoons", size=8), horse, phase=8))
    with pytest.raises(RulesError, match="only a line is enfiladed"):
        check_request(RESOLVER, request("fire", line, unit("d3", "infantry", "infantry_column", side=DEFENDER), phase=8, ticked={"enfiladed"}))


def test_charging_cavalry_hit_by_fire_do_not_test():
    line = unit("a1", "infantry", "infantry_line", size=12)
    horse = unit("d1", "cavalry", "hussars", side=DEFENDER, size=8, states={"charging": 1})
    req = request("fire", line, horse, phase=8)
    d1 = after(req, resolve(req, [6, 6, 1, 1, 1, 1]))["d1"]
    assert d1.size == 6 and not d1.has("casualties")


def test_square_fires_two_dice_at_charging_cavalry():
    # "Squares contacted fire two dice", read against Charging Cavalry 6+: both hit 1/36.
    square = unit("a1", "infantry", "infantry_square")
    horse = unit("d1", "cavalry", "uhlans", side=DEFENDER, size=8, states={"charging": 1})
    req = request("square_fire", square, horse, phase=8)
    prepared = prepare(req)
    assert prepared.dice == "2d6>=6"
    assert dict(prepared.odds)["Casualties"] == words(firing.square_fire().odds())
    assert dict(prepared.odds)["Casualties"]["2 casualties"] == Fraction(1, 36)
    assert after(req, resolve(req, [6, 3]))["d1"].size == 7
    with pytest.raises(RulesError, match="not in square"):
        prepare(request("square_fire", unit("a2", "infantry", "infantry_line"), horse, phase=8))
    with pytest.raises(RulesError, match="not charging cavalry"):
        prepare(request("square_fire", square, unit("d2", "cavalry", "uhlans", side=DEFENDER, size=8), phase=8))
    # the Austrians' movement table has no square: an Austrian unit given one neither stands nor fires in it
    austrian = unit("d3", "infantry", "infantry_square", side=DEFENDER)
    hussars = unit("a3", "cavalry", "hussars", size=8, states={"charging": 1})
    with pytest.raises(RulesError, match="the austrian have no infantry square"):
        prepare(request("square_fire", austrian, hussars, phase=3))


def test_skirmishers_evade():
    # "Skirmishers in a charge – Shoot, and move 2d6” away."
    skirmishers = unit("d1", "infantry", "skirmishers", side=DEFENDER, size=6)
    req = request("skirmishers_evade", skirmishers, phase=3)
    prepared = prepare(req)
    assert prepared.dice == "2d6" and dict(prepared.odds)["Inches"]["7”"] == Fraction(1, 6)
    assert resolve(req, [2, 3]).text == "moves 5” away from the charge. Destroyed if contacted."
    with pytest.raises(RulesError, match="only skirmishers"):
        prepare(request("skirmishers_evade", unit("d2", "infantry", "infantry_line", side=DEFENDER), phase=3))
    with pytest.raises(RulesError, match="phase the enemy moves"):
        prepare(request("skirmishers_evade", skirmishers, phase=8))


def test_skirmishers_that_evaded_owe_no_test_to_stand():
    # they moved 2d6” away from the charge: phase 5 does not wait for them to stand against it
    hussars = unit("a1", "cavalry", "hussars", size=8, states={"charging": 1, "charge_marker": None}, _charge_target="d1")
    skirmishers = unit("d1", "infantry", "skirmishers", side=DEFENDER, size=6)
    units = {"a1": hussars, "d1": skirmishers}
    assert RESOLVER.unfinished("phase_5", units) == ["D1 checks morale to stand against A1"]
    req = request("skirmishers_evade", skirmishers, phase=3, others=(hussars,))
    units = after(req, resolve(req, [2, 3]))
    assert RESOLVER.unfinished("phase_5", units) == [] and units["a1"].has("charge_marker")


# ---------------------------------------------------------------------------
# Phases 6 and 11: melee
# ---------------------------------------------------------------------------


def test_melee_dice_and_the_loser():
    # Elite column, 8 figures: "1 die per figure", 8 dice; Veteran line, 9 figures: "1 die per 2 figures", 4 dice.
    # The attacker's 4 4 4 score 3, the defender's 6 6 score 2: the defender loses and tests in phase 7.
    column = unit("a1", "infantry", "infantry_column", size=8, quality="elite", states={"contact": None})
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER, size=9, states={"contact": None})
    req = request("melee", column, line, phase=6)
    prepared = prepare(req)
    # each side's dice named, its own expression (the attacker's 8, the defender's 4)
    assert prepared.dice is None and [(r.id, r.label, r.dice, r.side) for r in prepared.rolls] == [
        ("attacker", "attacker A1", "8d6", ATTACKER), ("defender", "defender D1", "4d6", DEFENDER)]
    assert prepared.needed == "attacker 4+ on each of 8 dice (4+); defender 4+ on each of 4 dice (4+)"
    plan = melees.melee(melees.Melee(6, melees.Combatant("french", "infantry_column", "elite", 8),
                                     melees.Combatant("austrian", "infantry_line", "veteran", 9)))
    assert dict(prepared.odds)["Result"] == plan.odds()
    outcome = resolve(req, [4, 4, 4, 1, 1, 1, 1, 1, 6, 6, 1, 1])
    assert outcome.text == ("Attacker inflicts 3, defender inflicts 2: defender loses. Unit loses if it receives more "
                            "casualties than it inflicts and must test morale in phase 7. Ties continue to fight next in phase 11.")
    units = after(req, outcome)
    assert units["a1"].size == 6 and units["d1"].size == 6
    assert units["d1"].has("lost_melee") and not units["a1"].has("lost_melee")
    assert units["a1"].has("in_melee") and not units["a1"].has("contact")


def test_melee_odds_by_hand():
    # Conscript column, 2 figures ("1 die per 2 figures") against Conscript line, 3 figures ("1 die per 3"):
    # one die each at 4+. Tie: both miss or both hit, 1/4 + 1/4; each side loses 1/4.
    column = unit("a1", "infantry", "infantry_column", size=2, quality="conscript")
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER, size=3, quality="conscript")
    odds = dict(prepare(request("melee", column, line, phase=11)).odds)["Result"]
    assert odds == {"attacker loses": Fraction(1, 4), "defender loses": Fraction(1, 4), "tie": Fraction(1, 2)}


def test_melee_modifiers():
    # "Vs. Cuirassiers ... -1" and "Enemy in defensive terrain -1": the hussars need 6+.
    hussars = unit("d1", "cavalry", "hussars", side=DEFENDER, size=8)
    cuirassiers = unit("a1", "cavalry", "cuirassiers", size=8)
    needed = prepare(request("melee", hussars, cuirassiers, phase=11, ticked={"defender_defensive"})).needed
    assert needed.startswith("attacker 6+ on each of 4 dice (4+, -1 Enemy in defensive terrain, -1 Vs. Cuirassiers")
    # first combat against uhlans: -1 to the French; continuing, the lancers' own dice take -1
    uhlans = unit("d2", "cavalry", "uhlans", side=DEFENDER, size=8)
    dragoons = unit("a2", "cavalry", "dragoons", size=8)
    assert "-1 Vs. Cuirassiers or first combat vs. Lancers" in prepare(request("melee", dragoons, uhlans, phase=6)).needed
    continuing = prepare(request("melee", dragoons, uhlans, phase=6, ticked={"continuing"})).needed
    assert continuing.endswith("defender 5+ on each of 4 dice (4+, -1 Lancers continuing a melee)")


def test_cavalry_destroys_a_column_and_unsupported_artillery():
    horse = unit("a1", "cavalry", "cuirassiers", size=8)
    column = unit("d1", "infantry", "infantry_column", side=DEFENDER)
    req = request("melee", horse, column, phase=6)
    assert prepare(req).dice is None
    outcome = resolve(req)
    assert outcome.text == "Infantry destroyed"
    d1 = after(req, outcome)["d1"]
    assert d1.removed and d1.size == 0
    guns = unit("d2", "artillery", "artillery", side=DEFENDER, size=4)
    assert resolve(request("melee", horse, guns, phase=6)).text == "Artillery destroyed"
    with pytest.raises(RulesError, match=r"no unit supports D2: name it with 'Support artillery' first \(r on the supporting unit\)"):
        prepare(request("melee", horse, guns, phase=6, ticked={"supported"}))
    with pytest.raises(RulesError, match="Infantry cannot charge cavalry"):
        prepare(request("melee", unit("a2", "infantry", "infantry_column"), unit("d3", "cavalry", "hussars", side=DEFENDER, size=8), phase=6))


def test_cavalry_pass_through_a_masse():
    # "take a casualty on a 4+ for each infantry unit contacted": two units, 2d6, 1/4 1/2 1/4.
    horse = unit("d1", "cavalry", "hussars", side=DEFENDER, size=8)
    square = unit("a1", "infantry", "infantry_square")
    req = request("melee", horse, square, phase=11, numbers={"infantry_contacted": 2})
    prepared = prepare(req)
    assert prepared.dice == "2d6>=4"
    assert dict(prepared.odds)["Cavalry casualties"] == {"1 casualty": Fraction(1, 2), "0 casualties": Fraction(1, 4),
                                                          "2 casualties": Fraction(1, 4)}
    outcome = resolve(req, [4, 3])
    assert outcome.text.startswith("Cavalry pass through full movement distance") and outcome.text.endswith("The cavalry take 1 casualty.")
    d1 = after(req, outcome)["d1"]
    assert d1.size == 7 and d1.has("charge_marker")


def test_losing_a_melee():
    # Phase 7, Fail by 1 or 2: "Infantry not in line form line 2” back from the enemy."
    column = unit("a1", "infantry", "infantry_column", states={"lost_melee": 1, "in_melee": None})
    req = request("morale", column, phase=7)
    outcome = resolve(req, [6])
    assert outcome.text.startswith("Fail by 1 or 2: Infantry not in line form line 2” back from the enemy.")
    a1 = after(req, outcome)["a1"]
    assert a1.attr("unit_type") == "infantry_line" and not a1.has("lost_melee") and a1.has("in_melee")
    # Rout ends the melee of its opponent
    loser = unit("a2", "infantry", "infantry_line", quality="conscript", size=3, start=12, states={"lost_melee": 1})
    enemy = unit("d1", "infantry", "infantry_line", side=DEFENDER, states={"in_melee": None}, _opponent="a2")
    routed = request("morale", loser, phase=12, others=(enemy,))
    units = after(routed, resolve(routed, [6]))
    assert units["a2"].removed and not units["d1"].has("in_melee")


# ---------------------------------------------------------------------------
# The card's plain rolls, options and the phase checklist
# ---------------------------------------------------------------------------


def test_plain_rolls():
    # "it takes d6 casualties"; "loser retires d6”"
    line = unit("a1", "infantry", "infantry_line", states={"d6_casualties": None})
    req = request("cannot_form_line", line, phase=7)
    assert dict(prepare(req).odds)["Casualties"]["4 casualties"] == Fraction(1, 6)
    outcome = resolve(req, [4])
    assert outcome.text == "takes 4 casualties" and after(req, outcome)["a1"].size == 8
    assert not after(req, outcome)["a1"].has("d6_casualties")
    with pytest.raises(RulesError, match="owes no d6 casualties"):
        prepare(request("cannot_form_line", unit("a2", "infantry", "infantry_line"), phase=7))
    loser = unit("a3", "infantry", "infantry_line", states={"retires": None})
    retired = request("loser_retires", loser, phase=12)
    outcome = resolve(retired, [3])
    assert outcome.text == "retires 3”; the winner follows up" and not after(retired, outcome)["a3"].has("retires")
    with pytest.raises(RulesError, match="is rolled in phases 7, 12"):
        prepare(request("loser_retires", loser, phase=3))


def test_only_the_loser_that_failed_in_line_retires():
    # Phase 7, Fail by 1 or 2: "If already in line, loser retires d6” and the winner follows
    # up": the d6” is owed by that result; a unit that did not lose (or formed line) has none
    with pytest.raises(RulesError, match="owes no d6 inches: only the loser of a melee"):
        prepare(request("loser_retires", unit("a1", "infantry", "infantry_line"), phase=7))
    line = unit("a2", "infantry", "infantry_line", states={"lost_melee": 1, "in_melee": None})
    req = request("morale", line, phase=7)
    outcome = resolve(req, [6])  # Veteran 5 or less: a 6 fails by 1
    a2 = after(req, outcome)["a2"]
    assert a2.has("retires") and "retires d6”: roll it" in outcome.text
    assert RESOLVER.unfinished("phase_7", {"a2": a2}) == ["A2 retires d6” (Loser retires d6”)"]
    column = unit("a3", "infantry", "infantry_column", states={"lost_melee": 1, "in_melee": None})
    formed = request("morale", column, phase=7)
    assert not after(formed, resolve(formed, [6]))["a3"].has("retires")  # it forms line 2” back instead


def test_the_defender_may_play_the_french():
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    column = unit("a1", "infantry", "infantry_column")
    french = {"french_side": "defender"}
    assert prepare(request("fire", line, column, phase=8, options=french)).dice == "6d6>=4"
    with pytest.raises(RulesError, match="the Austrians do not shoot in phase 8: the French shoot in it"):
        prepare(request("fire", line, column, phase=8))


def test_a_unit_type_must_fit_its_arm():
    with pytest.raises(RulesError, match="its unit type is hussars"):
        prepare(request("move", unit("a1", "infantry", "hussars"), phase=3))


def test_phases_do_not_end_before_the_card_s_tests():
    hit = unit("d1", "infantry", "infantry_column", side=DEFENDER, states={"casualties": None})
    assert RESOLVER.unfinished("phase_2", {"d1": hit}) == ["D1 took casualties and checks morale"]
    closing = unit("a1", "infantry", "infantry_column", states={"charging": 1, "closing": 1}, _charge_target="d2")
    target = unit("d2", "infantry", "infantry_line", side=DEFENDER)
    assert RESOLVER.unfinished("phase_5", {"a1": closing, "d2": target}) == ["D2 checks morale to stand against A1"]
    charging = unit("a2", "infantry", "infantry_column", states={"charging": 1})
    assert RESOLVER.unfinished("phase_4", {"a2": charging}) == ["A2 checks morale to close for melee"]
    loser = unit("a3", "infantry", "infantry_line", states={"lost_melee": 1})
    assert RESOLVER.unfinished("phase_7", {"a3": loser}) == ["A3 lost a melee and checks morale"]
    marked = unit("a4", "cavalry", "dragoons", size=8, states={"charge_marker": None})
    assert RESOLVER.unfinished("phase_13", {"a4": marked}) == ["A4 rolls to recall"]
    failed_now = unit("a4", "cavalry", "dragoons", size=8, states={"charge_marker": None, "recall_failed": 2})
    assert RESOLVER.unfinished("phase_13", {"a4": failed_now}) == []
    assert RESOLVER.unfinished("phase_3", {"d1": hit, "a4": marked}) == []


def test_the_crew_dice_are_rolled_even_when_the_target_cannot_be_hit():
    # Skirmishers "6", -1 Long Range, -1 if 6lbs or lighter: 8, no hit; the column behind at medium
    # range needs 4+ -1: 5+, read on the same dice.
    guns = unit("a1", "artillery", "artillery", size=4, gun_pounds=6)
    skirmishers = unit("d1", "infantry", "skirmishers", side=DEFENDER, size=6)
    column = unit("d2", "infantry", "infantry_column", side=DEFENDER)
    first = request("artillery_fire", guns, skirmishers, ticked={"long_range", "light"}, others=(column,))
    assert prepare(first).dice == "4d6"
    units = after(first, resolve(first, [5, 6, 1, 2]))
    assert units["d1"].size == 6
    behind = request("artillery_behind", units["a1"], units["d2"], others=(units["d1"],))
    assert RESOLVER.action("artillery_behind").resolve(behind, None).text == "Unit behind: 2 hits on D2: 2 casualties"


# ---------------------------------------------------------------------------
# The card's content added to the resolver: each rule quoted from the card
# ---------------------------------------------------------------------------


def ticks_of(action, actor, target=None):
    return {t.id: t for t in RESOLVER.action(action).ticks(actor, target)}


def test_horse_artillery_unlimbers_in_phase_1():
    # 1. "Horse artillery may unlimber."
    horse_guns = unit("a1", "artillery", "limbered_artillery", size=4, horse_artillery=True)
    req = request("unlimber", horse_guns)
    assert prepare(req).needed == "Horse artillery may unlimber." and prepare(req).dice is None
    assert after(req, resolve(req))["a1"].attr("unit_type") == "artillery"
    with pytest.raises(RulesError, match="not horse artillery"):
        prepare(request("unlimber", unit("a2", "artillery", "limbered_artillery", size=4)))
    with pytest.raises(RulesError, match="unlimbered already"):
        prepare(request("unlimber", unit("a3", "artillery", "artillery", size=4, horse_artillery=True)))
    with pytest.raises(RulesError, match="phase 1"):
        prepare(request("unlimber", horse_guns, phase=3))


def test_light_guns_turn_up_to_1_inch_to_face_the_target():
    # 1. "Unlimbered Artillery less than 12 lbs. may turn and move 1” to face their target."
    column = unit("d1", "infantry", "infantry_column", side=DEFENDER)
    light = unit("a1", "artillery", "artillery", size=4, gun_pounds=6)
    req = request("artillery_fire", light, column, ticked={"light"}, numbers={"turn": 1})
    assert prepare(req).notes[0] == "Unlimbered Artillery less than 12 lbs. may turn and move 1” to face their target."
    assert resolve(req, [6, 1, 1, 1]).text == "turns and moves 1” to face its target; 1 hit on D1: 1 casualty; it checks morale in phase 2"
    heavy = unit("a2", "artillery", "artillery", size=4, gun_pounds=12)
    with pytest.raises(RulesError, match="A2 has 12 lb guns: only 'Unlimbered Artillery less than 12 lbs."):
        prepare(request("artillery_fire", heavy, column, ticked={"heavy"}, numbers={"turn": 1}))
    with pytest.raises(RulesError, match="must be a whole number of 0 to 1, not 2"):
        prepare(request("artillery_fire", light, column, numbers={"turn": 2}))


def test_double_move_over_24_inches_except_the_first_turn():
    # 3. "Double move if staying over 24” from the enemy, except 1st turn!": Inf. Column 8”, 16” from turn 2.
    column = unit("a1", "infantry", "infantry_column")
    assert prepare(request("move", column, phase=3, ticked={"over_24_from_enemy"}, turn=2)).needed.startswith("16”")
    first = prepare(request("move", column, phase=3, ticked={"over_24_from_enemy"}, turn=1)).needed
    assert first.startswith("8”") and "first turn: no double move" in first
    ticked = prepare(request("move", column, phase=3, ticked={"over_24_from_enemy", "first_turn"}, turn=2)).needed
    assert ticked.startswith("8”")


def test_the_45_degree_wheel_limit_on_moves_and_charges():
    # 3. "45 degree limit on wheeling."
    column = unit("a1", "infantry", "infantry_column")
    line = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    assert resolve(request("move", column, phase=3, numbers={"wheel": 45})).text == "moves up to 8” (8”), wheeling 45 degrees"
    with pytest.raises(RulesError, match="a wheel is limited to 45 degrees, not 50"):
        prepare(request("charge", column, line, phase=3, numbers={"wheel": 50}))
    with pytest.raises(RulesError, match="a wheel is limited to 45 degrees"):
        prepare(request("charge", unit("a2", "cavalry", "dragoons", size=8), line, phase=3, numbers={"wheel": 90}))


def test_opposing_lines_within_4_inches_are_locked_in_a_firefight():
    # 8. "Opposing lines of infantry within 4” of each other are locked in a firefight and cannot
    # move, charge or change formation."
    french = unit("a1", "infantry", "infantry_line")
    austrian = unit("d1", "infantry", "infantry_line", side=DEFENDER, size=12, start=15, quality="conscript")
    req = request("fire", french, austrian, phase=8, numbers={"distance": 4})
    outcome = resolve(req, [1, 1, 1, 1, 1, 5])
    assert outcome.text.endswith("locked in a firefight and cannot move, charge or change formation.")
    units = after(req, outcome)
    assert units["a1"].has("firefight") and units["d1"].has("firefight")
    assert ticks_of("move", units["d1"])["in_firefight"].checked
    assert "locked in a firefight: no move" in prepare(request("move", units["d1"], phase=8, ticked={"in_firefight"})).needed
    with pytest.raises(RulesError, match="locked in a firefight"):
        prepare(request("change_formation", units["d1"], phase=8, ticked={"column", "in_firefight"}))
    # a column is not a line: no lock, and it cannot tick one
    column = unit("d2", "infantry", "infantry_column", side=DEFENDER)
    fired = request("fire", french, column, phase=8, numbers={"distance": 2})
    assert not after(fired, resolve(fired, [1] * 6))["d2"].has("firefight")
    assert ticks_of("move", column)["in_firefight"].excluded == "only opposing lines of infantry are locked in a firefight"
    # the Austrian line routs (Conscript 4, -1 per 3 casualties: a 6 fails by 3): the French line is free
    routed = request("morale", units["d1"], phase=9, others=(units["a1"],))
    assert after(routed, resolve(routed, [6]))["a1"].has("firefight") is False


def test_artillery_supported_by_a_unit_within_2_inches():
    # 6. "Artillery Supported by a unit 2” behind or beside it. The supporting unit fights instead of the Artillery."
    guns = unit("d1", "artillery", "artillery", side=DEFENDER, size=4)
    line = unit("d2", "infantry", "infantry_line", side=DEFENDER, size=9)
    req = request("support", line, guns, phase=6, numbers={"distance": 2})
    assert prepare(req).needed.startswith("Artillery Supported by a unit 2” behind or beside it.")
    units = after(req, resolve(req))
    assert units["d1"].attr("_supported_by") == "d2"
    with pytest.raises(RulesError, match="too far to support"):
        prepare(request("support", line, guns, phase=6, numbers={"distance": 3}))
    with pytest.raises(RulesError, match="Support artillery takes a friendly unit"):
        check_request(RESOLVER, request("support", unit("a9", "infantry", "infantry_line"), guns, phase=6))
    # only artillery is supported: another unit is not offered as the target, and refused by name
    other = unit("d3", "infantry", "infantry_column", side=DEFENDER, size=9)
    with pytest.raises(RulesError, match="D3 is infantry: Support artillery is only at artillery"):
        check_request(RESOLVER, request("support", line, other, phase=6))
    # Elite column, 8 figures, 8 dice, against the Veteran line, 9 figures, 4 dice: the line fights, not the guns.
    column = unit("a1", "infantry", "infantry_column", size=8, quality="elite")
    assert ticks_of("melee", column, units["d1"])["supported"].checked
    fight = request("melee", column, units["d1"], phase=6, ticked={"supported"}, others=(units["d2"],))
    prepared = prepare(fight)
    assert prepared.dice_text() == "attacker A1 8d6; defender D2 4d6" and prepared.notes == ("D2 fights instead of the Artillery",)
    result = after(fight, resolve(fight, [4, 4, 4, 1, 1, 1, 1, 1, 6, 6, 1, 1]))
    assert result["d2"].size == 6 and result["d2"].has("lost_melee") and result["d1"].size == 4
    # unticked, the guns are unsupported: "Artillery destroyed"
    alone = request("melee", column, units["d1"], phase=6, others=(units["d2"],))
    assert after(alone, resolve(alone))["d1"].removed


def test_austrian_columns_form_line_or_take_d6_casualties():
    # 2. Fail by 1 or 2: "Austrian infantry columns and battalion masse form line. (Take d6 casualties
    # if within 3” of another Austrian infantry column to the flank.)"; 7.: "If a unit is unable to form
    # line for any reason when required, it takes d6 casualties."
    column = unit("d1", "infantry", "infantry_column", side=DEFENDER, size=9, start=12, states={"casualties": None})
    flank = request("morale", column, phase=2, ticked={"column_on_flank"})
    outcome = resolve(flank, [6])
    assert outcome.text.endswith("D1 takes d6 casualties: roll them.")
    d1 = after(flank, outcome)["d1"]
    assert d1.attr("unit_type") == "infantry_line" and d1.has("d6_casualties") and d1.has("halted")
    assert RESOLVER.unfinished("phase_2", {"d1": d1}) == ["D1 takes d6 casualties (unable to form line)"]
    roll = request("cannot_form_line", d1, phase=2)
    rolled = after(roll, resolve(roll, [3]))["d1"]
    assert rolled.size == 6 and not rolled.has("d6_casualties") and RESOLVER.unfinished("phase_2", {"d1": rolled}) == []
    unable = request("morale", column, phase=2, ticked={"unable_to_form_line"})
    stuck = after(unable, resolve(unable, [6]))["d1"]
    assert stuck.attr("unit_type") == "infantry_column" and stuck.has("d6_casualties")
    # a pass forms no line and owes nothing
    assert not after(unable, resolve(unable, [1]))["d1"].has("d6_casualties")
    # the French do not form line in phase 2, and the 3” flank rule is the Austrians' (phases 2 and 9)
    french = unit("a1", "infantry", "infantry_column", size=9, start=12, states={"casualties": None})
    with pytest.raises(RulesError, match="does not form line on a failed test in phase 2"):
        prepare(request("morale", french, phase=2, ticked={"unable_to_form_line"}))
    charging = unit("a2", "infantry", "infantry_column", states={"charging": 1})
    with pytest.raises(RulesError, match="for Austrians in phases 2 and 9"):
        prepare(request("morale", charging, phase=4, ticked={"infantry_charging", "column_on_flank"}))
    # 4. "Charging infantry columns form line 2” from target. (d6 casualties if unable to form line)"
    failed = request("morale", charging, phase=4, ticked={"infantry_charging", "unable_to_form_line"})
    a2 = after(failed, resolve(failed, [5]))["a2"]
    assert a2.attr("unit_type") == "infantry_column" and a2.has("d6_casualties") and not a2.has("charging")


def test_each_side_is_offered_only_its_own_acts_of_phases_3_and_8():
    # '3. French Move/Austrian Infantry, Artillery Shoot', '8. Austrians Move/French ... Shoot':
    # the Austrians' fire is not offered to French units in phase 3, nor the French move in 8
    # (issue 24: French units were shown "... do not shoot in phase 3: it is the austrian' fire")
    options = resolve_options("napoleonic_13phase", {})
    french = unit("a1", "infantry", "infantry_column")
    austrian = unit("d1", "infantry", "infantry_line", side=DEFENDER)
    assert options["french_side"] == ATTACKER
    for phase, mover, shooter in (("phase_3", french, austrian), ("phase_8", austrian, french)):
        for act in ("move", "charge", "change_formation"):
            assert RESOLVER.not_for(phase, act, mover, options) is None
            assert "move, not the" in RESOLVER.not_for(phase, act, shooter, options)
        for act in ("fire", "square_fire", "skirmishers_evade"):
            assert RESOLVER.not_for(phase, act, shooter, options) is None
            assert "shoot, not the" in RESOLVER.not_for(phase, act, mover, options)
    assert RESOLVER.not_for("phase_3", "fire", french, options) == (
        "in phase 3 (French Move/Austrian Infantry, Artillery Shoot) the Austrians shoot, not the French")
    # the French played by the defender: the same acts go the other way
    swapped = resolve_options("napoleonic_13phase", {"french_side": DEFENDER})
    assert RESOLVER.not_for("phase_3", "fire", french, swapped) is None
    # other phases are the card's for both sides
    assert RESOLVER.not_for("phase_6", "melee", french, options) is None

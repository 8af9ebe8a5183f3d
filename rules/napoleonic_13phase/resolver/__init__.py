"""The French-Austrian 13-phase card on the resolver screen (see rules/resolver.py).

One turn is the card's 13 phases, both sides acting in each (`alternating` False).
The card's sides are nations: the rules option french_side says which side of the
battle plays its French; the other plays its Austrians.  A phase names who acts
("French Move/Austrian Infantry, Artillery Shoot"), so every phase is open to both
sides on the checklist and the card's procedures refuse the side that does not act.

A unit counts figures (crew figures for artillery).  Its `unit_type` is its line on
the movement table (infantry_column, battalion_masse, uhlans, limbered_artillery...):
for infantry that is its formation, which results change.  Words used below:

- *casualties*: a unit hit by fire carries them until it checks morale (phase 2
  for artillery fire, 4 or 9 for shooting); the phase does not end before it does;
- *charging*: a unit that charged this turn, with its target; an infantry column
  that passes its test to close is *closing*, and the enemy infantry it charges
  tests to stand (phases 5 and 10) before the phase ends; if that infantry stands,
  the column is *held off* 2” away (it may form line; French Guard may press on);
- *in contact*: the charge reached the enemy: the two fight in the next melee
  phase; once they have fought they are *in melee* until one routs, is destroyed
  or recalls; a loser *lost a melee* and checks morale in phase 7 or 12;
- *charge marker*: where charging cavalry began; it must roll to recall in phase 13
  and cannot move until it does;
- *firefight*: two opposing lines within 4” when one shoots the other; neither
  moves nor changes formation until one leaves the table or the umpire ends it;
- *d6 casualties*: a failed test made the unit form line where it could not (or
  beside another Austrian column): it rolls them before the phase ends;
- a *supporting* unit, 2” behind or beside artillery, fights instead of it.

A routed unit ('Rout. Remove the unit from the game.') leaves the table without
losing figures: the campaign counts it in its own pursuit (conversion.toml).

Modules: `units` (a Unit as the procedures read it, shared effects), `artillery`
(phase 1), `morale` (2, 4, 7, 9, 12, 13), `standing` (5, 10), `movement` and `fire`
(3, 8), `melee` (6, 11), `checklist` (the phases, compulsory tests, plain rolls).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.loader import get_table
from rules.napoleonic_13phase.data import RULESET, card
from rules.napoleonic_13phase.resolver import (
    artillery,
    checklist,
    fire,
    melee,
    morale,
    movement,
    standing,
)
from rules.napoleonic_13phase.resolver.units import (
    BEHIND,
    CASUALTIES,
    D6_CASUALTIES,
    HELD_OFF,
    RETIRES,
    STATES,
    SUPPORT,
)
from rules.options import resolve_options
from rules.resolver import CHARGER, CONTACT, ENDS, ENEMY, FRIEND, MAKES, NO_TARGET, Action, Attribute, Resolver


def _side_names(chosen: Mapping[str, str]) -> dict[str, str]:
    """The card's French and Austrians, as this battle's sides (option french_side)."""
    french = resolve_options(RULESET, chosen)["french_side"]
    austrian = "defender" if french == "attacker" else "attacker"
    return {french: "French", austrian: "Austrian"}


RESOLVER = Resolver(
    side_names=_side_names,
    ruleset=RULESET,
    title="French-Austrian 13-phase rules",
    size_label="figures",
    attributes=(
        Attribute("quality", "Class", choices=tuple(map(str, get_table(RULESET, "morale").rows.values())), default="veteran"),
        Attribute("unit_type", "Unit type (movement table; formation for infantry)", choices=tuple(card().units),
                  default="infantry_column",
                  by_arm=tuple((arm, tuple(u for u, t in card().units.items() if t.arm == arm))
                               for arm in ("infantry", "cavalry", "artillery"))),
        Attribute("gun_pounds", "Guns (lbs)", kind="int", lowest=1, default=6, arms=("artillery",)),
        Attribute("horse_artillery", "Horse artillery", kind="bool", default=False, arms=("artillery",)),
        Attribute("general", "General attached", kind="bool", default=False),
        Attribute("lancers", "Lancers", kind="bool", default=False, help="uhlans carry lances without the tick",
                  arms=("cavalry",)),
        Attribute("guard", "Guard infantry", kind="bool", default=False, arms=("infantry",)),
    ),
    states=STATES,
    phases=checklist.phases(),
    actions=(
        Action("unlimber", "Horse artillery unlimbers", NO_TARGET, artillery.unlimber_prepare, artillery.unlimber_resolve,
               help="Horse artillery may unlimber in phase 1 (it also unlimbers by firing)", arms=("artillery",)),
        Action("artillery_fire", "Artillery fire", ENEMY, artillery.artillery_prepare, artillery.artillery_resolve,
               numbers=artillery.artillery_numbers, ticks=artillery.artillery_ticks,
               help="One die per crew figure; close or long range on the artillery stick (neither: medium)",
               arms=("artillery",)),
        Action("artillery_behind", f"Unit {BEHIND}” behind the target", ENEMY, artillery.behind_prepare, artillery.behind_resolve,
               ticks=artillery.behind_ticks,
               help=f"After the battery's fire: any unit {BEHIND}” behind the target, all on level ground and in range",
               arms=("artillery",)),
        Action("morale", "Check morale", NO_TARGET, morale.prepared(morale.morale_check, "morale"), morale.morale_resolve,
               numbers=morale.casualty_numbers, ticks=morale.morale_ticks),
        Action("stand", "Check morale to stand for melee", ENEMY, standing.stand_prepare, standing.stand_resolve,
               numbers=morale.casualty_numbers, ticks=standing.stand_ticks,
               help="The charged infantry tests; its target is the unit charging it", reach=CHARGER),
        Action("guard_presses", "Guard continues the charge", ENEMY, standing.guard_prepare, standing.guard_resolve,
               help="French Guard infantry placed 2” away may take one casualty and continue the charge", contact=MAKES),
        Action("recall", "Recall cavalry", NO_TARGET, morale.prepared(morale.recall_check, "recall"), morale.recall_resolve,
               numbers=morale.casualty_numbers, ticks=morale.recall_ticks, arms=("cavalry",), contact=ENDS),
        Action("move", "Move", NO_TARGET, movement.move_prepare, movement.move_resolve, ticks=movement.move_ticks,
               numbers=movement.wheel_numbers),
        Action("change_formation", "Change formation", NO_TARGET, movement.formation_prepare, movement.formation_resolve,
               ticks=movement.formation_ticks),
        Action("charge", "Charge", ENEMY, movement.charge_prepare, movement.charge_resolve, ticks=movement.charge_ticks,
               numbers=movement.wheel_numbers, contact=MAKES),
        Action("fire", "Fire", ENEMY, fire.fire_prepare, fire.fire_resolve, numbers=fire.fire_numbers, ticks=fire.fire_ticks),
        Action("square_fire", "Square fires at charging cavalry", ENEMY, fire.square_prepare, fire.square_resolve,
               arms=("infantry",), reach=CHARGER, why="Squares contacted fire two dice"),
        Action("skirmishers_evade", "Skirmishers evade a charge", NO_TARGET, movement.evade_prepare, movement.evade_resolve,
               arms=("infantry",), contact=ENDS),
        Action("support", "Support artillery", FRIEND, melee.support_prepare, melee.support_resolve,
               numbers=melee.support_numbers,
               help=f"A unit {SUPPORT}” behind or beside the artillery fights instead of it", arms=("infantry", "cavalry"),
               target_arms=("artillery",)),
        Action("melee", "Fight a melee", ENEMY, melee.melee_prepare, melee.melee_resolve, numbers=melee.melee_numbers,
               ticks=melee.melee_ticks, help="The actor is the unit that charged (either unit of a melee that goes on)",
               reach=CONTACT, why="Charging cavalry make a full move, fighting every unit contacted"),
        Action("loser_retires", "Loser retires d6”", NO_TARGET,
               *checklist.plain("loser_retires", RETIRES, "only the loser of a melee that failed its test in line retires"),
               contact=ENDS),
        Action("cannot_form_line", "d6 casualties (unable to form line)", NO_TARGET,
               *checklist.plain("cannot_form_line", D6_CASUALTIES, "a failed morale test that makes it form line when "
                                "it cannot gives them (tick it on the test)")),
    ),
    alternating=False,
    turn_label="turn",
    unfinished=checklist.unfinished,
    not_for=checklist.not_for,  # phases 3 and 8: one side moves, the other shoots
    breaks_contact=(HELD_OFF,),  # the charger placed 2” away: the infantry it charged stood
    due=lambda u: (("morale",) if u.has(CASUALTIES) else ()) + (("cannot_form_line",) if u.has(D6_CASUALTIES) else ()),
    # option routed_at_end: a unit removed from the game is lost whole
    lost_at_end=lambda u, o: u.start if u.removed and o.get("routed_at_end", "lost") == "lost" else u.lost,
)

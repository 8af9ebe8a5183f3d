"""The d10 battalion card (seed 001) on the resolver screen (see rules/resolver.py).

A unit is one battalion (regiment, battery) of stands; a battery counts tubes.
Words of the card used throughout:

- *class*: Elite, Line or Conscript; it gives the *class dice* (option class_dice)
  rolled for morale, movement, local initiative, skirmish and disruptive terrain;
- *CW level*: the unit's steadiness, the column of the morale table; a unit
  drawn from the campaign takes it from its force's cohesion (conversion.toml
  [cw_level]);
- *casualty step*: one casting lost ("Infantry Stands are 3 castings"; cavalry
  and guns by option castings_per_stand). A unit keeps the steps it took
  (`steps_lost`) and loses a stand for each full stand of castings;
- *AP*: ammunition points, counted as spent (`ap_spent`); the card gives no
  starting stock, so being out of ammunition is a state the umpire puts on;
- *IL*: the influence level of a leader attached (option leader_il: his rating, or the
  Leader Attachment grid).

The card prints no sequence of play. Its own words give the order read here:
"The two army commanders roll for initiative at the beginning of the turn", the
winner moving first; "All units must roll to move"; charges, with defensive fire
at the chargers ("Def. Fire Range"); fire; melee ("MELEE!" on the charge table);
and morale, which is also checked "every time" one of its causes happens. Both
sides act in every phase of one turn (`alternating` False); the side holding the
initiative acts first in each, which the umpire keeps to.

The modules: units (a Unit read as the procedures' situation, and its states),
prepare (requests shown before the dice), effects (what results do to units),
initiative (the turn), movement, fire, charges (and melee), morale.
"""

from __future__ import annotations

from rules.napoleonic_d10 import charge as charging
from rules.napoleonic_d10 import fire as firing
from rules.napoleonic_d10.data import (
    RULESET,
    card,
    cell_text,
    cw_level_for,
    table,
    values_of,
)
from rules.napoleonic_d10.resolver import charges, effects, fire, initiative, morale, movement
from rules.napoleonic_d10.resolver.initiative import in_turn
from rules.napoleonic_d10.resolver.prepare import rolled
from rules.napoleonic_d10.resolver.units import (
    AMMO_ROLL,
    AP,
    BROKEN,
    DISORDERED,
    FIREFIGHT,
    IN_MELEE,
    MORALE_DUE,
    MOVED,
    NONE,
    OUT_OF_AMMO,
    ROLLED_TO_MOVE,
    SHAKEN,
    SMOKE,
    STEPS,
    SURRENDERING,
    situation_ticks,
)
from rules.resolver import (
    BOTH,
    CONTACT,
    ENEMY,
    FRIEND,
    MAKES,
    NO_TARGET,
    Action,
    Attribute,
    Phase,
    Resolver,
    State,
)

_PRINTED = {
    "initiative": "The two army commanders roll for initiative at the beginning of the turn. To test initiative, the two "
                  "opposing commanders each roll 1d10 and apply any modifiers. The high modified die wins. If during "
                  "initiative, the combined rolls (without modifiers) of the two commanders equals or exceeds 17, the "
                  "turn ends immediately.",
    "movement": " ".join(table("movement").card_notes),
    "charges": "Charge in the Open / Charge in Cover: Attacker, Defender. Def. Fire Range: Small Arms 4\", Artillery Short.",
    "fire": " ".join(table("fire").card_notes),
    "melee": "Both sides roll 1d10 and add modifiers. The high modified roll wins. The loser takes casualty step losses "
             "equal to the difference of the modified die rolls. The winner takes casualty step losses equal to the "
             "difference of the unmodified die rolls. Both sides check morale, and if neither retreats, the melee continues.",
    "morale": "Check morale every time: " + "; ".join(card().morale.checks.values()),
}

_WHO = {  # the checklist line of the phase now: the card's words, shortened
    "initiative": "the two army commanders roll 1d10; the high modified die moves first",
    "movement": "all units must roll to move, the side with the initiative first",
    "charges": "chargers against their targets; defensive fire at 4\" (guns: Short)",
    "fire": "both sides fire, the side with the initiative first",
    "melee": "both sides of each melee roll 1d10 and add modifiers",
    "morale": "every unit with a cause checks morale (Check morale every time)",
}

_ACTIONS = {
    "initiative": ("initiative",),
    "movement": ("move", "disruptive_terrain", "crash_through"),
    "charges": ("charge", "fire", "fire_discipline", "crash_through"),
    "fire": ("fire", "skirmish", "fire_discipline"),
    "melee": ("melee",),
    "morale": ("morale",),
}

PHASES = tuple(Phase(pid, pid.capitalize(), BOTH, actions, _PRINTED[pid], _WHO[pid]) for pid, actions in _ACTIONS.items())

_RATINGS = tuple(str(v) for v in values_of("movement", "rating"))


def _choices(table_id: str, axis: str) -> tuple[str, ...]:
    return tuple(str(v) for v in values_of(table_id, axis))


ATTRIBUTES = (
    Attribute("quality", "Class", choices=_choices("class_dice", "unit_class"), default="line"),
    Attribute("cw_level", "CW level", kind="int", default=9),
    Attribute("formation", "Formation", choices=charging.FORMATIONS, default="line"),
    Attribute("cavalry_type", "Cavalry", choices=("light", "heavy", NONE), default=NONE),
    Attribute("weapon", "Small arms", choices=(*firing.small_arms(), NONE), default=NONE),
    Attribute("gun", "Guns (fire)", choices=(*firing.guns(), NONE), default=NONE),
    Attribute("battery", "Guns (movement)", choices=(*_choices("artillery_movement", "gun"), NONE), default=NONE),
    Attribute("co_rating", "CO's rating", choices=_RATINGS, default="average"),
    Attribute("leader_rating", "Leader attached", choices=(*_RATINGS, NONE), default=NONE),
    Attribute("leader_level", "Leader's command level", choices=_choices("leader_attachment", "level"), default="division"),
    Attribute("leader_at", "Leader attached at", choices=_choices("morale_command", "attached_at"), default="brigade"),
    Attribute(STEPS, "Casualty steps taken", kind="int", default=0),
    Attribute(AP, "AP spent", kind="int", default=0),
)

STATES = (
    State(SHAKEN, "shaken", cell_text("morale_duration", status="shaken")),
    State(DISORDERED, "disordered", cell_text("morale_duration", status="disordered")),
    State(BROKEN, "broken", cell_text("morale_duration", status="broken")),
    State(SMOKE, "in smoke", "until the umpire clears it (the card gives no duration)"),
    State(FIREFIGHT, "in a firefight", "until the umpire ends it"),
    State(IN_MELEE, "in melee", "until a side retreats after its morale check"),
    State(OUT_OF_AMMO, "out of ammunition", "until resupplied (the umpire)"),
    State(MOVED, "moved", "this turn and the next (Moved Last Turn)"),
    State(ROLLED_TO_MOVE, "rolled to move", "this turn"),
    State(MORALE_DUE, "must check morale", "until it checks"),
    State(SURRENDERING, "rolls for the percentage which surrenders", "until it rolls"),
    State(AMMO_ROLL, "rolls again for ammunition", "until it rolls"),
)

ACTIONS = (
    Action("initiative", "Initiative", NO_TARGET, in_turn(initiative.prepare), initiative.resolve,
           numbers=initiative.numbers, ticks=initiative.ticks,
           help="Any unit of a side rolls for its army commander, against the enemy army's; this side rolls first",
           repeats=True),  # equal dice: both commanders roll again
    Action("contest_initiative", "Contest the initiative", ENEMY, in_turn(initiative.prepare), initiative.resolve,
           numbers=initiative.numbers, ticks=initiative.ticks, anytime=True,
           help="A Division or better commander contests the initiative against the active division's commander",
           repeats=True),
    Action("move", "Roll to move", NO_TARGET, in_turn(movement.move_prepare), movement.move_resolve,
           ticks=movement.move_ticks),
    Action("local_initiative", "Local initiative", NO_TARGET, in_turn(rolled(movement.local_check, "Local initiative")),
           movement.local_resolve, ticks=movement.local_ticks, anytime=True,
           help="Any single unit at any time; mandatory if enemy action endangers its flank"),
    Action("disruptive_terrain", "Disruptive terrain", NO_TARGET,
           in_turn(rolled(movement.terrain_check, "Disruptive terrain")), movement.terrain_resolve,
           ticks=movement.terrain_ticks),
    Action("crash_through", "Crash through", NO_TARGET, in_turn(rolled(morale.crash_check, "Crash through")),
           morale.crash_resolve, ticks=morale.ticks),
    Action("charge", "Charge", ENEMY, in_turn(charges.charge_prepare), charges.charge_resolve,
           numbers=charges.charge_numbers, ticks=charges.charge_ticks, contact=MAKES),
    Action("fire", "Fire", ENEMY, in_turn(fire.fire_prepare), fire.fire_resolve, numbers=fire.fire_numbers,
           ticks=fire.fire_ticks),
    Action("fire_discipline", "Fire discipline", NO_TARGET, in_turn(rolled(fire.discipline_check, "Fire discipline")),
           fire.discipline_resolve, ticks=lambda a, t: situation_ticks(a)),
    Action("skirmish", "Skirmish combat", ENEMY, in_turn(rolled(fire.skirmish_check, "Skirmish combat")),
           fire.skirmish_resolve, numbers=fire.skirmish_numbers,
           help="The unit the skirmish screen fires at rolls its class dice; its target is the enemy screen"),
    Action("melee", "Melee round", ENEMY, in_turn(charges.melee_prepare), charges.melee_resolve,
           ticks=charges.melee_ticks, reach=CONTACT),
    Action("morale", "Morale check", NO_TARGET, morale.prepare, morale.resolve,
           numbers=morale.numbers, ticks=morale.ticks, anytime=True),
    Action("friend_breaks", "A friend within 3\" breaks or routs", NO_TARGET, morale.friend_breaks_prepare,
           morale.friend_breaks_resolve, numbers=morale.friend_breaks_numbers, anytime=True,
           help="The unit that saw a friendly unit break or rout; it must then check morale"),
    Action("pass_through", "Pass through a friend", FRIEND, morale.pass_through_prepare, morale.pass_through_resolve,
           anytime=True, help="A Disordered or worse unit passes through the target, which must then check morale"),
    Action("surrender", "Surrender", NO_TARGET, charges.surrender_prepare, charges.surrender_resolve, anytime=True),
    Action("ammunition", "Ammunition (a natural 10)", NO_TARGET, fire.ammunition_prepare, fire.ammunition_resolve,
           anytime=True),
)

RESOLVER = Resolver(
    ruleset=RULESET,
    title="Napoleonic d10 battalion rules",
    size_label="stands",
    attributes=ATTRIBUTES,
    states=STATES,
    phases=PHASES,
    actions=ACTIONS,
    alternating=False,
    turn_label="turn",
    unfinished=initiative.unfinished,
    converted=lambda arm, cohesion: {"cw_level": cw_level_for(cohesion)},  # conversion.toml [cw_level]
    breaks_contact=(BROKEN,),
    due=lambda u: tuple(a for s, a in ((MORALE_DUE, "morale"), (SURRENDERING, "surrender"), (AMMO_ROLL, "ammunition"))
                        if u.has(s)),
    reconcile=effects.reconcile,
    prefill=initiative.prefill,
    battle_state=initiative.BATTLE_STATE,
    pending=initiative.pending,
)

"""The French UC/UM card (seed 003) on the resolver screen (see rules/resolver.py).

A unit here is one UC (unité de combat); its size is its EC (éléments combattants,
bases).  Its UM (unité de manœuvre, brigade) and division are the attributes `um`
and `division`; left empty, the UC of one campaign force form one UM and a side's
UC one division.  Each side plays the card's Phases 1 to 3 in its own bound: the card
does not say so, but 'Tir et Sauvegardes adverses' (fire, and the enemy's saves), the
'UC chargés' answering the chargers and the 'vainqueur' pursuing read as one side's
turn that the other answers where the card says so (rules/resolver.py gives a rule
set one sequence, so this reading is not an option).  A state lasting 1 bound ends
when the other side's bound begins.

Hits are kept on the UC hit until it rolls its saves, as the card does them
('Tir et Sauvegardes adverses', '(c) Déterminer les touches et faire les
sauvegardes'): `fire_hits` save on 3+, `melee_hits` on 4+; each hit not saved is
one EC lost (rules option loss_unit).  Steps 3.1, 3.6, 3.8 and 3.9 do not end
while hits of theirs are waiting.  `round_losses` keeps the EC a UC lost in the
last round of melee, for the test of step 3.9 (rules option melee_morale_test).

The card loops back ('allez à (c)' after a test passed, 'Si nouveau contact allez
à (a)'); the checklist only moves forward, so step 3.9 also holds the melee and
its saves of the next round, and step 3.11 the whole charge sequence of a new
contact.  Where the card is silent: a failed test is a rupture (rules option
failed_test_effect) and the UC stays 'en rupture' until the umpire takes the state
off, the card printing no rally; artillery does not charge; a UM is lost to its
division when none of its UC is left on the table out of rupture.

The modules, each with one job: units (a Unit read as the procedures' situation),
shown (a check on screen: number needed, odds, ticks, the card's words), morale (the
ticks and situation of every morale test), tests (the Phase 1 loss tests), ranks
(steps 1.3 and 2.1), movement (Phase 2), fire (fire, priority targets and saves),
charge (the charge and its tests), melee (melee and after), sequence (the
checklist); this module assembles them.
"""

from __future__ import annotations

from rules.napoleonic_uc_um.data import RULESET, choice_labels
from rules.napoleonic_uc_um.resolver import charge, fire, melee, movement, ranks
from rules.napoleonic_uc_um.resolver.morale import flank_numbers, morale_ticks
from rules.napoleonic_uc_um.resolver.sequence import phases, unfinished
from rules.napoleonic_uc_um.resolver.tests import (
    loss_test_prepare,
    loss_test_resolve,
    loss_test_ticks,
)
from rules.napoleonic_uc_um.resolver.units import (
    CHANGED,
    CHARGED,
    CHARGING,
    COUNTER_CHARGED,
    DISORDERED,
    FALLEN_BACK,
    FIRE_HITS,
    FIRED,
    FLANK_CHARGE,
    MELEE_HITS,
    MOVED,
    NONE,
    RALLYING,
    ROUND_LOSSES,
    ROUT,
    TESTED_A,
    UNCOMMANDED,
    WEAPONS,
    qualities,
    quality_labels,
)
from rules.napoleonic_uc_um.troops import CAVALRY_KINDS, FORMATIONS
from rules.resolver import (
    ACTIVE,
    BOTH,
    CHARGER,
    CONTACT,
    ENEMY,
    INACTIVE,
    MAKES,
    NO_TARGET,
    Action,
    Attribute,
    Resolver,
    State,
)

RESOLVER = Resolver(
    ruleset=RULESET,
    title="French UC/UM rules",
    size_label="EC",
    attributes=(
        Attribute("quality", "Expérience/tempérament", choices=qualities(), default="aguerri/confiant",
                  labels=quality_labels(),
                  help="experience (Elite 2+ ... Conscrit 5+ to hit) / temperament (Intrépide 3+ ... Hésitant 5+ morale)"),
        Attribute("formation", "Formation", choices=tuple(dict.fromkeys(f for fs in FORMATIONS.values() for f in fs)),
                  default="line", by_arm=tuple(FORMATIONS.items()), labels=choice_labels("formation"),
                  help="infantry: line, attack_column, march_column, solid_square, hollow_square; "
                  "cavalry: line, column; artillery: limbered (attelée), unlimbered (dételée)"),
        Attribute("kind", "Cavalerie (kind of cavalry)", choices=(NONE, *CAVALRY_KINDS), default=NONE,
                  labels=choice_labels("kind"),
                  by_arm=(("infantry", (NONE,)), ("cavalry", (NONE, *CAVALRY_KINDS)), ("artillery", (NONE,)))),
        Attribute("weapon", "Arme (weapon)", choices=WEAPONS, default="musket", labels=choice_labels("weapon"),
                  by_arm=(("infantry", WEAPONS[:3]), ("cavalry", WEAPONS[:3]), ("artillery", WEAPONS[3:])),
                  help="musket (Mousquet), rifle (Carabine), other (Autres armes), heavy/medium/light artillery"),
        Attribute("battery", "Artillerie (battery)", choices=(NONE, "foot", "horse", "irregular"), default=NONE,
                  labels=choice_labels("battery"),
                  help="à pied, à cheval, irrégulière: speed limbered, and command distance (option artillery_command_distance)"),
        Attribute("fire_discipline", "Discipline de feu (fire discipline)", choices=("ordinary", "good", "poor"),
                  default="ordinary", labels=choice_labels("fire_discipline")),
        Attribute("regimental_artillery", "Artillerie régimentaire (regimental artillery)", kind="bool", default=False),
        Attribute("in_cover", "A couvert (in cover)", kind="bool", default=False),
        Attribute("national_characteristic", "Caractéristique nationale (national characteristic)", kind="bool",
                  default=False),
        Attribute("um", "UM (manoeuvre unit)", kind="text", default="",
                  help="empty: the UC of one campaign force form one UM"),
        Attribute("division", "Division", kind="text", default="", help="empty: all the side's UC form one division"),
        Attribute(FIRE_HITS, "Touches de tir à sauvegarder (fire hits waiting)", kind="int", default=0),
        Attribute(MELEE_HITS, "Touches de corps à corps à sauvegarder (melee hits waiting)", kind="int", default=0),
        Attribute(ROUND_LOSSES, "EC perdus au dernier tour de combat (EC lost in the last melee round)", kind="int",
                  default=0),
    ),
    states=(
        State(DISORDERED, "en désordre (disordered)", "until step 3.12 of a turn it stood still"),
        State(RALLYING, "pion de ralliement (rally marker)", "until step 3.12 of a turn it stood still"),
        State(ROUT, "en rupture (broken)", "until the umpire takes it off: the card prints no rally"),
        State(FALLEN_BACK, "en repli (falling back)", "this bound"),
        State(UNCOMMANDED, "non commandé (uncommanded)", "this bound"),
        State(MOVED, "a bougé (moved)", "this bound"),
        State(CHANGED, "a changé de formation (changed formation)", "this bound"),
        State(FIRED, "a tiré (fired)", "this bound"),
        State(CHARGING, "en charge (charging)", "this bound"),
        State(FLANK_CHARGE, "charge de flanc ou de revers (charging a flank or rear)", "this bound"),
        State(CHARGED, "chargé (charged)", "this bound"),
        State(COUNTER_CHARGED, "a contre-chargé (counter-charged)", "this bound"),
        State(TESTED_A, "a passé le test (a) (took test (a))", "this bound"),
    ),
    phases=phases(),
    actions=(
        Action("loss_test", "Test de moral, UC (loss test)", NO_TARGET, loss_test_prepare, loss_test_resolve,
               numbers=flank_numbers, ticks=loss_test_ticks, help="A UC that lost more than half its EC"),
        Action("um_test", "Test de moral, UM (UM loss test)", NO_TARGET, loss_test_prepare, loss_test_resolve,
               numbers=flank_numbers, ticks=loss_test_ticks,
               help="Pick any UC of the UM: the UM tests with its UC's temperament (option formation_test_temperament)"),
        Action("division_test", "Test de la Division (division test)", NO_TARGET, loss_test_prepare,
               loss_test_resolve, numbers=flank_numbers, ticks=loss_test_ticks, help="Pick any UC of the division"),
        Action("replace_general", "Remplacement du général de brigade (general replaced)", NO_TARGET,
               ranks.general_prepare, ranks.general_resolve, ticks=ranks.general_ticks,
               help="Pick any UC of the UM whose général de brigade was killed or captured"),
        Action("fill_ranks", "Comblent les rangs (fill the ranks)", NO_TARGET, ranks.ranks_prepare,
               ranks.ranks_resolve, numbers=ranks.ranks_numbers,
               help="Under the option loss_unit = figure: the EC whose figures are gone come off"),
        Action("command", "Distance de commandement (command)", NO_TARGET, movement.command_prepare,
               movement.command_resolve, numbers=movement.command_numbers),
        Action("move", "Mouvement (move)", NO_TARGET, movement.move_prepare, movement.move_resolve,
               numbers=movement.going_numbers, ticks=movement.move_ticks),
        Action("change_formation", "Changement de formation (change formation)", NO_TARGET,
               movement.formation_prepare, movement.formation_resolve, ticks=movement.formation_ticks),
        Action("fire", "Tir (fire)", ENEMY, fire.fire_prepare, fire.fire_resolve, numbers=fire.fire_numbers,
               ticks=fire.fire_ticks, help="In step 3.5, defensive fire of a charged UC at its charger"),
        Action("save", "Sauvegardes (saves)", NO_TARGET, fire.save_prepare, fire.save_resolve, acts=BOTH,
               help="The UC hit rolls one die per hit waiting: 3+ against fire, 4+ in melee"),
        Action("charge", "Charge", ENEMY, charge.charge_prepare, charge.charge_resolve, numbers=charge.charge_numbers,
               ticks=charge.charge_ticks, contact=MAKES),
        Action("test_a", "(a) Test de moral, UC à pied chargeant la Cavalerie", ENEMY, charge.charge_test_prepare,
               charge.charge_test_resolve, numbers=flank_numbers, ticks=morale_ticks("charging"),
               help="The foot UC tests; its target is the cavalry it charges", reach=CONTACT),
        Action("test_b", "(b) Test de moral, UC chargé", ENEMY, charge.charge_test_prepare,
               charge.charge_test_resolve, numbers=flank_numbers, ticks=morale_ticks("charged"), acts=INACTIVE,
               help="The charged UC tests; its target is the UC charging it", reach=CHARGER, why="UC chargés"),
        Action("counter_charge", "Contre-attaque (counter-attack)", ENEMY, charge.counter_prepare,
               charge.counter_resolve, acts=INACTIVE, reach=CHARGER, why="UC chargés"),
        Action("chargers_test", "Test de moral, UC chargeant (chargers' test)", ENEMY, charge.charge_test_prepare,
               charge.charge_test_resolve, numbers=flank_numbers, ticks=morale_ticks("charging"), acts=ACTIVE,
               reach=CONTACT),
        Action("melee", "(c) Corps à corps (melee)", ENEMY, melee.melee_prepare, melee.melee_resolve,
               numbers=melee.melee_numbers, ticks=melee.melee_ticks, acts=BOTH, reach=CONTACT, repeats=True,
               why="1er Tour: Uniquement les éléments au contact"),
        Action("after_melee_test", "Test de moral après le combat (after melee)", ENEMY, melee.after_prepare,
               melee.after_resolve, numbers=melee.after_numbers, ticks=morale_ticks("contact"), acts=BOTH,
               reach=CONTACT, repeats=True),
        Action("pursuit", "Poursuite/consolidation (pursuit)", ENEMY, melee.pursuit_prepare, melee.pursuit_resolve,
               numbers=movement.going_numbers, ticks=melee.pursuit_ticks, acts=BOTH),  # the loser broke: out of contact
        Action("new_contact", "Nouveau contact? (new contact?)", NO_TARGET, melee.contact_prepare,
               melee.contact_resolve, ticks=melee.contact_ticks),
        Action("stand_still", "UC immobile: enlever les pions (remove markers)", NO_TARGET, melee.still_prepare,
               melee.still_resolve),
    ),
    alternating=True,
    turn_label="bound",
    unfinished=unfinished,
    shown=(FIRE_HITS, MELEE_HITS),
    breaks_contact=(ROUT, FALLEN_BACK),
    due=lambda u: ("save",) if u.attr(FIRE_HITS) or u.attr(MELEE_HITS) else (),
    # option broken_at_end: a UC en rupture or off the table is lost whole
    lost_at_end=lambda u, o: u.start if (u.removed or u.has(ROUT)) and o.get("broken_at_end", "lost") == "lost" else u.lost,
)

"""Phase 2: command distances, speeds, and what each experience level may do.

>>> speed("infantry_attack_column", "gg")
15
>>> in_command("aguerri", "infantry", 10)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rules.errors import RulesError
from rules.loader import DataFileError, get_table
from rules.napoleonic_uc_um.data import RULESET, card, check_value, label
from rules.options import resolve_options

GOINGS = ("gg", "bgo")
# The words of table experience_actions and what they allow.
_BOTH, _ONE = "ET", "OU"
_FIRE_AND_CHARGE, _FIRE_OR_CHARGE, _NO_FIRE = "Tir ET Charge", "Tir OU Charge", "PAS de Tir"


def speed(unit: str, going: str) -> int:
    """Speed in cm of a kind of unit (table speed) in good (gg) or bad (bgo) going."""
    check_value("speed", "unit", unit, "kind of unit")
    check_value("speed", "going", going, "going")
    return int(get_table(RULESET, "speed").lookup(unit=unit, going=going).text)


def going_of(ec_by_going: Mapping[str, int], options: Mapping[str, str] | None = None) -> str:
    """The going a UC moves in: the one holding most of its EC (card: 'le terrain qui
    contient le plus d'EC'); an equal split by the option terrain_tie."""
    for going, ec in ec_by_going.items():
        if going not in GOINGS:
            raise RulesError(f"going {going!r} is not on the card; it is gg (good) or bgo (bad)")
        if ec < 0:
            raise RulesError(f"a UC cannot have {ec} EC in {going}")
    good, bad = ec_by_going.get("gg", 0), ec_by_going.get("bgo", 0)
    if good + bad == 0:
        raise RulesError("the UC has no EC on the table")
    if good != bad:
        return "gg" if good > bad else "bgo"
    if resolve_options(RULESET, options)["terrain_tie"] == "ask_umpire":
        raise RulesError("the UC's EC are split equally between good and bad going: the umpire decides")
    return "bgo"


@dataclass(frozen=True)
class Move:
    distance_cm: int
    going: str
    reason: str


def move(unit: str, ec_by_going: Mapping[str, int], options: Mapping[str, str] | None = None) -> Move:
    """How far a UC moves this turn, and why."""
    going = going_of(ec_by_going, options)
    cm = speed(unit, going)
    return Move(cm, going, f"{label('speed', 'unit', unit)} in {label('speed', 'going', going)}: {cm} cm")


def _command_column(arm: str, options: Mapping[str, str] | None) -> str:
    if arm in ("cavalry", "infantry"):
        return arm
    if arm not in ("horse_artillery", "foot_artillery"):
        raise RulesError(
            f"arm {arm!r} has no command distance; it is cavalry, infantry, horse_artillery or foot_artillery"
        )
    by_pace = resolve_options(RULESET, options)["artillery_command_distance"] == "by_pace"
    return "cavalry" if by_pace and arm == "horse_artillery" else "infantry"


def command_distance_cm(experience: str, arm: str, options: Mapping[str, str] | None = None) -> int:
    """The command distance of a UC from its brigadier (table command_distance), in cm."""
    check_value("command_distance", "experience", experience, "experience")
    text = get_table(RULESET, "command_distance").lookup(
        experience=experience, arm=_command_column(arm, options)
    ).text
    return int(text.split()[0])


def in_command(
    experience: str, arm: str, distance_cm: float, options: Mapping[str, str] | None = None
) -> bool:
    """Whether a UC at `distance_cm` from its brigade general is commanded (step 2.2)."""
    if distance_cm < 0:
        raise RulesError(f"a distance cannot be negative ({distance_cm} cm)")
    return Fraction(str(distance_cm)) <= command_distance_cm(experience, arm, options)


@dataclass(frozen=True)
class Actions:
    """What a UC of this experience may still do this turn (table experience_actions)."""

    experience: str
    may_fire: bool
    may_charge: bool
    fire_and_charge: bool  # both in the same turn
    printed: str  # the card's words that decided it

    def check(self, *, fires: bool = False, charges: bool = False, fired: bool = False) -> None:
        """One sentence when the UC may not fire or charge (having fired already)."""
        name = label("experience_actions", "experience", self.experience)
        if fires and not self.may_fire:
            raise RulesError(f"a {name} UC that moved or changed formation may not fire ({self.printed})")
        if charges and not self.may_charge:
            raise RulesError(f"a {name} UC that moved or changed formation may not charge ({self.printed})")
        if charges and fired and not self.fire_and_charge:
            raise RulesError(f"a {name} UC that fired may not also charge ({self.printed})")


def turn_actions(
    experience: str,
    *,
    moved: bool = False,
    changed_formation: bool = False,
    options: Mapping[str, str] | None = None,
) -> Actions:
    """What a UC may do in Phase 3 after its Phase 2 movement, by the card's Phase 2 grid."""
    check_value("experience_actions", "experience", experience, "experience")
    chosen = resolve_options(RULESET, options)
    table = get_table(RULESET, "experience_actions")
    joined = table.lookup(experience=experience, action="and_or").text
    limits = table.lookup(experience=experience, action="fire_charge").text
    if joined not in (_BOTH, _ONE) or limits not in (_FIRE_AND_CHARGE, _FIRE_OR_CHARGE, _NO_FIRE):
        raise DataFileError(f"table experience_actions: {joined!r} / {limits!r} are not words the procedure reads")
    if moved and changed_formation and joined == _ONE:
        name = label("experience_actions", "experience", experience)
        raise RulesError(f"a {name} UC may move or change formation, not both (Mouvement OU Changement de formation)")
    if chosen["action_limits"] == "after_moving" and not (moved or changed_formation):
        return Actions(experience, True, True, True, "no movement or change of formation: no limit")
    if limits == _NO_FIRE:
        return Actions(experience, False, chosen["conscrit_charge"] == "allowed", False, limits)
    return Actions(experience, True, True, limits == _FIRE_AND_CHARGE, limits)


def may_charge(distance_to_enemy_cm: float) -> bool:
    """Step 3.2: 'Charge pour les UC qui sont à 5 cm d'un ennemi' (5 cm or less)."""
    if distance_to_enemy_cm < 0:
        raise RulesError(f"a distance cannot be negative ({distance_to_enemy_cm} cm)")
    return Fraction(str(distance_to_enemy_cm)) <= card().distances.charge_reach

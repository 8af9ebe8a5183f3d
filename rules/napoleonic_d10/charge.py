"""Charges and melee: the attacker's and defender's modifiers, the differential read
on 'Charge in the Open' or 'Charge in Cover', cavalry's FIREFIGHT shifted inward or
outward, the surrender percentage, continuing a charge, the ride-down, and the
melee round.

>>> from rules.napoleonic_d10.charge import ChargeSide, ChargeSituation, charge_check
>>> check = charge_check(ChargeSituation(ChargeSide("heavy_cavalry", cw=10, stands=4),
...                                      ChargeSide("infantry", formation="line", cw=8, stands=6)))
>>> [(m.label, m.value) for m in check.attacker_modifiers]
[('Cav vs. Inf Line', 6), ('CW difference, ea', 2)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rules.dice import Dice, DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.napoleonic_d10.data import (
    Leader,
    card,
    class_dice,
    distance,
    influence_level,
    modifier,
    one_of,
    options_of,
    percent,
    table,
    values_of,
)
from rules.odds import icepool_die

ARMS = ("infantry", "light_cavalry", "heavy_cavalry", "artillery")
CAVALRY = ("light_cavalry", "heavy_cavalry")
FORMATIONS = ("line", "column", "closed_column", "square", "general", "road")
DIRECTIONS = ("front", "flank", "rear")
ATTACKER, DEFENDER = "attacker", "defender"


@dataclass(frozen=True)
class ChargeSide:
    """One side of a charge: its arm, formation, size, CW level and state."""

    arm: str  # infantry, light_cavalry, heavy_cavalry, artillery
    formation: str = "line"  # line, column, closed_column, square, general (order), road
    stands: int = 1
    cw: int = 0
    unit_class: str = "line"
    shaken: bool = False
    disordered: bool = False
    broken: bool = False  # routed or broken
    leader: Leader | None = None  # a leader attached (the attacker's +IL)

    @property
    def cavalry(self) -> bool:
        return self.arm in CAVALRY


@dataclass(frozen=True)
class ChargeSituation:
    attacker: ChargeSide
    defender: ChargeSide
    standing: bool = False  # Standing Cav: the charging cavalry starts from a halt
    closing_casualties_percent: Fraction | int | float = 0  # the attacker's losses while closing
    downhill: bool = False
    direction: Literal["front", "flank", "rear"] = "front"  # of the defender
    defender_secure_flanks: int = 0  # 0, 1 or 2
    defender_cover: str = "none"  # none, sparse_cover, light_cover, medium_cover, heavy_cover


COVER_TABLE = ("light_cover", "medium_cover", "heavy_cover")  # the defender's cover modifiers


def _check_side(side: ChargeSide, role: str) -> None:
    one_of(f"the {role}'s arm", side.arm, ARMS)
    one_of(f"the {role}'s formation", side.formation, FORMATIONS)
    class_dice(side.unit_class)
    if not isinstance(side.stands, int) or side.stands < 1:
        raise RulesError(f"the {role} must have 1 stand or more, not {side.stands!r}")
    if not isinstance(side.cw, int):
        raise RulesError(f"the {role}'s CW level must be a whole number, not {side.cw!r}")
    if side.leader is not None:
        side.leader.check()


def _check(s: ChargeSituation) -> None:
    _check_side(s.attacker, ATTACKER)
    _check_side(s.defender, DEFENDER)
    one_of("the direction of the charge", s.direction, DIRECTIONS)
    one_of("the defender's cover", s.defender_cover, ("none", "sparse_cover", *COVER_TABLE))
    if s.defender_secure_flanks not in (0, 1, 2):
        raise RulesError(f"a defender has 0, 1 or 2 secure flanks, not {s.defender_secure_flanks!r}")
    percent(s.closing_casualties_percent, "the closing casualties")
    if s.attacker.broken:
        raise RulesError("a routed or broken unit may not charge (Rout/Broken NA)")
    if s.standing and not s.attacker.cavalry:
        raise RulesError("'Standing Cav' is for charging cavalry only")
    if s.attacker.arm == "artillery":
        raise RulesError("the card's charge modifiers are for infantry and cavalry charging; guns do not charge")


def _row(row: str, role: str) -> Modifier:
    return modifier("charge_modifiers", row, side=role)


def _mass(own: ChargeSide, enemy: ChargeSide, role: str) -> list[Modifier]:
    ratio = Fraction(own.stands, enemy.stands)
    for row, at_least in card().charge.mass:
        if ratio >= Fraction(at_least):
            return [_row(row, role)]
    return []


def attacker_modifiers(s: ChargeSituation, options: Mapping[str, str] | None = None) -> list[Modifier]:
    """The attacker's charge modifiers that apply, in the card's order (the value of
    'Cav vs. Inf Line' and the leader's IL by their options)."""
    _check(s)
    chosen = options_of(options)
    a, d = s.attacker, s.defender
    applies = {
        "shaken": a.shaken,
        "disordered": a.disordered,
        "standing_cavalry": s.standing,
        "charge_downhill": s.downhill,
        "cav_vs_inf_line": a.cavalry and d.arm == "infantry" and d.formation == "line"
        and chosen["cav_vs_inf_line"] == "plus_six",
        "cav_vs_general": a.cavalry and d.formation == "general",
        "cav_vs_inf_column": a.cavalry and d.arm == "infantry" and d.formation == "column",
        "cav_vs_square": a.cavalry and d.formation == "square",
        "cav_vs_closed_column": a.cavalry and d.formation == "closed_column",
        "heavy_vs_light_cavalry": a.arm == "heavy_cavalry" and d.arm == "light_cavalry",
        "inf_vs_square": a.arm == "infantry" and d.formation == "square",
        "charging_flank": s.direction == "flank",
        "charging_rear": s.direction == "rear",
    }
    out: list[Modifier] = []
    for row in values_of("charge_modifiers", "modifier"):
        row = str(row)
        if applies.get(row):
            out.append(_row(row, ATTACKER))
        elif row == "closing_casualties":
            step = card().charge.closing_casualties_step
            steps = math.floor(percent(s.closing_casualties_percent, "the closing casualties") / step)
            if steps:
                m = _row(row, ATTACKER)
                out.append(Modifier(f"{m.label} ({steps} x {step}%)", m.value * steps))
        elif row == "mass_1_5x":
            out += _mass(a, d, ATTACKER)
        elif row == "leader_attached" and a.leader is not None:
            il = influence_level(a.leader, options)
            out.append(Modifier(f"Leader attached (IL {il})", il))
        elif row == "cw_difference" and a.cw != d.cw:
            out.append(Modifier("CW difference, ea", a.cw - d.cw))
    return out


def defender_modifiers(s: ChargeSituation) -> list[Modifier]:
    """The defender's charge modifiers that apply, in the card's order."""
    _check(s)
    a, d = s.attacker, s.defender
    applies = {
        "shaken": d.shaken,
        "disordered": d.disordered,
        "rout_broken": d.broken,
        "general_order": d.formation == "general",
        s.defender_cover: s.defender_cover in COVER_TABLE,
    }
    out: list[Modifier] = []
    for row in values_of("charge_modifiers", "modifier"):
        row = str(row)
        if applies.get(row):
            out.append(_row(row, DEFENDER))
        elif row == "mass_1_5x":
            out += _mass(d, a, DEFENDER)
        elif row == "secure_flanks" and s.defender_secure_flanks:
            m = _row(row, DEFENDER)
            out.append(Modifier(f"{m.label} ({s.defender_secure_flanks})", m.value * s.defender_secure_flanks))
    return out


def charge_table(s: ChargeSituation) -> str:
    """charge_cover when the defender is in light, medium or heavy cover, else charge_open."""
    return "charge_cover" if s.defender_cover in COVER_TABLE else "charge_open"


def result_name(text: str) -> str:
    """The short name (rules.toml [charge.results]) of a charge result as printed."""
    for name, printed in card().charge.results.items():
        if printed == text:
            return name
    raise RulesError(f"{text!r} is not a charge result of the card")


def _read(table_id: str, differential: int) -> int:
    return table(table_id).rows.index_of(differential)


def cavalry_shift(s: ChargeSituation, table_id: str, row: int) -> tuple[int, str | None]:
    """'Cavalry does not Firefight': a FIREFIGHT shifts one row inward (to MELEE!) in a
    purely cavalry action, one row outward if infantry or artillery is involved."""
    tab = table(table_id)
    text = tab.cells[row][0]
    if result_name(text) != "firefight" or not (s.attacker.cavalry or s.defender.cavalry):
        return row, None
    melee = next(i for i, (cell,) in enumerate(tab.cells) if result_name(cell) == "melee")
    toward = 1 if row < melee else -1
    if s.attacker.cavalry and s.defender.cavalry:
        return row + toward, "inward (melee): a purely cavalry action"
    return row - toward, "outward: infantry or artillery is involved"


@dataclass(frozen=True)
class ChargeResult:
    differential: int
    table: str
    printed: str  # the result the differential reads on the table
    text: str  # the result after the cavalry shift, in the card's words
    shift: str | None  # why the result shifted, or None

    @property
    def name(self) -> str:
        return result_name(self.text)

    @property
    def loser(self) -> str | None:
        kinds = card().charge.kinds
        if self.name in kinds["attacker_loses"]:
            return ATTACKER
        if self.name in kinds["defender_loses"]:
            return DEFENDER
        return None

    @property
    def attacker_may_occupy(self) -> bool:
        return self.name in card().charge.kinds["occupy"]

    @property
    def surrender(self) -> bool:
        return self.name in card().charge.kinds["surrender"]


def charge_result(s: ChargeSituation, differential: int) -> ChargeResult:
    """The charge result of a differential (attacker's total - defender's)."""
    table_id = charge_table(s)
    row = _read(table_id, differential)
    printed = table(table_id).cells[row][0]
    shifted, why = cavalry_shift(s, table_id, row)
    return ChargeResult(differential, table_id, printed, table(table_id).cells[shifted][0], why)


@dataclass(frozen=True)
class ChargeCheck:
    """A charge about to be resolved: both sides' dice and modifiers, the table, the odds."""

    situation: ChargeSituation
    attacker_dice: str | None  # None when option charge_roll = modifiers_only
    defender_dice: str | None
    attacker_modifiers: tuple[Modifier, ...]
    defender_modifiers: tuple[Modifier, ...]
    table: str

    @property
    def modifier(self) -> int:
        """The attacker's modifiers less the defender's."""
        return sum(m.value for m in self.attacker_modifiers) - sum(m.value for m in self.defender_modifiers)

    def differentials(self) -> dict[int, Fraction]:
        """The exact chance of each differential (icepool)."""
        if self.attacker_dice is None or self.defender_dice is None:
            return {self.modifier: Fraction(1)}
        die = icepool_die(self.attacker_dice, self.modifier) - icepool_die(self.defender_dice)
        return {int(o): Fraction(p) for o, p in zip(die.outcomes(), die.probabilities())}

    def odds(self) -> dict[str, Fraction]:
        """The exact chance of each result, after the cavalry shift."""
        out: dict[str, Fraction] = {}
        for differential, chance in self.differentials().items():
            text = charge_result(self.situation, differential).text
            out[text] = out.get(text, Fraction(0)) + chance
        return out


def charge_check(s: ChargeSituation, options: Mapping[str, str] | None = None) -> ChargeCheck:
    chosen = options_of(options)["charge_roll"]
    if chosen == "modifiers_only":
        dice: tuple[str | None, str | None] = (None, None)
    elif chosen == "class_dice_each":
        dice = (class_dice(s.attacker.unit_class, options), class_dice(s.defender.unit_class, options))
    else:
        dice = (card().dice.charge, card().dice.charge)
    return ChargeCheck(s, *dice, tuple(attacker_modifiers(s, options)), tuple(defender_modifiers(s)), charge_table(s))


@dataclass(frozen=True)
class ChargeOutcome:
    check: ChargeCheck
    attacker_record: DiceRecord | None
    defender_record: DiceRecord | None
    result: ChargeResult


def resolve_charge(
    s: ChargeSituation,
    dice: DiceService,
    *,
    attacker_entered: Sequence[int] | None = None,
    defender_entered: Sequence[int] | None = None,
    options: Mapping[str, str] | None = None,
) -> ChargeOutcome:
    """Roll the charge (by option charge_roll) and read the result."""
    check = charge_check(s, options)
    if check.attacker_dice is None or check.defender_dice is None:
        if attacker_entered is not None or defender_entered is not None:
            raise RulesError("with option charge_roll = modifiers_only no dice are rolled for a charge")
        return ChargeOutcome(check, None, None, charge_result(s, check.modifier))
    # Both dice are checked before either is recorded: bad input changes nothing.
    for spec, entered in ((check.attacker_dice, attacker_entered), (check.defender_dice, defender_entered)):
        if entered is not None:
            Dice.parse(spec).check_entered(entered)
    att = dice.roll(check.attacker_dice, "charge: attacker", check.attacker_modifiers, entered=attacker_entered)
    dfd = dice.roll(check.defender_dice, "charge: defender", check.defender_modifiers, entered=defender_entered)
    return ChargeOutcome(check, att, dfd, charge_result(s, att.result - dfd.result))


def surrender_percent(die: int) -> int:
    """'rolls 1d10 to determine the percentage of the unit which surrenders': the die
    times 10% (reading); the remaining figures rout."""
    if not isinstance(die, int) or not 1 <= die <= 10:
        raise RulesError(f"the surrender die is a d10, 1 to 10, not {die!r}")
    return die * card().charge.surrender_percent_per_pip


def may_continue_charge(arm: str, result: ChargeResult, to_next_target: float | Fraction) -> bool:
    """Both infantry and cavalry may continue a charge if the result involves occupying
    the original target's position and the next target is less than 4" (infantry)
    or 6" (cavalry) from the position occupied."""
    one_of("the charging arm", arm, ("infantry", *CAVALRY))
    reach = card().charge.continue_within["cavalry" if arm in CAVALRY else "infantry"]
    return result.attacker_may_occupy and distance(to_next_target, "the distance to the next target") < reach


def may_ride_down(s: ChargeSituation, result: ChargeResult, options: Mapping[str, str] | None = None) -> bool | None:
    """Whether cavalry may ride down infantry that lost the charge (option ride_down_results;
    None when the umpire must say whether the result lay in the dotted line area)."""
    loser = result.loser
    if loser is None:
        return False
    losing, winning = (s.attacker, s.defender) if loser == ATTACKER else (s.defender, s.attacker)
    if losing.arm != "infantry" or not winning.cavalry:
        return False
    chosen = options_of(options)["ride_down_results"]
    if chosen == "ask_umpire":
        return None
    return result.name in card().charge.ride_down[chosen]


# --- Melee -------------------------------------------------------------------


def melee_modifiers(s: ChargeSituation, options: Mapping[str, str] | None = None) -> tuple[list[Modifier], list[Modifier]]:
    """The modifiers each side adds in melee, by option melee_modifiers."""
    if options_of(options)["melee_modifiers"] == "unmodified":
        _check(s)
        return [], []
    return attacker_modifiers(s, options), defender_modifiers(s)


@dataclass(frozen=True)
class MeleeCheck:
    attacker_modifiers: tuple[Modifier, ...]
    defender_modifiers: tuple[Modifier, ...]
    dice: str

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.attacker_modifiers) - sum(m.value for m in self.defender_modifiers)

    def odds(self) -> dict[str, Fraction]:
        """The exact chance that the attacker or the defender wins, or that the
        modified rolls are equal."""
        die = icepool_die(self.dice, self.modifier) - icepool_die(self.dice)
        out = {ATTACKER: Fraction(0), DEFENDER: Fraction(0), "equal": Fraction(0)}
        for o, p in zip(die.outcomes(), die.probabilities()):
            out[ATTACKER if o > 0 else DEFENDER if o < 0 else "equal"] += Fraction(p)
        return out


def melee_check(
    s: ChargeSituation, options: Mapping[str, str] | None = None, *, ride_down: bool = False
) -> MeleeCheck:
    """A melee round about to be fought. With ride_down, the infantry that lost the
    charge has its melee modifier reduced by -8 (the card's ride-down)."""
    att, dfd = melee_modifiers(s, options)
    if ride_down:
        cut = Modifier("Ride Down", card().charge.ride_down_modifier)
        if s.attacker.arm == "infantry" and s.defender.cavalry:
            att = [*att, cut]
        elif s.defender.arm == "infantry" and s.attacker.cavalry:
            dfd = [*dfd, cut]
        else:
            raise RulesError("only cavalry rides down infantry")
    return MeleeCheck(tuple(att), tuple(dfd), card().dice.melee)


@dataclass(frozen=True)
class MeleeOutcome:
    check: MeleeCheck
    attacker_record: DiceRecord
    defender_record: DiceRecord
    winner: str | None  # attacker, defender, or None on equal modified rolls
    attacker_steps: int  # casualty steps the attacker takes
    defender_steps: int
    roll_again: bool = False  # equal rolls under option melee_tie = reroll

    @property
    def morale_checks(self) -> tuple[str, ...]:
        """'Both sides check morale, and if neither retreats, the melee continues.'"""
        return () if self.roll_again else (ATTACKER, DEFENDER)


def melee_round(
    check: MeleeCheck,
    dice: DiceService,
    *,
    attacker_entered: Sequence[int] | None = None,
    defender_entered: Sequence[int] | None = None,
    options: Mapping[str, str] | None = None,
) -> MeleeOutcome:
    """One round of melee: the loser takes the difference of the modified rolls, the
    winner the difference of the unmodified rolls."""
    tie = options_of(options)["melee_tie"]
    for entered in (attacker_entered, defender_entered):
        if entered is not None:
            Dice.parse(check.dice).check_entered(entered)
    att = dice.roll(check.dice, "melee: attacker", check.attacker_modifiers, entered=attacker_entered)
    dfd = dice.roll(check.dice, "melee: defender", check.defender_modifiers, entered=defender_entered)
    modified = att.result - dfd.result
    natural = abs((att.result - att.modifier_total) - (dfd.result - dfd.modifier_total))
    if modified == 0:
        return MeleeOutcome(check, att, dfd, None, 0, 0, roll_again=tie == "reroll")
    if modified > 0:
        return MeleeOutcome(check, att, dfd, ATTACKER, natural, modified)
    return MeleeOutcome(check, att, dfd, DEFENDER, -modified, natural)

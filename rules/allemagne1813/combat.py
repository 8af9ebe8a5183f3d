"""The combat modifiers of Allemagne 1813 as functions over a described situation.

A = attacker, D = defender.  Each function returns what it applied, line by line,
so that a screen can show the umpire why a column or a modifier is what it is.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.allemagne1813.data import Situation, modifiers
from rules.dice import Modifier
from rules.errors import RulesError
from rules.loader import get_table
from rules.options import resolve_options

RULESET = "allemagne1813"


@dataclass(frozen=True)
class Leader:
    name: str
    rank: int
    tactical_bonus: int


@dataclass(frozen=True)
class CombatSide:
    """One side of a battle: its SP by arm, leaders and average cohesion."""

    sp_by_arm: Mapping[str, int]  # infantry, cavalry, artillery
    leaders: Sequence[Leader] = ()
    average_cohesion: Fraction = Fraction(0)
    artillery_bonus: int = 0
    cavalry_bonus: int = 0

    @property
    def strength_points(self) -> int:
        return sum(self.sp_by_arm.values())


@dataclass(frozen=True)
class Applied:
    """A modifier the card applied: its line and its effect."""

    id: str
    printed: str
    effect: str


@dataclass
class Worked:
    value: Fraction | int
    applied: list[Applied] = field(default_factory=list)


def commanding_leader(leaders: Sequence[Leader]) -> Leader | None:
    """The leader whose tactical bonus counts: highest rank, then the better bonus."""
    return max(leaders, key=lambda leader: (leader.rank, leader.tactical_bonus), default=None)


def modified_sp(role: str, side: CombatSide, situation: Situation) -> Worked:
    """The side's SP after the card's multipliers, which are cumulative."""
    total = Fraction(0)
    applied: list[Applied] = []
    for arm, sp in side.sp_by_arm.items():
        factor = Fraction(1)
        for entry in modifiers().sp_multipliers:
            amount = entry.amount(role)
            if amount and entry.applies(situation) and entry.arm in (None, arm):
                factor *= Fraction(str(amount))
                applied.append(Applied(entry.id, entry.printed, f"{arm} x{amount}"))
        total += sp * factor
    return Worked(total, applied)


def whole_sp(sp: Fraction, options: Mapping[str, str] | None = None) -> int:
    """SP as the columns read them, by the rules option sp_fractions."""
    chosen = resolve_options(RULESET, options)["sp_fractions"]
    if chosen == "round_nearest":
        return math.floor(sp + Fraction(1, 2))
    return math.floor(sp)


def column_shift(
    role: str, situation: Situation, round_number: int, options: Mapping[str, str] | None = None
) -> Worked:
    """Columns to shift, right positive: cumulative, except flank with encircled."""
    chosen = resolve_options(RULESET, options)["flank_and_encircled"]
    live = [e for e in modifiers().column_shifts if e.applies(situation, named_round(round_number))]
    ids = {e.id for e in live}
    if {"flank_attack", "encircled"} <= ids:
        drop = "flank_attack" if chosen == "encircled_only" else "encircled"
        live = [e for e in live if e.id != drop]
    applied = [
        Applied(e.id, e.printed, f"{int(e.amount(role)):+d} column")
        for e in live
        if e.amount(role)
    ]
    return Worked(sum(int(e.amount(role)) for e in live), applied)


def combat_column(
    sp: int, shift: int, options: Mapping[str, str] | None = None
) -> int | None:
    """The index of the combat table column, or None when the side inflicts nothing."""
    columns = get_table(RULESET, "combat").columns
    assert columns is not None
    below = resolve_options(RULESET, options)["column_below_table"]
    if sp < 1:
        if below == "no_fire":
            return None
        index = 0
    else:
        index = columns.index_of(sp)
    index += shift
    if index < 0:
        return None if below == "no_fire" else 0
    return min(index, len(columns.bands) - 1)


def cohesion_modifier(difference: Fraction, options: Mapping[str, str] | None = None) -> int:
    chosen = resolve_options(RULESET, options)["average_cohesion"]
    if chosen == "round_nearest":
        return int(math.copysign(math.floor(abs(difference) + Fraction(1, 2)), difference))
    return math.trunc(difference)


def dice_modifiers(
    role: str,
    own: CombatSide,
    enemy: CombatSide,
    situation: Situation,
    round_number: int,
    options: Mapping[str, str] | None = None,
) -> list[Modifier]:
    """The modifiers to this side's combat die, all cumulative."""
    chosen = resolve_options(RULESET, options)
    out: list[Modifier] = []
    for entry in modifiers().dice_modifiers:
        if role not in dict(entry.amounts) or not entry.applies(situation, named_round(round_number)):
            continue
        if entry.value_from == "tactical_bonus":
            leader = commanding_leader(own.leaders)
            value = leader.tactical_bonus if leader else 0
            label = f"tactical bonus ({leader.name})" if leader else "tactical bonus"
        elif entry.value_from == "cohesion_difference":
            diff = own.average_cohesion - enemy.average_cohesion
            if chosen["cohesion_difference"] == "better_side" and diff < 0:
                diff = Fraction(0)
            value = cohesion_modifier(diff, options)
            label = "difference in average cohesion"
        else:
            value = int(entry.amount(role))
            label = entry.id.replace("_", " ")
        if value:
            out.append(Modifier(label, value))
    return out


def battle_rounds(weather: str, options: Mapping[str, str] | None = None) -> int:
    """The rounds of a battle: option battle_rounds, one fewer in Snow (at least 1)."""
    data = modifiers()
    rounds = int(resolve_options(RULESET, options)["battle_rounds"])
    if weather == "snow":
        rounds += data.snow_battle_rounds
    return max(data.min_rounds, rounds)


def named_round(round_number: int) -> int:
    """The round whose modifiers the card prints for this one: a round after the last the
    card names (option battle_rounds above four) is fought as that last round."""
    return min(round_number, modifiers().last_named_round)


def artillery_fires(round_number: int) -> bool:
    """'only used during even rounds of a battle (2nd and 4th)': past the fourth, every even round."""
    data = modifiers()
    if round_number > data.last_named_round:
        return round_number % 2 == 0
    return round_number in data.artillery_rounds


def artillery_modifiers(weather: str) -> list[Modifier]:
    value = modifiers().artillery_weather.get(weather, 0)
    return [Modifier(weather, value)] if value else []


def pursuit_modifiers(weather: str) -> list[Modifier] | None:
    """The pursuit die's modifiers, or None when there is no pursuit (Mud)."""
    data = modifiers()
    if weather in data.no_pursuit:
        return None
    value = data.pursuit_weather.get(weather, 0)
    return [Modifier(weather, value)] if value else []


def read_roll(table_id: str, roll: int, option: str, options: Mapping[str, str] | None = None) -> int:
    """The printed row a modified roll reads, by the named option for rolls off the table."""
    chosen = resolve_options(RULESET, options)[option]
    table = get_table(RULESET, table_id)
    try:
        table.rows.index_of(roll)
        return roll
    except RulesError:
        if chosen == "ask_umpire":
            raise RulesError(
                f"a modified roll of {roll} is off the {table_id} table: the umpire decides"
            ) from None
        return table.rows.nearest(roll)

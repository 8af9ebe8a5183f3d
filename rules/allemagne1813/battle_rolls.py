"""The rolls of a battle: which are made in which order, what each one reads, and
who wins at the end.  Shared by the step-by-step procedure (battle.py) and its
exact odds (battle_odds.py), so that the two cannot disagree.

A *volley* is a group of rolls that read the same SP: their losses apply together
when the last of them is read.  Which rolls share a volley is set by the rules
options simultaneous_losses and artillery_timing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from rules.allemagne1813.battle_setup import (
    ATTACKER,
    DEFENDER,
    check_side,
    check_situation,
    enemy_of,
    procedure_data,
)
from rules.allemagne1813.combat import (
    RULESET,
    Applied,
    CombatSide,
    artillery_fires,
    battle_rounds,
    artillery_modifiers,
    column_shift,
    combat_column,
    dice_modifiers,
    modified_sp,
    whole_sp,
)
from rules.allemagne1813.data import Situation
from rules.allemagne1813.losses import loss_order, remaining
from rules.dice import Modifier
from rules.loader import get_table
from rules.odds import roll_distribution
from rules.options import resolve_options

COMBAT = "combat"
ARTILLERY = "artillery"


@dataclass(frozen=True)
class Roll:
    """One roll of a battle: in which round, by which side, on which table."""

    round_number: int
    side: str
    table: str

    @property
    def target(self) -> str:
        """The side that loses the SP the roll gives."""
        return enemy_of(self.side)


def volleys(
    rounds: int, attacker: CombatSide, defender: CombatSide, options: Mapping[str, str]
) -> tuple[tuple[Roll, ...], ...]:
    """Every roll of a battle of `rounds` rounds, grouped in volleys, in the order rolled."""
    first_ab = _first_band_low(ARTILLERY)
    bonus = {ATTACKER: attacker.artillery_bonus, DEFENDER: defender.artillery_bonus}
    out: list[tuple[Roll, ...]] = []
    for n in range(1, rounds + 1):
        combat = [Roll(n, s, COMBAT) for s in (ATTACKER, DEFENDER)]
        guns = [Roll(n, s, ARTILLERY) for s in (ATTACKER, DEFENDER) if bonus[s] >= first_ab]
        if not artillery_fires(n):
            guns = []
        phases = [guns, combat] if options["artillery_timing"] == "before_combat" else [combat + guns]
        for phase in phases:
            if options["simultaneous_losses"] == "attacker_first":
                out.extend(tuple(r for r in phase if r.side == s) for s in (ATTACKER, DEFENDER))
            else:
                out.append(tuple(phase))
    return tuple(v for v in out if v)


@cache
def _first_band_low(table_id: str) -> int:
    columns = get_table(RULESET, table_id).columns
    assert columns is not None and columns.bands[0].low is not None
    return columns.bands[0].low


@dataclass(frozen=True)
class Fire:
    """What one roll reads, worked out for the firing side as it stands."""

    roll: Roll
    column: int | None  # index of the table's column; None: the side inflicts nothing
    column_label: str | None
    strength_points: Fraction | None  # combat: SP after the multipliers
    whole_sp: int | None  # combat: those SP as the columns read them (option sp_fractions)
    applied: tuple[Applied, ...]  # the card's multipliers and column shifts, line by line
    modifiers: tuple[Modifier, ...]

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)


def fire(
    roll: Roll,
    own: CombatSide,
    enemy: CombatSide,
    situation: Situation,
    options: Mapping[str, str],
) -> Fire:
    """The column and dice modifiers of `roll`; `own` holds the firing side's SP now."""
    table = get_table(RULESET, roll.table)
    assert table.columns is not None
    if roll.table == ARTILLERY:
        index = table.columns.index_of(own.artillery_bonus)
        mods = artillery_modifiers(situation.weather)
        return Fire(roll, index, table.columns.bands[index].label, None, None, (), tuple(mods))
    sp = modified_sp(roll.side, own, situation)
    whole = whole_sp(Fraction(sp.value), options)
    shift = column_shift(roll.side, situation, roll.round_number, options)
    column = combat_column(whole, int(shift.value), options)
    mods = dice_modifiers(roll.side, own, enemy, situation, roll.round_number, options)
    label = None if column is None else table.columns.bands[column].label
    return Fire(roll, column, label, Fraction(sp.value), whole, (*sp.applied, *shift.applied), tuple(mods))


class BattleSetup:
    """A battle's set-up, checked, with what each roll reads worked out once.

    Shared by a Battle, its odds, and any number of battles fought from it."""

    def __init__(
        self,
        attacker: CombatSide,
        defender: CombatSide,
        situation: Situation = Situation(),
        options: Mapping[str, str] | None = None,
    ):
        check_side(ATTACKER, attacker)
        check_side(DEFENDER, defender)
        check_situation(situation)
        self.options = resolve_options(RULESET, options)
        self.sides = {ATTACKER: attacker, DEFENDER: defender}
        self.situation = situation
        self.rounds = battle_rounds(situation.weather, self.options)
        self.totals = {r: s.strength_points for r, s in self.sides.items()}
        self.orders = {r: loss_order(s.sp_by_arm, self.options) for r, s in self.sides.items()}
        self.volleys = volleys(self.rounds, attacker, defender, self.options)
        self.morale_pass = {r: morale_pass_chance(s.average_cohesion) for r, s in self.sides.items()}
        self._fires: dict[tuple[Roll, int], Fire] = {}

    def remaining(self, side: str, lost: int) -> dict[str, int]:
        """The side's SP by arm after `lost` SP of losses (option loss_allocation)."""
        return remaining(self.sides[side].sp_by_arm, self.orders[side], lost)

    def fire(self, roll: Roll, lost: int) -> Fire:
        """What `roll` reads when its side has lost `lost` SP before the volley."""
        key = (roll, lost)
        if key not in self._fires:
            own = replace(self.sides[roll.side], sp_by_arm=self.remaining(roll.side, lost))
            self._fires[key] = fire(roll, own, self.sides[roll.target], self.situation, self.options)
        return self._fires[key]


def morale_pass_chance(cohesion: Fraction) -> Fraction:
    """cohesion_d6: the chance that the morale die is at most the average cohesion."""
    dist = roll_distribution(procedure_data().morale_dice)
    return sum((p for value, p in dist.items() if value <= cohesion), Fraction(0))


def winner(lost: Mapping[str, int], beaten: frozenset[str] | set[str], options: Mapping[str, str]) -> str:
    """The side that won: the only unbeaten one, else by the option battle_winner."""
    if len(beaten) == 1:
        return enemy_of(next(iter(beaten)))
    if options["battle_winner"] == "more_losses_inflicted" and lost[DEFENDER] > lost[ATTACKER]:
        return ATTACKER
    return DEFENDER


"""Melee (phases 6 and 11): one unit a side, dice by class and formation, 4+ to hit with
the card's modifiers, and the result by matchup.

>>> plan = melee(Melee(6, Combatant("french", "infantry_column", "elite", 8),
...                       Combatant("austrian", "infantry_line", "veteran", 9)))
>>> plan.matchup, plan.attacker_dice.dice, plan.defender_dice.dice
('infantry_vs_infantry', 8, 4)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_13phase.data import (
    RULESET,
    UnitType,
    card,
    check_class,
    check_count,
    check_side,
    phase,
    unit_type,
)
from rules.napoleonic_13phase.rolls import Hits, ToHit, pool
from rules.options import resolve_options

_RATE = re.compile(r"^(\d+) (?:die|dice) per (?:(\d+) )?figures?$")

ATTACKER = "attacker"
DEFENDER = "defender"
TIE = "tie"


@dataclass(frozen=True)
class Combatant:
    """One side's unit in a melee."""

    side: str
    unit: str  # unit type: infantry_column, cuirassiers, artillery...
    unit_class: str  # elite, veteran or conscript
    figures: int
    defensive_terrain: bool = False  # the enemy's dice take -1
    fortification: bool = False  # infantry in a fortification: cavalry pass through
    lancers: bool = False  # uhlans always are
    supported_by: "Combatant | None" = None  # artillery: a unit 2” behind or beside it

    @property
    def kind(self) -> UnitType:
        return unit_type(self.unit, self.side)

    @property
    def carries_lances(self) -> bool:
        return self.lancers or self.kind.lancers


@dataclass(frozen=True)
class Melee:
    phase: int  # 6 or 11
    attacker: Combatant  # the unit that charged (either unit of a melee that goes on)
    defender: Combatant
    continuing: bool = False  # a melee continued from an earlier phase: not a first combat
    infantry_contacted: int = 1  # cavalry passing through squares, masses, fortifications


def dice_for(figures: int, unit_class: str, formation: str) -> int:
    """Melee dice: the figures times the class's rate, rounded down ('No rounding up,
    except 2 dice per 3 figures still allows one die if there are two extra figures')."""
    check_count(figures, "figures")
    check_class(unit_class)
    text = get_table(RULESET, "melee_dice").lookup(**{"class": unit_class, "formation": formation}).text
    m = _RATE.match(text)
    if not m:
        raise RulesError(f"melee dice {text!r} is not a rate of dice per figures")
    dice, per = int(m[1]), int(m[2] or 1)
    return figures * dice // per


def _melee_column(kind: UnitType) -> str:
    if kind.arm == "cavalry":
        return "cavalry"
    columns = get_table(RULESET, "melee_dice").columns
    assert columns is not None
    if kind.id not in columns.values():
        raise RulesError(f"{kind.id.replace('_', ' ')} have no melee dice on the card")
    return kind.id


def _modifier(row: str) -> Modifier:
    table = get_table(RULESET, "melee_modifiers")
    return Modifier(table.rows.bands[table.rows.index_of(row)].label, table.lookup(modifier=row).number)


def melee_modifiers(own: Combatant, enemy: Combatant, continuing: bool, options: Mapping[str, str] | None = None) -> list[Modifier]:
    """The modifiers to the dice of `own` fighting `enemy`."""
    chosen = resolve_options(RULESET, options)["lancers_continuing"]
    out = []
    if enemy.defensive_terrain:
        out.append(_modifier("enemy_in_defensive_terrain"))
    if enemy.unit == "cuirassiers":
        out.append(_modifier("vs_cuirassiers"))
    elif enemy.carries_lances and not continuing:
        out.append(_modifier("first_combat_vs_lancers"))
    lancer = own if chosen == "lancers_dice" else enemy
    if continuing and lancer.carries_lances:
        out.append(_modifier("lancers_continuing_melee"))
    return out


@dataclass(frozen=True)
class MeleePlan:
    """Before the dice: the matchup, the card's result for it, each side's dice and odds."""

    melee: Melee
    matchup: str  # a value of table melee_results, or skirmishers_contacted
    printed: str  # the result in the card's words
    attacker: Combatant  # the units that fight: a supporting unit instead of its artillery
    defender: Combatant
    attacker_dice: ToHit | None = None  # both sides roll: infantry or cavalry against their own arm
    defender_dice: ToHit | None = None
    destroyed: str | None = None  # ATTACKER or DEFENDER: destroyed without dice
    pass_through: ToHit | None = None  # the cavalry's casualties, one d6 per infantry unit contacted

    def odds(self) -> dict[str, Fraction]:
        """Exact odds: 'attacker loses', 'defender loses' or 'tie' when both roll; '0 casualties',
        '1 casualty'... for cavalry passing through; the card's result, certain, when a unit is
        destroyed."""
        if self.destroyed is not None:
            return {self.printed: Fraction(1)}
        if self.pass_through is not None:
            return {_casualties(n): p for n, p in self.pass_through.odds().items()}
        assert self.attacker_dice is not None and self.defender_dice is not None
        out = {_verdict(ATTACKER): Fraction(0), _verdict(DEFENDER): Fraction(0), _verdict(TIE): Fraction(0)}
        by_defender = self.defender_dice.odds()
        for inflicted, p in self.attacker_dice.odds().items():
            for received, q in by_defender.items():
                out[_verdict(_loser(inflicted, received))] += p * q
        return out

    def roll(
        self,
        dice: DiceService,
        *,
        entered_attacker: Sequence[int] | None = None,
        entered_defender: Sequence[int] | None = None,
    ) -> "MeleeResult":
        if self.destroyed is not None:
            if entered_attacker or entered_defender:
                raise RulesError(f"no dice are rolled: {self.printed}")
            return MeleeResult(self)
        if self.pass_through is not None:
            if entered_defender:
                raise RulesError("the infantry do not roll melee dice against cavalry passing through")
            return MeleeResult(self, pass_through=self.pass_through.roll(dice, entered=entered_attacker))
        assert self.attacker_dice is not None and self.defender_dice is not None
        return MeleeResult(
            self,
            attacker_hits=self.attacker_dice.roll(dice, entered=entered_attacker),
            defender_hits=self.defender_dice.roll(dice, entered=entered_defender),
        )


def _casualties(n: int) -> str:
    return f"{n} {'casualty' if n == 1 else 'casualties'}"


def _verdict(loser: str) -> str:
    """'attacker loses', 'defender loses' or 'tie'."""
    return TIE if loser == TIE else f"{loser} loses"


def _loser(inflicted: int, received: int) -> str:
    """'Unit loses if it receives more casualties than it inflicts.'"""
    if received > inflicted:
        return ATTACKER
    if inflicted > received:
        return DEFENDER
    return TIE


@dataclass(frozen=True)
class MeleeResult:
    plan: MeleePlan
    attacker_hits: Hits | None = None  # casualties the attacker inflicts
    defender_hits: Hits | None = None
    pass_through: Hits | None = None  # casualties the cavalry take

    @property
    def loser(self) -> str | None:
        """ATTACKER, DEFENDER, TIE, or None when a unit was destroyed or passed through."""
        if self.attacker_hits is None or self.defender_hits is None:
            return None
        return _loser(self.attacker_hits.hits, self.defender_hits.hits)

    @property
    def records(self) -> list[DiceRecord]:
        hits = (self.attacker_hits, self.defender_hits, self.pass_through)
        return [h.record for h in hits if h is not None and h.record is not None]

    @property
    def text(self) -> str:
        if self.pass_through is not None:
            return f"{self.plan.printed} The cavalry take {_casualties(self.pass_through.hits)}."
        if self.loser is None:
            return self.plan.printed
        assert self.attacker_hits is not None and self.defender_hits is not None
        score = f"Attacker inflicts {self.attacker_hits.hits}, defender inflicts {self.defender_hits.hits}: "
        return f"{score}{_verdict(self.loser)}. {self.plan.printed}"


def _fighting_defender(defender: Combatant) -> Combatant:
    if defender.kind.arm != "artillery" or defender.supported_by is None:
        return defender
    support = defender.supported_by
    if support.side != defender.side or support.kind.arm == "artillery":
        raise RulesError("artillery is supported by a unit of its own side that is not artillery")
    return support


def melee(fight: Melee, options: Mapping[str, str] | None = None) -> MeleePlan:
    """One melee of phase 6 or 11, resolved by the card's matchups."""
    resolve_options(RULESET, options)
    current = phase(fight.phase)
    if current.kind != "melee":
        raise RulesError(f"melees are fought in phases 6 and 11, not in phase {fight.phase} ({current.title})")
    for unit in (fight.attacker, fight.defender):
        check_side(unit.side)
        check_class(unit.unit_class)
        check_count(unit.figures, "figures")
        unit_type(unit.unit, unit.side)
    if fight.attacker.side == fight.defender.side:
        raise RulesError("a melee is fought between the two sides, not within one")
    check_count(fight.infantry_contacted, "infantry units contacted")
    attacker = fight.attacker
    if attacker.kind.arm == "artillery":
        raise RulesError("artillery do not charge into melee")
    defender = _fighting_defender(fight.defender)
    results = get_table(RULESET, "melee_results")

    def card_result(matchup: str) -> str:
        return results.lookup(matchup=matchup, phase=fight.phase).text

    a, d = attacker.kind, defender.kind
    if d.arm == "artillery":
        return MeleePlan(fight, "vs_unsupported_artillery", card_result("vs_unsupported_artillery"),
                         attacker, defender, destroyed=DEFENDER)
    if d.formation == "skirmishers":
        return MeleePlan(fight, "skirmishers_contacted", card().melee.skirmishers_contacted,
                         attacker, defender, destroyed=DEFENDER)
    if a.arm == "infantry" and d.arm == "cavalry":
        raise RulesError("Infantry cannot charge cavalry: the card has no melee of infantry against cavalry")
    if a.arm == "cavalry" and d.arm == "infantry":
        if defender.fortification or d.formation in ("square", "masse"):
            matchup = "cavalry_vs_square_masse_or_fortification"
            if fight.infantry_contacted < 1:
                raise RulesError("cavalry passing through contact at least one infantry unit")
            casualties = pool("pass-through casualties", fight.infantry_contacted,
                              f"{card().melee.pass_through_to_hit}+")
            return MeleePlan(fight, matchup, card_result(matchup), attacker, defender, pass_through=casualties)
        return MeleePlan(fight, "cavalry_vs_column_or_line", card_result("cavalry_vs_column_or_line"),
                         attacker, defender, destroyed=DEFENDER)
    matchup = f"{a.arm}_vs_{d.arm}"
    base = f"{card().melee.to_hit}+"

    def side_dice(own: Combatant, enemy: Combatant, role: str) -> ToHit:
        count = dice_for(own.figures, own.unit_class, _melee_column(own.kind))
        return pool(f"melee, phase {fight.phase}: {role} ({own.side} {own.unit})", count, base,
                    melee_modifiers(own, enemy, fight.continuing, options))

    return MeleePlan(
        fight,
        matchup,
        card_result(matchup),
        attacker,
        defender,
        attacker_dice=side_dice(attacker, defender, ATTACKER),
        defender_dice=side_dice(defender, attacker, DEFENDER),
    )

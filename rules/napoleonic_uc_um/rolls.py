"""What every roll of this card shares: a number needed on a d6, cumulative factors
added to it, dice counted against it, exact odds, and the result in the card's words.

A *check* is everything known before the dice are rolled (the number needed, the
factors applied, the dice, the exact odds); rolling it gives a *result*.  Factors
are added to the number needed, not to the die: '+2' makes a hit harder.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.dice import DiceRecord, Modifier, Roller
from rules.errors import RulesError
from rules.napoleonic_uc_um.data import Factor, card
from rules.odds import roll_distribution


@dataclass(frozen=True)
class Applied:
    """A factor of the card that counts, and how many times (artillery flanks)."""

    factor: Factor
    count: int = 1

    @property
    def value(self) -> int:
        return self.factor.value * self.count

    @property
    def modifier(self) -> Modifier:
        label = self.factor.label if self.count == 1 else f"{self.factor.label} x{self.count}"
        return Modifier(label, self.value)


@dataclass(frozen=True)
class Check:
    """A roll before it is made: `dice` d6, each succeeding on `target` or more."""

    kind: str  # fire, melee, save or morale
    base: int  # the number needed as printed
    base_label: str  # the printed number and what it is for, e.g. "Aguerri (seasoned) 4 +"
    applied: tuple[Applied, ...]
    need: int  # base plus the factors
    target: int  # the face each die needs, after the card's 'toujours sur 6 / sur 1'
    dice: int
    odds: Mapping[int, Fraction]  # exact chance of each number of successes
    notes: tuple[str, ...] = ()  # how the dice and the target were worked out
    step: str = ""  # the sequence-of-play step of a morale test

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        return tuple(a.modifier for a in self.applied)

    @property
    def modifier_total(self) -> int:
        return sum(a.value for a in self.applied)

    @property
    def expression(self) -> str:
        return pool(self.dice, self.target)

    def describe(self) -> str:
        mods = "".join(f", {m.label} {m.value:+d}" for m in self.modifiers)
        return f"{self.base_label}{mods}: need {self.need}, {self.expression}"


@dataclass(frozen=True)
class Result:
    """A rolled check: the dice record, the successes, and the card's words."""

    check: Check
    record: DiceRecord
    successes: int
    text: str  # French, the card's words
    english: str
    extra: Mapping[str, object] = field(default_factory=dict)


def hit_target(need: int, one_always_misses: bool) -> int:
    """The face a die of fire or melee needs: a 6 always hits ('On touche toujours sur 6');
    a 1 misses only when the option natural_one_to_hit says so."""
    top = card().to_hit.always_hits
    return max(2 if one_always_misses else 1, min(need, top))


def morale_target(need: int) -> int:
    """A morale die passes on 6 and fails on 1 whatever the number needed."""
    rules = card().morale_test
    return max(rules.always_fails + 1, min(need, rules.always_passes))


def pool(dice: int, target: int) -> str:
    """The dice expression: `dice` of the card's die, counting those at `target` or more."""
    return f"{dice}d{card().dice.sides}>={target}"


def pool_odds(dice: int, target: int) -> dict[int, Fraction]:
    """Exact chance of each number of dice at `target` or more (icepool)."""
    if dice < 1:
        raise RulesError("a roll needs at least one die")
    return dict(sorted(roll_distribution(pool(dice, target)).items()))


def loss_odds(hits: Check, save: int) -> dict[int, Fraction]:
    """Exact chance of each number of losses (hits not saved) before any die is rolled:
    the hit pool, then one save die per hit on `save` or more."""
    out: dict[int, Fraction] = {}
    for count, chance in hits.odds.items():
        if count == 0:
            out[0] = out.get(0, Fraction(0)) + chance
            continue
        for saved, p in pool_odds(count, save).items():
            lost = count - saved
            out[lost] = out.get(lost, Fraction(0)) + chance * p
    return dict(sorted(out.items()))


def ticked_counts(ticked: Iterable[str] | Mapping[str, int]) -> Counter[str]:
    if isinstance(ticked, Mapping):
        return Counter({k: int(v) for k, v in ticked.items() if v})
    return Counter(ticked)


def apply_factors(
    check: str,
    ticked: Iterable[str] | Mapping[str, int],
    *,
    derived: Mapping[str, int] | None = None,
    arm: str | None = None,
    kind: str = "",
    weapon: str | None = None,
    round_number: int | None = None,
    facing: str = "front",
) -> tuple[Applied, ...]:
    """The card's factors that count, in the card's order.

    `ticked` are the factors the umpire ticked; `derived` those the procedure worked
    out itself (distance, disorder...). A factor the card does not list, or one the
    situation excludes, is an error in one sentence.
    """
    factors = card().factors[check]
    counts = ticked_counts(ticked)
    for factor_id in counts:
        if factor_id not in factors:
            raise RulesError(
                f"{factor_id!r} is not one of the card's {check} factors: " + ", ".join(factors)
            )
        if factors[factor_id].derived:
            raise RulesError(
                f"'{factors[factor_id].label}' follows from {factors[factor_id].derived}; it is not ticked"
            )
    counts.update({k: v for k, v in (derived or {}).items() if v})
    for factor_id in list(counts):
        for implied in factors[factor_id].implies:
            counts[implied] = max(counts[implied], 1)
    for factor_id, count in counts.items():
        _check_factor(factors[factor_id], count, arm, kind, weapon, round_number, facing)
        for other in factors[factor_id].excludes:
            if other in counts:
                raise RulesError(
                    f"'{factors[factor_id].label}' and '{factors[other].label}' cannot both hold"
                )
    return tuple(Applied(f, counts[f.id]) for f in factors.values() if counts.get(f.id))


def _check_factor(
    factor: Factor, count: int, arm: str | None, kind: str, weapon: str | None, round_number: int | None, facing: str
) -> None:
    if factor.arms and arm not in factor.arms:
        raise RulesError(f"'{factor.label}' is for {' or '.join(factor.arms)}, not {arm}")
    if factor.kinds and kind not in factor.kinds:
        raise RulesError(f"'{factor.label}' is for {' or '.join(factor.kinds)}, not {kind or 'other cavalry'}")
    if factor.weapons and weapon not in factor.weapons:
        raise RulesError(f"'{factor.label}' does not apply to a firer with {weapon}")
    if factor.rounds and round_number not in factor.rounds:
        raise RulesError(f"'{factor.label}' counts only in round {', '.join(map(str, factor.rounds))} of a melee")
    if factor.front_only and facing != "front":
        raise RulesError(f"'{factor.label}' does not count on the flank or rear (* sauf sur le flanc ou les arrières)")
    if not 1 <= count <= factor.max:
        raise RulesError(f"'{factor.label}' counts at most {factor.max} time(s), not {count}")


def roll(
    check: Check,
    service: Roller,
    purpose: str,
    *,
    entered: Sequence[int] | None = None,
    by: str = "umpire",
) -> tuple[DiceRecord, int]:
    """Roll (or read the typed dice of) a check through the dice service.

    The factors change the number needed, not the dice, so the record's dice
    expression carries the target ("4d6>=5") and the purpose names the factors.
    """
    record = service.roll(check.expression, f"{purpose}, {check.describe()}", entered=entered, by=by)
    return record, record.result


def plural(count: int, one: str, many: str) -> str:
    """English count: 0 hits, 1 hit, 2 hits."""
    return f"{count} {one if count == 1 else many}"


def pluriel(count: int, one: str, many: str) -> str:
    """French count, singular below two: 0 perte, 1 perte, 2 pertes."""
    return f"{count} {one if count < 2 else many}"

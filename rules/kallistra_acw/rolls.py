"""A roll of D12s for hits, one die per firing (or charging) stand or per the
artillery dice, each die scoring the number needed or more; at canister range a
die may score two hits (HH).

The card's modifiers add to the score needed ("+2 target behind wall"), so a step
keeps them as printed and rolls its dice against the modified score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import Dice, DiceRecord, DiceService, Modifier
from rules.odds import roll_distribution


@dataclass(frozen=True)
class HitsStep:
    """What is rolled for hits, the score needed and the exact odds of each number of hits."""

    what: str  # who rolls, at what, in the card's words
    cell: str  # the cell read, as printed ("7+", "4+H, 11+HH")
    dice_count: int
    sides: int
    base: int  # the score printed
    modifiers: tuple[Modifier, ...]  # to the score needed, as printed (+2 target behind wall)
    odds: Mapping[int, Fraction]  # hits -> chance
    double_base: int | None = None  # canister: the score printed for two hits (HH)

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def needed(self) -> int:
        """The score each die needs after the modifiers; above the die's sides, no hit."""
        return self.base + self.modifier

    @property
    def double_needed(self) -> int | None:
        return None if self.double_base is None else self.double_base + self.modifier

    @property
    def dice(self) -> str:
        return pool(self.dice_count, self.sides, self.needed)

    @property
    def needed_text(self) -> str:
        text = f"{self.needed}+"
        if self.double_needed is not None:
            text = f"{self.needed}+H, {self.double_needed}+HH"
        if self.modifiers:
            mods = ", ".join(f"{m.value:+d} {m.label}" for m in self.modifiers)
            text += f" ({self.cell.split(' (')[0]}, {mods})"
        return text


@dataclass(frozen=True)
class HitsResult:
    step: HitsStep
    record: DiceRecord
    doubles: int  # dice that scored HH (two hits each)

    @property
    def hits(self) -> int:
        return self.record.result + self.doubles

    @property
    def text(self) -> str:
        hits = f"{self.hits} hit" + ("" if self.hits == 1 else "s")
        if self.step.double_base is None:
            return hits
        return f"{self.record.result - self.doubles} H, {self.doubles} HH: {hits}"


def pool(count: int, sides: int, needed: int) -> str:
    # Dice.parse takes no target below 1; a score of 1 or less is scored by every die.
    return f"{count}d{sides}>={max(needed, 1)}"


def hits_odds(count: int, sides: int, needed: int, double: int | None = None) -> dict[int, Fraction]:
    """The exact chance of each number of hits (icepool)."""
    if double is None:
        return roll_distribution(pool(count, sides, needed))
    import icepool

    one = icepool.d(sides).map(lambda v: 2 if v >= double else 1 if v >= needed else 0)
    total = count @ one
    return {int(o): Fraction(p) for o, p in zip(total.outcomes(), total.probabilities())}


def make_step(what: str, cell: str, count: int, sides: int, base: int,
              modifiers: Sequence[Modifier] = (), double_base: int | None = None) -> HitsStep:
    mods = tuple(modifiers)
    total = sum(m.value for m in mods)
    double = None if double_base is None else double_base + total
    odds = hits_odds(count, sides, base + total, double)
    return HitsStep(what, cell, count, sides, base, mods, odds, double_base)


def roll_hits(step: HitsStep, dice: DiceService, entered: Sequence[int] | None = None,
              by: str = "umpire") -> HitsResult:
    """Roll the step's dice (or take the dice typed in) and count the hits.

    The record's dice read the modified score ("3d12>=9"), its purpose says why."""
    record = dice.roll(step.dice, f"{step.what}: {step.needed_text}", entered=entered, by=by)
    doubles = 0
    if step.double_needed is not None:
        doubles = Dice.parse(pool(step.dice_count, step.sides, step.double_needed)).read(record.raw, 0)
    return HitsResult(step, record, doubles)

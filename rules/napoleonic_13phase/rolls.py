"""The card's two kinds of roll: a pool of d6 that each hit on a number, and a plain
roll (2d6” of charge bonus, d6 casualties...). Both give their exact odds before
the roll and go through the dice service.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.napoleonic_13phase.data import CardRoll, card
from rules.odds import roll_distribution

SIDES = 6  # every die of the card is a d6


@dataclass(frozen=True)
class ToHit:
    """A pool of d6, one hit for each die that reaches `target` after the modifiers."""

    purpose: str
    dice: int
    printed: str  # the to-hit number as the card prints it: "4+", "6"
    target: int
    modifiers: tuple[Modifier, ...] = ()

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def needed(self) -> int:
        """The die face needed: 4+ with +1 needs a 3. Above 6 nothing hits; at 1 every die does."""
        return max(1, self.target - self.modifier)

    @property
    def needed_text(self) -> str:
        return "cannot hit" if self.needed > SIDES else f"{self.needed}+"

    @property
    def expression(self) -> str:
        return f"{self.dice}d{SIDES}>={self.target}"

    @property
    def chance_per_die(self) -> Fraction:
        return Fraction(max(0, SIDES - self.needed + 1), SIDES)

    def odds(self) -> dict[int, Fraction]:
        """The exact chance of each number of hits."""
        if self.dice == 0:
            return {0: Fraction(1)}
        return roll_distribution(self.expression, self.modifier)

    def read(self, raw: Sequence[int]) -> int:
        """Hits among dice already rolled (the same shot read against another unit)."""
        return sum(1 for value in raw if value + self.modifier >= self.target)

    def roll(self, dice: DiceService, *, entered: Sequence[int] | None = None, by: str = "umpire") -> "Hits":
        if self.dice == 0:
            if entered:
                raise RulesError(f"{self.purpose}: no dice to roll, so none can be typed in")
            return Hits(self, 0, None)
        record = dice.roll(self.expression, self.purpose, self.modifiers, entered=entered, by=by)
        return Hits(self, record.result, record)


@dataclass(frozen=True)
class Hits:
    to_hit: ToHit
    hits: int
    record: DiceRecord | None  # None when there were no dice to roll

    @property
    def text(self) -> str:
        word = "hit" if self.hits == 1 else "hits"
        return f"{self.hits} {word} ({self.to_hit.dice} dice needing {self.to_hit.needed_text})"


def pool(purpose: str, dice: int, printed: str, modifiers: Sequence[Modifier] = ()) -> ToHit:
    """A pool whose to-hit number is a cell as printed ("4+", "6")."""
    digits = printed.rstrip("+").strip()
    if not digits.isdigit():
        raise RulesError(f"{printed!r} is not a to-hit number")
    return ToHit(purpose, dice, printed, int(digits), tuple(m for m in modifiers if m.value))


@dataclass(frozen=True)
class PlainRoll:
    """One of the card's plain rolls, with its exact odds before it is rolled."""

    roll_of: CardRoll
    base: int = 0  # added to the dice: a charge's allowance before its 2d6” bonus

    @property
    def odds(self) -> dict[int, Fraction]:
        return roll_distribution(self.roll_of.dice, self.base)

    def roll(self, dice: DiceService, *, entered: Sequence[int] | None = None, by: str = "umpire") -> DiceRecord:
        modifiers = [Modifier("allowance", self.base)] if self.base else []
        return dice.roll(self.roll_of.dice, self.roll_of.id.replace("_", " "), modifiers, entered=entered, by=by)


def card_roll(roll_id: str, base: int = 0) -> PlainRoll:
    """A plain roll by its id in rules.toml: cavalry_charge_bonus, skirmishers_evade,
    loser_retires or cannot_form_line."""
    rolls = card().rolls
    if roll_id not in rolls:
        raise RulesError(f"the card has no roll {roll_id!r}; its rolls: " + ", ".join(rolls))
    return PlainRoll(rolls[roll_id], base)

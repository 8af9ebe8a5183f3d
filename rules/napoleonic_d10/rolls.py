"""One roll read on one table: what is rolled and why, the modifiers, the natural
totals each result needs, the exact odds (icepool, through rules.odds) and, once
rolled through the dice service, the result in the card's words."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.napoleonic_d10.data import table
from rules.odds import roll_distribution

NEAREST = "nearest_row"  # a modified roll past the printed rows reads the nearest row
ASK = "ask_umpire"  # ... or the umpire reads it
ERROR = "error"  # ... or it is an error (the table prints an open end there)
UMPIRE_READS = "umpire reads"  # the result of a roll the umpire must read (option ASK)


@dataclass(frozen=True)
class NaturalRange:
    """The natural totals (dice before modifiers) that give one result."""

    text: str
    low: int
    high: int

    def __str__(self) -> str:
        span = str(self.low) if self.low == self.high else f"{self.low}-{self.high}"
        return f"{self.text} on {span}"


@dataclass(frozen=True)
class TableRoll:
    """A roll about to be made on `table`, the other axes fixed by `axes`."""

    purpose: str
    table: str
    dice: str
    modifiers: tuple[Modifier, ...] = ()
    axes: tuple[tuple[str, int | str], ...] = ()
    off_table: str = ERROR
    below: tuple[int, str] | None = None  # (lowest modified roll that reads the table, result below it)
    naturals: tuple[tuple[int, str], ...] = ()  # natural totals with a result of their own
    blank: str | None = None  # what a blank cell reads as, where the procedure says so

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    def read(self, natural: int) -> str:
        """The result, in the card's words, of this natural total."""
        for value, text in self.naturals:
            if natural == value:
                return text
        return self.read_modified(natural + self.modifier)

    def read_modified(self, modified: int) -> str:
        tab = table(self.table)
        if self.below is not None and modified < self.below[0]:
            return self.below[1]
        try:
            tab.rows.index_of(modified)
        except RulesError:
            if self.off_table == NEAREST:
                modified = tab.rows.nearest(modified)
            elif self.off_table == ASK:
                return UMPIRE_READS
            else:
                raise
        cell = tab.lookup(**{tab.rows.name: modified}, **dict(self.axes))
        if cell.blank and self.blank is not None:
            return self.blank
        return cell.text

    def odds(self) -> dict[str, Fraction]:
        """The exact chance of each result."""
        return distribution(self.dice, self.read)

    def needed(self) -> tuple[NaturalRange, ...]:
        """The natural totals each result needs, from the lowest total up."""
        return natural_ranges(self.dice, self.read)

    def roll(self, dice: DiceService, *, entered: Sequence[int] | None = None, by: str = "umpire") -> Rolled:
        """Roll through the dice service (or read the dice typed in) and read the result."""
        record = dice.roll(self.dice, self.purpose, self.modifiers, entered=entered, by=by)
        natural = record.result - record.modifier_total
        return Rolled(self, record, natural, record.result, self.read(natural))


@dataclass(frozen=True)
class Rolled:
    """A TableRoll rolled: the dice record, the natural and modified totals, the result."""

    check: TableRoll
    record: DiceRecord
    natural: int
    modified: int
    text: str

    @property
    def umpire_reads(self) -> bool:
        return self.text == UMPIRE_READS


def distribution(dice: str, read: Callable[[int], str]) -> dict[str, Fraction]:
    """The exact chance of each result of `read` over the natural totals of `dice`."""
    out: dict[str, Fraction] = {}
    for natural, chance in roll_distribution(dice).items():
        text = read(natural)
        out[text] = out.get(text, Fraction(0)) + chance
    return out


def natural_ranges(dice: str, read: Callable[[int], str]) -> tuple[NaturalRange, ...]:
    """The runs of natural totals of `dice` that give the same result of `read`."""
    ranges: list[NaturalRange] = []
    for natural in sorted(roll_distribution(dice)):
        text = read(natural)
        if ranges and ranges[-1].text == text and ranges[-1].high == natural - 1:
            ranges[-1] = NaturalRange(text, ranges[-1].low, natural)
        else:
            ranges.append(NaturalRange(text, natural, natural))
    return tuple(ranges)


def off_table_choice(option_value: str) -> str:
    """The TableRoll.off_table value for a rules option's choice (nearest_row or ask_umpire)."""
    return NEAREST if option_value == NEAREST else ASK

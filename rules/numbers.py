"""Whole numbers as a person types them: ASCII digits, an optional minus, bounded length.

`int()` also reads "٣" (Arabic-Indic three), "1_000" and " 7 ", and `str.isdigit()`
says yes to "²", which `int()` then refuses with a traceback; a number typed at
the command line or in a form is read here instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.errors import RulesError

MAX_DIGITS = 9  # up to 999,999,999: more than any roll, modifier, month or strength
_WHOLE = re.compile(r"-?[0-9]+")


def is_whole(text: str, digits: int = MAX_DIGITS) -> bool:
    return bool(_WHOLE.fullmatch(text)) and len(text.lstrip("-")) <= digits


def whole(text: str, what: str, digits: int = MAX_DIGITS) -> int:
    """`text` as a whole number, or RulesError saying what was expected."""
    if not _WHOLE.fullmatch(text):
        raise RulesError(f"{what} must be a whole number, not {text[:40]!r}")
    if len(text.lstrip("-")) > digits:
        raise RulesError(f"{what} must have at most {digits} digits")
    return int(text)


# -- kinds of number, each with its one range -------------------------------------------------

# The largest whole number every store holds: PostgreSQL's INTEGER, the type of every id,
# turn, count and strength column (SQLite's hold 64 bits, so a larger one is stored in a
# file and refused by a club's database: it is refused before either sees it).
INTEGER = 2**31 - 1
BIGINT = 2**63 - 1  # the dice seed's column
MAX_TURNS = 10_000  # turns of a campaign: the export's limit too (models.export_format)
MAX_STRENGTH = 9_999  # SP of one unit: the export's limit too
# SP of one arm of a side in one battle: ten of the largest units. The exact odds take time
# in proportion (0.4 s at this many, 4 s at a million, hours at 3,000,000,000).
MAX_SIDE_STRENGTH = 99_999
_SIGNED = re.compile(r"[+-]?[0-9]+")


@dataclass(frozen=True)
class Span:
    """One kind of whole number a person types (a turn, an event's number, a seed) and its range.

    Checked where the text becomes a number, the command line's or a form's, so a number
    no store holds never reaches one: the same sentence on SQLite and PostgreSQL."""

    noun: str  # "a turn number": how a refusal names it
    low: int
    high: int = INTEGER

    def read(self, text: str) -> int:
        """`text` (ASCII digits and a sign, nothing else: a form strips its spaces first) as this kind of
        number; RulesError otherwise."""
        typed = str(text)
        shown = repr(typed) if len(typed) <= 30 else repr(typed[:30] + "...")
        if not _SIGNED.fullmatch(typed):
            raise RulesError(f"{shown} is not a whole number: {self.noun} is {self.low} to {self.high}")
        digits = typed.lstrip("+-").lstrip("0")
        if len(digits) > len(str(self.high)) + 1:  # int() of thousands of digits is slow, then refused
            raise RulesError(f"{shown} is too {'small' if typed.startswith('-') else 'large'} for {self.noun} "
                             f"({f'at least {self.low}' if typed.startswith('-') else f'at most {self.high}'})")
        return self.check(int(typed), shown)

    def check(self, number: int, shown: str | None = None) -> int:
        """`number` if it is within the range; RulesError naming the kind otherwise."""
        shown = shown if shown is not None else repr(str(number))
        if number > self.high:
            raise RulesError(f"{shown} is too large for {self.noun} (at most {self.high})")
        if number < self.low:
            raise RulesError(f"{shown} is too small for {self.noun} (at least {self.low})")
        return number

    def holds(self, number: int) -> bool:
        return self.low <= number <= self.high


TURN = Span("a turn number", 1, MAX_TURNS)
EVENT = Span("an event number", 1)
BATTLE = Span("a battle number", 1)
ORDER = Span("an order's number", 1)
SEED = Span("a dice seed", 0, BIGINT)
STRENGTH = Span("SP", 0, MAX_STRENGTH)
ROW_ID = Span("an id", 1)  # any other row's number
PIECES = Span("a count of stands or figures", 0, 99_999)  # on one table: more than any unit has

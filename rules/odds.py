"""Exact probabilities of rolls and of table results, computed with icepool.

icepool is imported here only, so that looking up a table stays quick.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from rules.dice import Dice
from rules.errors import RulesError
from rules.tables import Table

NEAREST = "nearest"  # a modified roll beyond the printed rows reads the nearest row
# Exact odds cost time that grows with dice x sides (a sum convolves every die; keeping the
# highest walks every face). These bounds keep an answer within about a second on a
# shared machine and are far past what any card rolls (at most 3d10kh1, 2d10, 2d6).
MAX_SUM_FACES = 1200  # 200d6, 12d100, 1d1000
MAX_KEEP_FACES = 400  # 20d20kh1, 4d100kh2


def computable(spec: Dice) -> Dice:
    """`spec`, or RulesError when its exact odds are too long to compute (`check` refuses a
    stored roll the luck could not weigh, as the luck itself does)."""
    faces = spec.count * spec.sides
    if spec.target is None and faces > (MAX_KEEP_FACES if spec.keep else MAX_SUM_FACES):
        limit = MAX_KEEP_FACES if spec.keep else MAX_SUM_FACES
        raise RulesError(
            f"the exact odds of {spec} are too long to compute: dice times sides may be at most {limit} "
            f"{'when keeping dice' if spec.keep else 'for a sum'}"
        )
    return spec


def icepool_die(dice: Dice | str, modifier: int = 0):
    import icepool

    spec = computable(Dice.parse(dice) if isinstance(dice, str) else dice)
    one = icepool.d(spec.sides)
    if spec.target is not None:
        return spec.count @ (one + modifier >= spec.target)
    if spec.keep == "kh":
        return one.highest(spec.count, spec.keep_count) + modifier
    if spec.keep == "kl":
        return one.lowest(spec.count, spec.keep_count) + modifier
    return spec.count @ one + modifier


def roll_distribution(dice: Dice | str, modifier: int = 0) -> dict[int, Fraction]:
    """Each result of the roll with its exact probability."""
    return dict(_distribution(Dice.parse(dice) if isinstance(dice, str) else dice, modifier))


# The same roll is asked for over and over (each unit of a forced march of a thousand
# units, each step of a battle): its distribution is computed once and kept, as pairs
# the caller cannot change. A card rolls a few dice with a few modifiers; the bound
# keeps a hostile file's many different rolls from growing it without end.
@lru_cache(maxsize=1024)
def _distribution(spec: Dice, modifier: int) -> tuple[tuple[int, Fraction], ...]:
    if spec.count == 1 and spec.keep is None and spec.target is None:
        # One die, each face alike: what icepool gives, without importing it (0.25 s), which
        # a forced march's first odds (1d6) would otherwise wait for.
        return tuple((face + modifier, Fraction(1, spec.sides)) for face in range(1, spec.sides + 1))
    die = icepool_die(spec, modifier)
    return tuple((int(o), Fraction(p)) for o, p in zip(die.outcomes(), die.probabilities()))


def table_distribution(
    table: Table,
    modifier: int = 0,
    *,
    dice: Dice | str | None = None,
    roll_axis: str = "roll",
    beyond: str | None = None,
    **fixed: int | str,
) -> dict[str, Fraction]:
    """The exact chance of each printed result of `table` for a modified roll.

    A modified roll past the printed rows is an error unless the table prints an
    open end there, or `beyond` is NEAREST (a named procedure option said so).
    """
    spec = dice or table.dice
    if spec is None:
        raise RulesError(f"table {table.id} is not read with dice")
    if roll_axis not in {a.name for a in table.axes}:
        raise RulesError(f"table {table.id} has no {roll_axis} axis")
    result: dict[str, Fraction] = {}
    for roll, chance in roll_distribution(spec, modifier).items():
        try:
            table.rows.index_of(roll)
        except RulesError:
            if beyond != NEAREST:
                raise RulesError(
                    f"a modified roll of {roll} is beyond the printed rows of table {table.id}"
                ) from None
            roll = table.rows.nearest(roll)
        text = table.lookup(**{roll_axis: roll}, **fixed).text
        result[text] = result.get(text, Fraction(0)) + chance
    return result


_AT_LEAST = re.compile(r"^(\d+)\s*\+$")
_AT_MOST = re.compile(r"^(\d+)\s*(?:or less|et -|-)$")


def is_target(text: str, bare: str | None = None) -> bool:
    """Whether a cell prints a number to roll against ("4+", "5 or less", or a bare number the table reads)."""
    cell = " ".join(text.split())
    return bool(_AT_LEAST.match(cell) or _AT_MOST.match(cell) or (bare is not None and cell.lstrip("-").isdigit()))


def target_odds(text: str, dice: Dice | str, modifier: int = 0, bare: str | None = None) -> dict[str, Fraction]:
    """The chance that a roll meets a printed target: "4+" (at least 4 after the
    modifier) or "5 or less" (at most 5); a bare number ("3") as the table says it
    is met (`bare`: more_than, at_least or at_most). Any other cell is not a target number."""
    cell = " ".join(text.split())
    if bare is not None and cell.lstrip("-").isdigit():
        n = int(cell)  # rolls are whole numbers: more than n is at least n + 1
        low, high = {"more_than": (n + 1, None), "at_least": (n, None), "at_most": (None, n)}[bare]
    elif m := _AT_LEAST.match(cell):
        low, high = int(m[1]), None
    elif m := _AT_MOST.match(cell):
        low, high = None, int(m[1])
    else:
        raise RulesError(f"{text!r} is not a target number such as 4+ or 5 or less")

    def hit(roll: int) -> bool:
        return (low is None or roll >= low) and (high is None or roll <= high)

    success = sum((p for roll, p in roll_distribution(dice, modifier).items() if hit(roll)), Fraction(0))
    return {"success": success, "failure": 1 - success}

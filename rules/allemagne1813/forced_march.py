"""Forced march: 1d6 with the card's modifiers, read on the forced march table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

from rules.allemagne1813.combat import read_roll
from rules.allemagne1813.data import modifiers
from rules.dice import Modifier
from rules.loader import get_table
from rules.odds import roll_distribution
from rules.options import resolve_options

RULESET = "allemagne1813"


def forced_march_modifiers(
    general_cvs: Sequence[int], unit_cohesion: int, weather: str
) -> list[Modifier]:
    """The card's dice modifiers for one unit on forced march in a stack."""
    out: list[Modifier] = []
    for entry in modifiers().forced_march:
        if entry.get("when") == "general_cv_3_or_4":
            hit = any(entry["min_cv"] <= cv <= entry["max_cv"] for cv in general_cvs)
        elif entry.get("when") == "cohesion_4_or_more":
            hit = unit_cohesion >= entry["min_cohesion"]
        else:
            hit = entry.get("weather") == weather
        if hit:
            out.append(Modifier(entry["printed"].split(":")[0], entry["value"]))
    return out


def forced_march_loss(roll: int, sp: int, options: Mapping[str, str] | None = None) -> int:
    """SP lost for a modified roll, reading past the printed rows by the named options."""
    table = get_table(RULESET, "forced_march")
    low = min(v for v in table.rows.values() if isinstance(v, int))
    option = "roll_below_table" if roll < low else "roll_above_table"
    return table.lookup(roll=read_roll("forced_march", roll, option, options), sp=sp).number


def forced_march_odds(
    sp: int, modifier: int, options: Mapping[str, str] | None = None
) -> dict[int, Fraction]:
    """The exact chance of each SP loss before the roll."""
    return dict(_odds(sp, modifier, tuple(sorted((options or {}).items()))))


# A stack of a thousand units has a few (SP, modifier) pairs among them: each pair's odds
# are read off the table once. Bounded, as a hostile file may give many.
@lru_cache(maxsize=1024)
def _odds(sp: int, modifier: int, options: tuple[tuple[str, str], ...]) -> tuple[tuple[int, Fraction], ...]:
    chosen = dict(options)
    resolve_options(RULESET, chosen)  # a bad option is an error even when unused
    out: dict[int, Fraction] = {}
    for roll, chance in roll_distribution("1d6", modifier).items():
        loss = forced_march_loss(roll, sp, chosen)
        out[loss] = out.get(loss, Fraction(0)) + chance
    return tuple(sorted(out.items()))

"""The card's prose numbers (rules.toml) and the small readers every procedure shares.

The tables themselves are in tables/*.toml and are read with `rules.loader`; this
module reads the rest of the card (surrender distance, natural 9 and 10, mass
ratios, the charge results by name...) and checks it against the tables on load.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from rules.dice import Dice, Modifier
from rules.errors import RulesError
from rules.loader import DataFileError, get_table
from rules.options import resolve_options
from rules.schema import Frozen, refusal
from rules.tables import Table

RULESET = "napoleonic_d10"
PATH = Path(__file__).with_name("rules.toml")

_INCHES = re.compile(r'^\s*(\d+)(?:-(\d+)/(\d+)|/(\d+))?"')
_RANGE_INCHES = re.compile(r'^\s*(\d+)\s*[–-]\s*(\d+)"')


class DiceSpec(Frozen):
    """The dice of the rolls the card states in prose."""

    fire: str
    melee: str
    initiative: str
    surrender: str
    charge: str
    unstated: str


class MoraleResult(Frozen):
    """What a morale result does: the unit's state, its move (table morale_loss_move), how
    long it lasts (table morale_duration); Surr: what it does beyond the surrender distance."""

    status: str | None = None
    move: str | None = None
    duration: str | None = None
    otherwise: str | None = None


class Morale(Frozen):
    surrender_within: int  # inches
    losses_modifier_percent: int
    fired_on_after_percent: int
    friend_breaks_within: int  # inches
    flank_fire_ranges: tuple[str, ...]
    checks: Mapping[str, str]  # reason -> the card's words
    results: Mapping[str, MoraleResult]  # the morale table's result -> what it does


class Fire(Frozen):
    natural_extra_ap: int
    extra_ap: int
    natural_roll_again: int
    no_effect: str
    small_arms_ap: int
    artillery_plain_ap: int
    rate_of_fire: Mapping[str, str]  # AP spent -> the row of fire_modifiers


class Charge(Frozen):
    closing_casualties_step: int  # percent
    mass: tuple[tuple[str, str], ...]  # (row of charge_modifiers, ratio at least), highest first
    continue_within: Mapping[Literal["infantry", "cavalry"], int]  # inches
    ride_down_modifier: int
    surrender_percent_per_pip: int
    results: Mapping[str, str]  # short name -> the result as the tables print it
    kinds: Mapping[Literal["occupy", "surrender", "attacker_loses", "defender_loses"], tuple[str, ...]]
    ride_down: Mapping[str, tuple[str, ...]]  # option ride_down_results -> the results


class Initiative(Frozen):
    turn_ends_at: int


class Movement(Frozen):
    natural_no_move: int
    no_move: str
    effects: Mapping[str, str]  # result -> the share of the distance, as a fraction
    as_foot: Mapping[str, str]  # horse guns -> the foot guns they move as


class Card(Frozen):
    """rules.toml: the card's prose numbers and the few editorial values, typed."""

    source: str
    class_dice: Mapping[str, Mapping[str, str]]  # option class_dice -> class -> dice
    dice: DiceSpec
    morale: Morale
    states: Mapping[str, str]
    fire: Fire
    charge: Charge
    initiative: Initiative
    movement: Movement


@cache
def card() -> Card:
    """rules.toml as typed frozen objects, checked against the tables it names."""
    try:
        data = tomllib.loads(PATH.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{PATH}: cannot be read as TOML ({exc})") from None
    try:
        read = Card.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(refusal(PATH, exc, Card)) from None
    try:
        for reading in read.class_dice.values():
            for expression in reading.values():
                Dice.parse(expression)
        for expression in read.dice.model_dump().values():
            Dice.parse(expression)
        results = read.charge.results
        for table_id in ("charge_open", "charge_cover"):
            for _, grid in table(table_id).grids():
                for (text,) in grid:
                    if text not in results.values():
                        raise DataFileError(f"{PATH}: [charge.results] lacks the result {text!r} of table {table_id}")
        named = [*read.charge.kinds.values(), *read.charge.ride_down.values()]
        for names in named:
            for name in names:
                if name not in results:
                    raise DataFileError(f"{PATH}: {name!r} is not one of [charge.results]")
        for result in read.morale.results:
            if result not in table("morale").legend:
                raise DataFileError(f"{PATH}: morale result {result!r} is not in the morale table")
    except RulesError as exc:
        raise DataFileError(f"{PATH}: {exc}") from None
    return read


def table(table_id: str) -> Table:
    return get_table(RULESET, table_id)


def options_of(options: Mapping[str, str] | None) -> dict[str, str]:
    """Every rules option of the rule set, the defaults unless overridden."""
    return resolve_options(RULESET, options)


def values_of(table_id: str, axis: str) -> list[int | str]:
    """The values an axis of a table takes (its named values, or its printed numbers)."""
    tab = table(table_id)
    for a in tab.axes:
        if a.name == axis:
            return a.values()
    raise RulesError(f"table {table_id} has no axis {axis}")


def one_of(what: str, value: object, allowed: Iterable[object]) -> None:
    """One clear sentence when `value` is not one of the card's `allowed` values."""
    allowed = list(allowed)
    if value not in allowed:
        raise RulesError(f"{what} must be one of {', '.join(str(a) for a in allowed)}, not {value!r}")


def unit_classes() -> list[str]:
    return [str(v) for v in values_of("class_dice", "unit_class")]


def class_dice(unit_class: str, options: Mapping[str, str] | None = None) -> str:
    """The dice a unit of this class rolls, by option class_dice."""
    one_of("the unit class", unit_class, unit_classes())
    return card().class_dice[options_of(options)["class_dice"]][unit_class]


def modifier(table_id: str, row: str, **axes: str) -> Modifier:
    """A modifier as the card prints it: its line's label and its number."""
    tab = table(table_id)
    cell = tab.lookup(modifier=row, **axes)
    band = tab.rows.bands[tab.rows.index_of(row)]
    return Modifier(band.label, cell.number)


def cell_text(table_id: str, **axes: int | str) -> str:
    return table(table_id).lookup(**axes).text


def band_label(table_id: str, axis: str, value: int | str) -> str:
    for a in table(table_id).axes:
        if a.name == axis:
            return a.bands[a.index_of(value)].label
    raise RulesError(f"table {table_id} has no axis {axis}")


def inches(text: str) -> Fraction:
    """The distance a cell prints: '12"', '1/2"', '1-1/2"' or '8" (2 AP’s)'."""
    m = _INCHES.match(text)
    if not m:
        raise RulesError(f"{text!r} is not a distance in inches")
    whole = Fraction(int(m[1]))
    if m[2]:
        return whole + Fraction(int(m[2]), int(m[3]))
    if m[4]:
        return Fraction(int(m[1]), int(m[4]))
    return whole


def inch_range(text: str) -> tuple[Fraction, Fraction]:
    """A printed range of distances such as '13–18"'."""
    m = _RANGE_INCHES.match(text)
    if not m:
        raise RulesError(f"{text!r} is not a range of inches")
    return Fraction(int(m[1])), Fraction(int(m[2]))


def distance(value: float | Fraction | str, what: str = "the distance") -> Fraction:
    """A measured distance in inches, 0 or more."""
    try:
        measured = Fraction(str(value)) if not isinstance(value, Fraction) else value
    except (ValueError, ZeroDivisionError):
        raise RulesError(f"{what} must be a number of inches, not {value!r}") from None
    if measured < 0:
        raise RulesError(f"{what} must be 0 inches or more, not {value}")
    return measured


def percent(value: float | Fraction | str, what: str) -> Fraction:
    """A share of a unit's starting strength, 0 to 100."""
    try:
        share = Fraction(str(value)) if not isinstance(value, Fraction) else value
    except (ValueError, ZeroDivisionError):
        raise RulesError(f"{what} must be a percentage, not {value!r}") from None
    if not 0 <= share <= 100:
        raise RulesError(f"{what} must be between 0 and 100%, not {value}")
    return share


@dataclass(frozen=True)
class Leader:
    """A leader attached to a unit: his rating, command level and where he is attached."""

    rating: str  # superior, excellent, good, average, poor
    level: str  # division, corps, army
    attached_at: str = "brigade"  # regiment or brigade (the morale command modifiers)

    def check(self) -> None:
        one_of("a leader's rating", self.rating, values_of("leader_attachment", "rating"))
        one_of("a leader's command level", self.level, values_of("leader_attachment", "level"))
        one_of("where a leader is attached", self.attached_at, values_of("morale_command", "attached_at"))


def influence_level(leader: Leader, options: Mapping[str, str] | None = None) -> int:
    """The leader's IL, by option leader_il: from his rating alone (the card's 'Attached:'
    list, Average adding nothing), or the Leader Attachment grid by rating and level."""
    leader.check()
    if options_of(options)["leader_il"] == "attachment_grid":
        return table("leader_attachment").lookup(rating=leader.rating, level=leader.level).number
    if leader.rating not in values_of("initiative_modifiers", "modifier"):
        return 0  # 'Attached:' prints no line for Average: he adds nothing
    return table("initiative_modifiers").lookup(modifier=leader.rating).number


def cw_level_for(cohesion: int) -> int:
    """The CW level the hand-off gives a campaign force of this cohesion (conversion.toml
    [cw_level], editorial like the rest of the conversion)."""
    path = Path(__file__).with_name("conversion.toml")
    try:
        levels = {int(k): int(v) for k, v in tomllib.loads(path.read_text(encoding="utf-8"))["cw_level"].items()}
    except (OSError, KeyError, ValueError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{path}: [cw_level] is missing or malformed ({exc})") from None
    if cohesion not in levels:
        raise RulesError(f"cohesion is one of {', '.join(map(str, sorted(levels)))}, not {cohesion!r}")
    return levels[cohesion]

"""The set-up of a battle checked before any die is rolled.

A bad value a person typed (a negative SP, an unknown weather, a cohesion off the
scale) is a RulesError in one sentence naming the side and the value.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache
from numbers import Rational

from rules.allemagne1813.combat import RULESET, CombatSide
from rules.allemagne1813.data import PATH, Situation
from rules.allemagne1813.weather import MUD, weather_name
from rules.errors import RulesError
from rules.loader import DataFileError, get_table
from rules.numbers import MAX_SIDE_STRENGTH

ATTACKER = "attacker"
DEFENDER = "defender"
SIDES = (ATTACKER, DEFENDER)


def enemy_of(role: str) -> str:
    return DEFENDER if role == ATTACKER else ATTACKER


@dataclass(frozen=True)
class ProcedureData:
    """The battle procedure's entries of rules.toml."""

    arms: tuple[str, ...]
    lowest_cohesion: int
    highest_cohesion: int
    morale_dice: str


@cache
def procedure_data() -> ProcedureData:
    try:
        data = tomllib.loads(PATH.read_text(encoding="utf-8"))
        return ProcedureData(
            arms=tuple(data["battle_procedure"]["arms"]),
            lowest_cohesion=data["cohesion"]["lowest"],
            highest_cohesion=data["cohesion"]["highest"],
            morale_dice=data["morale_test"]["dice"],
        )
    except (KeyError, TypeError) as exc:
        raise DataFileError(f"{PATH}: missing or malformed battle procedure entry {exc}") from None


@cache
def weather_names() -> tuple[str, ...]:
    """clear, rain, snow... as the weather table prints them, and the Mud a Rain* brings."""
    names: list[str] = []
    for row in get_table(RULESET, "weather").cells:
        for cell in row:
            name = weather_name(cell)
            if name and name not in names:
                names.append(name)
    if MUD.lower() not in names:
        names.append(MUD.lower())
    return tuple(names)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_side(role: str, side: CombatSide) -> None:
    arms = procedure_data().arms
    for arm, sp in side.sp_by_arm.items():
        if arm not in arms:
            raise RulesError(f"the {role}'s arm {arm!r} is not one of " + ", ".join(arms))
        if not _whole(sp) or sp < 0:
            raise RulesError(f"the {role}'s {arm} SP must be a whole number of 0 or more, not {sp!r}")
        if sp > MAX_SIDE_STRENGTH:  # a stored battle from anyone's export: the exact odds would take hours
            raise RulesError(f"the {role}'s {arm} SP must be at most {MAX_SIDE_STRENGTH}, not {sp}")
    if side.strength_points < 1:
        raise RulesError(f"the {role} has no SP to fight with")
    for name in ("artillery_bonus", "cavalry_bonus"):
        value = getattr(side, name)
        if not _whole(value) or value < 0:
            label = name.replace("_", " ")
            raise RulesError(f"the {role}'s {label} must be a whole number of 0 or more, not {value!r}")
    check_cohesion(f"the {role}'s average cohesion", side.average_cohesion)
    for leader in side.leaders:
        if not _whole(leader.rank) or not _whole(leader.tactical_bonus):
            raise RulesError(
                f"the {role}'s leader {leader.name} needs a whole rank and tactical bonus, "
                f"not {leader.rank!r} and {leader.tactical_bonus!r}"
            )


def check_cohesion(what: str, value: object) -> Fraction:
    data = procedure_data()
    if not isinstance(value, Rational) or isinstance(value, bool):
        raise RulesError(f"{what} must be a number such as 3 or 7/2, not {value!r}")
    if not data.lowest_cohesion <= Fraction(int(value.numerator), int(value.denominator)) <= data.highest_cohesion:
        raise RulesError(
            f"{what} must be between {data.lowest_cohesion} and {data.highest_cohesion}, not {value}"
        )
    return Fraction(value)


def check_weather(weather: object) -> str:
    if weather not in weather_names():
        raise RulesError(f"the weather {weather!r} is not one of " + ", ".join(weather_names()))
    return weather


def check_situation(situation: Situation) -> None:
    if not isinstance(situation, Situation):
        raise RulesError(f"the battle situation must be a Situation, not {type(situation).__name__}")
    for f in fields(Situation):
        value = getattr(situation, f.name)
        if f.name == "weather":
            check_weather(value)
        elif not isinstance(value, bool):
            raise RulesError(f"{f.name.replace('_', ' ')} is yes or no (True or False), not {value!r}")

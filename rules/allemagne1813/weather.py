"""The weather of a campaign turn: 1d6 plus the month's modifier, and Rain*'s Mud."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceRecord, DiceService, Modifier
from rules.loader import get_table

RULESET = "allemagne1813"
MUD = "Mud"


@dataclass(frozen=True)
class Weather:
    printed: str  # "Clear", "Rain", "Rain*", "Snow", or "Mud" when forced
    forced: bool  # True when Rain* the turn before made this turn Mud, unrolled
    record: DiceRecord | None = None

    @property
    def name(self) -> str:
        return weather_name(self.printed)

    @property
    def next_turn_mud(self) -> bool:
        return mud_is_forced(self.printed)


def weather_name(printed: str) -> str:
    """clear, rain, mud or snow: the weather the other tables are read with, from
    the weather as printed ("Rain*" is Rain this turn)."""
    return printed.rstrip("*").strip().lower()


def month_modifier(month: int) -> Modifier:
    table = get_table(RULESET, "weather_month_modifier")
    label = table.rows.bands[table.rows.index_of(month)].label
    return Modifier(label, table.lookup(month=month).number)


def mud_is_forced(previous: str | None) -> bool:
    """A turn after a Rain* turn is Mud without a roll; after that the dice decide again."""
    return previous is not None and previous.endswith("*")


def roll_weather(
    dice: DiceService, month: int, previous: str | None, *, entered: list[int] | None = None
) -> Weather:
    """The weather of the turn, given the month and the printed weather of the turn before."""
    if mud_is_forced(previous):
        return Weather(MUD, forced=True)
    modifier = month_modifier(month)
    record = dice.roll("1d6", "weather", [modifier] if modifier.value else [], entered=entered)
    cell = get_table(RULESET, "weather").lookup(roll=record.result, month=month)
    return Weather(cell.text, forced=False, record=record)

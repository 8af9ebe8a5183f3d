"""Movement points and stacking limits of Allemagne 1813."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.loader import get_table
from rules.options import resolve_options

RULESET = "allemagne1813"


@dataclass(frozen=True)
class MovementPoints:
    unit: str
    base: int
    out_of_command: int
    weather: int

    @property
    def total(self) -> int:
        return max(0, self.base + self.out_of_command + self.weather)


def movement_points(
    unit: str, weather: str, out_of_command: bool = False, options: Mapping[str, str] | None = None
) -> MovementPoints:
    """MP of a unit (general, cavalry, infantry, artillery) in this weather."""
    chosen = resolve_options(RULESET, options)
    base = get_table(RULESET, "movement").lookup(unit=unit).number
    penalty = get_table(RULESET, "out_of_command").lookup(unit=unit).number if out_of_command else 0
    effect = get_table(RULESET, "movement_weather").lookup(weather=weather, unit=unit).number
    if unit == "general" and weather == "mud":
        if chosen["mud_general_mp"] == "terrain_table":
            effect = get_table(RULESET, "movement_weather").lookup(weather="mud", unit="cavalry").number
    return MovementPoints(unit, base, penalty, effect)


def stack_fits(
    infantry: int,
    cavalry: int,
    dummies: int = 0,
    *,
    commander_in_chief: bool = False,
    options: Mapping[str, str] | None = None,
) -> bool:
    """Whether a stack may move together. Reserve artillery and generals do not count."""
    chosen = resolve_options(RULESET, options)["dummy_stacking"]
    if commander_in_chief:
        return True
    table = get_table(RULESET, "stacking")
    for composition in table.rows.values():
        room_inf = table.lookup(composition=composition, arm="infantry").number - infantry
        room_cav = table.lookup(composition=composition, arm="cavalry").number - cavalry
        if chosen == "infantry":
            room_inf -= dummies
        elif chosen == "cavalry":
            room_cav -= dummies
        elif room_inf >= 0 and room_cav >= 0:
            if dummies <= room_inf + room_cav:
                return True
            continue
        if room_inf >= 0 and room_cav >= 0:
            return True
    return False


def stacking_limits() -> list[str]:
    """The card's stacking table, one composition a line: "2 infantry + 1 cavalry", ..."""
    table = get_table(RULESET, "stacking")
    out = []
    for composition in table.rows.values():
        parts = []
        for arm in ("infantry", "cavalry"):
            number = table.lookup(composition=composition, arm=arm).number
            if number:
                parts.append(f"{number} {arm}")
        out.append(" + ".join(parts))
    return out

"""The modifiers of Allemagne 1813, read from rules.toml and checked on load."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Literal

from rules.errors import RulesError
from rules.loader import DataFileError

PATH = Path(__file__).with_name("rules.toml")
ROLES = ("attacker", "defender")
# The card's lines for terrain that is not open ("Defender in mountain: A –1L",
# "Defender in defensive terrain: A –1L and D +1R"), quoted up to the colon.
ROUGH_GROUND = (
    ("defender_in_mountain", "Defender in mountain"),
    ("defender_in_defensive_terrain", "Defender in defensive terrain"),
)


@dataclass(frozen=True)
class Situation:
    """The yes/no facts of a battle that the card's modifiers depend on.

    The field names are the `when` keys of rules.toml."""

    flank_attack: bool = False
    defender_encircled: bool = False
    defender_in_mountain: bool = False
    defender_in_defensive_terrain: bool = False
    defender_entrenched: bool = False
    defender_in_fortified_city: bool = False
    attacker_crosses_bridge: bool = False
    defence_in_open_terrain: bool = False
    attacker_fatigued: bool = False
    weather: Literal["clear", "rain", "mud", "snow"] = "clear"

    def __post_init__(self) -> None:
        # A defender in open terrain is in neither mountain nor defensive terrain: with
        # all three he would get the open-terrain die and still cost the attacker -2L.
        rough = [label for fact, label in ROUGH_GROUND if getattr(self, fact) is True]
        if self.defence_in_open_terrain is True and rough:
            raise RulesError(
                "the card's 'Defence is open terrain: D +1' excludes "
                + " and ".join(f"'{label}'" for label in rough)
                + ": the defender cannot be in both"
            )

    @property
    def mountain_or_defensive_terrain(self) -> bool:
        return self.defender_in_mountain or self.defender_in_defensive_terrain

    def holds(self, fact: str) -> bool:
        return bool(getattr(self, fact))


FACTS = {f.name for f in fields(Situation) if f.type in ("bool", bool)} | {
    "mountain_or_defensive_terrain"
}


@dataclass(frozen=True)
class Entry:
    """One modifier line of the card."""

    id: str
    printed: str
    when: str | None = None
    rounds: tuple[int, ...] = ()
    amounts: tuple[tuple[str, float], ...] = ()  # (role, amount)
    arm: str | None = None
    exclusive: str | None = None
    value_from: str | None = None

    def amount(self, role: str) -> float:
        return dict(self.amounts).get(role, 0)

    def applies(self, situation: Situation, round_number: int | None = None) -> bool:
        if self.when and not situation.holds(self.when):
            return False
        if self.rounds and round_number not in self.rounds:
            return False
        return True


def _entry(raw: dict, kind: str, amount_key: str | None) -> Entry:
    where = f"{PATH}: {kind} {raw.get('id', '?')}"
    if not isinstance(raw.get("id"), str) or not isinstance(raw.get("printed"), str):
        raise DataFileError(f"{where}: needs id and printed")
    when = raw.get("when")
    if when is not None and when not in FACTS:
        raise DataFileError(f"{where}: 'when = {when}' is not a fact of the battle situation")
    if amount_key:  # one amount for the sides listed
        amounts = tuple((role, raw[amount_key]) for role in raw.get("sides", ()))
    else:
        amounts = tuple((role, raw[role]) for role in ROLES if role in raw)
    value_from = raw.get("value") if isinstance(raw.get("value"), str) else None
    if not amounts and not value_from:
        raise DataFileError(f"{where}: applies to neither attacker nor defender")
    if value_from:
        amounts = tuple((role, 0) for role in raw.get("sides", ()))
    return Entry(
        id=raw["id"],
        printed=raw["printed"],
        when=when,
        rounds=tuple(raw.get("rounds", ())),
        amounts=amounts,
        arm=raw.get("arm"),
        exclusive=raw.get("exclusive"),
        value_from=value_from,
    )


@dataclass(frozen=True)
class Modifiers:
    min_rounds: int
    artillery_rounds: tuple[int, ...]
    sp_multipliers: tuple[Entry, ...]
    column_shifts: tuple[Entry, ...]
    dice_modifiers: tuple[Entry, ...]
    snow_battle_rounds: int
    artillery_weather: dict[str, int]
    pursuit_weather: dict[str, int]
    no_pursuit: tuple[str, ...]
    forced_march: tuple[dict, ...]

    @property
    def last_named_round(self) -> int:
        """The last round the card names ('Fourth round of combat', 'even rounds (2nd and 4th)')."""
        named = [*self.artillery_rounds, *(n for e in (*self.column_shifts, *self.dice_modifiers) for n in e.rounds)]
        return max(named)


@cache
def modifiers() -> Modifiers:
    try:
        data = tomllib.loads(PATH.read_text(encoding="utf-8"))
        battle, weather = data["battle"], data["weather"]
        return Modifiers(
            min_rounds=battle["min_rounds"],
            artillery_rounds=tuple(battle["artillery_rounds"]),
            sp_multipliers=tuple(_entry(r, "sp_multiplier", "factor") for r in data["sp_multiplier"]),
            column_shifts=tuple(_entry(r, "column_shift", None) for r in data["column_shift"]),
            dice_modifiers=tuple(_entry(r, "dice_modifier", None) for r in data["dice_modifier"]),
            snow_battle_rounds=weather["snow_battle_rounds"],
            artillery_weather=dict(weather["artillery"]),
            pursuit_weather=dict(weather["pursuit"]),
            no_pursuit=tuple(weather["no_pursuit"]),
            forced_march=tuple(data["forced_march_modifier"]),
        )
    except (KeyError, TypeError) as exc:
        raise DataFileError(f"{PATH}: missing or malformed entry {exc}") from None

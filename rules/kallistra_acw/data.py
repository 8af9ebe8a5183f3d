"""The card's numbers that are not in a table (rules.toml), the unit a procedure
reads (`Stands`), and the parsing of cells as printed ("7+", "4+H, 11+HH").
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from rules.errors import RulesError
from rules.loader import DataFileError, get_table
from rules.options import resolve_options
from rules.schema import Frozen, refusal

RULESET = "kallistra_acw"
PATH = Path(__file__).with_name("rules.toml")

ARMS = ("infantry", "cavalry", "artillery")
FORMATIONS = ("line", "column", "march_column")

_SCORE = re.compile(r"^(\d+)\+")
_CANISTER = re.compile(r"^(\d+)\+H,\s*(\d+)\+HH$")
_BAND = re.compile(r"^(\d+)\+\s*\((\d+)-(\d+) hexes\)$")
_DICE = re.compile(r"^(?:(\d+) hexes \+ )?(\d+)D(\d+)$")


class _Section(Frozen):
    printed: str | tuple[str, ...] = ()  # the card's words
    notes: tuple[str, ...] = ()  # the readings taken where the card is unclear


class Quality(Frozen):
    """How each table spells one class."""

    small_arms: str
    stand: str
    combat: str
    charge_infantry: str


class SmallArms(_Section):
    die: str
    max_firing_stands: int
    disrupted_firing_stands_per_hex: int
    skirmisher_max_range: int  # hexes
    into_wood_max_range: int  # hexes


class Overshoot(_Section):
    factor: int


class Charge(_Section):
    die: str
    max_stands: Mapping[Literal["infantry", "cavalry"], int]  # per hex


class Response(_Section):
    dice: str
    outnumbered_ratio: int
    brigade_commander_hexes: int


class Command(_Section):
    brigade_radius: int  # hexes
    general_move: int  # hexes


class Recoil(_Section):
    hexes: int


class Skirmish(_Section):
    stands_per_hex: int


class StepSpec(Frozen):
    id: str
    phase: int
    sides: Literal["active", "both"]
    actions: tuple[str, ...]
    who: str = ""


class Card(Frozen):
    """rules.toml: the card's numbers that are not in a table."""

    source: str
    quality: Mapping[str, Quality]
    quality_synonyms: Mapping[str, str]
    quality_notes: _Section
    small_arms: SmallArms
    artillery: _Section
    overshoot: Overshoot
    charge: Charge
    response: Response
    command: Command
    recoil: Recoil
    skirmish: Skirmish
    step: tuple[StepSpec, ...]
    step_notes: _Section


@cache
def card() -> Card:
    """rules.toml as typed frozen objects; an unknown or missing key is one sentence."""
    try:
        data = tomllib.loads(PATH.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{PATH}: cannot be read as TOML ({exc})") from None
    try:
        return Card.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(refusal(PATH, exc, Card)) from None


def options(overrides: Mapping[str, str] | None) -> dict[str, str]:
    return resolve_options(RULESET, overrides)


def whole(what: str, value: object, lowest: int = 0) -> int:
    """`value` as a whole number of at least `lowest`, or one clear sentence."""
    if not isinstance(value, int) or isinstance(value, bool) or value < lowest:
        raise RulesError(f"{what} must be a whole number of {lowest} or more, not {value!r}")
    return value


def quality_of(raw: str) -> str:
    """The class as the card names it (elite, regular, militia), from it or a synonym."""
    data = card()
    name = data.quality_synonyms.get(raw, raw)
    if name not in data.quality:
        known = ", ".join([*data.quality, *data.quality_synonyms])
        raise RulesError(f"class {raw!r} is not one of the card's classes ({known})")
    return name


def spelling(quality: str, table: str) -> str:
    """How a table spells the class: E, R or M on the small-arms table..."""
    return str(getattr(card().quality[quality_of(quality)], table))


def hex_limit(arm: str, formation: str) -> int:
    return get_table(RULESET, "hex_limit").lookup(arm=arm, formation=formation).number


@dataclass(frozen=True)
class Stands:
    """One unit's stands in one hex, as the card's procedures read them.

    A regiment whose line extends across several hexes is one `Stands` per hex:
    the card fires, charges and takes losses hex by hex.
    """

    arm: str  # infantry, cavalry or artillery
    quality: str = "regular"  # elite, regular or militia (or veteran, green, recruit)
    count: int = 1  # stands in the hex
    formation: str = "line"  # line, column or march_column
    skirmishing: bool = False  # skirmishing infantry: one stand per hex
    dismounted: bool = False  # cavalry fighting on foot
    disrupted: bool = False
    weapon: str | None = None  # small arms: SM, RM, SR, RC or SS
    gun: str | None = None  # artillery: 6lb, 12lb or 3in_rifle
    moved: bool = False  # artillery that moved in this bound's movement phase
    charging: bool = False  # attempting to charge into contact this bound

    @property
    def mounted_cavalry(self) -> bool:
        return self.arm == "cavalry" and not self.dismounted


def check_stands(unit: Stands, chosen: Mapping[str, str]) -> Stands:
    """`unit` if the card allows it; otherwise one clear sentence."""
    if unit.arm not in ARMS:
        raise RulesError(f"arm {unit.arm!r} is not one of {', '.join(ARMS)}")
    if unit.formation not in FORMATIONS:
        raise RulesError(f"formation {unit.formation!r} is not one of {', '.join(FORMATIONS)}")
    quality_of(unit.quality)
    whole("the stands in the hex", unit.count, 1)
    if unit.skirmishing:
        if unit.arm != "infantry":
            raise RulesError("only infantry skirmish on this card")
        if unit.count > card().skirmish.stands_per_hex:
            raise RulesError("skirmishing units have one stand per hex")
    if unit.dismounted and unit.arm != "cavalry":
        raise RulesError("only cavalry can be dismounted")
    if unit.arm == "artillery" and chosen["artillery_stands"] == "dice_table":
        limit = max(v for v in get_table(RULESET, "artillery_dice").rows.values() if isinstance(v, int))
    else:
        limit = hex_limit(unit.arm, unit.formation)
    if unit.count > limit:
        where = "in column" if unit.formation != "line" else "in a hex"
        raise RulesError(f"{unit.arm} has at most {limit} stands {where}, not {unit.count}")
    return unit


def score(cell: str) -> int:
    """The score of a cell printed "7+" (or "7+ (2-3 hexes)")."""
    m = _SCORE.match(cell)
    if not m:
        raise DataFileError(f"{RULESET}: the cell {cell!r} prints no score such as 7+")
    return int(m[1])


def canister(cell: str) -> tuple[int, int]:
    """The H and HH scores of a canister cell printed "4+H, 11+HH"."""
    m = _CANISTER.match(cell)
    if not m:
        raise DataFileError(f"{RULESET}: the canister cell {cell!r} is not 'n+H, m+HH'")
    return int(m[1]), int(m[2])


def range_band(cell: str) -> tuple[int, int, int]:
    """Score, nearest and farthest hex of a cell printed "7+ (2-3 hexes)"."""
    m = _BAND.match(cell)
    if not m:
        raise DataFileError(f"{RULESET}: the range cell {cell!r} is not 'n+ (a-b hexes)'")
    return int(m[1]), int(m[2]), int(m[3])


def dice_cell(cell: str) -> tuple[int, int, int]:
    """(hexes added, number of dice, sides) of a cell printed "2D12" or "2 hexes + 1D6"."""
    m = _DICE.match(cell)
    if not m:
        raise DataFileError(f"{RULESET}: the cell {cell!r} is not dice such as 2D12 or 2 hexes + 1D6")
    return int(m[1] or 0), int(m[2]), int(m[3])

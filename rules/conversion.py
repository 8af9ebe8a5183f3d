"""The hand-off from the campaign to a tactical rule set, and back, as data.

No card says how a campaign force becomes tabletop units: each rule set's
`conversion.toml` states an editorial conversion, with its reasons, that the
umpire can see and change before the battle:

    label = "battalion"          # what one tactical unit is called
    size_label = "stands"        # what a unit is made of on the table
    sp_per_unit = 1              # SP of a campaign force that make one tactical unit
    [size]                       # stands (or figures, EC...) per tactical unit, by arm
    infantry = 4
    [quality]                    # campaign cohesion (1-6) -> the rule set's class
    "3" = "line"
    [leader]                     # a general's CV (0-5) -> the rule set's leader rating
    "2" = "average"
    [defaults.infantry]          # tactical attributes a converted unit starts with
    weapon = "RM"
    source = "..."; notes = ["..."]

Losses come back as SP: every `size * sp_per_unit` stands lost is that many SP, the
fraction by the rounding the file names (`losses_rounding`: down, nearest or up).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from rules.errors import RulesError
from rules.loader import RULES_DIR, DataFileError

ARMS = ("infantry", "cavalry", "artillery")
ROUNDINGS = ("down", "nearest", "up")


@dataclass(frozen=True)
class Conversion:
    ruleset: str
    label: str
    size_label: str
    sp_per_unit: int
    size: Mapping[str, int]
    quality: Mapping[int, str]
    leader: Mapping[int, str]
    losses_rounding: str
    source: str
    notes: tuple[str, ...] = ()
    # the tactical attributes a converted unit starts with, by arm ([defaults.infantry]...):
    # the umpire changes them unit by unit on the resolver screen
    defaults: Mapping[str, Mapping[str, object]] = field(default_factory=dict)


@dataclass(frozen=True)
class TacticalUnit:
    """One unit of the tactical order of battle, drawn from a campaign force."""

    name: str
    force: str  # the campaign unit it comes from
    arm: str
    size: int  # stands, figures... as the rule set counts them
    quality: str
    cohesion: int = 3  # the campaign force's cohesion (1-6), for what a rule set derives from it


@dataclass
class TacticalOrder:
    units: list[TacticalUnit] = field(default_factory=list)
    leaders: list[tuple[str, str]] = field(default_factory=list)  # (name, rating)


def _whole_keys(raw: object, where: str) -> dict[int, str]:
    if not isinstance(raw, dict):
        raise DataFileError(f"{where} must be a table of values")
    try:
        return {int(k): str(v) for k, v in raw.items()}
    except ValueError:
        raise DataFileError(f"{where}: keys are whole numbers") from None


@cache
def load_conversion(ruleset: str) -> Conversion | None:
    """The rule set's conversion, or None when it has none yet."""
    path = RULES_DIR / ruleset / "conversion.toml"
    if not path.exists():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        rounding = data.get("losses_rounding", "nearest")
        if rounding not in ROUNDINGS:
            raise DataFileError(f"{path}: losses_rounding is one of {', '.join(ROUNDINGS)}")
        size = {arm: int(data["size"][arm]) for arm in ARMS if arm in data["size"]}
        if not size or min(size.values()) < 1 or int(data["sp_per_unit"]) < 1:
            raise DataFileError(f"{path}: sizes and sp_per_unit are whole numbers of 1 or more")
        return Conversion(
            ruleset=ruleset,
            label=str(data["label"]),
            size_label=str(data["size_label"]),
            sp_per_unit=int(data["sp_per_unit"]),
            size=size,
            quality=_whole_keys(data["quality"], f"{path}: [quality]"),
            leader=_whole_keys(data["leader"], f"{path}: [leader]"),
            losses_rounding=rounding,
            source=str(data["source"]),
            notes=tuple(data.get("notes", ())),
            defaults={str(arm): dict(values) for arm, values in data.get("defaults", {}).items()},
        )
    except (KeyError, TypeError, ValueError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{path}: missing or malformed entry ({exc})") from None


def _nearest_key(table: Mapping[int, str], value: int) -> str:
    key = min(table, key=lambda k: (abs(k - value), k))
    return table[key]


def tactical_order(
    conversion: Conversion,
    forces: list[tuple[str, str, str, int, int]],
    leaders: list[tuple[str, int]] = (),  # type: ignore[assignment]
) -> TacticalOrder:
    """Forces (id, name, arm, SP, cohesion) and leaders (name, CV) as tabletop units."""
    order = TacticalOrder()
    for force_id, name, arm, sp, cohesion in forces:
        if arm not in conversion.size or sp <= 0:
            continue  # dummies and spent forces stay off the table
        count = max(1, sp // conversion.sp_per_unit)
        quality = _nearest_key(conversion.quality, cohesion)
        for n in range(1, count + 1):
            label = f"{name} {conversion.label} {n}" if count > 1 else name
            order.units.append(TacticalUnit(label, force_id, arm, conversion.size[arm], quality, cohesion))
    order.leaders = [(name, _nearest_key(conversion.leader, cv)) for name, cv in leaders]
    return order


def sp_exact(conversion: Conversion, arm: str, size_lost: int) -> Fraction:
    """The SP `size_lost` stands (figures...) of this arm are worth, before any rounding."""
    if size_lost < 0:
        raise RulesError(f"{conversion.size_label} lost must be 0 or more, not {size_lost}")
    return Fraction(size_lost * conversion.sp_per_unit, conversion.size[arm])


def rounded(conversion: Conversion, exact: Fraction) -> int:
    """Whole SP by the conversion's losses_rounding (nearest by default)."""
    if conversion.losses_rounding == "down":
        return math.floor(exact)
    if conversion.losses_rounding == "up":
        return math.ceil(exact)
    return math.floor(exact + Fraction(1, 2))


def sp_lost(conversion: Conversion, arm: str, size_lost: int) -> int:
    """SP a campaign force loses for `size_lost` stands (figures...) of this arm."""
    return rounded(conversion, sp_exact(conversion, arm, size_lost))


def apportion(conversion: Conversion, exact: Mapping[str, Fraction], caps: Mapping[str, int]) -> dict[str, int]:
    """Whole SP force by force, the side's total rounded once: the fractions of several
    forces add up before rounding (one stand of four lost by each of three forces is
    3/4 SP, which rounds to 1, not three times 0).  The total is shared out by the
    largest remainder, a force never losing more than `caps` (its SP)."""
    total = rounded(conversion, sum(exact.values(), Fraction(0)))
    out = {force: min(math.floor(value), caps[force]) for force, value in exact.items()}
    left = total - sum(out.values())
    for force in sorted(exact, key=lambda f: (-(exact[f] - math.floor(exact[f])), f)):
        if left <= 0:
            break
        if out[force] < caps[force]:
            out[force] += 1
            left -= 1
    return out

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
    [[named]]                    # a force whose name says what it is (Cossacks...): attributes over the defaults
    arm = "cavalry"; words = ["Cossack"]; attrs = { kind = "irregular_light_horse" }; reason = "..."
    [artillery_bonus]            # the guns of a force's artillery bonus (AB) on the table
    units_per_point = 1          # artillery units per point of AB
    size = 2                     # their stands (figures, EC...); [size] artillery if left out
    reason = "..."
    source = "..."; notes = ["..."]

Guns come from the artillery bonus (AB): each point puts `units_per_point` artillery
units on the table. An artillery force's SP are the men of those same guns, so the
units its SP make are counted among them, not added to them; the units AB adds beyond
its SP carry no SP back, as the campaign never reduces an AB by losses.

Losses come back as SP: every `size * sp_per_unit` stands lost is that many SP, the
fraction by the rounding the file names (`losses_rounding`: down, nearest or up).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import TypedDict

from pydantic import ValidationError

from rules.errors import RulesError
from rules.loader import DataFileError, data_file
from rules.schema import ArtilleryBonusSpec, ConversionFile, NamedSpec, Rounding, refusal

ARMS = ("infantry", "cavalry", "artillery")


@dataclass(frozen=True)
class Conversion:
    ruleset: str
    label: str
    size_label: str
    sp_per_unit: int
    size: Mapping[str, int]
    quality: Mapping[int, str]
    leader: Mapping[int, str]
    losses_rounding: Rounding
    source: str
    notes: tuple[str, ...] = ()
    # the tactical attributes a converted unit starts with, by arm ([defaults.infantry]...):
    # the umpire changes them unit by unit on the resolver screen
    defaults: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    ab_units_per_point: int = 0  # artillery units per point of a force's artillery bonus
    ab_size: int = 0  # the stands (figures...) of each; 0: the [size] of artillery
    ab_reason: str = ""  # why, in the conversion file's words
    named: tuple[Named, ...] = ()  # attributes read from a force's name (Cossacks...), first match wins

    def attrs_for(self, arm: str, name: str) -> dict[str, object]:
        """The attributes a force of `arm` called `name` takes beyond [defaults.<arm>]."""
        folded = name.casefold()
        for entry in self.named:
            if entry.arm == arm and any(word.casefold() in folded for word in entry.words):
                return dict(entry.attrs)
        return {}


@dataclass(frozen=True)
class Named:
    """A force whose name says what kind of troops it is ('Cossack regiments of the main
    army'): the campaign knows only its arm, the card has a kind for it."""

    arm: str
    words: tuple[str, ...]  # any of them in the force's name (case does not matter)
    attrs: Mapping[str, object]
    reason: str


@dataclass(frozen=True)
class TacticalUnit:
    """One unit of the tactical order of battle, drawn from a campaign force."""

    name: str
    force: str  # the campaign unit it comes from
    arm: str
    size: int  # stands, figures... as the rule set counts them
    quality: str
    cohesion: int = 3  # the campaign force's cohesion (1-6), for what a rule set derives from it
    carries_sp: bool = True  # False for the guns of an AB beyond the force's SP: their losses cost no SP
    attrs: Mapping[str, object] = field(default_factory=dict)  # read from the force's name ([[named]])


@dataclass
class TacticalOrder:
    units: list[TacticalUnit] = field(default_factory=list)
    leaders: list[tuple[str, str]] = field(default_factory=list)  # (name, rating)


def _whole_keys(raw: Mapping[str, str], where: str) -> dict[int, str]:
    try:
        return {int(k): str(v) for k, v in raw.items()}
    except ValueError:
        raise DataFileError(f"{where}: keys are whole numbers") from None


@cache
def load_conversion(ruleset: str) -> Conversion | None:
    """The rule set's conversion, or None when it has none yet."""
    path = data_file(ruleset, "conversion.toml")
    if not path.exists():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{path}: cannot be read as TOML ({exc})") from None
    try:
        spec = ConversionFile.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(refusal(path, exc, ConversionFile)) from None
    size: dict[str, int] = {arm: n for arm, n in spec.size.items()}
    if not size or min(size.values()) < 1 or spec.sp_per_unit < 1:
        raise DataFileError(f"{path}: sizes and sp_per_unit are whole numbers of 1 or more")
    return Conversion(
        ruleset=ruleset,
        label=spec.label,
        size_label=spec.size_label,
        sp_per_unit=spec.sp_per_unit,
        size=size,
        quality=_whole_keys(spec.quality, f"{path}: [quality]"),
        leader=_whole_keys(spec.leader, f"{path}: [leader]"),
        losses_rounding=spec.losses_rounding,
        source=spec.source,
        notes=tuple(spec.notes),
        defaults={arm: dict(values) for arm, values in spec.defaults.items()},
        **_artillery_bonus(spec.artillery_bonus, size, path),
        named=tuple(_named(entry, path) for entry in spec.named),
    )


class _ArtilleryBonus(TypedDict, total=False):
    ab_units_per_point: int
    ab_size: int
    ab_reason: str


def _artillery_bonus(raw: ArtilleryBonusSpec | None, size: Mapping[str, int], path: object) -> _ArtilleryBonus:
    if raw is None:
        return {}
    if not raw.reason.strip():
        raise DataFileError(f"{path}: [artillery_bonus] needs units_per_point and its reason")
    units = raw.units_per_point
    if units < 0:
        raise DataFileError(f"{path}: [artillery_bonus] units_per_point is a whole number of 0 or more")
    if units and "artillery" not in size:
        raise DataFileError(f"{path}: [artillery_bonus] puts guns on the table, but [size] has no artillery")
    stands = raw.size if raw.size is not None else size.get("artillery", 0)
    if units and stands < 1:
        raise DataFileError(f"{path}: [artillery_bonus] size is a whole number of 1 or more")
    return {"ab_units_per_point": units, "ab_size": stands, "ab_reason": raw.reason}


def _named(raw: NamedSpec, path: object) -> Named:
    """One [[named]] entry (its keys and types checked by the schema, rules/schema.py)."""
    if not raw.reason.strip():
        raise DataFileError(f"{path}: every [[named]] entry needs its reason")
    if not raw.words or not all(w.strip() for w in raw.words) or not raw.attrs:
        raise DataFileError(f"{path}: [[named]] words is a list of words and attrs a table, neither empty")
    return Named(raw.arm, tuple(raw.words), dict(raw.attrs), raw.reason)


def _nearest_key(table: Mapping[int, str], value: int) -> str:
    key = min(table, key=lambda k: (abs(k - value), k))
    return table[key]


def tactical_order(
    conversion: Conversion,
    forces: list[tuple],
    leaders: Sequence[tuple[str, int]] = (),
) -> TacticalOrder:
    """Forces (id, name, arm, SP, cohesion[, AB]) and leaders (name, CV) as tabletop units.

    A force's AB puts `ab_units_per_point` artillery units per point on the table. An
    artillery force's own units (from its SP, the men of those guns) are the first of
    them; only the rest are added, and they carry no SP back."""
    order = TacticalOrder()
    for force in forces:
        force_id, name, arm, sp, cohesion = force[:5]
        ab = int(force[5]) if len(force) > 5 else 0
        if arm not in conversion.size or sp <= 0:
            continue  # dummies and spent forces stay off the table
        count = max(1, sp // conversion.sp_per_unit)
        quality = _nearest_key(conversion.quality, cohesion)
        named = conversion.attrs_for(arm, name)
        for n in range(1, count + 1):
            label = f"{name} {conversion.label} {n}" if count > 1 else name
            order.units.append(TacticalUnit(label, force_id, arm, conversion.size[arm], quality, cohesion, attrs=named))
        guns = max(0, ab) * conversion.ab_units_per_point
        if arm == "artillery":
            guns -= count  # its own units are guns of its AB already
        for n in range(1, guns + 1):
            label = f"{name} AB guns {n}" if guns > 1 else f"{name} AB guns"
            order.units.append(TacticalUnit(label, force_id, "artillery", conversion.ab_size, quality, cohesion,
                                            carries_sp=False))
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

"""What a march along roads costs, by the card's terrain and movement tables.

A route is a list of legs (one road each: its kind, its length in hexes and the
rivers it crosses). Its cost in MP is read from the terrain effects table (a road
1 MP a hex, a poor road 2 MP, an unbridged minor river +1 in Rain and Mud, a major
river only by a bridge or a pontoon); what each type of unit may spend is the
movement table's MP with the out-of-command and weather effects. Every figure
carries the card's line it comes from.

The terrain table's road cells in Rain, Mud and Snow ("-1 MP for all", "-1 MP for
infantry, -2 MP for cavalry...") repeat the movement table's weather effects on
the MP a unit has; they are counted once, there, and not again per hex.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rules.allemagne1813.movement import MovementPoints, movement_points
from rules.errors import RulesError
from rules.loader import get_table

RULESET = "allemagne1813"
ROAD_KINDS = ("road", "poor_road")
UNIT_TYPES = ("general", "cavalry", "infantry", "artillery")


@dataclass(frozen=True)
class RiverCrossing:
    river: str
    size: Literal["minor", "major"]  # the terrain table's columns
    by: Literal["bridge", "ford", "none"]
    pontoon: bool = False  # a pontoon built here (card 6.4)


@dataclass(frozen=True)
class Leg:
    start: str
    end: str
    kind: Literal["road", "poor_road"]
    hexes: int
    crossings: tuple[RiverCrossing, ...] = ()


@dataclass(frozen=True)
class Charge:
    """One figure of a price and the card's line it comes from."""

    mp: int
    what: str
    cited: str


@dataclass(frozen=True)
class LegPrice:
    leg: Leg
    charges: tuple[Charge, ...]
    blocked: str | None  # why the leg cannot be marched, or None

    @property
    def mp(self) -> int:
        return sum(c.mp for c in self.charges)


@dataclass(frozen=True)
class UnitAllowance:
    unit: str
    points: MovementPoints
    cost: int

    @property
    def allowed(self) -> bool:
        return self.cost <= self.points.total

    @property
    def cited(self) -> str:
        return _movement_citation(self.points)


@dataclass(frozen=True)
class MarchPrice:
    weather: str
    legs: tuple[LegPrice, ...]
    units: tuple[UnitAllowance, ...]

    @property
    def mp(self) -> int:
        return sum(leg.mp for leg in self.legs)

    @property
    def blocked(self) -> str | None:
        return next((leg.blocked for leg in self.legs if leg.blocked), None)

    @property
    def allowed(self) -> bool:
        return self.blocked is None and all(u.allowed for u in self.units)

    def refusal(self) -> str | None:
        """One sentence saying why the march is refused, or None when it is allowed."""
        if self.blocked:
            return self.blocked
        short = [u for u in self.units if not u.allowed]
        if not short:
            return None
        worst = min(short, key=lambda u: u.points.total - u.cost)
        return (
            f"the march costs {self.mp} MP and {_plural(worst.unit)} have {worst.points.total} MP "
            f"in {self.weather.title()}"
        )


def _plural(unit: str) -> str:
    return {"general": "generals", "cavalry": "cavalry", "infantry": "infantry", "artillery": "reserve artillery"}[unit]


def _terrain(weather: str, terrain: str) -> str:
    return get_table(RULESET, "terrain").lookup(weather=weather, terrain=terrain).text


def _cite(weather: str, terrain: str) -> str:
    table = get_table(RULESET, "terrain")
    column = table.columns.bands[table.columns.index_of(terrain)].label if table.columns else terrain
    row = table.rows.bands[table.rows.index_of(weather)].label
    # The table's title, the cleaned reading of the card's heading ("teRRain effectS" in the text
    # copy); `adjutant rules show allemagne1813 terrain` gives the source file and heading.
    return f"{table.title}, {row}, {column}: '{_terrain(weather, terrain)}'"


def price_leg(leg: Leg, weather: str) -> LegPrice:
    """The MP one road costs in this weather, each figure with the card's line."""
    if leg.kind not in ROAD_KINDS:
        raise RulesError(f"a road is one of {', '.join(ROAD_KINDS)}, not {leg.kind!r}")
    if leg.hexes < 1:
        raise RulesError(f"a road is at least 1 hex long, not {leg.hexes}")
    # Per-hex costs are printed in the Clear row; the other rows' road cells are
    # the weather's effect on MP, counted by the movement table (see the module doc).
    per_hex = get_table(RULESET, "terrain").lookup(weather="clear", terrain=leg.kind).number
    label = "road" if leg.kind == "road" else "poor road"
    charges = [Charge(per_hex * leg.hexes, f"{leg.hexes} hex{'es' if leg.hexes > 1 else ''} of {label} x {per_hex} MP", _cite("clear", leg.kind))]
    blocked = None
    for crossing in leg.crossings:
        if crossing.by == "bridge" or crossing.pontoon:
            how = "bridge" if crossing.by == "bridge" else "pontoon"
            charges.append(Charge(0, f"the {crossing.river} by {how}", _cite(weather, "bridge")))
        elif crossing.size == "major":
            blocked = blocked or (
                f"the road {leg.start}-{leg.end} crosses the {crossing.river}, a major river, without a bridge "
                f"(card: '{_terrain(weather, 'major_river')}')"
            )
        else:
            cell = get_table(RULESET, "terrain").lookup(weather=weather, terrain="minor_river")
            charges.append(Charge(cell.number, f"the {crossing.river} without a bridge", _cite(weather, "minor_river")))
    return LegPrice(leg, tuple(charges), blocked)


def _movement_citation(points: MovementPoints) -> str:
    parts = [f"movement table: {points.base} MP"]
    if points.out_of_command:
        parts.append(f"out of command {points.out_of_command:+d} (footnote *)")
    if points.weather:
        parts.append(f"weather {points.weather:+d}")
    return ", ".join(parts)


def price_march(
    legs: Sequence[Leg],
    weather: str,
    units: Mapping[str, bool],
    options: Mapping[str, str] | None = None,
) -> MarchPrice:
    """Price a march for each type of unit in the stack.

    Args:
        legs: the roads of the route, in order.
        weather: clear, rain, mud or snow (this turn's).
        units: each type of unit marching (general, cavalry, infantry, artillery)
            and whether any unit of that type is out of command.
        options: the campaign's rules options (mud_general_mp).
    """
    unknown = [u for u in units if u not in UNIT_TYPES]
    if unknown:
        raise RulesError(f"a type of unit is one of {', '.join(UNIT_TYPES)}, not {unknown[0]!r}")
    priced = tuple(price_leg(leg, weather) for leg in legs)
    cost = sum(p.mp for p in priced)
    allowances = tuple(
        UnitAllowance(unit, movement_points(unit, weather, out_of_command, options), cost)
        for unit, out_of_command in sorted(units.items(), key=lambda kv: UNIT_TYPES.index(kv[0]))
    )
    return MarchPrice(weather, priced, allowances)


def leg_mp(leg: Leg, weather: str) -> int | None:
    """The MP a road costs in this weather, or None when it cannot be marched: a route's edge weight."""
    price = price_leg(leg, weather)
    return None if price.blocked else price.mp

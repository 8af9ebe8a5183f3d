"""Movement: the roll by the commander's rating (a natural 2 is no move), its
modifiers, and the distances it scales: infantry and cavalry by formation,
artillery by gun and move, terrain effects.

>>> from rules.napoleonic_d10.movement import MovementSituation, movement_check
>>> [str(r) for r in movement_check(MovementSituation("line", "average", cw=10)).needed()]
['NM on 2-3', '1/2 on 4', '3/4 on 5', 'Full on 6-20']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import Modifier
from rules.errors import RulesError
from rules.napoleonic_d10.data import (
    card,
    cell_text,
    class_dice,
    inches,
    modifier,
    one_of,
    table,
    values_of,
)
from rules.napoleonic_d10.rolls import TableRoll


@dataclass(frozen=True)
class MovementSituation:
    """A unit about to roll to move, under a commander of this rating."""

    unit_class: str
    rating: str  # the CO's rating: superior, excellent, good, average, poor
    cw: int
    shaken: bool = False
    disordered: bool = False
    vacating_cover: bool = False
    in_smoke: bool = False
    moved_last_turn: bool = False


def _cw_row(cw: int) -> str | None:
    """The CW line of the movement modifiers (15-19 CW, 0-7 CW) a CW level reads, if
    any; a CW level past both printed ends reads the nearer line (see the table's notes)."""
    tab = table("movement_modifiers")
    bands: list[tuple[int, int, str]] = []
    for band in tab.rows.bands:
        if band.label.endswith(" CW"):
            low, high = band.label.split()[0].split("\u2013")
            bands.append((int(low), int(high), str(band.names[0])))
    bands.sort()
    if cw < bands[0][0]:
        return bands[0][2]
    if cw > bands[-1][1]:
        return bands[-1][2]
    return next((row for low, high, row in bands if low <= cw <= high), None)


def movement_modifiers(s: MovementSituation) -> list[Modifier]:
    """The movement roll's modifiers that apply, in the card's order."""
    class_dice(s.unit_class)
    one_of("the CO's rating", s.rating, values_of("movement", "rating"))
    if not isinstance(s.cw, int):
        raise RulesError(f"the CW level must be a whole number, not {s.cw!r}")
    applies = {
        _cw_row(s.cw): True,
        "shaken": s.shaken,
        "disordered": s.disordered,
        "vacating_cover": s.vacating_cover,
        "in_smoke": s.in_smoke,
        "moved_last_turn": s.moved_last_turn,
    }
    return [modifier("movement_modifiers", str(r)) for r in values_of("movement_modifiers", "modifier") if applies.get(str(r))]


def best_result(rating: str) -> str:
    """The best result printed on a rating's line: what its blank high rolls read as."""
    tab = table("movement")
    column = tab.columns.index_of(rating)  # type: ignore[union-attr]  # a table with columns (its TOML)
    printed = [row[column] for row in tab.cells if row[column]]
    effects = card().movement.effects
    return max(printed, key=lambda text: Fraction(effects.get(text, text)))


def movement_check(s: MovementSituation, options: Mapping[str, str] | None = None) -> TableRoll:
    """The movement roll: class dice plus modifiers, read by the CO's rating; a natural 2 is NM."""
    mv = card().movement
    return TableRoll(
        purpose=f"movement ({s.unit_class}, {s.rating} CO)",
        table="movement",
        dice=class_dice(s.unit_class, options),
        modifiers=tuple(movement_modifiers(s)),
        axes=(("rating", s.rating),),
        naturals=((mv.natural_no_move, mv.no_move),),
        blank=best_result(s.rating),
    )


def effect_fraction(result: str) -> Fraction:
    """The share of its distance a unit moves for a movement result (1.25, Full, 3/4, 1/2, NM)."""
    effects = card().movement.effects
    one_of("a movement result", result, list(effects))
    return Fraction(effects[result])


def movement_distance(kind: str, formation: str, result: str = "Full") -> Fraction:
    """Inches an infantry or cavalry unit moves in this formation for this movement result.
    A cavalry charge's '+8\"' is not a distance of its own: see formation_movement."""
    one_of("the kind of unit", kind, values_of("formation_movement", "kind"))
    one_of("the formation", formation, ("road", "column", "line", "general", "square"))
    if formation == "square" and kind != "infantry":
        raise RulesError("only infantry forms square; the cavalry's fifth column is its charge")
    return inches(cell_text("formation_movement", kind=kind, formation=formation)) * effect_fraction(result)


@dataclass(frozen=True)
class ArtilleryMove:
    printed: str  # the cell as printed
    inches: Fraction | None  # None: not allowed (NA)
    ap: int | None  # AP the move costs, where the card prints it


def artillery_move(gun: str, move: str, result: str = "Full") -> ArtilleryMove:
    """The distance guns move (table artillery_movement), scaled by the movement result."""
    one_of("the guns", gun, values_of("artillery_movement", "gun"))
    one_of("the move", move, values_of("artillery_movement", "move"))
    printed = cell_text("artillery_movement", gun=gun, move=move)
    if printed == "as foot":
        foot = artillery_move(card().movement.as_foot[gun], move, result)
        return ArtilleryMove(f"{printed} ({foot.printed})", foot.inches, foot.ap)
    if printed == "NA":
        return ArtilleryMove(printed, None, None)
    ap = None
    if "AP" in printed:
        ap = int(printed.split("(")[1].split()[0])
    return ArtilleryMove(printed, inches(printed) * effect_fraction(result), ap)


@dataclass(frozen=True)
class TerrainEffect:
    printed: str
    share: Fraction | None  # share of the distance moved there; None when not a share
    cost: Fraction | None  # inches a linear obstacle costs to cross
    allowed: bool


def terrain_effect(terrain: str, arm: str) -> TerrainEffect:
    """Terrain Effects: a share of the move (3/4, 1/2, 1/4), a cost in inches, NE or NM."""
    one_of("the terrain", terrain, values_of("terrain", "terrain"))
    one_of("the arm", arm, values_of("terrain", "arm"))
    printed = cell_text("terrain", terrain=terrain, arm=arm)
    if printed == "NM":
        return TerrainEffect(printed, Fraction(0), None, False)
    if printed == "NE":
        return TerrainEffect(printed, Fraction(1), None, True)
    if printed.endswith('"'):
        return TerrainEffect(printed, None, inches(printed), True)
    return TerrainEffect(printed, Fraction(printed), None, True)

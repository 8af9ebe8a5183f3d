"""Fire: artillery in phase 1, infantry and artillery in phases 3 and 8, squares
contacted by charging cavalry.

>>> shot = artillery_fire(ArtilleryFire(crew=4, gun_pounds=12, target="column", range="close"))
>>> shot.at_target.needed_text, [m.label for m in shot.at_target.modifiers]
('2+', ['Close Range', 'if 12lbs or heavier'])
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceService, Modifier
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_13phase.data import RULESET, card, check_count, check_side, phase, unit_type
from rules.napoleonic_13phase.rolls import Hits, ToHit, pool
from rules.options import resolve_options


def _row_label(table_id: str, value: str) -> str:
    rows = get_table(RULESET, table_id).rows
    return rows.bands[rows.index_of(value)].label


def _table_modifier(table_id: str, value: str) -> Modifier:
    return Modifier(_row_label(table_id, value), get_table(RULESET, table_id).lookup(modifier=value).number)


# ---------------------------------------------------------------------------
# Phase 1: artillery
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ArtilleryTarget:
    """A unit the guns fire at: its target type (table artillery_to_hit) and its
    range on the artillery stick (close, medium or long)."""

    target: str
    range: str


@dataclass(frozen=True)
class ArtilleryFire:
    """A battery firing in phase 1."""

    crew: int  # crew figures: one die each
    gun_pounds: int  # 6, 8, 12...
    target: str  # column, square, masse, enfiladed_line, line, skirmishers, fortification, artillery
    range: str  # close, medium or long, by the artillery stick
    behind: ArtilleryTarget | None = None  # a unit up to 12” behind the target, also hit
    level_ground: bool = True  # all units, the artillery included, on level ground
    limbered: bool = False
    horse_artillery: bool = False


@dataclass(frozen=True)
class ArtilleryShot:
    """The number needed, modifiers and odds against the target and the unit behind."""

    fire: ArtilleryFire
    at_target: ToHit
    at_behind: ToHit | None
    same_dice: bool  # rules option artillery_unit_behind
    unlimbers: bool  # horse artillery unlimbering to fire

    def roll(
        self,
        dice: DiceService,
        *,
        entered: Sequence[int] | None = None,
        entered_behind: Sequence[int] | None = None,
    ) -> "ArtilleryResult":
        first = self.at_target.roll(dice, entered=entered)
        behind = None
        if self.at_behind is not None:
            if self.same_dice:
                if entered_behind is not None:
                    raise RulesError("the unit behind is hit by the same dice: type them in once")
                raw = first.record.raw if first.record else ()
                behind = Hits(self.at_behind, self.at_behind.read(raw), first.record)
            else:
                behind = self.at_behind.roll(dice, entered=entered_behind)
        return ArtilleryResult(self, first, behind)


@dataclass(frozen=True)
class ArtilleryResult:
    shot: ArtilleryShot
    target: Hits
    behind: Hits | None

    @property
    def text(self) -> str:
        out = f"Target: {self.target.text}: {self.target.hits} casualties"
        if self.behind is not None:
            out += f". Unit behind: {self.behind.text}: {self.behind.hits} casualties"
        return out


def _range_modifiers(range_band: str) -> list[Modifier]:
    data = card().artillery
    if range_band not in data.ranges:
        raise RulesError(
            f"artillery range is one of {', '.join(data.ranges)} on the artillery stick, not {range_band!r}"
        )
    row = data.range_modifier.get(range_band)
    return [_table_modifier("artillery_modifiers", row)] if row else []


def _check_pounds(gun_pounds: int) -> int:
    if isinstance(gun_pounds, bool) or not isinstance(gun_pounds, int) or gun_pounds < 1:
        raise RulesError(f"guns weigh a whole number of pounds, not {gun_pounds!r}")
    return gun_pounds


def _weight_modifiers(gun_pounds: int) -> list[Modifier]:
    data = card().artillery
    if _check_pounds(gun_pounds) >= data.heavy_pounds:
        return [_table_modifier("artillery_modifiers", "12lbs_or_heavier")]
    if gun_pounds <= data.light_pounds:
        return [_table_modifier("artillery_modifiers", "6lbs_or_lighter")]
    return []


def _artillery_to_hit(purpose: str, crew: int, target: str, range_band: str, gun_pounds: int) -> ToHit:
    printed = get_table(RULESET, "artillery_to_hit").lookup(target=target).text
    modifiers = _range_modifiers(range_band) + _weight_modifiers(gun_pounds)
    return pool(purpose, crew * card().artillery.dice_per_crew_figure, printed, modifiers)


def artillery_fire(fire: ArtilleryFire, options: Mapping[str, str] | None = None) -> ArtilleryShot:
    """Phase 1: one die per crew figure against the target's number, with the range and
    gun-weight modifiers; also the unit behind, when the card says it is hit."""
    chosen = resolve_options(RULESET, options)
    check_count(fire.crew, "crew figures")
    if fire.limbered and not fire.horse_artillery:
        raise RulesError("limbered foot artillery cannot fire: only horse artillery may unlimber in phase 1")
    shot = _artillery_to_hit(
        f"artillery fire at {fire.target}, {fire.range} range", fire.crew, fire.target, fire.range, fire.gun_pounds
    )
    behind = None
    if fire.behind is not None:
        if not fire.level_ground:
            raise RulesError(
                "the unit behind the target is hit only when all units, the artillery included, are on level ground"
            )
        second = fire.behind
        behind = _artillery_to_hit(
            f"artillery fire, unit behind: {second.target}, {second.range} range",
            fire.crew,
            second.target,
            second.range,
            fire.gun_pounds,
        )
    return ArtilleryShot(
        fire,
        shot,
        behind,
        same_dice=chosen["artillery_unit_behind"] == "same_dice",
        unlimbers=fire.limbered,
    )


def turn_to_face(gun_pounds: int, limbered: bool = False) -> int:
    """Inches unlimbered artillery may move as it turns to face its target: 1” for guns
    under 12 lbs; the card gives heavier guns no turn."""
    data = card().artillery
    if limbered or _check_pounds(gun_pounds) >= data.turn_below_pounds:
        return 0
    return data.turn_inches


# ---------------------------------------------------------------------------
# Phases 3 and 8: infantry and artillery fire
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Fire:
    """A unit shooting in phase 3 (Austrians) or 8 (French)."""

    phase: int
    side: str
    unit: str  # the firing unit's type: infantry_column, skirmishers, artillery...
    figures: int  # figures (crew figures for artillery): one die per two
    target: str  # table fire_to_hit: column, square, masse, ..., charging_cavalry
    distance: Fraction | int  # inches to the target
    continuing_melee: bool = False


def fire_dice(figures: int, options: Mapping[str, str] | None = None) -> int:
    """One die per two figures; an odd figure by the rules option fire_odd_figure."""
    chosen = resolve_options(RULESET, options)["fire_odd_figure"]
    per = card().fire.figures_per_die
    check_count(figures, "figures")
    return math.ceil(Fraction(figures, per)) if chosen == "round_up" else figures // per


def fire(shot: Fire, options: Mapping[str, str] | None = None) -> ToHit:
    """Phases 3 and 8: 4” range, one die per two figures, the number needed by target."""
    data = card().fire
    current = phase(shot.phase)
    if current.kind != "move_and_fire":
        raise RulesError(f"units shoot in phases 3 and 8, not in phase {shot.phase} ({current.title})")
    check_side(shot.side)
    if shot.side != current.fires:
        people = {"french": "French", "austrian": "Austrians"}
        raise RulesError(f"the {people.get(shot.side, shot.side)} do not shoot in phase {shot.phase}: "
                         f"the {people.get(str(current.fires), current.fires)} shoot in it")
    kind = unit_type(shot.unit, shot.side)
    if kind.arm not in data.shooters or kind.limbered:
        raise RulesError(f"{shot.unit.replace('_', ' ')} do not shoot: only infantry and unlimbered artillery do")
    if shot.continuing_melee:
        raise RulesError("Units continuing a previous melee cannot shoot.")
    if isinstance(shot.distance, bool) or not isinstance(shot.distance, (int, float, Fraction)) or shot.distance < 0:
        raise RulesError(f"the distance to the target is inches of 0 or more, not {shot.distance!r}")
    if shot.distance > data.range_inches:
        raise RulesError(f"the target is {shot.distance}” away, beyond the 4” range")
    printed = get_table(RULESET, "fire_to_hit").lookup(target=shot.target).text
    purpose = f"fire, phase {shot.phase}: {shot.unit} at {shot.target}"
    return pool(purpose, fire_dice(shot.figures, options), printed)


def square_fire() -> ToHit:
    """'Squares contacted fire two dice': read against Charging Cavalry."""
    data = card().fire
    printed = get_table(RULESET, "fire_to_hit").lookup(target=data.square_target).text
    return pool("square contacted fires", data.square_dice, printed)

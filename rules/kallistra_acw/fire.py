"""Small-arms and artillery fire: who may fire at what, how many dice, the score
needed with the card's modifiers, and the exact odds of each number of hits.

>>> from rules.dice import DiceService
>>> from rules.kallistra_acw.data import Stands
>>> firers = Stands("infantry", "regular", count=4, weapon="RM")
>>> step = small_arms_fire(firers, Shot(range=2, target_behind_wall=True))
>>> step.dice_count, step.needed   # 3 of 4 stands fire; 7+ and +2 behind a wall
(3, 9)
>>> roll_hits(step, DiceService(seed=1), entered=[9, 4, 12]).hits
2

The hits are read on the combat table (rules.kallistra_acw.combat).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.dice import Modifier
from rules.errors import RulesError
from rules.kallistra_acw.data import (
    RULESET,
    Stands,
    canister,
    card,
    check_stands,
    dice_cell,
    options,
    range_band,
    score,
    spelling,
    whole,
)
from rules.kallistra_acw.rolls import HitsStep, make_step, roll_hits
from rules.loader import get_table

__all__ = ["Shot", "artillery_band", "artillery_fire", "roll_hits", "small_arms_fire"]

CANISTER, SHORT, LONG = "canister", "short", "long"


@dataclass(frozen=True)
class Shot:
    """What the firers see: the range, the target's cover and what lies between."""

    range: int  # hexes
    target_behind_wall: bool = False
    target_behind_fence: bool = False
    target_in_wood: bool = False
    target_skirmishing: bool = False  # the target is skirmishing infantry
    target_on_reverse_slope: bool = False
    target_is_nearest: bool = True  # the nearest (closest) enemy unit
    through_enemy_skirmishers: bool = False  # artillery firing through them at another target
    through_friendly_skirmishers: bool = False
    over_friends_at: int | None = None  # hexes to the farthest friendly hex shot over
    from_hill: bool = False  # the firers are on a hill or slope hex


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "es" if noun.endswith("x") else "s")


def _common_checks(shot: Shot, what: str) -> None:
    whole("the range in hexes", shot.range, 1)
    if shot.target_on_reverse_slope:
        raise RulesError("units cannot fire at enemy units on the reverse slope of a hill")
    if shot.target_behind_wall and shot.target_behind_fence:
        raise RulesError("a target is behind a wall or behind a fence, not both")
    if shot.over_friends_at is not None:
        friends = whole("the distance of the friends shot over", shot.over_friends_at, 1)
        factor = card().overshoot.factor
        if not shot.from_hill:
            raise RulesError(f"{what} can shoot over friendly hexes only from a hill or slope hex")
        if shot.range < factor * friends:
            raise RulesError(
                f"shooting over friends {friends} hexes away needs a target at least {factor * friends} hexes away"
            )


def _cover(shot: Shot, firers: Stands, chosen: Mapping[str, str]) -> list[Modifier]:
    table = get_table(RULESET, "small_arms_modifiers")
    skirmishers = firers.skirmishing if chosen["skirmishing_infantry_modifier"] == "firer" else shot.target_skirmishing
    present = {
        "wall": shot.target_behind_wall,
        "fence": shot.target_behind_fence,
        "wood": shot.target_in_wood,
        "skirmishing_infantry": skirmishers,
    }
    mods = []
    for band in table.rows.bands:
        situation = band.names[0]
        if present[str(situation)]:
            mods.append(Modifier(band.label, table.lookup(situation=situation).number))
    return mods


def _reach(weapon: str, quality: str) -> int:
    """The farthest range with a score printed for this weapon and class."""
    table = get_table(RULESET, "small_arms")
    ranges = [r for r in table.rows.values() if isinstance(r, int)]
    return max(r for r in ranges if table.lookup(weapon=weapon, range=r, **{"class": quality}).text != "-")


def small_arms_fire(firers: Stands, shot: Shot, overrides: Mapping[str, str] | None = None) -> HitsStep:
    """The small-arms fire of one hex: 1 D12 per firing stand."""
    chosen = options(overrides)
    check_stands(firers, chosen)
    limits = card().small_arms
    if firers.arm == "artillery":
        raise RulesError("artillery fires on the artillery table, not with small arms")
    table = get_table(RULESET, "small_arms")
    assert table.pages is not None
    if firers.weapon not in table.pages.values():
        raise RulesError(f"weapon {firers.weapon!r} is not one of {', '.join(map(str, table.pages.values()))}")
    if firers.charging and firers.arm == "infantry":
        raise RulesError("infantry cannot shoot if attempting to charge into contact")
    _common_checks(shot, "small arms")
    if not shot.target_is_nearest:
        raise RulesError("small arms must fire at the nearest enemy target")
    if shot.target_skirmishing and shot.range > limits.skirmisher_max_range:
        raise RulesError(
            f"skirmishers can only be targeted by small arms at a maximum range of {limits.skirmisher_max_range} hexes"
        )
    if shot.target_in_wood and shot.range > limits.into_wood_max_range:
        raise RulesError(f"small arms can only shoot into a wood at {limits.into_wood_max_range} hex range")
    quality = spelling(firers.quality, "small_arms")
    weapon_label = table.pages.bands[table.pages.index_of(firers.weapon)].label
    reach = _reach(firers.weapon, quality)
    if shot.range > reach:
        raise RulesError(f"the {weapon_label} reaches {reach} hexes at most, not {shot.range}")
    cell = table.lookup(weapon=firers.weapon, range=shot.range, **{"class": quality}).text
    stands = firers.count
    if firers.disrupted:
        stands = limits.disrupted_firing_stands_per_hex
    elif firers.arm == "infantry" or chosen["cavalry_firing_stands"] == "three_of_four":
        stands = min(stands, limits.max_firing_stands)
    sides = int(limits.die.lstrip("d"))
    what = f"small arms, {_count(stands, 'stand')} of {weapon_label} class {quality} at {_count(shot.range, 'hex')}"
    return make_step(what, cell, stands, sides, score(cell), _cover(shot, firers, chosen))


def artillery_band(gun: str, range_hexes: int, overrides: Mapping[str, str] | None = None) -> str:
    """canister, short or long: the column of the artillery table a target at this range reads."""
    chosen = options(overrides)
    table = get_table(RULESET, "artillery")
    whole("the range in hexes", range_hexes, 1)
    if range_hexes == 1:
        return CANISTER
    _, short_low, short_high = range_band(table.lookup(gun=gun, fire=SHORT).text)
    _, long_low, long_high = range_band(table.lookup(gun=gun, fire=LONG).text)
    in_short = short_low <= range_hexes <= short_high
    in_long = long_low <= range_hexes <= long_high
    if in_short and in_long:
        return chosen["artillery_range_overlap"]
    if in_short:
        return SHORT
    if in_long:
        return LONG
    label = table.rows.bands[table.rows.index_of(gun)].label
    raise RulesError(f"the {label} reaches {long_high} hexes at most, not {range_hexes}")


def artillery_fire(guns: Stands, shot: Shot, overrides: Mapping[str, str] | None = None) -> HitsStep:
    """The fire of the artillery stands of one hex: the D12 of the artillery dice table."""
    chosen = options(overrides)
    check_stands(guns, chosen)
    if guns.arm != "artillery":
        raise RulesError(f"{guns.arm} fires with small arms, not on the artillery table")
    table = get_table(RULESET, "artillery")
    if guns.gun not in table.rows.values():
        raise RulesError(f"gun {guns.gun!r} is not one of {', '.join(map(str, table.rows.values()))}")
    if guns.moved:
        raise RulesError("artillery cannot move in their movement phase and shoot in the following shooting phase")
    _common_checks(shot, "artillery")
    if not shot.target_is_nearest and not shot.through_enemy_skirmishers:
        raise RulesError("the artillery's target should always be the closest enemy unit unless firing through enemy skirmishers")
    if shot.through_friendly_skirmishers:
        raise RulesError("skirmishers cannot be fired through by friendly artillery")
    band = artillery_band(guns.gun, shot.range, chosen)
    if shot.target_skirmishing and band == LONG:
        raise RulesError("skirmishers cannot be targeted by artillery at long range")
    if shot.target_in_wood:
        allowed = {SHORT} if chosen["artillery_into_wood"] == "short_only" else {SHORT, CANISTER}
        if band not in allowed:
            raise RulesError("artillery can shoot 1 hex into a wood only at short range")
    cell = table.lookup(gun=guns.gun, fire=band).text
    stands = 1 if guns.disrupted else guns.count  # 'Disrupted Units shoot with one stand from each hex'
    _, count, sides = dice_cell(get_table(RULESET, "artillery_dice").lookup(stands=stands).text)
    mods = _cover(shot, guns, chosen) if chosen["artillery_cover_modifiers"] == "artillery_too" else []
    gun_label = table.rows.bands[table.rows.index_of(guns.gun)].label
    fire_label = table.columns.bands[table.columns.index_of(band)].label  # type: ignore[union-attr]  # the fire table has columns (its TOML)
    what = f"artillery, {_count(stands, 'stand')} of {gun_label}, {fire_label} at {_count(shot.range, 'hex')}"
    if band == CANISTER:
        single, double = canister(cell)
        if chosen["canister_dice"] == "per_gun":  # 'Canister (1 Hex)per gun': a die for each gun firing
            count = stands
        return make_step(what, cell, count, sides, single, mods, double)
    return make_step(what, cell, count, sides, score(cell), mods)

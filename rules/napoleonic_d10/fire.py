"""Fire: range and its effect, the fire modifiers, the fire table by stands or
tubes, ammunition points spent (a natural 9, a natural 10 rolled again), fire
discipline and the defensive fire range.

>>> from rules.napoleonic_d10.fire import FireSituation, fire_check
>>> check = fire_check(FireSituation("musket", distance=3, stands=4))
>>> [m.label for m in check.modifiers], check.modifier
(['Medium 4"'], -3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NoReturn

from rules.dice import ENTERED, DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.napoleonic_d10.data import (
    card,
    cell_text,
    class_dice,
    distance,
    inch_range,
    inches,
    modifier,
    one_of,
    options_of,
    table,
    values_of,
)
from rules.napoleonic_d10.rolls import (
    NaturalRange,
    TableRoll,
    distribution,
    natural_ranges,
)

NO_COVER = "none"
COVERS = ("sparse_cover", "light_cover", "medium_cover", "heavy_cover")
MOVES = ("no", "under_half", "over_half")
AMMUNITION = ("ball", "canister")
SITUATIONS = ("normal", "smoke", "firefight")


def small_arms() -> list[str]:
    return [str(v) for v in values_of("range_small_arms", "weapon")]


def guns() -> list[str]:
    return [str(v) for v in values_of("range_artillery", "gun")]


@dataclass(frozen=True)
class FireSituation:
    """A unit about to fire, and its target, as the card's fire modifiers describe them."""

    weapon: str  # musket, rifle, or a gun of table range_artillery (12pdr, 6pdr, austrian_3pdr...)
    distance: Fraction | int | float  # inches to the target
    stands: int | str | None = None  # small arms: 'half' or 1 and more
    tubes: int | None = None  # guns: tubes firing
    ammunition: Literal["ball", "canister"] = "ball"  # guns
    ap: int | None = None  # guns: AP spent on this fire, 1-4 (None: the plain rate)
    additional_ammo: bool = False  # small arms: Add'l ammo pt.
    scrounging_ammo: bool = False
    initial_volley: bool = False
    initial_fire: bool = False  # guns
    ricochet_fire: bool = False  # guns
    moved: str = "no"  # no, under_half, over_half (of its move this turn)
    battalion_guns: bool = False
    shaken: bool = False
    disordered: bool = False
    broken: bool = False  # routed or broken
    target_cover: str = NO_COVER  # none, sparse_cover, light_cover, medium_cover, heavy_cover
    target_in_smoke: bool = False
    target_flank: bool = False
    target_square: bool = False
    target_closed_column: bool = False
    target_open_order: bool = False
    target_artillery: bool = False  # small arms at arty; for guns, counter-battery fire

    @property
    def artillery(self) -> bool:
        return self.weapon in guns()


def _refuse(text: str) -> NoReturn:
    raise RulesError(text)


def _check(s: FireSituation) -> None:
    one_of("the weapon", s.weapon, small_arms() + guns())
    one_of("the firer's move", s.moved, MOVES)
    one_of("the target's cover", s.target_cover, (NO_COVER, *COVERS))
    distance(s.distance)
    if s.broken:
        _refuse("a routed or broken unit may not fire (Rout/Broken NA)")
    if s.artillery:
        one_of("the ammunition", s.ammunition, AMMUNITION)
        if s.tubes is None:
            _refuse(f"a {s.weapon} battery fires with tubes: give the number of tubes")
        if s.stands is not None:
            _refuse("guns fire with tubes, not stands")
        for flag, name in (("additional_ammo", "Add'l ammo pt."), ("scrounging_ammo", "Scrounging ammo"), ("initial_volley", "Initial Volley")):
            if getattr(s, flag):
                _refuse(f"{name} is a small-arms modifier, not one for guns")
        if s.ap is not None and s.ap not in (1, 2, 3, 4):
            _refuse(f"a battery spends 1 to 4 AP on its fire, not {s.ap}")
        if s.battalion_guns and s.moved == "over_half":
            _refuse("battalion guns that moved over half may not fire (Btn Guns over half NA)")
    else:
        if s.stands is None:
            _refuse(f"{s.weapon} fire needs the number of stands firing")
        if s.tubes is not None or s.ap is not None or s.initial_fire or s.ricochet_fire or s.ammunition != "ball":
            _refuse("tubes, AP rate of fire, Initial Fire, Ricochet Fire and canister are for guns, not small arms")
        if s.battalion_guns:
            _refuse("battalion guns fire as guns: give their gun and tubes")


def range_effect(weapon: str, measured: Fraction | float, ammunition: str = "ball") -> tuple[str, Modifier]:
    """The range a target is at (table range_small_arms or range_artillery) and its effect."""
    at = distance(measured)
    if weapon in small_arms():
        tab = table("range_small_arms")
        for band in tab.rows.bands:
            rng = str(band.names[0])
            reach = cell_text("range_small_arms", weapon=weapon, range=rng, value="reach")
            if at <= inches(reach):
                return rng, _effect("range_small_arms", weapon=weapon, range=rng, label=f"{band.label} {reach}")
        _refuse(f"a {weapon} reaches {reach}; the target at {at}\" is out of range")
    one_of("the weapon", weapon, small_arms() + guns())
    one_of("the ammunition", ammunition, AMMUNITION)
    tab = table("range_artillery")
    if ammunition == "canister":
        reach = cell_text("range_artillery", gun=weapon, range="canister", value="reach")
        if at > inch_range(reach)[1]:
            _refuse(f"a {weapon} fires canister to {reach}, not at {at}\"")
        return "canister", _effect("range_artillery", gun=weapon, range="canister", label=f"Cannister {reach}")
    for band in tab.rows.bands[1:]:
        rng = str(band.names[0])
        reach = cell_text("range_artillery", gun=weapon, range=rng, value="reach")
        if at <= inch_range(reach)[1]:
            return rng, _effect("range_artillery", gun=weapon, range=rng, label=f"{band.label} {reach}")
    _refuse(f"a {weapon} reaches {reach}; the target at {at}\" is out of range")


def _effect(table_id: str, *, label: str, **axes: str) -> Modifier:
    cell = table(table_id).lookup(value="effect", **axes)
    return Modifier(label, cell.number)


def fire_modifiers(s: FireSituation) -> list[Modifier]:
    """The range effect and every fire modifier of the card that applies, in its order."""
    _check(s)
    _, effect = range_effect(s.weapon, s.distance, s.ammunition)
    rows: dict[str, bool] = {
        "additional_ammo": s.additional_ammo,
        "scrounging_ammo": s.scrounging_ammo,
        "initial_volley": s.initial_volley,
        "initial_fire": s.initial_fire,
        "ricochet_fire": s.ricochet_fire,
        "infantry_moved_over_half": not s.artillery and s.moved == "over_half",
        "battalion_guns_moved_under_half": s.battalion_guns and s.moved == "under_half",
        "shaken": s.shaken,
        "disordered": s.disordered,
        s.target_cover: s.target_cover != NO_COVER,
        "in_smoke": s.target_in_smoke,
        "flank": s.target_flank,
        "square": s.target_square,
        "closed_column": s.target_closed_column,
        "open_order_in_cover": s.target_open_order and s.target_cover != NO_COVER,
        f"counter_battery_{s.ammunition}": s.artillery and s.target_artillery,
        "small_arms_at_artillery": not s.artillery and s.target_artillery,
    }
    if s.artillery:
        rate = card().fire.rate_of_fire.get(str(s.ap if s.ap is not None else card().fire.artillery_plain_ap))
        if rate:
            rows[rate] = True
    out = [effect]
    for row in values_of("fire_modifiers", "modifier"):
        if rows.get(str(row)):
            out.append(modifier("fire_modifiers", str(row)))
    return out


def fire_lines(s: FireSituation, options: Mapping[str, str] | None = None) -> tuple[int | str, ...]:
    """The fire table's stands lines this fire reads (one, or several by option
    fire_over_nine_stands = groups)."""
    chosen = options_of(options)
    columns = table("fire").columns
    assert columns is not None
    if not s.artillery:
        stands = s.stands
        if isinstance(stands, str):
            one_of("the stands", stands, ("half", "Half"))
            return ("half",)
        if not isinstance(stands, int) or stands < 1:
            _refuse(f"the stands firing must be 'half' or 1 or more, not {stands!r}")
        most = max(v for v in columns.values() if isinstance(v, int))
        return _groups(stands, most, chosen["fire_over_nine_stands"], lambda n: n)
    tubes = s.tubes
    if not isinstance(tubes, int) or tubes < 1:
        _refuse(f"the tubes firing must be 1 or more, not {tubes!r}")
    rows = table("fire_tubes").rows
    most = max(v for v in rows.values() if isinstance(v, int))

    def line(n: int) -> int | str:
        n = _printed_tubes(n, chosen["fire_odd_tubes"])
        text = table("fire_tubes").lookup(tubes=n).text
        return "half" if text == "Half" else int(text)

    return _groups(tubes, most, chosen["fire_over_nine_stands"], line)


def _printed_tubes(n: int, rounding: str) -> int:
    printed = [v for v in table("fire_tubes").rows.values() if isinstance(v, int)]
    if n in printed:
        return n
    lower = [v for v in printed if v < n]
    higher = [v for v in printed if v > n]
    if rounding == "round_up" and higher:
        return min(higher)
    return max(lower)


def _groups(n: int, most: int, choice: str, line) -> tuple[int | str, ...]:
    if n <= most:
        return (line(n),)
    if choice == "largest_line":
        return (line(most),)
    full, rest = divmod(n, most)
    return tuple(line(most) for _ in range(full)) + ((line(rest),) if rest else ())


@dataclass(frozen=True)
class FireCheck:
    """The fire roll about to be made: 1d10 plus modifiers, read on each stands line."""

    purpose: str
    dice: str
    modifiers: tuple[Modifier, ...]
    lines: tuple[TableRoll, ...]
    range: str
    base_ap: int  # AP the fire spends before a natural 9 or 10

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    def read(self, natural: int) -> str:
        """Casualty steps as printed (summed over the lines), or NE."""
        texts = [line.read(natural) for line in self.lines]
        no_effect = card().fire.no_effect
        if no_effect in texts:
            return no_effect
        return str(sum(int(t) for t in texts))

    def odds(self) -> dict[str, Fraction]:
        return distribution(self.dice, self.read)

    def needed(self) -> tuple[NaturalRange, ...]:
        return natural_ranges(self.dice, self.read)


def fire_check(s: FireSituation, options: Mapping[str, str] | None = None) -> FireCheck:
    chosen = options_of(options)
    mods = tuple(fire_modifiers(s))
    zero = 0 if chosen["fire_roll_zero"] == "column" else 1
    below = (zero, card().fire.no_effect)
    dice = card().dice.fire
    lines = tuple(
        TableRoll(f"fire ({s.weapon})", "fire", dice, mods, (("stands", line),), below=below)
        for line in fire_lines(s, options)
    )
    rng, _ = range_effect(s.weapon, s.distance, s.ammunition)
    if s.artillery:
        base = s.ap if s.ap is not None else card().fire.artillery_plain_ap
    else:
        base = card().fire.small_arms_ap + (1 if s.additional_ammo else 0)
    size = f"{s.tubes} tubes" if s.artillery else f"{s.stands} stands"
    return FireCheck(f"fire: {s.weapon}, {size} at {distance(s.distance)}\"", dice, mods, lines, rng, base)


@dataclass(frozen=True)
class FireOutcome:
    check: FireCheck
    record: DiceRecord
    natural: int
    modified: int
    text: str  # casualty steps as printed, or NE
    extra_ap: int  # from a natural 9 or 10
    reroll: DiceRecord | None  # the second roll of a natural 10

    @property
    def steps(self) -> int:
        return 0 if self.text == card().fire.no_effect else int(self.text)

    @property
    def ap_spent(self) -> int:
        return self.check.base_ap + self.extra_ap


def resolve_fire(
    s: FireSituation,
    dice: DiceService,
    *,
    entered: Sequence[int] | None = None,
    reroll_entered: Sequence[int] | None = None,
    options: Mapping[str, str] | None = None,
) -> FireOutcome:
    """Roll the fire, read the casualty steps and the AP spent."""
    check = fire_check(s, options)
    ammo = card().fire
    again = [ammo.natural_roll_again]
    if entered is not None and reroll_entered is not None and list(entered) != again:
        _refuse(f"a second die is rolled only on a natural {again[0]}, not on {list(entered)}")
    if dice.mode == ENTERED and entered is not None and list(entered) == again and reroll_entered is None:
        _refuse(f"a natural {again[0]} rolls again for ammunition: type in that second die too")
    record = dice.roll(check.dice, check.purpose, check.modifiers, entered=entered)
    natural = record.result - record.modifier_total
    extra, reroll = 0, None
    if natural == ammo.natural_extra_ap:
        extra = ammo.extra_ap
    elif natural == ammo.natural_roll_again:
        reroll = dice.roll(table("ammunition_reroll").dice or "1d10", "ammunition: a natural 10, roll again", entered=reroll_entered)
        extra = table("ammunition_reroll").lookup(roll=reroll.result).number
    return FireOutcome(check, record, natural, record.result, check.read(natural), extra, reroll)


@dataclass(frozen=True)
class Discipline:
    """A fire discipline result read: free, fire or firefight, and within what distance."""

    text: str
    action: str  # free, fire, firefight
    within: Fraction | None  # inches; None when the card gives no range


def read_discipline(text: str) -> Discipline:
    words = text.split()
    within = inches(words[0]) if words[0].endswith('"') else None
    action = {"free": "free", "fire": "fire", "FF": "firefight"}[words[-1]]
    return Discipline(text, action, within)


def fire_discipline_check(unit_class: str, situation: str = "normal", options: Mapping[str, str] | None = None) -> TableRoll:
    """The Fire Discipline roll, by situation (normal, smoke, firefight); its dice by option unstated_dice."""
    one_of("the fire discipline situation", situation, values_of("fire_discipline", "situation"))
    chosen = options_of(options)
    dice = class_dice(unit_class, options) if chosen["unstated_dice"] == "class_dice" else card().dice.unstated
    return TableRoll(f"fire discipline ({unit_class}, {situation})", "fire_discipline", dice, axes=(("situation", situation),))


def defensive_fire_reach(weapon: str) -> Fraction:
    """How far a unit gives defensive fire (Def. Fire Range): 4\" for small arms, its
    Short range for guns."""
    one_of("the weapon", weapon, small_arms() + guns())
    if weapon in small_arms():
        return inches(cell_text("defensive_fire_range", fire="small_arms"))
    rng = cell_text("defensive_fire_range", fire="artillery")
    row = next(b for b in table("range_artillery").rows.bands if b.label.startswith(rng))
    return inch_range(cell_text("range_artillery", gun=weapon, range=str(row.names[0]), value="reach"))[1]

"""Morale: when a unit must check, its modifiers, the roll on the morale table by
CW level, and what the result does (state, move, duration, surrender or rout);
and the crash-through roll, which the card prints in the morale block.

>>> from rules.napoleonic_d10.morale import MoraleSituation, morale_check
>>> check = morale_check(MoraleSituation("line", cw=8, shaken=True))
>>> [str(r) for r in check.needed()][-2:]
['SH on 8-10', 'NE on 11-20']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceService, Modifier
from rules.errors import RulesError
from rules.napoleonic_d10.data import (
    Leader,
    card,
    cell_text,
    class_dice,
    distance,
    influence_level,
    modifier,
    one_of,
    options_of,
    percent,
    table,
    values_of,
)
from rules.napoleonic_d10.rolls import Rolled, TableRoll, off_table_choice

NO_COVER = "none"


@dataclass(frozen=True)
class MoraleSituation:
    """A unit about to check morale, as the card's modifiers describe it."""

    unit_class: str  # elite, line, conscript
    cw: int  # CW level
    shaken: bool = False
    disordered: bool = False
    broken: bool = False
    no_div_integrity: bool = False
    losses_percent: Fraction | int | float = 0  # casualty steps lost, % of the starting strength
    out_of_ammo: bool = False
    fired_on_flank: bool = False
    in_firefight: bool = False
    flanks_covered: bool = False
    cover: str = NO_COVER  # none, sparse_cover, light_cover, medium_cover, heavy_cover, entrenched
    downhill: bool = False
    leaders: tuple[Leader, ...] = ()


COVERS = ("sparse_cover", "light_cover", "medium_cover", "heavy_cover", "entrenched")
_FLAGS = ("no_div_integrity", "shaken", "disordered", "broken", "out_of_ammo", "fired_on_flank", "in_firefight")


def _check(situation: MoraleSituation) -> None:
    class_dice(situation.unit_class)
    if not isinstance(situation.cw, int):
        raise RulesError(f"the CW level must be a whole number, not {situation.cw!r}")
    one_of("the cover", situation.cover, (NO_COVER, *COVERS))
    levels = [leader.level for leader in situation.leaders]
    for leader in situation.leaders:
        leader.check()
        if levels.count(leader.level) > 1:
            raise RulesError(
                f"only 1 officer from each command level may be attached at the same time, not {levels.count(leader.level)} of {leader.level}"
            )


def command_modifier(leader: Leader, options: Mapping[str, str] | None = None) -> Modifier:
    """The Command modifier of one attached leader: IL (option leader_il), or IL+1 for a
    corps or army leader attached at regiment (table morale_command)."""
    il = influence_level(leader, options)
    printed = cell_text("morale_command", level=leader.level, attached_at=leader.attached_at)
    extra = int(printed[2:]) if printed.startswith("IL") and len(printed) > 2 else 0
    if not printed.startswith("IL"):
        raise RulesError(f"table morale_command prints {printed!r}, not IL or IL+n")
    return Modifier(f"{leader.rating.title()} {leader.level} leader at {leader.attached_at} ({printed})", il + extra)


def morale_modifiers(situation: MoraleSituation, options: Mapping[str, str] | None = None) -> list[Modifier]:
    """Every modifier of the card's Status/Situation, Cover and Command lists that applies."""
    _check(situation)
    chosen = options_of(options)
    losses = percent(situation.losses_percent, "the losses")
    applies = {flag: getattr(situation, flag) for flag in _FLAGS}
    applies["losses_50"] = losses >= card().morale.losses_modifier_percent
    applies["flanks_covered"] = situation.flanks_covered
    applies[situation.cover] = True
    applies["downhill"] = situation.downhill
    out = [modifier("morale_modifiers", str(row)) for row in values_of("morale_modifiers", "modifier") if applies.get(str(row))]
    command = [command_modifier(leader, options) for leader in situation.leaders]
    if command and chosen["several_leaders"] == "best":
        command = [max(command, key=lambda m: m.value)]
    return out + command


def morale_check(situation: MoraleSituation, options: Mapping[str, str] | None = None) -> TableRoll:
    """The morale roll: the class dice plus modifiers, read in the unit's CW column."""
    chosen = options_of(options)
    return TableRoll(
        purpose=f"morale check ({situation.unit_class}, CW {situation.cw})",
        table="morale",
        dice=class_dice(situation.unit_class, options),
        modifiers=tuple(morale_modifiers(situation, options)),
        axes=(("cw", situation.cw),),
        off_table=off_table_choice(chosen["morale_roll_beyond_table"]),
    )


@dataclass(frozen=True)
class MoraleEffect:
    """What a morale result does to the unit, in the card's words where it has them."""

    result: str  # NE, SH, DO, DOR, Brok, Rout, Surr as printed
    status: str | None  # shaken, disordered, broken, rout, surrendered; None for NE
    move: str | None  # Morale Loss Move, e.g. '5" back/facing'
    duration: str | None  # Duration of Loss, e.g. 'Full Turn'
    routs_instead: bool = False  # a Surr with no enemy in good order within 2"

    @property
    def removed(self) -> bool:
        return self.status in ("rout", "surrendered")


def morale_effect(result: str, enemy_in_good_order_within: float | Fraction | None = None) -> MoraleEffect:
    """The effect of a morale result. For Surr, the distance in inches to the nearest
    enemy Inf./Cav. in good order (None: none on the table): within 2" the unit
    surrenders, otherwise it routs."""
    results = card().morale.results
    one_of("a morale result", result, list(results))
    entry = results[result]
    if entry.otherwise is not None:
        reach = card().morale.surrender_within
        near = enemy_in_good_order_within is not None and distance(enemy_in_good_order_within) <= reach
        if not near:
            rout = morale_effect(entry.otherwise)
            return MoraleEffect(result, rout.status, rout.move, rout.duration, routs_instead=True)
    move = cell_text("morale_loss_move", result=entry.move) if entry.move is not None else None
    duration = cell_text("morale_duration", status=entry.duration) if entry.duration is not None else None
    return MoraleEffect(result, entry.status, move, duration)


@dataclass(frozen=True)
class MoraleOutcome:
    rolled: Rolled
    effect: MoraleEffect | None  # None when the umpire must read the roll


def resolve_morale(
    situation: MoraleSituation,
    dice: DiceService,
    *,
    enemy_in_good_order_within: float | Fraction | None = None,
    entered: Sequence[int] | None = None,
    options: Mapping[str, str] | None = None,
) -> MoraleOutcome:
    """Roll a morale check and apply the card's result."""
    check = morale_check(situation, options)
    if enemy_in_good_order_within is not None:
        distance(enemy_in_good_order_within, "the distance to the enemy")
    rolled = check.roll(dice, entered=entered)
    effect = None if rolled.umpire_reads else morale_effect(rolled.text, enemy_in_good_order_within)
    return MoraleOutcome(rolled, effect)


@dataclass(frozen=True)
class MoraleEvent:
    """What just happened to a unit, for 'Check morale every time'."""

    unit_class: str
    hit: bool = False  # the unit took casualty steps
    losses_before_percent: Fraction | int | float = 0
    losses_after_percent: Fraction | int | float = 0
    fired_on: bool = False
    fired_from: str = "front"  # front, flank, rear
    fire_range: str | None = None  # close_action, short, medium, long, extreme, canister, short_ball
    friend_broke_within: float | Fraction | int | None = None  # inches to a friend that broke or routed
    passed_through_by_disordered: bool = False


def break_point(unit_class: str) -> Fraction:
    """The class break point, % of the starting strength (table break_point)."""
    one_of("the unit class", unit_class, values_of("break_point", "unit_class"))
    return Fraction(table("break_point").lookup(unit_class=unit_class).number)


def morale_checks_due(event: MoraleEvent, options: Mapping[str, str] | None = None) -> list[str]:
    """The card's reasons, in its words, why this unit must check morale now (none: no check)."""
    chosen = options_of(options)
    words = card().morale.checks
    one_of("the side fired on from", event.fired_from, ("front", "flank", "rear"))
    before = percent(event.losses_before_percent, "the losses before")
    after = percent(event.losses_after_percent, "the losses after")
    if after < before:
        raise RulesError(f"losses cannot fall from {before}% to {after}%")
    point = break_point(event.unit_class)
    losses_at_hit = before if chosen["break_point_hit"] == "after" else after
    friend = event.friend_broke_within
    due = {
        "break_point": event.hit and losses_at_hit >= point,
        "flank_or_rear_fire": event.fired_on
        and event.fired_from != "front"
        and event.fire_range in card().morale.flank_fire_ranges,
        "friend_breaks": friend is not None and distance(friend) <= card().morale.friend_breaks_within,
        "fired_on_after_half": event.fired_on and before >= card().morale.fired_on_after_percent,
        "passed_through": event.passed_through_by_disordered,
    }
    return [words[reason] for reason, applies in due.items() if applies]


def crash_through_check(situation: MoraleSituation, options: Mapping[str, str] | None = None) -> TableRoll:
    """The Crash Through roll: its dice by option unstated_dice, its modifiers by
    option crash_through_modifiers."""
    chosen = options_of(options)
    dice = class_dice(situation.unit_class, options) if chosen["unstated_dice"] == "class_dice" else card().dice.unstated
    mods = morale_modifiers(situation, options) if chosen["crash_through_modifiers"] == "morale" else []
    return TableRoll(
        purpose=f"crash through ({situation.unit_class})",
        table="crash_through",
        dice=dice,
        modifiers=tuple(mods),
    )

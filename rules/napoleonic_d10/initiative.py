"""Initiative: the grand-tactical roll of two commanders (Grand-Tac points, rating,
the turn ending on 17 or more), local initiative by class dice, and command radius.

>>> from rules.napoleonic_d10.initiative import Commander, initiative_odds
>>> odds = initiative_odds(Commander("superior"), Commander("poor"))
>>> odds["turn_ends"]
Fraction(1, 10)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import Dice, DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.napoleonic_d10.data import (
    card,
    cell_text,
    class_dice,
    inches,
    modifier,
    one_of,
    options_of,
    values_of,
)
from rules.napoleonic_d10.rolls import TableRoll
from rules.odds import roll_distribution

RATINGS = ("superior", "excellent", "good", "average", "poor")
FIRST, SECOND = "first", "second"


@dataclass(frozen=True)
class Commander:
    """A commander rolling for initiative: his rating and the Grand-Tac points he allotted."""

    rating: str
    grand_tac_points: int = 0
    name: str = ""


def initiative_modifiers(commander: Commander, options: Mapping[str, str] | None = None) -> list[Modifier]:
    """The commander's Grand-Tac points (option grand_tac_points) and his rating ('Attached:')."""
    one_of("a commander's rating", commander.rating, RATINGS)
    if not isinstance(commander.grand_tac_points, int) or commander.grand_tac_points < 0:
        raise RulesError(f"Grand-Tac points are 0 or more, not {commander.grand_tac_points!r}")
    out = []
    if commander.grand_tac_points and options_of(options)["grand_tac_points"] == "plus_one_each":
        out.append(Modifier(f"Grand-Tac ({commander.grand_tac_points} points)", commander.grand_tac_points))
    if commander.rating in values_of("initiative_modifiers", "modifier"):
        out.append(modifier("initiative_modifiers", commander.rating))
    return out


def _total(mods: Sequence[Modifier]) -> int:
    return sum(m.value for m in mods)


def initiative_odds(first: Commander, second: Commander, options: Mapping[str, str] | None = None) -> dict[str, Fraction]:
    """The exact chance that the first or the second commander wins, that the modified
    dice are equal, and that the turn ends (unmodified total of 17 or more)."""
    a = _total(initiative_modifiers(first, options))
    b = _total(initiative_modifiers(second, options))
    die = roll_distribution(card().dice.initiative)
    ends = card().initiative.turn_ends_at
    out = {FIRST: Fraction(0), SECOND: Fraction(0), "equal": Fraction(0), "turn_ends": Fraction(0)}
    for x, px in die.items():
        for y, py in die.items():
            p = px * py
            out[FIRST if x + a > y + b else SECOND if x + a < y + b else "equal"] += p
            if x + y >= ends:
                out["turn_ends"] += p
    return out


@dataclass(frozen=True)
class InitiativeOutcome:
    first_record: DiceRecord
    second_record: DiceRecord
    winner: str | None  # first, second, or None when they roll again
    turn_ends: bool  # the unmodified rolls total 17 or more: the turn ends at once
    roll_again: bool


def roll_initiative(
    first: Commander,
    second: Commander,
    dice: DiceService,
    *,
    holder: str | None = None,
    first_entered: Sequence[int] | None = None,
    second_entered: Sequence[int] | None = None,
    options: Mapping[str, str] | None = None,
) -> InitiativeOutcome:
    """Both commanders roll 1d10 plus modifiers; the high modified die wins. `holder`
    (first or second) is the side holding the initiative, which option
    initiative_tie = holder_keeps needs."""
    tie = options_of(options)["initiative_tie"]
    if holder is not None:
        one_of("the side holding the initiative", holder, (FIRST, SECOND))
    if tie == "holder_keeps" and holder is None:
        raise RulesError("option initiative_tie = holder_keeps needs the side that holds the initiative")
    mods_a, mods_b = initiative_modifiers(first, options), initiative_modifiers(second, options)
    spec = card().dice.initiative
    for entered in (first_entered, second_entered):
        if entered is not None:
            Dice.parse(spec).check_entered(entered)
    ra = dice.roll(spec, f"initiative: {first.name or 'first commander'}", mods_a, entered=first_entered)
    rb = dice.roll(spec, f"initiative: {second.name or 'second commander'}", mods_b, entered=second_entered)
    natural = (ra.result - ra.modifier_total) + (rb.result - rb.modifier_total)
    ends = natural >= card().initiative.turn_ends_at
    if ra.result != rb.result:
        return InitiativeOutcome(ra, rb, FIRST if ra.result > rb.result else SECOND, ends, False)
    if tie == "holder_keeps":
        return InitiativeOutcome(ra, rb, holder, ends, False)
    return InitiativeOutcome(ra, rb, None, ends, not ends)


def local_initiative_check(
    unit_class: str,
    situation: str = "normal",
    *,
    reacting_cavalry_charge: bool = False,
    division_leader_attached: bool = False,
    options: Mapping[str, str] | None = None,
) -> TableRoll:
    """Local initiative: class dice plus modifiers, read by situation (normal, smoke, firefight)."""
    one_of("the local initiative situation", situation, values_of("local_initiative", "situation"))
    mods = []
    if reacting_cavalry_charge:
        mods.append(modifier("local_initiative_modifiers", "reacting_cavalry_charge"))
    if division_leader_attached:
        mods.append(modifier("local_initiative_modifiers", "division_leader_attached"))
    return TableRoll(
        purpose=f"local initiative ({unit_class}, {situation})",
        table="local_initiative",
        dice=class_dice(unit_class, options),
        modifiers=tuple(mods),
        axes=(("situation", situation),),
    )


def command_radius(level: str) -> Fraction:
    """Command Radius in inches: Divisional 15", Corps 24", Army 36"."""
    one_of("the command level", level, values_of("command_radius", "level"))
    return inches(cell_text("command_radius", level=level))

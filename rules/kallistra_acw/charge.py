"""Charges: the charged unit's response (1D6 must beat its class score), then the
hand-to-hand dice of the charging table (1D12 per stand).

>>> from rules.dice import DiceService
>>> from rules.kallistra_acw.data import Stands
>>> step = response_step(Stands("infantry", "regular", count=4), charger_stands=4,
...                      defence=ChargeDefence(uphill_of_chargers=True))
>>> step.score, step.odds["stands"]   # Regular 3, -1 uphill: 3, 4, 5 or 6 stands
(2, Fraction(2, 3))
>>> resolve_response(step, DiceService(seed=1), entered=[2]).text
'all the stands in the hex must route'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.kallistra_acw.data import (
    RULESET,
    Stands,
    card,
    check_stands,
    options,
    score,
    spelling,
    whole,
)
from rules.kallistra_acw.rolls import HitsStep, make_step
from rules.loader import get_table
from rules.odds import roll_distribution

__all__ = ["ChargeDefence", "ResponseResult", "ResponseStep", "charge_troop", "hand_to_hand_step",
           "resolve_response", "response_step"]

STANDS, ROUTS = "stands", "routs"
STAND_TEXT = "the charged unit stands, fires and fights hand-to-hand"
ROUT_TEXT = "all the stands in the hex must route"


@dataclass(frozen=True)
class ChargeDefence:
    """The charged unit's situation, as the response modifiers name it."""

    uphill_of_chargers: bool = False
    defending_linear_obstacle: bool = False  # a wall or a fence is one
    defending_wood: bool = False
    brigade_commander_hexes: int | None = None  # hexes to its brigade commander, None if none


@dataclass(frozen=True)
class ResponseStep:
    class_label: str  # the row of table stand, as printed
    printed_score: int
    modifiers: tuple[Modifier, ...]  # to the score to beat, as printed
    dice: str
    odds: Mapping[str, Fraction]  # STANDS / ROUTS -> chance
    arm: str

    @property
    def score(self) -> int:
        """The score the die must beat."""
        return self.printed_score + sum(m.value for m in self.modifiers)


@dataclass(frozen=True)
class ResponseResult:
    step: ResponseStep
    record: DiceRecord
    chargers_occupy: bool  # the chargers take the hex the routers leave (option failed_response_hex)

    @property
    def stood(self) -> bool:
        return self.record.result > self.step.score

    @property
    def artillery_eliminated(self) -> bool:
        """'Artillery do not route, they are simply eliminated.'"""
        return not self.stood and self.step.arm == "artillery"

    @property
    def text(self) -> str:
        if self.stood:
            return STAND_TEXT
        if self.artillery_eliminated:
            return get_table(RULESET, "rout").lookup(arm="artillery").text
        return ROUT_TEXT


def response_step(defender: Stands, charger_stands: int, defence: ChargeDefence = ChargeDefence(),
                  overrides: Mapping[str, str] | None = None) -> ResponseStep:
    """The charged unit's test: the score to beat on 1D6, its modifiers and odds."""
    chosen = options(overrides)
    check_stands(defender, chosen)
    whole("the chargers' stands", charger_stands, 1)
    rules = card().response
    table = get_table(RULESET, "stand")
    value = spelling(defender.quality, "stand")
    mods_table = get_table(RULESET, "response_modifiers")
    commander = defence.brigade_commander_hexes
    if commander is not None:
        whole("the hexes to the brigade commander", commander, 0)
    present = {
        "uphill": defence.uphill_of_chargers,
        "linear_obstacle": defence.defending_linear_obstacle,
        "wood": defence.defending_wood,
        "brigade_commander": commander is not None and commander <= rules.brigade_commander_hexes,
        "outnumbered": charger_stands >= rules.outnumbered_ratio * defender.count,
    }
    mods = tuple(
        Modifier(band.label, mods_table.lookup(situation=band.names[0]).number)
        for band in mods_table.rows.bands
        if present[str(band.names[0])]
    )
    printed = table.lookup(**{"class": value}).number
    beat = printed + sum(m.value for m in mods)
    chance = sum((p for roll, p in roll_distribution(rules.dice).items() if roll > beat), Fraction(0))
    label = table.rows.bands[table.rows.index_of(value)].label
    return ResponseStep(label, printed, mods, rules.dice, {STANDS: chance, ROUTS: 1 - chance}, defender.arm)


def resolve_response(step: ResponseStep, dice: DiceService, entered: Sequence[int] | None = None,
                     overrides: Mapping[str, str] | None = None, by: str = "umpire") -> ResponseResult:
    chosen = options(overrides)
    mods = "".join(f", {m.value:+d} {m.label}" for m in step.modifiers)
    purpose = f"response to charge, {step.class_label}: more than {step.score} ({step.printed_score}{mods})"
    record = dice.roll(step.dice, purpose, entered=entered, by=by)
    occupy = record.result <= step.score and chosen["failed_response_hex"] == "chargers_occupy"
    return ResponseResult(step, record, occupy)


def charge_troop(unit: Stands) -> str:
    """The unit's row of the charging table."""
    if unit.arm == "artillery":
        raise RulesError("artillery has no score on the charging table")
    if unit.arm == "cavalry":
        return "dismounted_cavalry" if unit.dismounted else "mounted_cavalry"
    return spelling(unit.quality, "charge_infantry")


def hand_to_hand_step(unit: Stands, *, charging: bool,
                      overrides: Mapping[str, str] | None = None) -> HitsStep | None:
    """The unit's hand-to-hand dice: 1D12 per stand needing its troop type's score.

    None when the unit rolls no dice: a charged unit under the option
    hand_to_hand_dice = chargers_only, or charged artillery."""
    chosen = options(overrides)
    check_stands(unit, chosen)
    if not charging and (chosen["hand_to_hand_dice"] == "chargers_only" or unit.arm == "artillery"):
        return None
    troop = charge_troop(unit)
    if charging and unit.disrupted:
        raise RulesError("disrupted units cannot move, so they cannot charge")
    limits = card().charge
    cap = limits.max_stands[unit.arm]  # type: ignore[index]  # artillery: refused by charge_troop
    if unit.count > cap:
        raise RulesError(f"up to {cap} {unit.arm} stands of a hex charge into contact, not {unit.count}")
    table = get_table(RULESET, "charge")
    cell = table.lookup(troop=troop).text
    label = table.rows.bands[table.rows.index_of(troop)].label
    role = "chargers" if charging else "charged unit"
    what = f"hand to hand, {role}: {unit.count} stand{'s' if unit.count > 1 else ''} of {label}"
    return make_step(what, cell, unit.count, int(limits.die.lstrip("d")), score(cell))

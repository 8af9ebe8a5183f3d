"""Morale checks (phases 2, 4, 5, 7, 9, 10 and 12) and the recall of cavalry (phase 13).

A d6 against the class value (Elite 6, Veteran 5, Conscript 4 or less), the
modifiers of the phase changing that value. The result is Pass, Fail by 1 or 2 or
Fail by 3+ (phase 13: Pass or Fail), in the words of that phase.

>>> check = morale_check(MoraleTest(phase=4, side="french", unit="infantry_column",
...                                 unit_class="veteran", casualties=3, charging=True))
>>> check.pass_on, [(m.label, m.value) for m in check.modifiers]
(3, [('per 3 casualties', -1), ('Infantry Charging', -1)])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_13phase.data import (
    RULESET,
    Phase,
    card,
    check_class,
    check_count,
    check_side,
    phase,
    unit_type,
)
from rules.odds import roll_distribution
from rules.options import resolve_options

PASS = "pass"
FAIL_SMALL = "fail_1_2"
FAIL_BIG = "fail_3_plus"
FAIL = "fail"  # phase 13 prints only Pass and Fail
ROUT = FAIL_BIG  # 'Rout. Remove the unit from the game.'


@dataclass(frozen=True)
class MoraleTest:
    """A unit taking the morale check of a phase."""

    phase: int
    side: str
    unit: str  # unit type: infantry_column, cuirassiers, artillery...
    unit_class: str  # elite, veteran or conscript
    casualties: int = 0  # every casualty the unit has taken in the battle
    casualties_this_phase: int = 0  # those that brought about this test
    general_attached: bool = False
    charging: bool = False  # phases 4 and 9: testing to close for a charge
    charged_in_flank_or_rear: bool = False  # phases 5 and 10
    in_melee: bool = False  # phases 5 and 10: infantry already in melee do not test


@dataclass(frozen=True)
class MoraleCheck:
    """Before the roll: the class value, the modifiers applied to it and the exact odds."""

    test: MoraleTest
    phase: Phase
    printed: str  # the class value as printed: "5 or less"
    class_value: int
    modifiers: tuple[Modifier, ...]

    @property
    def pass_on(self) -> int:
        """The d6 passes at or under this number."""
        return self.class_value + sum(m.value for m in self.modifiers)

    @property
    def recall(self) -> bool:
        return self.phase.kind == "recall"

    def outcome(self, die: int) -> str:
        """pass, fail_1_2 or fail_3_plus (phase 13: pass or fail) for a die."""
        margin = die - self.pass_on
        if margin <= 0:
            return PASS
        if self.recall:
            return FAIL
        return FAIL_SMALL if margin <= card().morale.small_fail_up_to else FAIL_BIG

    def label(self, outcome: str) -> str:
        """The result's heading as printed: Pass, Fail by 1 or 2, Fail by 3+, Fail."""
        if self.recall:
            rows = get_table(RULESET, "recall_results").rows
            return rows.bands[rows.index_of(outcome)].label
        columns = get_table(RULESET, "morale_results").columns
        assert columns is not None
        return columns.bands[columns.index_of(outcome)].label

    def text(self, outcome: str) -> str:
        """The result in the card's words for this phase."""
        if self.recall:
            return get_table(RULESET, "recall_results").lookup(result=outcome).text
        return get_table(RULESET, "morale_results").lookup(phase=self.phase.number, result=outcome).text

    def odds(self) -> dict[str, Fraction]:
        """The exact chance of each result, by its printed heading."""
        out: dict[str, Fraction] = {}
        for die, chance in roll_distribution(card().morale.dice).items():
            label = self.label(self.outcome(die))
            out[label] = out.get(label, Fraction(0)) + chance
        return out

    @property
    def purpose(self) -> str:
        applied = "".join(f", {m.value:+d} {m.label}" for m in self.modifiers)
        what = "recall" if self.recall else "morale"
        return (
            f"{what}, phase {self.phase.number} ({self.test.unit_class} {self.printed}{applied}): "
            f"pass on {self.pass_on} or less"
        )

    def roll(self, dice: DiceService, *, entered: Sequence[int] | None = None, by: str = "umpire") -> "MoraleResult":
        # The modifiers change the pass value, not the die: the die is recorded as rolled
        # and the pass value is in the record's purpose.
        record = dice.roll(card().morale.dice, self.purpose, (), entered=entered, by=by)
        return MoraleResult(self, record, self.outcome(record.result))


@dataclass(frozen=True)
class MoraleResult:
    check: MoraleCheck
    record: DiceRecord
    outcome: str  # pass, fail_1_2, fail_3_plus (phase 13: pass or fail)

    @property
    def label(self) -> str:
        return self.check.label(self.outcome)

    @property
    def text(self) -> str:
        return self.check.text(self.outcome)

    @property
    def removed(self) -> bool:
        """Fail by 3+: 'Rout. Remove the unit from the game.'"""
        return self.outcome == ROUT

    @property
    def casualties(self) -> int:
        """Casualties the result itself inflicts: one for a failed recall. (The d6 casualties
        of a unit unable to form line are the roll cannot_form_line.)"""
        return card().morale.recall_fail_casualties if self.outcome == FAIL else 0


def _modifier(row: str, number: int, times: int = 1) -> Modifier:
    table = get_table(RULESET, "morale_modifiers")
    cell = table.lookup(modifier=row, phase=number)
    label = table.rows.bands[table.rows.index_of(row)].label
    return Modifier(label, cell.number * times)


def _listed(row: str, number: int) -> bool:
    return not get_table(RULESET, "morale_modifiers").lookup(modifier=row, phase=number).blank


def _check_who_tests(test: MoraleTest, current: Phase) -> None:
    kind = unit_type(test.unit, test.side)
    if test.side not in current.tests:
        raise RulesError(f"the {test.side} do not test morale in phase {current.number} ({current.title})")
    if kind.arm not in current.arms:
        raise RulesError(
            f"only {' and '.join(current.arms)} test in phase {current.number} ({current.title}), "
            f"not {kind.arm}"
        )
    if "charging_cavalry" in current.excluded and kind.arm == "cavalry" and test.charging:
        raise RulesError(f"charging cavalry do not test in phase {current.number}")
    if "in_melee" in current.excluded and test.in_melee:
        raise RulesError(f"infantry already in melee do not test in phase {current.number}")


def morale_check(test: MoraleTest, options: Mapping[str, str] | None = None) -> MoraleCheck:
    """The check of a unit in a morale phase (2, 4, 5, 7, 9, 10, 12) or in phase 13."""
    chosen = resolve_options(RULESET, options)
    current = phase(test.phase)
    if current.kind not in ("morale", "recall"):
        raise RulesError(f"phase {test.phase} ({current.title}) has no morale check")
    check_side(test.side)
    check_class(test.unit_class)
    check_count(test.casualties, "casualties")
    check_count(test.casualties_this_phase, "casualties this phase")
    _check_who_tests(test, current)
    kind = unit_type(test.unit)
    number = current.number
    if test.charging and kind.arm == "artillery":
        raise RulesError("artillery do not charge")
    if test.charging and kind.arm == "infantry" and not _listed("infantry_charging", number):
        raise RulesError(f"phase {number} lists no modifier for infantry charging")
    if test.charged_in_flank_or_rear and not _listed("charged_in_flank_or_rear", number):
        raise RulesError(f"phase {number} lists no modifier for being charged in flank or rear")

    counted = test.casualties if chosen["casualties_counted"] == "total" else test.casualties_this_phase
    modifiers: list[Modifier] = []
    steps = counted // card().morale.casualties_per_modifier
    if steps:
        modifiers.append(_modifier("per_3_casualties", number, steps))
    if test.general_attached:
        modifiers.append(_modifier("general_attached", number))
    if test.charging and kind.arm == "infantry":
        modifiers.append(_modifier("infantry_charging", number))
    if kind.arm == "infantry" and kind.formation != "column" and _listed("infantry_not_in_column", number):
        modifiers.append(_modifier("infantry_not_in_column", number))
    if test.charged_in_flank_or_rear:
        modifiers.append(_modifier("charged_in_flank_or_rear", number))

    printed = get_table(RULESET, "morale").lookup(**{"class": test.unit_class}).text
    return MoraleCheck(test, current, printed, int(printed.split()[0]), tuple(modifiers))


def recall_check(test: MoraleTest, options: Mapping[str, str] | None = None) -> MoraleCheck:
    """Phase 13: the morale roll of cavalry to recall to where its charge began."""
    if test.phase != len(card().phases):
        raise RulesError(f"cavalry recall in phase {len(card().phases)}, not in phase {test.phase}")
    return morale_check(test, options)

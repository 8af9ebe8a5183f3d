"""Reconnaissance (see 6.3 of the series rules), an action of its own.

The card: 1d6 on the reconnaissance table, in the column of the differential of
cavalry SP (reconnoitring minus screening), '+ Average Cohesion of the unit(s)
making the reconnaissance – Average Cohesion of the screening units'.  The two
averages are made one whole modifier by the option average_cohesion; a
differential of 0 or less is read by the option reconnaissance_without_advantage
and a roll off the rows by reconnaissance_roll_beyond_table.  What the result 0
to 4 reveals is for the series rules: it is kept as printed.

>>> from rules.dice import DiceService
>>> step = reconnaissance_step(6, 2, 4, 3)
>>> step.column, step.modifier
('3 à 4', 1)
>>> resolve_reconnaissance(step, DiceService(seed=1), entered=[5]).result
2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.allemagne1813.battle_setup import check_cohesion
from rules.allemagne1813.combat import RULESET, cohesion_modifier
from rules.allemagne1813.rolls import NOTHING, cell_odds, column_index, read_cell, read_result
from rules.dice import DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.loader import get_table
from rules.options import resolve_options

TABLE = "reconnaissance"


@dataclass(frozen=True)
class ReconnaissanceStep:
    differential: int  # cavalry SP, reconnoitring minus screening
    column: str | None  # None: no column, nothing to roll (reconnaissance_without_advantage)
    dice: str | None
    modifiers: tuple[Modifier, ...]
    odds: Mapping[str, Fraction]  # cell as printed -> chance

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)


@dataclass(frozen=True)
class ReconnaissanceResult:
    step: ReconnaissanceStep
    record: DiceRecord | None  # None when there was nothing to roll
    row: int | None
    cell: str  # as printed, '-' for a blank cell

    @property
    def result(self) -> int:
        """The printed result, 0 for a blank cell."""
        return read_result(TABLE, self.cell)[0]


def check_reconnoitring_arms(arms: Sequence[str], options: Mapping[str, str] | None = None) -> None:
    """Refuse a reconnaissance the option reconnaissance_units does not allow, in one sentence.

    `arms` are those of the real units making it (infantry, cavalry, artillery; no dummies)."""
    rule = resolve_options(RULESET, options)["reconnaissance_units"]
    if rule == "any_unit":
        return
    others = sorted({arm for arm in arms if arm != "cavalry"})
    if "cavalry" not in arms:
        raise RulesError(
            "the card's reconnaissance is made by cavalry ('Differential in of Cavalry SP'): choose a cavalry unit"
            " (option reconnaissance_units=any_unit lets any unit reconnoitre)"
        )
    if rule == "cavalry_only" and others:
        raise RulesError(
            f"the card's reconnaissance is made by cavalry ('Differential in of Cavalry SP'), not {' or '.join(others)}"
            " (option reconnaissance_units=with_cavalry lets other units join the cavalry)"
        )


def _cavalry(what: str, sp: object) -> int:
    if not isinstance(sp, int) or isinstance(sp, bool) or sp < 0:
        raise RulesError(f"the {what} cavalry SP must be a whole number of 0 or more, not {sp!r}")
    return sp


def reconnaissance_step(
    reconnoitring_cavalry_sp: int,
    screening_cavalry_sp: int,
    reconnoitring_cohesion: Fraction | int,
    screening_cohesion: Fraction | int,
    options: Mapping[str, str] | None = None,
) -> ReconnaissanceStep:
    """The reconnaissance roll: its column, modifier and exact odds."""
    chosen = resolve_options(RULESET, options)
    ours = check_cohesion("the reconnoitring units' average cohesion", reconnoitring_cohesion)
    theirs = check_cohesion("the screening units' average cohesion", screening_cohesion)
    differential = _cavalry("reconnoitring", reconnoitring_cavalry_sp) - _cavalry("screening", screening_cavalry_sp)
    table = get_table(RULESET, TABLE)
    assert table.columns is not None
    value = cohesion_modifier(ours - theirs, chosen)
    mods = (Modifier("average cohesion, reconnoitring minus screening", value),) if value else ()
    first = table.columns.bands[0].low or 0
    if differential < first:
        if chosen["reconnaissance_without_advantage"] == "no_result":
            return ReconnaissanceStep(differential, None, None, mods, {NOTHING: Fraction(1)})
        differential_read = first
    else:
        differential_read = differential
    column = table.columns.index_of(differential_read)
    odds = cell_odds(TABLE, column, value, chosen)
    return ReconnaissanceStep(differential, table.columns.bands[column].label, table.dice, mods, odds)


def resolve_reconnaissance(
    step: ReconnaissanceStep,
    dice: DiceService,
    entered: Sequence[int] | None = None,
    options: Mapping[str, str] | None = None,
) -> ReconnaissanceResult:
    """Roll the reconnaissance (nothing is rolled when the step has no column).

    Under reconnaissance_roll_beyond_table = ask_umpire a roll off the rows is a
    RulesError after the roll is recorded: the umpire then reads it himself."""
    chosen = resolve_options(RULESET, options)
    if step.column is None or step.dice is None:
        return ReconnaissanceResult(step, None, None, NOTHING)
    record = dice.roll(step.dice, f"reconnaissance, column {step.column}", step.modifiers, entered=entered)
    row, cell = read_cell(TABLE, column_index(TABLE, step.column), record.result, chosen)
    return ReconnaissanceResult(step, record, row, cell.text)

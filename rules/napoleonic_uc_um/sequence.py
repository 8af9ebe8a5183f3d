"""The sequence of play as a checklist, and the branches of the charge sequence.

>>> next_step("3.12").id   # the turn ends, the next begins
'1.1'
>>> charge_tests(charging=True, on_foot=True, charging_cavalry_frontally=True, charged=True)
('3.3', '3.7')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.errors import RulesError
from rules.loader import get_table
from rules.options import resolve_options
from rules.napoleonic_uc_um.data import RULESET, card

OUTCOMES = ("rupture", "repli", "fight_on")


@dataclass(frozen=True)
class Step:
    id: str  # "3.4"
    phase: int
    english: str  # the row label of table sequence_of_play
    french: str  # the card's words
    marks: tuple[str, ...] = ()


def steps() -> list[Step]:
    """Every step of a turn, in order (table sequence_of_play)."""
    table = get_table(RULESET, "sequence_of_play")
    out = []
    for band, (text,) in zip(table.rows.bands, table.cells):
        step_id = str(band.names[0])
        cell = table.lookup(step=step_id)
        english = band.label.removeprefix(step_id).strip()
        out.append(Step(step_id, int(step_id.split(".")[0]), english, text, cell.marks))
    return out


def step(step_id: str) -> Step:
    for s in steps():
        if s.id == step_id:
            return s
    raise RulesError(f"the sequence of play has no step {step_id!r}; steps run 1.1 to 3.12")


def next_step(step_id: str) -> Step:
    """The step after `step_id`; after the last step of Phase 3 comes the next turn's 1.1."""
    all_steps = steps()
    index = [s.id for s in all_steps].index(step(step_id).id)
    return all_steps[(index + 1) % len(all_steps)]


def charge_tests(
    *,
    charging: bool = False,
    on_foot: bool = False,
    charging_cavalry_frontally: bool = False,
    charged: bool = False,
    options: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """The morale-test steps a UC takes in one charge: (a) for a foot UC charging
    cavalry frontally, (b) for a charged UC, never both by default ('*** Non cumulable',
    option non_cumulable: the first in the sequence is taken), then the chargers' test
    for a charging UC."""
    rules = card().charge
    tests = []
    if charging and on_foot and charging_cavalry_frontally:
        tests.append(rules.foot_charging_cavalry)
    if charged:
        tests.append(rules.charged)
    if resolve_options(RULESET, options)["non_cumulable"] == "one_test":
        tests = tests[:1]  # the two *** tests are not cumulative
    if charging:
        tests.append(rules.chargers)
    return tuple(tests)


def after_melee_test(passed: bool, *, fall_back: bool = False) -> str:
    """Step 3.9: 'si réussi repli ou poursuite du combat allez à (c) sinon rupture'.
    Returns 'rupture', 'repli' or 'fight_on' (back to step 3.8, (c))."""
    if not passed:
        return "rupture"
    return "repli" if fall_back else "fight_on"


def melee_winner(outcomes: Mapping[str, str]) -> str | None:
    """The winner who makes the pursuit or consolidation move (step 3.10): the one side
    still fighting when the other broke or fell back; None when both fight on (back to
    (c)) or neither stays."""
    if len(outcomes) != 2 or any(o not in OUTCOMES for o in outcomes.values()):
        raise RulesError("give the outcome of step 3.9 for each of the two sides: rupture, repli or fight_on")
    staying = [side for side, o in outcomes.items() if o == "fight_on"]
    return staying[0] if len(staying) == 1 else None


def after_pursuit(new_contact: bool) -> str:
    """Step 3.11: a new contact goes back to (a); otherwise the other UC of the UM may
    advance (10 cm). Returns the next step's id."""
    rules = card().charge
    return rules.foot_charging_cavalry if new_contact else next_step(rules.new_contact).id


def advance_after_melee_cm() -> int:
    """'sinon les autres UC du UM peuvent avancer 10cm'."""
    return card().distances.advance_after_melee

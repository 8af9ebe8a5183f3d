"""The 13-phase turn as a checklist: each phase's heading as printed and who acts.

>>> [p.number for p in turn_sequence() if "french" in p.acting and p.kind == "morale"]
[2, 4, 7, 10, 12]
>>> next_phase(1, 13)
(2, 1)
"""

from __future__ import annotations

from rules.errors import RulesError
from rules.napoleonic_13phase.data import Phase, card, phase


def turn_sequence() -> tuple[Phase, ...]:
    """The phases of one turn, in order."""
    return card().phases


def next_phase(turn: int, number: int) -> tuple[int, int]:
    """(turn, phase) after phase `number` of `turn`: phase 13 is followed by phase 1 of the next turn."""
    if not isinstance(turn, int) or turn < 1:
        raise RulesError(f"turns are numbered from 1, not {turn!r}")
    phase(number)
    return (turn + 1, 1) if number == len(card().phases) else (turn, number + 1)


__all__ = ["Phase", "next_phase", "phase", "turn_sequence"]

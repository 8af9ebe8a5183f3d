"""The card's sequence of play as steps, and what a side may do in each.

>>> [step.id for step in steps()]
['movement', 'artillery_fire', 'simultaneous_fire', 'hand_to_hand']
>>> check_action("artillery_fire", "small_arms_fire", active_side=True)
Traceback (most recent call last):
...
rules.errors.RulesError: small arms fire is not done in the artillery fire step (phase 2); it is done in the simultaneous fire step
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.errors import RulesError
from rules.kallistra_acw.data import RULESET, card
from rules.loader import get_table

__all__ = ["Step", "check_action", "fire_action", "steps"]


@dataclass(frozen=True)
class Step:
    id: str
    phase: int  # the card's numbered phase
    sides: Literal["active", "both"]  # "active": the card's side A
    actions: tuple[str, ...]
    printed: str  # the card's line of the phase
    who: str = ""  # who does what in it, for the umpire's checklist

    @property
    def title(self) -> str:
        return self.id.replace("_", " ")


def steps() -> tuple[Step, ...]:
    """The steps of one bound, in order; the other side's bound repeats them."""
    table = get_table(RULESET, "sequence")
    return tuple(
        Step(raw.id, raw.phase, raw.sides, raw.actions, table.lookup(phase=raw.phase).text, raw.who)
        for raw in card().step
    )


def check_action(step_id: str, action: str, *, active_side: bool) -> Step:
    """The step, if the side may do `action` in it; otherwise one clear sentence."""
    by_id = {s.id: s for s in steps()}
    if step_id not in by_id:
        raise RulesError(f"step {step_id!r} is not one of {', '.join(by_id)}")
    step = by_id[step_id]
    if action not in step.actions:
        where = [s.title for s in by_id.values() if action in s.actions]
        if not where:
            raise RulesError(f"{action!r} is not an action of the sequence of play")
        raise RulesError(
            f"{action.replace('_', ' ')} is not done in the {step.title} step (phase {step.phase}); "
            f"it is done in the {where[0]} step"
        )
    if step.sides == "active" and not active_side:
        raise RulesError(f"only the side whose bound it is acts in the {step.title} step")
    return step


def fire_action(band: str) -> str:
    """The action of artillery fire in this band: canister is fired with small arms."""
    return "canister" if band == "canister" else "artillery_fire"

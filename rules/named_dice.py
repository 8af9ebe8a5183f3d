"""The dice of one resolution that rolls several expressions, each side's named.

A card may roll both sides' dice in one resolution (the attacker's and the
defender's melee dice, each commander's initiative die). A resolution names each
expression (`Roll`) in its `Prepared.rolls`; each is rolled (or typed in) on its
own, is a record of its own in the campaign's dice records, named, and the
procedure reads it back by name (`DiceRecord.of`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.dice import Dice, DiceRecord, DiceService, combined
from rules.errors import RulesError

if TYPE_CHECKING:
    from rules.resolver import Prepared


@dataclass(frozen=True)
class Roll:
    """One dice expression of a resolution that rolls several, named by whose dice it is
    (the attacker's and the defender's dice of a melee, each commander's initiative die)."""

    id: str  # what the procedure reads it by: DiceRecord.of(id)
    label: str  # whose dice, as shown and recorded: "attacker, I Cavalry Corps #1"
    dice: str  # for the dice service ("2d6", "1d10")
    side: str = ""  # ATTACKER or DEFENDER, whose luck the dice are; "" for the actor's side



def entered_by_roll(rolls: Sequence[Roll], entered: Any) -> list[Sequence[int] | None]:
    """The dice typed in for each expression: one list per expression (or a mapping by its
    id), or all of them in one list, in the order of the expressions; None: rolled."""
    if entered is None:
        return [None] * len(rolls)
    if isinstance(entered, Mapping):
        missing = [r.label or r.id for r in rolls if r.id not in entered]
        if missing:
            raise RulesError(f"type the dice of {', '.join(missing)} too")
        return [list(entered[r.id]) for r in rolls]
    values = list(entered)
    if len(rolls) > 1 and values and all(isinstance(v, (list, tuple)) for v in values):
        if len(values) != len(rolls):
            raise RulesError(f"{len(rolls)} dice expressions are rolled ({'; '.join(r.label for r in rolls)}), "
                             f"not {len(values)}")
        return [list(v) for v in values]
    if len(rolls) == 1:
        return [values]
    counts = [Dice.parse(r.dice).count for r in rolls]
    if len(values) != sum(counts):
        raise RulesError(f"{' and '.join(f'{r.label} {r.dice}' for r in rolls)}: {sum(counts)} dice typed in, "
                         f"not {len(values)}")
    out: list[Sequence[int] | None] = []
    for count in counts:
        out.append(values[:count])
        values = values[count:]
    return out


def roll_prepared(service: DiceService, prepared: Prepared, purpose: str, entered: Any = None) -> DiceRecord | None:
    """Roll (or take as typed in) every dice expression of a prepared resolution, each one
    its own record in the dice service named by whose dice it is; None when nothing is rolled.
    One unnamed expression (`dice`) gives its own record; named ones (`rolls`, even one), a
    record of them all that the procedure reads by name (DiceRecord.of)."""
    rolls = prepared.expressions
    if not rolls:
        if entered:
            raise RulesError("this resolution rolls no dice")
        return None
    typed = entered_by_roll(rolls, entered)
    if not prepared.rolls:  # one unnamed expression
        return service.roll(rolls[0].dice, purpose, entered=typed[0])
    parts = [(r.id, service.roll(r.dice, f"{purpose}; {r.label}'s dice", entered=values))
             for r, values in zip(rolls, typed, strict=True)]
    return combined(purpose, parts)

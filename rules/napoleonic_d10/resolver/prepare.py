"""From a request to what the screen shows before the dice, and the dice back.

The ticks the card counts once (one cover, one direction), modifiers and legends
as text, a procedure's TableRoll shown as a Prepared, and the plumbing that lets
the dice of two sides be named, each its own roll (`two_sides`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.dice import ENTERED, DiceService, Modifier
from rules.errors import RulesError
from rules.napoleonic_d10.data import modifier, table
from rules.napoleonic_d10.rolls import TableRoll
from rules.resolver import Prepared, Request, Roll


def mods_text(mods: Sequence[Modifier]) -> str:
    return ", ".join(f"{m.label} {m.value:+d}" for m in mods) or "no modifiers"


def label(table_id: str, row: str, **axes: str) -> str:
    """A modifier row as printed, with its value: 'Vacating Cover -2'."""
    m = modifier(table_id, row, **axes)
    return f"{m.label} {m.value:+d}"


def legend(table_id: str, text: str) -> str:
    """A result with the table's legend for it: 'AA = Aggresive Action'."""
    words = table(table_id).legend.get(text)
    return f"{text} = {words}" if words else text


def ticked_one(request: Request, ids: Sequence[str], what: str) -> str | None:
    """The one tick of a group the card counts once (cover...), or None."""
    chosen = [i for i in ids if i in request.ticked]
    if len(chosen) > 1:
        raise RulesError(f"tick one {what} only, not {len(chosen)}")
    return chosen[0] if chosen else None


def scratch() -> DiceService:
    """A dice service that only re-reads dice already rolled, so the procedures read them."""
    return DiceService(seed=0, mode=ENTERED)


def two_sides(request: Request, attacker_dice: str, defender_dice: str) -> tuple[Roll, Roll]:
    """The dice of the two units of a charge or melee, each named: the acting unit's
    (the card's attacker) and its target's (the defender); read back with DiceRecord.of."""
    assert request.target is not None
    return (Roll("attacker", f"attacker {request.actor.name}", attacker_dice, request.actor.side),
            Roll("defender", f"defender {request.target.name}", defender_dice, request.target.side))


def roll_prepare(check: TableRoll, heading: str, what: str | None = None) -> Prepared:
    """A table roll as the screen shows it: its dice, modifiers, the naturals for each result and the odds."""
    needed = ", ".join(str(r) for r in check.needed())
    return Prepared(what or check.purpose, f"{check.dice} ({mods_text(check.modifiers)}): {needed}", check.dice,
                    ((heading, check.odds()),))


def rolled(check: Callable[[Request], TableRoll], heading: str) -> Callable[[Request], Prepared]:
    """The prepare of a resolution that is one table roll."""
    return lambda request: roll_prepare(check(request), heading)

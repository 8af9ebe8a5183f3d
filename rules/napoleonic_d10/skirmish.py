"""Skirmish combat and disruptive terrain, both rolled on the class dice, and the
reading of the results they share with crash through: smoke, a morale state and a
number in brackets (SH(20), Smk/DO).

>>> from rules.napoleonic_d10.skirmish import read_state
>>> read_state("Smk/Shaken"), read_state("DO(40)")
(State(text='Smk/Shaken', smoke=True, state='SH', number=None), State(text='DO(40)', smoke=False, state='DO', number=40))
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.dice import Modifier
from rules.napoleonic_d10.data import card, class_dice, one_of, values_of
from rules.napoleonic_d10.rolls import TableRoll

_STATE = re.compile(r"^(?P<state>[A-Za-z]+)(?:\((?P<number>\d+)\))?$")
SMOKE = "Smk"
NO_EFFECT = "NE"


@dataclass(frozen=True)
class State:
    """A result as printed, read: smoke, a morale state (SH, DO, DOR...) and the
    bracketed number, whose meaning the card does not give."""

    text: str
    smoke: bool
    state: str | None
    number: int | None


def read_state(text: str) -> State:
    smoke, state, number = False, None, None
    for part in text.split("/"):
        if part == SMOKE:
            smoke = True
            continue
        m = _STATE.match(part)
        if not m:
            raise ValueError(f"{text!r} is not a result of the card")
        if m["state"] != NO_EFFECT:
            state = card().states.get(m["state"], m["state"])
        number = int(m["number"]) if m["number"] else None
    return State(text, smoke, state, number)


def skirmish_check(
    unit_class: str, screen_modifiers: Sequence[Modifier] = (), options: Mapping[str, str] | None = None
) -> TableRoll:
    """Skirmish combat: the class dice plus or minus the screen modifiers (which the card
    does not list; the umpire gives them), read in the unit's class column."""
    return TableRoll(
        purpose=f"skirmish combat ({unit_class})",
        table="skirmish",
        dice=class_dice(unit_class, options),
        modifiers=tuple(screen_modifiers),
        axes=(("unit_class", unit_class),),
    )


def disruption_check(unit_class: str, disruption: str, options: Mapping[str, str] | None = None) -> TableRoll:
    """Disruptive terrain (D1, D2, D3): the class dice, read by the degree of disruption."""
    one_of("the disruption", disruption, values_of("disruptive_terrain", "disruption"))
    return TableRoll(
        purpose=f"disruptive terrain {disruption.upper()} ({unit_class})",
        table="disruptive_terrain",
        dice=class_dice(unit_class, options),
        axes=(("disruption", disruption.upper()),),
    )

"""A check of the card as the resolver screen shows it: the number needed with its
factors, the exact odds, the card's factors as ticks, the dice already rolled, and
a result in the card's words with the English beside it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_uc_um.data import RULESET, factors
from rules.napoleonic_uc_um.data import needed as data_needed
from rules.napoleonic_uc_um.resolver.units import NONE
from rules.napoleonic_uc_um.rolls import Check, Result
from rules.resolver import Prepared, Tick, Unit


def needed(check: Check) -> str:
    """'6 + (Aguerri (seasoned) 4 +, Longue portée (Long range) +2)'."""
    mods = "".join(f", {m.label} {m.value:+d}" for m in check.modifiers)
    shown = f"{check.need} + ({check.base_label}{mods})"
    if check.target != check.need:
        shown += f"; each die needs {check.target} +"
    return shown


def odds(chances: Mapping[int, Fraction]) -> dict[int, Fraction]:
    return {k: v for k, v in chances.items() if v}


def hits_prepared(what: str, check: Check, attack: str, losses: Mapping[int, Fraction]) -> Prepared:
    """A fire or melee check before its dice: the hits, and the EC lost after the
    target's saves against `attack` (fire or melee)."""
    save = data_needed("save", "attack", attack, "attack")
    return Prepared(what, needed(check), check.expression,
                    (("Touches (hits)", odds(check.odds)),
                     (f"Pertes après sauvegardes {save}+ (EC lost after saves)", odds(losses))),
                    check.notes)


def hits_text(result: Result, target: Unit, waiting: int, attack: str) -> str:
    """'2 touches (2 hits) on UC d1; 2 waiting for its sauvegardes (saves) 3+'."""
    text = f"{words(result)} on {target.name}"
    if waiting:
        text += f"; {waiting} waiting for its sauvegardes (saves) {data_needed('save', 'attack', attack, 'attack')}+"
    return text


def test_prepared(check: Check, what: str) -> Prepared:
    """A morale test before its die: the number needed and the chance to pass."""
    passing = {"réussi (passed)": check.odds.get(1, Fraction(0)), "raté (failed)": check.odds.get(0, Fraction(0))}
    return Prepared(what, needed(check), check.expression, (("Test", passing),), check.notes)


def step_test_prepared(check: Check) -> Prepared:
    """A morale test of the charge sequence, named by the card's line for its step."""
    printed = get_table(RULESET, "sequence_of_play").lookup(step=check.step).text
    return test_prepared(check, f"{printed} (step {check.step})")


class Given:
    """The dice service as the procedures' roll_* functions call it, giving back the
    dice the tabletop already rolled (or the umpire typed) for this resolution."""

    def __init__(self, record: DiceRecord) -> None:
        self.record = record

    def roll(self, dice: str, purpose: str, modifiers: Sequence[object] = (), *,
             entered: Sequence[int] | None = None, by: str = "umpire") -> DiceRecord:
        if dice != self.record.dice:
            raise RulesError(f"the dice rolled were {self.record.dice}, the card needs {dice}")
        return self.record


def words(result: Result) -> str:
    return f"{result.text} ({result.english})"


def factor_ticks(check: str, ticked: frozenset[str], excluded: Mapping[str, str]) -> list[Tick]:
    """The card's factors for a check that are ticked (not derived), French with English."""
    return [Tick(f.id, f"{f.value:+d} {f.label}", checked=f.id in ticked and f.id not in excluded,
                 excluded=excluded.get(f.id))
            for f in factors(check) if not f.derived]


def arm_excluded(check: str, unit: Unit) -> dict[str, str]:
    """Factors the card limits to other arms or kinds of cavalry than this UC's."""
    kind = unit.attr("kind", NONE)
    out = {}
    for f in factors(check):
        if f.arms and unit.arm not in f.arms:
            out[f.id] = f"the card counts it for {' or '.join(f.arms)}, not {unit.arm}"
        elif f.kinds and kind not in f.kinds:
            out[f.id] = f"the card counts it for {' or '.join(f.kinds)}, not {kind}"
    return out

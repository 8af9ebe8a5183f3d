"""The combat table: hits and the class of the unit hit give its result, and the
result applied to the stands of the hex (the last-stand rule, the command stand).

>>> from rules.kallistra_acw.data import Stands
>>> result = combat_result(4, Stands("infantry", "regular", count=4))
>>> result.text
'1 stand lost, Recoil, Disrupted'
>>> after = apply_combat(result, Stands("infantry", "regular", count=4))
>>> after.stands_left, after.recoil, after.disrupted
(3, True, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from math import lcm

from rules.errors import RulesError
from rules.kallistra_acw.data import (
    RULESET,
    Stands,
    check_stands,
    options,
    spelling,
    whole,
)
from rules.loader import get_table

__all__ = [
    "UMPIRE_DECIDES",
    "AfterCombat",
    "CombatResult",
    "add_hits_odds",
    "apply_combat",
    "combat_column",
    "combat_odds",
    "combat_result",
    "hits_to_read",
]

TABLE = "combat"
NO_EFFECT = "No effect"
UMPIRE_DECIDES = "umpire decides"  # in odds: more hits than the table prints, under ask_umpire
_LOST = re.compile(r"(\d+) stands? lost")


@dataclass(frozen=True)
class CombatResult:
    """One reading of the combat table, as printed and as effects."""

    hits: int
    column: str  # the class column as printed
    row: int | None  # the hits row read; None when there was no hit
    text: str  # the result as printed

    @property
    def stands_lost(self) -> int:
        m = _LOST.search(self.text)
        return int(m[1]) if m else 0

    @property
    def eliminated(self) -> bool:
        return "eliminated" in self.text.lower()

    @property
    def recoil(self) -> bool:
        return "recoil" in self.text.lower()

    @property
    def rout(self) -> bool:
        return "route" in self.text.lower()

    @property
    def disrupted(self) -> bool:
        return "disrupted" in self.text.lower()


@dataclass(frozen=True)
class AfterCombat:
    """The hex once a combat result is applied to its stands."""

    result: CombatResult
    stands_before: int
    stands_left: int
    last_stand_removed: bool  # the card's last-stand rule took the one stand left
    recoil: bool  # move one hex away from the attackers, still facing them
    rout: bool  # rout (table rout): roll its distance with rules.kallistra_acw.moves
    disrupted: bool
    attackers_occupy: bool  # the charged unit left its hex in hand to hand: the attackers occupy it

    @property
    def eliminated(self) -> bool:
        return self.stands_left == 0

    @property
    def stands_lost(self) -> int:
        return self.stands_before - self.stands_left

    @property
    def command_stand_lost(self) -> bool:
        """The regiment's command stand is always the last removed: for a regiment
        in one hex it goes with the hex's last stand.  A regiment extended over
        several hexes keeps it until its last stand anywhere (the caller's count)."""
        return self.eliminated

    @property
    def text(self) -> str:
        if self.eliminated:
            return "Eliminated" + (" (last stand in the hex)" if self.last_stand_removed else "")
        words = []
        if self.stands_lost:
            words.append(f"{self.stands_lost} stand{'s' if self.stands_lost > 1 else ''} lost")
        words += [w for w, on in (("Recoil", self.recoil), ("Route", self.rout), ("Disrupted", self.disrupted)) if on]
        return ", ".join(words) or NO_EFFECT


def combat_column(unit: Stands, overrides: Mapping[str, str] | None = None) -> str:
    """The class value of the combat table the unit reads."""
    chosen = options(overrides)
    if unit.arm == "artillery":
        return "artillery"
    if unit.mounted_cavalry or (unit.arm == "cavalry" and chosen["dismounted_cavalry_combat"] == "cavalry_column"):
        return "cavalry"
    return spelling(unit.quality, TABLE)


def _row(hits: int, chosen: Mapping[str, str]) -> int:
    table = get_table(RULESET, TABLE)
    last = max(v for v in table.rows.values() if isinstance(v, int))
    if hits <= last:
        return hits
    if chosen["hits_beyond_table"] == "eighth_row":
        return last
    raise RulesError(f"the combat table stops at {last} hits; the umpire decides what {hits} hits do")


def combat_result(hits: int, unit: Stands, overrides: Mapping[str, str] | None = None) -> CombatResult:
    """The result of `hits` on the unit, in the card's words; no hit is no effect."""
    chosen = options(overrides)
    check_stands(unit, chosen)
    whole("the number of hits", hits, 0)
    table = get_table(RULESET, TABLE)
    value = combat_column(unit, chosen)
    assert table.columns is not None
    column = table.columns.bands[table.columns.index_of(value)].label
    if hits == 0:
        return CombatResult(0, column, None, NO_EFFECT)
    row = _row(hits, chosen)
    return CombatResult(hits, column, row, table.lookup(hits=row, **{"class": value}).text)


def combat_odds(hits_odds: Mapping[int, Fraction], unit: Stands,
                overrides: Mapping[str, str] | None = None) -> dict[str, Fraction]:
    """The exact chance of each printed result, from the chance of each number of hits."""
    chosen = options(overrides)
    out: dict[str, Fraction] = {}
    for hits, chance in hits_odds.items():
        try:
            text = combat_result(hits, unit, chosen).text
        except RulesError:
            if hits <= 0:
                raise
            text = UMPIRE_DECIDES
        out[text] = out.get(text, Fraction(0)) + chance
    return out


def add_hits_odds(*odds: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """The exact chance of each total of hits of several independent rolls (icepool)."""
    import icepool

    if not odds:
        return {0: Fraction(1)}
    dice = []
    for dist in odds:
        denominator = lcm(*(p.denominator for p in dist.values()))
        dice.append(icepool.Die({h: int(p * denominator) for h, p in dist.items() if p}))
    total = reduce(lambda a, b: a + b, dice)
    return {int(o): Fraction(p) for o, p in zip(total.outcomes(), total.probabilities())}


def hits_to_read(hits: Sequence[int], overrides: Mapping[str, str] | None = None) -> list[int]:
    """The numbers of hits to read on the combat table for one hex in one step,
    from each firing unit's hits (option hits_on_one_hex)."""
    chosen = options(overrides)
    counts = [whole("the number of hits", h, 0) for h in hits]
    if chosen["hits_on_one_hex"] == "added":
        return [sum(counts)]
    return counts


def apply_combat(result: CombatResult, unit: Stands, overrides: Mapping[str, str] | None = None,
                 *, charged_in_hand_to_hand: bool = False) -> AfterCombat:
    """The unit's hex after the result: stands lost, the last-stand rule (not for
    artillery), recoil, rout and disruption.  For the charged unit of a hand to
    hand, whether the attackers occupy its hex: 'If a charged unit recoils or is
    forced to flee ... the attacking unit automatically occupies the vacant hex';
    a hex left empty by elimination is read as vacant too."""
    chosen = options(overrides)
    check_stands(unit, chosen)
    left = 0 if result.eliminated else max(0, unit.count - result.stands_lost)
    took_stands = left < unit.count
    last_stand = False
    if left == 1 and unit.arm != "artillery" and (took_stands or chosen["last_stand"] == "any_combat"):
        left, last_stand = 0, True
    alive = left > 0
    moves = alive and (result.recoil or result.rout)
    return AfterCombat(
        result=result,
        stands_before=unit.count,
        stands_left=left,
        last_stand_removed=last_stand,
        recoil=alive and result.recoil,
        rout=alive and result.rout,
        disrupted=alive and result.disrupted,
        attackers_occupy=charged_in_hand_to_hand and (moves or not alive),
    )

"""From which arm each SP a force loses is taken (the rules option loss_allocation).

The card gives losses in SP of the whole force.  Both allocations are a fixed
order of arms, one entry per SP, so the arms left after `n` losses depend on `n`
alone: the battle and its odds only need to count SP lost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from rules.allemagne1813.battle_setup import procedure_data
from rules.allemagne1813.combat import RULESET
from rules.options import resolve_options


def loss_order(sp_by_arm: Mapping[str, int], options: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The arm each successive SP lost comes from, one entry per SP of the force."""
    arms = [a for a in procedure_data().arms if sp_by_arm.get(a, 0) > 0]
    if resolve_options(RULESET, options)["loss_allocation"] == "infantry_first":
        return tuple(arm for arm in arms for _ in range(sp_by_arm[arm]))
    # D'Hondt: the next SP comes from the arm with the most SP per loss already
    # taken from it, sp / (lost + 1); max() keeps the first arm on a tie.
    lost = Counter[str]()
    order: list[str] = []
    for _ in range(sum(sp_by_arm[a] for a in arms)):
        live = [a for a in arms if lost[a] < sp_by_arm[a]]
        best = live[0]
        for arm in live[1:]:
            if sp_by_arm[arm] * (lost[best] + 1) > sp_by_arm[best] * (lost[arm] + 1):
                best = arm
        lost[best] += 1
        order.append(best)
    return tuple(order)


def lost_by_arm(order: tuple[str, ...], lost: int) -> dict[str, int]:
    """SP lost by each arm after the first `lost` SP of `order`."""
    counts = Counter(order[:lost])
    return {arm: counts[arm] for arm in procedure_data().arms if arm in order}


def remaining(sp_by_arm: Mapping[str, int], order: tuple[str, ...], lost: int) -> dict[str, int]:
    """The force's SP by arm after `lost` SP of losses."""
    taken = Counter(order[:lost])
    return {arm: sp - taken[arm] for arm, sp in sp_by_arm.items()}

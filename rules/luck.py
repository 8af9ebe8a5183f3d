"""How lucky a run of dice was: mid-rank percentiles and the p-value of their sum.

A roll's percentile is its mid-rank in the roll's exact distribution,
P(X < x) + P(X = x) / 2, so a roll of 3.5 on 1d6 would be 0.5 and a 6 is 11/12.
Under fair dice a mid-rank percentile averages exactly 1/2 whatever the dice,
which is what lets rolls of different dice be added up.

A side's luck over a run of rolls is the sum T of its rolls' percentiles, each
turned so that high is good for the side.  Its p-value is two-sided:
2 * min(P(T <= t), P(T >= t)), capped at 1.  It is computed exactly by
convolving the rolls' percentile distributions with icepool when the sum's
support is small enough (EXACT), and otherwise by a normal approximation with
the exact mean (n/2) and the exact variance of each roll's percentile (NORMAL).

>>> d6 = roll_distribution("1d6")
>>> mid_rank(d6, 6), mid_rank(d6, 1)
(Fraction(11, 12), Fraction(1, 12))
>>> run_p_value([(d6, 6), (d6, 6)]).p_value   # two sixes: P(T >= 22/12) = 1/36, twice that
Fraction(1, 18)
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.odds import roll_distribution

EXACT = "exact (icepool convolution of the rolls' mid-rank percentiles)"
NORMAL = "normal approximation of the sum of mid-rank percentiles (exact mean and variance)"
# Past this many points of support (rolls x common denominator) the exact sum is
# too slow for a screen: the normal approximation is then very close anyway.
EXACT_SUPPORT_LIMIT = 600

Distribution = Mapping[int, Fraction]


def mid_rank(distribution: Distribution, value: int) -> Fraction:
    """P(X < value) + P(X = value) / 2 in this exact distribution."""
    below = sum((p for v, p in distribution.items() if v < value), Fraction(0))
    return below + distribution.get(value, Fraction(0)) / 2


def expectation(distribution: Mapping[int, Fraction]) -> Fraction:
    return sum((v * p for v, p in distribution.items()), Fraction(0))


def percentile_distribution(distribution: Distribution, favour: int = 1) -> dict[Fraction, Fraction]:
    """The distribution of a roll's percentile, turned by `favour` (-1: low is good)."""
    out: dict[Fraction, Fraction] = {}
    for value, p in distribution.items():
        u = mid_rank(distribution, value)
        u = u if favour >= 0 else 1 - u
        out[u] = out.get(u, Fraction(0)) + p
    return out


@dataclass(frozen=True)
class RunLuck:
    rolls: int
    total: Fraction  # the sum of the turned percentiles
    mean: Fraction  # that sum over the rolls: 1/2 is average luck
    p_value: Fraction | float  # two-sided; a Fraction when exact
    method: str  # EXACT or NORMAL

    @property
    def verdict(self) -> str:
        if self.rolls == 0:
            return "no rolls"
        return "lucky" if self.mean > Fraction(1, 2) else "unlucky" if self.mean < Fraction(1, 2) else "even"


def run_p_value(rolls: Sequence[tuple[Distribution, int]], favours: Sequence[int] | None = None) -> RunLuck:
    """The luck of a run of rolls: each a (distribution, value), turned by `favours`."""
    favours = list(favours) if favours is not None else [1] * len(rolls)
    if not rolls:
        return RunLuck(0, Fraction(0), Fraction(1, 2), Fraction(1), EXACT)
    shapes = [percentile_distribution(d, f) for (d, _), f in zip(rolls, favours)]
    observed = [
        (mid_rank(d, v) if f >= 0 else 1 - mid_rank(d, v)) for (d, v), f in zip(rolls, favours)
    ]
    total = sum(observed, Fraction(0))
    scale = math.lcm(*(u.denominator for shape in shapes for u in shape))
    if len(rolls) * scale <= EXACT_SUPPORT_LIMIT:
        p: Fraction | float = _exact(shapes, total, scale)
        method = EXACT
    else:
        p = _normal(shapes, total)
        method = NORMAL
    return RunLuck(len(rolls), total, total / len(rolls), p, method)


def _exact(shapes: list[dict[Fraction, Fraction]], total: Fraction, scale: int) -> Fraction:
    import icepool

    # Rolls of the same dice and direction share a shape: icepool sums each
    # group at once (count @ die) before the groups are added together.
    groups: dict[tuple[tuple[Fraction, Fraction], ...], int] = {}
    for shape in shapes:
        key = tuple(sorted(shape.items()))
        groups[key] = groups.get(key, 0) + 1
    dice = []
    for key, count in groups.items():
        common = math.lcm(*(p.denominator for _, p in key))
        dice.append(count @ icepool.Die({int(u * scale): int(p * common) for u, p in key}))
    summed = functools.reduce(operator.add, dice)
    t = total * scale
    assert t.denominator == 1  # every percentile is a multiple of 1/scale
    denominator = summed.denominator()
    low = Fraction(summed.quantity("<=", int(t)), denominator)
    high = Fraction(summed.quantity(">=", int(t)), denominator)
    return min(Fraction(1), 2 * min(low, high))


def _normal(shapes: list[dict[Fraction, Fraction]], total: Fraction) -> float:
    mean = sum((expectation_of(s) for s in shapes), Fraction(0))
    variance = sum((expectation_of({u * u: p for u, p in s.items()}) - expectation_of(s) ** 2 for s in shapes), Fraction(0))
    if variance == 0:
        return 1.0
    z = abs(float(total - mean)) / math.sqrt(float(variance))
    return min(1.0, math.erfc(z / math.sqrt(2)))


def expectation_of(shape: Mapping[Fraction, Fraction]) -> Fraction:
    return sum((u * p for u, p in shape.items()), Fraction(0))


def roll_percentile(dice: str, modifier: int, result: int) -> tuple[dict[int, Fraction], Fraction]:
    """A roll's exact distribution and the mid-rank percentile of its result."""
    distribution = roll_distribution(dice, modifier)
    return distribution, mid_rank(distribution, result)

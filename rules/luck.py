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
>>> run_luck([Counted(d6, 6, 1, 2)]) == run_p_value([(d6, 6), (d6, 6)])   # the same, counted
True

Rolls of the same distribution and direction share a percentile distribution,
and rolls of the same value share a percentile: `run_luck` takes each
(distribution, value, favour) once with its count, so that a million dice cost
what their few distinct rolls cost, with the same exact results.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Iterable, Mapping, Sequence
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
    return _mid_rank(_frozen(distribution), value)


def _frozen(distribution: Distribution) -> tuple[tuple[int, Fraction], ...]:
    return tuple(sorted(distribution.items()))


@functools.lru_cache(maxsize=4096)
def _mid_rank(items: tuple[tuple[int, Fraction], ...], value: int) -> Fraction:
    below = sum((p for v, p in items if v < value), Fraction(0))
    return below + sum((p for v, p in items if v == value), Fraction(0)) / 2


def expectation(distribution: Mapping[int, Fraction]) -> Fraction:
    return sum((v * p for v, p in distribution.items()), Fraction(0))


def percentile_distribution(distribution: Distribution, favour: int = 1) -> dict[Fraction, Fraction]:
    """The distribution of a roll's percentile, turned by `favour` (-1: low is good)."""
    return dict(_percentile_distribution(_frozen(distribution), favour >= 0))


@functools.lru_cache(maxsize=1024)
def _percentile_distribution(items: tuple[tuple[int, Fraction], ...], high: bool) -> tuple[tuple[Fraction, Fraction], ...]:
    out: dict[Fraction, Fraction] = {}
    for value, p in items:
        u = _mid_rank(items, value)
        u = u if high else 1 - u
        out[u] = out.get(u, Fraction(0)) + p
    return tuple(sorted(out.items()))


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


@dataclass(frozen=True)
class Counted:
    """`count` rolls of one exact distribution that all gave `value`, turned by `favour`."""

    distribution: Distribution
    value: int
    favour: int = 1
    count: int = 1


def run_p_value(rolls: Sequence[tuple[Distribution, int]], favours: Sequence[int] | None = None) -> RunLuck:
    """The luck of a run of rolls: each a (distribution, value), turned by `favours`."""
    favours = list(favours) if favours is not None else [1] * len(rolls)
    return run_luck(Counted(d, v, f) for (d, v), f in zip(rolls, favours))


def run_luck(counted: Iterable[Counted]) -> RunLuck:
    """The luck of a run of rolls given as counts of each (distribution, value, favour):
    the same exact figures as `run_p_value` on the rolls one by one."""
    # (distribution, favour) -> value -> count; and the distinct shapes with their counts
    groups: dict[tuple[tuple[tuple[int, Fraction], ...], bool], dict[int, int]] = {}
    for c in counted:
        if c.count <= 0:
            continue
        values = groups.setdefault((_frozen(c.distribution), c.favour >= 0), {})
        values[c.value] = values.get(c.value, 0) + c.count
    rolls = sum(n for values in groups.values() for n in values.values())
    if not rolls:
        return RunLuck(0, Fraction(0), Fraction(1, 2), Fraction(1), EXACT)
    shapes: dict[tuple[tuple[Fraction, Fraction], ...], int] = {}
    total = Fraction(0)
    for (items, high), values in groups.items():
        shape = _percentile_distribution(items, high)
        shapes[shape] = shapes.get(shape, 0) + sum(values.values())
        for value, n in values.items():
            u = _mid_rank(items, value)
            total += n * (u if high else 1 - u)
    scale = math.lcm(*(u.denominator for shape in shapes for u, _ in shape))
    if rolls * scale <= EXACT_SUPPORT_LIMIT:
        p: Fraction | float = _exact(shapes, total, scale)
        method = EXACT
    else:
        p = _normal(shapes, total)
        method = NORMAL
    return RunLuck(rolls, total, total / rolls, p, method)


def _exact(shapes: Mapping[tuple[tuple[Fraction, Fraction], ...], int], total: Fraction, scale: int) -> Fraction:
    import icepool

    # Rolls of the same dice and direction share a shape: icepool sums each
    # group at once (count @ die) before the groups are added together.
    dice = []
    for key, count in shapes.items():
        common = math.lcm(*(p.denominator for _, p in key))
        dice.append(count @ icepool.Die({int(u * scale): int(p * common) for u, p in key}))
    summed = functools.reduce(operator.add, dice)
    t = total * scale
    assert t.denominator == 1  # every percentile is a multiple of 1/scale
    denominator = summed.denominator()
    low = Fraction(summed.quantity("<=", int(t)), denominator)
    high = Fraction(summed.quantity(">=", int(t)), denominator)
    return min(Fraction(1), 2 * min(low, high))


def _normal(shapes: Mapping[tuple[tuple[Fraction, Fraction], ...], int], total: Fraction) -> float:
    mean = Fraction(0)
    variance = Fraction(0)
    for shape, count in shapes.items():
        m = expectation_of(dict(shape))
        mean += count * m
        variance += count * (expectation_of({u * u: p for u, p in shape}) - m ** 2)
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

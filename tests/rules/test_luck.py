"""rules.luck counting rolls by (distribution, value, favour) gives exactly what the
rolls give one by one: checked against a reading of the rolls one at a time, written
here as the module computed it before it counted (each roll's own percentile
distribution, its own share of the mean and variance, icepool for the exact sum)."""

from __future__ import annotations

import functools
import math
import operator
import random
from collections import Counter
from fractions import Fraction

import pytest

from rules.luck import EXACT, EXACT_SUPPORT_LIMIT, NORMAL, Counted, RunLuck, run_luck, run_p_value
from rules.odds import roll_distribution

DICE = [("1d6", 0), ("1d6", 2), ("2d6", 0), ("1d10", -1), ("3d6>=5", 0), ("3d10kh1", 1)]


def one_by_one(rolls: list[tuple[dict[int, Fraction], int]], favours: list[int]) -> RunLuck:
    """Each roll's percentile distribution and percentile computed from its own distribution, summed
    roll by roll. (`rank` and `shape` are pure functions of the whole distribution and a value or
    a favour: each is worked out once per call for each such input and looked up after, which
    gives the same fractions at about a third of the CPU on thousands of rolls.)"""
    import icepool

    ranks: dict[tuple[tuple[tuple[int, Fraction], ...], int], Fraction] = {}

    def rank(d: dict[int, Fraction], value: int) -> Fraction:
        key = (tuple(d.items()), value)
        found = ranks.get(key)
        if found is None:
            found = ranks[key] = sum((p for v, p in d.items() if v < value), Fraction(0)) + d.get(value, Fraction(0)) / 2
        return found

    shaped: dict[tuple[tuple[tuple[int, Fraction], ...], bool], dict[Fraction, Fraction]] = {}

    def shape(d: dict[int, Fraction], favour: int) -> dict[Fraction, Fraction]:
        key = (tuple(d.items()), favour >= 0)
        if key in shaped:
            return shaped[key]
        out: dict[Fraction, Fraction] = {}
        for v, p in d.items():
            u = rank(d, v) if favour >= 0 else 1 - rank(d, v)
            out[u] = out.get(u, Fraction(0)) + p
        shaped[key] = out
        return out

    if not rolls:
        return RunLuck(0, Fraction(0), Fraction(1, 2), Fraction(1), EXACT)
    shapes = [shape(d, f) for (d, _), f in zip(rolls, favours)]
    total = sum(((rank(d, v) if f >= 0 else 1 - rank(d, v)) for (d, v), f in zip(rolls, favours)), Fraction(0))
    scale = math.lcm(*(u.denominator for s in shapes for u in s))
    if len(rolls) * scale <= EXACT_SUPPORT_LIMIT:
        dice = [icepool.Die({int(u * scale): int(p * math.lcm(*(q.denominator for q in s.values()))) for u, p in s.items()}) for s in shapes]
        summed = functools.reduce(operator.add, dice)
        t = int(total * scale)
        low = Fraction(summed.quantity("<=", t), summed.denominator())
        high = Fraction(summed.quantity(">=", t), summed.denominator())
        p: Fraction | float = min(Fraction(1), 2 * min(low, high))
        method = EXACT
    else:
        moments: dict[int, tuple[Fraction, Fraction]] = {}  # by the shape's identity: `shaped` holds each shape once
        for s in shapes:
            if id(s) not in moments:
                m = sum((u * q for u, q in s.items()), Fraction(0))
                moments[id(s)] = (m, sum((u * u * q for u, q in s.items()), Fraction(0)) - m**2)
        mean = sum((moments[id(s)][0] for s in shapes), Fraction(0))
        variance = sum((moments[id(s)][1] for s in shapes), Fraction(0))
        p = 1.0 if variance == 0 else min(1.0, math.erfc(abs(float(total - mean)) / math.sqrt(float(variance)) / math.sqrt(2)))
        method = NORMAL
    return RunLuck(len(rolls), total, total / len(rolls), p, method)


def generated(seed: int, n: int, kinds: int) -> tuple[list[tuple[dict[int, Fraction], int]], list[int]]:
    """`n` rolls of up to `kinds` dice, each with a fair result drawn from its own distribution."""
    rng = random.Random(seed)
    chosen = rng.sample(DICE, kinds)
    distributions = {(dice, modifier): roll_distribution(dice, modifier) for dice, modifier in chosen}
    rolls, favours = [], []
    for _ in range(n):
        d = distributions[rng.choice(chosen)]
        value = rng.choices(list(d), weights=[float(p) for p in d.values()])[0]
        rolls.append((d, value))
        favours.append(rng.choice([1, -1]))
    return rolls, favours


@functools.cache
def reference(seed: int, n: int, kinds: int) -> tuple[list[tuple[dict[int, Fraction], int]], list[int], RunLuck]:
    """The rolls `generated` draws and their luck taken one by one: worked out once a worker
    (3,000 rolls take some 2 s of CPU, and two tests read them)."""
    rolls, favours = generated(seed, n, kinds)
    return rolls, favours, one_by_one(rolls, favours)


def counted(rolls: list[tuple[dict[int, Fraction], int]], favours: list[int]) -> list[Counted]:
    tally = Counter((tuple(sorted(d.items())), v, f) for (d, v), f in zip(rolls, favours))
    return [Counted(dict(items), v, f, n) for (items, v, f), n in tally.items()]


@pytest.mark.parametrize("seed, n, kinds", [
    (1, 0, 1), (2, 1, 1), (3, 5, 2), (4, 12, 1), (5, 30, 3),  # exact: small support
    (6, 200, 2), (7, 3000, 4), (8, 5000, 6),  # the normal approximation
])
def test_counted_rolls_give_exactly_what_the_rolls_give_one_by_one(seed, n, kinds):
    rolls, favours, expected = reference(seed, n, kinds)
    got = run_luck(counted(rolls, favours))
    assert got == expected  # Fractions equal, the float p-value bit for bit, the same method
    assert type(got.p_value) is type(expected.p_value)
    assert run_p_value(rolls, favours) == expected


def test_both_methods_are_checked():
    assert {reference(seed, n, k)[2].method for seed, n, k in [(4, 12, 1), (7, 3000, 4)]} == {EXACT, NORMAL}


def test_counts_of_zero_count_nothing_and_duplicates_add_up():
    d6 = roll_distribution("1d6")
    assert run_luck([Counted(d6, 6, 1, 0)]) == run_p_value([])
    assert run_luck([Counted(d6, 6, 1, 2), Counted(d6, 6, 1, 1)]) == run_p_value([(d6, 6)] * 3)

"""The dice service: seeded, recorded, replaceable by dice typed in."""

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import ENTERED, ROLLED, Dice, DiceError, DiceService, Modifier, parse_entered, verify


@pytest.mark.parametrize(
    "expression, count, sides",
    [("d6", 1, 6), ("1d6", 1, 6), ("2d6", 2, 6), ("1d10", 1, 10), ("3d12", 3, 12), ("12d6", 12, 6)],
)
def test_parse_the_dice_the_cards_use(expression, count, sides):
    dice = Dice.parse(expression)
    assert (dice.count, dice.sides) == (count, sides)


@pytest.mark.parametrize("bad", ["", "6", "d", "2x6", "0d6", "1d1", "3d6kh4", "1d6+2"])
def test_bad_expressions_are_refused(bad):
    with pytest.raises(DiceError):
        Dice.parse(bad)


def test_same_seed_same_rolls():
    a, b = DiceService(seed=1813), DiceService(seed=1813)
    rolls_a = [a.roll("2d6", "test").raw for _ in range(50)]
    rolls_b = [b.roll("2d6", "test").raw for _ in range(50)]
    assert rolls_a == rolls_b
    other = DiceService(seed=1814)
    assert rolls_a != [other.roll("2d6", "test").raw for _ in range(50)]


@pytest.mark.parametrize("expression", ["1d6", "2d10"])
def test_seeded_dice_are_fair(expression):
    """Every face of every die of the stream equally likely, and the two dice of
    one roll independent: a chi-square test over 6,000 rolls at p = 1e-6 (the
    battle simulations in test_battle_odds.py draw their dice more cheaply and
    rely on this)."""
    service = DiceService(seed=20261123)
    spec = Dice.parse(expression)
    rolls = [service.roll(spec, "fairness").raw for _ in range(6000)]
    cells = Counter(rolls)  # joint faces: uniform only if each die is fair and they are independent
    expected = len(rolls) / spec.sides**spec.count
    chi2 = sum((cells[face] - expected) ** 2 / expected for face in itertools.product(range(1, spec.sides + 1), repeat=spec.count))
    # Upper 1e-6 points of chi-square with 5 and 99 degrees of freedom.
    assert chi2 < {1: 35.9, 2: 180.8}[spec.count], chi2


def test_stream_continues_after_a_restart():
    """A campaign reopened at next_index goes on with the same dice it would have rolled."""
    whole = DiceService(seed=7)
    expected = [whole.roll("1d10", "x").raw for _ in range(20)]
    first = DiceService(seed=7)
    head = [first.roll("1d10", "x").raw for _ in range(8)]
    resumed = DiceService(seed=7, next_index=first.next_index)
    tail = [resumed.roll("1d10", "x").raw for _ in range(12)]
    assert head + tail == expected


def test_record_holds_purpose_raw_dice_modifiers_and_result():
    records = []
    service = DiceService(seed=3, recorder=records.append)
    record = service.roll("1d6", "combat, round 1", [Modifier("tactical bonus", 2), Modifier("bridge", -2)])
    assert records == [record]
    assert record.purpose == "combat, round 1"
    assert record.dice == "1d6"
    assert len(record.raw) == 1 and 1 <= record.raw[0] <= 6
    assert record.modifier_total == 0
    assert record.result == record.raw[0]
    assert record.mode == ROLLED and record.index == 0


def test_pool_counts_dice_at_least_the_target_after_modifiers():
    dice = Dice.parse("5d12>=9")
    assert dice.read([9, 8, 12, 1, 10], 0) == 3
    assert dice.read([9, 8, 12, 1, 10], 1) == 4


def test_keep_highest_and_lowest():
    assert Dice.parse("3d10kh1").read([3, 9, 5], 0) == 9
    assert Dice.parse("3d10kl2").read([3, 9, 5], 1) == 9


def test_entered_dice_are_checked_against_the_dice():
    service = DiceService(seed=1)
    record = service.roll("2d6", "typed", entered=[6, 1])
    assert record.raw == (6, 1) and record.result == 7 and record.mode == ENTERED
    assert record.index is None and service.next_index == 0  # the stream is untouched
    for bad in ([7, 1], [0, 3], [3]):
        with pytest.raises(DiceError):
            service.roll("2d6", "typed", entered=bad)
    with pytest.raises(DiceError, match="a d6 shows 1 to 6, not 7"):
        service.roll("1d6", "typed", entered=[7])


def test_entered_mode_needs_typed_dice():
    service = DiceService(seed=1, mode=ENTERED)
    with pytest.raises(DiceError, match="rolled on the table"):
        service.roll("1d6", "weather")
    assert service.roll("1d6", "weather", entered=[2]).result == 2


@pytest.mark.parametrize("text, values", [("4", [4]), ("3 5", [3, 5]), (" 3,5 ", [3, 5])])
def test_parse_entered(text, values):
    assert parse_entered(text) == values


@pytest.mark.parametrize("text", ["", "four", "3 x"])
def test_parse_entered_refuses_text(text):
    with pytest.raises(DiceError):
        parse_entered(text)


def test_verify_replays_rolled_dice_and_finds_tampering():
    service = DiceService(seed=99)
    records = [service.roll("1d6", "r") for _ in range(10)]
    records.append(service.roll("1d6", "typed", entered=[6]))
    assert verify(99, records) == []
    forged = records[3].__class__(**{**records[3].__dict__, "raw": (7,)})
    assert verify(99, records[:3] + [forged]) == [forged]
    assert len(verify(98, records)) >= 8  # another seed replays other dice


@given(st.integers(min_value=0, max_value=2**63), st.sampled_from(["1d6", "2d6", "1d10", "3d12"]))
def test_rolled_dice_stay_on_the_dice(seed, expression):
    record = DiceService(seed=seed).roll(expression, "p")
    dice = Dice.parse(expression)
    assert len(record.raw) == dice.count
    assert all(1 <= v <= dice.sides for v in record.raw)


def test_seeded_dice_are_fair_enough():
    service = DiceService(seed=2024)
    counts = Counter(service.roll("1d6", "p").raw[0] for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values())

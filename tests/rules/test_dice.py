"""The dice service: seeded, recorded, replaceable by dice typed in."""

import itertools
import re
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


# -- every refusal of typed dice says what is true of the entry ------------------------------

_TOKENS = ["1", "3", "6", "10", "12", "0", "-1", "-99999", "7", "13", "99999", "0003", "9" * 12, "9" * 13, "9" * 50,
           "x", "four", "3.0", "+3", "1_0", "\u00b2", "\u0663", "\x07", "\x00", "\x7f", "3\x1b[31m", "--2", "-"]


def _typed_corpus():
    """Entries of too few, the right number and too many dice, of every kind of token, for
    dice of one die, several, kept and pooled; joined by spaces, commas and tabs."""
    for expression in ("1d6", "2d6", "1d10", "3d10kh1", "4d12>=9"):
        dice = Dice.parse(expression)
        yield dice, ""
        yield dice, " , \t"
        for count in {1, dice.count - 1, dice.count, dice.count + 1} - {0}:
            for n, token in enumerate(_TOKENS):
                entry = ["1"] * count
                entry[n % count] = token  # one token of each kind, among dice that are right
                for sep in (" ", ",", "\t"):
                    yield dice, sep.join(entry)

def _whole(token):
    return re.fullmatch(r"-?[0-9]+", token) is not None


def test_every_refusal_of_typed_dice_says_what_is_true():
    seen = set()
    for dice, text in _typed_corpus():
        tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
        try:
            dice.check_entered(parse_entered(text))
        except DiceError as exc:
            said = str(exc)
        else:  # taken: the right number of whole numbers, each on the die
            assert len(tokens) == dice.count and all(_whole(t) and 1 <= int(t) <= dice.sides for t in tokens), text
            continue
        assert said.isprintable(), repr(said)  # a control character typed is shown escaped
        if m := re.fullmatch(r"type each die in digits, such as 4 or 3 5, not (.+)", said):
            assert m[1] in {repr(t[:40]) for t in tokens if not _whole(t)}, (text, said)
            kind = "not digits"
        elif m := re.fullmatch(r"no die shows a number of (\d+) digits", said):
            assert all(_whole(t) for t in tokens) and int(m[1]) in {len(t.lstrip("-")) for t in tokens}, (text, said)
            assert int(m[1]) > 12
            kind = "huge"
        elif m := re.fullmatch(r"(\S+) needs (\d+) (die|dice) typed in, not (\d+)", said):
            assert all(_whole(t) for t in tokens), (text, said)
            assert (m[1], int(m[2]), int(m[4])) == (str(dice), dice.count, len(tokens)) != (str(dice), dice.count, dice.count)
            assert m[3] == ("die" if dice.count == 1 else "dice"), said  # "needs 1 die", "needs 2 dice"
            kind = "count"
        elif m := re.fullmatch(r"a d(\d+) shows 1 to (\d+), not (-?\d+)", said):
            assert int(m[1]) == int(m[2]) == dice.sides and len(tokens) == dice.count, (text, said)
            assert m[3] in {str(int(t)) for t in tokens if _whole(t)} and not 1 <= int(m[3]) <= dice.sides, (text, said)
            kind = "range"
        elif said == "type the dice rolled, for example 4 or 3 5":
            assert not tokens
            kind = "empty"
        else:
            raise AssertionError(f"{text!r} is refused with a sentence no rule here checks: {said!r}")
        seen.add(kind)
    assert seen == {"not digits", "huge", "count", "range", "empty"}  # the corpus reaches every refusal


def test_a_typed_die_beyond_its_faces_is_refused_as_such():
    with pytest.raises(DiceError, match=r"^a d6 shows 1 to 6, not 99999$"):
        Dice.parse("1d6").check_entered(parse_entered("99999"))
    with pytest.raises(DiceError, match=r"^1d6 needs 1 die typed in, not 2$"):
        Dice.parse("1d6").check_entered(parse_entered("3 4"))
    with pytest.raises(DiceError, match=r"^2d6 needs 2 dice typed in, not 1$"):
        Dice.parse("2d6").check_entered(parse_entered("3"))

"""Exact odds from icepool: they sum to 1 and agree with a large seeded sample."""

import json
import math
from collections import Counter
from fractions import Fraction

import pytest

from rules import get_table
from rules.dice import DiceService, Modifier
from rules.errors import RulesError
from rules.odds import NEAREST, roll_distribution, table_distribution


@pytest.mark.parametrize("expression", ["1d6", "2d6", "1d10", "3d12", "3d10kh1", "2d10kl1", "6d12>=9"])
@pytest.mark.parametrize("modifier", [-2, 0, 3])
def test_distributions_sum_to_one(expression, modifier):
    assert sum(roll_distribution(expression, modifier).values()) == 1


def test_two_d6_by_hand():
    dist = roll_distribution("2d6")
    assert dist[7] == Fraction(6, 36) and dist[2] == Fraction(1, 36) and dist[12] == Fraction(1, 36)


def test_pool_is_binomial():
    """4 dice hitting on 9+ of a d12: each hits with 4/12 = 1/3."""
    dist = roll_distribution("4d12>=9")
    for k in range(5):
        assert dist[k] == math.comb(4, k) * Fraction(1, 3) ** k * Fraction(2, 3) ** (4 - k)


def _sample(expression, modifier, n, seed):
    service = DiceService(seed=seed)
    mods = [Modifier("m", modifier)] if modifier else []
    return Counter(service.roll(expression, "sample", mods).result for _ in range(n))


@pytest.mark.parametrize("expression, modifier", [("2d6", 1), ("3d10kh1", 0), ("5d12>=8", 1)])
def test_exact_odds_agree_with_a_seeded_sample(expression, modifier):
    n = 20000
    counts = _sample(expression, modifier, n, seed=1813)
    for outcome, p in roll_distribution(expression, modifier).items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(counts[outcome] / n - float(p)) <= 5 * sigma + 1e-9, outcome


def test_table_odds_agree_with_a_seeded_sample():
    table = get_table("allemagne1813", "combat")
    exact = table_distribution(table, 2, sp=35, beyond=NEAREST)
    assert sum(exact.values()) == 1
    service = DiceService(seed=5)
    n = 12000
    seen = Counter()
    for _ in range(n):
        roll = service.roll("1d6", "combat", [Modifier("bonus", 2)]).result
        seen[table.lookup(roll=table.rows.nearest(roll), sp=35).text] += 1
    for text, p in exact.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(seen[text] / n - float(p)) <= 5 * sigma


def test_combat_odds_by_hand():
    """d6+2 in the 30-40 column reads rows 3..8: 1,1,1,2,2,3*."""
    dist = table_distribution(get_table("allemagne1813", "combat"), 2, sp=35)
    assert dist == {"1": Fraction(1, 2), "2": Fraction(1, 3), "3*": Fraction(1, 6)}


def test_rolls_off_the_table_are_an_error_unless_named():
    table = get_table("allemagne1813", "artillery")
    with pytest.raises(RulesError, match="beyond the printed rows"):
        table_distribution(table, -1, ab=5)
    dist = table_distribution(table, -1, ab=5, beyond=NEAREST)
    assert dist == {"-": Fraction(2, 3), "1": Fraction(1, 3)}


def test_open_ends_need_no_option():
    """Weather rows '1 et -' and '6 et +' take any roll."""
    dist = table_distribution(get_table("allemagne1813", "weather"), 1, month=1)
    assert sum(dist.values()) == 1
    assert dist["Snow"] == Fraction(3, 6)  # January +1: a 4, 5 or 6 makes 5, 6 or 7
    assert dist["Rain*"] == Fraction(1, 6) and dist["Clear"] == Fraction(2, 6)


@pytest.mark.parametrize(
    "table_id, column_axis",
    [("combat", "sp"), ("artillery", "ab"), ("pursuit", "cb"), ("reconnaissance", "differential"), ("forced_march", "sp")],
)
def test_every_column_distribution_sums_to_one(table_id, column_axis):
    table = get_table("allemagne1813", table_id)
    for value in table.columns.values():
        for modifier in range(-3, 4):
            dist = table_distribution(table, modifier, beyond=NEAREST, **{column_axis: value})
            assert sum(dist.values()) == 1


@pytest.mark.parametrize(
    "text, dice, modifier, success",
    [("4+", "1d6", 0, Fraction(1, 2)), ("4+", "1d6", 1, Fraction(2, 3)), ("6 or less", "1d6", 1, Fraction(5, 6)),
     ("7+", "1d12", 0, Fraction(1, 2)), ("13+", "1d12", 0, Fraction(0))],
)
def test_target_numbers(text, dice, modifier, success):
    from rules.odds import target_odds

    dist = target_odds(text, dice, modifier)
    assert dist["success"] == success and sum(dist.values()) == 1


def test_a_result_is_not_a_target():
    from rules.odds import target_odds

    with pytest.raises(RulesError, match="not a target number"):
        target_odds("Rout", "1d6")


def test_a_bare_number_is_met_as_its_table_says():
    from rules.odds import target_odds

    # Kallistra's response to charge: "a score greater than shown": a Regular 3 stands on 4, 5, 6
    assert target_odds("3", "1d6", bare="more_than")["success"] == Fraction(1, 2)
    assert target_odds("3", "1d6", bare="at_least")["success"] == Fraction(2, 3)
    assert target_odds("3", "1d6", bare="at_most")["success"] == Fraction(1, 2)
    with pytest.raises(RulesError, match="not a target number"):
        target_odds("3", "1d6")


def test_the_rules_command_reads_the_response_to_charge_as_the_card_does(capsys):
    from tui.cli import main

    assert main(["rules", "odds", "kallistra_acw", "stand", "class=elite", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dice"] == "1d6" and out["results"][0] == {"text": "success", "probability": "2/3", "float": 2 / 3}


def test_a_distribution_kept_for_the_next_caller_is_not_the_one_handed_out():
    """Distributions are computed once and kept (a forced march asks for 1d6+1 once a unit):
    what one caller does with its dict leaves the next caller's answer as it was."""
    first = roll_distribution("1d6", 1)
    first[7] = Fraction(1)  # a caller's own change
    assert roll_distribution("1d6", 1) == {r: Fraction(1, 6) for r in range(2, 8)}


@pytest.mark.parametrize("sides", [2, 6, 10, 20, 100])
@pytest.mark.parametrize("modifier", [-3, 0, 2])
def test_one_die_is_read_as_icepool_reads_it(sides, modifier):
    # One die is counted without icepool (rules.odds._distribution): the same outcomes, in
    # the same order, with the same exact chances.
    from rules.dice import Dice
    from rules.odds import icepool_die

    die = icepool_die(Dice(1, sides), modifier)
    assert list(roll_distribution(f"1d{sides}", modifier).items()) == [
        (int(o), Fraction(p)) for o, p in zip(die.outcomes(), die.probabilities())
    ]

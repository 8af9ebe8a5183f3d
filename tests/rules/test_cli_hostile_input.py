"""`adjutant rules` given what a careless or hostile hand types: one line on stderr, exit 2, at once."""

import time

import pytest

from rules.dice import Dice, DiceError, parse_entered
from rules.errors import RulesError
from rules.numbers import whole
from tui.cli import main


@pytest.mark.parametrize(
    "args",
    [
        ["lookup", "allemagne1813", "weather", "roll=4", "month=\u00b2"],  # superscript two: isdigit() says yes
        ["lookup", "allemagne1813", "weather", "roll=4", "month=--8"],
        ["lookup", "allemagne1813", "weather", "roll=4", "month=" + "9" * 5000],
        ["lookup", "allemagne1813", "weather", "roll=\u0663", "month=5"],  # Arabic-Indic three: int() reads it
        ["lookup", "allemagne1813", "weather", "roll=1_0", "month=5"],
        ["odds", "allemagne1813", "weather", "month=5", "--dice", "1d1000000000"],
        ["odds", "allemagne1813", "weather", "month=5", "--dice", "1d1001"],
        ["odds", "allemagne1813", "weather", "month=5", "--dice", "200d1000"],
        ["odds", "allemagne1813", "weather", "month=5", "--dice", "20d100kh10"],
        ["odds", "allemagne1813", "weather", "month=5", "--modifier", "\u00b2"],
        ["odds", "allemagne1813", "weather", "month=5", "--modifier", "9" * 40],
        ["lookup", "allemagne1813", "weather", "roll=4", "month=\x1b]0;pwned\x07\x1b[2J\n5"],
        ["lookup", "allemagne1813", "\x1b[2Jweather\nsecond line"],
    ],
)
def test_every_bad_number_or_die_is_one_line_and_exit_two(args, capsys):
    start = time.perf_counter()
    assert main(["rules", *args]) == 2
    assert time.perf_counter() - start < 5
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("adjutant rules: ") and err.count("\n") == 1
    assert not any(ord(c) < 32 and c != "\n" or 0x7F <= ord(c) <= 0x9F for c in err)


def test_a_d1000_is_the_largest_die():
    assert Dice.parse("1d1000").sides == 1000
    with pytest.raises(DiceError, match="2 to 1000 sides"):
        Dice.parse("1d1001")


@pytest.mark.parametrize("typed", ["\u00b2", "\u0663", "1_0", "4 \u00b2", "9" * 50])
def test_typed_dice_are_ascii_digits_of_bounded_length(typed):
    with pytest.raises(DiceError):
        parse_entered(typed)


def test_whole_numbers_are_ascii_digits():
    assert whole("-12", "x") == -12
    for bad in ["\u00b2", "--8", "+3", " 3", "3.0", "", "9" * 10]:
        with pytest.raises(RulesError):
            whole(bad, "x")

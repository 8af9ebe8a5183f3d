"""English in the interface: plural forms, and the card's French headings quoted with their reading."""

import pytest

from campaigns.words import column, plural
from rules.resolver import counted


@pytest.mark.parametrize(
    ("count", "one", "many", "said"),
    [(1, "dummy", "dummies", "1 dummy"), (2, "dummy", "dummies", "2 dummies"), (0, "unit", None, "0 units"), (1, "unit", None, "1 unit")],
)
def test_plural(count, one, many, said):
    assert plural(count, one, many) == said


@pytest.mark.parametrize(("n", "label", "said"), [(1, "stands", "1 stand"), (3, "stands", "3 stands"), (1, "figures", "1 figure"), (1, "EC", "1 EC")])
def test_sizes_lost_are_counted_in_english(n, label, said):
    assert counted(n, label) == said


@pytest.mark.parametrize(
    ("band", "said"),
    [
        ("1 à 2", "'1 à 2' (1 to 2)"),
        ("9 et +", "'9 et +' (9 or more)"),
        ("< 5", "'< 5' (under 5)"),
        ("22-29", "22-29"),  # a heading with no French in it is shown as printed
    ],
)
def test_the_cards_column_headings_are_quoted_with_their_english_reading(band, said):
    assert column(band) == said

"""English in the interface: plural forms, and the card's French headings quoted with their reading."""

import pytest

from campaigns.words import column, plural, sentence
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


def test_a_dice_line_quotes_the_cards_french_column_with_its_english() -> None:
    from campaigns.log import _reading

    line = _reading(7, "pursuit, column 5 à 8", "1d6", [4], [], 4, "rolled", 3, "umpire", False)
    assert "pursuit, column '5 à 8' (5 to 8) 1d6 = 4" in line
    plain = _reading(8, "battle round 1: attacker fire roll, column 22-29", "1d6", [2], [], 2, "rolled", 4, "umpire", False)
    assert "column 22-29 1d6" in plain


def test_a_step_added_to_a_battles_record_of_play_reads_as_words_not_json() -> None:
    from campaigns.changes import _fields

    before = {"rounds": 1, "detail": {"setup": {}, "journal": [{"do": "roll", "raw": [3]}]}}
    after = {"rounds": 2, "detail": {"setup": {}, "journal": [{"do": "roll", "raw": [3]}, {"do": "roll", "raw": [5, 2]}]}}
    shown = list(_fields("battle", before, after, names=None))  # type: ignore[arg-type]  # no reference to name here
    assert ("record of play, step 2", "(none)", "roll: dice 5 2") in shown
    assert not any("{" in new for _label, _old, new in shown)


@pytest.mark.parametrize(
    ("clause", "said"),
    [
        ("there is nothing to undo", "There is nothing to undo."),  # the store's refusal, as the app says it
        ("a d6 shows 1 to 6, not 7", "A d6 shows 1 to 6, not 7."),
        ("4d6 needs 4 dice typed in, not 3", "4d6 needs 4 dice typed in, not 3."),  # a digit first: as it is
        ("'x' is not a dice expression such as 1d6", "'x' is not a dice expression such as 1d6."),
        ("Rebuilding the campaign as it was...", "Rebuilding the campaign as it was..."),
        ("Saved a copy as /tmp/a.campaign", "Saved a copy as /tmp/a.campaign."),
        ("is it?", "Is it?"),
        ("écrit", "Écrit."),
        ("the battle is over (0 SP lost to 0) \n", "The battle is over (0 SP lost to 0)."),
        ("roll first\n  unit: -2", "Roll first\n  unit: -2."),  # several lines: the first starts, the last ends
        ("", ""),
        ("  ", "  "),
    ],
)
def test_a_notice_is_a_sentence(clause, said):
    assert sentence(clause) == said
    assert sentence(said) == said  # said once: a sentence is left as it is

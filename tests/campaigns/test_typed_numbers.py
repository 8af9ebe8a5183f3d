"""Numbers typed in a form or read from a campaign's text: ASCII digits within their kind's range, or one sentence."""

from __future__ import annotations

import pytest

from campaigns.errors import CampaignError, typed_number
from campaigns.story import current_turn_ended
from rules.numbers import EVENT, SEED, STRENGTH, TURN


@pytest.mark.parametrize(("raw", "span", "said"), [
    (str(2**40), STRENGTH, f"'{2**40}' is too large for SP (at most 9999)"),
    ("-1", STRENGTH, "'-1' is too small for SP (at least 0)"),
    ("²", TURN, "'²' is not a whole number: a turn number is 1 to 10000"),
    ("٣", TURN, "'٣' is not a whole number: a turn number is 1 to 10000"),
    ("1_000", TURN, "'1_000' is not a whole number: a turn number is 1 to 10000"),
    ("9" * 5000, EVENT, "'999999999999999999999999999999...' is too large for an event number (at most 2147483647)"),
    ("-" + "9" * 5000, SEED, "'-99999999999999999999999999999...' is too small for a dice seed (at least 0)"),
    ("\x1b[2J", TURN, "'\\x1b[2J' is not a whole number: a turn number is 1 to 10000"),  # shown escaped, never obeyed
])
def test_a_typed_number_beyond_its_kind_is_one_sentence(raw: str, span, said: str) -> None:
    with pytest.raises(CampaignError) as refused:
        typed_number(raw, span)
    assert str(refused.value) == said


def test_a_typed_number_within_its_kind_is_taken_spaces_around_it_dropped() -> None:
    assert typed_number(" 12 ", TURN) == 12 and typed_number("9999", STRENGTH) == 9999
    assert typed_number(str(2**63 - 1), SEED) == 2**63 - 1 and typed_number("2147483647", EVENT) == 2**31 - 1
    assert typed_number("0", STRENGTH, "the attacker's SP lost") == 0
    with pytest.raises(CampaignError, match="too large for the attacker's SP lost"):
        typed_number("10000", STRENGTH, "the attacker's SP lost")


@pytest.mark.parametrize(("description", "turn"), [
    ("End of turn 3: turn 4 begins", 3), ("End of turn ²: turn 4 begins", None), ("End of turn " + "9" * 5000 + ": x", None),
])
def test_the_turn_an_event_ends_is_read_in_ascii_digits_only(description: str, turn: int | None) -> None:
    """An imported history's description is anyone's text: "²" is a digit to str.isdigit, and int() refuses it."""
    assert current_turn_ended(description) == turn

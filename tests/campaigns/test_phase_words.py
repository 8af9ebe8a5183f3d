"""The turn sequence's words against the card: command points are rolled by each army."""

from __future__ import annotations

from campaigns.phases import phase


def test_command_points_are_rolled_by_each_army_as_the_card_says():
    # The card (rules/allemagne1813/tables/command_points.toml): "The player throws 1d6 and adds
    # the CV of the commander-in-chief of that army." The turn screen said "Each side rolls",
    # and the French side has two armies, each rolling its own.
    assert phase("command_points").help == "Each army rolls 1d6 + the CV of its commander-in-chief."

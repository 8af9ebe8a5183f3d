"""Command points: 1d6 + CV of the commander-in-chief, and what actions cost."""

from __future__ import annotations

from rules.dice import DiceRecord, DiceService, Modifier
from rules.loader import get_table

RULESET = "allemagne1813"
ACTIONS = ("activate_cinc", "activate_general", "activate_force", "entrench")


def roll_command_points(
    dice: DiceService, commander: str, command_value: int, *, entered: list[int] | None = None
) -> DiceRecord:
    return dice.roll(
        "1d6",
        "command points",
        [Modifier(f"CV of {commander}", command_value)],
        entered=entered,
    )


def action_cost(action: str, valid_loc: bool) -> int | None:
    """The cost in command points, or None where the card prints '-' (not possible)."""
    cell = get_table(RULESET, "command_points").lookup(action=action, loc="valid" if valid_loc else "none")
    return None if cell.raw.strip() == "-" else cell.number

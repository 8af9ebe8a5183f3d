"""The order-of-battle tree's lines: a name, then the figures kept together on one line."""

from __future__ import annotations

from rich.text import Text

from campaigns import oob_view
from campaigns.oob_view import UnitRow
from tui.widgets.tree_node import label


def unit_label(unit: UnitRow) -> Text:
    if unit.kind == "dummy":
        return label(unit.name, " (DUMMY)")
    flags = "".join(m for m, on in (("F", unit.fatigued), ("E", unit.entrenched), ("O", unit.out_of_command)) if on)
    return label(unit.name, f" {unit.strength_points} SP" + (f" [{flags}]" if flags else ""))


def side_label(side: oob_view.SideEntry) -> Text:
    return label(side.side.name, f" ({side.totals.strength_points} SP)")


def army_label(army: oob_view.ArmyEntry) -> Text:
    return label(army.army.name, f" ({army.totals.strength_points} SP)")


def general_label(entry: oob_view.GeneralEntry) -> Text:
    g = entry.general
    return label(g.name, f" (R{g.rank} CV{g.command_value} TB{g.tactical_bonus})")

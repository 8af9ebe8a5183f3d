"""A checkbox whose state is written, not only coloured: [x] or [ ], so it reads
the same in 256 colours, with NO_COLOR and in a captured pane."""

from __future__ import annotations

from textual.widgets import Checkbox


class TickBox(Checkbox):
    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # a class constant of ToggleButton; here it follows the box's value
        return "x" if self.value else " "

"""A checkbox whose state is written, not only coloured: [x] or [ ], so it reads
the same in 256 colours, with NO_COLOR and in a captured pane."""

from __future__ import annotations

from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Checkbox


class TickBox(Checkbox):
    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # a class constant of ToggleButton; here it follows the box's value
        return "x" if self.value else " "

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # One line, as Textual's toggle buttons, unless styled `text-wrap: wrap` (the ticks
        # modal's long unit names): then as many as the label takes at this width.
        if self.styles.text_wrap != "wrap":
            return 1
        return max(1, Widget.get_content_height(self, container, viewport, width))  # Textual's, as a Static's

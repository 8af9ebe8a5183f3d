"""A table that keeps what it drew while its look stays the same.

Textual restyles every widget of a screen it switches to, and a DataTable then
forgets every line it has drawn:
most of the time of coming back to a screen went into drawing the same lines
again. These forget them only when their styles, or those of their parts
(cursor, header, stripes), really changed, as they do with the theme.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from textual.coordinate import Coordinate
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable

from tui.widgets.cells import Rest, more

_Kept = Any  # a widget with _KeptLook mixed in


class _KeptLook:
    """Mixed in before the widget class (not a widget itself: the widget's CSS
    type names follow the first widget among the bases)."""

    _look: tuple[Style, ...] | None = None
    _restyled = False

    def notify_style_update(self: _Kept) -> None:
        Widget.notify_style_update(self)  # not the widget class's own: it forgets everything
        self._restyled = True
        self.refresh()  # drawn from what is kept, or anew if the look changed

    def render_lines(self: _Kept, crop: Region) -> list[Strip]:
        # The styles of the parts are settled only after notify_style_update: compare them here.
        if self._restyled:
            self._restyled = False
            look = self._current_look()
            if look != self._look:
                if self._look is not None:
                    self._forget_drawing()
                self._look = look
        return super().render_lines(crop)  # type: ignore[misc]  # a mixin: the widget class it is mixed into draws the lines

    def _current_look(self: _Kept) -> tuple[Style, ...]:
        parts = [self.rich_style]
        for name in sorted(self.COMPONENT_CLASSES):
            styles = self.get_component_styles(name)
            parts += [styles.rich_style, styles.partial_rich_style]
        return tuple(parts)

    def _forget_drawing(self) -> None:
        raise NotImplementedError


class KeptTable(_KeptLook, DataTable):
    def _forget_drawing(self) -> None:
        DataTable.notify_style_update(self)  # the table's own: it forgets every line drawn


class PagedTable(KeptTable):
    """A table of many rows (the units of a general, of a stack) filled a screenful at a
    time (cells.fill's `first`), the rest added as it scrolls or its cursor moves toward them."""

    rest: Rest | None = None

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        # Rows are a line or more: as many rows as lines down to a screen below the one in view.
        self._more(int(new_value) + 2 * max(self.size.height, 1))

    def watch_cursor_coordinate(self, old_coordinate: Coordinate, new_coordinate: Coordinate) -> None:
        self._more(new_coordinate.row + 1 + max(self.size.height, 1))
        super().watch_cursor_coordinate(old_coordinate, new_coordinate)

    def action_scroll_bottom(self) -> None:
        self._more(self.row_count + len(self.rest or ()))  # End goes to the last unit listed, not the last added
        super().action_scroll_bottom()

    def _more(self, rows: int) -> None:
        if self.rest and self.row_count < rows:
            more(self, self.rest, rows - self.row_count)

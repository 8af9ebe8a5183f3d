"""A table drawn a line at a time: only the lines in view are ever drawn.

The history list is replaced at every keystroke of its filter. A DataTable
renders each new cell through Rich, measures every row when idle and lays the
screen out again: 15-40 ms a keystroke on a loaded machine, more than the
search itself. This table holds its rows as plain text, wraps only the text
that is longer than its column, and draws a line (a few segments) when the
compositor asks for it, so replacing its rows costs about what a screenful of
string padding costs.

What it keeps of the DataTable it replaces: a header, a row cursor (one row may
be several lines: its last column wraps within the table's width, as
tui.widgets.cells.fill wraps it), zebra stripes, the same keys and the same
look (its parts are styled as the DataTable's).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from campaigns.text import shown
from tui.widgets.cells import MIN_WRAP, SCROLL_BAR, wrapped

PADDING = 1  # cells each side of a column's text, as a DataTable's cell_padding
WRAPPED_KEPT = 4096  # long texts kept wrapped, then forgotten all at once


class LineTable(ScrollView, can_focus=True):
    """Rows of text cells under a header; the last column wraps, the others are as wide as their widest cell."""

    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home,ctrl+home", "first", "First line", show=False),
        Binding("end,ctrl+end", "last", "Last line", show=False),
    ]
    COMPONENT_CLASSES = {
        "line-table--header",
        "line-table--cursor",
        "line-table--even-row",
        "line-table--odd-row",
    }
    # The DataTable's own look (textual/widgets/_data_table.py), part for part.
    DEFAULT_CSS = """
    LineTable {
        background: $surface;
        color: $foreground;
        height: 1fr;
        &:focus {
            background-tint: $foreground 5%;
            & > .line-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .line-table--header {
                background-tint: $foreground 5%;
            }
        }
        &:dark > .line-table--even-row {
            background: $surface-darken-1 40%;
        }
        & > .line-table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .line-table--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .line-table--even-row {
            background: $surface-lighten-1 50%;
        }
        & > .line-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """

    class Highlighted(Message):
        """The cursor moved to another row (or the rows under it changed)."""

        def __init__(self, table: LineTable, row: int) -> None:
            super().__init__()
            self.table = table
            self.row = row

        @property
        def control(self) -> LineTable:
            return self.table

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.headers: tuple[str, ...] = ()
        self._rows: list[tuple[str, ...]] = []
        self._cells: list[tuple[tuple[str, ...], list[str]]] = []  # each row's other cells, and its last in lines
        self._starts: list[int] = [0]  # the first line of each row, then the line after the last
        self.widths: list[int] = []  # of each column's text, padding not counted
        self._laid_at = 0  # the width the rows were wrapped at
        self._wrapped: dict[tuple[str, int], list[str]] = {}  # the lines of a long text at a width
        self.cursor_row = 0
        self._styles: tuple[Style, ...] | None = None
        self._looks: dict[bool, tuple[Style, ...]] = {}

    # -- the rows ----------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self._rows)

    def get_row_at(self, index: int) -> tuple[str, ...]:
        """The cells of a row as given (not wrapped)."""
        return self._rows[index]

    def lines_of(self, index: int) -> list[str]:
        """The lines the last cell of a row is shown in."""
        return self._cells[index][1]

    def set_rows(self, headers: Sequence[str], rows: Sequence[Sequence[object]], *, cursor: int = 0) -> None:
        """Show `rows` (their cells as text, never markup) under `headers`, the cursor on row `cursor`."""
        seen = self._in_view()
        headers, given = tuple(headers), [tuple(shown(c) for c in row) for row in rows]
        if headers != self.headers or given != self._rows or self._width() != self._laid_at:  # else laid out already
            self.headers, self._rows = headers, given
            self._lay_out(self._width())
        self._move(cursor, scroll=True, always=True, repaint=False)
        self._repaint_changes(seen)

    def _in_view(self) -> tuple[object, list[object]]:
        """What the table shows: what every line depends on (its columns and where it
        is scrolled to), then each line in view, as render_line draws it."""
        whole = (self.widths, self.headers, round(self.scroll_x), round(self.scroll_y), self.size.width)
        return whole, [self._line(y) for y in range(1, self.size.height)]

    def _repaint_changes(self, seen: tuple[object, list[object]]) -> None:
        """Draw again only the lines that changed since `seen` (new rows are often the
        same as those shown, or most of them: the next letter of a filter finds the same
        lines), or all of them when the columns or the scrolling changed."""
        whole, lines = self._in_view()
        if whole != seen[0] or not self.size.height:
            self.refresh()
            return
        changed = [Region(0, y, self.size.width, 1) for y, (old, new) in enumerate(zip(seen[1], lines), 1) if old != new]
        if changed:
            self.refresh(*changed)

    def _width(self) -> int:
        return self.size.width or self.app.size.width

    def _lay_out(self, width: int) -> None:
        """Column widths, the last column wrapped within `width`, and where each row starts."""
        self._laid_at = width
        count = len(self.headers)
        widths = [cell_len(h) for h in self.headers]
        for row in self._rows:
            for i in range(count - 1):
                widths[i] = max(widths[i], cell_len(row[i]))
        if count:
            # Every column is padded by one cell each side; the vertical scroll bar may take two.
            others = sum(w + 2 * PADDING for w in widths[:-1])
            widths[-1] = max(MIN_WRAP, widths[-1], width - SCROLL_BAR - others - 2 * PADDING)
        self.widths = widths
        cells: list[tuple[tuple[str, ...], list[str]]] = []
        starts, line = [0], 0
        if len(self._wrapped) > WRAPPED_KEPT:
            self._wrapped.clear()
        for row in self._rows:
            # Only a text longer than its column is wrapped: most lines are not. The next
            # rows given hold most of these again (the next letter of the history's filter).
            key = (row[-1], widths[-1])
            last = [row[-1]] if cell_len(row[-1]) <= widths[-1] else self._wrapped.get(key) or wrapped(*key)
            if len(last) > 1:
                self._wrapped[key] = last
            cells.append((row[:-1], last))
            line += len(last)
            starts.append(line)
        self._cells, self._starts = cells, starts
        self._resize(Size(sum(w + 2 * PADDING for w in widths), 1 + line))

    def _resize(self, size: Size) -> None:
        """Make the rows `size` in all. A new size lays the whole screen out again and draws
        every widget of it (the table's height is its box's, never its rows'), only to
        show or hide a scroll bar: when the bars stay as they are, the table takes its
        size without a layout, and the bar that is shown is told its new proportions."""
        if size == self.virtual_size:
            return
        if not self._bars_stay(size):
            self.virtual_size = size  # a scroll bar comes or goes: the layout places it
            return
        self.set_reactive(LineTable.virtual_size, size)
        if self.show_vertical_scrollbar:
            self.vertical_scrollbar.window_virtual_size = size.height
        if self.show_horizontal_scrollbar:
            self.horizontal_scrollbar.window_virtual_size = size.width
        self.scroll_x, self.scroll_y = self.validate_scroll_x(self.scroll_x), self.validate_scroll_y(self.scroll_y)  # within the rows

    def _bars_stay(self, size: Size) -> bool:
        """Whether the scroll bars shown at `size` are those shown now (as Textual decides
        them for overflow auto: a bar for each way the rows are larger than the box, and
        the other too if the first one's width makes them larger than what is left)."""
        styles = self.styles
        if not self.is_mounted or not self.container_size or (styles.overflow_x, styles.overflow_y) != ("auto", "auto"):
            return False
        width, height = self.container_size
        horizontal, vertical = size.width > width, size.height > height
        if vertical and not horizontal:
            horizontal = size.width > width - styles.scrollbar_size_vertical
        if horizontal and not vertical:
            vertical = size.height > height - styles.scrollbar_size_horizontal
        return (horizontal, vertical) == (self.show_horizontal_scrollbar, self.show_vertical_scrollbar)

    def on_resize(self, _event: events.Resize) -> None:
        if self._rows and self.size.width != self._laid_at:
            self._lay_out(self.size.width)
            self._move(self.cursor_row, scroll=True, always=False)
            self.refresh()

    # -- the cursor ----------------------------------------------------------------

    def move_cursor(self, row: int) -> None:
        self._move(row, scroll=True)

    def _move(self, row: int, *, scroll: bool, always: bool = False, repaint: bool = True) -> None:
        row = max(0, min(row, len(self._rows) - 1))
        moved = row != self.cursor_row
        self.cursor_row = row
        if scroll and self._rows:
            self._scroll_to_cursor()
        if moved and repaint:
            self.refresh()
        if (moved or always) and self._rows:
            self.post_message(self.Highlighted(self, row))

    def _scroll_to_cursor(self) -> None:
        top, bottom = self._starts[self.cursor_row], self._starts[self.cursor_row + 1]
        seen = max(1, self.scrollable_content_region.height - 1)  # lines under the header
        y = round(self.scroll_y)
        if top < y:
            y = top
        elif bottom > y + seen:
            y = max(top, bottom - seen) if bottom - top <= seen else top
        if y != round(self.scroll_y):
            self.scroll_to(y=y, animate=False, immediate=True)

    def action_cursor(self, step: int) -> None:
        self._move(self.cursor_row + step, scroll=True)

    def action_page(self, direction: int) -> None:
        seen = max(1, self.scrollable_content_region.height - 1)
        row, lines = self.cursor_row, 0
        while 0 <= row + direction < len(self._rows) and lines < seen - 1:
            row += direction
            lines += self._starts[row + 1] - self._starts[row]
        self._move(row, scroll=True)

    def action_first(self) -> None:
        self._move(0, scroll=True)

    def action_last(self) -> None:
        self._move(len(self._rows) - 1, scroll=True)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1 or not self._rows:
            return
        line = round(self.scroll_y) + offset.y - 1
        if line < self._starts[-1]:
            self._move(bisect_right(self._starts, line) - 1, scroll=True)

    def on_focus(self) -> None:
        self.refresh()  # the cursor's look follows the focus

    def on_blur(self) -> None:
        self.refresh()

    # -- drawing -------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._looks.clear()  # the theme or the classes changed: read the parts' styles again

    def render_lines(self, crop: Region) -> list[Strip]:
        # Reading the parts' styles costs more than drawing a screenful of lines: kept
        # for each state of the focus (the cursor's look follows it).
        focused = self.has_focus
        if focused not in self._looks:
            self._looks[focused] = self._current_styles()
        self._styles = self._looks[focused]
        return super().render_lines(crop)

    def _current_styles(self) -> tuple[Style, ...]:
        base = self.rich_style
        part = self.get_component_rich_style
        header, cursor = part("line-table--header"), part("line-table--cursor")
        even, odd = base + part("line-table--even-row"), base + part("line-table--odd-row")
        return base, base + header, even, odd, even + cursor, odd + cursor

    def _line(self, y: int) -> tuple[tuple[str, ...], int] | None:
        """The cells line `y` of the table shows under the header, and its look (0 even
        row, 1 odd, 2 and 3 the same under the cursor); None: a blank line under the rows."""
        line = round(self.scroll_y) + y - 1
        if line >= self._starts[-1] or not self._rows:
            return None
        row = bisect_right(self._starts, line) - 1
        at = line - self._starts[row]
        others, last = self._cells[row]
        return (*(others if at == 0 else ("",) * len(others)), last[at]), row % 2 + 2 * (row == self.cursor_row)

    def render_line(self, y: int) -> Strip:
        base, header, even, odd, even_cursor, odd_cursor = self._styles or self._current_styles()
        width = self.size.width
        scroll_x = round(self.scroll_x)
        if y == 0:
            cells, style = self.headers, header
        else:
            shows = self._line(y)
            if shows is None:
                return Strip.blank(width, base)
            cells, look = shows
            style = (even, odd, even_cursor, odd_cursor)[look]
        text = "".join(" " * PADDING + c + " " * (w - cell_len(c) + PADDING) for c, w in zip(cells, self.widths))
        strip = Strip([Segment(text, style)], cell_len(text))
        if scroll_x:
            strip = strip.crop(scroll_x, scroll_x + width)
        return strip.adjust_cell_length(width, base)

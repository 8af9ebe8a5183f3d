"""Forces listed by place, then general, each row marked `[x]` or `[ ]` in text.

    [-] Weimar: Marshal Ney (III Corps), 24 SP
      [x] Marshal Ney (III Corps)
        [x] Souham's division  infantry 6 SP
        [ ] Marchand's division  infantry 4 SP

Space marks the row under the cursor (a place or a general marks all it holds;
`[-]` when some of it is marked); `s` marks the whole stack the cursor is in.
The marks are written, not only coloured, so NO_COLOR and a captured pane show
them, and they live in the widget's own set: each key changes it once, however
fast the keys come. When the list takes the focus its cursor is on a row.
"""

from __future__ import annotations

import textwrap
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from campaigns.forces import Force, Stack
from campaigns.listed import Listing
from campaigns.text import one_line


NBSP = "\u00a0"  # joins the words of a row's figures: a wrap never parts them
MIN_LABEL = 12  # narrower than this beside the box, a row is left to the list's own wrapping
BOX = 3  # cells of "[x]"


def _together(figures: str) -> str:
    return figures.replace(" ", NBSP)


@dataclass(frozen=True)
class _Row:
    depth: int  # 0 place, 1 general, 2 unit
    label: str
    forces: tuple[str, ...]  # the unit ids this row marks
    stack: int  # index of its stack
    cells: int  # the label's width

    @property
    def indent(self) -> int:
        return 2 * self.depth


def _width_of(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


def _row(depth: int, label: str, forces: tuple[str, ...], stack: int) -> _Row:
    label = one_line(label)  # names from a file: no control characters or line breaks reach the terminal
    return _Row(depth, label, forces, stack, _width_of(label.replace(NBSP, " ")))


def _wrap(row: _Row, width: int) -> list[str]:
    """The row's prompt in lines of `width` cells, its box left as "[x]": a long name goes
    on under itself, past its box and indent, and its figures ("infantry 7 SP") never part."""
    prompt = f"{' ' * row.indent}[x] {row.label}"
    indent = row.indent + BOX + 1
    if width <= indent + MIN_LABEL:  # too narrow to indent: plain lines
        return [line.replace(NBSP, " ") for line in textwrap.wrap(prompt, max(width, 1))] or [prompt]
    lines = textwrap.wrap(prompt, width, subsequent_indent=" " * indent, break_on_hyphens=False, drop_whitespace=True)
    # The leading indent of the first line is kept: textwrap drops only the spaces it wraps at.
    lines[0] = " " * row.indent + lines[0].lstrip(" ")
    return [line.replace(NBSP, " ") for line in lines]


Rows = list[_Row]  # a list's rows, as rows_of makes them


def rows_of(stacks: Iterable[Stack]) -> Rows:
    """Each place, general and unit of `stacks` as a row of the list."""
    rows: Rows = []
    for number, stack in enumerate(stacks):
        sp = sum(f.strength_points for f in stack.forces if not f.dummy)
        rows.append(_row(0, f"{stack.place}: {stack.leader}, {_together(f'{sp} SP')}", tuple(f.id for f in stack.forces), number))
        for command in stack.commands:
            rows.append(_row(1, command.general_name, tuple(f.id for f in command.forces), number))
            rows += [_row(2, f"{f.name}  {_together(f.short())}", (f.id,), number) for f in command.forces]
    return rows


def _unit_label(force: Force) -> str:
    return f"{force.name}  {_together(force.short())}"


class ListedRows:
    """The rows of a campaigns.listed.Listing: its places and generals made rows at once,
    a unit's row when it is asked for (read a page at a time). Built in a worker, with
    its lines counted at the list's width there (lay_out); a width it was not counted
    at is counted on the UI thread, reading only the generals whose longest row could wrap."""

    def __init__(self, listing: Listing) -> None:
        self.listing = listing
        self.heads: list[_Row] = []  # the place and general rows
        self.head_at: list[int] = []  # the index of each of them among all rows
        self.command_of: list[tuple[int, int]] = []  # each head's (stack, command); command -1: the place
        index = 0
        for st in listing.stacks:
            label = f"{st.place}: {st.leader}, {_together(f'{st.strength_points} SP')}"
            self._head(_row(0, label, (), st.number), index, (st.number, -1))
            index += 1
            for number, command in enumerate(st.commands):
                self._head(_row(1, command.general_name, (), st.number), index, (st.number, number))
                index += 1 + command.units
        self.count = index
        self._laid: dict[int, tuple[list[int], dict[int, list[str]]]] = {}

    def _head(self, row: _Row, index: int, where: tuple[int, int]) -> None:
        self.heads.append(row)
        self.head_at.append(index)
        self.command_of.append(where)

    def __len__(self) -> int:
        return self.count

    def find(self, index: int) -> tuple[int, int]:
        """The head at or before row `index`, and the row's offset past it."""
        head = bisect_right(self.head_at, index) - 1
        return head, index - self.head_at[head]

    def __getitem__(self, index: int) -> _Row:
        head, offset = self.find(index)
        if offset == 0:
            return self.heads[head]
        stack, command = self.command_of[head]
        force = self.listing.unit(stack, command, offset - 1)
        return _row(2, _unit_label(force), (force.id,), stack)

    def forces(self, index: int) -> tuple[str, ...]:
        head, offset = self.find(index)
        stack, command = self.command_of[head]
        if offset:
            return self[index].forces
        return self.listing.ids(stack, None if command < 0 else command)

    def lay_out(self, width: int) -> tuple[list[int], dict[int, list[str]]]:
        """The first line of each row (then the line after the last), and the lines of
        the rows that wrap, at `width`: a general's units are read only when his longest
        row might not fit (campaigns.listed.Command.longest)."""
        if width in self._laid:
            return self._laid[width]
        starts, line = [0], 0
        wrapped: dict[int, list[str]] = {}
        room = width - (2 * 2 + BOX + 1)  # a unit row's cells, past its indent and box
        if width:  # the generals whose longest row might not fit: their units read at once
            self.listing.read_whole([
                (st.number, number) for st in self.listing.stacks for number, command in enumerate(st.commands)
                if command.longest * (1 if command.ascii else 2) > room
            ])
        for head, row in enumerate(self.heads):
            index = self.head_at[head]
            line = _place(row, index, width, starts, wrapped, line)
            stack, number = self.command_of[head]
            if number < 0:
                continue
            command = self.listing.stacks[stack].commands[number]
            if not width or command.longest * (1 if command.ascii else 2) <= room:
                starts.extend(range(line + 1, line + command.units + 1))  # every row a line
                line += command.units
                continue
            for offset, force in enumerate(self.listing.units(stack, number)):
                line = _place(_row(2, _unit_label(force), (force.id,), stack), index + 1 + offset, width, starts, wrapped, line)
        self._laid = {width: (starts, wrapped)}
        return starts, wrapped

    def marked_in(self, marked: set[str]) -> dict[tuple[int, int], int]:
        """How many of `marked` each (stack, command) holds; a stack's total under (stack, -1)."""
        counts: dict[tuple[int, int], int] = {}
        for stack, command in self.listing.where(marked).values():
            counts[(stack, command)] = counts.get((stack, command), 0) + 1
            counts[(stack, -1)] = counts.get((stack, -1), 0) + 1
        return counts


def _place(row: _Row, index: int, width: int, starts: list[int], wrapped: dict[int, list[str]], line: int) -> int:
    """Row `index` laid after `line`: its lines counted, its text kept if it wraps."""
    if width and row.indent + BOX + 1 + row.cells > width:
        wrapped[index] = _wrap(row, width)
        line += len(wrapped[index])
    else:
        line += 1
    starts.append(line)
    return line


def listed_rows(listing: Listing, width: int = 0, lines: int = 0) -> ListedRows:
    """A listing's rows for MarkList.set_listing, laid out at `width` (in a worker), the
    units of its first `lines` rows read there too: the first drawing reads nothing."""
    rows = ListedRows(listing)
    if width:
        rows.lay_out(width)
    for index in range(min(lines, len(rows))):
        rows[index]
    return rows


class MarkList(ScrollView, can_focus=True):
    """The rows of forces, drawn a line at a time: a side of 50,000 units is listed,
    measured and marked without drawing more than the lines in view. Only a row longer
    than the list is wide is wrapped (when laid out at a width); each row's box is
    written when its line is drawn, from the marks."""

    BINDINGS = [
        Binding("space", "mark", "Mark", id="marks.mark", tooltip="Mark or unmark the force, general or place under the cursor"),
        Binding("s", "mark_stack", "Mark stack", id="marks.stack", tooltip="Mark or unmark the whole stack at the cursor's place"),
        Binding("enter", "mark", "Mark", show=False),
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
    ]
    COMPONENT_CLASSES = {"mark-list--row", "mark-list--cursor"}
    # The OptionList's look (textual/widgets/_option_list.py), part for part, without its
    # frame: two lines more of forces at 80x24; the focused list shows its cursor row.
    # As tall as its rows: in a scrolling form the form scrolls (scroll_to_highlight), one
    # scroll bar; a screen that gives the list a height has it scroll itself. Textual's CSS
    # has no `max-height: none`: a bound no list reaches stands for it.
    DEFAULT_CSS = """
    MarkList {
        height: auto;
        max-height: 10000;
        color: $foreground;
        overflow-x: hidden;
        border: none;
        padding: 0;
        background: $surface;
        & > .mark-list--cursor {
            color: $foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            background-tint: $foreground 5%;
            & > .mark-list--cursor {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """

    class Changed(Message):
        """The marks changed."""

        def __init__(self, marks: MarkList) -> None:
            super().__init__()
            self.marks = marks

        @property
        def control(self) -> MarkList:
            return self.marks

    def __init__(self, stacks: Iterable[Stack] = (), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._marked: set[str] = set()
        self._counts: dict[tuple[int, int], int] | None = None  # marks by stack and general (a listing's)
        self.stacks: list = []  # campaigns.forces.Stack, or campaigns.listed.Stack (set_listing)
        self._rows: list[_Row] | ListedRows = []
        self._listed: ListedRows | None = None
        self._highlighted: int | None = None
        self._laid_at = -1  # the width the rows were measured at
        self._starts: list[int] = [0]  # the first line of each row, then the line after the last
        self._wrapped: dict[int, list[str]] = {}  # the rows that take more than a line, by index
        self._looks: dict[bool, tuple[Style, Style]] = {}
        self.set_stacks(stacks)

    # -- what is listed -------------------------------------------------------

    @property
    def marked(self) -> set[str]:
        """The unit ids marked."""
        return self._marked

    @marked.setter
    def marked(self, ids: set[str]) -> None:
        self._marked = ids
        self._counts = None

    def set_stacks(self, stacks: Iterable[Stack], *, keep: Iterable[str] = (), rows: Rows | None = None) -> None:
        """List these stacks; marks on forces still listed are kept. `rows`: their rows,
        made with rows_of beforehand (in a worker: a side of 50,000 units takes a while)."""
        self.stacks = list(stacks)
        rows = rows_of(self.stacks) if rows is None else rows
        listed = {row.forces[0] for row in rows if row.depth == 2}
        self.marked = (self.marked | set(keep)) & listed
        self._listed = None
        self._show_rows(rows)

    @property
    def listed(self) -> ListedRows | None:
        """The rows of the listing shown (set_listing), or None."""
        return self._listed

    @property
    def line_width(self) -> int:
        """The cells a row may take (0 before the list is laid out)."""
        return self._width

    def set_listing(self, rows: ListedRows, *, keep: Iterable[str] = ()) -> None:
        """List a campaigns.listed.Listing, as listed_rows made its rows (in a worker):
        only the rows in view are read. Marks on forces still listed are kept."""
        self.stacks = rows.listing.stacks
        self.marked = set(rows.listing.where(self.marked | set(keep)))
        self._listed = rows
        self._show_rows(rows)

    def _show_rows(self, rows: list[_Row] | ListedRows) -> None:
        self._rows = rows
        if self._highlighted is not None:
            self._highlighted = min(self._highlighted, len(rows) - 1) if rows else None
        self._lay_out(self._laid_at if self._laid_at >= 0 else self._width)
        self.refresh(layout=True)  # as tall as its rows
        self.scroll_to_highlight()

    @property
    def selected(self) -> list[str]:
        """The marked unit ids, in the order listed."""
        if isinstance(self._rows, ListedRows):
            return self._rows.listing.in_order(self.marked)
        return [row.forces[0] for row in self._rows if row.depth == 2 and row.forces[0] in self.marked]

    def _forces(self, index: int) -> tuple[str, ...]:
        """The unit ids row `index` marks."""
        return self._rows[index].forces if self._listed is None else self._listed.forces(index)

    def _box(self, index: int, row: _Row) -> str:
        if self._listed is not None and row.depth < 2:
            # A place or general of a listing: its marks counted, its ids not read.
            if self._counts is None:
                self._counts = self._listed.marked_in(self.marked)
            head, _ = self._listed.find(index)
            stack, command = self._listed.command_of[head]
            st = self._listed.listing.stacks[stack]
            size = sum(c.units for c in st.commands) if command < 0 else st.commands[command].units
            marked = self._counts.get((stack, command), 0)
            return "[x]" if size and marked == size else "[-]" if marked else "[ ]"
        marked = sum(1 for f in row.forces if f in self.marked)
        return "[x]" if row.forces and marked == len(row.forces) else "[-]" if marked else "[ ]"

    def _prompt(self, row: _Row) -> str:
        """A row of stacks (set_stacks) as one line, before wrapping."""
        marked = sum(1 for f in row.forces if f in self.marked)
        box = "[x]" if row.forces and marked == len(row.forces) else "[-]" if marked else "[ ]"
        return f"{' ' * row.indent}{box} {row.label}"

    def lines_of(self, index: int) -> list[str]:
        """The lines row `index` is shown in, as wrapped at the list's width."""
        row = self._rows[index]
        box = self._box(index, row)
        lines = self._wrapped.get(index) or [f"{' ' * row.indent}{box} {row.label}".replace(NBSP, " ")]
        first = lines[0]
        return [first[: row.indent] + box + first[row.indent + BOX :], *lines[1:]]

    # -- measuring: every row's height, the text only of those that wrap -------------

    @property
    def _width(self) -> int:
        # Cells a row may take: the list's content less a scroll bar's room, kept free
        # whether or not it shows so a bar appearing does not re-wrap every row.
        return max(0, self.size.width - self.styles.scrollbar_size_vertical) if self.size.width else 0

    def _lay_out(self, width: int) -> None:
        self._laid_at = width
        if isinstance(self._rows, ListedRows):
            self._starts, self._wrapped = self._rows.lay_out(width)
            self.virtual_size = Size(width, self._starts[-1])
            return
        starts, line = [0], 0
        wrapped: dict[int, list[str]] = {}
        for index, row in enumerate(self._rows):  # most rows fit: only their length is counted
            line = _place(row, index, width, starts, wrapped, line)
        self._starts, self._wrapped = starts, wrapped
        self.virtual_size = Size(width, line)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        wrap_at = max(0, width - self.styles.scrollbar_size_vertical)
        if wrap_at != self._laid_at:
            self._lay_out(wrap_at)
        return self._starts[-1]

    def on_resize(self) -> None:
        if self._width and self._laid_at != self._width:
            self._lay_out(self._width)
            self.refresh(layout=True)  # as tall as its rows, now wrapped anew
            self.scroll_to_highlight()

    # -- the cursor -------------------------------------------------------------

    @property
    def highlighted(self) -> int | None:
        """The row under the cursor (None before the list has had the focus)."""
        return self._highlighted

    @highlighted.setter
    def highlighted(self, row: int | None) -> None:
        row = None if row is None or not self._rows else max(0, min(row, len(self._rows) - 1))
        if row != self._highlighted:
            self._highlighted = row
            self.refresh()
        self.scroll_to_highlight()

    def scroll_to_highlight(self, top: bool = False) -> None:
        """The row under the cursor in view; a list as tall as its rows, in a
        scrolling form (the battle set-up), has the form scroll to it instead: one
        scroll bar, not the list's beside the form's."""
        if self._highlighted is None or not self.is_mounted:
            return
        y = self._starts[self._highlighted]
        height = self._starts[self._highlighted + 1] - y
        self.scroll_to_region(Region(0, y, self.scrollable_content_region.width, height), force=True, animate=False, top=top, immediate=True)
        if self.max_scroll_y or not isinstance(self.parent, ScrollableContainer):
            return
        focused = self.screen.focused
        if focused is not None and focused is not self:
            # The form is scrolled to what has the focus: a list redrawn beside it (its
            # listing come from its worker while keys moved on) does not take the view away.
            return
        box = self.virtual_region
        self.parent.scroll_to_region(Region(box.x, box.y + y, box.width, height), animate=False)

    def action_cursor(self, step: int) -> None:
        self.highlighted = 0 if self._highlighted is None else self._highlighted + step

    def action_page(self, direction: int) -> None:
        if self._highlighted is None:
            self.highlighted = 0 if direction < 0 else len(self._rows) - 1
            return
        line = self._starts[self._highlighted] + direction * self.scrollable_content_region.height
        line = max(0, min(line, self._starts[-1] - 1))
        self.highlighted = bisect_right(self._starts, line) - 1

    def action_first(self) -> None:
        self.highlighted = 0

    def action_last(self) -> None:
        self.highlighted = len(self._rows) - 1

    def on_show(self) -> None:
        self.scroll_to_highlight()

    def on_focus(self) -> None:
        # The cursor on a row as soon as the list has the focus: the first Space marks.
        if self._highlighted is None and self._rows:
            self.highlighted = 0
        self.refresh()  # the cursor's look follows the focus

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        # A click on a row marks it, as Space does.
        offset = event.get_content_offset(self)
        if offset is None or not self._rows:
            return
        line = round(self.scroll_y) + offset.y
        if line < self._starts[-1]:
            self.highlighted = bisect_right(self._starts, line) - 1
            self.action_mark()

    # -- marking ----------------------------------------------------------------

    def action_mark(self) -> None:
        if self._highlighted is not None and self._rows:
            self._toggle(self._forces(self._highlighted))

    def action_mark_stack(self) -> None:
        if self._highlighted is not None and self._rows:
            stack = self._rows[self._highlighted].stack
            if isinstance(self._rows, ListedRows):
                self._toggle(self._rows.listing.ids(stack))
                return
            self._toggle(next(r.forces for r in self._rows if r.depth == 0 and r.stack == stack))

    def mark(self, forces: Iterable[str], on: bool = True) -> None:
        forces = set(forces)
        self.marked = self.marked | forces if on else self.marked - forces
        self._redraw()

    def clear_marks(self) -> None:
        self.marked = set()
        self._redraw()

    def _toggle(self, forces: tuple[str, ...]) -> None:
        self.mark(forces, on=not all(f in self.marked for f in forces))

    def _redraw(self) -> None:
        self.refresh()  # the boxes in view are written again from the marks
        self.post_message(self.Changed(self))

    # -- drawing -------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._looks.clear()  # the theme or the focus changed: read the parts' styles again

    def _styles(self) -> tuple[Style, Style]:
        focused = self.has_focus
        if focused not in self._looks:
            self._looks[focused] = (
                self.get_visual_style("mark-list--row").rich_style,
                self.get_visual_style("mark-list--row", "mark-list--cursor").rich_style,
            )
        return self._looks[focused]

    def render_line(self, y: int) -> Strip:
        row_style, cursor_style = self._styles()
        width = self.scrollable_content_region.width
        line = round(self.scroll_y) + y
        if line >= self._starts[-1]:
            return Strip.blank(width, row_style)
        index = bisect_right(self._starts, line) - 1
        text = self.lines_of(index)[line - self._starts[index]]
        style = cursor_style if index == self._highlighted else row_style
        # The text, then the rest of the row as a segment of its own, as an OptionList draws it.
        return Strip([Segment(text, style)], _width_of(text)).crop(0, width).extend_cell_length(width, style)


class TickList(OptionList):
    """A few named choices, each `[x]` or `[ ]` in text; Space or Enter ticks the row."""

    BINDINGS = [Binding("space", "tick", "Tick", id="ticks.tick", tooltip="Tick or untick the row under the cursor")]
    DEFAULT_CSS = """
    TickList { height: auto; border: none; padding: 0; }
    TickList:focus { border: none; background-tint: $foreground 5%; }
    """

    class Changed(Message):
        def __init__(self, ticks: TickList) -> None:
            super().__init__()
            self.ticks = ticks

        @property
        def control(self) -> TickList:
            return self.ticks

    def __init__(self, choices: Iterable[tuple[str, str]], *, id: str | None = None) -> None:
        self.choices = list(choices)  # (key, label)
        self.selected: set[str] = set()
        super().__init__(*[Option(Text(self._prompt(k, label)), id=k) for k, label in self.choices], id=id)

    def _prompt(self, key: str, label: str) -> str:
        return f"{'[x]' if key in self.selected else '[ ]'} {label}"

    def on_focus(self) -> None:
        if self.highlighted is None and self.choices:
            self.highlighted = 0

    def select(self, key: str, on: bool = True) -> None:
        was = key in self.selected
        self.selected = self.selected | {key} if on else self.selected - {key}
        if was != on:
            index = next(i for i, (k, _) in enumerate(self.choices) if k == key)
            self.replace_option_prompt_at_index(index, Text(self._prompt(key, self.choices[index][1])))
            self.post_message(self.Changed(self))

    def action_tick(self) -> None:
        if self.highlighted is not None:
            key = self.choices[self.highlighted][0]
            self.select(key, key not in self.selected)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_tick()

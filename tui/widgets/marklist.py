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
from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from campaigns.forces import Stack


NBSP = "\u00a0"  # joins the words of a row's figures: a wrap never parts them
MIN_LABEL = 12  # narrower than this beside the box, a row is left to the list's own wrapping


def _together(figures: str) -> str:
    return figures.replace(" ", NBSP)


@dataclass(frozen=True)
class _Row:
    depth: int  # 0 place, 1 general, 2 unit
    label: str
    forces: tuple[str, ...]  # the unit ids this row marks
    stack: int  # index of its stack


class MarkList(OptionList):
    BINDINGS = [
        Binding("space", "mark", "Mark", id="marks.mark", tooltip="Mark or unmark the force, general or place under the cursor"),
        Binding("s", "mark_stack", "Mark stack", id="marks.stack", tooltip="Mark or unmark the whole stack at the cursor's place"),
    ]
    # No frame: two lines more of forces at 80x24; the focused list shows its cursor row.
    # As tall as its rows: in a scrolling form the form scrolls (scroll_to_highlight), one
    # scroll bar; a screen that gives the list a height has it scroll itself. OptionList caps
    # itself at 100% of its container and Textual's CSS has no `max-height: none`: a bound
    # no list reaches stands for it.
    DEFAULT_CSS = """
    MarkList { height: auto; max-height: 10000; border: none; padding: 0; }
    MarkList:focus { border: none; background-tint: $foreground 5%; }
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
        self.marked: set[str] = set()
        self.stacks: list[Stack] = []
        self._rows: list[_Row] = []
        self._shown: list[str] = []
        self._wrapped_at = 0
        self.set_stacks(stacks)

    # -- what is listed -------------------------------------------------------

    def set_stacks(self, stacks: Iterable[Stack], *, keep: Iterable[str] = ()) -> None:
        """List these stacks; marks on forces still listed are kept."""
        self.stacks = list(stacks)
        rows: list[_Row] = []
        for number, stack in enumerate(self.stacks):
            sp = sum(f.strength_points for f in stack.forces if not f.dummy)
            rows.append(_Row(0, f"{stack.place}: {stack.leader}, {_together(f'{sp} SP')}", tuple(f.id for f in stack.forces), number))
            for command in stack.commands:
                rows.append(_Row(1, command.general_name, tuple(f.id for f in command.forces), number))
                rows += [_Row(2, f"{f.name}  {_together(f.short())}", (f.id,), number) for f in command.forces]
        listed = {f for row in rows for f in row.forces}
        self.marked = (self.marked | set(keep)) & listed
        self._rows = rows
        highlighted = self.highlighted
        self._shown = [self._prompt(row) for row in rows]
        self.clear_options()
        self.add_options([Option(self._text(prompt), id=str(i)) for i, prompt in enumerate(self._shown)])
        if rows:
            self.highlighted = min(highlighted or 0, len(rows) - 1) if highlighted is not None else None

    @property
    def selected(self) -> list[str]:
        """The marked unit ids, in the order listed."""
        seen: list[str] = []
        for row in self._rows:
            if row.depth == 2 and row.forces[0] in self.marked:
                seen.append(row.forces[0])
        return seen

    def _prompt(self, row: _Row) -> str:
        marked = sum(1 for f in row.forces if f in self.marked)
        box = "[x]" if row.forces and marked == len(row.forces) else "[-]" if marked else "[ ]"
        return f"{'  ' * row.depth}{box} {row.label}"

    # -- marking ----------------------------------------------------------------

    def on_focus(self) -> None:
        # The cursor on a row as soon as the list has the focus: the first Space marks.
        if self.highlighted is None and self._rows:
            self.highlighted = 0

    def action_mark(self) -> None:
        if self.highlighted is not None and self._rows:
            self._toggle(self._rows[self.highlighted].forces)

    def action_mark_stack(self) -> None:
        if self.highlighted is not None and self._rows:
            stack = self._rows[self.highlighted].stack
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
        for i, row in enumerate(self._rows):
            prompt = self._prompt(row)
            if prompt != self._shown[i]:
                self._shown[i] = prompt
                self.replace_option_prompt_at_index(i, self._text(prompt))
        self.post_message(self.Changed(self))

    # -- wrapping ---------------------------------------------------------------

    def _text(self, prompt: str) -> Text:
        """The row's prompt in lines of the list's width: a long name goes on under
        itself, past its box and indent, and its figures ("infantry 7 SP") never part."""
        body = prompt.lstrip(" ")
        indent = len(prompt) - len(body) + len("[x] ")
        width = self._width
        if not width or len(prompt) <= width or width <= indent + MIN_LABEL:
            return Text(prompt.replace(NBSP, " "))
        lines = textwrap.wrap(
            prompt, width, subsequent_indent=" " * indent, break_on_hyphens=False, drop_whitespace=True
        )
        # The leading indent of the first line is kept: textwrap drops only the spaces it wraps at.
        lines[0] = " " * (len(prompt) - len(body)) + lines[0].lstrip(" ")
        return Text("\n".join(lines).replace(NBSP, " "))

    @property
    def _width(self) -> int:
        # Cells a row may take: the list's content less a scroll bar's room, kept free
        # whether or not it shows so a bar appearing does not re-wrap every row.
        return max(0, self.size.width - self.styles.scrollbar_size_vertical) if self.size.width else 0

    def on_resize(self) -> None:
        if self._wrapped_at != self._width:
            self._wrapped_at = self._width
            for i, prompt in enumerate(self._shown):
                self.replace_option_prompt_at_index(i, self._text(prompt))
            self.refresh(layout=True)  # as tall as its rows, now wrapped anew

    def scroll_to_highlight(self, top: bool = False) -> None:
        """The row under the cursor in view; a list as tall as its rows, in a
        scrolling form (the battle set-up), has the form scroll to it instead: one
        scroll bar, not the list's beside the form's."""
        super().scroll_to_highlight(top)
        if self.highlighted is None or self.max_scroll_y or not isinstance(self.parent, ScrollableContainer):
            return
        y = sum(len(str(self.get_option_at_index(i).prompt).split("\n")) for i in range(self.highlighted))
        height = len(str(self.get_option_at_index(self.highlighted).prompt).split("\n"))
        box = self.virtual_region
        self.parent.scroll_to_region(Region(box.x, box.y + y, box.width, height), animate=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # Enter (or a click) on a row marks it, as Space does.
        event.stop()
        self.action_mark()


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

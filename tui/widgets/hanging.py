"""Lines of text that go on under themselves when they wrap, for a Static.

A Static wraps a long line back to its first column, so "  1st Young Guard Division
(Dumoustier): -2" reads as "(Dumoustier): -2" at the left edge, a line of its own.
Here an indented line (an item under a heading) goes on `indent` cells deeper than
itself; a line that starts at the edge (a paragraph) goes on flush. The text is
never cut: a word longer than the width is broken, as a Static would.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from tui.widgets.cells import wrapped


class Hanging:
    """`lines`: each a str, a Text (its one style kept on every line it wraps onto: the
    current phase in reverse), or (str, cells) to set where that line goes on, counted
    from its own start: an odds line goes on under its outcome, past the bar."""

    def __init__(self, lines: Iterable[str | Text | tuple[str, int]], indent: int = 2) -> None:
        self.lines: list[tuple[Text, int | None]] = []
        for line in lines:
            if isinstance(line, tuple):
                self.lines.append((Text(line[0]), line[1]))
            else:
                self.lines.append((line if isinstance(line, Text) else Text(line), None))
        self.indent = indent

    def __str__(self) -> str:
        """The lines as given, unwrapped: what a test or a copy reads."""
        return "\n".join(line.plain for line, _ in self.lines)

    def _parts(self, width: int) -> Iterator[tuple[Text, str]]:
        """Each line given and each of the lines it wraps onto at `width`."""
        for line, own in self.lines:
            plain = line.plain
            lead = len(plain) - len(plain.lstrip(" "))
            indent = (own - lead) if own is not None else self.indent if lead else 0
            parts = wrapped(plain, width, indent) if width > lead + indent + 8 else [plain]
            for part in parts or [""]:
                yield line, part

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line, part in self._parts(max(1, options.max_width)):
            # A word wider than the whole width still wraps (folded), never runs off.
            yield Text(part, style=line.style, end="\n", overflow="fold")

    def height(self, width: int) -> int | None:
        """The lines drawn at `width`, counted without drawing them: None where a line is
        wider than that or holds a character not printed as itself (a line break, a tab):
        rich wraps, folds or expands it, and it must be drawn to know."""
        width = max(1, width)
        count = 0
        for _, part in self._parts(width):
            if not part.isprintable() or cell_len(part) > width:
                return None
            count += 1
        return count

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((line.cell_len for line, _ in self.lines), default=0)
        return Measurement(1 if widest else 0, widest).clamp(max_width=options.max_width)

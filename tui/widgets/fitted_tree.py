"""A tree whose lines end at its right edge.

A tree line cannot wrap (each node is one line, and the cursor moves by lines),
and a tree wider than its column scrolls sideways, hiding the figures at the end
of the longest names at 80 columns. A label too long for its depth gives up the
end of its name instead, marked with an ellipsis, and keeps its figures (SP,
ranks, marks); the whole name is in the line the screen shows for the node
under the cursor.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from tui.widgets.kept import KeptTree

FIGURES = "figures"  # the meta key marking the part of a label that is never shortened


def label(name: str, figures: str = "") -> Text:
    """A node's label: `name` may be shortened to fit, `figures` (" 7 SP [F]") never."""
    text = Text(name)
    if figures:
        text.append(figures, Style(meta={FIGURES: True}))
    return text


def fitted(text: Text, room: int) -> Text:
    """`text` in at most `room` cells: the end of the name gives way, the figures stay."""
    if room <= 0 or text.cell_len <= room:
        return text
    start = next(
        (s.start for s in text.spans if isinstance(s.style, Style) and s.style.meta.get(FIGURES)),
        len(text.plain),
    )
    head, tail = text[:start], text[start:]
    keep = room - tail.cell_len - 1
    if keep < 1:  # not even a letter of the name fits beside its figures: the figures give way too
        text = text.copy()
        text.truncate(room, overflow="ellipsis")
        return text
    head.truncate(keep)
    head.rstrip()
    return Text.assemble(head, "…", tail)


class FittedTree(KeptTree):
    """A KeptTree (tui.widgets.kept) whose labels fit its width at every depth."""

    def render_label(self, node, base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        return fitted(text, self._room(node))

    def _room(self, node) -> int:
        depth = 0
        parent = node.parent
        while parent is not None:
            depth += 1
            parent = parent.parent
        if not self.show_root:
            depth -= 1
        # The vertical scroll bar's cells are kept free whether or not it shows, so a
        # line does not change when the tree grows past the screen's height.
        width = self.size.width - self.styles.gutter.width - self.styles.scrollbar_size_vertical
        return width - depth * self.guide_depth if width > 0 else 0

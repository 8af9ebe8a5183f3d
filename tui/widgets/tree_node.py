"""The nodes of a WrappedTree (tui.widgets.wrapped_tree), and how a label wraps.

A node holds a label, optional data and its children; adding, removing, opening,
closing or relabelling one tells its tree to lay its rows out again. A label is
a name, then figures (SP, ranks, marks) that are kept together on one line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.cells import get_character_cell_size
from rich.style import Style
from rich.text import Text

from campaigns.text import shown

if TYPE_CHECKING:
    from tui.widgets.wrapped_tree import WrappedTree

FIGURES = "figures"  # the meta key marking the figures at the end of a label, kept on one line


def label(name: str, figures: str = "") -> Text:
    """A node's label: `name` may wrap at its spaces, `figures` (" 7 SP [F]") stay together.
    The name is a campaign's: `shown` (a bidi control written out, "<U+202E>", before it is laid out)."""
    text = Text(shown(name))
    if figures:
        text.append(figures, Style(meta={FIGURES: True}))
    return text


def as_text(label: str | Text) -> Text:
    # A plain string is taken as it is: names hold brackets ("[F]") that are not markup.
    return label if isinstance(label, Text) else Text(label)


def wrap(text: Text, first: int, rest: int) -> list[Text]:
    """`text` in lines of at most `first` cells, then `rest`: broken at spaces, never
    inside the figures at its end; a word longer than a line is folded."""
    plain = text.plain
    if sum(map(get_character_cell_size, plain)) <= first:
        return [text]
    figures = next(
        (s.start for s in text.spans if isinstance(s.style, Style) and s.style.meta.get(FIGURES)),
        len(plain),
    )
    cuts: list[tuple[int, int]] = []
    start, room = 0, max(1, first)
    while start < len(plain):
        end, used = start, 0
        while end < len(plain) and used + get_character_cell_size(plain[end]) <= room:
            used += get_character_cell_size(plain[end])
            end += 1
        if end == len(plain):
            cuts.append((start, end))
            break
        # The last space that may break the line: within the name, or the one before the figures.
        space = next((i for i in range(end, start, -1) if plain[i] == " " and i <= figures), None)
        if space is None:  # one word longer than the line: folded where the line ends
            cuts.append((start, max(end, start + 1)))
            start = max(end, start + 1)
        else:
            cuts.append((start, space))
            start = space + 1
        room = max(1, rest)
    return [text[a:b] for a, b in cuts]


class Node:
    """One node of a WrappedTree: a label, optional data, children shown when expanded."""

    def __init__(self, tree: WrappedTree, parent: Node | None, label: str | Text, data: Any = None,
                 *, expanded: bool = False, allow_expand: bool = True) -> None:
        self.tree = tree
        self.parent = parent
        self.data = data
        self.allow_expand = allow_expand
        self._label = as_text(label)
        self._children: list[Node] = []
        self._expanded = expanded
        self._wrapped: tuple[tuple[int, int], list[Text]] | None = None  # (first, rest) -> lines
        self._row = -1  # the first row it is drawn on; -1 while hidden
        self._index = -1  # its place among the nodes shown
        self._depth = 0  # levels below the root, as last laid out

    def __repr__(self) -> str:
        return f"Node({self._label.plain!r})"

    @property
    def label(self) -> Text:
        return self._label

    def set_label(self, label: str | Text) -> None:
        self._label = as_text(label)
        self._wrapped = None
        self.tree.relaid()

    @property
    def children(self) -> tuple[Node, ...]:
        return tuple(self._children)

    @property
    def is_expanded(self) -> bool:
        return self._expanded

    @property
    def is_root(self) -> bool:
        return self.parent is None

    @property
    def is_last(self) -> bool:
        return self.parent is None or self.parent._children[-1] is self

    @property
    def line(self) -> int:
        """The first row the node is drawn on, or -1 when it is not shown."""
        self.tree.lay_out()
        return self._row

    def _sibling(self, step: int) -> Node | None:
        if self.parent is None:
            return None
        siblings = self.parent._children
        place = siblings.index(self) + step
        return siblings[place] if 0 <= place < len(siblings) else None

    @property
    def next_sibling(self) -> Node | None:
        return self._sibling(1)

    @property
    def previous_sibling(self) -> Node | None:
        return self._sibling(-1)

    def add(self, label: str | Text, data: Any = None, *, before: int | None = None,
            expand: bool = False, allow_expand: bool = True) -> Node:
        """A new child, last or at index `before`."""
        node = Node(self.tree, self, label, data, expanded=False, allow_expand=allow_expand)
        if before is None:
            self._children.append(node)
        else:
            self._children.insert(before, node)
        if expand:
            node.expand()
        if self._expanded:
            self.tree.relaid()
        return node

    def add_leaf(self, label: str | Text, data: Any = None, *, before: int | None = None) -> Node:
        return self.add(label, data, before=before, allow_expand=False)

    def remove(self) -> None:
        if self.parent is None:
            raise ValueError("the root of a tree cannot be removed")
        self.parent._children.remove(self)
        self.tree.relaid()

    def remove_children(self) -> None:
        self._children.clear()
        self.tree.relaid()

    def expand(self) -> Node:
        if not self._expanded:
            self._expanded = True
            self.tree.relaid()
        # Told every time, as Textual's Tree does: whoever fills a node as it opens fills it once.
        self.tree.node_expanded(self)
        return self

    def expand_all(self) -> Node:
        self.expand()
        for child in self._children:
            child.expand_all()
        return self

    def collapse(self) -> Node:
        if self._expanded:
            self._expanded = False
            self.tree.relaid()
            self.tree.node_collapsed(self)
        return self

    def toggle(self) -> Node:
        return self.collapse() if self._expanded else self.expand()

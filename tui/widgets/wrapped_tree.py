"""A tree whose labels wrap onto as many lines as they need.

Textual's Tree draws each node on one line: at 80 columns the longest names of
the order of battle, five levels deep, were cut. This tree is its own widget over
Textual's Line API (a ScrollView drawing one row at a time), with the same keys,
messages, look (the Tree's component classes) and node methods the order of
battle uses. A label too long for its row goes on under itself, two cells deeper
than its first line, with the guides of the levels above carried down beside it;
the figures at the end of a label (SP, ranks, marks: tui.widgets.tree_node.label)
are kept together on one line. Nothing scrolls sideways.

The cursor moves by nodes, not rows. Nodes are added by the screen as they are
opened (a general's units are read when he is first opened), and the rows are
laid out again only when a node is added, removed, opened, closed or relabelled,
or the width changes; each label's wrapping is kept until its text or its room
changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.widgets.tree_node import Node, wrap

HANG = 2  # cells a label's later lines stand in from its first
ICON_CLOSED, ICON_OPEN = "▶ ", "▼ "
# Guides as Textual's Tree draws them: (space, vertical, last child, child), first two cells.
GUIDES = ("  ", "│ ", "└─", "├─")


class WrappedTree(ScrollView, can_focus=True):
    """A tree of Nodes whose labels wrap to the width of the widget."""

    ALLOW_SELECT = False  # a drag of the mouse does not select text: a click picks a node, as in Textual's Tree

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("shift+left", "cursor_parent", "Cursor to parent", show=False),
        Binding("shift+right", "cursor_parent_next_sibling", "Cursor to next ancestor", show=False),
        Binding("shift+up", "cursor_previous_sibling", "Cursor to previous sibling", show=False),
        Binding("shift+down", "cursor_next_sibling", "Cursor to next sibling", show=False),
        Binding("enter", "select_cursor", "Select", show=False),
        Binding("space", "toggle_node", "Toggle", show=False),
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("home", "cursor_first", "Cursor to the top", show=False),
        Binding("end", "cursor_last", "Cursor to the bottom", show=False),
        Binding("pageup", "cursor_page_up", "Cursor a page up", show=False),
        Binding("pagedown", "cursor_page_down", "Cursor a page down", show=False),
    ]
    # The look of Textual's Tree: the same component classes and rules.
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "tree--cursor", "tree--guides", "tree--guides-hover", "tree--guides-selected",
        "tree--highlight", "tree--highlight-line", "tree--label",
    }
    DEFAULT_CSS = """
    WrappedTree {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;
        & > .tree--label {}
        & > .tree--guides { color: $surface-lighten-2; }
        & > .tree--guides-hover { color: $surface-lighten-2; }
        & > .tree--guides-selected { color: $block-cursor-blurred-background; }
        & > .tree--cursor {
            text-style: $block-cursor-blurred-text-style;
            background: $block-cursor-blurred-background;
        }
        & > .tree--highlight {}
        & > .tree--highlight-line { background: $block-hover-background; }
        &:focus {
            background-tint: $foreground 5%;
            & > .tree--cursor {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
            & > .tree--guides { color: $surface-lighten-3; }
            & > .tree--guides-hover { color: $surface-lighten-3; }
            & > .tree--guides-selected { color: $block-cursor-background; }
        }
        &:light {
            & > .tree--guides { color: $surface-darken-1; }
            & > .tree--guides-hover { color: $block-cursor-background; }
            & > .tree--guides-selected { color: $block-cursor-background; }
        }
    }
    WrappedTree:ansi {
        color: ansi_default;
        & > .tree--guides { color: $ansi-background; }
        &:nocolor > .tree--cursor { text-style: reverse; }
    }
    """

    guide_depth = reactive(4, init=False)
    """Cells of indentation a level (2 to 10)."""

    class _NodeMessage(Message):
        def __init__(self, node: Node) -> None:
            self.node = node
            super().__init__()

        @property
        def control(self) -> WrappedTree:
            return self.node.tree

    class NodeExpanded(_NodeMessage):
        """A node was opened (also when it was open already)."""

    class NodeCollapsed(_NodeMessage):
        """A node was closed."""

    class NodeHighlighted(_NodeMessage):
        """The cursor moved to another node."""

    class NodeSelected(_NodeMessage):
        """Enter, or a click, on a node."""

    def __init__(self, label: str | Text, data: Any = None, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.root = Node(self, None, label, data, expanded=True)
        self._cursor: Node | None = None
        self._hover: Node | None = None
        self._shown: list[Node] = []  # the nodes drawn, top to bottom
        self._row_nodes: list[Node] = []  # the node each row belongs to
        self._laid_out_at = -1  # the width the rows were laid out for; -1: to lay out again
        self._lay_out_asked = False

    # -- the public face -----------------------------------------------------

    @property
    def cursor_node(self) -> Node | None:
        return self._cursor

    def validate_guide_depth(self, value: int) -> int:
        return min(10, max(2, value))

    def watch_guide_depth(self) -> None:
        self.relaid()

    def node_expanded(self, node: Node) -> None:
        self.post_message(self.NodeExpanded(node))

    def node_collapsed(self, node: Node) -> None:
        self.post_message(self.NodeCollapsed(node))

    def clear(self) -> WrappedTree:
        """Every node but the root gone; no cursor."""
        self.root = Node(self, None, self.root.label, self.root.data, expanded=self.root.is_expanded)
        self._cursor = self._hover = None
        self.relaid()
        return self

    def move_cursor(self, node: Node | None) -> None:
        """The cursor on `node` (shown), scrolled into view; None takes the cursor away."""
        self.lay_out()
        if node is not None and node._row < 0:
            return  # hidden under a closed node
        before, self._cursor = self._cursor, node
        for moved in (before, node):
            self._refresh_node(moved)
        if node is not None:
            self.scroll_to_node(node)
            if node is not before:
                self.post_message(self.NodeHighlighted(node))

    def scroll_to_node(self, node: Node) -> None:
        if node._row >= 0:
            height = min(len(self._lines(node)), max(1, self.scrollable_content_region.height))
            self.scroll_to_region(Region(0, node._row, 1, height), animate=False, force=True, x_axis=False)

    def get_node_at_line(self, row: int) -> Node | None:
        self.lay_out()
        return self._row_nodes[row] if 0 <= row < len(self._row_nodes) else None

    def rows(self) -> Iterator[tuple[Node, str]]:
        """Every row as drawn, without styles, each with its node (tests, reading aloud)."""
        self.lay_out()
        for row in range(len(self._row_nodes)):
            yield self._row_nodes[row], self._row_text(row).plain

    # -- laying out ----------------------------------------------------------

    def relaid(self) -> None:
        """Something shown changed: lay the rows out again before they are next drawn."""
        self._laid_out_at = -1
        self.refresh()
        if not self._lay_out_asked:  # once for a run of changes (a general's hundred units added)
            self._lay_out_asked = True
            # Laid out before the next frame, so that the scroll bar knows the height.
            self.call_later(self.lay_out)

    def _room(self) -> int:
        # The scroll bar's cells are kept free whether it shows or not: a label wraps the
        # same whether or not the tree is taller than the screen.
        width = self.size.width - self.styles.scrollbar_size_vertical
        return width if width > 0 else 200

    def _lines(self, node: Node, room: int | None = None) -> list[Text]:
        """The label's lines at the node's depth (set as the rows are laid out)."""
        start = node._depth * self.guide_depth + (len(ICON_OPEN) if node.allow_expand else 0)
        first = (self._room() if room is None else room) - start
        key = (first, first - HANG)
        if node._wrapped is None or node._wrapped[0] != key:
            node._wrapped = (key, wrap(node.label, *key))
        return node._wrapped[1]

    def lay_out(self) -> None:
        """The rows of every node shown, if anything changed since they were last laid out."""
        self._lay_out_asked = False
        room = self._room()
        if self._laid_out_at == room:
            return
        for node in self._shown:
            node._row = node._index = -1
        shown: list[Node] = []
        rows: list[Node] = []
        stack = [(self.root, 0)]
        while stack:
            node, depth = stack.pop()
            node._row, node._index, node._depth = len(rows), len(shown), depth
            shown.append(node)
            rows.extend([node] * len(self._lines(node, room)))
            if node._expanded:
                stack.extend((child, depth + 1) for child in reversed(node._children))
        self._shown, self._row_nodes, self._laid_out_at = shown, rows, room
        self.virtual_size = Size(room, len(rows))
        cursor = self._cursor
        if cursor is not None and cursor._row < 0:
            # Removed, or under a node just closed: the cursor goes to the nearest ancestor shown.
            while cursor is not None and cursor._row < 0:
                cursor = cursor.parent
            self._cursor = cursor
            if cursor is not None:
                self.post_message(self.NodeHighlighted(cursor))
        if self._hover is not None and self._hover._row < 0:
            self._hover = None

    def on_resize(self, _event: events.Resize) -> None:
        if self._laid_out_at != self._room():
            self.relaid()
            # Labels wrap onto more or fewer rows at the new width: the cursor stays in view.
            self.call_after_refresh(self._cursor_in_view)

    def _cursor_in_view(self) -> None:
        self.lay_out()
        if self._cursor is not None:
            self.scroll_to_node(self._cursor)

    # -- drawing -------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        self.lay_out()
        row = y + int(self.scroll_offset.y)
        width = self.size.width
        if row >= len(self._row_nodes):
            return Strip.blank(width, self.rich_style)
        text = self._row_text(row, styled=True)
        line_style = self._line_style(self._row_nodes[row])
        return Strip(list(text.render(self.app.console))).adjust_cell_length(width, line_style)

    def _line_style(self, node: Node) -> Style:
        style = self.rich_style
        if node is self._hover:
            style += self.get_component_rich_style("tree--highlight-line")
        return style

    def _row_text(self, row: int, styled: bool = False) -> Text:
        node = self._row_nodes[row]
        part = row - node._row
        lines = self._lines(node)
        line_style = self._line_style(node) if styled else Style()
        guide = self._guide_styles() if styled else None
        text = Text(style=line_style)
        path: list[Node] = []
        up: Node | None = node
        while up is not None:
            path.append(up)
            up = up.parent
        path.reverse()
        selected = False  # the guides below the cursor are drawn in its colour
        for level in path[1:]:
            selected = selected or (path[path.index(level) - 1] is self._cursor and self.has_focus)
            kind = 0 if level.is_last else 1
            if level is node and part == 0:
                kind = 2 if level.is_last else 3
            text.append(self._guide(kind), guide[selected] if guide else None)
        if node.allow_expand:
            if part == 0:
                text.append(ICON_OPEN if node.is_expanded else ICON_CLOSED, line_style)
            else:  # the line down from the icon to the children, beside the rest of the label
                below = node.is_expanded and node._children
                text.append(GUIDES[1 if below else 0], guide[node is self._cursor and self.has_focus] if guide else None)
        if part:
            text.append(" " * HANG)
        label = lines[part].copy()
        if styled:
            label_style = self.get_component_rich_style("tree--label", partial=True)
            if node is self._cursor:
                label_style += self.get_component_rich_style("tree--cursor", partial=False)
            label.stylize(label_style)
        text.append_text(label)
        return text

    def _guide(self, kind: int) -> str:
        """A level's guide, `guide_depth` cells: as Textual's Tree draws them."""
        chars = GUIDES[kind]
        return chars[0] + chars[1] * (self.guide_depth - 2) + " "

    def _guide_styles(self) -> tuple[Style, Style]:
        base = self.get_component_rich_style("tree--guides", partial=True)
        return base, base + self.get_component_rich_style("tree--guides-selected", partial=True)

    def _refresh_node(self, node: Node | None) -> None:
        if node is None or node._row < 0:
            return
        top = int(self.scroll_offset.y)
        self.refresh(Region(0, node._row - top, self.size.width, len(self._lines(node))))
        # The guides beneath an open node take its colour when the cursor is on it.
        if node.is_expanded and node._children:
            self.refresh()

    # -- keys and the mouse ----------------------------------------------------

    def _step(self, by: int) -> None:
        self.lay_out()
        if not self._shown:
            return
        if self._cursor is None:
            self.move_cursor(self._shown[0 if by > 0 else -1])
            return
        place = min(len(self._shown) - 1, max(0, self._cursor._index + by))
        self.move_cursor(self._shown[place])

    def action_cursor_up(self) -> None:
        self._step(-1)

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_cursor_first(self) -> None:
        self.lay_out()
        self.move_cursor(self._shown[0])

    def action_cursor_last(self) -> None:
        self.lay_out()
        self.move_cursor(self._shown[-1])

    def _page(self, direction: int) -> None:
        """A page of rows on, landing on the node drawn there."""
        self.lay_out()
        if self._cursor is None:
            self._step(direction)
            return
        page = max(1, self.scrollable_content_region.height - 1)
        row = min(len(self._row_nodes) - 1, max(0, self._cursor._row + direction * page))
        self.move_cursor(self._row_nodes[row])

    def action_cursor_page_up(self) -> None:
        self._page(-1)

    def action_cursor_page_down(self) -> None:
        self._page(1)

    def action_cursor_parent(self) -> None:
        if self._cursor is not None and self._cursor.parent is not None:
            self.move_cursor(self._cursor.parent)

    def action_cursor_parent_next_sibling(self) -> None:
        if self._cursor is not None and self._cursor.parent is not None:
            self.move_cursor(self._cursor.parent.next_sibling)

    def action_cursor_previous_sibling(self) -> None:
        if self._cursor is not None:
            self.move_cursor(self._cursor.previous_sibling or self._cursor.parent)

    def action_cursor_next_sibling(self) -> None:
        if self._cursor is not None:
            after = self._cursor.next_sibling
            if after is None and self._cursor.parent is not None:
                after = self._cursor.parent.next_sibling
            if after is not None:
                self.move_cursor(after)

    def action_toggle_node(self) -> None:
        if self._cursor is not None and self._cursor.allow_expand:
            self._cursor.toggle()

    def action_select_cursor(self) -> None:
        if self._cursor is not None:
            self.post_message(self.NodeSelected(self._cursor))
            self.action_toggle_node()  # Textual's Tree opens or closes a node as it is selected

    def _at(self, event: events.MouseEvent) -> tuple[Node | None, bool]:
        """The node under the pointer, and whether the pointer is on its icon."""
        offset = event.get_content_offset(self)
        if offset is None:
            return None, False
        row = offset.y + int(self.scroll_offset.y)
        node = self.get_node_at_line(row)
        if node is None:
            return None, False
        start = node._depth * self.guide_depth
        return node, node.allow_expand and row == node._row and start <= offset.x < start + len(ICON_OPEN)

    def on_click(self, event: events.Click) -> None:
        node, on_icon = self._at(event)
        if node is None:
            return
        if on_icon:
            node.toggle()
        else:
            self.move_cursor(node)
            self.action_select_cursor()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        node, _ = self._at(event)
        if node is not self._hover:
            before, self._hover = self._hover, node
            self._refresh_node(before)
            self._refresh_node(node)

    def on_leave(self, _event: events.Leave) -> None:
        before, self._hover = self._hover, None
        self._refresh_node(before)

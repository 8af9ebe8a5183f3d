"""A Static's text changed in place: the screen laid out again only when its size changes."""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


def update_in_place(static: Static, content: VisualType) -> None:
    """Show `content` in `static`, laying the screen out again only if that changes its size.

    Static.update lays the whole screen out (every widget of it measured and placed
    again) unless told the size stays (`layout=False`), and a line under a list (the
    march's modifiers and the cursor unit's odds) or a form's verdict changes at every
    move of the cursor or every key. A Static whose width is not `auto` keeps its width
    whatever it shows; its height follows its text only where it is `auto`, and then the
    lines the new text wraps to at its width are counted (what the layout would count
    first): the same number, and it is only redrawn. The same text as shown is left as
    it is. A Static not laid out yet, or sized to its text's width, is updated as ever."""
    if isinstance(content, str) and isinstance(static.content, str) and content == static.content:
        return  # shown already: nothing to draw
    styles = static.styles
    width = static.content_size.width
    if not width or (styles.width is not None and styles.width.is_auto):
        static.update(content)
        return
    if styles.height is None or not styles.height.is_auto:
        static.update(content, layout=False)  # its box does not depend on what it shows
        return
    container, viewport = static.container_size, static.app.size
    before = static.get_content_height(container, viewport, width)
    static.update(content, layout=False)
    if static.get_content_height(container, viewport, width) != before:
        static.refresh(layout=True)

"""A Static of text that follows the cursor, beside the part of a screen it describes.

A Static's `update` lays the whole screen out again, as its height may have changed.
Lines that follow the cursor (the place under the map's cursor, its stacks and roads)
change at every key, while most often taking as many lines as before: then only the
Static is drawn again, in place, and the screen is laid out only when it takes a line
more or less.
"""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


def update_steady(static: Static, content: VisualType) -> None:
    """`content` shown in `static` (height: auto, as wide as its container): the screen laid
    out again only when it takes another number of lines than it does now at its width."""
    width, height = static.content_size
    sized_by_content = static.styles.width is not None and static.styles.width.is_auto
    laid_out = bool(width) and not sized_by_content
    static.update(content, layout=not laid_out)
    if laid_out and static.get_content_height(static.container_size, static.app.size, width) != height:
        static.refresh(layout=True)

"""A field to type in whose keys never lay the screen out again while its text fits."""

from __future__ import annotations

from textual.binding import Binding
from textual.geometry import Size
from textual.widgets import Input

from tui.commands import browser_safe


class TextField(Input):
    """Textual's Input, as wide to the compositor as the box it sits in until its text is longer.

    An Input tells the compositor its content is as wide as its text (one cell more, for
    the cursor), and stores that width as its scrollable size at every change of its
    value: Textual lays the whole screen out again whenever that size changes, so every
    key typed or deleted in a form laid out the form and every widget in it (81 layouts
    for 80 keys typed into a form of the order of battle). Here the width is at least
    the box's, so it stays the same while the text fits and the screen is laid out only
    when the text outgrows the box (then the field scrolls, as any Input does). What it
    draws and where it scrolls are the same: the text is drawn from the left and cut or
    padded to the box, and the furthest it scrolls is the text's width less the box's
    (none while it fits). A field whose width is `auto`, sized to its text, is Textual's
    own. tui/screens/history.py's filter does the same for its own reasons."""

    # A browser keeps ctrl+w (adjutant serve): deleting a word answers to alt+w too.
    BINDINGS = [Binding(browser_safe("ctrl+w"), "delete_left_word", "Delete left to start of word", show=False)]

    @property
    def content_width(self) -> int:
        width = super().content_width
        if self.styles.width is not None and self.styles.width.is_auto:
            return width  # its size follows its text: a change must lay it out
        return max(width, self.scrollable_content_region.width)

    def on_resize(self) -> None:
        # A box made narrower: the width told is its new one, so that it scrolls no
        # further than Textual's own would (the layout that resized it is done).
        self.set_reactive(Input.virtual_size, Size(self.content_width, 1))

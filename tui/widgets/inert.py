"""The last step before the terminal: text on screen is shown, never obeyed.

Names, places, descriptions and notes come from campaign files that anyone may
have made, and a terminal obeys the control characters in what it is sent (ESC
starts sequences that retitle the window or clear the screen). Textual and Rich
strip only a few of them (BEL, BS, VT, FF, CR). This line filter, which the app
applies to every line of every widget (`AdjutantApp.get_line_filters`), removes
the rest (campaigns.text) from the text of each segment, wherever on screen it
came from: a table cell, a tree label, a notice, a title. Textual's own escape
sequences (colours, cursor moves, links) are made later, from styles, and are
not touched. The bidirectional controls are removed here too: a line is already
laid out, and writing one out ("<U+202E>", as `shown` does to the text of a
table cell before it is laid out) would widen it.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from campaigns.text import is_laid_out_inert, laid_out_inert


class InertText(LineFilter):
    """Strip control characters from the text of every segment."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(is_laid_out_inert(segment.text) for segment in segments):
            return segments  # nearly always: one scan, no copy
        return [
            Segment(laid_out_inert(text), style, control) if not control and not is_laid_out_inert(text)
            else Segment(text, style, control)
            for text, style, control in segments
        ]

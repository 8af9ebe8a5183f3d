"""Text from a campaign file made safe to print: no control characters.

A campaign file is someone else's data: a unit named with an escape sequence
must not move the cursor, retitle the terminal or hide a line of a report.
The text is `campaigns.text.shown`: control characters (C0, DEL, C1) dropped and
the bidirectional controls written out ("<U+202E>"); tabs become spaces, and a
newline is kept only where a caller allows it.
"""

from __future__ import annotations

from campaigns.text import shown


def printable(text: object, *, newlines: bool = False) -> str:
    """`text` as `shown` gives it, tabs as spaces (and newlines too, unless `newlines`)."""
    cleaned = shown(text).replace("\t", " ")
    return cleaned if newlines else cleaned.replace("\n", " ")

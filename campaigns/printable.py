"""Text from a campaign file made safe to print: no control characters.

A campaign file is someone else's data: a unit named with an escape sequence
must not move the cursor, retitle the terminal or hide a line of a report.
Every character of Unicode category Cc (C0, DEL, C1) and the bidirectional
overrides are dropped; a newline is kept only where a caller allows it.
(A small local helper: the lead may unify it with the project's sanitizer.)
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: object, *, newlines: bool = False) -> str:
    """`text` as a string with its control characters removed (tabs become spaces)."""
    cleaned = _CONTROL.sub("", str(text)).replace("\t", " ")
    return cleaned if newlines else cleaned.replace("\n", " ")

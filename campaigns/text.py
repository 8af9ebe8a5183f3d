"""Text from a campaign is shown, never obeyed, and names an umpire types are plain.

A campaign file or an export may come from anyone, and a terminal obeys the
control characters in what it prints: ESC starts sequences that retitle the
window, clear the screen or worse. Every string from a campaign passes through
`shown` (or `one_line`) before it reaches a terminal, in the CLI and in every
screen; `plain_name` refuses such characters where names, places and notes
are typed in, so every caller (a form, the CLI, a script) refuses them alike.
"""

from __future__ import annotations

import re

NAME_LIMIT = 200  # characters in a name, a place or a note: plenty for "Prinz Eugen von Württemberg"

# C0 controls except tab and newline, DEL, the C1 controls, and lone surrogates
# (which no terminal encoding can carry).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_ANY_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_BREAKS = re.compile("[\t\n]+")


def has_control(text: str) -> bool:
    """Whether `shown` would change `text`."""
    return _CONTROL.search(text) is not None


def shown(value: object) -> str:
    """`value` as text safe to print: control characters other than tab and newline removed."""
    return _CONTROL.sub("", value if isinstance(value, str) else str(value))


def one_line(value: object) -> str:
    """`value` as one printable line: as `shown`, with tabs and line breaks as spaces."""
    return _BREAKS.sub(" ", shown(value))


class TextError(ValueError):
    """A name, place or note that cannot be stored as typed."""


def plain_name(value: str, what: str = "a name", limit: int = NAME_LIMIT) -> str:
    """`value` with surrounding spaces removed, or TextError when it holds control
    characters or is longer than `limit` characters."""
    if _ANY_CONTROL.search(value):
        raise TextError(f"{what} cannot hold control characters (such as escape, tab or a line break)")
    value = value.strip()
    if len(value) > limit:
        raise TextError(f"{what} can be at most {limit} characters long; this one has {len(value)}")
    return value

"""Text from a campaign is shown, never obeyed, and names an umpire types are plain.

A campaign file or an export may come from anyone, and a terminal obeys the
control characters in what it prints: ESC starts sequences that retitle the
window, clear the screen or worse. Every string from a campaign passes through
`shown` (or `one_line`) before it reaches a terminal, in the CLI and in every
screen; `plain_name` refuses such characters where names, places and notes
are typed in, so every caller (a form, the CLI, a script) refuses them alike.

The bidirectional controls (Unicode's Bidi_Control: the embeddings and overrides
U+202A-202E, the isolates U+2066-2069, the marks U+200E, U+200F and U+061C) drive
no cursor, but they reorder what is shown after them: a unit named U+202E and "etoN"
reads "Note" ("Trojan Source"). `shown` writes each as "<U+202E>", so the umpire sees that
it is there and what it is; the campaign keeps it, as the file and an export hold it.
"""

from __future__ import annotations

import re

NAME_LIMIT = 200  # characters in a name, a place or a note: plenty for "Prinz Eugen von Württemberg"

# C0 controls except tab and newline, DEL, the C1 controls, and lone surrogates
# (which no terminal encoding can carry): removed.
CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff"
# Unicode's Bidi_Control characters: written out.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[{CONTROLS}]")
_SHOWN = re.compile(f"[{CONTROLS}{BIDI_CONTROLS}]")
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")
_ANY_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_BREAKS = re.compile("[\t\n]+")


def has_control(text: str) -> bool:
    """Whether `text` holds a control character `shown` removes (a bidi control aside)."""
    return _CONTROL.search(text) is not None


def _written(found: re.Match[str]) -> str:
    character = found.group()
    return f"<U+{ord(character):04X}>" if _BIDI.match(character) else ""


def shown(value: object) -> str:
    """`value` as text safe to print: control characters other than tab and newline removed,
    bidirectional controls written out ("<U+202E>")."""
    return _SHOWN.sub(_written, value if isinstance(value, str) else str(value))


def one_line(value: object) -> str:
    """`value` as one printable line: as `shown`, with tabs and line breaks as spaces."""
    return _BREAKS.sub(" ", shown(value))


def is_laid_out_inert(text: str) -> bool:
    """Whether `text` holds nothing `laid_out_inert` removes (nearly always: one scan)."""
    return _SHOWN.search(text) is None


def laid_out_inert(text: str) -> str:
    """`text` already laid out (a line of a screen) made inert: control and bidirectional
    characters removed. Each is zero cells wide, so the line keeps its width, where writing
    a bidi control out would widen it; text from a campaign is `shown` before it is laid out."""
    return _SHOWN.sub("", text)


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

"""An event's changes written into the export straight from their stored text, when it is plain.

At a million events, reading each event's changes as JSON, checking their shape
and writing them again (sorted, indented) is a large share of an export. Most
changes are stored in one plain form (as `json.dumps` writes them):

    [{"table": "unit", "key": {"id": "u1"}, "before": {"location": "Jena"}, "after": {"location": "Halle"}}]

each change's key, before and after `null`, `{}` or an object of one key, each
value a string without escapes, a whole number of at most 18 digits, true, false
or null. Such a text is JSON of the change shape (models.export_format.SHAPES),
shallow and short, so it passes every check the export makes of the column, and
its text in the export (keys sorted, two-space indent) is a rearrangement of its
characters: regular expressions over the batch's texts write it, in C, with no
value built.

A text in any other form is read and written as before; `Spliced.into` puts the
plain ones' text where the export's own writing left a stand-in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from models.export_format import MAX_JSON_BYTES

# A text this short writes no more than MAX_JSON_BYTES (a character is at most 4 bytes of UTF-8).
SHORT_CHARS = MAX_JSON_BYTES // 8
# What stands in for a plain text while the row is written: a list the checks accept.
STAND_IN = "[]"

_STRING = r'"[^"\\\x00-\x1f]*"'  # no escape, no control character: written as it is stored
_SCALAR = rf"(?:{_STRING}|0|-?[1-9][0-9]{{0,17}}|true|false|null)"
_OBJECT = rf"(?:null|\{{\}}|\{{{_STRING}: {_SCALAR}\}})"
_CHANGE = (
    rf'\{{"table": (?P<t>{_STRING}), "key": (?P<k>{_OBJECT}), '
    rf'"before": (?P<b>{_OBJECT}), "after": (?P<a>{_OBJECT})\}}'
)
_BARE = re.sub(r"\(\?P<\w>", "(?:", _CHANGE)  # the same, without its named groups
PLAIN = re.compile(rf"\[(?:{_BARE}(?:, {_BARE})*)?\]")

# The changes are a row's value: the row's keys at 8 spaces, each change at 10, its keys at 12.
_ITEM = re.compile(_CHANGE)
_ITEM_TEXT = (
    '{\n            "after": \\g<a>,\n            "before": \\g<b>,\n'
    '            "key": \\g<k>,\n            "table": \\g<t>\n          }'
)
# An object of one key, as the first step left it after a change's key line (only a change's
# own lines start with a newline and 12 spaces: a string holds no newline).
_ONE_KEY = re.compile(rf'(\n {{12}}"(?:after|before|key)": )\{{({_STRING}: {_SCALAR})\}}')
_ONE_KEY_TEXT = "\\1{\n              \\2\n            }"
_SEPARATOR = "\x00"  # in no plain text (_STRING refuses control characters)


class Spliced:
    """A batch's raw rows with stand-ins for its plain changes, and their text for the export."""

    def __init__(self, raw: list[tuple[Any, ...]], plain: list[int], texts: list[bytes]) -> None:
        self.raw = raw
        self.plain = plain
        self.texts = texts

    def into(self, encoded: bytes) -> bytes:
        """`encoded` (models.exchange: a batch's text within WRAPPED) with each stand-in replaced."""
        rows = encoded.split(_ROW_BREAK)
        for number, text in zip(self.plain, self.texts, strict=True):
            rows[number] = rows[number].replace(_STAND_IN_LINE, _LINE + text, 1)
        return _ROW_BREAK.join(rows)


_ROW_BREAK = b"\n      },\n      {"  # between two rows of a batch: only rows sit 6 spaces in
_LINE = b'\n        "changes": '
_STAND_IN_LINE = _LINE + STAND_IN.encode()


def spliced(raw: list[tuple[Any, ...]], column: int) -> Spliced | None:
    """The batch with its plain changes stood in for; None when none is plain."""
    values = [row[column] for row in raw]
    if set(map(type, values)) != {str} or max(map(len, values)) > SHORT_CHARS:
        return None
    plain = [number for number, match in enumerate(map(PLAIN.fullmatch, values)) if match is not None]
    if not plain:
        return None
    texts = written([values[number] for number in plain])
    rows = list(raw)
    for number in plain:
        row = rows[number]
        rows[number] = (*row[:column], STAND_IN, *row[column + 1 :])
    return Spliced(rows, plain, texts)


def written(plain: Sequence[str]) -> list[bytes]:
    """Plain texts (each matching PLAIN) as the export writes them, UTF-8."""
    text = _ITEM.sub(_ITEM_TEXT, _SEPARATOR.join(plain))
    text = _ONE_KEY.sub(_ONE_KEY_TEXT, text)
    text = (
        text.replace("[{\n", "[\n          {\n")
        .replace("\n          }, {\n", "\n          },\n          {\n")
        .replace("\n          }]", "\n          }\n        ]")
    )
    return text.encode().split(_SEPARATOR.encode())

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
from itertools import chain, repeat
from typing import Any

from models.export_format import MAX_JSON_BYTES

# A text this short writes no more than MAX_JSON_BYTES (a character is at most 4 bytes of UTF-8).
SHORT_CHARS = MAX_JSON_BYTES // 8
# What stands in for a plain text while the row is written: a list the checks accept.
STAND_IN = "[]"

_STRING = r'"[^"\\\x00-\x1f]*"'  # no escape, no control character: written as it is stored
_SCALAR = rf"(?:{_STRING}|0|-?[1-9][0-9]{{0,17}}|true|false|null)"


def _object(name: str) -> str:
    """null or {} (group NAMEe), or an object of one key, its inside in group NAMEi."""
    return rf"(?:(?P<{name}e>null|\{{\}})|\{{(?P<{name}i>{_STRING}: {_SCALAR})\}})"


_CHANGE = (
    rf'\{{"table": (?P<t>{_STRING}), "key": {_object("k")}, '
    rf'"before": {_object("b")}, "after": {_object("a")}\}}'
)
_BARE = re.sub(r"\(\?P<\w+>", "(?:", _CHANGE)  # the same, without its named groups
PLAIN = re.compile(rf"\[(?:{_BARE}(?:, {_BARE})*)?\]")

# The changes are a row's value: the row's keys at 8 spaces, each change at 10, its keys at 12,
# an object's keys at 14. Only these lines start with a newline (a string holds none), so the
# list's brackets and commas are found with `str.replace`, never inside a string.
_ITEM = re.compile(_CHANGE)  # its groups: table, then empty and inside of key, before and after
_INDENT = "\n            "
_OPEN = "{" + _INDENT + '"after": '
_BEFORE, _KEY, _TABLE = ("," + _INDENT + f'"{name}": ' for name in ("before", "key", "table"))
_CLOSE = "\n          }"
# Around an object's inside when there is one (None: nothing, dropped by filter(None, ...)).
_OPENS = {True: "{\n              ", False: None}.__getitem__
_CLOSES = {True: _INDENT + "}", False: None}.__getitem__
_LIST = [("[{\n", "[\n          {\n"), ("\n          }, {\n", "\n          },\n          {\n"), ("\n          }]", "\n          }\n        ]")]
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
    # split() hands the groups back in C: between, table, key (empty, inside), before, after, between...
    parts = _ITEM.split(_SEPARATOR.join(plain))
    between, table, key, key_in, before, before_in, after, after_in = (parts[start::8] for start in range(8))

    def around(inside: list[str | None]) -> tuple[Any, Any, Any]:
        present = list(map(bool, inside))
        return map(_OPENS, present), inside, map(_CLOSES, present)

    pieces = zip(
        between, repeat(_OPEN), after, *around(after_in), repeat(_BEFORE), before, *around(before_in),
        repeat(_KEY), key, *around(key_in), repeat(_TABLE), table, repeat(_CLOSE),
    )
    text = "".join(filter(None, chain.from_iterable(pieces))) + parts[-1]
    for old, new in _LIST:
        text = text.replace(old, new)
    return text.encode().split(_SEPARATOR.encode())

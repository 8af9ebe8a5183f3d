"""Whole numbers as a person types them: ASCII digits, an optional minus, bounded length.

`int()` also reads "٣" (Arabic-Indic three), "1_000" and " 7 ", and `str.isdigit()`
says yes to "²", which `int()` then refuses with a traceback; a number typed at
the command line or in a form is read here instead.
"""

from __future__ import annotations

import re

from rules.errors import RulesError

MAX_DIGITS = 9  # up to 999,999,999: more than any roll, modifier, month or strength
_WHOLE = re.compile(r"-?[0-9]+")


def is_whole(text: str, digits: int = MAX_DIGITS) -> bool:
    return bool(_WHOLE.fullmatch(text)) and len(text.lstrip("-")) <= digits


def whole(text: str, what: str, digits: int = MAX_DIGITS) -> int:
    """`text` as a whole number, or RulesError saying what was expected."""
    if not _WHOLE.fullmatch(text):
        raise RulesError(f"{what} must be a whole number, not {text[:40]!r}")
    if len(text.lstrip("-")) > digits:
        raise RulesError(f"{what} must have at most {digits} digits")
    return int(text)

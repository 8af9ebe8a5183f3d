"""English for the interface: plural forms, and the card's French column headings quoted.

The card's own words stay as printed, in quotes; the English reading follows:

    column('1 à 2')  ->  "'1 à 2' (1 to 2)"
    plural(1, "dummy", "dummies")  ->  "1 dummy"
"""

from __future__ import annotations

import re


def plural(count: int, one: str, many: str | None = None) -> str:
    """ "1 dummy", "2 dummies", "1 unit", "3 units"."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def sentence(text: str) -> str:
    """A notice or a refusal as the app shows it on its own: a capital first letter and a
    closing full stop.

    The rules' and the store's refusals are clauses ("there is nothing to undo"): the
    command line puts them after its own name ("adjutant undo: there is nothing to undo"),
    a caller inside another sentence; the app's notices and forms show them as sentences:
    "There is nothing to undo." A text of several lines starts with the capital and ends
    with the stop; one that already ends with . ! ? or an ellipsis keeps its ending."""
    body = text.rstrip()
    start = len(body) - len(body.lstrip())
    if start == len(body):
        return text
    if body[start].islower():
        body = body[:start] + body[start].upper() + body[start + 1 :]
    return body if body.endswith((".", "!", "?", "…")) else body + "."


def and_eliminated(units: str, eliminated: int) -> str:
    """Units present, and those eliminated (off the map at 0 SP) said apart after them:
    "12 (+3 eliminated)", "12 units (+3 eliminated)"; as they were when none is."""
    return f"{units} (+{eliminated} eliminated)" if eliminated else units


def heading(label: str) -> str:
    """A label at the head of a column or a field: "stands" -> "Stands", and an abbreviation
    kept as the card prints it ("EC", élément combattant, not "Ec")."""
    return label[:1].upper() + label[1:]


_BANDS = (
    (re.compile(r"^(\S+) à (\S+)$"), r"\1 to \2"),
    (re.compile(r"^(\S+) et \+$"), r"\1 or more"),
    (re.compile(r"^(\S+) ou \+$"), r"\1 or more"),
    (re.compile(r"^(\S+) ou -$"), r"\1 or less"),
    (re.compile(r"^< ?(\S+)$"), r"under \1"),
)


def column(band: str) -> str:
    """A column of a card's table: its printed heading quoted, with its English reading
    when the heading is French ("'1 à 2' (1 to 2)"); a plain heading ("22-29") as it is."""
    for pattern, english in _BANDS:
        if pattern.match(band):
            return f"'{band}' ({pattern.sub(english, band)})"
    return band

"""The printed despatch: the HTML page says what the markdown letter says, cell for cell
and item for item, and a hostile name in the file stays text in both."""

from __future__ import annotations

import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

import pytest

from campaigns.reconnaissance import reconnoitre_stack
from campaigns.session import CampaignSession
from campaigns.text import shown
from tests.campaigns.test_fog import new, run

HOSTILE_UNIT = ("Evil <b>&amp;</b> \x1b[31m\x07 \u202eRTL\u202c *star* _u_ `tick` [l](http://x) "
                "| bar\tTab \x85c1 \x7f del \"q\" 'a'")
HOSTILE_GENERAL = "Gen <script>alert(1)</script> \u202e \x1b]0;x\x07 **b**"


class Page(HTMLParser):
    """The tags of a page, its table rows (cell texts) and its list items (own text, without nested lists)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.rows: list[list[str]] = []
        self.items: list[tuple[int, str]] = []  # (depth, text)
        self.text: list[str] = []
        self._cell: list[str] | None = None
        self._items: list[list[str]] = []  # the open list items' texts
        self._depth = 0
        self.open: list[str] = []  # every element is closed, in order: the page nests as HTML must

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag != "meta":
            self.open.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "ul":
            self._depth += 1
        elif tag == "li":
            self._items.append([])
            self.items.append((self._depth, ""))

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, f"</{tag}> closes no open <{tag}> at line {self.getpos()[0]}"
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "ul":
            self._depth -= 1
        elif tag == "li":
            own = self._items.pop()
            index = max(i for i, (depth, text) in enumerate(self.items) if depth == self._depth and text == "")
            self.items[index] = (self._depth, "".join(own).strip())

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)
        elif self._items:
            self._items[-1].append(data)


def markdown_cells(letter: str) -> list[list[str]]:  # split at "\n" only: a name may hold U+0085, a line break to splitlines
    """The markdown letter's table rows as cells, its `**` marks taken off."""
    rows = [line[1:-1].split("|") for line in letter.split("\n") if line.startswith("| ") and line.endswith(" |")]
    return [[re.sub(r"^\*\*(.*)\*\* \(rank", r"\1 (rank", c[1:-1]) for c in row] for row in rows]


def markdown_items(letter: str) -> list[tuple[int, str]]:
    return [(1 + (len(line) - len(line.lstrip(" "))) // 4, line.lstrip(" ")[2:])
            for line in letter.split("\n") if line.lstrip(" ").startswith("- ")]


@pytest.fixture
def letters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """The French letter of a campaign with a sighting, one unit and one general named by an enemy of the club."""
    umpire = new(tmp_path)
    session = CampaignSession.open(umpire)
    try:
        reconnoitre_stack(session, "french@Eisleben", "allies@Halle", entered=[6])
    finally:
        session.close()
    # The umpire's full report: the enemy's units by name, a list inside the sighting's item.
    assert run(capsys, "sight", umpire, "--side", "french", "--at", "Halle", "--level", "4")[0] == 0
    with sqlite3.connect(umpire) as db:
        unit, general = db.execute(
            "SELECT u.id, g.id FROM unit u JOIN general g ON g.id = u.general JOIN army a ON a.id = g.army "
            "WHERE a.side = 'french' ORDER BY u.id LIMIT 1").fetchone()
        db.execute("UPDATE unit SET name = ? WHERE id = ?", (HOSTILE_UNIT, unit))
        db.execute("UPDATE general SET name = ? WHERE id = ?", (HOSTILE_GENERAL, general))
    db.close()
    md, page = tmp_path / "fr.md", tmp_path / "fr.html"
    assert run(capsys, "despatch", umpire, "--side", "french", "--format", "md", "-o", md)[0] == 0
    assert run(capsys, "despatch", umpire, "--side", "french", "--format", "html", "-o", page)[0] == 0
    return md.read_text(encoding="utf-8"), page.read_text(encoding="utf-8")


def test_the_html_table_holds_the_markdown_tables_cells(letters):
    letter, page = letters
    parsed = Page()
    parsed.feed(page)
    headers = [row for row in parsed.rows if row == ["General or unit", "Arm", "SP", "Cohesion", "Place"]]
    cells = [row for row in parsed.rows if row not in headers]
    expected = [row for row in markdown_cells(letter) if row != headers[0]]
    assert len(cells) > 20 and len(headers) == letter.count("|---|---|---|---|---|") > 0
    # The same words as the markdown letter, less the control characters `shown` removes.
    assert cells == [[shown(c) for c in row] for row in expected]


def test_the_html_lists_hold_the_markdown_letters_items(letters):
    letter, page = letters
    parsed = Page()
    parsed.feed(page)
    assert parsed.open == []
    assert any(depth == 2 for depth, _ in parsed.items)  # a unit sighted, in a list under its sighting
    assert parsed.items == [(depth, shown(text)) for depth, text in markdown_items(letter)]


def test_a_hostile_name_is_text_in_both_letters(letters):
    letter, page = letters
    parsed = Page()
    parsed.feed(page)
    # The markdown letter holds the names as the file does (as it always has)...
    assert HOSTILE_UNIT.replace("|", "/") in letter and f"**{HOSTILE_GENERAL}**" in letter
    # ... the page holds them as text: no element made of a name, no control character, no link.
    assert parsed.tags <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "code",
                           "table", "thead", "tbody", "tr", "th", "td", "strong", "ul", "li"}
    assert not any(ch for ch in page if ch not in "\t\n" and (ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F))
    assert "<script" not in page and "href" not in page
    text = "".join(parsed.text)
    assert shown(HOSTILE_UNIT.replace("|", "/")) in text and shown(HOSTILE_GENERAL) in text
    # The bidi controls are written out on the page, where the reader sees them (a name that
    # reads as another, "Trojan Source"); the markdown letter keeps them as the file does.
    assert "<U+202E>RTL<U+202C>" in text and "\u202e" not in page and "\u202eRTL\u202c" in letter


def test_the_ledger_names_armies_and_actions_as_the_card_and_the_order_of_battle_do(tmp_path, capsys):
    """A player reads "Army of the Main (Napoleon): Activate the commander-in-chief ...", turn
    by turn, and a die typed in is "(entered)". Before: the army's id (army_of_the_main), the
    action's (activate_cinc), every roll of every turn before the first spending, and
    "(entered, stream None)"."""
    from campaigns import command_points, turns, weather

    umpire = new(tmp_path)
    session = CampaignSession.open(umpire)
    try:
        weather.roll(session, entered=[3])  # typed in: no place in the seeded stream
        turns.advance(session)
        command_points.roll(session, "army_of_the_main", entered=[2])
        command_points.spend(session, "army_of_the_main", "activate_cinc", valid_loc=True)
        turns.advance(session, anyway=True)
        turns.advance(session, anyway=True)
        turns.advance(session, anyway=True)
        turns.advance(session, anyway=True)  # end of turn 1: turn 2
        turns.advance(session, anyway=True)
        weather.roll(session)
        turns.advance(session)
        command_points.roll(session, "army_of_the_main")
    finally:
        session.close()
    md, page = tmp_path / "fr.md", tmp_path / "fr.html"
    assert run(capsys, "despatch", umpire, "--side", "french", "--format", "md", "-o", md)[0] == 0
    assert run(capsys, "despatch", umpire, "--side", "french", "--format", "html", "-o", page)[0] == 0
    letter = md.read_text(encoding="utf-8")
    ledger = letter.split("## Command points\n\n")[1].split("\n\n")[0].split("\n")
    assert ledger == [
        "- turn 1, Army of the Main (Napoleon): 6 points",
        "- turn 1, Army of the Main (Napoleon): Activate the commander-in-chief together with all the units with him -0, 6 left",
        f"- turn 2, Army of the Main (Napoleon): {ledger[2].split(': ')[1]}",
    ]
    assert ledger[2].endswith(" points")
    assert "- #1 weather: 1d6 = 3 -> 4 (entered)" in letter
    assert "stream None" not in letter and "army_of_the" not in letter and "activate_cinc" not in letter
    parsed = Page()
    parsed.feed(page.read_text(encoding="utf-8"))
    assert parsed.items == [(depth, shown(text)) for depth, text in markdown_items(letter)]

"""`adjutant report`: the campaign, a turn or a battle, in markdown, HTML (SVG plots) and text."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sqlalchemy import select

from campaigns import notes
from campaigns.session import CampaignSession
from models import Event
from tests.played import ney_location, play
from tui.cli import main

HOSTILE = "Evil\x1b]0;owned\x07 <script>alert(1)</script> | `x` \x1b[2J"


@pytest.fixture(scope="module")
def ten_turns(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # A unit whose name is meant to hurt (as a file from elsewhere may hold): escapes, markup, a table bar.
    path = play(tmp_path_factory.mktemp("report") / "ten.campaign", 10, ney_unit_name=HOSTILE)
    session = CampaignSession.open(path)
    try:  # the umpire's marks on the first battle, one of them trying to close the markdown fence
        with session.store.read() as db:
            lutzen = db.scalars(select(Event.id).where(Event.description.like("Battle of Lützen begins%"))).one()
        notes.toggle_bookmark(session, lutzen)
        notes.add_note(session, lutzen, "Ney late again ```\n## not a heading")
    finally:
        session.close()
    return path


@pytest.fixture
def campaign(ten_turns: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(ten_turns, tmp_path / "ten.campaign"))


def report(capsys, campaign: Path, *args: str) -> str:
    assert main(["report", str(campaign), *args, "-o", "-"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_markdown_tells_the_campaign_in_order(capsys, campaign):
    text = report(capsys, campaign, "--format", "md")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == [
        "## The situation", "## The forces and their leaders", "## Each roll, its odds and what it did",
        "## The losses", "## The result", "## The luck", "## Bookmarks and notes", "## The plots",
    ]
    marks = text.split("## Bookmarks and notes")[1].split("## The plots")[0]
    assert "Battle of Lützen begins" in marks and "bookmark" in marks and "Ney late again ```" in marks
    assert marks.strip().startswith("````text")  # a fence longer than the note's backticks
    assert "Army of the Main" in text and "Napoleon" in text
    assert re.search(r"^Now: turn \d+, phase [A-Z][a-z]+( [a-z]+)*\.$", text, re.M), "the phase by its name, not its id"
    assert "round 1 attacker combat" in text and "Lützen" in text and "Bautzen" in text
    assert "Strength points at the end of each turn" in text and "Luck by turn" in text  # the plots, as text
    assert "\x1b" not in text and "\x07" not in text
    assert "Evil]0;owned <script>" in text  # the name, with its control characters gone


def test_html_opens_with_its_plots_drawn_as_svg(capsys, campaign):
    text = report(capsys, campaign, "--format", "html")
    page = _Page()
    page.feed(text)
    page.close()
    assert page.tags[0] == "html" and page.tags.count("svg") == 6  # SP, losses x2, points, weather, luck
    assert "script" not in page.tags  # the hostile name is text, not a script; pygal's own scripts are off
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "\x1b" not in text


def test_one_turn_and_one_battle(capsys, campaign):
    turn = report(capsys, campaign, "--turn", "3", "--format", "txt")
    assert "What was done in turn 3" in turn and "Battle #1 at Lützen" in turn
    forces = turn.split("The forces and their leaders, at the end of turn 3")[1].split("What was done")[0]
    ney = next(line for line in forces.splitlines() if "Marshal Ney (III Corps)" in line)
    assert ney_location(3) == "Lützen" and "Lützen" in ney  # where he stood then (Dresden now): from the rewound copy
    rolls = turn.split("Each roll, its odds and what it did")[1].split("The losses")[0]
    assert "Army of the Main (Napoleon): 6 PC" in rolls and "round 4 defender artillery" in rolls
    assert {row.split("│")[2].strip() for row in rolls.splitlines() if row.startswith("│")} == {"3", ""}  # turn 3's only
    battle = report(capsys, campaign, "--battle", "2", "--format", "md")
    assert battle.startswith("# Spring 1813: Lützen and Bautzen: the battle of Bautzen")
    assert "Attacker: French Empire and allies; leaders" in battle and "By unit" in battle
    assert "attacker wins" in battle or "defender wins" in battle
    first = report(capsys, campaign, "--battle", "1", "--format", "txt")
    assert "Ney late again" in first.split("Bookmarks and notes")[1]


def test_written_to_a_file_and_refusals(capsys, campaign, tmp_path):
    out = tmp_path / "aar.md"
    assert main(["report", str(campaign), "--format", "md", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("# Spring 1813")
    capsys.readouterr()
    for args, said in [
        (["--side", "french"], "for what one side knows, write its despatch"),
        (["--turn", "12"], "turn 12 has not been played"),
        (["--battle", "9"], "there is no battle 9"),
        (["--turn", "2", "--battle", "1"], "not allowed with argument"),
        (["-o", str(campaign)], "is the campaign itself"),
    ]:
        extra = [] if "-o" in args else ["-o", str(tmp_path / "x.md")]
        assert main(["report", str(campaign), *args, *extra]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1
    junk = tmp_path / "junk.campaign"
    junk.write_bytes(b"\x00" * 64)
    assert main(["report", str(junk), "-o", str(tmp_path / "y.md")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "x.md").exists() and not (tmp_path / "y.md").exists()

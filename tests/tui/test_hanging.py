"""Lines that go on under themselves: an item deeper than itself, a paragraph flush."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from tui.widgets.hanging import Hanging


def rendered(hanging: Hanging, width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None, legacy_windows=False)
    console.print(hanging)
    return console.export_text().rstrip("\n").split("\n")


def test_an_item_goes_on_deeper_than_itself_and_a_paragraph_flush():
    lines = rendered(
        Hanging(["SP lost: attacker 4, defender 2", "  1st Young Guard Division (Dumoustier): -2",
                 "The battle is over: the defender broke and left the field to the attacker."]),
        30,
    )
    assert lines == [
        "SP lost: attacker 4, defender",
        "2",
        "  1st Young Guard Division",
        "    (Dumoustier): -2",
        "The battle is over: the",
        "defender broke and left the",
        "field to the attacker.",
    ]


def test_a_description_goes_on_under_its_first_line_with_no_indent_and_a_style_holds_on_every_line():
    hanging = Hanging([Text("> 1. Weather", style="reverse bold"), "     Roll the weather of the turn (1d6 + month modifier)"], indent=0)
    assert rendered(hanging, 30) == ["> 1. Weather", "     Roll the weather of the", "     turn (1d6 + month", "     modifier)"]
    console = Console(width=20, file=io.StringIO(), record=True, color_system="standard", legacy_windows=False)
    console.print(Hanging([Text("> 5. Activations and movement", style="reverse")], indent=0))
    assert console.export_text(styles=True).count("\x1b[7m") == 2  # both lines of the wrapped name in reverse


def test_a_word_wider_than_the_width_is_broken_not_cut():
    assert "".join(line.strip() for line in rendered(Hanging(["  " + "x" * 25]), 10)) == "x" * 25


def test_an_odds_line_goes_on_under_its_outcome_past_the_bar():
    from tui.modals.resolution import ODDS_LEAD

    line = "   7.2% ▍      1 stand lost, Disrupted"
    assert line.index("1 stand") == ODDS_LEAD
    assert rendered(Hanging([(line, ODDS_LEAD)]), 30) == ["   7.2% ▍      1 stand lost,", " " * ODDS_LEAD + "Disrupted"]


async def test_a_rules_table_name_that_wraps_goes_on_two_cells_in(make_app, campaign_file, monkeypatch):
    from tests.tui.helpers import screen_text, wait_for

    monkeypatch.setenv("NO_COLOR", "1")
    async with make_app(campaign_file, start="rules").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "allemagne1813: artillery")
        rows = [line[1:].rstrip(" ▎▁▂▃▄▅▆▇█") for line in screen_text(pilot.app).splitlines()]
        start = next(i for i, row in enumerate(rows) if row.strip() == "allemagne1813:")
        assert rows[start + 1].startswith("   ") and rows[start + 1][3] not in " ▎"  # the table's id, two cells in


def test_the_height_counted_is_the_height_drawn():
    """Hanging.height counts the lines without drawing them, or says it cannot (None)."""
    cases = [
        Hanging(["SP lost: attacker 4, defender 2", "  1st Young Guard Division (Dumoustier): -2", "", "  x"]),
        Hanging([("allemagne1813: forced_march_attrition_by_strength", 2)]),
        Hanging([Text("> 1. Weather", style="reverse bold"), "     Roll the weather of the turn (1d6 + month modifier)"], indent=0),
        Hanging(["a" * 70, "  " + "b" * 45 + " c"]),
        Hanging(["tab\there", "two\nlines", "日本語の表の名前は長い 日本語の表の名前は長い"]),
    ]
    counted = 0
    for hanging in cases:
        for width in range(1, 60):
            height = hanging.height(width)
            if height is not None:
                counted += 1
                assert height == len(rendered(hanging, width)), (str(hanging), width)
    assert counted > 150  # most are counted, not drawn
    assert Hanging(["two\nlines"]).height(40) is None and Hanging(["a" * 70]).height(5) is None

"""Fitting text to a column: a wrapped cell loses no word, a wrapped tree label keeps its figures together."""

from __future__ import annotations

from tui.widgets.cells import wrapped
from tui.widgets.tree_node import label, wrap


def test_a_wrapped_line_keeps_every_word_and_indents_what_follows_deeper():
    text = "  unit Blücher's Corps: Brigade Zieten: SP 3 -> 2; location Altenburg -> Lützen"
    lines = wrapped(text, 30)
    assert all(len(line) <= 30 for line in lines) and len(lines) > 1
    assert lines[0].startswith("  unit") and all(line.startswith("      ") for line in lines[1:])
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())
    assert wrapped("short", 30) == ["short"]


def test_no_break_spaces_hold_a_loss_and_its_chance_together():
    odds = "  ".join(x.replace(" ", "\u00a0") for x in ("0: 17%", "1: 33%", "2: 33%", "3: 17%"))
    lines = wrapped(odds, 14)
    assert all(line.strip().replace("\u00a0", " ") in {"0: 17%", "1: 33%", "2: 33%", "3: 17%", "0: 17%  1: 33%", "2: 33%  3: 17%"} for line in lines)


def test_a_wrapped_tree_label_keeps_every_word_and_its_figures_on_one_line():
    text = label("XIV Corps: 42nd and 43rd Divisions (Mouton-Duvernet, Claparède)", " 6 SP [F]")
    lines = wrap(text, 40, 38)
    assert [line.plain for line in lines] == [
        "XIV Corps: 42nd and 43rd Divisions",
        "(Mouton-Duvernet, Claparède) 6 SP [F]",
    ]
    assert all(line.cell_len <= width for line, width in zip(lines, (40, 38)))
    # The figures never break, even where the line would hold part of them.
    assert [line.plain for line in wrap(label("Old Guard infantry", " 12 SP [FE]"), 24, 22)] == [
        "Old Guard infantry",
        "12 SP [FE]",
    ]
    assert wrap(text, 200, 198) == [text]  # room enough: as it is
    # A word longer than the line is folded, nothing lost.
    folded = wrap(label("Mouton-Duvernet-Claparède"), 10, 8)
    assert "".join(line.plain for line in folded) == "Mouton-Duvernet-Claparède"
    assert [line.cell_len for line in folded] == [10, 8, 7]

"""Fitting text to a column: a wrapped cell loses no word, a fitted tree line keeps its figures."""

from __future__ import annotations

from tui.widgets.cells import wrapped
from tui.widgets.fitted_tree import fitted, label


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


def test_a_fitted_label_gives_up_the_end_of_its_name_not_its_figures():
    text = label("XIV Corps: 42nd and 43rd Divisions (Mouton-Duvernet, Claparède)", " 6 SP [F]")
    shown = fitted(text, 40)
    assert shown.cell_len == 40
    assert shown.plain.endswith("… 6 SP [F]") and shown.plain.startswith("XIV Corps: 42nd")
    assert fitted(text, 200).plain == text.plain  # room enough: as it is
    assert fitted(text, 8).cell_len <= 8  # not even the figures fit: cut, with an ellipsis

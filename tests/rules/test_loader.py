"""Tables load from TOML and are validated: a bad file names the file, the table and the row."""

import pytest

from rules.loader import DataFileError, load_table
from rules.tables import Band

GOOD = """
id = "demo"
title = "Demo"
dice = "1d6"
[source]
file = "000.txt"
heading = "demo table"
[rows]
axis = "roll"
[columns]
axis = "sp"
bands = ["1-3", "4 et +"]
[[row]]
band = "1 et -"
printed = "1 et - 1"
cells = ["", "1"]
[[row]]
band = "2"
printed = "2 1 2*"
cells = ["1", "2*"]
"""


def write(tmp_path, text):
    path = tmp_path / "demo.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_table_loads(tmp_path):
    table = load_table(write(tmp_path, GOOD), "demo_rules")
    assert table.lookup(roll=-5, sp=9).text == "1"
    assert table.lookup(roll=1, sp=2).text == "-"
    assert table.lookup(roll=2, sp=100).text == "2*"


@pytest.mark.parametrize(
    "change, message",
    [
        (('cells = ["1", "2*"]', 'cells = ["1"]'), "row 2: 1 cells for 2 columns"),
        (('cells = ["1", "2*"]', 'cells = ["2", "2*"]'), "row 2: cells do not read back"),
        (('band = "2"\nprinted = "2', 'band = "two"\nprinted = "two'), "band 'two' is not a number"),
        (('band = "2"\nprinted = "2', 'band = "0"\nprinted = "0'), "overlap or are out of order"),
        (('bands = ["1-3", "4 et +"]', 'bands = ["1-3", "3 et +"]'), "overlap"),
        (('id = "demo"', 'ident = "demo"'), "has no id"),
        (("[source]\nfile", "[origin]\nfile"), "needs [source]"),
        (('cells = ["1", "2*"]', "cells = [1, 2]"), "row 2: cells must be a list of strings"),
        (('title = "Demo"', 'title = "Demo'), "cannot be read as TOML"),
    ],
)
def test_bad_files_name_file_table_and_row(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(DataFileError) as err:
        load_table(path, "demo_rules")
    text = str(err.value)
    assert str(path) in text and message in text
    if "row" in message:
        assert "table demo" in text


@pytest.mark.parametrize(
    "label, low, high",
    [("11-15", 11, 15), ("1 à 4", 1, 4), ("1 - 3", 1, 3), ("81 et +", 81, None), ("1 et -", None, 1), ("< 5", None, 4), ("-1", -1, -1),
     ("15+", 15, None), ("≥13", 13, None), ("2-", None, 2), ("≤0", None, 0), ("-2 - -1", -2, -1)],
)
def test_band_labels_as_printed(label, low, high):
    band = Band.parse(label)
    assert (band.low, band.high, band.label) == (low, high, label)


PAGED = """
id = "shooting"
title = "Shooting"
dice = "1d12"
[source]
file = "002.txt"
heading = "small arms"
[pages]
axis = "weapon"
bands = [{ label = "Smoothbore", values = ["SM"] }, { label = "Rifle", values = ["RM"] }]
[rows]
axis = "range"
[columns]
axis = "class"
bands = [{ label = "E", values = ["E"] }, { label = "R", values = ["R"] }]
[[row]]
page = "SM"
band = "1"
cells = ["5+", "6+"]
[[row]]
page = "SM"
band = "2"
cells = ["7+", "-"]
[[row]]
page = "RM"
band = "1"
cells = ["4+", "5+"]
[[row]]
page = "RM"
band = "2"
cells = ["5+", "6+"]
"""


def test_a_table_with_pages_has_three_axes(tmp_path):
    path = tmp_path / "paged.toml"
    path.write_text(PAGED, encoding="utf-8")
    table = load_table(path, "demo")
    assert [a.name for a in table.axes] == ["weapon", "range", "class"]
    assert table.lookup(weapon="SM", range=2, **{"class": "E"}).text == "7+"
    assert table.lookup(weapon="RM", range=1, **{"class": "R"}).text == "5+"
    with pytest.raises(Exception, match="weapon=XX is outside"):
        table.lookup(weapon="XX", range=1, **{"class": "R"})


def test_pages_must_repeat_the_rows(tmp_path):
    path = tmp_path / "paged.toml"
    path.write_text(PAGED.replace('page = "RM"\nband = "2"', 'page = "RM"\nband = "3"'), encoding="utf-8")
    with pytest.raises(DataFileError, match="page Rifle does not have the rows of page Smoothbore"):
        load_table(path, "demo")


def test_a_named_axis_mixing_numbers_and_words_takes_typed_values():
    from rules.tables import Axis

    axis = Axis("stands", "Stands", (Band("Half", names=("half",)), Band("1", names=(1,)), Band("2", names=(2,))))
    assert axis.coerce("half") == "half" and axis.coerce("2") == 2


@pytest.mark.parametrize(
    "change, message",
    [
        (('printed = "2 1 2*"', 'prnted = "2 1 2*"'),
         "table demo: unknown key 'prnted' in [[row]] 2 (the keys there are band, cells, printed, page)"),
        (('dice = "1d6"', 'dice = "1d6"\ncard_note = ["a"]'),
         "table demo: unknown key 'card_note' (the keys there are id, title, source, rows, columns"),
        (('axis = "sp"', 'axis = "sp"\nlable = "SP"'),
         "table demo: unknown key 'lable' in [columns] (the keys there are axis, label, bands)"),
        # a required key misspelt: both the key missing and the key unknown are named
        (("[source]\nfile", "[source]\nfiel"),
         "table demo: the table needs [source] with file and heading; unknown key 'fiel' in [source]"),
        (('[rows]\naxis = "roll"', '[rows]\naxis = "roll"\n[[rows.band]]\nlabel = "x"'), "unknown key 'band' in [rows]"),
        (('dice = "1d6"', 'dice = "1d6"\ntarget = "above"'), "target is one of more_than, at_least, at_most, not 'above'"),
    ],
)
def test_a_key_the_schema_does_not_know_is_refused_with_its_name(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(DataFileError) as err:
        load_table(path, "demo_rules")
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)


def test_every_shipped_table_passes_the_schema():
    from rules import registry
    from rules.loader import load_ruleset

    for ruleset in registry.ruleset_ids():
        assert load_ruleset(ruleset)

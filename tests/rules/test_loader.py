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
    [("11-15", 11, 15), ("1 à 4", 1, 4), ("1 - 3", 1, 3), ("81 et +", 81, None), ("1 et -", None, 1), ("< 5", None, 4), ("-1", -1, -1)],
)
def test_band_labels_as_printed(label, low, high):
    band = Band.parse(label)
    assert (band.low, band.high, band.label) == (low, high, label)

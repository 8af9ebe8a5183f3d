"""The binding ids a user's keymap names (README, "Settings: your keys, your theme"):
each is its screen's name and the action, as the README lists them."""

from __future__ import annotations

import re
from pathlib import Path

from tui.keymap import binding_ids

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_binding_id_is_a_screen_name_and_an_action():
    odd = sorted(i for i in binding_ids() if not re.fullmatch(r"[a-z]+\.[a-z_]+", i))
    assert odd == []


def test_the_ids_the_readme_names_exist():
    section = README.read_text(encoding="utf-8").split("The binding ids are", 1)[1].split("(each `Binding", 1)[0]
    named = set(re.findall(r"`([a-z]+\.[a-z_]+)`", section))
    assert {"oob.add_unit", "weather.roll", "map.zoom_in"} <= named  # the section read as it is written
    assert named - binding_ids() == set()

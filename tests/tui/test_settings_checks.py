"""config.toml checked by campaigns.settings (a pydantic model): each bad value is one
sentence naming the key and the file, its default is used, and the good values stay."""

from __future__ import annotations

from dataclasses import asdict

from campaigns import settings as config
from tests.tui.test_settings import write_config


def test_each_bad_value_is_one_sentence_and_its_default_is_used(still_world):
    path = write_config(still_world, 'theme = 3\ndice_mode = "sometimes"\nkeymap = "ctrl+w"\n')
    settings = config.load()
    assert settings.problems == [
        f"{path}: 'theme': input should be a valid string; its default is used",
        f"{path}: 'dice_mode': must be 'rolled' or 'entered'; its default is used",
        f"{path}: 'keymap': input should be a valid dictionary; its default is used",
    ]
    assert (settings.theme, settings.dice_mode, settings.keymap) == (None, "rolled", {})


def test_values_of_the_wrong_kind_are_refused_in_one_sentence(still_world):
    # TOML's other kinds: a boolean, a list, a date, a table where text belongs.
    path = write_config(still_world, 'theme = true\ndice_mode = [1]\n[keymap]\n"app.undo" = "U"\n')
    settings = config.load()
    assert settings.problems == [
        f"{path}: 'theme': input should be a valid string; its default is used",
        f"{path}: 'dice_mode': must be 'rolled' or 'entered'; its default is used",
    ]
    assert settings.keymap == {"app.undo": "U"}
    path = write_config(still_world, "theme = 2024-05-01\n[dice_mode]\nx = 1\n")
    assert [p.split(": ")[1] for p in config.load().problems] == ["'theme'", "'dice_mode'"]


def test_good_values_are_kept_and_each_settings_object_has_its_own_keymap(still_world):
    write_config(still_world, 'theme = "nord"\ndice_mode = "entered"\n[keymap]\n"screen.weather" = "f7"\n')
    settings = config.load()
    assert settings.problems == []
    assert (settings.theme, settings.dice_mode, settings.keymap) == ("nord", "entered", {"screen.weather": "f7"})
    assert shown(settings.file) == {
        "theme": "nord", "dice_mode": "entered", "keymap": {"screen.weather": "f7"},
    }
    fresh = config.FileSettings()
    fresh.keymap["a"] = "b"  # a default is not shared between settings
    assert config.FileSettings().keymap == {} and shown(config.FileSettings()) == {
        "dice_mode": "rolled", "keymap": {},
    }


def shown(file: config.FileSettings) -> dict:
    return {key: value for key, value in asdict(file).items() if value is not None}

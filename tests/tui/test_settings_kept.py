"""What a user of the settings meets after the first day: the key line says the keys as
remapped, a campaign opened with `adjutant FILE` is among the recent files, choosing a
theme keeps the comments of config.toml, and the log is safe to read in a terminal."""

from __future__ import annotations

import logging
import tomllib
from pathlib import Path

import pytest

from campaigns import settings as config
from campaigns.logfile import start_logging
from tests.tui.helpers import wait_for_screen
from tests.tui.polling import until
from tests.tui.test_settings import log_dir, write_config  # noqa: F401  (log_dir: a fixture)
from tui.cli import main as adjutant
from tui.screens.weather import WeatherScreen
from tui.widgets.status import KeyLine


async def test_the_key_line_says_the_help_key_and_the_keys_as_remapped_in_their_place(campaign_file, make_app, still_world):
    write_config(still_world, '[keymap]\n"app.help" = "f2"\n"screen.weather" = "f7"\n"weather.roll" = "ctrl+r"\n'
                              '"screen.overview" = "f6"\n')
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        line = str(pilot.app.screen.query_one(KeyLine).render())
        assert line.rstrip().endswith("f2 all keys") and "? all keys" not in line
        assert line.startswith(" f6 Overview ")  # remapped, and still first: not pushed to the end and off the line
        await pilot.press("f7")
        await wait_for_screen(pilot, WeatherScreen)
        key_line = pilot.app.screen.query_one(KeyLine)
        await until(pilot, lambda: "Roll weather" in str(key_line.render()), "the weather's key line")
        shown = str(key_line.render())
        assert shown.index("^r Roll weather") < shown.index("e Enter die")  # as WeatherScreen declares them


def test_a_campaign_opened_from_the_command_line_is_a_recent_file(campaign_file, still_world, log_dir, monkeypatch):  # noqa: F811
    from tui.app import AdjutantApp

    monkeypatch.setattr(AdjutantApp, "run", lambda self, *a, **k: None)  # the app is not the point: what launch remembers
    monkeypatch.setattr("tui.launch.keys_from_a_terminal", lambda: True)  # as from a terminal
    assert adjutant([str(campaign_file)]) == 0
    assert config.recent_files() == [str(campaign_file)]


def test_a_database_url_with_a_password_is_never_kept(still_world):
    config.remember("postgresql+psycopg://umpire:s3cret@club.example/1813")
    config.remember("postgresql+psycopg://umpire@club.example/1813")
    config.remember("postgresql+psycopg://[oops/1813")  # not a URL urllib reads
    assert config.recent_files() == ["postgresql+psycopg://umpire@club.example/1813"]
    assert "s3cret" not in (still_world / "recent.json").read_text()


@pytest.mark.parametrize("text", [
    '# my settings\ntheme = "dracula"  # dark, for the evening\ndice_mode = "entered"  # we roll at the table\n\n'
    '[keymap]  # mine\n"app.undo" = "U"\n',
    '# my settings, none chosen yet\n\n[keymap]\n"app.undo" = "U"\n',
    "# everything commented out\n# theme = \"nord\"\n",
])
def test_choosing_a_theme_keeps_the_comments_of_config_toml(still_world, text):
    path = write_config(still_world, text)
    config.remember_theme("nord")
    written = path.read_text(encoding="utf-8")
    assert tomllib.loads(written) == {**tomllib.loads(text), "theme": "nord"}
    for line in text.splitlines():
        if line.startswith("#") or "#" in line and "theme" not in line:
            assert line in written.splitlines(), line


def test_a_bad_file_is_never_overwritten_by_the_theme(still_world):
    path = write_config(still_world, 'theme = "nord\n')
    config.remember_theme("dracula")
    assert path.read_text() == 'theme = "nord\n'


def test_the_log_writes_control_characters_out_and_no_line_of_a_message_reads_as_a_record(log_dir, still_world):  # noqa: F811
    start_logging(config.load())
    hostile = "Garde\x1b[2J\x1b]0;owned\x07 \u202eetoN\n2026-01-01 00:00:00,000 ERROR adjutant: forged"
    logging.getLogger("adjutant.store").info("action 7 (Add unit %s) took 1.0 ms", hostile)
    try:
        raise ValueError(hostile)
    except ValueError:
        logging.getLogger("adjutant.app").exception("unhandled error")
    text = (log_dir / "adjutant.log").read_text(encoding="utf-8")
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "Garde\\x1b[2J\\x1b]0;owned\\x07 \\u202eetoN" in text
    records = [line for line in text.splitlines() if line[:4].isdigit()]
    assert [line.split(" ", 3)[2] for line in records] == ["INFO", "ERROR"]  # the forged line is no record
    assert "Traceback (most recent call last):" in text


def test_the_config_command_says_where_the_log_is(still_world, log_dir, capsys):  # noqa: F811
    assert adjutant(["config"]) == 0
    assert f"Log file: {Path(log_dir) / 'adjutant.log'} (attach it to a bug report)" in capsys.readouterr().out


async def test_the_palette_says_each_command_s_keys_as_remapped(campaign_file, make_app, still_world):
    from textual.command import CommandPalette
    from textual.widgets import Input

    from tests.tui.helpers import wait_for

    write_config(still_world, '[keymap]\n"screen.weather" = "f7"\n"weather.roll" = "ctrl+r"\n')
    async with make_app(campaign_file).run_test(size=(100, 30)) as pilot:
        commands = {c.title: c.help for c in pilot.app.get_system_commands(pilot.app.screen)}
        assert commands["Weather"].endswith("(key: f7)") and commands["Undo"].endswith("(key: u)")
        assert commands["Help"].endswith("(key: ? or f1)")
        assert commands["Weather: Roll weather"].endswith("(key: ctrl+r on Weather)")
        assert commands["Order of battle: Search"].endswith("(key: / on Order of battle)")
        await pilot.press("ctrl+p")
        await wait_for_screen(pilot, CommandPalette)
        pilot.app.screen.query_one(Input).value = "Weather"
        await wait_for(pilot, "(key: f7)")  # as the palette draws it

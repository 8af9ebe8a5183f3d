"""The user's settings (config.toml in ADJUTANT_CONFIG_DIR) and the log (ADJUTANT_LOG_DIR):
a remapped key, a theme that stays, a bad file named in one sentence, and a log
that holds actions and tracebacks while the terminal gets nothing."""

from __future__ import annotations

import io
import logging
import re
import shutil
import sys
import tomllib
from dataclasses import asdict
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.widgets import Input

from campaigns import settings as config
from campaigns.logfile import start_logging
from campaigns.session import CampaignSession
from models import schema
from tests.tui.helpers import wait_for, wait_for_notice, wait_for_screen
from tui.app import AdjutantApp
from tui.cli import main as adjutant
from tui.keymap import check_keymap
from tui.screens.help import HelpScreen
from tui.screens.overview import OverviewScreen
from tui.screens.weather import WeatherScreen
from tests.tui.polling import caught_up, until



def write_config(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def log_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The log in a folder of the test's own, taken off the root logger afterwards."""
    folder = tmp_path / "logs"
    monkeypatch.setenv("ADJUTANT_LOG_DIR", str(folder))
    yield folder
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "adjutant", False)]:
        root.removeHandler(handler)
        handler.close()
    logging.captureWarnings(False)


async def test_a_remapped_key_works_and_shows_in_help_after_a_restart(campaign_file, make_app, still_world):
    write_config(still_world, '[keymap]\n"screen.weather" = "f7"\nweather.roll = "ctrl+r"\n')
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w")  # the old key no longer shows the weather
        await caught_up(pilot)  # handled: by nothing
        assert not isinstance(pilot.app.screen, WeatherScreen)
        await pilot.press("f7")
        await wait_for_screen(pilot, WeatherScreen)
        await pilot.press("ctrl+r")  # a screen's own binding, remapped
        await wait_for_notice(pilot, "Turn 1:")  # it rolled (the line "Turn 1, 26 April 1813: " shows before it too)
        await pilot.press("f1")
        await wait_for_screen(pilot, HelpScreen)
        text = str(pilot.app.screen.query_one("Static").content)
    assert re.search(r"ctrl\+r\s+Roll weather", text)
    assert re.search(r"f7\s+Weather:", text)
    assert not re.search(r"\bw\s+Weather:", text)


async def test_a_bad_config_is_named_in_one_sentence_and_the_defaults_are_used(campaign_file, make_app, still_world):
    path = write_config(
        still_world,
        'colour = "red"\ndice_mode = "sometimes"\ntheme = 3\n[keymap]\n"screen.weather" = "f7"\n"no.such" = "f8"\n',
    )
    settings = config.load()
    check_keymap(settings)
    assert len(settings.problems) == 4
    for key in ["colour", "dice_mode", "theme", "no.such"]:
        (problem,) = [p for p in settings.problems if f"'{key}'" in p]
        assert str(path) in problem and "\n" not in problem
    assert settings.dice_mode == "rolled" and settings.theme is None
    assert settings.keymap == {"screen.weather": "f7"}  # the good entry stays
    async with make_app(campaign_file, settings=settings).run_test(size=(80, 24)) as pilot:
        await pilot.press("f7")
        await wait_for_screen(pilot, WeatherScreen)


def test_a_file_that_is_not_toml_is_one_sentence_and_the_defaults(still_world, capsys):
    path = write_config(still_world, "theme = [unclosed\n")
    settings = config.load()
    (problem,) = settings.problems
    assert str(path) in problem and "not valid TOML" in problem
    assert settings.keymap == {} and settings.dice_mode == "rolled"
    assert adjutant(["config"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not valid TOML" in err


async def test_the_theme_chosen_is_remembered(campaign_file, make_app, still_world):
    write_config(still_world, '[keymap]\n"app.undo" = "U"\n')
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await wait_for_screen(pilot, CommandPalette)
        pilot.app.screen.query_one(Input).value = "Theme"
        await wait_for(pilot, "Change the current theme")
        await pilot.press("enter")  # Textual's theme picker, a palette of its own
        await wait_for(pilot, "Search for themes")
        pilot.app.screen.query_one(Input).value = "nord"
        await wait_for(pilot, "nord")
        await pilot.press("enter")
        await until(pilot, lambda: (still_world / "config.toml").read_text().startswith("theme"), "(still_world / 'config.toml').read_text().startswith('theme')")
    stored = tomllib.loads((still_world / "config.toml").read_text())
    assert stored == {"theme": "nord", "keymap": {"app.undo": "U"}}  # the keymap kept as it was
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)):
        assert app.theme == "nord"


def test_adjutant_config_prints_where_the_settings_are_and_what_they_hold(still_world, log_dir, capsys):
    write_config(still_world, 'dice_mode = "entered"\n[keymap]\n"screen.map" = "M"\n')
    config.remember("/tmp/one.campaign")
    assert adjutant(["config"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert f"Settings file: {still_world / 'config.toml'}" in out
    assert f"Log file: {log_dir / 'adjutant.log'}" in out
    assert 'dice_mode = "entered"' in out and '"screen.map" = "M"' in out
    assert "  /tmp/one.campaign" in out


def test_new_takes_the_dice_mode_of_the_config(still_world, tmp_path, log_dir, capsys):
    write_config(still_world, 'dice_mode = "entered"\n')
    assert adjutant(["new", "spring1813", str(tmp_path / "a.campaign")]) == 0
    assert "typed in by the players" in capsys.readouterr().out
    assert adjutant(["new", "spring1813", str(tmp_path / "b.campaign"), "--rolled-dice"]) == 0
    assert "rolled from seed" in capsys.readouterr().out


async def test_the_log_holds_each_action_with_its_duration_and_an_error_with_its_traceback(
    campaign_file, make_app, log_dir, capfd, monkeypatch
):
    settings = config.load()
    start_logging(settings)
    CampaignSession.open(campaign_file).close()
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", "r")
        await wait_for_notice(pilot, "Turn 1:")  # the roll logged once it has run (the line "Turn 1, 26 April 1813: " shows before it)

    def damaged(_self: object) -> None:
        raise ValueError("a row nobody expected")

    monkeypatch.setattr(OverviewScreen, "refresh_view", damaged)
    app = AdjutantApp(CampaignSession.open(campaign_file), prepare=False)
    with pytest.raises(ValueError):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
    assert app.failure and "\n" not in app.failure
    text = (log_dir / "adjutant.log").read_text(encoding="utf-8")
    assert f"opened {campaign_file}" in text
    assert re.search(r"INFO adjutant\.store: action \d+ \(.*weather.*\) took \d+\.\d ms", text, re.IGNORECASE), text
    assert "ERROR adjutant.app: unhandled error\nTraceback (most recent call last):" in text
    assert "ValueError: a row nobody expected" in text
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def in_process(*args: str) -> tuple[int, str, str]:
    """`adjutant ARGS` run in this process as `python -m tui.cli ARGS` runs it, with standard
    streams of its own: its exit code, stdout and stderr. Each call starts the log anew
    (campaigns.logfile.start_logging takes off the handler a previous one added), as a new
    process does; a process start was 0.3-1.3 CPU-s, and what these tests check is what the
    command prints and logs, not the process."""
    out, err = io.StringIO(), io.StringIO()
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = adjutant(list(args))
    finally:
        sys.stdout, sys.stderr = streams
    return code, out.getvalue(), err.getvalue()


def test_the_command_line_logs_migrations_and_refusals_and_prints_only_its_sentence(tmp_path, log_dir, still_world, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    # As in a process of its own, nothing migrated before: the migrations run (and log) rather
    # than replaying the statements a campaign made earlier in this process sent (models.schema).
    monkeypatch.setattr(schema, "_FROM_NOTHING", {})
    code, _out, err = in_process("new", "spring1813", str(tmp_path / "a.campaign"))
    assert code == 0 and err == ""
    code, _out, refused = in_process("log", str(tmp_path / "missing.campaign"))
    assert code == 2 and refused.count("\n") == 1
    text = (log_dir / "adjutant.log").read_text(encoding="utf-8")
    assert "alembic.runtime.migration: Running upgrade" in text
    assert "adjutant.cli: refused: " + refused.removeprefix("adjutant: ").strip() in text


def test_the_app_names_each_bad_entry_on_stderr_before_it_starts(still_world, tmp_path, log_dir, capsys):
    path = write_config(still_world, 'dice_mode = "often"\n[keymap]\n"screen.nowhere" = "f9"\n')
    assert adjutant([str(tmp_path / "missing.campaign")]) == 2  # refused after the settings are read
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3
    assert f"{path}: 'dice_mode'" in lines[0] and f"{path}: keymap 'screen.nowhere'" in lines[1]
    assert "missing.campaign" in lines[2]
    text = (log_dir / "adjutant.log").read_text(encoding="utf-8")
    assert "'dice_mode'" in text and "refused: " in text


def test_the_environment_is_read_by_prefix_in_any_case_and_nothing_else():
    """What pydantic-settings did (ADJUTANT_ + the field, the name's case not counting),
    done by hand so its import is not part of every start."""
    env = config.Environment.read({
        "ADJUTANT_DATABASE_URL": "postgresql+psycopg://club/1813",
        "adjutant_config_dir": "/tmp/cfg",
        "Adjutant_Debug": "",
        "ADJUTANT_THEME": "nord",  # a config.toml key, not an environment setting: ignored
        "LOG_DIR": "/elsewhere",  # no prefix: not ours
        "XADJUTANT_LOG_DIR": "/elsewhere",
    })
    assert asdict(env) == {
        "database_url": "postgresql+psycopg://club/1813", "config_dir": "/tmp/cfg", "log_dir": None, "debug": "",
    }
    assert asdict(config.Environment.read({})) == dict.fromkeys(("database_url", "config_dir", "log_dir", "debug"))


def test_the_settings_follow_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("ADJUTANT_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.delenv("ADJUTANT_LOG_DIR", raising=False)
    monkeypatch.setenv("adjutant_log_dir", str(tmp_path / "logs"))
    monkeypatch.setenv("ADJUTANT_DATABASE_URL", "postgresql+psycopg://club/1813")
    monkeypatch.delenv("ADJUTANT_DEBUG", raising=False)
    settings = config.load()
    assert settings.config_path == tmp_path / "cfg" / "config.toml"
    assert settings.log_path == tmp_path / "logs" / "adjutant.log"
    assert settings.database_url == "postgresql+psycopg://club/1813"
    assert settings.debug is False


def test_a_log_rotated_by_another_adjutant_meanwhile_prints_nothing_and_the_next_record_is_kept(tmp_path, log_dir, monkeypatch):
    """Another `adjutant` of the user removed a rotated file as this one rotates (here: a
    folder where the oldest file goes, which no rename or remove can take): the command
    says only its sentence, and the log goes on. Each `adjutant check` runs in this
    process (in_process), its log started anew as in a process of its own."""
    folder = log_dir
    folder.mkdir()
    log = folder / "adjutant.log"
    log.write_text("x" * 1_100_000)  # past MAX_BYTES: the next record rotates
    (folder / "adjutant.log.2").write_text("older\n")
    (folder / "adjutant.log.3").mkdir()  # os.remove fails, as on a file another process took
    (folder / "adjutant.log.3" / "kept").write_text("")
    monkeypatch.setenv("HOME", str(tmp_path))

    def check() -> None:
        code, out, err = in_process("check", str(tmp_path / "nothing.campaign"))
        assert code != 0 and out == ""
        assert err.startswith("adjutant: ") and err.count("\n") == 1, err

    check()
    check()
    shutil.rmtree(folder / "adjutant.log.3")  # the other process is done: the next rotation goes through
    check()
    assert "refused" in log.read_text(encoding="utf-8") and (folder / "adjutant.log.1").stat().st_size > 1_000_000

"""The one table of `adjutant`'s commands (tui/cli.py): every command in it runs
`--help`, `adjutant --help` lists every one, and nothing else lists them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rules.commandline import Command, names
from tui.cli import COMMANDS, main
from tui.launch import epilog

ROOT = Path(__file__).resolve().parent.parent
EVERY = list(names(COMMANDS))


def test_the_table_names_each_command_once_with_a_runner_and_a_guard():
    tops = [c.name for c in COMMANDS]
    assert len(tops) == len(set(tops))
    assert len(EVERY) == len(set(EVERY))

    def leaves(commands: tuple[Command, ...]):
        for command in commands:
            yield from leaves(command.sub) if command.sub else [command]

    for command in COMMANDS:
        assert command.guard, command.name
    for command in leaves(COMMANDS):
        assert re.fullmatch(r"[\w.]+:\w+", command.run), command.name


@pytest.mark.parametrize("command", EVERY)
def test_every_command_runs_help(command, capsys):
    assert main([*command.split(), "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: adjutant {command}")


@pytest.mark.parametrize("command", [c.name for c in COMMANDS if c.sub])
def test_a_command_of_sub_commands_without_one_is_one_sentence(command, capsys):
    assert main([command]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "required" in err


def test_the_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert epilog() in out
    for command in EVERY:
        assert re.search(rf"[ :]{command}[,. ]", epilog()), command


def test_an_unknown_option_of_the_app_is_one_sentence(capsys):
    assert main(["--bogus"]) == 2
    assert capsys.readouterr().err == "adjutant: unrecognized arguments: --bogus (adjutant --help lists the commands)\n"


def test_the_rules_commands_load_neither_textual_nor_sqlmodel():
    code = ("import sys; from tui.cli import main; main(['rules', 'list']); "
            "print(sorted(m for m in ('textual', 'sqlmodel', 'campaigns.cli') if m in sys.modules), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stderr.strip() == "[]"


def test_no_second_list_of_commands():
    """The old lists (CAMPAIGN_COMMANDS, the launch's hard-coded epilog, add_parser calls) are gone."""
    for path in [*(ROOT / "campaigns").glob("cli*.py"), ROOT / "rules" / "cli.py", ROOT / "tui" / "launch.py"]:
        text = path.read_text(encoding="utf-8")
        assert "add_parser(" not in text and "add_subparsers(" not in text, path
    assert "CAMPAIGN_COMMANDS" not in (ROOT / "tui" / "cli.py").read_text(encoding="utf-8")

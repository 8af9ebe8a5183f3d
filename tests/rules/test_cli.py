"""`adjutant rules` as a person uses it: answers, layouts and bad input."""

import json
import subprocess
import sys

import pytest

from tui.cli import main


def run(capsys, *args):
    code = main(["rules", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_shows_tables_and_axes(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    for line in ["combat(roll, sp)", "artillery(roll, ab)", "pursuit(roll, cb)",
                 "reconnaissance(roll, differential)", "forced_march(roll, sp)", "weather(roll, month)"]:
        assert line in out


def test_show_lays_out_the_card(capsys):
    code, out, _ = run(capsys, "show", "allemagne1813", "combat")
    assert code == 0
    assert "81 et +" in out and "3*" in out and "Reading:" in out and "000_af08e2398854582c.txt" in out


@pytest.mark.parametrize(
    "args, printed",
    [
        (["combat", "roll=8", "sp=35"], "3*"),
        (["combat", "roll=-1", "sp=2"], "-"),
        (["weather", "roll=4", "month=10"], "Rain*"),
        (["weather", "roll=0", "month=7"], "Clear"),
        (["command_points", "action=activate_cinc", "loc=none"], "-"),
    ],
)
def test_lookup_prints_the_cell(capsys, args, printed):
    code, out, _ = run(capsys, "lookup", "allemagne1813", *args)
    assert code == 0 and out.splitlines()[0] == printed


def test_lookup_json(capsys):
    code, out, _ = run(capsys, "lookup", "allemagne1813", "combat", "roll=8", "sp=35", "--json")
    data = json.loads(out)
    assert code == 0 and data["text"] == "3*" and data["meaning"] == ["Immediate mandatory Morale Test"]


def test_odds(capsys):
    code, out, _ = run(capsys, "odds", "allemagne1813", "combat", "sp=35", "--modifier", "2", "--json")
    data = json.loads(out)
    assert code == 0
    assert {r["text"]: r["probability"] for r in data["results"]} == {"1": "1/2", "2": "1/3", "3*": "1/6"}


@pytest.mark.parametrize(
    "args, message",
    [
        (["lookup", "nosuch", "combat", "roll=1"], "unknown rule set 'nosuch'"),
        (["lookup", "allemagne1813", "nosuch", "roll=1"], "has no table 'nosuch'"),
        (["lookup", "allemagne1813", "combat", "roll=1", "dice=2"], "has no axis 'dice'"),
        (["lookup", "allemagne1813", "combat", "roll=11", "sp=5"], "roll=11 is outside the table"),
        (["lookup", "allemagne1813", "combat", "roll=eight", "sp=5"], "roll must be a whole number"),
        (["lookup", "allemagne1813", "combat", "roll=3"], "needs sp=VALUE"),
        (["lookup", "allemagne1813", "combat", "roll", "sp=3"], "is not AXIS=VALUE"),
        (["lookup", "allemagne1813", "weather", "roll=3", "month=13"], "month=13 is outside the table"),
        (["odds", "allemagne1813", "combat", "sp=3", "--modifier", "x"], "--modifier must be a whole number"),
        (["odds", "allemagne1813", "artillery", "ab=3", "--modifier", "-1"], "beyond the printed rows"),
        (["frobnicate"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_the_installed_command_answers_without_textual_or_sqlmodel():
    code = (
        "import sys; from tui.cli import main; rc = main(['rules','lookup','allemagne1813','combat','roll=8','sp=35']);"
        "bad = [m for m in ('textual', 'sqlmodel', 'sqlalchemy', 'icepool') if m in sys.modules];"
        "print('loaded', bad); sys.exit(rc)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["3*", "*: Immediate mandatory Morale Test", "loaded []"]


def test_the_console_script_bad_input_has_no_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "rules", "lookup", "allemagne1813", "combat", "roll=99", "sp=1"],
        capture_output=True, text=True,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_odds_of_a_table_that_is_read_not_rolled_say_so(capsys):
    from tui.cli import main

    assert main(["rules", "odds", "kallistra_acw", "movement", "arm=infantry", "formation=line"]) == 2
    err = capsys.readouterr().err
    assert "table movement is read, not rolled against" in err and "Traceback" not in err


def test_odds_of_a_card_that_names_its_die(capsys):
    from tui.cli import main

    assert main(["rules", "odds", "napoleonic_13phase", "morale", "class=veteran"]) == 0
    assert "5 or less on 1d6" in capsys.readouterr().out

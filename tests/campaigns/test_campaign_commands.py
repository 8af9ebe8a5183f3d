"""The campaign-file commands, as an umpire types them."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from models import open_campaign
from tui.cli import main
from tests.templates import new_campaign

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "spring.campaign"
    assert run(capsys, "new", "spring1813", str(path), "--seed", "42")[0] == 0
    with open_campaign(path) as store:
        dice = store.dice()
        dice.roll("1d6", "weather")
        dice.roll("1d6", "forced march")
        dice.roll("1d6", "typed in", entered=[6])
        dice.roll("2d6", "command points", by="French player")
        store.undo()
    return path


def test_scenarios_lists_both_campaigns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "scenarios")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["autumn1813", "spring1813"]


def test_new_creates_a_campaign_file_and_names_its_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "new", "autumn1813", str(tmp_path / "leipzig"), "--seed", "1813", "--name", "Leipzig"
    )
    assert code == 0 and "seed 1813" in out
    with open_campaign(tmp_path / "leipzig.campaign") as store:
        assert (store.campaign().name, store.campaign().dice_seed) == ("Leipzig", 1813)


def test_new_with_manual_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "spring1813", str(tmp_path / "table.campaign"), "--manual-dice")
    assert code == 0 and "typed in by the players" in out
    with open_campaign(tmp_path / "table.campaign") as store:
        assert store.campaign().dice_mode == "entered"


def test_new_refuses_to_overwrite(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = campaign.read_bytes()
    code, _, err = run(capsys, "new", "autumn1813", str(campaign))
    assert code == 2 and "already exists" in err and err.count("\n") == 1
    assert campaign.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "nowhere", "x.campaign"], "unknown scenario 'nowhere'"),
        (["new", "spring1813", "x.campaign", "--seed", "-3"], "dice seed"),
        (["new", "spring1813", "x.campaign", "--seed", "many"], "is not a whole number"),
        (["new"], "required: SCENARIO"),
        (["check"], "name a campaign FILE"),
        (["check", "a.campaign", "--db", "postgresql://club/1813"], "not both"),
        (["dice"], "required: AUDIT"),
        (["export", "--db", "mysql://club/1813"], "mysql databases are not supported"),
    ],
)
def test_usage_errors_are_one_sentence_and_exit_2(
    args: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ADJUTANT_DATABASE_URL", raising=False)
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert message in err and err.startswith("adjutant: ") and err.count("\n") == 1
    assert not (tmp_path / "x.campaign").exists()


def test_check_passes_a_sound_campaign(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(campaign))
    assert code == 0 and "sound" in out


def test_export_import_export_gives_identical_json(
    campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, exported, _ = run(capsys, "export", str(campaign))
    assert code == 0
    (tmp_path / "export.json").write_text(exported)
    assert run(capsys, "import", str(tmp_path / "export.json"), str(tmp_path / "copy.campaign"))[0] == 0
    assert run(capsys, "export", str(tmp_path / "copy.campaign"))[1] == exported
    assert json.loads(exported)["tables"]["campaign"][0]["dice_seed"] == 42


def test_import_refuses_to_overwrite_and_reads_standard_input(
    campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    exported = run(capsys, "export", str(campaign))[1]
    (tmp_path / "export.json").write_text(exported)
    code, _, err = run(capsys, "import", str(tmp_path / "export.json"), str(campaign))
    assert code == 2 and "already exists" in err
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(exported))
    assert run(capsys, "import", "-", str(tmp_path / "piped.campaign"))[0] == 0
    code, _, err = run(capsys, "import", str(tmp_path / "missing.json"), str(tmp_path / "other.campaign"))
    assert code == 2 and "missing.json" in err and err.count("\n") == 1


def test_log_prints_events_and_dice_newest_last(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "log", str(campaign))
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("#1 ") and "setup" in lines[0]
    assert "weather: 1d6" in lines[1]
    assert lines[2] == "      campaign: dice stream position 0 -> 1"  # each changed field, old -> new
    assert "dice #1: weather 1d6" in lines[3]
    assert "typed in, umpire" in lines[-5] and "= 6 = 6" in lines[-5]
    # The undone roll stays in the record, marked, with the undo that took it back.
    undone = next(i for i, line in enumerate(lines) if "command points: 2d6" in line)
    assert lines[undone].endswith("[undone #6]") and " action " in lines[undone]
    assert lines[undone + 2].endswith("[rolled, stream 2, French player, undone]")
    assert lines[-1].startswith("#6 ") and " undo " in lines[-1] and lines[-1].endswith("#5 command points: 2d6")
    code, out, _ = run(capsys, "log", str(campaign), "--dice-only")
    assert code == 0 and all("dice #" in line for line in out.splitlines())
    assert len(out.splitlines()) == 3  # the undone roll is in the history, not among the dice


def test_dice_verify_accepts_honest_dice_and_finds_a_tampered_roll(
    campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "dice", "verify", str(campaign))
    assert code == 0 and out == "All 2 rolled dice match the campaign's seed; 1 typed in by the umpire.\n"
    with sqlite3.connect(campaign) as db:
        db.execute("UPDATE dice_roll SET raw = '[6]', result = 6 WHERE purpose = 'weather'")
    db.close()
    code, out, err = run(capsys, "dice", "verify", str(campaign))
    assert code == 1 and "dice #1 (weather, stream 0) does not match" in err


def test_dice_verify_on_a_campaign_with_dice_typed_in_says_there_is_nothing_to_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "typed.campaign"
    assert run(capsys, "new", "spring1813", str(path), "--manual-dice")[0] == 0
    assert run(capsys, "dice", "verify", str(path))[1] == "No rolled dice to verify: none stored yet.\n"
    with open_campaign(path) as store:
        store.dice().roll("1d6", "weather", entered=[3])
        store.dice().roll("2d6", "command points", entered=[2, 5])
    code, out, _ = run(capsys, "dice", "verify", str(path))
    assert code == 0 and out == "No rolled dice to verify; 2 typed in by the umpire.\n"


def test_battles_lists_none_yet(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "battles", str(campaign))[1] == "No battle has been fought in this campaign.\n"
    assert run(capsys, "battles", "--list", str(campaign))[1] == "No battles yet.\n"


def test_a_stored_battle_the_card_refuses_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A file written before 'Defence is open terrain' excluded 'Defender in mountain'
    # (or by hand): the account refuses it in one sentence, and the file is unchanged.
    from campaigns import battles, oob, weather
    from campaigns.session import CampaignSession
    from models import Battle

    path = tmp_path / "old.campaign"
    session = CampaignSession.open(new_campaign(path, "spring1813", seed=1))
    weather.roll(session, [2])
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
    battle_id = battles.begin(session, battles.Draft("Halle", french, allies, override="a test battle between forces placed by hand"))
    with session.store.action("an older set-up") as db:
        row = db.get(Battle, battle_id)
        facts = {**row.detail["setup"]["facts"], "defence_in_open_terrain": True, "defender_in_mountain": True}
        row.detail = {**row.detail, "setup": {**row.detail["setup"], "facts": facts}}
    session.close()
    before = path.read_bytes()
    code, out, err = run(capsys, "battles", str(path))
    assert code != 0 and err.count("\n") == 1 and "Traceback" not in err
    assert "'Defence is open terrain: D +1' excludes 'Defender in mountain'" in err
    assert path.read_bytes() == before


def test_the_commands_work_on_postgresql_by_flag_and_by_variable(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, "new", "spring1813", "--db", postgres_url, "--seed", "3")[0] == 0
    code, _, err = run(capsys, "new", "spring1813", "--db", postgres_url)
    assert code == 2 and "already holds tables" in err
    monkeypatch.setenv("ADJUTANT_DATABASE_URL", postgres_url)
    assert run(capsys, "check")[0] == 0
    exported = run(capsys, "export")[1]
    assert run(capsys, "export", "--db", postgres_url)[1] == exported
    assert run(capsys, "dice", "verify")[0] == 0
    assert run(capsys, "log")[0] == 0
    (tmp_path / "club.json").write_text(exported)
    assert run(capsys, "import", str(tmp_path / "club.json"), str(tmp_path / "home.campaign"))[0] == 0
    assert run(capsys, "export", str(tmp_path / "home.campaign"))[1] == exported


def test_the_installed_entry_point_runs_without_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "junk.campaign").write_bytes(b"\x00" * 300)
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "check", str(tmp_path / "junk.campaign")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 1
    assert (
        done.stderr == f"adjutant: {tmp_path / 'junk.campaign'} is not an Adjutant campaign file "
        "(it is not a SQLite database)\n"
    )

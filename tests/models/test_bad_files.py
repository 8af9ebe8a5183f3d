"""Every kind of bad file gets one clear sentence and a non-zero exit, and stays byte for byte as it was."""

from __future__ import annotations

import hashlib
import random
import re
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from campaigns.scenario import load_scenario
from campaigns.setup import create_campaign
from models import CampaignFileError, check_campaign, open_campaign
from models.schema import head
from tui.cli import main


@pytest.fixture(scope="module")
def real_campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("real") / "real.campaign"
    create_campaign(path, load_scenario("autumn1813"), seed=1).close()
    return path


def random_bytes(path: Path, _real: Path) -> str:
    path.write_bytes(random.Random(3).randbytes(8192))
    return "not an Adjutant campaign file (it is not a SQLite database)"


def empty(path: Path, _real: Path) -> str:
    path.write_bytes(b"")
    return "is empty"


def text(path: Path, _real: Path) -> str:
    path.write_text("Ney to Lützen, Marmont to Weißenfels\n")
    return "not a SQLite database"


def truncated(path: Path, real: Path) -> str:
    data = real.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return "truncated"


def truncated_in_header(path: Path, real: Path) -> str:
    path.write_bytes(real.read_bytes()[:60])
    return "truncated"


def foreign_sqlite(path: Path, _real: Path) -> str:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute("INSERT INTO orders (text) VALUES ('march on Dresden')")
    db.close()
    return "SQLite database of another program"


def newer_schema(path: Path, real: Path) -> str:
    shutil.copy(real, path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = '0099'")
        db.execute("PRAGMA user_version = 99")
    db.close()
    return "newer version of Adjutant (schema 99"


def newer_revision_only(path: Path, real: Path) -> str:
    """A newer Adjutant that forgot to bump user_version is still caught by its Alembic revision."""
    shutil.copy(real, path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = ?", (f"{int(head()) + 1:04d}",))
    db.close()
    return "newer version of Adjutant"


BAD_FILES: list[Callable[[Path, Path], str]] = [
    random_bytes,
    empty,
    text,
    truncated,
    truncated_in_header,
    foreign_sqlite,
    newer_schema,
    newer_revision_only,
]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("make", BAD_FILES, ids=lambda make: make.__name__)
def test_opening_a_bad_file_says_why_in_one_sentence_and_leaves_it_untouched(
    make: Callable[[Path, Path], str], real_campaign: Path, tmp_path: Path
) -> None:
    path = tmp_path / "bad.campaign"
    expected = make(path, real_campaign)
    before = digest(path)
    with pytest.raises(CampaignFileError) as error:
        open_campaign(path)
    assert expected in str(error.value) and "\n" not in str(error.value)
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.campaign"]  # no journal, no backup


@pytest.mark.parametrize("make", BAD_FILES, ids=lambda make: make.__name__)
@pytest.mark.parametrize("command", [["check"], ["export"], ["log"], ["dice", "verify"], ["battles"]])
def test_every_command_refuses_a_bad_file_with_one_line_and_a_nonzero_exit(
    make: Callable[[Path, Path], str],
    command: list[str],
    real_campaign: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "bad.campaign"
    make(path, real_campaign)
    before = digest(path)
    assert main([*command, str(path)]) != 0
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("adjutant: ") and err.count("\n") == 1
    assert digest(path) == before


def test_a_missing_file_or_a_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(CampaignFileError, match="does not exist"):
        open_campaign(tmp_path / "nowhere.campaign")
    with pytest.raises(CampaignFileError, match="is a folder"):
        open_campaign(tmp_path)
    assert not (tmp_path / "nowhere.campaign").exists()


def test_check_finds_a_corrupted_page_and_leaves_the_file_as_it_was(
    real_campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "damaged.campaign"
    data = bytearray(real_campaign.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[3 * page : 4 * page] = random.Random(5).randbytes(page)  # the fourth page: a table's b-tree
    path.write_bytes(bytes(data))
    before = digest(path)
    assert not check_campaign(path).sound
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "malformed" in err or "integrity check" in err
    assert digest(path) == before


def test_check_accepts_a_sound_campaign(real_campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = digest(real_campaign)
    assert main(["check", str(real_campaign)]) == 0
    assert "sound" in capsys.readouterr().out
    assert digest(real_campaign) == before


class TestPostgreSQL:
    def test_an_empty_database_holds_no_campaign_yet(self, postgres_url: str) -> None:
        with pytest.raises(CampaignFileError, match="holds no campaign yet"):
            open_campaign(postgres_url)

    def test_a_database_of_something_else_is_refused_and_left_alone(self, postgres_url: str) -> None:
        import psycopg

        plain = postgres_url.replace("+psycopg", "")
        with psycopg.connect(plain, autocommit=True) as db:
            db.execute("CREATE TABLE orders (id serial PRIMARY KEY, text text)")
        with pytest.raises(CampaignFileError, match="something other than an Adjutant campaign"):
            open_campaign(postgres_url)
        with pytest.raises(CampaignFileError, match="already holds tables"):
            create_campaign(postgres_url, load_scenario("spring1813"))
        with psycopg.connect(plain) as db:
            tables = db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()
        assert tables == [("orders",)]

    def test_a_campaign_from_a_newer_version_is_refused(self, postgres_url: str) -> None:
        import psycopg

        create_campaign(postgres_url, load_scenario("spring1813")).close()
        with psycopg.connect(postgres_url.replace("+psycopg", ""), autocommit=True) as db:
            db.execute("UPDATE alembic_version SET version_num = '0099'")
        with pytest.raises(CampaignFileError, match="newer version of Adjutant"):
            open_campaign(postgres_url)

    def test_an_unreachable_server_is_one_sentence(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(CampaignFileError, match="cannot use the campaign at postgresql"):
            open_campaign("postgresql://umpire:secret@127.0.0.1:1/club")
        assert main(["export", "--db", "postgresql://umpire:secret@127.0.0.1:1/club"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "secret" not in err


# Every character a terminal may obey: C0 (tab and newline too: one line), DEL, C1, the bidirectional controls.
QUOTED = [chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x61C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]]
SHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def schema_quoting(path: Path, real: Path, character: str) -> None:
    """`real` with the dice table's schema broken by `character` where SQLite reads a token: SQLite's
    own message then quotes it ('malformed database schema (dice_roll) - unrecognized token: "\x1a"')."""
    shutil.copyfile(real, path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET sql = ? WHERE name = 'dice_roll'", (f"CREATE TABLE dice_roll (id INTEGER PRIMARY KEY, x {character}{character}1)",))
    db.commit()
    db.close()


@pytest.mark.parametrize("chunk", range(4))
def test_a_database_message_quoting_a_control_character_reaches_no_terminal_raw(
    chunk: int, real_campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A damaged schema whose broken token is a control character (a bit flip's \x1a): the sentence
    that says the file is damaged writes it out ("<U+001A>"), opening it and in every command."""
    for character in QUOTED[chunk::4]:
        path = tmp_path / f"quoting-{ord(character):04x}.campaign"
        schema_quoting(path, real_campaign, character)
        before = digest(path)
        with pytest.raises(CampaignFileError) as error:
            open_campaign(path)
        said = str(error.value)
        assert "is damaged" in said and not SHOWABLE.search(said), repr(said)
        for command in (["check"], ["export"], ["log"]):
            assert main([*command, str(path)]) != 0
            out, err = capsys.readouterr()
            assert out == "" and err.startswith("adjutant: ") and err.count("\n") == 1, (command, repr(err))
            assert not SHOWABLE.search(err[:-1]), (command, repr(err))
        assert digest(path) == before

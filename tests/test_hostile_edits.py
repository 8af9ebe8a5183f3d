"""Hand-edited campaign files (tests/hostile_edits.py): every read-only command shows them or
refuses them in one sentence that names what is wrong, and `check` agrees.

Each file is a played campaign with one edit a person could make with `sqlite3`: a NULL,
a reference to a row that does not exist, a duplicate name, a number out of range, nasty
text, a record of changes that is not one, turns out of order, rows deleted. Every command
of COMMANDS runs on it in-process (tests/test_hostile_files.py `run`), and for each:
no traceback and no hang; a refusal is one line on stderr with a non-zero exit and names
no database error (no "FOREIGN KEY constraint failed"); nothing printed holds a control
character or a bidirectional one; the file and its folder keep their bytes. A command that
shows the unedited file but refuses the edited one refuses a file `check` calls damaged.
The suite draws one edit of every kind with the run's seed (tests/seeds.py);
`python -m tests.hostile_edits` runs them all and prints the figures.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from campaigns.text import BIDI_CONTROLS
from tests import hostile_edits, seeds
from tests.test_hostile_files import Hang, folder_state, run

# Control characters (newline aside), and the bidirectional controls, which drive nothing but
# reorder what a terminal shows: campaigns.text.shown writes those out ("<U+202E>").
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
BIDI = re.compile(f"[{BIDI_CONTROLS}]")
# What the database or Python said, passed on raw instead of a sentence naming the row.
RAW = re.compile(r"constraint failed|FOREIGN KEY|NOT NULL|datatype mismatch|no such (table|column)|"
                 r"Traceback|sqlalchemy|sqlite3\.|object has no attribute|NoneType|not subscriptable|"
                 r"unsupported operand|invalid literal|'<' not supported|KeyError|has no len", re.IGNORECASE)
# A refusal that says the file is damaged: `check` must then find it damaged too.
DAMAGE = re.compile(r"damaged|cannot be read|cannot read|breaks the campaign's records|adjutant check", re.IGNORECASE)
COMMANDS_DRAWN = 3  # of the commands other than check, on each edited file
SECONDS = 20

# FILE is put where the command takes its campaign; OUT in a folder of the outputs.
COMMANDS: list[list[str]] = [
    ["check", "FILE"], ["export", "FILE"], ["log", "FILE"], ["log", "--dice-only", "FILE"],
    ["dice", "verify", "FILE"], ["dice", "reveal", "FILE"], ["battles", "FILE"], ["battles", "--list", "FILE"],
    ["options", "FILE"], ["luck", "FILE"], ["luck", "--json", "--side", "allies", "FILE"],
    ["report", "-o", "OUT.md", "FILE"], ["report", "--format", "html", "-o", "OUT.html", "FILE"],
    ["report", "--battle", "1", "--format", "txt", "-o", "OUT.txt", "FILE"],
    ["past", "--turn", "2", "FILE"], ["past", "--event", "9", "FILE"],
    ["places", "--all", "FILE"], ["route", "FILE", "ney", "Dresden"],
    ["map", "-o", "OUT.svg", "FILE"], ["map", "--side", "allies", "--turn", "2", "-o", "OUT.svg", "FILE"],
    ["despatch", "--side", "allies", "-o", "OUT.campaign", "FILE"],
    ["despatch", "--side", "french", "--format", "md", "-o", "OUT.md", "FILE"],
    ["despatch", "--side", "allies", "--format", "html", "-o", "OUT.html", "FILE"],
    ["knows", "--side", "allies", "FILE"], ["orders", "list", "FILE"],
]


def played_file(path: Path) -> Path:
    """The played campaign the edits start from: four turns, a battle, marches, dice."""
    from tests.played import play

    play(path, 4)
    return path


_played: list[Path] = []


def shared_played() -> Path:
    """The played campaign, made once per process (this module's tests and the app's share it):
    the tests copy it and never write to it."""
    if not _played:
        import atexit
        import shutil
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="adjutant-hand-edits-"))
        atexit.register(shutil.rmtree, folder, True)
        _played.append(played_file(folder / "real.campaign"))
    return _played[0]


@pytest.fixture(scope="module")
def real() -> Path:
    return shared_played()


def name(command: list[str]) -> str:
    return " ".join(word for word in command if word != "FILE" and not word.startswith("OUT"))


def run_one(command: list[str], path: Path, outputs: Path) -> tuple[int, bytes, str]:
    for old in outputs.iterdir():
        old.unlink()
    args = [str(path) if word == "FILE" else str(outputs / f"out{word[3:]}") if word.startswith("OUT") else word
            for word in command]
    return run(*args, seconds=SECONDS)


_baseline: dict[tuple[Path, str], int] = {}


def baseline(real: Path, command: list[str]) -> int:
    """The command's exit code on the unedited file (run when an edited file is refused)."""
    key = (real, name(command))
    if key not in _baseline:
        outputs = real.parent / "baseline-out"
        outputs.mkdir(exist_ok=True)
        _baseline[key] = run_one(command, real, outputs)[0]
    return _baseline[key]


def judge_all(path: Path, home: Path, real: Path | None = None,
              commands: list[list[str]] = COMMANDS) -> list[tuple[str, str]]:
    """Run `commands` (`check` first) on `path`; (command, what went wrong) for each rule broken."""
    outputs = home.parent / f"{home.name}-out"
    outputs.mkdir(exist_ok=True)
    before = folder_state(home)
    found: list[tuple[str, str]] = []
    codes: dict[str, tuple[int, str]] = {}
    for command in commands:
        what = name(command)
        try:
            code, out, err = run_one(command, path, outputs)
        except Hang:
            found.append((what, "hang"))
            continue
        except Exception as error:  # noqa: BLE001  (what the corpus counts: a command that raised)
            found.append((what, f"traceback: {type(error).__name__}: {error}"))
            continue
        codes[what] = (code, err)
        text = out.decode("utf-8", "replace")
        for output in outputs.iterdir():
            # The markdown letter holds names as the file does, by design (tests/campaigns/test_despatch_letter.py)
            if output.suffix in (".html", ".txt", ".svg"):
                text += output.read_text("utf-8", "replace")
        if CONTROL.search(text):
            found.append((what, f"control character in output: {CONTROL.search(text)!r}"))
        if BIDI.search(text + err):
            found.append((what, f"bidi control in output: {BIDI.search(text + err)!r}"))
        if CONTROL.search(err):
            found.append((what, f"control character on stderr: {err[:200]!r}"))
        if RAW.search(err):
            found.append((what, f"raw message: {err.strip()[:300]}"))
        # Exit 1: a check or an audit found faults, and `dice verify` lists them a line each.
        if code != 0 and not (err.startswith("adjutant: ") and (err.count("\n") == 1 or code == 1)):
            found.append((what, f"not one sentence: {err[:300]!r}"))
        if folder_state(home) != before:
            found.append((what, "changed the file"))
            before = folder_state(home)
    check_code = codes.get("check", (0, ""))[0]
    if real is not None and check_code == 0:
        for command in commands:
            what = name(command)
            code, err = codes.get(what, (0, ""))
            if code == 0 or baseline(real, command) != 0:
                continue
            if DAMAGE.search(err):
                found.append((what, f"calls damaged a file check calls sound: {err.strip()[:300]}"))
            else:  # a refusal of a state a person may mean (a side file, no commitment): shown, not counted
                found.append((what, f"note: refused: {err.strip()[:300]}"))
    return found


def test_every_hand_edit_is_shown_or_refused_in_one_sentence(real: Path, tmp_path: Path) -> None:
    """One edit of every kind that changes the file, drawn with the run's seed; on each, `check` and
    COMMANDS_DRAWN of the other commands, drawn too (every command runs on some edit each run)."""
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    others = COMMANDS[1:]
    offset = random.Random(seed).randrange(len(others))
    problems = []
    kinds = hostile_edits.drawn(real, seed)
    for number, listed in enumerate(kinds):
        home = tmp_path / f"{number:03d}"
        home.mkdir()
        path = home / "edited.campaign"
        edit = next(edit for edit in listed if hostile_edits.make(real, path, edit))
        start = offset + number * COMMANDS_DRAWN
        chosen = [COMMANDS[0], *(others[(start + k) % len(others)] for k in range(COMMANDS_DRAWN))]
        problems += [f"[{edit.kind}] {edit.what}: {command}: {problem}"
                     for command, problem in judge_all(path, home, real, chosen)
                     if not problem.startswith("note:")]
    assert len(kinds) == 11 and COMMANDS_DRAWN * len(kinds) >= len(others)  # every command, each run
    assert not problems, "\n".join(problems[:20])


# Edits a club member made, fixed: (the edit's SQL, what `check` and `despatch --side allies` say).
FIXED = [
    ("UPDATE unit SET general = 'nobody' WHERE id = 'barclay_infantry'",
     "the unit row 'barclay_infantry' names general 'nobody' in its column general, and there is no such general"),
    ("UPDATE nation SET side = 'nowhere' WHERE id = 'Russia'",
     "the nation row 'Russia' names side 'nowhere' in its column side, and there is no such side"),
    ("UPDATE campaign SET turn = 99", "the campaign row 1 names turn 99 in its column turn, and there is no such turn"),
    ("UPDATE battle SET participants = 'null'",
     "the battle row 1 holds in its column participants a record that is not the one Adjutant writes"),
    ("UPDATE sighting SET learned = '[1]'",
     "holds in its column learned a record that is not the one Adjutant writes"),
]


def test_every_hand_edit_of_the_corpus_is_sql_that_sqlite_runs(real: Path, tmp_path: Path) -> None:
    """The seeded test above tries one edit of each kind a run: an edit SQLite cannot run (`rowid` of a
    table WITHOUT ROWID, event_unit) failed it for the seeds that drew it. Here each is made once.
    Every table of the campaign file has its edits, the WITHOUT ROWID ones too."""
    path = tmp_path / "edited.campaign"
    every = hostile_edits.edits(real)
    made = {edit.what for edit in every if hostile_edits.make(real, path, edit)}
    assert "event_unit.unit given nasty text 0" in made and "the first event_unit row deleted" in made
    assert {edit.what.split(".")[0] for edit in every if edit.kind == "null"} >= {"unit", "sighting", "battle"}


@pytest.mark.parametrize(("edit", "said"), FIXED, ids=[edit for edit, _said in FIXED])
def test_a_hand_edit_is_named_alike_by_check_and_by_a_command(real: Path, tmp_path: Path, edit: str, said: str) -> None:
    """The previous session's case first: `despatch` said "FOREIGN KEY constraint failed"."""
    path = tmp_path / "edited.campaign"
    assert hostile_edits.make(real, path, hostile_edits.Edit("fixed", edit, (edit,)))
    before = folder_state(tmp_path)
    check = run("check", str(path))
    despatch = run("despatch", "--side", "allies", "-o", str(tmp_path.parent / f"{tmp_path.name}-side.campaign"), str(path))
    for code, _out, err in (check, despatch):
        assert code != 0 and err.startswith("adjutant: ") and err.count("\n") == 1, err
        assert said in err and "FOREIGN KEY" not in err, err
    assert folder_state(tmp_path) == before
    assert not (tmp_path.parent / f"{tmp_path.name}-side.campaign").exists()


def test_a_unit_under_a_general_of_the_other_side_is_named_by_check_and_despatch(real: Path, tmp_path: Path) -> None:
    """Foreign keys hold, yet the allies' side file would name a French general it does not hold."""
    path = tmp_path / "edited.campaign"
    edit = "UPDATE unit SET nation = 'Russia' WHERE id = 'old_guard'"
    assert hostile_edits.make(real, path, hostile_edits.Edit("fixed", edit, (edit,)))
    code, _out, err = run("check", str(path))
    assert code == 1 and "the unit row 'old_guard' of side 'allies' names general" in err, err
    code, _out, err = run("despatch", "--side", "allies", "--format", "md", "-o", str(tmp_path / "letter.md"), str(path))
    assert code == 2 and "cannot be despatched to allies: the unit row 'old_guard' names general" in err, err
    assert "FOREIGN KEY" not in err and not (tmp_path / "letter.md").exists()


# Every form of dice the dice service stores (str(Dice): the rule sets' 1d6, 2d6, 8d6 of a
# 13-phase melee, 3d10kh1, a Kallistra pool 4d12>=9), and dice no roll holds.
STORED = ["1d6", "2d6", "8d6", "1d10", "3d10kh1", "3d10kl1", "4d12>=9", "12d6>=1", "200d6"]
NOT_STORED = ["abc", "", "d6", "1D6", "1 d6", "1d6 + 2d6", "0d6", "1d0", "99999999999d6", "\u0661d6", "1d6\x1b",
              "1\u202ed6", "2d6kh3", "13d100", "1d6" * 20]


def test_check_takes_every_dice_a_roll_stores_and_no_other() -> None:
    from models.export_format import dice_refusal
    from rules.dice import Dice, DiceService

    assert [dice for dice in STORED if dice_refusal(dice) is not None] == []
    assert [dice for dice in NOT_STORED if dice_refusal(dice) is None] == []
    service = DiceService(seed=1)
    assert [service.roll(dice, "test").dice for dice in STORED] == STORED == [str(Dice.parse(d)) for d in STORED]


@pytest.mark.parametrize("dice", ["abc", "1D6", "1d6 + 2d6", "13d100"])
def test_dice_no_roll_stores_are_named_by_check_and_called_damaged_by_the_luck(
    real: Path, tmp_path: Path, dice: str
) -> None:
    """The last session's gap: `luck` refused such a file while `check` called it sound."""
    path = tmp_path / "edited.campaign"
    edit = f"UPDATE dice_roll SET dice = {hostile_edits._literal(dice)} WHERE id = 2"
    assert hostile_edits.make(real, path, hostile_edits.Edit("fixed", edit, (edit,)))
    code, _out, err = run("check", str(path))
    assert code == 1 and "row 2 of table 'dice_roll' has a bad value in column 'dice'" in err, err
    for command in (["luck"], ["report", "-o", str(tmp_path / "report.md")]):
        code, _out, err = run(*command, str(path))
        assert code == 2 and "is damaged" in err and "`adjutant check` names the row" in err, err
    assert run("export", str(path))[0] != 0


@pytest.mark.parametrize("value", ["0", "1e300", "'abc'"])
def test_a_number_typed_into_the_campaigns_date_is_one_sentence_for_every_command(
    real: Path, tmp_path: Path, value: str
) -> None:
    """SQLite keeps 0 in a DATE column as 0, and SQLAlchemy's reader of dates takes text only: the
    commands that read the campaign row without `reading` (options, past, route, dice) ended in
    "TypeError: fromisoformat: argument must be str"."""
    path = tmp_path / "edited.campaign"
    edit = f"UPDATE campaign SET start_date = {value}"
    assert hostile_edits.make(real, path, hostile_edits.Edit("fixed", edit, (edit,)))
    before = folder_state(tmp_path)
    for command in (["options"], ["past", "--turn", "2"], ["past", "--event", "9"], ["dice", "verify"],
                    ["dice", "reveal"], ["route", "FILE", "ney", "Dresden"]):
        args = [str(path) if word == "FILE" else word for word in command]
        code, _out, err = run(*args, *([] if "FILE" in command else [str(path)]))
        assert code == 2 and err.startswith("adjutant: ") and err.count("\n") == 1, (command, err)
        assert "is damaged" in err and "`adjutant check` names the row" in err, (command, err)
    assert run("check", str(path))[0] == 1
    assert folder_state(tmp_path) == before


@pytest.mark.parametrize(("modifiers", "said"), [
    ('[{"label": "April", "value": 1, "colour": "red"}]', "its record holds a field it has no use for"),
    ('[{"label": "April"}]', "its record holds a field missing"),
])
def test_a_field_within_a_columns_record_is_named_as_a_bad_value_of_the_column(
    real: Path, tmp_path: Path, modifiers: str, said: str
) -> None:
    """`check` said "has an unknown column 'modifiers'" of a roll whose modifiers held a field too
    many, and "no column" of one missing a field: the column is there, its record is wrong."""
    path = tmp_path / "edited.campaign"
    edit = f"UPDATE dice_roll SET modifiers = '{modifiers}' WHERE id = 1"
    assert hostile_edits.make(real, path, hostile_edits.Edit("fixed", edit, (edit,)))
    code, _out, err = run("check", str(path))
    assert code == 1 and f"row 1 of table 'dice_roll' has a bad value in column 'modifiers': {said}" in err, err

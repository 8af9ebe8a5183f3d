"""Files and exports from a hostile sender: refused in one sentence or shown inert, never obeyed.

For every file of a seeded corpus (tests/hostile.py), `check`, `export`, `log`,
`battles` and `battles --list` run in-process as `adjutant` runs them, and:
no traceback, no hang, a refusal is one line on stderr and a non-zero exit, the
file's SHA-256 and its folder are unchanged (no trigger fired, no journal, no
backup), nothing on stdout or stderr holds a control character, and `check`'s
verdict is `export`'s. A sample of the corpus is opened in the app, every screen
shown, and the bytes the terminal would be sent searched for control characters
that Textual did not make. The 1,000-file run: `python -m tests.hostile_corpus`.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson
import pytest

from campaigns.text import BIDI_CONTROLS
from tests import hostile, seeds
from tests.templates import new_campaign

# Control characters other than newline, and the bidirectional ones, in what a command prints.
CONTROL = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}]")
# Each run: every kind of hostile file made of the whole file (58, their random bytes drawn from
# the run's seed), and COLUMNS_DRAWN of the 242 kinds of a bad value or escapes in one column, drawn
# with the same seed (tests/seeds.py). `python -m tests.hostile_corpus` makes them all.
COLUMNS_DRAWN = 60
SECONDS_PER_COMMAND = 20


_played: list[Path] = []


def played(path: Path) -> Path:
    """A spring1813 campaign with a row in every table: weather, command points, a battle, dice
    (a roll of the battle's among them, marked with it).

    A `.campaign` file is played once per worker and copied, as tests/templates.py copies new
    campaigns (some 0.3 CPU-s a build, asked for by a dozen modules); the copies share the moments
    the events were stamped with, which no test compares between two files. A PostgreSQL
    database (a URL) is played anew."""
    from models.targets import sqlite_path, to_url

    if sqlite_path(to_url(path)) is None:
        return _play(path)
    if not _played:
        folder = Path(tempfile.mkdtemp(prefix="adjutant-hostile-played-"))
        atexit.register(shutil.rmtree, folder, True)
        made = _play(folder / "played.campaign")
        assert [p.name for p in folder.iterdir()] == [made.name], "a campaign is more than one file: copy them all"
        _played.append(made)
    shutil.copyfile(_played[0], path)
    return path


def _play(path: Path) -> Path:
    from campaigns import command_points, weather
    from campaigns.battles import Draft, begin, roll_step
    from sqlmodel import select

    from campaigns.session import CampaignSession
    from models import Nation, Unit

    session = CampaignSession.open(new_campaign(path, "spring1813", seed=1813))
    try:
        weather.roll(session)
        army = command_points.turn_points(session)[0]
        command_points.roll(session, army.army)
        command_points.spend(session, army.army, "activate_cinc", True, note="Ney to Lützen")
        with session.store.read() as db:
            sides = {nation.id: nation.side for nation in db.exec(select(Nation))}
            units = {unit.id: sides[unit.nation] for unit in db.exec(select(Unit))}
        first = next(iter(units.values()))
        french = [u for u, s in units.items() if s == first][:2]
        allied = [u for u, s in units.items() if s != first][:2]
        battle = begin(session, Draft(location="Lützen", attacker_units=french, defender_units=allied, override="a test battle between forces placed by hand"))
        roll_step(session, battle)
        with session.store.action("Ney marches to Lützen") as db:
            db.get_one(Unit, french[0]).location = "Lützen"
        session.store.undo()
    finally:
        session.close()
    return path


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played(tmp_path_factory.mktemp("real") / "real.campaign")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def folder_state(folder: Path) -> dict[str, str]:
    return {p.name: digest(p) for p in sorted(folder.iterdir()) if p.is_file()}


class Hang(BaseException):
    """A command that did not answer in time. Not an Exception (nor a TimeoutError, an OSError):
    no command's guard may catch it and turn the hang into a tidy refusal."""


# A command that waits rather than works (a lock never released) is caught by the clock on the
# wall: WAITING_FACTOR times its deadline, so that a machine shared by others is no hang.
WAITING_FACTOR = 6


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Hang once the process has used `seconds` of CPU on the command (a loop that never ends,
    however loaded the machine), or `seconds` * WAITING_FACTOR have passed on the wall clock (a
    command that waits for ever). By the wall alone, a command of 4 CPU-s timed out at 20 s on a
    machine running 20 processes on 2 cores (tests/test_hostile_edits.py, seed 3846198232)."""
    def expired(_signal: int, _frame: object) -> None:
        spent = "CPU" if _signal == signal.SIGPROF else "wall-clock"
        raise Hang(f"no answer within {seconds} s of {spent} time")

    previous = signal.signal(signal.SIGALRM, expired), signal.signal(signal.SIGPROF, expired)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WAITING_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGALRM, previous[0])
        signal.signal(signal.SIGPROF, previous[1])


def run(*args: str, stdin: bytes = b"", seconds: int = SECONDS_PER_COMMAND) -> tuple[int, bytes, str]:
    """`adjutant ARGS` in this process, with its own standard streams; Hang after `seconds`."""
    from tui.cli import main

    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    streams = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout, sys.stderr = out, err
    try:
        with deadline(seconds):
            code = main(list(args))
        out.flush()
        return code, out.buffer.getvalue(), err.getvalue()  # type: ignore[attr-defined]
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams


COMMANDS = [["check"], ["export"], ["log"], ["battles"], ["battles", "--list"]]


def judge(path: Path, what: str) -> dict[str, int]:
    """Run every command on the file and assert what every one of them must do; their exit codes."""
    from models import CampaignFileError, open_campaign

    before = folder_state(path.parent)
    codes, said, printed = {}, {}, {}
    for command in COMMANDS:
        code, out, err = run(*command, str(path))
        name = " ".join(command)
        codes[name], said[name], printed[name] = code, err, out
        assert "Traceback" not in err, f"{what}: {name}: {err}"
        assert not CONTROL.search(out.decode("utf-8", "replace")), f"{what}: {name} printed a control character"
        assert not CONTROL.search(err), f"{what}: {name}: control character on stderr: {err!r}"
        if code != 0:
            assert err.startswith("adjutant: ") and err.count("\n") == 1, f"{what}: {name}: {err!r}"
            assert out == b"" or command == ["check"], f"{what}: {name} refused but printed {out[:80]!r}"
        assert folder_state(path.parent) == before, f"{what}: {name} changed the folder"
    assert (codes["check"] == 0) == (codes["export"] == 0), f"{what}: check and export disagree: {codes}"
    if codes["check"] == 0:
        assert set(codes.values()) == {0}, f"{what}: check calls it sound, yet {codes}"
        assert hostile.FIRED.encode() not in printed["export"]
    else:
        try:
            open_campaign(path).close()
        except CampaignFileError:  # the gate refuses it: so does every command
            assert all(code != 0 for code in codes.values()), f"{what}: opening refuses it, yet {codes}"
        assert folder_state(path.parent) == before
        if "--salvage" in said["check"]:
            salvage(path, what)
            assert folder_state(path.parent) == before, f"{what}: salvage changed the folder"
    return codes


def salvage(path: Path, what: str) -> None:
    """What check tells the club to do: `export --salvage`, then `import`, gives a sound file."""
    code, out, err = run("export", "--salvage", str(path))
    assert "Traceback" not in err and not CONTROL.search(err), what
    if code != 0:  # the rows themselves are damaged too: one sentence, as for any export
        assert err.startswith("adjutant: ") and err.count("\n") == 1 and out == b"", f"{what}: {err!r}"
        return
    assert hostile.FIRED.encode() not in out, f"{what}: a trigger fired while salvaging"
    copy = path.parent.parent / f"{path.parent.name}-clean.campaign"
    code, _out, err = run("import", "-", str(copy), stdin=out)
    assert code == 0, f"{what}: the salvaged export does not import: {err}"
    assert run("check", str(copy))[0] == 0, what
    copy.unlink()


def test_every_hostile_file_is_refused_in_one_sentence_or_shown_inert(real: Path, tmp_path: Path) -> None:
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    kinds = hostile.drawn_makers(real, seed, COLUMNS_DRAWN, 0)
    sound = refused = 0
    for path, what in hostile.corpus(real, tmp_path, len(kinds), seed, kinds):
        codes = judge(path, what)
        sound += codes["check"] == 0
        refused += codes["check"] != 0
    # The corpus holds both kinds, or it proves nothing.
    assert sound >= 20 and refused >= 50, (sound, refused)


def test_a_file_damaged_past_its_schema_is_one_sentence_for_every_command(real: Path, tmp_path: Path) -> None:
    """Bit flips of seed 1 (the corpus's third file): the file opens, its schema reads, and a
    row read further in meets "database disk image is malformed". `adjutant log` (plain SQL)
    answered it with a traceback."""
    path, what = list(hostile.corpus(real, tmp_path, 3, 1))[2]
    codes = judge(path, what)
    code, _out, err = run("log", str(path))
    assert code == 2 and "the campaign is damaged: database disk image is malformed" in err, (codes, err)


def test_a_trigger_never_fires_and_check_names_it(real: Path, tmp_path: Path) -> None:
    path = tmp_path / "trigger.campaign"
    hostile._sql(
        f"CREATE TRIGGER zero AFTER UPDATE ON unit BEGIN UPDATE campaign SET name = '{hostile.FIRED}'; END"
    )(path, real, None)  # type: ignore[arg-type]
    code, _out, err = run("check", str(path))
    assert code == 1
    assert "holds a trigger `zero` that Adjutant did not make" in err and "adjutant import" in err
    from campaigns.session import CampaignError, CampaignSession

    with pytest.raises(CampaignError, match="trigger `zero`"):
        CampaignSession.open(path)
    import sqlite3

    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert db.execute("SELECT name FROM campaign").fetchone()[0] != hostile.FIRED
    db.close()


def test_escapes_in_every_text_column_are_printed_inert(real: Path, tmp_path: Path) -> None:
    path = tmp_path / "escapes.campaign"
    hostile.every_text_escaped(path, real, None)  # type: ignore[arg-type]
    for command in COMMANDS:
        code, out, err = run(*command, str(path))
        assert code == 0, err
        text = out.decode()
        assert not CONTROL.search(text), f"{command}: {CONTROL.search(text)!r}"
    # The text itself survives an export and an import: it is data, only shown inert (the log
    # writes a bidi control out, the export escapes it as JSON does a control character).
    assert "<U+202E><U+2067><U+200F>" in run("log", str(path))[1].decode()
    exported = run("export", str(path))[1]
    assert "\\u001b]0;pwned" in exported.decode() and "\\u202e\\u2067\\u200f" in exported.decode()
    source = tmp_path / "escapes.json"
    source.write_bytes(exported)
    assert run("import", str(source), str(tmp_path / "copy.campaign"))[0] == 0
    assert run("export", str(tmp_path / "copy.campaign"))[1] == exported


def test_export_import_export_is_identical_and_streams(real: Path, tmp_path: Path) -> None:
    import json

    code, first, err = run("export", str(real))
    assert code == 0, err
    document = orjson.loads(first)
    # Byte for byte what earlier versions wrote with the standard library.
    assert first.decode() == json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    source = tmp_path / "first.json"
    source.write_bytes(first)
    code, _out, err = run("import", str(source), str(tmp_path / "copy.campaign"))
    assert code == 0, err
    assert run("export", str(tmp_path / "copy.campaign"))[1] == first


def test_every_hostile_export_is_refused_and_leaves_nothing(real: Path, tmp_path: Path) -> None:
    import time

    from models import dump, open_campaign

    with open_campaign(real) as store:
        good = dump(store)
    for number, (what, text) in enumerate(hostile.hostile_exports(good)):
        source = tmp_path / f"export-{number}.json"
        source.write_bytes(text)
        target = tmp_path / f"imported-{number}.campaign"
        start = time.perf_counter()
        code, out, err = run("import", str(source), str(target))
        assert time.perf_counter() - start < 10, what
        if code == 0:  # a mangled export may still be a sound one (a byte changed inside a name)
            assert target.exists() and run("check", str(target))[0] == 0, what
            continue
        assert err.startswith("adjutant: ") and err.count("\n") == 1, f"{what}: {err!r}"
        assert not CONTROL.search(err), what
        assert "adjutant-tmp" not in err, f"{what}: the error names the temporary file: {err}"
        assert not target.exists(), f"{what}: a refused import left {target.name}"
        assert not [p for p in tmp_path.iterdir() if "adjutant-tmp" in p.name], what


def test_import_of_dev_zero_is_refused_at_once(tmp_path: Path) -> None:
    import time

    import models.exchange  # noqa: F401 - imported before the clock starts: cold, the command's imports took 1.9-2.6 s at load 15

    start = time.perf_counter()
    code, _out, err = run("import", "/dev/zero", str(tmp_path / "zero.campaign"))
    assert code == 2 and "/dev/zero is a device, not a file of an export" in err
    assert time.perf_counter() - start < 2
    assert not (tmp_path / "zero.campaign").exists()


def test_an_oversized_export_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    from models.errors import CampaignFileError
    from models.exchange import read_limited

    with pytest.raises(CampaignFileError, match="larger than 1 MB"):
        read_limited(io.BytesIO(b"{" + b" " * (3 << 20)), "big.json", limit=1 << 20)


def test_temporary_files_of_dead_processes_are_swept(real: Path, tmp_path: Path) -> None:
    target = tmp_path / "club.campaign"
    dead = tmp_path / ".club.campaign.adjutant-tmp-999999999"  # no such process
    dead.write_bytes(b"half an import")
    Path(f"{dead}-journal").write_bytes(b"")
    alive = tmp_path / ".club.campaign.adjutant-tmp-1"  # init: running, not ours to touch
    alive.write_bytes(b"someone else's")
    code, out, err = run("export", str(real))
    (tmp_path / "x.json").write_bytes(out)
    assert run("import", str(tmp_path / "x.json"), str(target))[0] == 0
    assert not dead.exists() and not Path(f"{dead}-journal").exists() and alive.exists()
    dead.write_bytes(b"again")
    older = tmp_path / ".club.campaign.999999998.new"  # as an earlier version named it
    older.write_bytes(b"half a new campaign")
    assert run("check", str(target))[0] == 0
    assert not dead.exists() and not older.exists() and alive.exists()


def test_a_failed_migration_leaves_the_file_and_no_backup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from models import CampaignFileError, open_campaign, schema

    old = Path(__file__).parent / "fixtures" / "spring1813-schema1.campaign"
    path = tmp_path / "old.campaign"
    shutil.copyfile(old, path)
    before = digest(path)
    real_upgrade = schema.upgrade

    def fails_at_the_end(connection, revision="head"):  # the whole migration runs, then fails
        real_upgrade(connection, revision)
        raise CampaignFileError("the disk filled up")

    monkeypatch.setattr(schema, "upgrade", fails_at_the_end)
    for _attempt in range(3):
        with pytest.raises(CampaignFileError, match="disk filled up"):
            open_campaign(path)
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.campaign"]
    monkeypatch.undo()
    open_campaign(path).close()  # the next try succeeds, with its one backup
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.campaign", "old.campaign.bak-v1"]


def test_check_leaves_a_file_with_an_unfinished_write_as_it_was(real: Path, tmp_path: Path) -> None:
    import subprocess

    path = tmp_path / "hot.campaign"
    shutil.copyfile(real, path)
    killed = (
        "import os, sqlite3\n"
        f"db = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
        "db.execute('PRAGMA cache_size = 1'); db.execute('BEGIN IMMEDIATE')\n"
        "for n in range(300): db.execute(\"UPDATE unit SET location = ? \", ('x' * 900 + str(n),))\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", killed], check=True)
    assert Path(f"{path}-journal").stat().st_size > 0
    before = folder_state(tmp_path)
    code, out, err = run("check", str(path))
    assert code == 0, err
    assert folder_state(tmp_path) == before


def test_a_command_that_spins_or_waits_is_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline the corpora hold each command to: a loop that never ends is caught by the CPU it
    spends however slowly the machine gives it CPU (the wall clock's limit put far out), a command
    that waits for ever by the wall clock (its limit put at a fifth of a second)."""
    import time

    this = sys.modules[__name__]
    monkeypatch.setattr(this, "WAITING_FACTOR", 600)
    started = time.process_time()
    with pytest.raises(Hang, match="0.2 s of CPU time"), deadline(0.2):
        while True:
            pass
    assert 0.15 <= time.process_time() - started < 1  # the kernel counts CPU in ticks
    monkeypatch.setattr(this, "WAITING_FACTOR", 1)
    with pytest.raises(Hang, match="0.2 s of wall-clock time"), deadline(0.2):
        time.sleep(30)
    with deadline(0.2):  # neither fires after the block
        pass
    time.sleep(0.3)

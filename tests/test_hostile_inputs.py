"""Orders, password files and numbers from a hostile hand: one sentence and a non-zero exit, or obeyed as data.

Each case of the seeded corpora of tests/hostile_inputs.py runs through the real
command, in this process, as `adjutant` runs it: `orders import`, `serve
--password-file` and `club setup --password-file` (on a real PostgreSQL), and every
numeric argument of the command table. For each: no traceback, an answer within
SECONDS (a FIFO or /dev/zero must not hang it), nothing on stdout or stderr with a
control character, a refusal is one line on stderr and a non-zero exit, and a
refusal leaves the campaign (the file, its folder, or the database's roles and
policies) as it was. What must be refused is refused and what must be taken is taken.
The big runs: `python -m tests.hostile_corpus --count N --seed S`.
"""

from __future__ import annotations

import atexit
import collections
import hashlib
import json
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import hostile_inputs as corpus
from tests.test_hostile_files import CONTROL, run

SECONDS = 10  # far more than any of these takes; a FIFO or /dev/zero would take for ever
SEED = 1813


def _state(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def _folder(path: Path) -> dict[str, str | None]:
    return {p.name: _state(p) for p in sorted(path.parent.iterdir())} if path.parent.is_dir() else {}


def judge(
    argv: list[str], what: str, watched: Path, fingerprint: Callable[[], Any] | None = None, known: Any = None,
) -> tuple[int, str]:
    """Run `adjutant ARGV`; assert what every answer to a hostile input must be; (exit code, stderr).

    `watched` is the campaign file (its folder is watched with it); `fingerprint`, when given,
    reads what else a refusal must leave alone (a database's roles). `known`: what it would read
    now, when the caller knows it (read it once already, or made it so: a database just emptied);
    a refusal must leave it so, and it is read after a refusal as before."""
    before = _folder(watched), (known if known is not None else fingerprint()) if fingerprint else None
    start = time.perf_counter()
    code, out, err = run(*argv, seconds=SECONDS)
    said = f"{what}: adjutant {' '.join(a[:40] for a in argv)}"
    assert time.perf_counter() - start < SECONDS, said
    assert "Traceback" not in err, f"{said}: {err}"
    assert not CONTROL.search(out.decode("utf-8", "replace")), f"{said}: a control character on stdout"
    assert not CONTROL.search(err), f"{said}: a control character on stderr: {err!r}"
    if code != 0:
        assert err.startswith("adjutant") and err.count("\n") == 1, f"{said}: not one sentence: {err!r}"
        assert out == b"", f"{said}: refused, yet printed {out[:80]!r}"
        assert (_folder(watched), fingerprint() if fingerprint else None) == before, f"{said}: refused, yet changed the campaign"
    return code, err


def _cases(folder: Path, cases: Iterator[corpus.Case]) -> Iterator[tuple[str, str, str]]:
    """(what, the name to give, verdict) of each case, made in a folder of its own and removed after."""
    for number, (what, make, verdict) in enumerate(cases):
        home = folder / f"{number:05d}"
        home.mkdir(parents=True)
        path = home / "input"
        make(path)
        try:
            yield what, corpus.named(what, path), verdict
        finally:
            if path.exists() and not path.is_symlink():
                path.chmod(0o600)
            shutil.rmtree(home)


def _outcome(what: str, verdict: str, taken: bool, err: str) -> None:
    if verdict == corpus.REFUSED:
        assert not taken, f"{what}: taken, yet it must be refused"
    elif verdict == corpus.ACCEPTED:
        assert taken, f"{what}: refused, yet it must be taken: {err}"


# -- orders import ----------------------------------------------------------------------------


ORDERS_FILES = ("umpire.campaign", "french.campaign", "orders.json")
_orders_made: list[Path] = []


def orders_campaign(folder: Path) -> tuple[Path, dict[str, Any]]:
    """An umpire's campaign and the orders the French sent from their side file (the files of
    ORDERS_FILES in `folder`). Made once per worker by the five commands and copied (0.4 CPU-s,
    five tests ask for it); no test compares two of them."""
    if not _orders_made:
        made = Path(tempfile.mkdtemp(prefix="adjutant-orders-"))
        atexit.register(shutil.rmtree, made, True)
        umpire, side, orders = (made / name for name in ORDERS_FILES)
        for argv in (
            ["new", "spring1813", str(umpire), "--seed", "1813"],
            ["despatch", str(umpire), "--side", "french", "-o", str(side)],
            ["orders", "write", str(side), "note", "--text", "Hold Dresden; the Guard follows."],
            ["orders", "write", str(side), "command_points", "--action", "activate_general"],
            ["orders", str(side), "-o", str(orders)],
        ):
            code, _out, err = run(*argv)
            assert code == 0, f"{argv}: {err}"
        assert sorted(p.name for p in made.iterdir()) == sorted(ORDERS_FILES), "copy every file the commands made"
        _orders_made.append(made)
    for name in ORDERS_FILES:
        shutil.copyfile(_orders_made[0] / name, folder / name)
    return folder / "umpire.campaign", json.loads((folder / "orders.json").read_text())


def check_orders(folder: Path, count: int, seed: int) -> collections.Counter[str]:
    folder.mkdir(parents=True, exist_ok=True)
    umpire, valid = orders_campaign(folder)
    pristine = folder / "pristine.campaign"
    shutil.copyfile(umpire, pristine)
    seen: collections.Counter[str] = collections.Counter()
    for what, name, verdict in _cases(folder / "cases", corpus.orders_corpus(valid, count, seed)):
        code, err = judge(["orders", "import", str(umpire), name], what, umpire)
        _outcome(what, verdict, code == 0, err)
        seen["taken" if code == 0 else "refused"] += 1
        if code == 0:  # queued as data: listed inert, then the campaign as it was for the next case
            judge(["orders", "list", str(umpire)], what, umpire)
            shutil.copyfile(pristine, umpire)
    return seen


def test_every_hostile_orders_file_is_refused_in_one_sentence_or_queued_as_data(tmp_path: Path) -> None:
    seen = check_orders(tmp_path, 120, SEED)
    assert seen["taken"] >= 3 and seen["refused"] >= 80, seen


def test_an_orders_file_with_escapes_in_its_text_is_refused_and_names_the_field(tmp_path: Path) -> None:
    umpire, valid = orders_campaign(tmp_path)
    valid["orders"][0]["text"] = "march\x1b]0;pwned\x07 on"
    hostile = tmp_path / "escapes.json"
    hostile.write_text(json.dumps(valid))
    code, err = judge(["orders", "import", str(umpire), str(hostile)], "escapes", umpire)
    assert code == 2 and "orders.0.text" in err and "control characters" in err


def test_an_orders_file_from_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    import os

    umpire, _valid = orders_campaign(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    code, err = judge(["orders", "import", str(umpire), str(tmp_path / "pipe")], "a FIFO", umpire)
    assert code == 2 and "is a named pipe, not a file of orders" in err


def test_a_campaign_import_from_any_kind_of_named_file_answers_at_once(tmp_path: Path) -> None:
    """`adjutant import` takes a whole export; a FIFO, a device, a directory or a loop is refused before a read."""
    campaign, exported = tmp_path / "spring.campaign", tmp_path / "spring.json"
    code, _out, err = run("new", "spring1813", str(campaign))
    assert code == 0, err
    code, out, err = run("export", str(campaign))
    assert code == 0, err
    exported.write_bytes(out)
    kinds = {what: (make, verdict) for what, make, verdict in corpus.file_kinds(exported.read_bytes())}
    for what in ("a missing file", "a directory", "a FIFO nobody writes to", "/dev/zero", "a link to /dev/zero", "a loop of links", "a file nobody may read"):
        make, _verdict = kinds[what]
        home = tmp_path / f"case-{len(list(tmp_path.iterdir()))}"
        home.mkdir()
        make(home / "input")
        target = tmp_path / "imported" / f"{home.name}.campaign"  # a folder apart: the case's own files are not read
        target.parent.mkdir(exist_ok=True)
        code, err = judge(["import", corpus.named(what, home / "input"), str(target)], what, target)
        assert code == 2 and not target.exists(), f"{what}: {err}"


# -- serve --password-file -----------------------------------------------------------------------


def check_serve(folder: Path, count: int, seed: int) -> collections.Counter[str]:
    """A password taken goes on to the campaign, which is missing: refused for that, and serves nothing."""
    folder.mkdir(parents=True, exist_ok=True)
    missing = folder / "no-such.campaign"
    seen: collections.Counter[str] = collections.Counter()
    for what, name, verdict in _cases(folder / "cases", corpus.serve_corpus("a club's password", count, seed)):
        argv = ["serve", str(missing), "--port", "8765", "--password-file", name]
        code, err = judge(argv, what, missing)
        assert code == 2, f"{what}: {err}"
        taken = "no-such.campaign does not exist" in err
        _outcome(what, verdict, taken, err)
        seen["taken" if taken else "refused"] += 1
    return seen


def test_every_hostile_serve_password_file_is_refused_in_one_sentence_or_taken(tmp_path: Path) -> None:
    seen = check_serve(tmp_path, 60, SEED)
    assert seen["taken"] >= 4 and seen["refused"] >= 30, seen


def test_a_byte_order_mark_is_not_part_of_the_serve_password(tmp_path: Path) -> None:
    import argparse

    from tui.serve import _password

    secret = tmp_path / "password"
    secret.write_bytes(b"\xef\xbb\xbfclub-secret\r\nignored\n")
    assert _password(argparse.Namespace(password_file=str(secret), host="0.0.0.0", port=8000)) == "club-secret"


# -- club setup --password-file (PostgreSQL) ----------------------------------------------------


def _libpq(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class ClubFingerprint:
    """What `club setup` changes: the club's roles and their passwords, policies, row security, grants;
    read on one connection kept open (a server backend started for each reading cost more than it)."""

    QUERIES = (
        "SELECT rolname, rolpassword FROM pg_authid WHERE starts_with(rolname, current_database()) ORDER BY 1",
        "SELECT tablename, policyname, roles::text, qual, with_check FROM pg_policies ORDER BY 1, 2",
        "SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY 1",
        "SELECT table_name, grantee, privilege_type FROM information_schema.role_table_grants WHERE table_schema = 'public' ORDER BY 1, 2, 3",
    )

    def __init__(self, url: str) -> None:
        self.url = url
        self.connection: Any = None

    def __call__(self) -> Any:
        import psycopg

        if self.connection is None:  # autocommit: each reading sees what was committed since, and holds no lock
            self.connection = psycopg.connect(_libpq(self.url), autocommit=True)
        return [self.connection.execute(query).fetchall() for query in self.QUERIES]

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def check_club(url: str, folder: Path, count: int, seed: int) -> collections.Counter[str]:
    from campaigns.scenario import load_scenario
    from campaigns.setup import create_campaign

    folder.mkdir(parents=True, exist_ok=True)
    create_campaign(url, load_scenario("spring1813"), seed=7).close()
    valid = {"umpire": "u-secret-1", "french": "f-secret-2", "allies": "a-secret-3"}
    fingerprint = ClubFingerprint(url)
    seen: collections.Counter[str] = collections.Counter()
    stand_in = folder / "campaign-on-postgresql"  # the campaign is the database: nothing in this folder may change
    stand_in.write_bytes(b"")
    try:
        for what, name, verdict in _cases(folder / "cases", corpus.club_corpus(valid, count, seed)):
            code, err = judge(["club", "setup", "--db", url, "--password-file", name], what, stand_in, fingerprint)
            _outcome(what, verdict, code == 0, err)
            seen["taken" if code == 0 else "refused"] += 1
    finally:
        fingerprint.close()
        run("club", "revoke", "--db", url)  # roles outlive the database
    return seen


def test_every_hostile_club_password_file_is_refused_in_one_sentence_or_taken(postgres_url: str, tmp_path: Path) -> None:
    seen = check_club(postgres_url, tmp_path, 36, SEED)  # kept small: each one taken is a whole setup
    assert seen["taken"] >= 3 and seen["refused"] >= 25, seen


# -- numbers on the command line ------------------------------------------------------------


def numeric_arguments() -> list[tuple[str, str]]:
    """(command, flag) of every argument the command table reads as a number (`type=int`, or a
    kind of number of rules.numbers: `type=TURN`)."""
    from rules.commandline import OneOf
    from rules.numbers import Span
    from tui.cli import COMMANDS

    found = []

    def walk(commands: Any, prefix: str) -> None:
        for command in commands:
            for item in command.args:
                for one in item.args if isinstance(item, OneOf) else (item,):
                    if one.options.get("type") is int or isinstance(one.options.get("type"), Span):
                        found.append((f"{prefix}{command.name}", one.flags[-1]))
            walk(command.sub, f"{prefix}{command.name} ")

    walk(COMMANDS, "")
    return found


def _argv(command: str, flag: str, value: str, campaign: Path | str, out: Path, fresh: str | None = None) -> list[str]:
    """A command line that is sound but for the number, `flag` given `value`. `campaign` is a file
    or a database's URL; `fresh` is where `new` creates one (default: the file `out`)."""
    given = [f"{flag}={value}"] if flag.startswith("--") else [value]
    lines = {
        ("new", "--seed"): ["new", "spring1813", fresh or str(out)],
        ("dice verify", "--seed"): ["dice", "verify", str(campaign), "--salt", "0" * 64],
        ("report", "--turn"): ["report", str(campaign), "-o", str(out)],
        ("report", "--battle"): ["report", str(campaign), "-o", str(out)],
        ("past", "--turn"): ["past", str(campaign)],
        ("past", "--event"): ["past", str(campaign)],
        ("map", "--turn"): ["map", str(campaign), "-o", str(out)],
        ("despatch", "--turn"): ["despatch", str(campaign), "--side", "french", "-o", str(out)],
        ("sight", "--level"): ["sight", str(campaign), "--side", "french", "--at", "Dresden"],
        ("knows", "--turn"): ["knows", str(campaign), "--side", "french"],
        ("serve", "--port"): ["serve", str(out)],  # a missing campaign: a port taken goes on to refuse that
        ("orders apply", "ID"): ["orders", "apply", str(campaign)],
        ("orders refuse", "ID"): ["orders", "refuse", str(campaign)],
        ("result", "battle"): ["result", str(campaign)],
        ("retreat", "battle"): ["retreat", str(campaign)],
    }
    after = {"orders refuse": ["no reason"], "result": ["--cell", "2"], "retreat": ["Dresden"]}  # what follows the number
    return [*lines[command, flag], *given, *after.get(command, [])]


def check_numbers(folder: Path, count: int, seed: int) -> collections.Counter[str]:
    from tests.test_hostile_files import played

    folder.mkdir(parents=True, exist_ok=True)
    campaign = played(folder / "numbers.campaign")
    pristine = folder / "pristine.campaign"
    shutil.copyfile(campaign, pristine)
    out = folder / "out.file"
    seen: collections.Counter[str] = collections.Counter()
    arguments = [*numeric_arguments(), ("orders apply", "ID"), ("orders refuse", "ID")]
    for command, flag in arguments:
        for value in corpus.numbers(count, seed):
            argv = _argv(command, flag, value, campaign, out)
            what = f"{command} {flag} {value[:30]!r}"
            code, err = judge(argv, what, campaign)
            if not corpus.is_whole(value):
                assert code != 0, f"{what}: taken as a number"
            seen["taken" if code == 0 else "refused"] += 1
            out.unlink(missing_ok=True)
            if code == 0:
                shutil.copyfile(pristine, campaign)
    return seen


def test_every_numeric_argument_has_its_corpus() -> None:
    campaign, out = Path("c.campaign"), Path("o")
    for command, flag in numeric_arguments():
        _argv(command, flag, "1", campaign, out)  # a KeyError names an argument added without its line


def test_hostile_numbers_are_refused_in_one_sentence_in_every_command(tmp_path: Path) -> None:
    seen = check_numbers(tmp_path, 6, SEED)
    assert seen["taken"] >= 10 and seen["refused"] >= 300, seen


@pytest.mark.parametrize("text", ["٣", "²", "1_000", " 7", "1e9999", "NaN", "", "9" * 20])
def test_whole_takes_only_ascii_digits_within_a_database_integer(text: str) -> None:
    import argparse

    from rules.commandline import whole

    with pytest.raises(argparse.ArgumentTypeError, match="is not a whole number"):
        whole(text)
    assert whole("-12") == -12 and whole("+3") == 3 and whole(str(2**63 - 1)) == 2**63 - 1

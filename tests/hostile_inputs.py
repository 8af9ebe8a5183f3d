"""Seeded corpora of the small files and numbers a person hands `adjutant` on its command line.

Three files: the orders a side sends (`adjutant orders import FILE ORDERS.json`),
the club's passwords (`adjutant club setup --password-file F`, TOML) and the
browsers' password (`adjutant serve --password-file F`, its first line). Each
corpus starts from a valid document and makes `count` cases from it: the
document mutated at random (a value of another type, a field dropped or
added, huge numbers and strings, deep nesting, NUL, control and escape
characters, lone surrogates), its bytes damaged (truncated, flipped, invalid
UTF-8, a byte-order mark, UTF-16), and what the name may be besides a file (missing,
empty, a directory, a FIFO nobody writes to, /dev/zero, symbolic links to nothing,
to /dev/zero and in a loop, a file this user may not read, one of megabytes).

A case is (what, make, verdict): `make(path)` puts it at `path`; the verdict is
REFUSED when any sound reading refuses it, ACCEPTED when it is the valid document
in a form a person's editor may give it (a byte-order mark, CRLF), and EITHER
when a mutation may leave a sound document. The numbers' corpus is strings for
`--turn N`-style arguments. The same seed always gives the same cases. Used by
tests/test_hostile_inputs.py and `python -m tests.hostile_corpus`.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REFUSED, ACCEPTED, EITHER = "refused", "accepted", "either"
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[31m\x9b6n\x00\x08\r\u202e\u2067\u200f"  # and bidi controls, shown written out
# A file the kernel lets nobody read, root included (sysctl files are write-only).
WRITE_ONLY = Path("/proc/sys/vm/drop_caches")

Make = Callable[[Path], None]
Case = tuple[str, Make, str]


def _bytes(data: bytes) -> Make:
    return lambda path: path.write_bytes(data)


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _directory(path: Path) -> None:
    path.mkdir()


def _link(to: str) -> Make:
    return lambda path: path.symlink_to(to)


def _loop(path: Path) -> None:
    path.symlink_to(path.with_name(path.name + "-b"))
    path.with_name(path.name + "-b").symlink_to(path)


def _unreadable(valid: bytes) -> Make:
    def make(path: Path) -> None:
        path.write_bytes(valid)
        path.chmod(0)
        if os.access(path, os.R_OK):  # root reads anything; a sysctl file refuses even root
            path.unlink()
            path.symlink_to(WRITE_ONLY)

    return make


def file_kinds(valid: bytes) -> list[Case]:
    """What a named file may be besides the document: each once, all refused."""
    return [
        ("a missing file", lambda path: None, REFUSED),
        ("an empty file", _bytes(b""), REFUSED),
        ("a directory", _directory, REFUSED),
        ("a FIFO nobody writes to", _fifo, REFUSED),
        ("/dev/zero", lambda path: None, REFUSED),  # the case's path is replaced (see `named`)
        ("a link to /dev/zero", _link("/dev/zero"), REFUSED),
        ("a link to nothing", _link("/nonexistent/adjutant"), REFUSED),
        ("a loop of links", _loop, REFUSED),
        ("a file nobody may read", _unreadable(valid), REFUSED),
        ("8 MB of spaces before the document", _bytes(b" " * (8 << 20) + valid), REFUSED),
        ("NUL bytes only", _bytes(b"\x00" * 4096), REFUSED),
        ("UTF-16", _bytes(valid.decode().encode("utf-16")), REFUSED),
        ("invalid UTF-8", _bytes(valid[: len(valid) // 2] + b"\xff\xfe\xc3" + valid[len(valid) // 2 :]), REFUSED),
        ("a lone UTF-8 continuation byte", _bytes(b"\x80" + valid), REFUSED),
        ("a byte-order mark", _bytes(b"\xef\xbb\xbf" + valid), ACCEPTED),
        ("the document itself", _bytes(valid), ACCEPTED),
    ]


def named(what: str, path: Path) -> str:
    """The name to give the command for a case made at `path`."""
    return "/dev/zero" if what == "/dev/zero" else str(path)


def damaged(valid: bytes, rng: random.Random) -> tuple[str, Make, str]:
    """The document's bytes damaged at random: most of these are refused, a few still read."""
    data = bytearray(valid)
    how = rng.choice(["truncated", "flipped", "control bytes", "random bytes", "invalid UTF-8"])
    if how == "truncated":
        data = data[: rng.randrange(len(data))]
    elif how == "flipped":
        for _ in range(rng.choice([1, 2, 8])):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif how == "control bytes":
        for _ in range(rng.choice([1, 3])):
            spot = rng.randrange(len(data) + 1)
            data[spot:spot] = bytes([rng.choice([0, 7, 8, 13, 27, 127])])
    elif how == "random bytes":
        data = bytearray(rng.randbytes(rng.choice([1, 16, 300, 5000])))
    else:
        spot = rng.randrange(len(data) + 1)
        data[spot:spot] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"])
    return f"{how} bytes of the document", _bytes(bytes(data)), EITHER


# -- values a hostile document may hold ---------------------------------------------------


def hostile_values(rng: random.Random) -> list[tuple[str, Any]]:
    """(what, value) for a JSON or TOML field: other types, extremes, control characters."""
    depth = rng.choice([50, 500, 5000])
    deep: Any = 1
    for _ in range(depth):
        deep = [deep]
    return [
        ("null", None), ("true", True), ("0", 0), ("-1", -1), ("2.5", 2.5), ("10**30", 10**30), ("-(10**19)", -(10**19)),
        ("empty text", ""), ("a list", [1, "a"]), ("an object", {"a": 1}), ("text '1'", "1"),
        ("escapes", ESCAPES), ("NUL", "a\x00b"), ("a line break", "a\nb"), ("a tab", "a\tb"), ("C1 CSI", "\x9b2J"),
        ("a lone surrogate", "\ud800x"), ("right-to-left override", "\u202edcba"),
        ("100k characters", "x" * 100_000), ("2,001 characters", "y" * 2001),
        (f"lists {depth} deep", deep),
    ]


def _set(document: Any, where: list[Any], value: Any) -> None:
    for key in where[:-1]:
        document = document[key]
    document[where[-1]] = value


def _paths(document: Any, prefix: list[Any] | None = None) -> Iterator[list[Any]]:
    prefix = prefix or []
    items = document.items() if isinstance(document, dict) else enumerate(document) if isinstance(document, list) else ()
    for key, value in items:
        yield [*prefix, key]
        yield from _paths(value, [*prefix, key])


def _json(document: Any) -> bytes:
    # ensure_ascii: a lone surrogate is written as \\ud800, as a hostile hand may write it
    return json.dumps(document, ensure_ascii=True).encode()


# -- the orders file -------------------------------------------------------------------------


def orders_corpus(valid: dict[str, Any], count: int, seed: int) -> Iterator[Case]:
    """`count` orders files made from `valid` (an export of a side file's orders)."""
    rng = random.Random(seed)
    text = _json(valid)
    fixed: list[Case] = [
        *file_kinds(text),
        ("JSON nested 100,000 deep", _bytes(b"[" * 100_000 + b"]" * 100_000), REFUSED),
        ("objects nested 20,000 deep", _bytes(b'{"a":' * 20_000 + b"1" + b"}" * 20_000), REFUSED),
        ("a turn of 5,000 digits", _bytes(text.replace(b'"turn": ', b'"turn": ' + b"9" * 5000 + b"", 1)), REFUSED),
        ("a turn of NaN", _bytes(text.replace(b'"turn": ', b'"turn": NaN, "x": ', 1)), REFUSED),
        ("a turn of 1e9999", _bytes(text.replace(b'"turn": 1', b'"turn": 1e9999', 1)), REFUSED),
        ("a turn of -Infinity", _bytes(text.replace(b'"turn": 1', b'"turn": -Infinity', 1)), REFUSED),
        ("a list", _bytes(b"[]"), REFUSED),
        ("not JSON", _bytes(b"{orders: [}"), REFUSED),
        ("600 orders", _bytes(_json({**valid, "orders": [valid["orders"][0]] * 600})), REFUSED),
        ("no orders", _bytes(_json({**valid, "orders": []})), REFUSED),
        ("CRLF line ends", _bytes(json.dumps(valid, indent=2).replace("\n", "\r\n").encode()), ACCEPTED),
    ]
    values = hostile_values(rng)
    for number in range(count):
        if number < len(fixed):
            yield fixed[number]
            continue
        kind = rng.random()
        if kind < 0.25:
            yield damaged(text, rng)
            continue
        document = copy.deepcopy(valid)
        where = rng.choice(list(_paths(document)))
        spot = ".".join(map(str, where))
        if kind < 0.35:
            parent: Any = document
            for key in where[:-1]:
                parent = parent[key]
            if isinstance(parent, dict):
                del parent[where[-1]]
                yield f"{spot} left out", _bytes(_json(document)), EITHER  # a field with a default may go
                continue
        if kind < 0.45:
            target: Any = document
            for key in where[:-1]:
                target = target[key]
            if isinstance(target, dict):
                target[rng.choice(["colour", "\x1b[2J", "kind2", "x" * 300])] = "blue"
                yield f"an unknown field beside {spot}", _bytes(_json(document)), REFUSED
                continue
        what, value = rng.choice(values)
        _set(document, where, value)
        yield f"{spot} = {what}", _bytes(_json(document)), EITHER


# -- the club's passwords (TOML) -------------------------------------------------------------


def _toml_string(value: str) -> str:
    escaped = "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in value)
    return f'"{escaped}"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if value is None:
        return "1979-05-27T07:32:00Z"  # TOML has no null: a date-time instead
    if isinstance(value, str):
        return _toml_string(value) if not re.search("[\ud800-\udfff]", value) else '"\\ud800"'  # invalid TOML
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"


def toml(passwords: dict[str, Any]) -> bytes:
    return "".join(f"{_toml_string(who)} = {_toml_value(p)}\n" for who, p in passwords.items()).encode()


def club_corpus(valid: dict[str, str], count: int, seed: int) -> Iterator[Case]:
    """`count` password files for `club setup`, made from `valid` (umpire and sides -> password)."""
    rng = random.Random(seed)
    text = toml(valid)
    fixed: list[Case] = [
        *file_kinds(text),
        ("arrays nested 30,000 deep", _bytes(b"umpire = " + b"[" * 30_000 + b"]" * 30_000), REFUSED),
        ("tables nested 2,000 deep", _bytes(b"[" + b".".join([b"a"] * 2000) + b"]\nx = 1\n"), REFUSED),
        ("a name twice", _bytes(text + text.splitlines(keepends=True)[0]), REFUSED),
        ("a side it does not have", _bytes(text + b'russians = "r"\n'), REFUSED),
        ("a name of escapes", _bytes(text + toml({ESCAPES: "x"})), REFUSED),
        ("a password of 1,025 characters", _bytes(toml({**valid, "umpire": "p" * 1025})), REFUSED),
        ("a NUL in a password", _bytes(toml({**valid, "umpire": "a\x00b"})), REFUSED),
        ("an escape in a password", _bytes(toml({**valid, "umpire": "\x1b[2J"})), REFUSED),
        ("a password that is a table", _bytes(text + b"[umpire2]\nx = 1\n"), REFUSED),
        ("no passwords", _bytes(b"# nothing\n"), REFUSED),
        ("CRLF line ends", _bytes(text.replace(b"\n", b"\r\n")), ACCEPTED),
        ("only the umpire's", _bytes(toml({"umpire": valid["umpire"]})), ACCEPTED),
    ]
    values = hostile_values(rng)
    for number in range(count):
        if number < len(fixed):
            yield fixed[number]
            continue
        if rng.random() < 0.3:
            yield damaged(text, rng)
            continue
        who = rng.choice(list(valid))
        what, value = rng.choice(values)
        yield f"{who} = {what}", _bytes(toml({**valid, who: value})), EITHER


# -- the browsers' password (its first line) -------------------------------------------------


def serve_corpus(valid: str, count: int, seed: int) -> Iterator[Case]:
    """`count` password files for `serve`, made from the password `valid`."""
    rng = random.Random(seed)
    text = (valid + "\n").encode()
    fixed: list[Case] = [
        *file_kinds(text),
        ("an empty first line", _bytes(b"\n" + text), REFUSED),
        ("a NUL in the password", _bytes(b"pass\x00word\n"), REFUSED),
        ("escapes in the password", _bytes(ESCAPES.encode() + b"\n"), REFUSED),
        ("a tab in the password", _bytes(b"pass\tword\n"), REFUSED),
        ("a C1 control in the password", _bytes("pass\x9bword\n".encode()), REFUSED),
        ("CRLF", _bytes(text.replace(b"\n", b"\r\n")), ACCEPTED),
        ("no line break", _bytes(valid.encode()), ACCEPTED),
        ("a second line of escapes", _bytes(text + ESCAPES.encode()), ACCEPTED),
        ("a password of 60,000 characters", _bytes(b"p" * 60_000 + b"\n"), ACCEPTED),
    ]
    for number in range(count):
        if number < len(fixed):
            yield fixed[number]
        else:
            yield damaged(text, rng)


# -- numbers on the command line -------------------------------------------------------------

NUMBERS = [
    "-1", "0", "-0", "+3", "1", "2147483648", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "99999999999999999999999999", "1e9999", "-1e9999", "1e3", "NaN", "nan", "inf", "-inf", "", " ", " 7 ", "3.0", "0x10",
    "1_000", "٣", "²", "１２", "Ⅻ", "\x1b[31m5", "5\x00", "--", "-", "9" * 5000,
]


def numbers(count: int, seed: int) -> list[str]:
    """The fixed hostile numbers, then `count` more drawn from their parts."""
    rng = random.Random(seed)
    digits = "0123456789"
    other = ["٣", "۵", "१", "๓", "１", "²", "₃", "_", ".", "e", ",", " ", "\x00", "\x1b", "\u200b", "\u0660"]
    drawn = []
    for _ in range(count):
        size = rng.choice([1, 2, 5, 19, 20, 40, 400])
        text = "".join(rng.choice(digits) for _ in range(size))
        if rng.random() < 0.5:
            spot = rng.randrange(len(text) + 1)
            text = text[:spot] + rng.choice(other) + text[spot:]
        drawn.append(rng.choice(["", "", "-", "+", "--"]) + text)
    return NUMBERS + drawn


def is_whole(text: str) -> bool:
    """What `adjutant` must take as a number: ASCII digits and a sign, within a database's integer."""
    return re.fullmatch("[+-]?[0-9]{1,19}", text) is not None and abs(int(text)) <= 2**63 - 1

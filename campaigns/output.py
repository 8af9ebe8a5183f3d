"""Standard output that is all or nothing: a refusal part way leaves nothing printed.

`adjutant export` and `adjutant log` read a campaign as they print it, and a damaged
row late in the file refuses the whole command with one sentence on stderr. So
what they print is held back until it is complete:

- when standard output is a regular file (`adjutant export FILE > copy.json`), it
  is written straight into that file, and a refusal cuts the file back to where it
  started: no second copy of half a gigabyte;
- when it is the null device (`adjutant export FILE > /dev/null`, as a timing or a
  check of the file is run), it is written straight to it: the device keeps nothing,
  so there is nothing to hold back (spooled, an export of a million events wrote and
  read back some 700 MB of temporary file first);
- anything else (a pipe, a terminal, a test's buffer) is spooled, in memory up to
  SPOOL_BYTES and on disk past it (an export: on disk from the start), and copied out once
  complete.

Either way memory stays flat however long the campaign is.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TextIO

from campaigns.errors import CampaignError
from campaigns.text import shown

SPOOL_BYTES = 16 * 1024 * 1024
CHUNK_LINES = 2000  # lines joined into one write
COPIED_BYTES = 1 << 20  # a file of written lines copied a block at a time

Write = Callable[[bytes | memoryview], Any]  # a file's write, which takes either (models.exchange hands both)


def all_or_nothing(produce: Callable[[Write], None], *, spool_file: bool = False) -> None:
    """Run `produce(write)`; what it wrote reaches standard output only if it returns.

    `spool_file`: a pipe's or a terminal's spool is a file from the start, not memory first: the
    export's helper process writes its part straight into it (models.export_split), as into a
    regular file or the null device."""
    sys.stdout.flush()
    target = _regular_file()
    if target is not None:
        _in_place(produce, target)
        return
    discarded = _null_device()
    if discarded is not None:
        produce(discarded.write)
        discarded.flush()
        return
    with _spool(spool_file) as spool:
        produce(spool.write)
        spool.seek(0)
        shutil.copyfileobj(spool, sys.stdout.buffer)
        sys.stdout.buffer.flush()


def _spool(in_file: bool) -> IO[bytes]:
    if in_file:
        try:
            return tempfile.TemporaryFile()
        except OSError:  # no temporary folder to write in: memory first, as any other spool
            pass
    return tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)


def lines_out(lines: Iterable[object]) -> None:
    """Print lines that may hold text from a campaign (each `shown`), all or none of them."""

    def produce(write: Write) -> None:
        chunk: list[str] = []
        for line in lines:
            chunk.append(line if isinstance(line, str) else str(line))
            if len(chunk) >= CHUNK_LINES:
                write(_encoded(chunk))
                chunk = []
        if chunk:
            write(_encoded(chunk))

    all_or_nothing(produce)


def chunks_out(chunks: Iterable[list[str] | IO[bytes]]) -> None:
    """`lines_out` of lines that come a list at a time: the same bytes, without a step per line.
    A chunk that is a file holds lines already as they are written (`_encoded`): copied."""

    def produce(write: Write) -> None:
        pending: list[str] = []
        for chunk in chunks:
            if not isinstance(chunk, list):
                if pending:
                    write(_encoded(pending))
                    pending = []
                while block := chunk.read(COPIED_BYTES):
                    write(block)
                continue
            pending += chunk
            if len(pending) >= CHUNK_LINES:
                write(_encoded(pending))
                pending = []
        if pending:
            write(_encoded(pending))

    all_or_nothing(produce)


def indented_json(value: Any, level: int = 0) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=True)` as it stands `level` indents deep in a
    page of that indent: the same text, made by orjson (json's indenting encoder is pure
    Python, some twenty times slower: most of `adjutant luck --json` on a million events).

    orjson writes what json writes but for three things, each handled: characters past
    ASCII come out as themselves (escaped here as json escapes them), a float below 1e-4
    or from 1e16 up is written otherwise (1e-8, 0.00003 for 1e-08, 3e-05), and an integer
    past 64 bits or a key that is not a plain str is refused: data holding either of the
    last two goes to json itself."""
    import orjson

    if not _orjson_writes(value):
        import json

        return json.dumps(value, indent=2, ensure_ascii=True).replace("\n", "\n" + "  " * level)
    try:
        text = orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except (orjson.JSONEncodeError, TypeError):
        import json

        return json.dumps(value, indent=2, ensure_ascii=True).replace("\n", "\n" + "  " * level)
    if not text.isascii() or "\x7f" in text:
        text = _PAST_ASCII.sub(_escaped, text)
    return text.replace("\n", "\n" + "  " * level) if level else text


def _orjson_writes(value: Any) -> bool:
    """Whether every float in `value` is one orjson writes as json does."""
    if type(value) is float:
        return value == 0 or 1e-4 <= abs(value) < 1e16
    if type(value) is dict:
        return all(map(_orjson_writes, value.values()))
    if type(value) is list or type(value) is tuple:
        return all(map(_orjson_writes, value))
    return True


_PAST_ASCII = re.compile("[^\x00-\x7e]")  # outside its strings, JSON is all ASCII


def _escaped(found: re.Match[str]) -> str:
    """A character as json's ensure_ascii writes it: \\u and four hex digits, a surrogate pair past U+FFFF."""
    n = ord(found.group())
    if n <= 0xFFFF:
        return f"\\u{n:04x}"
    n -= 0x10000
    return f"\\u{0xD800 | (n >> 10):04x}\\u{0xDC00 | (n & 0x3FF):04x}"


def _encoded(chunk: list[str]) -> bytes:
    """The chunk's lines as `shown` prints them, in UTF-8.

    `shown`'s one regular expression over the text joined is some 8 ns a character,
    a second of a million events' log. The same characters are removed from its UTF-8
    bytes by C-level calls: the C0 controls and DEL are single bytes that no other
    character's bytes contain (one `bytes.translate`), and a C1 control is the lead byte
    0xC2 before 0x80-0x9F, a pair nothing else makes (a regular expression only where
    0xC2 occurs at all). A bidirectional control is written out ("<U+202E>"), as `shown`
    writes it: its lead byte (0xE2 or 0xD8) is looked for first. Text that UTF-8 cannot
    carry (a lone surrogate) goes the way of `shown`, which removes it."""
    text = "\n".join(chunk) + "\n"
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        return shown(text).encode("utf-8", "replace")
    data = data.translate(None, _C0_AND_DEL)
    if b"\xc2" in data:
        data = _C1.sub(b"", data)
    if b"\xe2" in data or b"\xd8" in data:
        data = _BIDI.sub(_bidi_written, data)
    return data


_C0_AND_DEL = bytes([*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F])  # tab and newline kept, as `shown` keeps them
_C1 = re.compile(rb"\xc2[\x80-\x9f]")
# campaigns.text's BIDI_CONTROLS in UTF-8 (0xE2 and 0xD8 only ever lead a character).
_BIDI = re.compile(rb"\xd8\x9c|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def _bidi_written(found: re.Match[bytes]) -> bytes:
    return f"<U+{ord(found.group().decode()):04X}>".encode()


def _regular_file() -> IO[bytes] | None:
    buffer = getattr(sys.stdout, "buffer", None)
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a test's buffer has none
        return None
    if buffer is None or not stat.S_ISREG(os.fstat(descriptor).st_mode):
        return None
    return buffer


def _in_place(produce: Callable[[Write], None], target: IO[bytes]) -> None:
    target.flush()
    descriptor = target.fileno()
    start = os.lseek(descriptor, 0, os.SEEK_END if _appending(descriptor) else os.SEEK_CUR)
    try:
        produce(target.write)
        target.flush()
    except BaseException:
        try:
            target.flush()
        except OSError:
            pass  # the disk is full, say: cut back all the same
        os.ftruncate(descriptor, start)
        os.lseek(descriptor, start, os.SEEK_SET)
        raise


def _appending(descriptor: int) -> bool:
    import fcntl

    return bool(fcntl.fcntl(descriptor, fcntl.F_GETFL) & os.O_APPEND)


@contextmanager
def written_whole(out: Path, *, newline: str | None = None) -> Iterator[TextIO]:
    """A text file for `out` that is there whole or not at all: written beside it and
    renamed over it once complete, so a refusal part way never replaces a good file.

    A name that is not a file to replace is not renamed over: a device such as
    /dev/null or /dev/stdout, or a named pipe, is written straight into, as the
    shell's `>` would (renaming over it put a plain file in its place: run as root,
    `-o /dev/null` replaced the device); a symbolic link's file is replaced, not the
    link; a folder, or a folder that is not there, is one sentence."""
    where = Path(os.path.realpath(out)) if out.is_symlink() else out
    try:
        # Through the links: /dev/stdout into a pipe is a link to a link to "pipe:[N]",
        # which is no path, so the link's own stat says what it leads to, not its real path's.
        mode = out.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise CampaignError(f"cannot write {shown(str(out))}: {error.strerror or error}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise CampaignError(f"{shown(str(out))} is a folder: name a file to write")
    if mode is not None and not stat.S_ISREG(mode):
        with out.open("w", encoding="utf-8", newline=newline) as file:
            yield file
        return
    if not where.parent.is_dir():
        raise CampaignError(f"there is no folder {shown(str(where.parent))} to write {shown(where.name)} in")
    partial = where.with_name(f".{where.name}.partial")
    try:
        with partial.open("w", encoding="utf-8", newline=newline) as file:
            yield file
        partial.replace(where)
    finally:
        partial.unlink(missing_ok=True)


def _null_device() -> IO[bytes] | None:
    """Standard output's buffer when standard output is the null device (os.devnull), else None."""
    buffer = getattr(sys.stdout, "buffer", None)
    try:
        descriptor = sys.stdout.fileno()
        found = os.fstat(descriptor)
        null = os.stat(os.devnull)
    except (AttributeError, OSError, ValueError):  # a test's buffer has none; no null device
        return None
    if buffer is None or not stat.S_ISCHR(found.st_mode) or found.st_rdev != null.st_rdev:
        return None
    return buffer

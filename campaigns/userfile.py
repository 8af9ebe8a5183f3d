"""A small file a person names on the command line (orders, passwords), read safely.

The name may be anything: a FIFO nobody writes to (a plain `open` waits for ever),
/dev/zero or a link to it (a plain `read` never ends), a directory, a loop of
symbolic links, a file this user may not read, or one far larger than such a
file can be. Each is refused in one sentence (FileRefused, a ValueError, which
every command's guard prints as it is) before more than `limit` bytes are read.
The text is UTF-8, with or without the byte-order mark an editor may put first.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from campaigns.text import one_line

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefused(ValueError):
    """A named file that cannot be what it is asked to be: one sentence."""


def _open_regular(path: Path | str, what: str) -> int:
    """A descriptor of the regular file `path`, or FileRefused: never waits on a FIFO or a device."""
    name = one_line(path)[:200]
    try:
        # O_NONBLOCK: opening a FIFO does not wait for a writer (it is refused just below)
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        reason = "a loop of symbolic links" if error.errno == errno.ELOOP else (error.strerror or str(error)).lower()
        raise FileRefused(f"cannot read {what} from {name}: {reason}") from None
    except ValueError:  # a NUL byte in the name
        raise FileRefused(f"cannot read {what} from {name}: no file's name holds a NUL byte") from None
    mode = os.fstat(descriptor).st_mode
    kind = next((label for test, label in _KINDS if test(mode)), None)
    if kind is not None:
        os.close(descriptor)
        raise FileRefused(f"{name} is {kind}, not a file of {what}")
    return descriptor


def open_regular(path: Path | str, what: str) -> BinaryIO:
    """The regular file `path` opened for reading in binary (a large one is read by its caller as a stream)."""
    return os.fdopen(_open_regular(path, what), "rb")


def read_bytes(path: Path | str, what: str, limit: int) -> bytes:
    """The bytes of the regular file `path` (at most `limit`), or FileRefused naming `what` it should hold."""
    name = one_line(path)[:200]
    descriptor = _open_regular(path, what)
    try:
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # a regular file may still grow, or claim size 0 (/proc): read, don't trust st_size
            try:
                chunk = os.read(descriptor, min(1 << 16, limit + 1 - size))
            except OSError as error:
                raise FileRefused(f"cannot read {what} from {name}: {(error.strerror or str(error)).lower()}") from None
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        raise FileRefused(f"{name} is larger than a file of {what} can be ({limit:,} bytes)")
    finally:
        os.close(descriptor)


def read_text(path: Path | str, what: str, limit: int) -> str:
    """As `read_bytes`, decoded as UTF-8 (a leading byte-order mark dropped)."""
    raw = read_bytes(path, what, limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileRefused(f"{one_line(path)[:200]} is not UTF-8 text (byte {error.start + 1})") from None

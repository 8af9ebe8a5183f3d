"""Standard output that is all or nothing: a refusal part way leaves nothing printed.

`adjutant export` and `adjutant log` read a campaign as they print it, and a damaged
row late in the file refuses the whole command with one sentence on stderr. So
what they print is held back until it is complete:

- when standard output is a regular file (`adjutant export FILE > copy.json`), it
  is written straight into that file, and a refusal cuts the file back to where it
  started: no second copy of half a gigabyte;
- anything else (a pipe, a terminal, a test's buffer) is spooled, in memory up to
  SPOOL_BYTES and on disk past it, and copied out once complete.

Either way memory stays flat however long the campaign is.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from typing import IO, Any

from campaigns.text import shown

SPOOL_BYTES = 16 * 1024 * 1024
CHUNK_LINES = 2000  # lines joined into one write

Write = Callable[[bytes | memoryview], Any]  # a file's write, which takes either (models.exchange hands both)


def all_or_nothing(produce: Callable[[Write], None]) -> None:
    """Run `produce(write)`; what it wrote reaches standard output only if it returns."""
    sys.stdout.flush()
    target = _regular_file()
    if target is not None:
        _in_place(produce, target)
        return
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as spool:
        produce(spool.write)
        spool.seek(0)
        shutil.copyfileobj(spool, sys.stdout.buffer)
        sys.stdout.buffer.flush()


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


def _encoded(chunk: list[str]) -> bytes:
    # One pass of `shown` over the chunk joined: it removes characters, never a newline.
    return (shown("\n".join(chunk)) + "\n").encode("utf-8", "replace")


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

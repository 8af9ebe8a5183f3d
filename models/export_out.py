"""The export's text handed to its output by a thread of its own.

Writing a million events' export into a file is some 900 MB copied into the
kernel's page cache: over half a second of the export's own thread at 1M
events, spent in `write` calls that let go of the GIL. Here the text is
gathered into chunks of CHUNK_BYTES and written by a second thread while the
export's thread goes on judging and encoding rows, a few chunks at most
waiting (memory stays flat).

Nothing else changes: the same bytes reach `out` in the same order, from one
thread at a time. An output that fails (a full disk) fails the export as it
did, with its own error, and first: if the rows fail later in the stream
than text the output had already refused, the output's error is the one
raised, as it was when each write came before the next row was read. When
the export fails or is interrupted, the thread is stopped and waited for
before the error goes on, so nothing is written after the caller cuts the
output back (campaigns.output).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Out = Callable[[bytes | memoryview], Any]

# A chunk a write; CHUNKS_WAITING of them at most wait for the thread.
CHUNK_BYTES = 1 << 20
CHUNKS_WAITING = 4


class _Beside:
    def __init__(self, out: Out) -> None:
        self.out = out
        self.pending: list[bytes | memoryview] = []
        self.size = 0
        self.chunks: queue.Queue[bytes | None] = queue.Queue(CHUNKS_WAITING)
        self.failed: BaseException | None = None
        self.abandoned = False
        self.thread = threading.Thread(target=self._run, name="export-writer", daemon=True)
        self.thread.start()

    def write(self, data: bytes | memoryview) -> None:
        self.pending.append(data)
        self.size += len(data)
        if self.size >= CHUNK_BYTES:
            self._hand_over()

    def _hand_over(self) -> None:
        chunk = b"".join(self.pending)
        self.pending = []
        self.size = 0
        self._put(chunk)

    def _put(self, chunk: bytes | None) -> None:
        while True:
            if self.failed is not None and chunk is not None:
                raise self.failed
            try:
                self.chunks.put(chunk, timeout=0.05)
                return
            except queue.Full:
                continue  # look again whether the output has failed

    def _run(self) -> None:
        while (chunk := self.chunks.get()) is not None:
            if self.failed is None and not self.abandoned:
                try:
                    self.out(chunk)
                except BaseException as error:  # noqa: BLE001 - handed to the export's thread, which raises it
                    self.failed = error

    def close(self) -> None:
        """Write what is left and wait for it; the output's error, if it failed."""
        if self.pending:
            self._hand_over()
        self._put(None)
        self.thread.join()
        if self.failed is not None:
            raise self.failed

    def abandon(self) -> None:
        """Stop writing (what waits is dropped) and wait for the thread."""
        self.abandoned = True
        self._put(None)
        self.thread.join()


@contextmanager
def written_beside(out: Out) -> Iterator[Out]:
    """A `write` whose text reaches `out` from a thread of its own, all of it by the end of the block."""
    beside = _Beside(out)
    try:
        yield beside.write
    except BaseException:
        beside.abandon()
        if beside.failed is not None:  # the output failed first, on text before what failed here
            raise beside.failed from None
        raise
    beside.close()

"""The cyclic garbage collector paused while rows stream through (export, import, check, log)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused while rows stream through.

    A batch of rows is a thousand dicts and lists that hold no cycles, freed by their
    reference counts; the collector would still walk them again and again as they are
    made, which doubled the time of an export or a check of a million events."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

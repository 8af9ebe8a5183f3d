"""Files the tests build from nothing but code and take seconds to build (a campaign played for
some turns: tests/played.py), built once for the whole run rather than once in each xdist worker.

tests/conftest.py makes a folder for the run before xdist starts its workers, which inherit its
name (RUN_FOLDER), and removes it when the run ends. The first process that asks for a file
builds it there under a lock, under another name, and gives it its own name only once whole;
the others wait for the lock and copy it. A run without the folder (its variable unset, or the
folder gone) builds for its own process."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

RUN_FOLDER = "ADJUTANT_TEST_RUN_FOLDER"  # tests/conftest.py names it too


def built_for_the_run(name: str, build: Callable[[Path], object]) -> Path:
    """The one file `build(folder)` makes in an empty folder (its path is returned by build or
    is the folder's only file), made once for the run and kept as `name`."""
    import fcntl

    shared = os.environ.get(RUN_FOLDER)
    if not shared or not Path(shared).is_dir():
        folder = Path(tempfile.mkdtemp(prefix="adjutant-built-"))
        atexit.register(shutil.rmtree, folder, True)
        return _built_in(folder, build)
    kept = Path(shared) / name
    with open(f"{kept}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not kept.is_file():
            making = Path(tempfile.mkdtemp(prefix=f"{name}-making-", dir=shared))
            try:
                os.rename(_built_in(making, build), kept)  # whole, or not there at all
            finally:
                shutil.rmtree(making, ignore_errors=True)
    return kept


def _built_in(folder: Path, build: Callable[[Path], object]) -> Path:
    build(folder)
    made = list(folder.iterdir())
    assert len(made) == 1, f"a campaign is more than one file: copy them all ({[p.name for p in made]})"
    return made[0]

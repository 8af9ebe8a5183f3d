"""The app's hostile-file run at full size: `python -m tests.tui.hostile_screens_corpus [--seed N]`.

Every maker of the corpus (tests/hostile.py: every kind, every column, every statement),
each file opened in the app and every screen visited as tests/tui/test_hostile_screens.py
does: shown inert, or refused in one sentence. The suite draws one of every kind per run
(with the run's seed); this runs them all. Prints each failure and the figures; exit 1 if
anything failed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

from tests import hostile
from tests.test_hostile_files import played
from tests.tui.test_hostile_screens import visit_every_screen


async def run(seed: int) -> int:
    with tempfile.TemporaryDirectory(prefix="adjutant-hostile-screens-") as folder:
        real = played(Path(folder) / "real.campaign")
        makers = hostile.makers(real)
        failed = 0
        start = time.perf_counter()
        for number, make in enumerate(makers):
            home = Path(folder) / f"{number:05d}"
            home.mkdir()
            path = home / "hostile.campaign"
            make(path, real, random.Random(seed + number))
            try:
                await visit_every_screen(path, make.__name__)
            except Exception:  # noqa: BLE001  (an assertion or a traceback: what the run counts)
                failed += 1
                print(f"FAILED {make.__name__}: {traceback.format_exc(limit=3)[:600]}")
        seconds = time.perf_counter() - start
        print(f"seed {seed}: {len(makers)} files opened in the app in {seconds:.0f} s; {failed} failed")
        return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args(argv)
    return asyncio.run(run(args.seed))


if __name__ == "__main__":
    sys.exit(main())

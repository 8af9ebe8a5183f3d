"""The seed of the suite's drawn corpora: a new one for each run, so that over runs the whole of a
corpus is tried, and printed so that a failure can be replayed.

`python -m pytest` prints it in its header ("drawn corpora: seed N"); a test that draws prints it
too, which pytest shows with a failure. `ADJUTANT_TEST_SEED=N python -m pytest ...` draws the same
cases again. The seed lives in the environment, so that the xdist workers (started after
tests/conftest.py has chosen it) draw with the same one. The full corpora, unsampled, run with
`python -m tests.hostile_corpus`.
"""

from __future__ import annotations

import os
import secrets

VARIABLE = "ADJUTANT_TEST_SEED"


def run_seed() -> int:
    """This run's seed: ADJUTANT_TEST_SEED, or one drawn now and kept there for the run."""
    chosen = os.environ.get(VARIABLE, "").strip()
    if not chosen.isdigit():
        chosen = str(secrets.randbelow(2**32))
        os.environ[VARIABLE] = chosen
    return int(chosen)


def replay(seed: int) -> str:
    """What to type to draw the same cases again."""
    return f"drawn corpora: seed {seed} ({VARIABLE}={seed} draws them again)"

"""The hostile-file run at full size: `python -m tests.hostile_corpus [--count 1000] [--seed N]`.

Makes a fresh seeded corpus (tests/hostile.py) of COUNT campaign files, runs
`check`, `export`, `log`, `battles` and `battles --list` on each in-process,
with the same assertions as tests/test_hostile_files.py, and prints the figures:
files, sound and refused, tracebacks, hangs, files changed, control bytes on
stdout or stderr, triggers fired, and check/export disagreements. Exit 1 if any
of those is not zero. The test suite runs a smaller corpus of the same kinds.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
import traceback
from pathlib import Path

from tests import hostile
from tests.test_hostile_files import judge, played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args(argv)
    failures: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    sound = refused = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="adjutant-hostile-") as folder:
        real = played(Path(folder) / "real.campaign")
        for path, what in hostile.corpus(real, Path(folder) / "corpus", args.count, seed=args.seed):
            try:
                codes = judge(path, what)
            except AssertionError as error:
                kind = str(error).split(":")[1].strip() if ":" in str(error) else "assertion"
                failures[kind] += 1
                examples.setdefault(kind, f"{what}: {error}"[:300])
                continue
            except Exception:  # noqa: BLE001  (a traceback: exactly what the run counts)
                failures["traceback"] += 1
                examples.setdefault("traceback", f"{what}: {traceback.format_exc(limit=3)}"[:600])
                continue
            sound += codes["check"] == 0
            refused += codes["check"] != 0
    seconds = time.perf_counter() - start
    print(f"seed {args.seed}: {args.count} files in {seconds:.1f} s ({seconds / args.count * 1000:.0f} ms a file)")
    print(f"  check calls {sound} sound and refuses {refused}; every command agrees: {not failures}")
    for kind, count in failures.most_common():
        print(f"  FAILED {count}: {kind}\n    e.g. {examples[kind]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

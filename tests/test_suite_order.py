"""The suite's order for xdist (tests/conftest.py `dealt`): each worker's first share holds
part of the slow files, whole, and is the size xdist cuts it at."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tests.conftest import dealt


def items(files: dict[str, int]) -> list[Any]:
    return [SimpleNamespace(nodeid=f"{name}::test_{n}") for name, count in files.items() for n in range(count)]


def test_the_slow_files_are_dealt_to_every_worker_whole_and_the_shares_are_xdist_sized() -> None:
    slow = {f"tests/tui/test_{n}.py": 3 + n for n in range(7)}
    collected = items({**slow, "tests/rules/test_a.py": 40, "tests/rules/test_b.py": 31})
    for workers in (2, 3):
        order = dealt(collected, workers)
        assert sorted(i.nodeid for i in order) == sorted(i.nodeid for i in collected)
        left, start = len(order), 0
        seen: list[set[str]] = []
        for worker in range(workers):
            size = left // (workers - worker)
            share = order[start : start + size]
            start, left = start + size, left - size
            names = [i.nodeid.split("::")[0] for i in share]
            first_quick = next(n for n, name in enumerate(names) if name.startswith("tests/rules/"))
            assert all(name.startswith("tests/rules/") for name in names[first_quick:]), names
            seen.append({name for name in names if not name.startswith("tests/rules/")})
        assert all(seen), seen  # every worker starts with slow files
        assert set().union(*seen) == set(slow) and sum(map(len, seen)) == len(slow)  # each file whole, once
    # the longest two go to different workers
    two = dealt(collected, 2)
    assert two[0].nodeid.startswith("tests/tui/test_0.py")
    assert any(i.nodeid.startswith("tests/tui/test_1.py") for i in two[len(two) // 2 :][:10])


def test_slow_files_that_overfill_a_share_keep_the_longest_first_order() -> None:
    collected = items({"tests/tui/test_a.py": 50, "tests/rules/test_a.py": 2})
    assert dealt(collected, 2) == collected

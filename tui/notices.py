"""How many notices (toasts) show at once, and which give way to a new one.

Fast rolls at 80x24 stacked toasts over half the screen: the battle's odds, a
dialog's question. A few show at once, fewer on a short terminal. The newest
information replaces the oldest. A refusal (an error, or a warning) never gives way
to information: the umpire must see why a key did nothing, even after a burst of
keys whose notices came after it (tests/e2e/test_tabletop_bursts.py). Only a newer
refusal replaces it, when refusals alone fill the room; information then still
shows beside them, one more toast, and the next replaces it. The same notice raised
again shows once, the latest.

Pure: AdjutantApp.on_notify applies it to the notices Textual keeps.
"""

from __future__ import annotations

from collections.abc import Sequence

SHORT = 30  # terminal rows: below this, fewer notices at once
AT_ONCE = 3
AT_ONCE_SHORT = 2
REFUSALS = frozenset({"error", "warning"})

Notice = tuple[str, str]  # (severity, message)


def room(height: int) -> int:
    """How many notices show at once on a terminal of `height` rows."""
    return AT_ONCE_SHORT if height < SHORT else AT_ONCE


def give_way(live: Sequence[Notice], new: Notice, at_once: int) -> list[int]:
    """Which of the `live` notices (oldest first) to forget for `new`: their indexes, in order."""
    gone = {i for i, notice in enumerate(live) if notice == new}  # raised again: the latest shows
    kept = [i for i in range(len(live)) if i not in gone]
    while len(kept) + 1 > at_once:
        information = [i for i in kept if live[i][0] not in REFUSALS]
        if information:
            oldest = information[0]
        elif new[0] in REFUSALS:
            oldest = kept[0]
        else:
            break  # refusals only: they never give way to information
        kept.remove(oldest)
        gone.add(oldest)
    return sorted(gone)

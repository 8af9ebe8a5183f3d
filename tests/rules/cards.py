"""Where the tests find the card texts: ../shared/seeds beside the project root.

The cards are not part of the repository (they are someone else's quick-reference
sheets), so a test that reads one skips, saying so, on a machine without them. The
values a test expects stay typed in the test; the card is only read to check that
the words quoted are the card's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CARDS = (PROJECT_ROOT / "../shared/seeds").resolve()

ALLEMAGNE1813 = "000_af08e2398854582c.txt"
NAPOLEONIC_D10 = "001_c4de82bc21018f2c.txt"
KALLISTRA_ACW = "002_4559601f68b00eee.txt"
NAPOLEONIC_UC_UM = "003_49b400ab842f5a33.txt"
NAPOLEONIC_13PHASE = "004_3c19d583169bac2b.txt"

CARD_OF = {
    "allemagne1813": ALLEMAGNE1813,
    "napoleonic_d10": NAPOLEONIC_D10,
    "kallistra_acw": KALLISTRA_ACW,
    "napoleonic_uc_um": NAPOLEONIC_UC_UM,
    "napoleonic_13phase": NAPOLEONIC_13PHASE,
}


def card_path(name: str) -> Path:
    return CARDS / name


def _absent(name: str) -> str:
    return f"the card {name} is not in {CARDS} (../shared/seeds beside the project root)"


def needs_card(name: str) -> pytest.MarkDecorator:
    """Skip the test, saying why, when the card is not at ../shared/seeds."""
    return pytest.mark.skipif(not card_path(name).exists(), reason=_absent(name))


def skip_without_card(name: str) -> None:
    """The same, from inside a parametrized test."""
    if not card_path(name).exists():
        pytest.skip(_absent(name))


def card_text(name: str) -> str:
    return card_path(name).read_text(encoding="utf-8")

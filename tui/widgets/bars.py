"""Small text bars for chances: quicker to read than numbers in a row of odds."""

from __future__ import annotations

from fractions import Fraction

BLOCKS = " ▏▎▍▌▋▊▉█"


def odds_bar(chance: Fraction | float, width: int = 10) -> str:
    """A bar `width` cells long filled in proportion to `chance` (0 to 1)."""
    eighths = round(float(chance) * width * 8)
    full, part = divmod(eighths, 8)
    bar = "█" * full + (BLOCKS[part] if part and full < width else "")
    return bar.ljust(width)

"""Tables as printed on a reference card: a row axis, an optional column axis, cells,
and for a card that prints one grid per weapon or troop type, an optional page axis.

A *band* is one heading of an axis as the card prints it: a single value ("5"),
a range ("11-15", "1 à 4", "1 - 3"), an open end ("81 et +", "1 et -", "< 5") or,
for named axes, a list of values (the months of one weather column).  Lookups take
axis values (a modified roll, an SP total, a month) and find the band holding them.
A value outside every band is an error: a table reaches past its printed rows only
where the card prints an open end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from rules.errors import RulesError
from rules.numbers import is_whole, whole

_RANGE = re.compile(r"^(-?\d+)\s*(?:-|à|to)\s*(-?\d+)$")
_UP = re.compile(r"^(?:(-?\d+)\s*(?:et\s*)?\+|(?:≥|>=)\s*(-?\d+))$")
_DOWN = re.compile(r"^(?:(-?\d+)\s*(?:et\s*)?-|(?:≤|<=)\s*(-?\d+))$")
_BELOW = re.compile(r"^<\s*(-?\d+)$")
_SINGLE = re.compile(r"^(-?\d+)$")

# how a bare number in a cell is met (Table.target)
Target = Literal["more_than", "at_least", "at_most"]


@dataclass(frozen=True)
class Band:
    """One printed heading of an axis and the values it holds."""

    label: str
    low: int | None = None  # None: open downwards ("et -", "<")
    high: int | None = None  # None: open upwards ("et +")
    names: tuple[str | int, ...] = ()  # for bands that list their values

    @classmethod
    def parse(cls, label: str) -> "Band":
        text = " ".join(label.split())
        if m := _RANGE.match(text):
            low, high = int(m[1]), int(m[2])
            if low > high:
                raise ValueError(f"band {label!r} runs backwards")
            return cls(label, low, high)
        if m := _UP.match(text):  # "81 et +", "15+", "≥13"
            return cls(label, int(m[1] or m[2]), None)
        if m := _DOWN.match(text):  # "1 et -", "2-", "≤0"
            return cls(label, None, int(m[1] or m[2]))
        if m := _BELOW.match(text):
            return cls(label, None, int(m[1]) - 1)
        if m := _SINGLE.match(text):
            return cls(label, int(m[1]), int(m[1]))
        raise ValueError(f"band {label!r} is not a number, a range or an open end")

    @property
    def numeric(self) -> bool:
        return not self.names

    def holds(self, value: int | str) -> bool:
        if self.names:
            return value in self.names
        if not isinstance(value, int):
            return False
        return (self.low is None or value >= self.low) and (
            self.high is None or value <= self.high
        )


@dataclass(frozen=True)
class Axis:
    """A named axis: `roll`, `sp`, `month`, `unit`..."""

    name: str
    label: str
    bands: tuple[Band, ...]

    @property
    def numeric(self) -> bool:
        return all(b.numeric for b in self.bands)

    def coerce(self, raw: str) -> int | str:
        """Turn a typed value into an axis value: a whole number, or a listed name."""
        names = [v for b in self.bands for v in b.names]
        if names and raw not in names and is_whole(raw) and int(raw) in names:
            return int(raw)  # a named axis that mixes numbers and words ("half", 1, 2...)
        wants_int = self.numeric or all(isinstance(v, int) for v in names)
        if wants_int:
            return whole(raw, self.name)
        return raw

    def index_of(self, value: int | str) -> int:
        for i, band in enumerate(self.bands):
            if band.holds(value):
                return i
        raise RulesError(f"{self.name}={value} is outside the table ({self.describe()})")

    def nearest(self, value: int) -> int:
        """The printed value nearest to `value`, for procedures whose named option
        reads a roll past the table on its first or last row."""
        printed = [v for v in self.values() if isinstance(v, int)]
        return min(max(value, min(printed)), max(printed))

    def describe(self) -> str:
        if self.numeric:
            return f"printed {self.name} bands: " + ", ".join(b.label for b in self.bands)
        values = [str(v) for b in self.bands for v in b.names]
        return f"{self.name} is one of " + ", ".join(values)

    def values(self) -> list[int | str]:
        """Every value the axis can take, for open ends only the printed end."""
        out: list[int | str] = []
        for band in self.bands:
            if band.names:
                out.extend(band.names)
            else:
                low = band.low if band.low is not None else band.high
                high = band.high if band.high is not None else band.low
                if low is None or high is None:  # a band without names has a bound (the loader checks)
                    continue
                out.extend(range(low, high + 1))
        return out


@dataclass(frozen=True)
class Cell:
    """A cell exactly as printed, with the meaning of its marks."""

    raw: str  # "" for a blank cell
    table: "Table" = field(repr=False, compare=False)

    @property
    def text(self) -> str:
        """The cell as printed: `-` for a blank cell."""
        return self.raw or "-"

    @property
    def blank(self) -> bool:
        return self.raw == ""

    @property
    def number(self) -> int:
        """The leading whole number of the cell; 0 for a blank or a printed `-`."""
        m = re.match(r"^[+-]?\d+", self.raw)
        return int(m[0]) if m else 0

    @property
    def marks(self) -> tuple[str, ...]:
        # "***" ends with "*" too: a cell carries the longest mark it ends with.
        hits = [mark for mark in self.table.legend if self.raw.endswith(mark)]
        return (max(hits, key=len),) if hits else ()

    @property
    def meaning(self) -> list[str]:
        return [self.table.legend[m] for m in self.marks]


@dataclass(frozen=True)
class Table:
    ruleset: str
    id: str
    title: str
    source_file: str
    source_heading: str
    rows: Axis
    columns: Axis | None
    cells: tuple[tuple[str, ...], ...]  # the grid of the first (or only) page
    printed_rows: tuple[str, ...]
    dice: str | None = None
    pages: Axis | None = None  # one grid per page value, all with the same rows and columns
    page_cells: tuple[tuple[tuple[str, ...], ...], ...] = ()
    legend: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    card_notes: tuple[str, ...] = ()
    # how a bare number in a cell is met, when the card says ("must achieve a score
    # greater than shown"): "more_than"; None when cells print their own ("4+")
    target: Target | None = None

    @property
    def axes(self) -> tuple[Axis, ...]:
        grid = (self.rows,) if self.columns is None else (self.rows, self.columns)
        return grid if self.pages is None else (self.pages, *grid)

    def grids(self) -> list[tuple[str | None, tuple[tuple[str, ...], ...]]]:
        """(page label, grid) for each page; one unlabelled grid for a table without pages."""
        if self.pages is None:
            return [(None, self.cells)]
        return [(band.label, grid) for band, grid in zip(self.pages.bands, self.page_cells)]

    def lookup(self, **values: int | str) -> Cell:
        names = {a.name for a in self.axes}
        unknown = set(values) - names
        if unknown:
            raise RulesError(
                f"table {self.id} has no axis {sorted(unknown)[0]!r}; its axes are "
                + ", ".join(a.name for a in self.axes)
            )
        missing = [n for n in (a.name for a in self.axes) if n not in values]
        if missing:
            raise RulesError(f"table {self.id} needs {missing[0]}=VALUE")
        r = self.rows.index_of(values[self.rows.name])
        c = 0 if self.columns is None else self.columns.index_of(values[self.columns.name])
        grid = self.cells if self.pages is None else self.page_cells[self.pages.index_of(values[self.pages.name])]
        return Cell(grid[r][c], self)

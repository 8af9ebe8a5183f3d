"""The theatre drawn in character cells: roads in braille, rivers as waves, places, stacks, battles.

Pure drawing: `draw(data, view, width, height, cursor)` gives the lines of rich
Text for a map of that size. Every feature has its own character, so the map
reads without colour (NO_COLOR); colour only adds to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from rich.cells import cell_len
from rich.control import STRIP_CONTROL_CODES
from rich.style import Style
from rich.text import Span, Text

from campaigns.theatre_map import MapData, MapPlace, extent

# Braille: each cell holds 2 x 4 dots; the bit of the dot at (column, row).
_DOT = {(0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (1, 0): 0x08, (1, 1): 0x10, (1, 2): 0x20, (0, 3): 0x40, (1, 3): 0x80}
CELL_ASPECT = 2.0  # a terminal cell is about twice as tall as it is wide
MARKER = {"town": "o", "fortress": "#", "crossing": "+"}
SIDE_STYLES = (Style(color="blue", bold=True), Style(color="red", bold=True), Style(color="green", bold=True))
ZOOMS = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
LEGEND = "o town  # fortress  + crossing  ⠿ road  ⠅ poor road  ~ river  ≈ major river  * battle  [ ] cursor"


@dataclass(frozen=True)
class View:
    """What part of the theatre the map shows: its centre (km) and its zoom step."""

    cx: float
    cy: float
    zoom: int = 0  # index into ZOOMS

    def km_per_column(self, width: int, height: int) -> float:
        full_w, full_h = extent()
        whole = max(full_w / max(width, 1), full_h / max(height, 1) / CELL_ASPECT)
        return whole / ZOOMS[self.zoom]

    def cell(self, x: float, y: float, width: int, height: int) -> tuple[float, float]:
        """(column, row) of a point, fractional."""
        k = self.km_per_column(width, height)
        return width / 2 + (x - self.cx) / k, height / 2 + (y - self.cy) / (k * CELL_ASPECT)

    def shows(self, x: float, y: float, width: int, height: int) -> bool:
        col, row = self.cell(x, y, width, height)
        return 0 <= col < width and 0 <= row < height


def whole_theatre() -> View:
    w, h = extent()
    return View(w / 2, h / 2, 0)


def badges(place: MapPlace) -> str:
    """The stacks at a place as side letters and SP: "F24", or "F24/A12" where both sides stand."""
    return "/".join(s.mark for s in place.stacks)


# A line of the map: its characters, one a cell, and the style of each (None: a blank).
Row = tuple[str, tuple[Style | None, ...]]
ROAD, RIVER = Style(color="yellow", dim=True), Style(color="cyan")
CURSOR = Style(reverse=True, bold=True)
# Each dot's bit in a braille cell, by (column % 2) * 4 + row % 4.
_BIT = [_DOT[(c, r)] for c in range(2) for r in range(4)]
_STRIPPED = frozenset(map(chr, STRIP_CONTROL_CODES))  # what Text.append leaves out of a character


def _spots(data: MapData, view: View, width: int, height: int) -> dict[str, tuple[float, float]]:
    """Each place's (column, row) on the map, fractional."""
    k = view.km_per_column(width, height)  # once, not once a place (each asks the gazetteer)
    return {
        p.place.name: (width / 2 + (p.x - view.cx) / k, height / 2 + (p.y - view.cy) / (k * CELL_ASPECT))
        for p in data.places
    }


def _terrain(data: MapData, view: View, width: int, height: int) -> list[Row]:
    """The rivers and roads: the same for every reading of the campaign (the gazetteer's)."""
    spot = _spots(data, view, width, height)
    dots = [[0] * width for _ in range(height)]
    water = [[""] * width for _ in range(height)]
    for _name, size, course in data.rivers:
        for a, b in zip(course, course[1:]):
            if not _off_one_side(spot[a], spot[b], width, height):
                _wave(water, spot[a], spot[b], "≈" if size == "major" else "~")
    for a, b, kind in data.roads:
        if not _off_one_side(spot[a], spot[b], width, height):
            _line(dots, spot[a], spot[b], every=1 if kind == "road" else 3)
    rows: list[Row] = []
    blank: Row = (" " * width, (None,) * width)  # a line no road or river crosses, as the loop makes it
    for dot_row, water_row in zip(dots, water):
        if not any(dot_row) and not any(water_row):
            rows.append(blank)
            continue
        chars = [chr(0x2800 + d) if d else w or " " for d, w in zip(dot_row, water_row)]
        styles = tuple(ROAD if d else RIVER if w else None for d, w in zip(dot_row, water_row))
        rows.append(("".join(chars), styles))
    return rows


class _Ground:
    """What does not move with the cursor, for one (data, view, size): rivers, roads and the
    markers of the places that are marked wherever the cursor is."""

    def __init__(self, data: MapData, view: View, width: int, height: int, terrain: list[Row]) -> None:
        self.width, self.height = width, height
        spot = _spots(data, view, width, height)
        self.rows = terrain
        self.shown = [
            (p, int(col), int(row)) for p in data.places
            for col, row in [spot[p.place.name]] if 0 <= col < width and 0 <= row < height
        ]
        self.zoom = ZOOMS[view.zoom]
        self.sides = list(data.sides)
        # Markers: the last place put at a cell is the one seen there, so each keeps its place in the order.
        # The whole theatre has more places than cells: at the widest zoom only the
        # places that matter (stacks, battles, fortresses) get a marker; roads show the rest.
        self.markers: dict[tuple[int, int], tuple[int, str, Style]] = {}
        for index, (p, col, row) in enumerate(self.shown):
            if self.zoom < 2 and not (p.stacks or p.battle or p.place.kind == "fortress"):
                continue
            self.markers[(row, col)] = (index, *_marker(p))
        # Labels by importance (the cursor's first, then battles, stacks, and names where room is left).
        self.order = sorted(self.shown, key=lambda s: (not s[0].battle, not s[0].stacks, s[0].place.name))

    def with_cursor(self, cursor: str | None) -> tuple[list[Row], bool]:
        """The lines with the labels and the cursor; and whether every character is one cell wide."""
        chars = {cell: (mark, style) for cell, (_i, mark, style) in self.markers.items()}
        here = [(i, s) for i, s in enumerate(self.shown) if s[0].place.name == cursor]
        for index, (p, col, row) in here:  # marked at any zoom, unless a later place is put on the same cell
            if self.markers.get((row, col), (-1,))[0] < index:
                chars[(row, col)] = _marker(p)
        plain = True
        width, height = self.width, self.height
        for p, col, row in [s for _i, s in here] + [s for s in self.order if s[0].place.name != cursor]:
            label = badges(p)
            at_cursor = p.place.name == cursor
            if at_cursor or (self.zoom >= 3 and not label) or (label and self.zoom >= 2):
                label = f"{p.place.name} {label}".strip()
            if not label:
                continue
            if at_cursor:
                mark = MARKER[p.place.kind] if not p.battle else "*"
                for c, ch in ((col - 1, "["), (col, mark), (col + 1, "]")):
                    if 0 <= c < width:
                        chars[(row, c)] = (ch, CURSOR)
                col += 1
            style = Style(bold=True)
            if p.stacks and len({s.side_name for s in p.stacks}) == 1:
                style = SIDE_STYLES[self.sides.index(p.stacks[0].side_name) % len(SIDE_STYLES)]
            if at_cursor:
                style = style + Style(underline=True)
            n = len(label)
            for r, c in ((row, col + 1), (row, col - n - 1), (row - 1, col - n // 2), (row + 1, col - n // 2)):
                free = 0 <= r < height and 0 <= c and c + n <= width and all((r, x) not in chars for x in range(c, c + n))
                if free or at_cursor:
                    if 0 <= r < height:
                        plain = plain and cell_len(label) == n and all(cell_len(ch) == 1 for ch in label)
                        for i, ch in enumerate(label):
                            if 0 <= c + i < width:
                                chars[(r, c + i)] = (ch, style)
                    break
        by_row: dict[int, list[tuple[int, str, Style]]] = {}
        for (r, c), (ch, style) in chars.items():
            by_row.setdefault(r, []).append((c, ch, style))
        rows = list(self.rows)
        for r, cells in by_row.items():
            text, styles = list(rows[r][0]), list(rows[r][1])
            for c, ch, style in cells:
                text[c], styles[c] = ch, style
            rows[r] = ("".join(text), tuple(styles))
        return rows, plain


def _marker(p: MapPlace) -> tuple[str, Style]:
    if p.battle:
        return "*", Style(color="red", bold=True)
    return MARKER[p.place.kind], Style(bold=bool(p.stacks))


def _off_one_side(a: tuple[float, float], b: tuple[float, float], width: int, height: int) -> bool:
    """Whether both ends of a stretch lie more than a cell beyond the same edge of the map:
    then no point between them falls on it, and _line or _wave would mark nothing (zoomed
    in, most of the theatre's 500 roads; walking each was most of a zoomed map's drawing)."""
    (c1, r1), (c2, r2) = a, b
    return ((c1 < -1 and c2 < -1) or (c1 > width + 1 and c2 > width + 1)
            or (r1 < -1 and r2 < -1) or (r1 > height + 1 and r2 > height + 1))


def _line(dots: list[list[int]], a: tuple[float, float], b: tuple[float, float], every: int = 1) -> None:
    """A line of braille dots from cell a to cell b; every n-th dot for a dotted one.

    Only the stretch that can fall on the map is walked (with a step to spare each end),
    each dot where the whole walk would put it."""
    (c1, r1), (c2, r2) = a, b
    x1, y1, x2, y2 = c1 * 2, r1 * 4, c2 * 2, r2 * 4
    steps = int(max(abs(x2 - x1), abs(y2 - y1))) + 1
    if steps > 4000:  # far outside at a high zoom: not worth walking
        return
    height, width = len(dots), len(dots[0]) if dots else 0
    dx, dy = x2 - x1, y2 - y1
    first, last = 0, steps
    across, down = 2 * width, 4 * height
    for start, change, end in ((x1, dx, across), (y1, dy, down)):
        if change == 0:
            if not 0 <= start < end:
                return
            continue
        i1, i2 = (0 - start) * steps / change, (end - start) * steps / change
        if i2 < i1:
            i1, i2 = i2, i1
        first, last = max(first, int(i1) - 1), min(last, int(i2) + 1)
    if first > last:
        return
    bit = _BIT
    for i in range(-(-first // every) * every, last + 1, every):
        x = x1 + dx * i / steps
        y = y1 + dy * i / steps
        if 0 <= x < across and 0 <= y < down:
            xi, yi = int(x), int(y)
            dots[yi >> 2][xi >> 1] |= bit[(xi & 1) * 4 + (yi & 3)]


def _wave(water: list[list[str]], a: tuple[float, float], b: tuple[float, float], mark: str) -> None:
    (c1, r1), (c2, r2) = a, b
    steps = int(max(abs(c2 - c1), abs(r2 - r1) * 2)) + 1
    if steps > 2000:
        return
    height, width = len(water), len(water[0]) if water else 0
    for i in range(steps + 1):
        col = int(c1 + (c2 - c1) * i / steps)
        row = int(r1 + (r2 - r1) * i / steps)
        if 0 <= col < width and 0 <= row < height and water[row][col] != "≈":
            water[row][col] = mark


class Drawing:
    """The map of one size, drawn again only as far as what changed: the ground (rivers,
    roads, markers) when the data or the view changes, the labels and the cursor when the
    cursor moves. `rows()` equals a fresh `draw()` of the same state."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        # The last few grounds, by view: zooming back out, or in again at the same place, finds its own.
        self._grounds: dict[View, tuple[MapData, _Ground]] = {}
        self._terrains: dict[View, tuple[object, list[Row]]] = {}  # the rivers and roads, by view
        self._last: tuple[MapData, View, str | None, list[Row], bool] | None = None

    def rows(self, data: MapData, view: View, cursor: str | None) -> tuple[list[Row], bool]:
        """The lines for this state, and whether each character is one cell wide (a label
        from a hostile file may hold a wide or control character)."""
        last = self._last
        if last is not None and last[0] is data and last[1] == view and last[2] == cursor:
            return last[3], last[4]
        theatre = (data.roads, data.rivers)

        def terrain(old: tuple[object, list[Row]] | None) -> tuple[object, list[Row]]:
            places = tuple((p.place.name, p.x, p.y) for p in data.places)
            if old is not None and old[0] == (theatre, places):  # a new reading of the campaign: the same theatre
                return old
            return (theatre, places), _terrain(data, view, self.width, self.height)

        def ground(old: tuple[MapData, _Ground] | None) -> tuple[MapData, _Ground]:
            if old is not None and old[0] is data:
                return old
            return data, _Ground(data, view, self.width, self.height, _newest(self._terrains, view, terrain)[1])

        kept = _newest(self._grounds, view, ground)
        rows, plain = kept[1].with_cursor(cursor)
        self._last = (data, view, cursor, rows, plain)
        return rows, plain


GROUNDS_KEPT = 4
_Kept = TypeVar("_Kept")


def _newest(kept: dict[View, _Kept], view: View, make: Callable[[_Kept | None], _Kept]) -> _Kept:
    """What `kept` holds for the view, or what `make` gives from it (or from None), kept as the
    newest; the oldest dropped beyond GROUNDS_KEPT."""
    old = kept.pop(view, None)
    kept[view] = new = make(old)
    while len(kept) > GROUNDS_KEPT:
        del kept[next(iter(kept))]
    return new


def texts(rows: list[Row]) -> list[Text]:
    """The lines as rich Text, a character a span where it has a style (as the terminal is sent them).

    The Text that appending each character with its style and each run of blanks as spaces
    makes (Text.append: control codes stripped, a span for each styled character, an empty
    one where its character was stripped), made at once, in half the time (the map's
    render(): a label with a wide character, a selection, and the tests' fresh drawings)."""
    out = []
    for chars, styles in rows:
        plain: list[str] = []
        spans: list[Span] = []
        at = 0
        for ch, style in zip(chars, styles):
            if style is None:
                plain.append(" ")
                at += 1
                continue
            kept = "" if ch in _STRIPPED else ch  # one character
            plain.append(kept)
            if style:
                spans.append(Span(at, at + len(kept), style))
            at += len(kept)
        out.append(Text("".join(plain), no_wrap=True, overflow="crop", spans=spans))
    return out


def draw(data: MapData, view: View, width: int, height: int, cursor: str | None) -> list[Text]:
    """The map drawn afresh: the lines of rich Text for a map of that size."""
    return texts(Drawing(width, height).rows(data, view, cursor)[0])


def step(data: MapData, current: str, dx: int, dy: int) -> str:
    """The nearest place in an arrow's direction from the current one (itself when there is none)."""
    here = data.at(current)
    best, best_score = current, float("inf")
    for p in data.places:
        ex, ey = p.x - here.x, (p.y - here.y)
        along = ex * dx + ey * dy
        across = abs(ex * dy - ey * dx)
        if along <= 0 or across > 2 * along:
            continue
        score = along + 2 * across
        if score < best_score:
            best, best_score = p.place.name, score
    return best

"""The theatre drawn in character cells: roads in braille, rivers as waves, places, stacks, battles.

Pure drawing: `draw(data, view, width, height, cursor)` gives the lines of rich
Text for a map of that size. Every feature has its own character, so the map
reads without colour (NO_COLOR); colour only adds to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

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


class _Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.dots = [[0] * width for _ in range(height)]
        self.chars: list[list[tuple[str, Style] | None]] = [[None] * width for _ in range(height)]
        self.water = [[""] * width for _ in range(height)]

    def line(self, a: tuple[float, float], b: tuple[float, float], every: int = 1) -> None:
        """A line of braille dots from cell a to cell b; every n-th dot for a dotted one."""
        (c1, r1), (c2, r2) = a, b
        x1, y1, x2, y2 = c1 * 2, r1 * 4, c2 * 2, r2 * 4
        steps = int(max(abs(x2 - x1), abs(y2 - y1))) + 1
        if steps > 4000:  # far outside at a high zoom: not worth walking
            return
        for i in range(0, steps + 1, every):
            x = x1 + (x2 - x1) * i / steps
            y = y1 + (y2 - y1) * i / steps
            col, row = int(x // 2), int(y // 4)
            if 0 <= col < self.width and 0 <= row < self.height:
                self.dots[row][col] |= _DOT[(int(x) % 2, int(y) % 4)]

    def wave(self, a: tuple[float, float], b: tuple[float, float], mark: str) -> None:
        (c1, r1), (c2, r2) = a, b
        steps = int(max(abs(c2 - c1), abs(r2 - r1) * 2)) + 1
        if steps > 2000:
            return
        for i in range(steps + 1):
            col = int(c1 + (c2 - c1) * i / steps)
            row = int(r1 + (r2 - r1) * i / steps)
            if 0 <= col < self.width and 0 <= row < self.height and self.water[row][col] != "≈":
                self.water[row][col] = mark

    def free(self, row: int, col: int, length: int) -> bool:
        return 0 <= row < self.height and 0 <= col and col + length <= self.width and all(
            self.chars[row][c] is None for c in range(col, col + length)
        )

    def put(self, row: int, col: int, text: str, style: Style) -> None:
        for i, ch in enumerate(text):
            if 0 <= row < self.height and 0 <= col + i < self.width:
                self.chars[row][col + i] = (ch, style)

    def lines(self) -> list[Text]:
        road, river = Style(color="yellow", dim=True), Style(color="cyan")
        out = []
        for row in range(self.height):
            text = Text(no_wrap=True, overflow="crop")
            for col in range(self.width):
                cell = self.chars[row][col]
                if cell is not None:
                    text.append(cell[0], cell[1])
                elif self.dots[row][col]:
                    text.append(chr(0x2800 + self.dots[row][col]), road)
                elif self.water[row][col]:
                    text.append(self.water[row][col], river)
                else:
                    text.append(" ")
            out.append(text)
        return out


def draw(data: MapData, view: View, width: int, height: int, cursor: str | None) -> list[Text]:
    canvas = _Canvas(width, height)
    spot = {p.place.name: view.cell(p.x, p.y, width, height) for p in data.places}
    for _name, size, course in data.rivers:
        for a, b in zip(course, course[1:]):
            canvas.wave(spot[a], spot[b], "≈" if size == "major" else "~")
    for a, b, kind in data.roads:
        canvas.line(spot[a], spot[b], every=1 if kind == "road" else 3)
    sides = list(data.sides)
    shown = [p for p in data.places if view.shows(p.x, p.y, width, height)]
    # Markers first, then labels by importance: the cursor, battles, stacks, then names where room is left.
    # The whole theatre has more places than cells: at the widest zoom only the
    # places that matter (stacks, battles, fortresses) get a marker; roads show the rest.
    crowded = ZOOMS[view.zoom] < 2
    for p in shown:
        if crowded and not (p.stacks or p.battle or p.place.kind == "fortress" or p.place.name == cursor):
            continue
        col, row = (int(v) for v in spot[p.place.name])
        mark = "*" if p.battle else MARKER[p.place.kind]
        style = Style(color="red", bold=True) if p.battle else Style(bold=bool(p.stacks))
        canvas.put(row, col, mark, style)
    order = sorted(shown, key=lambda p: (p.place.name != cursor, not p.battle, not p.stacks, p.place.name))
    named_all = ZOOMS[view.zoom] >= 3
    for p in order:
        col, row = (int(v) for v in spot[p.place.name])
        label = badges(p)
        if p.place.name == cursor or (named_all and not label) or (label and ZOOMS[view.zoom] >= 2):
            label = f"{p.place.name} {label}".strip()
        if not label:
            continue
        if p.place.name == cursor:
            canvas.put(row, col - 1, "[", Style(reverse=True, bold=True))
            canvas.put(row, col, MARKER[p.place.kind] if not p.battle else "*", Style(reverse=True, bold=True))
            canvas.put(row, col + 1, "]", Style(reverse=True, bold=True))
            col += 1
        style = Style(bold=True)
        if p.stacks and len({s.side_name for s in p.stacks}) == 1:
            style = SIDE_STYLES[sides.index(p.stacks[0].side_name) % len(SIDE_STYLES)]
        if p.place.name == cursor:
            style = style + Style(underline=True)
        for r, c in ((row, col + 1), (row, col - len(label) - 1), (row - 1, col - len(label) // 2), (row + 1, col - len(label) // 2)):
            if canvas.free(r, c, len(label)) or p.place.name == cursor:
                canvas.put(r, c, label, style)
                break
    return canvas.lines()


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

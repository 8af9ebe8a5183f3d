"""The theatre as an SVG picture for the club: roads, rivers, places, stacks and battles (drawsvg)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import drawsvg as draw

from campaigns.errors import CampaignError
from campaigns.text import shown
from campaigns.theatre_map import MapData, extent

if TYPE_CHECKING:
    from campaigns.session import CampaignSession

# What a map's file name keeps of the campaign's: a database's name may hold any character
# (a quoted PostgreSQL name: "/", "..", a control character), and none of them reaches a path.
_UNSAFE = re.compile(r"[^\w .-]+")

SCALE = 1.6  # pixels a km: the whole theatre is about 1,150 x 950 px
MARGIN = 40
SIDE_COLOURS = ("#1f4e9c", "#a3241d", "#2d7a2d", "#7a4f9c")  # the first side blue, the second red


def _xy(x: float, y: float) -> tuple[float, float]:
    return MARGIN + x * SCALE, MARGIN + 30 + y * SCALE


def svg_text(data: MapData) -> str:
    width, height = extent()
    picture = draw.Drawing(width * SCALE + 2 * MARGIN, height * SCALE + 2 * MARGIN + 30, font_family="sans-serif")
    picture.append(draw.Rectangle(0, 0, "100%", "100%", fill="#fbf8ef"))
    weather = data.weather or "weather not rolled"
    picture.append(draw.Text(f"Turn {data.turn}, {data.date:%d %B %Y}: {weather}", 18, MARGIN, 28, font_weight="bold"))
    picture.append(draw.Text("Stacks by side letter and SP:", 11, MARGIN, 46, fill="#555"))
    left = MARGIN + 160
    for i, name in enumerate(data.sides):
        picture.append(draw.Rectangle(left, 37, 12, 11, fill=SIDE_COLOURS[i % len(SIDE_COLOURS)], rx=2))
        picture.append(draw.Text(name, 11, left + 16, 46, fill="#333"))
        left += 16 + 7 * len(name) + 20
    picture.append(draw.Text("road ——  poor road - - -  river (blue)  fortress ■  battle ○", 11, left, 46, fill="#555"))
    where = {p.place.name: _xy(p.x, p.y) for p in data.places}
    for _name, size, course in data.rivers:
        points = [c for place in course for c in where[place]]
        picture.append(draw.Lines(*points, fill="none", stroke="#6fa8dc", stroke_width=3 if size == "major" else 1.5,
                                  stroke_linejoin="round", opacity=0.8))
    for a, b, kind in data.roads:
        (x1, y1), (x2, y2) = where[a], where[b]
        picture.append(draw.Line(x1, y1, x2, y2, stroke="#8a6d3b", stroke_width=1.6 if kind == "road" else 1,
                                 stroke_dasharray="none" if kind == "road" else "4,3"))
    for p in data.places:
        x, y = where[p.place.name]
        if p.place.kind == "fortress":
            picture.append(draw.Rectangle(x - 3, y - 3, 6, 6, fill="#333"))
        else:
            picture.append(draw.Circle(x, y, 2.2 if p.place.kind == "town" else 1.6, fill="#333"))
        held = bool(p.stacks)
        picture.append(draw.Text(p.place.name, 10 if held else 7, x + 4, y - 3, fill="#000" if held else "#666",
                                 font_weight="bold" if held else "normal"))
        for i, stack in enumerate(p.stacks):
            colour = SIDE_COLOURS[data.sides.index(stack.side_name) % len(SIDE_COLOURS)]
            top = y + 3 + i * 13
            picture.append(draw.Rectangle(x + 4, top, 44, 12, fill=colour, rx=2))
            picture.append(draw.Text(stack.badge(), 9, x + 7, top + 9, fill="#fff", font_weight="bold"))
        if p.battle:
            picture.append(draw.Circle(x, y, 9, fill="none", stroke="#d00", stroke_width=2.5))
            picture.append(draw.Text("battle", 9, x - 14, y + 20, fill="#d00", font_weight="bold"))
    # Names and the weather are the file's text: XML holds no control character, and a terminal
    # that shows the file (cat) obeys none.
    return shown(str(picture.as_svg()))


def write_svg(data: MapData, path: str | Path) -> Path:
    """Write the map to `path` (a new file or one to replace) atomically."""
    target = Path(path).expanduser()
    device = target.exists() and not target.is_file() and not target.is_dir()  # /dev/stdout, a named pipe: written into
    if target.suffix.lower() != ".svg" and not device:
        raise ValueError(f"the map is written to a .svg file, not {target.name}")
    if not target.parent.is_dir():
        raise ValueError(f"there is no folder {target.parent} to write the map in")
    from campaigns.output import written_whole

    text = svg_text(data)
    with written_whole(target) as file:
        file.write(text)
    return target


def map_file(session: CampaignSession, turn: int) -> Path:
    """Where the map's `g` writes the map of `turn`: beside the campaign's file and named after it
    (lutzen.campaign: lutzen-turn3.svg), a side file's beside the side file; a campaign on a
    database server in the working folder, named after its database (lutzen-turn3.svg). The name
    keeps letters, digits, spaces, `.`, `-` and `_` of the file's or database's name, so the map
    is a file directly in that folder whatever the name holds; a name already taken by anything
    but a plain file (a link, a pipe, a folder) is refused, not written through.

    :raises CampaignError: the name is taken by something that is not a plain file."""
    url = session.store.url
    database = url.database or ""
    if session.store.is_sqlite and database and database != ":memory:":
        folder, stem = Path(database).parent, Path(database).stem
    else:
        folder, stem = Path.cwd(), database
    stem = _UNSAFE.sub("_", stem).lstrip(". ") or "campaign"
    target = folder / f"{stem}-turn{turn}.svg"
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise CampaignError(f"{shown(target.name)} in {shown(str(folder))} is not a plain file: the map is not written over it")
    return target

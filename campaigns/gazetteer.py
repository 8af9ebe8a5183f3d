"""The gazetteer of the 1813 theatre: places, roads and rivers, read from campaigns/theatre/.

Each region file holds `region` and a list `place`; roads.toml the list `road`,
rivers.toml the list `river`. Everything is checked on load, and a problem is one
sentence naming the file and the entry. An entry is read plainly where it is plainly
sound (every entry of the packaged theatre); any other is judged by the schema
(campaigns.gazetteer_schema, pydantic), which names its problem or reads it as it may:
the plain reading takes no entry the schema refuses, and reads each as the schema does
(tests/campaigns/test_gazetteer_plain.py).

>>> gazetteer().place("Lutzen").name
'Lützen'
>>> gazetteer().place("Leipsic").name
'Leipzig'
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeVar

THEATRE_DIR = Path(__file__).parent / "theatre"
SPECIAL_FILES = ("roads.toml", "rivers.toml", "theatre.toml")
EARTH_KM = 6371.0


class GazetteerError(ValueError):
    """A theatre file that cannot be used, or a place the gazetteer does not know."""


class UnknownPlace(GazetteerError):
    def __init__(self, text: str, suggestions: list[str]) -> None:
        self.text = text
        self.suggestions = suggestions
        hint = f"; did you mean {_either(suggestions)}?" if suggestions else "; see `adjutant places`"
        super().__init__(f"there is no place {text!r} in the gazetteer{hint}")


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


PlaceKind = Literal["town", "fortress", "crossing"]
RiverSize = Literal["minor", "major"]
RoadKind = Literal["road", "poor_road"]
CrossingKind = Literal["bridge", "ford", "none"]
PLACE_KINDS = ("town", "fortress", "crossing")
RIVER_SIZES = ("minor", "major")
ROAD_KINDS = ("road", "poor_road")
CROSSING_KINDS = ("bridge", "ford", "none")


@dataclass(frozen=True)
class Bounds:
    south: float
    north: float
    west: float
    east: float
    reason: str

    def holds(self, lat: float, lon: float) -> bool:
        return self.south <= lat <= self.north and self.west <= lon <= self.east


@dataclass(frozen=True)
class Place:
    name: str
    kind: PlaceKind
    lat: float
    lon: float
    variants: tuple[str, ...] = ()
    region: str = ""


@dataclass(frozen=True)
class River:
    name: str
    size: RiverSize
    course: tuple[str, ...]


@dataclass(frozen=True)
class RawRoad:
    """A road as its file gives it, before its ends and rivers are looked up."""

    from_: str
    to: str
    kind: RoadKind
    cross: dict[str, CrossingKind]
    hexes: int | None


@dataclass(frozen=True)
class Crossing:
    river: str
    size: RiverSize
    by: CrossingKind


@dataclass(frozen=True)
class Road:
    a: str
    b: str
    kind: RoadKind  # the card's terrain columns
    crossings: tuple[Crossing, ...]
    km: float  # great-circle distance between the ends
    hexes_override: int | None

    def hexes(self, hex_km: float) -> int:
        """The road's length on the map: the club's figure where given, else distance / hex size."""
        if self.hexes_override is not None:
            return self.hexes_override
        return max(1, round(self.km / hex_km))

    def other(self, end: str) -> str:
        return self.b if end == self.a else self.a


def distance_km(a: Place, b: Place) -> float:
    """Great-circle (haversine) distance between two places."""
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp, dl = p2 - p1, math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_KM * math.asin(math.sqrt(h))


def fold(text: str) -> str:
    """A name as typed, reduced for matching: no accents, no case, ß as ss, hyphens as spaces."""
    text = unicodedata.normalize("NFKD", text.replace("ß", "ss").replace("ł", "l").replace("Ł", "L"))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[-_'.]", " ", text).split())


_NOTE = re.compile(r"^(?P<place>[^()]*?)\s*\((?P<note>[^()]*)\)\s*$")


def split_location(text: str) -> tuple[str, str]:
    """'Kalisch (on the march from Thorn)' -> ('Kalisch', 'on the march from Thorn')."""
    match = _NOTE.match(text.strip())
    if match:
        return match["place"].strip(), match["note"].strip()
    return text.strip(), ""


@dataclass(frozen=True)
class Gazetteer:
    places: dict[str, Place]
    roads: tuple[Road, ...]
    rivers: dict[str, River]
    bounds: Bounds
    _index: dict[str, str]

    def place(self, text: str) -> Place:
        """The place a name or spelling variant stands for; UnknownPlace with suggestions if none."""
        key = fold(text)
        if key in self._index:
            return self.places[self._index[key]]
        raise UnknownPlace(text.strip(), self.suggest(text))

    def suggest(self, text: str, n: int = 3) -> list[str]:
        key = fold(text)
        close = difflib.get_close_matches(key, self._index.keys(), n=n * 3, cutoff=0.6)
        prefixed = [k for k in self._index if key and k.startswith(key)]
        out: list[str] = []
        for k in prefixed + close:
            name = self._index[k]
            if name not in out:
                out.append(name)
        return out[:n]

    def roads_of(self, name: str) -> list[Road]:
        return [r for r in self.roads if name in (r.a, r.b)]

    def neighbours(self, name: str) -> set[str]:
        return {r.other(name) for r in self.roads_of(name)}


def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise GazetteerError(f"{path.name}: cannot be read as TOML ({exc})") from None


def _problem(error: Any) -> str:  # pydantic's ValidationError
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]


# -- the plain reading: an entry plainly sound (TOML's own types, every key known, every
# value allowed), as the schema reads it; None for any other, which the schema judges.


def _number(value: object) -> bool:
    return type(value) is float or type(value) is int  # a bool is left to the schema


def _name(value: object) -> bool:
    return type(value) is str and value != "" and value == value.strip() and not any(c in value for c in "()[]")


def _texts(value: object) -> bool:
    return (type(value) is list or type(value) is tuple) and all(type(v) is str for v in value)


def _plain_bounds(raw: object) -> Bounds | None:
    if type(raw) is not dict or raw.keys() != {"south", "north", "west", "east", "reason"}:
        return None
    if not all(_number(raw[k]) for k in ("south", "north", "west", "east")) or type(raw["reason"]) is not str:
        return None
    return Bounds(float(raw["south"]), float(raw["north"]), float(raw["west"]), float(raw["east"]), raw["reason"])


PLACE_KEYS = frozenset(("name", "kind", "lat", "lon", "variants"))


def _plain_place(raw: object, region: object) -> Place | None:
    if type(raw) is not dict or not raw.keys() <= PLACE_KEYS or not {"name", "kind", "lat", "lon"} <= raw.keys():
        return None
    name, kind, lat, lon, variants = raw["name"], raw["kind"], raw["lat"], raw["lon"], raw.get("variants", ())
    if not _name(name) or type(kind) is not str or kind not in PLACE_KINDS or not _number(lat) or not _number(lon):
        return None
    if not _texts(variants) or type(region) is not str:
        return None
    return Place(name, kind, float(lat), float(lon), tuple(variants), region)  # type: ignore[arg-type]


def _plain_river(raw: object) -> River | None:
    if type(raw) is not dict or raw.keys() != {"name", "size", "course"}:
        return None
    name, size, course = raw["name"], raw["size"], raw["course"]
    if type(name) is not str or not name or type(size) is not str or size not in RIVER_SIZES or not _texts(course) or len(course) < 2:
        return None
    return River(name, size, tuple(course))  # type: ignore[arg-type]


ROAD_KEYS = frozenset(("from", "to", "kind", "cross", "hexes"))


def _plain_road(raw: object) -> RawRoad | None:
    if type(raw) is not dict or not raw.keys() <= ROAD_KEYS or not {"from", "to", "kind"} <= raw.keys():
        return None
    ends, kind, cross, hexes = (raw["from"], raw["to"]), raw["kind"], raw.get("cross", {}), raw.get("hexes")
    if not _texts(ends) or type(kind) is not str or kind not in ROAD_KINDS:
        return None
    if type(cross) is not dict or not all(type(k) is str and type(v) is str and v in CROSSING_KINDS for k, v in cross.items()):
        return None
    if hexes is not None and (type(hexes) is not int or hexes < 1):
        return None
    return RawRoad(ends[0], ends[1], kind, dict(cross), hexes)  # type: ignore[arg-type]


# -- the schema's reading of any other entry -------------------------------------


def _judged(schema: str, raw: object, where: str, **given: object) -> Any:
    """The entry as the schema (campaigns.gazetteer_schema) reads it, or GazetteerError naming
    `where` and its problem."""
    from campaigns import gazetteer_schema

    try:
        return getattr(gazetteer_schema, schema)(**given, **raw)  # type: ignore[arg-type]  # TypeError: not a table
    except (gazetteer_schema.ValidationError, TypeError) as exc:
        problem = _problem(exc) if isinstance(exc, gazetteer_schema.ValidationError) else "is not a table"
        raise GazetteerError(f"{where}: {problem}") from None


T = TypeVar("T")


def _entry(taken: T | None, schema: str, raw: object, where: str, made: Callable[[Any], T], **given: object) -> T:
    """The plain reading `taken`, or else the schema's (`made` into the same class)."""
    return taken if taken is not None else made(_judged(schema, raw, where, **given))


@cache
def gazetteer(folder: Path = THEATRE_DIR) -> Gazetteer:
    """Read and check the theatre's files; GazetteerError names the file and the entry."""
    settings = _read(folder / "theatre.toml")
    raw_bounds = settings.get("bounds", {})
    bounds = _entry(
        _plain_bounds(raw_bounds), "BoundsEntry", raw_bounds, "theatre.toml: bounds",
        lambda m: Bounds(m.south, m.north, m.west, m.east, m.reason),
    )
    places: dict[str, Place] = {}
    index: dict[str, str] = {}
    for path in sorted(folder.glob("*.toml")):
        if path.name in SPECIAL_FILES:
            continue
        data = _read(path)
        for i, raw in enumerate(data.get("place", []), start=1):
            label = raw.get("name", i) if isinstance(raw, dict) else i
            where = f"{path.name}: place {label}"
            region = data.get("region", "")
            place = _entry(
                _plain_place(raw, region), "PlaceEntry", raw, where,
                lambda m: Place(m.name, m.kind, m.lat, m.lon, m.variants, m.region), region=region,
            )
            if not bounds.holds(place.lat, place.lon):
                raise GazetteerError(
                    f"{where}: {place.lat}, {place.lon} lies outside the theatre "
                    f"({bounds.south}-{bounds.north} N, {bounds.west}-{bounds.east} E)"
                )
            if place.name in places:
                raise GazetteerError(f"{where}: the name is used twice")
            for spelling in (place.name, *place.variants):
                key = fold(spelling)
                if key in index and index[key] != place.name:
                    raise GazetteerError(f"{where}: {spelling!r} already names {index[key]}")
                index[key] = place.name
            places[place.name] = place
    if not places:
        raise GazetteerError(f"{folder}: no places")
    rivers: dict[str, River] = {}
    for i, raw in enumerate(_read(folder / "rivers.toml").get("river", []), start=1):
        where = f"rivers.toml: river {raw.get('name', i) if isinstance(raw, dict) else i}"
        river = _entry(_plain_river(raw), "RiverEntry", raw, where, lambda m: River(m.name, m.size, m.course))
        if river.name in rivers:
            raise GazetteerError(f"{where}: the name is used twice")
        unknown = [p for p in river.course if p not in places]
        if unknown:
            raise GazetteerError(f"{where}: its course names {unknown[0]!r}, which is not a place")
        rivers[river.name] = river
    roads: list[Road] = []
    seen: set[frozenset[str]] = set()
    for i, raw in enumerate(_read(folder / "roads.toml").get("road", []), start=1):
        ends = f"{raw.get('from', '?')}-{raw.get('to', '?')}" if isinstance(raw, dict) else str(i)
        where = f"roads.toml: road {i} ({ends})"
        road = _entry(_plain_road(raw), "RawRoad", raw, where, lambda m: RawRoad(m.from_, m.to, m.kind, dict(m.cross), m.hexes))
        for end in (road.from_, road.to):
            if end not in places:
                raise GazetteerError(f"{where}: {end!r} is not a place of the gazetteer")
        if road.from_ == road.to:
            raise GazetteerError(f"{where}: a road joins two different places")
        pair = frozenset((road.from_, road.to))
        if pair in seen:
            raise GazetteerError(f"{where}: these two places are already joined")
        seen.add(pair)
        crossings = []
        for river_name, by in road.cross.items():
            if river_name not in rivers:
                raise GazetteerError(f"{where}: {river_name!r} is not a river of rivers.toml")
            crossings.append(Crossing(river_name, rivers[river_name].size, by))
        roads.append(
            Road(
                road.from_, road.to, road.kind, tuple(crossings),
                distance_km(places[road.from_], places[road.to]), road.hexes,
            )
        )
    return Gazetteer(places, tuple(roads), rivers, bounds, index)

"""The gazetteer of the 1813 theatre: places, roads and rivers, read from campaigns/theatre/.

Each region file holds `region` and a list `place`; roads.toml the list `road`,
rivers.toml the list `river`. Everything is validated on load with pydantic, and
a problem is one sentence naming the file and the entry:

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
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

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


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Bounds(_Strict):
    south: float
    north: float
    west: float
    east: float
    reason: str

    def holds(self, lat: float, lon: float) -> bool:
        return self.south <= lat <= self.north and self.west <= lon <= self.east


class Place(_Strict):
    name: str = Field(min_length=1)
    kind: Literal["town", "fortress", "crossing"]
    lat: float
    lon: float
    variants: tuple[str, ...] = ()
    region: str = ""

    @field_validator("name")
    @classmethod
    def _plain_name(cls, name: str) -> str:
        # A name in brackets would read as a marching note (see split_location).
        if name != name.strip() or any(c in name for c in "()[]"):
            raise ValueError("a place name has no brackets and no surrounding spaces")
        return name


class River(_Strict):
    name: str = Field(min_length=1)
    size: Literal["minor", "major"]
    course: tuple[str, ...] = Field(min_length=2)


CrossingKind = Literal["bridge", "ford", "none"]


class RawRoad(_Strict):
    from_: str = Field(alias="from")
    to: str
    kind: Literal["road", "poor_road"]
    cross: dict[str, CrossingKind] = Field(default_factory=dict)
    hexes: int | None = Field(default=None, ge=1)


@dataclass(frozen=True)
class Crossing:
    river: str
    size: Literal["minor", "major"]
    by: CrossingKind


@dataclass(frozen=True)
class Road:
    a: str
    b: str
    kind: Literal["road", "poor_road"]  # the card's terrain columns
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


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]


@cache
def gazetteer(folder: Path = THEATRE_DIR) -> Gazetteer:
    """Read and check the theatre's files; GazetteerError names the file and the entry."""
    settings = _read(folder / "theatre.toml")
    try:
        bounds = Bounds(**settings.get("bounds", {}))
    except ValidationError as exc:
        raise GazetteerError(f"theatre.toml: bounds: {_problem(exc)}") from None
    places: dict[str, Place] = {}
    index: dict[str, str] = {}
    for path in sorted(folder.glob("*.toml")):
        if path.name in SPECIAL_FILES:
            continue
        data = _read(path)
        for i, raw in enumerate(data.get("place", []), start=1):
            label = raw.get("name", i) if isinstance(raw, dict) else i
            where = f"{path.name}: place {label}"
            try:
                place = Place(region=data.get("region", ""), **raw)
            except (ValidationError, TypeError) as exc:
                problem = _problem(exc) if isinstance(exc, ValidationError) else "is not a table"
                raise GazetteerError(f"{where}: {problem}") from None
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
        try:
            river = River(**raw)
        except (ValidationError, TypeError) as exc:
            raise GazetteerError(f"{where}: {_problem(exc) if isinstance(exc, ValidationError) else 'is not a table'}") from None
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
        try:
            road = RawRoad(**raw)
        except (ValidationError, TypeError) as exc:
            raise GazetteerError(f"{where}: {_problem(exc) if isinstance(exc, ValidationError) else 'is not a table'}") from None
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

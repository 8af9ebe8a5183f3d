"""The gazetteer's plain reading of the theatre's entries against the schema
(campaigns.gazetteer_schema, pydantic).

The packaged theatre is read without pydantic where an entry is plainly sound; the schema
judges every other entry. So the plain reading may leave an entry the schema takes (it is
then merely slower), but it must never take one the schema refuses, and what it takes must
read as the schema reads it: the same fields, values and types. Every entry of every
theatre file, and each of them spoilt in every way drawn here, new each run.
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from campaigns import gazetteer_schema as schema
from campaigns.gazetteer import (
    SPECIAL_FILES,
    THEATRE_DIR,
    _plain_bounds,
    _plain_place,
    _plain_river,
    _plain_road,
    gazetteer,
)
from tests import seeds
from tests.rules.test_plain_table_file import STRANGE, spoilt

Reading = tuple[Callable[..., Any], type[BaseModel], dict[str, Any]]  # plain, schema, what the caller adds


def entries() -> Iterator[tuple[str, Any, Reading]]:
    """(where, raw entry, how it is read) for every entry of the packaged theatre."""
    yield "theatre.toml: bounds", tomllib.loads((THEATRE_DIR / "theatre.toml").read_text(encoding="utf-8"))["bounds"], (
        _plain_bounds, schema.BoundsEntry, {})
    for path in sorted(THEATRE_DIR.glob("*.toml")):
        if path.name in SPECIAL_FILES:
            continue
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for raw in data["place"]:
            yield f"{path.name}: {raw['name']}", raw, (_plain_place, schema.PlaceEntry, {"region": data["region"]})
    for raw in tomllib.loads((THEATRE_DIR / "rivers.toml").read_text(encoding="utf-8"))["river"]:
        yield f"rivers.toml: {raw['name']}", raw, (_plain_river, schema.RiverEntry, {})
    for raw in tomllib.loads((THEATRE_DIR / "roads.toml").read_text(encoding="utf-8"))["road"]:
        yield f"roads.toml: {raw['from']}-{raw['to']}", raw, (_plain_road, schema.RawRoad, {})


def fields(value: Any) -> Any:
    """A reading as plain data, each value with its type: the plain dataclass and the schema's model alike."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: fields(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, BaseModel):
        return {name: fields(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, tuple):
        return ("tuple", [fields(item) for item in value])
    if isinstance(value, dict):
        return {key: fields(item) for key, item in value.items()}
    return (type(value).__name__, value)


def readings(raw: Any, how: Reading) -> tuple[Any, Any]:
    """(the plain reading or None, the schema's reading or "refused"), as plain data."""
    plain, model, given = how
    taken = plain(raw, *given.values())
    try:
        judged = fields(model(**given, **raw))
    except (ValidationError, TypeError):
        judged = "refused"
    return (None if taken is None else fields(taken)), judged


def test_every_entry_of_the_theatre_is_read_plainly_as_the_schema_reads_it() -> None:
    seen = 0
    for where, raw, how in entries():
        taken, judged = readings(raw, how)
        assert taken is not None, f"{where}: left to the schema"
        assert taken == judged, where
        seen += 1
    assert seen > 700, seen  # 260 places, 24 rivers, 513 roads and the bounds


def test_a_spoilt_entry_is_never_taken_where_the_schema_refuses_it() -> None:
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    rng = random.Random(seed)
    seen = {"taken": 0, "left": 0, "refused by both": 0}
    for where, raw, how in entries():
        plain, model, given = how
        for _ in range(4):
            read = how
            if given and rng.random() < 0.1:  # the region, given by the place's file
                read, changed = (plain, model, {"region": rng.choice(STRANGE)}), raw
            else:
                changed = spoilt(raw, rng) if rng.random() < 0.9 else rng.choice(STRANGE)
            taken, judged = readings(changed, read)
            if taken is not None:
                assert taken == judged, f"{where}: {changed}"
                seen["taken"] += 1
            else:
                seen["left" if judged != "refused" else "refused by both"] += 1
    # Over 25 seeds: taken 221-271, refused by both 2903-2958, left 7-21.
    assert seen["taken"] > 100 and seen["refused by both"] > 1000 and seen["left"] > 2, seen


def _changed(tmp_path: Path, file: str, old: str, new: str) -> Path:
    import shutil

    folder = tmp_path / "theatre"
    shutil.copytree(THEATRE_DIR, folder)
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def test_an_entry_left_to_the_schema_reads_as_the_schema_reads_it(tmp_path: Path) -> None:
    """An entry the plain reading leaves but the schema takes (a number written as text, which
    pydantic reads as the number) is in the gazetteer as the plain entry would have been."""
    pegau = _changed(tmp_path / "place", "saxony.toml", "lat = 51.17, lon = 12.25", 'lat = "51.17", lon = 12.25')
    assert gazetteer(pegau).place("Pegau") == gazetteer().place("Pegau")
    assert type(gazetteer(pegau).place("Pegau").lat) is float
    road = _changed(tmp_path / "road", "roads.toml", 'to = "Lützen", kind = "road"', 'to = "Lützen", kind = "road", hexes = 5.0')
    (club,) = [r for r in gazetteer(road).roads if {r.a, r.b} == {"Leipzig", "Lützen"}]
    assert type(club.hexes_override) is int and club.hexes(8) == 5


def test_reading_the_gazetteer_imports_no_pydantic() -> None:
    """The battles' first visit reads the gazetteer: pydantic's models are not built for it."""
    code = (
        "import sys; from campaigns.gazetteer import gazetteer; g = gazetteer(); assert len(g.places) > 200; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core') or m == 'campaigns.gazetteer_schema'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]", out

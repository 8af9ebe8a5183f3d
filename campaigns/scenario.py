"""Scenarios of the 1813 campaign: calendar and order of battle, read from TOML.

A scenario file (campaigns/scenarios/<id>.toml) holds one [scenario] table and
the lists [[side]], [[army]], [[general]] and [[unit]]. Everything is checked on
load; a problem is reported as one sentence naming the file and the entry:

>>> load_scenario("spring1813").start_date
datetime.date(1813, 4, 26)
>>> load_scenario("nowhere")
Traceback (most recent call last):
campaigns.scenario.ScenarioError: unknown scenario 'nowhere'; known scenarios: autumn1813, spring1813
"""

from __future__ import annotations

import datetime
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from campaigns.kinds import UNIT_KINDS
from rules.numbers import MAX_STRENGTH

SCENARIOS_DIR = Path(__file__).parent / "scenarios"

_ID = re.compile(r"^[a-z][a-z0-9_]*$")


class ScenarioError(Exception):
    """A scenario file that cannot be used, or a scenario that does not exist."""


@dataclass(frozen=True)
class Side:
    id: str
    name: str
    nations: tuple[str, ...]


@dataclass(frozen=True)
class Army:
    id: str
    side: str
    name: str
    commander: str


@dataclass(frozen=True)
class General:
    id: str
    name: str
    nation: str
    army: str
    rank: int  # 1 divisional general ... 5 sovereign or supreme commander
    command_value: int
    tactical_bonus: int
    location: str  # a place of the gazetteer (campaigns/theatre)
    superior: str  # "" for an army commander or a sovereign
    march_note: str = ""  # "marching from Silesia": what the place alone does not say


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    nation: str
    kind: str
    general: str
    strength_points: int
    cohesion: int
    artillery_bonus: int
    cavalry_bonus: int
    location: str
    march_note: str = ""


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    description: str
    source: str
    conversion: str
    start_date: datetime.date
    turn_days: int
    turns: int
    notes: tuple[str, ...]
    sides: tuple[Side, ...]
    armies: tuple[Army, ...]
    generals: tuple[General, ...]
    units: tuple[Unit, ...]

    def turn_start(self, turn: int) -> datetime.date:
        """First day of a turn; turn 1 starts on the start date."""
        return self.start_date + datetime.timedelta(days=(turn - 1) * self.turn_days)

    @property
    def last_day(self) -> datetime.date:
        """Last day of the last turn."""
        return self.turn_start(self.turns + 1) - datetime.timedelta(days=1)

    def general(self, general_id: str) -> General:
        return next(g for g in self.generals if g.id == general_id)

    def army(self, army_id: str) -> Army:
        return next(a for a in self.armies if a.id == army_id)

    def side_of_general(self, general_id: str) -> str:
        return self.army(self.general(general_id).army).side

    def side_of_unit(self, unit: Unit) -> str:
        return self.side_of_general(unit.general)


# Each entry kind: its keys with type and, for whole numbers, the allowed range.
_TEXT, _TEXTS, _WHOLE, _DATE = "text", "list of text", "whole number", "date"
_SCENARIO_KEYS = {
    "id": (_TEXT,),
    "title": (_TEXT,),
    "description": (_TEXT,),
    "source": (_TEXT,),
    "conversion": (_TEXT,),
    "start_date": (_DATE,),
    "turn_days": (_WHOLE, 1, 31),
    "turns": (_WHOLE, 1, 400),
    "notes": (_TEXTS,),
}
_SIDE_KEYS = {"id": (_TEXT,), "name": (_TEXT,), "nations": (_TEXTS,)}
_ARMY_KEYS = {"id": (_TEXT,), "side": (_TEXT,), "name": (_TEXT,), "commander": (_TEXT,)}
GENERAL_FIELDS = {
    "id": (_TEXT,),
    "name": (_TEXT,),
    "nation": (_TEXT,),
    "army": (_TEXT,),
    "rank": (_WHOLE, 1, 5),
    "command_value": (_WHOLE, 0, 5),
    "tactical_bonus": (_WHOLE, 0, 3),
    "location": (_TEXT,),
    "march_note": (_TEXT,),
    "superior": (_TEXT,),
}
UNIT_FIELDS = {
    "id": (_TEXT,),
    "name": (_TEXT,),
    "nation": (_TEXT,),
    "kind": (_TEXT,),
    "general": (_TEXT,),
    "strength_points": (_WHOLE, 0, MAX_STRENGTH),  # one range for SP: a scenario's, a form's and an export's
    "cohesion": (_WHOLE, 1, 6),
    "artillery_bonus": (_WHOLE, 0, 9),
    "cavalry_bonus": (_WHOLE, 0, 9),
    "location": (_TEXT,),
    "march_note": (_TEXT,),
}
_OPTIONAL = {"notes": (), "march_note": ""}


class _Reader:
    """Checks one file; every failure is a ScenarioError naming the file and the entry."""

    def __init__(self, path: Path):
        self.file = path.name

    def fail(self, where: str, problem: str) -> ScenarioError:
        return ScenarioError(f"{self.file}: {where}: {problem}")

    def entry(self, raw: object, keys: dict, where: str) -> dict:
        if raw is None:
            raise self.fail(where, "the table is missing")
        if not isinstance(raw, dict):
            raise self.fail(where, "is not a table of keys")
        unknown = sorted(set(raw) - set(keys))
        if unknown:
            raise self.fail(where, f"unknown key {unknown[0]!r}")
        values: dict[str, object] = {}
        for key, (kind, *limits) in keys.items():
            if key not in raw:
                if key in _OPTIONAL:
                    values[key] = _OPTIONAL[key]
                    continue
                raise self.fail(where, f"the key {key!r} is missing")
            values[key] = self.value(raw[key], key, kind, limits, where)
        return values

    def value(self, value: object, key: str, kind: str, limits: list, where: str) -> object:
        ok = {
            _TEXT: isinstance(value, str),
            _TEXTS: isinstance(value, list) and all(isinstance(v, str) for v in value),
            # bool is an int in Python; true is not a number of SP.
            _WHOLE: isinstance(value, int) and not isinstance(value, bool),
            # a TOML date, not a date-time
            _DATE: isinstance(value, datetime.date) and not isinstance(value, datetime.datetime),
        }[kind]
        if not ok:
            raise self.fail(where, f"{key} must be a {kind}, not {value!r}")
        if kind == _WHOLE:
            low, high = limits
            if high is None and value < low:
                raise self.fail(where, f"{key} {value} is below {low}")
            if high is not None and not low <= value <= high:
                raise self.fail(where, f"{key} {value} is outside {low}-{high}")
        return tuple(cast(list[str], value)) if kind == _TEXTS else value  # a list of texts: checked in `ok` above

    def entries(self, data: dict, table: str, keys: dict, label: str) -> list[dict]:
        raw = data.get(table)
        if not isinstance(raw, list) or not raw:
            raise self.fail(f"[[{table}]]", f"the file lists no {label} entries")
        found: list[dict] = []
        seen: set[str] = set()
        for i, item in enumerate(raw, start=1):
            item_id = item.get("id") if isinstance(item, dict) else None
            where = f"{label} {item_id}" if isinstance(item_id, str) else f"{label} number {i}"
            values = self.entry(item, keys, where)
            if not _ID.match(values["id"]):
                raise self.fail(where, "an id is lower case letters, digits and _, starting with a letter")
            if values["id"] in seen:
                raise self.fail(where, f"the id {values['id']!r} is used twice")
            seen.add(values["id"])
            found.append(values)
        return found


def _check_references(r: _Reader, sc: Scenario) -> None:
    sides = {s.id: s for s in sc.sides}
    armies = {a.id: a for a in sc.armies}
    generals = {g.id: g for g in sc.generals}
    nation_side: dict[str, str] = {}
    for side_row in sc.sides:
        if not side_row.nations:
            raise r.fail(f"side {side_row.id}", "the side lists no nations")
        for nation in side_row.nations:
            if nation in nation_side:
                raise r.fail(f"side {side_row.id}", f"nation {nation!r} is already on side {nation_side[nation]}")
            nation_side[nation] = side_row.id
    for army in sc.armies:
        if army.side not in sides:
            raise r.fail(f"army {army.id}", f"side {army.side!r} is not in the file")
    for general in sc.generals:
        if general.army not in armies:
            raise r.fail(f"general {general.id}", f"army {general.army!r} is not in the file")
    for army in sc.armies:
        where = f"army {army.id}"
        if army.commander not in generals:
            raise r.fail(where, f"commander {army.commander!r} is not a general in the file")
        commander = generals[army.commander]
        if commander.army != army.id:
            raise r.fail(where, f"commander {commander.id} belongs to army {commander.army}")
        if commander.superior:
            raise r.fail(where, f"commander {commander.id} has a superior ({commander.superior})")
    commanders = {a.commander for a in sc.armies}
    for general in sc.generals:
        where = f"general {general.id}"
        side = armies[general.army].side
        if nation_side.get(general.nation) != side:
            raise r.fail(where, f"nation {general.nation!r} is not a nation of side {side}")
        if not general.superior:
            if general.id not in commanders and general.rank < 5:
                raise r.fail(where, "only an army commander or a sovereign (rank 5) may have no superior")
            continue
        superior = generals.get(general.superior)
        if superior is None:
            raise r.fail(where, f"superior {general.superior!r} is not a general in the file")
        if superior.army != general.army:
            raise r.fail(where, f"superior {superior.id} belongs to army {superior.army}, not {general.army}")
        if superior.rank < general.rank:
            raise r.fail(where, f"superior {superior.id} has rank {superior.rank}, below rank {general.rank}")
        chain = [general.id]
        while superior is not None:
            if superior.id in chain:
                raise r.fail(where, "the chain of superiors goes round in a circle")
            chain.append(superior.id)
            superior = generals.get(superior.superior)
    for unit in sc.units:
        where = f"unit {unit.id}"
        if unit.kind not in UNIT_KINDS:
            raise r.fail(where, f"kind {unit.kind!r} is not one of {', '.join(UNIT_KINDS)}")
        if unit.general not in generals:
            raise r.fail(where, f"general {unit.general!r} is not a general in the file")
        side = armies[generals[unit.general].army].side
        if nation_side.get(unit.nation) != side:
            raise r.fail(where, f"nation {unit.nation!r} is not a nation of side {side}")
        if unit.kind == "dummy" and (unit.strength_points or unit.artillery_bonus or unit.cavalry_bonus):
            raise r.fail(where, "a dummy has 0 strength points, artillery bonus and cavalry bonus")


def _check_places(r: _Reader, sc: Scenario) -> Scenario:
    """Every location is a place of the gazetteer; spelling variants become its name."""
    from dataclasses import replace

    from campaigns.gazetteer import GazetteerError, gazetteer

    def placed(entry, where: str):
        try:
            return replace(entry, location=gazetteer().place(entry.location).name)
        except GazetteerError as exc:
            raise r.fail(where, str(exc)) from None

    return replace(
        sc,
        generals=tuple(placed(g, f"general {g.id}") for g in sc.generals),
        units=tuple(placed(u, f"unit {u.id}") for u in sc.units),
    )


def _read_scenario(path: Path) -> Scenario:
    r = _Reader(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError(f"{r.file}: the file does not exist ({path})") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"{r.file}: cannot be read as TOML ({exc})") from None
    unknown = sorted(set(data) - {"scenario", "side", "army", "general", "unit"})
    if unknown:
        raise r.fail("the file", f"unknown table {unknown[0]!r}")
    head = r.entry(data.get("scenario"), _SCENARIO_KEYS, "[scenario]")
    if head["id"] != path.stem:
        raise r.fail("[scenario]", f"id {head['id']!r} differs from the file name")
    scenario = Scenario(
        **head,
        sides=tuple(Side(**v) for v in r.entries(data, "side", _SIDE_KEYS, "side")),
        armies=tuple(Army(**v) for v in r.entries(data, "army", _ARMY_KEYS, "army")),
        generals=tuple(General(**v) for v in r.entries(data, "general", GENERAL_FIELDS, "general")),
        units=tuple(Unit(**v) for v in r.entries(data, "unit", UNIT_FIELDS, "unit")),
    )
    _check_references(r, scenario)
    return _check_places(r, scenario)


def scenario_ids() -> list[str]:
    return sorted(p.stem for p in SCENARIOS_DIR.glob("*.toml"))


def load_scenario(id_or_path: str | Path) -> Scenario:
    """A scenario by id (a file of campaigns/scenarios/) or from a TOML file's path."""
    path = Path(id_or_path)
    if isinstance(id_or_path, Path) or path.suffix == ".toml" or len(path.parts) > 1:
        return _read_scenario(path)
    if id_or_path not in scenario_ids():
        raise ScenarioError(
            f"unknown scenario {id_or_path!r}; known scenarios: " + ", ".join(scenario_ids())
        )
    return _read_scenario(SCENARIOS_DIR / f"{id_or_path}.toml")

"""What a side learns of an enemy stack it sees: by a reconnaissance result, in contact, in battle.

Pure: the stack is given as its generals' names and its units (name, arm, SP);
what is learned comes back as a plain dict for the campaign to store. Each
result's meaning is in sighting.toml (option reconnaissance_reveals).

>>> seen = learned(2, ["Blücher"], [("I Corps", "infantry", 12), ("Cossacks", "cavalry", 5)])
>>> seen["strength_points"], seen["units_counted"], "generals" in seen
(15, 2, False)
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from rules.errors import RulesError
from rules.loader import DataFileError
from rules.options import resolve_options

RULESET = "allemagne1813"
PATH = Path(__file__).with_name("sighting.toml")
EVERYTHING = 4  # the result that reveals the whole stack (a battle's sight of the enemy)
ARMS = ("infantry", "cavalry", "artillery")

UnitSeen = tuple[str, str, int]  # name, arm ("infantry", "cavalry", "artillery", "dummy"), SP


@cache
def levels() -> dict[int, dict[str, Any]]:
    """Result -> what it reveals, as sighting.toml lists them."""
    try:
        data = tomllib.loads(PATH.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{PATH}: cannot be read as TOML ({exc})") from None
    out: dict[int, dict[str, Any]] = {}
    for raw in data.get("result", []):
        number, nearest = raw.get("result"), raw.get("sp_nearest")
        if not isinstance(number, int) or not isinstance(nearest, int) or nearest < 1 or not raw.get("reveals"):
            raise DataFileError(f"{PATH}: each result needs a whole result, sp_nearest of 1 or more and reveals")
        out[number] = dict(raw)
    if sorted(out) != [1, 2, 3, EVERYTHING]:
        raise DataFileError(f"{PATH}: lists results {sorted(out)}, not 1 to {EVERYTHING}")
    return out


def reading(result: int, options: Mapping[str, str] | None = None) -> int:
    """The level of sighting.toml a reconnaissance result reveals under reconnaissance_reveals;
    0 for nothing (a blank cell). A result beyond 4 reveals as 4."""
    if result <= 0:
        return 0
    rule = resolve_options(RULESET, options)["reconnaissance_reveals"]
    if rule == "everything":
        return EVERYTHING
    return min(result, EVERYTHING) if rule == "graded" else -1  # -1: presence with the exact SP


def _rounded(sp: int, nearest: int) -> int:
    return sp if nearest == 1 else max(nearest, round(sp / nearest) * nearest)


def learned(level: int, generals: Sequence[str], units: Sequence[UnitSeen]) -> dict[str, Any]:
    """What a sighting at `level` (1-4 of sighting.toml, or -1 for presence with exact SP) learns.

    Dummies weigh nothing; they are counted as units until a result shows the arms."""
    if level == 0:
        raise RulesError("a blank reconnaissance result reveals nothing")
    real_sp = sum(sp for _name, arm, sp in units if arm != "dummy")
    if level == -1:
        return {"strength_points": real_sp, "reveals": "a stack is there, with its exact SP"}
    step = levels()[level]
    seen: dict[str, Any] = {"strength_points": _rounded(real_sp, step["sp_nearest"]), "reveals": step["reveals"]}
    if step["sp_nearest"] > 1:
        seen["estimate"] = f"about {seen['strength_points']} SP"
    if step.get("units_counted"):
        seen["units_counted"] = sum(1 for _n, arm, _sp in units if arm != "dummy" or not step.get("arms_counted"))
    if step.get("arms_counted"):
        seen["arms"] = {arm: n for arm in ARMS if (n := sum(1 for _x, a, _s in units if a == arm))}
    if step.get("generals"):
        seen["generals"] = list(generals)
    if step.get("units"):
        seen["units"] = [{"name": name, "arm": arm, "strength_points": sp} for name, arm, sp in units if arm != "dummy"]
    return seen

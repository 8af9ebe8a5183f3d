"""The phases of a campaign turn, kept as data in phases.toml."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PATH = Path(__file__).with_name("phases.toml")


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    help: str
    needs: tuple[str, ...]


@cache
def phases() -> tuple[Phase, ...]:
    data = tomllib.loads(PATH.read_text(encoding="utf-8"))
    return tuple(Phase(p["id"], p["name"], p["help"], tuple(p.get("needs", ()))) for p in data["phase"])


def phase(phase_id: str) -> Phase:
    for p in phases():
        if p.id == phase_id:
            return p
    return phases()[0]


def next_phase(phase_id: str) -> Phase | None:
    """The phase after this one in the same turn, or None at the end of the turn."""
    ids = [p.id for p in phases()]
    index = ids.index(phase_id) if phase_id in ids else -1
    return phases()[index + 1] if index + 1 < len(ids) else None

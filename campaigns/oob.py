"""The order of battle: sides, armies, generals and units; reading, totals and edits.

Edits take the values a person typed (strings) and check them against the same
scales the scenario files use, so a wrong value gets one sentence and changes
nothing.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TypeVar

from sqlalchemy import select
from sqlmodel import col

from campaigns.errors import CampaignError, plainly
from campaigns.oob_view import Totals, is_eliminated, link_chain
from campaigns.scenario import GENERAL_FIELDS, UNIT_FIELDS, UNIT_KINDS
from campaigns.session import CampaignSession
from campaigns.text import TextError, plain_name
from models import Army, General, Nation, Side, Unit

# The whole order of battle as SQLModel objects (`tree`), and the edits. The order-of-battle
# screen shows plain rows (campaigns.oob_view) and imports this module when an edit runs.
__all__ = ["General", "GeneralNode", "Totals", "Unit", "add_general", "add_unit", "edit_general", "edit_unit", "link_chain", "tree"]


@dataclass
class GeneralNode:
    general: General
    units: list[Unit] = field(default_factory=list)
    subordinates: list["GeneralNode"] = field(default_factory=list)


@dataclass
class ArmyNode:
    army: Army
    generals: list[GeneralNode] = field(default_factory=list)


@dataclass
class SideNode:
    side: Side
    armies: list[ArmyNode] = field(default_factory=list)
    unattached: list[Unit] = field(default_factory=list)


def totals(units: list[Unit]) -> Totals:
    by_kind: dict[str, int] = {k: 0 for k in UNIT_KINDS if k != "dummy"}
    dummies = eliminated = 0
    for unit in units:
        if unit.kind == "dummy":
            dummies += 1
        else:
            by_kind[unit.kind] = by_kind.get(unit.kind, 0) + unit.strength_points
            eliminated += is_eliminated(unit.kind, unit.strength_points, unit.location)
    return Totals(by_kind, len(units) - dummies - eliminated, dummies, eliminated)


def units_under(node: GeneralNode) -> list[Unit]:
    out = list(node.units)
    for sub in node.subordinates:
        out.extend(units_under(sub))
    return out


def army_units(node: ArmyNode) -> list[Unit]:
    return [u for g in node.generals for u in units_under(g)]


def side_units(node: SideNode) -> list[Unit]:
    return [u for a in node.armies for u in army_units(a)] + node.unattached


def tree(session: CampaignSession) -> list[SideNode]:
    """Side, army, general (with his subordinates) and units, in scenario order."""
    with plainly(), session.store.read() as db:
        sides = list(db.scalars(select(Side).order_by(col(Side.position), col(Side.id))))
        armies = list(db.scalars(select(Army).order_by(Army.id)))
        generals = list(db.scalars(select(General).order_by(col(General.rank).desc(), col(General.name))))
        units = list(db.scalars(select(Unit).order_by(Unit.name)))
        nation_side = {n.id: n.side for n in db.scalars(select(Nation))}
    side_nodes, _armies, nodes = link_chain(sides, armies, generals, SideNode, ArmyNode, GeneralNode)
    for u in units:
        if u.general in nodes:
            nodes[u.general].units.append(u)
        else:
            side_nodes[nation_side[u.nation]].unattached.append(u)
    return list(side_nodes.values())


# -- checking what a person typed ---------------------------------------------

LABELS = {
    "strength_points": "SP",
    "cohesion": "cohesion",
    "artillery_bonus": "AB",
    "cavalry_bonus": "CB",
    "rank": "rank",
    "command_value": "CV",
    "tactical_bonus": "tactical bonus",
}


def whole(key: str, raw: str, fields: dict) -> int:
    _, low, high = fields[key]
    label = LABELS.get(key, key)
    text = str(raw).strip()
    if not re.fullmatch(r"-?\d+", text):
        raise CampaignError(f"{label} must be a whole number, not {text!r}")
    value = int(text)
    if value < low or (high is not None and value > high):
        span = f"of {low} or more" if high is None else f"from {low} to {high}"
        raise CampaignError(f"{label} must be a whole number {span}, not {value}")
    return value


def _text(key: str, raw: str, required: bool = True) -> str:
    try:
        text = plain_name(str(raw), f"a {key.replace('_', ' ')}")
    except TextError as exc:
        raise CampaignError(str(exc)) from None
    if required and not text:
        raise CampaignError(f"{key.replace('_', ' ')} cannot be empty")
    return text


def new_id(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "unit"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}_{n}", n + 1
    return candidate


def _place(values: dict[str, str]) -> dict:
    """The location typed, as a place of the gazetteer; "Kalisch (marching)" also sets the note."""
    from campaigns.gazetteer import GazetteerError, gazetteer, split_location

    # A unit or a general stands somewhere: without a place it belongs to no stack.
    name, note = split_location(_text("location", values.get("location", "")))
    if not name:
        raise CampaignError("location cannot be empty")
    out: dict[str, str] = {}
    try:
        out["location"] = gazetteer().place(name).name
    except GazetteerError as exc:
        raise CampaignError(str(exc)) from None
    if note or "march_note" in values:
        out["march_note"] = note or _text("march_note", values.get("march_note", ""), required=False)
    return out


def _unit_values(values: dict[str, str]) -> dict:
    kind = _text("kind", values.get("kind", ""))
    if kind not in UNIT_KINDS:
        raise CampaignError(f"kind must be one of {', '.join(UNIT_KINDS)}, not {kind!r}")
    out = {
        "name": _text("name", values.get("name", "")),
        "kind": kind,
        **_place(values),
    }
    for key in ("strength_points", "cohesion", "artillery_bonus", "cavalry_bonus"):
        out[key] = whole(key, values.get(key, ""), UNIT_FIELDS)
    if kind == "dummy" and out["strength_points"]:
        raise CampaignError("a dummy has 0 SP")
    return out


def _general_values(values: dict[str, str]) -> dict:
    out = {
        "name": _text("name", values.get("name", "")),
        **_place(values),
    }
    for key in ("rank", "command_value", "tactical_bonus"):
        out[key] = whole(key, values.get(key, ""), GENERAL_FIELDS)
    return out


# -- edits: each one action ---------------------------------------------------


_Named = TypeVar("_Named", Unit, General)  # the two tables whose rows have a name


def _name(session: CampaignSession, table: type[_Named], key: str) -> str:
    """A unit's or general's name for the history (its id if there is none by that id)."""
    with plainly(), session.store.read() as db:
        row = db.get(table, key)
    return row.name if row is not None else key


def add_unit(session: CampaignSession, general_id: str, values: dict[str, str]) -> Unit:
    checked = _unit_values(values)
    with plainly(), session.store.action(f"Add unit {checked['name']}") as db:
        general = db.get(General, general_id)
        if general is None:
            raise CampaignError(f"there is no general {general_id!r} to attach the unit to")
        taken = set(db.scalars(select(col(Unit.id))))
        unit = Unit(id=new_id(checked["name"], taken), nation=general.nation, general=general.id, **checked)
        db.add(unit)
    return unit


def edit_unit(session: CampaignSession, unit_id: str, values: dict[str, str]) -> None:
    checked = _unit_values(values)
    with plainly(), session.store.action(f"Edit unit {checked['name']}") as db:
        unit = db.get(Unit, unit_id)
        if unit is None:
            raise CampaignError(f"there is no unit {unit_id!r}")
        for key, value in checked.items():
            setattr(unit, key, value)


def set_unit_flags(session: CampaignSession, unit_id: str, **flags: bool) -> None:
    """Fatigued, entrenched, out of command. Entrenching costs command points, so it is
    campaigns.movement.entrench's to do (the map's and the order of battle's way alike);
    here a unit can only leave its entrenchment."""
    allowed = {"fatigued", "entrenched", "out_of_command"}
    marks = ", ".join(("" if v else "not ") + k.replace("_", " ") for k, v in flags.items())
    with plainly(), session.store.action(f"Mark {_name(session, Unit, unit_id)}: {marks}") as db:
        unit = db.get(Unit, unit_id)
        if unit is None:
            raise CampaignError(f"there is no unit {unit_id!r}")
        for key, value in flags.items():
            if key not in allowed:
                raise CampaignError(f"a unit can be {', '.join(sorted(allowed))}, not {key}")
            if key == "entrenched" and value and not unit.entrenched:
                raise CampaignError(
                    f"entrenching {unit.name} costs its army command points: it is done by Entrench, not marked"
                )
            setattr(unit, key, bool(value))


def move_unit(session: CampaignSession, unit_id: str, general_id: str) -> None:
    """Attach a unit to another general's stack (of its own side)."""
    description = f"Attach {_name(session, Unit, unit_id)} to {_name(session, General, general_id)}"
    with plainly(), session.store.action(description) as db:
        unit, general = db.get(Unit, unit_id), db.get(General, general_id)
        if unit is None or general is None:
            raise CampaignError(f"there is no {'unit ' + unit_id if unit is None else 'general ' + general_id}")
        if db.get_one(Nation, unit.nation).side != db.get_one(Nation, general.nation).side:
            raise CampaignError(f"{general.name} is on the other side")
        unit.general = general.id
        if general.location:
            unit.location, unit.march_note = general.location, general.march_note


def remove_unit(session: CampaignSession, unit_id: str) -> None:
    with plainly(), session.store.action(f"Remove unit {_name(session, Unit, unit_id)}") as db:
        unit = db.get(Unit, unit_id)
        if unit is None:
            raise CampaignError(f"there is no unit {unit_id!r}")
        db.delete(unit)


def add_general(session: CampaignSession, superior_id: str, values: dict[str, str]) -> General:
    checked = _general_values(values)
    with plainly(), session.store.action(f"Add general {checked['name']}") as db:
        superior = db.get(General, superior_id)
        if superior is None:
            raise CampaignError(f"there is no general {superior_id!r} to serve under")
        taken = set(db.scalars(select(col(General.id))))
        general = General(
            id=new_id(checked["name"], taken), nation=superior.nation, army=superior.army, superior=superior.id, **checked
        )
        db.add(general)
    return general


def edit_general(session: CampaignSession, general_id: str, values: dict[str, str]) -> None:
    checked = _general_values(values)
    with plainly(), session.store.action(f"Edit general {checked['name']}") as db:
        general = db.get(General, general_id)
        if general is None:
            raise CampaignError(f"there is no general {general_id!r}")
        for key, value in checked.items():
            setattr(general, key, value)


def move_general(session: CampaignSession, general_id: str, superior_id: str) -> None:
    """Put a general under another general of the same side (and his army)."""
    description = f"Put {_name(session, General, general_id)} under {_name(session, General, superior_id)}"
    with plainly(), session.store.action(description) as db:
        general, superior = db.get(General, general_id), db.get(General, superior_id)
        if general is None or superior is None:
            raise CampaignError("there is no such general")
        above: General | None = superior
        while above is not None:
            if above.id == general.id:
                raise CampaignError(f"{superior.name} serves under {general.name} already")
            above = db.get(General, above.superior) if above.superior else None
        if db.get_one(Nation, general.nation).side != db.get_one(Nation, superior.nation).side:
            raise CampaignError(f"{superior.name} is on the other side")
        general.superior, general.army = superior.id, superior.army


def remove_general(session: CampaignSession, general_id: str) -> None:
    """Remove a general; his units and subordinates pass to his superior."""
    with plainly(), session.store.action(f"Remove general {_name(session, General, general_id)}") as db:
        general = db.get(General, general_id)
        if general is None:
            raise CampaignError(f"there is no general {general_id!r}")
        if db.scalars(select(Army).where(col(Army.commander) == general_id)).first():
            raise CampaignError(f"{general.name} commands an army; name another commander-in-chief first")
        if general.superior is None:
            raise CampaignError(f"{general.name} has no superior to hand his units to")
        for unit in db.scalars(select(Unit).where(col(Unit.general) == general_id)):
            unit.general = general.superior
        for sub in db.scalars(select(General).where(col(General.superior) == general_id)):
            sub.superior = general.superior
        db.flush()
        db.delete(general)


def side_of_army(session: CampaignSession) -> dict[str, str]:
    with plainly(), session.store.read() as db:
        return {a.id: a.side for a in db.scalars(select(Army))}


def units_by_location(session: CampaignSession) -> dict[str, list[Unit]]:
    """Units standing at each location: the stacks on the map."""
    out: dict[str, list[Unit]] = defaultdict(list)
    with plainly(), session.store.read() as db:
        for unit in db.scalars(select(Unit).order_by(Unit.location, Unit.name)):
            out[unit.location].append(unit)
    return dict(out)

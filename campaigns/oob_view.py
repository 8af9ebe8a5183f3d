"""The order of battle as a screen reads it: the chain of command with its totals at
once, the units a few at a time, all as plain rows (models.oob_rows).

`oob.tree` loads every unit as an object, which a campaign of 50,000 units makes
slow. Here the sides, armies and generals (a few hundred at most) come with
their totals, summed by the database from the index `ix_unit_strength`; the units
of one general are read when he is opened, and the units listed beside the tree
are read a page at a time, in the order the tree shows them. Totals and order
are those of `oob.tree`, `oob.totals` and `oob.side_units`. Nothing here imports
the SQLModel classes (models.tables): showing the order of battle does without them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from campaigns.errors import plainly
from campaigns.kinds import UNIT_KINDS
from campaigns.session import CampaignSession
from models import oob_rows
from models.oob_rows import ArmyRow, GeneralRow, SideRow, UnitRow

# The rows the order-of-battle screen shows: plain rows read with SQL (models.oob_rows),
# never the SQLModel classes, which showing the screen does not import.
__all__ = ["ArmyRow", "GeneralRow", "SideRow", "UnitRow"]


class Totals(NamedTuple):
    """SP by type of unit; dummies have none and are counted apart, and so are the units
    eliminated (off the map at 0 SP, `is_eliminated`): `units` are those present."""

    by_kind: dict[str, int]
    units: int
    dummies: int
    eliminated: int = 0

    @property
    def strength_points(self) -> int:
        return sum(self.by_kind.values())


def is_eliminated(kind: str, strength_points: int, location: str) -> bool:
    """A unit eliminated at 0 SP (option zero_sp_unit, campaigns.battles): taken off the map,
    no place and no SP left. As models.oob_rows.ELIMINATED."""
    return kind != "dummy" and strength_points <= 0 and location == ""


def link_chain(sides, armies, generals, side_node, army_node, general_node) -> tuple[dict, dict, dict]:
    """The chain of command: each side, army and general wrapped by its node maker (nodes
    that hold lists `armies`, `generals` and `subordinates`), each army under its side,
    each general under his superior or else his army, the commander-in-chief first in
    his army; subordinates in the order `generals` lists them. Returns the nodes by id
    of sides, armies and generals. Shared by `skeleton` and `campaigns.oob.tree`."""
    general_nodes = {g.id: general_node(g) for g in generals}
    side_nodes = {s.id: side_node(s) for s in sides}
    army_nodes = {a.id: army_node(a) for a in armies}
    for a in armies:
        side_nodes[a.side].armies.append(army_nodes[a.id])
    for g in generals:
        parent = general_nodes.get(g.superior or "")
        if parent is not None:
            parent.subordinates.append(general_nodes[g.id])
        elif g.army in army_nodes:
            army_nodes[g.army].generals.append(general_nodes[g.id])
    for node in army_nodes.values():
        node.generals.sort(key=lambda n: n.general.id != node.army.commander)
    return side_nodes, army_nodes, general_nodes


# The entries are plain classes with slots, not dataclasses: made at once when the
# module is imported (dataclasses compile their methods, some 1.3 ms a class).


class GeneralEntry:
    __slots__ = ("general", "units", "own", "subordinates", "totals")

    def __init__(self, general: GeneralRow) -> None:
        self.general = general
        self.units = 0  # his own units, not his subordinates'
        self.own: dict[str, tuple[int, int, int]] = {}  # kind: (units, SP, units eliminated) of his own units
        self.subordinates: list[GeneralEntry] = []
        self.totals = _totals({})  # his and his subordinates' units


class ArmyEntry:
    __slots__ = ("army", "generals", "totals")

    def __init__(self, army: ArmyRow) -> None:
        self.army = army
        self.generals: list[GeneralEntry] = []
        self.totals = _totals({})


class SideEntry:
    __slots__ = ("side", "armies", "unattached", "totals")

    def __init__(self, side: SideRow) -> None:
        self.side = side
        self.armies: list[ArmyEntry] = []
        self.unattached = _totals({})  # units without a general
        self.totals = _totals({})


class Unattached(NamedTuple):
    """The line "Units without a general" of one side."""

    side: str
    totals: Totals


def skeleton(session: CampaignSession) -> list[SideEntry]:
    """Sides, armies and generals in the order of `oob.tree`, each with its totals."""
    with plainly():
        read = oob_rows.chain(session.store)
    side_entries, army_entries, entries = link_chain(read.sides, read.armies, read.generals, SideEntry, ArmyEntry, GeneralEntry)
    loose: dict[str, dict[str, tuple[int, int, int]]] = {}
    for nation, general, kind, count, points in read.groups:
        own = entries[general].own if general in entries else loose.setdefault(read.side_of_nation[nation], {})
        before = own.get(kind, (0, 0, 0))
        own[kind] = (before[0] + count, before[1] + points, before[2])
        if general in entries:
            entries[general].units += count
    for nation, general, kind, count in read.eliminated:
        own = entries[general].own if general in entries else loose.setdefault(read.side_of_nation[nation], {})
        before = own.get(kind, (0, 0, 0))
        own[kind] = (before[0], before[1], before[2] + count)
    for army in army_entries.values():
        army.totals = _totals(_add(*(_sum_under(g) for g in army.generals)))
    for side in side_entries.values():
        side.unattached = _totals(loose.get(side.side.id, {}))
        side.totals = _totals(_add(*(_sum_under(g) for a in side.armies for g in a.generals), loose.get(side.side.id, {})))
    return list(side_entries.values())


def _sum_under(entry: GeneralEntry) -> dict[str, tuple[int, int, int]]:
    counts = _add(entry.own, *(_sum_under(sub) for sub in entry.subordinates))
    entry.totals = _totals(counts)
    return counts


def _add(*counts: dict[str, tuple[int, int, int]]) -> dict[str, tuple[int, int, int]]:
    out: dict[str, tuple[int, int, int]] = {}
    for one in counts:
        for kind, (units, points, eliminated) in one.items():
            before = out.get(kind, (0, 0, 0))
            out[kind] = (before[0] + units, before[1] + points, before[2] + eliminated)
    return out


def _kinds() -> dict[str, int]:
    """Every kind of unit but the dummy, at 0, in the scenario files' order."""
    return {k: 0 for k in UNIT_KINDS if k != "dummy"}


def _totals(counts: dict[str, tuple[int, int, int]]) -> Totals:
    """As `oob.totals` of the units counted."""
    by_kind = _kinds()
    dummies = units = gone = 0
    for kind, (count, points, eliminated) in counts.items():
        units += count
        gone += eliminated
        if kind == "dummy":
            dummies += count
        else:
            by_kind[kind] = by_kind.get(kind, 0) + points
    return Totals(by_kind, units - dummies - gone, dummies, gone)


def combined(totals: Iterable[Totals]) -> Totals:
    """The totals of several sides together."""
    by_kind = _kinds()
    units = dummies = eliminated = 0
    for one in totals:
        for kind, points in one.by_kind.items():
            by_kind[kind] = by_kind.get(kind, 0) + points
        units, dummies, eliminated = units + one.units, dummies + one.dummies, eliminated + one.eliminated
    return Totals(by_kind, units, dummies, eliminated)


def all_generals(entries: Iterable[GeneralEntry]) -> list[GeneralEntry]:
    """Every general under `entries`, in the order of the tree."""
    out: list[GeneralEntry] = []
    for entry in entries:
        out.append(entry)
        out.extend(all_generals(entry.subordinates))
    return out


def unit_totals(unit: UnitRow) -> Totals:
    """The totals of one unit (as `oob.totals([unit])`)."""
    return _totals({unit.kind: (1, unit.strength_points, int(is_eliminated(unit.kind, unit.strength_points, unit.location)))})


def units_of(session: CampaignSession, general_id: str, limit: int | None = None) -> list[UnitRow]:
    """A general's own units, by name: what opening him shows."""
    with plainly():
        return oob_rows.units_of(session.store, general_id, limit)


def unattached_units(session: CampaignSession, side_id: str, limit: int | None = None) -> list[UnitRow]:
    with plainly():
        return oob_rows.unattached(session.store, side_id, limit)


def listed(session: CampaignSession, item: object, sides: list[SideEntry], limit: int) -> list[UnitRow]:
    """The first `limit` units of a side, army, general, "Units without a general"
    line or of every side (`item` None), in the order of the tree (`oob.side_units`),
    reading only as many generals as it takes."""
    if isinstance(item, SideEntry):
        generals, loose = [g for a in item.armies for g in all_generals(a.generals)], [item.side.id]
    elif isinstance(item, ArmyEntry):
        generals, loose = all_generals(item.generals), []
    elif isinstance(item, GeneralEntry):
        generals, loose = all_generals([item]), []
    elif isinstance(item, Unattached):
        generals, loose = [], [item.side]
    else:
        out: list[UnitRow] = []
        for side in sides:
            out += listed(session, side, sides, limit - len(out))
            if len(out) >= limit:
                break
        return out[:limit]
    with plainly():
        out = oob_rows.units_of_many(session.store, [g.general.id for g in generals if g.units], limit)
    for side_id in loose:
        if len(out) < limit:
            out += unattached_units(session, side_id, limit - len(out))
    return out


def locate(session: CampaignSession, unit_id: str) -> tuple[str | None, str] | None:
    """(the unit's general or None, its side), or None if there is no such unit."""
    with plainly():
        return oob_rows.locate(session.store, unit_id)


def search(session: CampaignSession, text: str) -> list[GeneralRow | UnitRow]:
    """Units and generals whose name holds `text`, ignoring case, by name."""
    needle = text.strip().lower()
    if not needle:
        return []
    with plainly():
        return oob_rows.search(session.store, needle)

"""The order of battle as a screen reads it: the chain of command with its totals at
once, the units a few at a time.

`oob.tree` loads every unit as an object, which a campaign of 50,000 units makes
slow. Here the sides, armies and generals (a few hundred at most) come with
their totals, summed by the database from the index `ix_unit_strength`; the units
of one general are read when he is opened, and the units listed beside the tree
are read a page at a time, in the order the tree shows them. Totals and order
are those of `oob.tree`, `oob.totals` and `oob.side_units`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import select, text
from sqlmodel import col

from campaigns.errors import plainly
from campaigns.oob import Totals, link_chain
from campaigns.scenario import UNIT_KINDS
from campaigns.session import CampaignSession
from models import Army, General, Nation, Side, Unit

# (nation, general, kind, units, SP), from the index alone.
GROUPS = text(
    "SELECT nation, general, kind, count(*), coalesce(sum(strength_points), 0) FROM unit GROUP BY nation, general, kind"
)


@dataclass
class GeneralEntry:
    general: General
    units: int = 0  # his own units, not his subordinates'
    own: dict[str, tuple[int, int]] = field(default_factory=dict)  # kind: (units, SP) of his own units
    subordinates: list["GeneralEntry"] = field(default_factory=list)
    totals: Totals = field(default_factory=lambda: _totals({}))  # his and his subordinates' units


@dataclass
class ArmyEntry:
    army: Army
    generals: list[GeneralEntry] = field(default_factory=list)
    totals: Totals = field(default_factory=lambda: _totals({}))


@dataclass
class SideEntry:
    side: Side
    armies: list[ArmyEntry] = field(default_factory=list)
    unattached: Totals = field(default_factory=lambda: _totals({}))  # units without a general
    totals: Totals = field(default_factory=lambda: _totals({}))


@dataclass(frozen=True)
class Unattached:
    """The line "Units without a general" of one side."""

    side: str
    totals: Totals


def skeleton(session: CampaignSession) -> list[SideEntry]:
    """Sides, armies and generals in the order of `oob.tree`, each with its totals."""
    with plainly(), session.store.read() as db:
        sides = list(db.scalars(select(Side).order_by(col(Side.position), col(Side.id))))
        armies = list(db.scalars(select(Army).order_by(Army.id)))
        generals = list(db.scalars(select(General).order_by(col(General.rank).desc(), col(General.name))))
        side_of_nation = dict(db.execute(text("SELECT id, side FROM nation")).all())
        groups = db.execute(GROUPS).all()
    side_entries, army_entries, entries = link_chain(sides, armies, generals, SideEntry, ArmyEntry, GeneralEntry)
    loose: dict[str, dict[str, tuple[int, int]]] = {}
    for nation, general, kind, count, points in groups:
        own = entries[general].own if general in entries else loose.setdefault(side_of_nation[nation], {})
        before = own.get(kind, (0, 0))
        own[kind] = (before[0] + count, before[1] + points)
        if general in entries:
            entries[general].units += count
    for army in army_entries.values():
        army.totals = _totals(_add(*(_sum_under(g) for g in army.generals)))
    for side in side_entries.values():
        side.unattached = _totals(loose.get(side.side.id, {}))
        side.totals = _totals(_add(*(_sum_under(g) for a in side.armies for g in a.generals), loose.get(side.side.id, {})))
    return list(side_entries.values())


def _sum_under(entry: GeneralEntry) -> dict[str, tuple[int, int]]:
    counts = _add(entry.own, *(_sum_under(sub) for sub in entry.subordinates))
    entry.totals = _totals(counts)
    return counts


def _add(*counts: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for one in counts:
        for kind, (units, points) in one.items():
            before = out.get(kind, (0, 0))
            out[kind] = (before[0] + units, before[1] + points)
    return out


def _totals(counts: dict[str, tuple[int, int]]) -> Totals:
    """As `oob.totals` of the units counted."""
    by_kind = {k: 0 for k in UNIT_KINDS if k != "dummy"}
    dummies = units = 0
    for kind, (count, points) in counts.items():
        units += count
        if kind == "dummy":
            dummies += count
        else:
            by_kind[kind] = by_kind.get(kind, 0) + points
    return Totals(by_kind, units - dummies, dummies)


def combined(totals: Iterable[Totals]) -> Totals:
    """The totals of several sides together."""
    by_kind: dict[str, int] = {k: 0 for k in UNIT_KINDS if k != "dummy"}
    units = dummies = 0
    for one in totals:
        for kind, points in one.by_kind.items():
            by_kind[kind] = by_kind.get(kind, 0) + points
        units, dummies = units + one.units, dummies + one.dummies
    return Totals(by_kind, units, dummies)


def all_generals(entries: Iterable[GeneralEntry]) -> list[GeneralEntry]:
    """Every general under `entries`, in the order of the tree."""
    out: list[GeneralEntry] = []
    for entry in entries:
        out.append(entry)
        out.extend(all_generals(entry.subordinates))
    return out


def units_of(session: CampaignSession, general_id: str) -> list[Unit]:
    """A general's own units, by name: what opening him shows."""
    with plainly(), session.store.read() as db:
        return list(db.scalars(select(Unit).where(col(Unit.general) == general_id).order_by(col(Unit.name))))


def unattached_units(session: CampaignSession, side_id: str) -> list[Unit]:
    with plainly(), session.store.read() as db:
        query = (
            select(Unit)
            .where(col(Unit.general).is_(None), col(Unit.nation).in_(select(col(Nation.id)).where(col(Nation.side) == side_id)))
            .order_by(Unit.name)
        )
        return list(db.scalars(query))


def listed(session: CampaignSession, item: object, sides: list[SideEntry], limit: int) -> list[Unit]:
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
        out: list[Unit] = []
        for side in sides:
            out += listed(session, side, sides, limit - len(out))
            if len(out) >= limit:
                break
        return out[:limit]
    out = []
    with plainly(), session.store.read() as db:
        for entry in generals:
            if len(out) >= limit:
                return out
            if entry.units:
                query = select(Unit).where(col(Unit.general) == entry.general.id).order_by(col(Unit.name)).limit(limit - len(out))
                out += db.scalars(query)
    for side_id in loose:
        if len(out) < limit:
            out += unattached_units(session, side_id)[: limit - len(out)]
    return out


def locate(session: CampaignSession, unit_id: str) -> tuple[str | None, str] | None:
    """(the unit's general or None, its side), or None if there is no such unit."""
    with plainly(), session.store.connect() as db:
        row = db.execute(
            text("SELECT u.general, n.side FROM unit u JOIN nation n ON n.id = u.nation WHERE u.id = :id"),
            {"id": unit_id},
        ).first()
    return None if row is None else (row[0], row[1])

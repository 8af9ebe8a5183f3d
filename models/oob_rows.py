"""The order of battle as plain rows: sides, armies, generals and units read with SQL.

The order-of-battle screen shows these and nothing else. They are plain SQL on the
tables, not queries of the SQLModel classes (as models.glance for the overview):
building those classes (models.tables, some 90 ms) and an ORM object for each unit
would otherwise come before the screen's first frame. Edits still go through the
SQLModel classes (campaigns.oob), which import them when an edit runs.

Rows are named tuples: made ten times faster than dataclasses when the module is
imported, which a first visit to the screen may wait for.

The orders are those of the ORM queries of campaigns.oob.tree: sides by position
then id, armies by id, generals by rank (highest first) then name, units by name.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Connection, text

from models.store import CampaignStore


class SideRow(NamedTuple):
    id: str
    name: str


class ArmyRow(NamedTuple):
    id: str
    side: str
    name: str
    commander: str | None


class GeneralRow(NamedTuple):
    id: str
    name: str
    nation: str
    army: str | None
    rank: int
    command_value: int
    tactical_bonus: int
    location: str
    march_note: str
    superior: str | None


class UnitRow(NamedTuple):
    id: str
    name: str
    nation: str
    kind: str
    general: str | None
    strength_points: int
    cohesion: int
    artillery_bonus: int
    cavalry_bonus: int
    fatigued: bool
    entrenched: bool
    out_of_command: bool
    location: str
    march_note: str


class Chain(NamedTuple):
    """The chain of command and the units counted under it: a few hundred rows at most
    for the sides, armies and generals, and one row per nation, general and kind."""

    sides: list[SideRow]
    armies: list[ArmyRow]
    generals: list[GeneralRow]
    side_of_nation: dict[str, str]
    groups: list[tuple[str, str | None, str, int, int]]  # nation, general, kind, units, SP
    eliminated: list[tuple[str, str | None, str, int]]  # nation, general, kind, units of `groups` eliminated


_GENERAL = (
    "SELECT id, name, nation, army, rank, command_value, tactical_bonus, location, march_note, superior FROM general"
)
_UNIT = (
    "SELECT id, name, nation, kind, general, strength_points, cohesion, artillery_bonus, cavalry_bonus,"
    " fatigued, entrenched, out_of_command, location, march_note FROM unit"
)
# (nation, general, kind, units, SP), from the index ix_unit_strength alone.
_GROUPS = "SELECT nation, general, kind, count(*), coalesce(sum(strength_points), 0) FROM unit GROUP BY nation, general, kind"
# A unit eliminated at 0 SP (the option zero_sp_unit, campaigns.battles) is taken off the map:
# no place and no SP left. It stays listed under its general; counts of the units present
# leave it out and say it apart. As campaigns.oob_view.is_eliminated. Few rows, found from
# the index ix_unit_location (location first).
ELIMINATED = "location = '' AND strength_points <= 0 AND kind != 'dummy'"
ELIMINATED_GROUPS = f"SELECT nation, general, kind, count(*) FROM unit WHERE {ELIMINATED} GROUP BY nation, general, kind"


def chain(store: CampaignStore) -> Chain:
    with store.connect() as db:
        sides = [SideRow(*r) for r in db.execute(text("SELECT id, name FROM side ORDER BY position, id"))]
        armies = [ArmyRow(*r) for r in db.execute(text("SELECT id, side, name, commander FROM army ORDER BY id"))]
        generals = [GeneralRow(*r) for r in db.execute(text(_GENERAL + " ORDER BY rank DESC, name"))]
        side_of_nation = {n: s for n, s in db.execute(text("SELECT id, side FROM nation"))}
        groups = [tuple(r) for r in db.execute(text(_GROUPS))]
        eliminated = [tuple(r) for r in db.execute(text(ELIMINATED_GROUPS))]
    return Chain(sides, armies, generals, side_of_nation, groups, eliminated)


def _units(db: Connection, where: str, params: dict, limit: int | None) -> list[UnitRow]:
    query = f"{_UNIT} WHERE {where} ORDER BY name" + (" LIMIT :limit" if limit is not None else "")
    rows = db.execute(text(query), {**params, "limit": limit} if limit is not None else params)
    # SQLite stores the flags as 0 and 1: as booleans, the same as the ORM's.
    return [UnitRow._make((*r[:9], bool(r[9]), bool(r[10]), bool(r[11]), *r[12:])) for r in rows]


def units_of(store: CampaignStore, general_id: str, limit: int | None = None) -> list[UnitRow]:
    """A general's own units, by name (the index ix_unit_general)."""
    with store.connect() as db:
        return _units(db, "general = :general", {"general": general_id}, limit)


def units_of_many(store: CampaignStore, general_ids: list[str], limit: int) -> list[UnitRow]:
    """The first `limit` units of these generals, each general's by name, the generals
    in the order given: one connection for them all, each read stopping at the limit."""
    out: list[UnitRow] = []
    with store.connect() as db:
        for general_id in general_ids:
            if len(out) >= limit:
                break
            out += _units(db, "general = :general", {"general": general_id}, limit - len(out))
    return out


def unattached(store: CampaignStore, side_id: str, limit: int | None = None) -> list[UnitRow]:
    """A side's units without a general, by name."""
    with store.connect() as db:
        where = "general IS NULL AND nation IN (SELECT id FROM nation WHERE side = :side)"
        return _units(db, where, {"side": side_id}, limit)


def unit(store: CampaignStore, unit_id: str) -> UnitRow | None:
    with store.connect() as db:
        found = _units(db, "id = :id", {"id": unit_id}, None)
    return found[0] if found else None


def locate(store: CampaignStore, unit_id: str) -> tuple[str | None, str] | None:
    """(the unit's general or None, its side), or None if there is no such unit."""
    with store.connect() as db:
        row = db.execute(
            text("SELECT u.general, n.side FROM unit u JOIN nation n ON n.id = u.nation WHERE u.id = :id"),
            {"id": unit_id},
        ).first()
    return None if row is None else (row[0], row[1])


def search(store: CampaignStore, needle: str) -> list[GeneralRow | UnitRow]:
    """Generals, then units, whose name holds `needle` (lower case already), by name.
    In the database: only the finds are read, not 50,000 units to look at their names."""
    # LIKE's own wildcards in what was typed are taken as they are (as SQLAlchemy's autoescape).
    pattern = "%" + needle.replace("/", "//").replace("%", "/%").replace("_", "/_") + "%"
    where = "lower(name) LIKE :pattern ESCAPE '/'"
    with store.connect() as db:
        found: list[GeneralRow | UnitRow] = [GeneralRow(*r) for r in db.execute(text(f"{_GENERAL} WHERE {where}"), {"pattern": pattern})]
        found += _units(db, where, {"pattern": pattern}, None)
    return sorted(found, key=lambda r: r.name)

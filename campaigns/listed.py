"""A side's forces listed as campaigns.forces lists them (by place, then general, then
unit), counted by the database and read a page at a time.

The reconnaissance lists a whole side: at 50,000 units, reading every unit to list
them took half a second before the first line could be drawn. Here one query counts
each place's units under each general and sums their SP (what the place and general
rows show); a unit row is read when it comes into view, a page of them at a time,
and the ids of a place or a general when they are marked.

The order is campaigns.forces.stacks's: sides in their order, places by name
(case folded, "no place" last), generals by rank then name (no general last),
units by name.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import String, bindparam, text

from campaigns.errors import plainly
from campaigns.forces import NOWHERE, SIDES, Force
from campaigns.session import CampaignSession

NATIONS = text("SELECT id, side FROM nation")
GENERALS = text("SELECT id, name, rank FROM general")
PAGE = 200  # unit rows read at a time
CHUNK = 5000  # ids a query: under every database's limit of parameters


def _octets(column: str, dialect: str) -> str:
    return f"LENGTH(CAST({column} AS BLOB))" if dialect == "sqlite" else f"OCTET_LENGTH({column})"


def _by_name(dialect: str) -> str:
    # Python's order of strings (campaigns.forces sorts in Python): code points, which
    # is UTF-8's byte order. SQLite compares bytes; PostgreSQL's "C" collation too.
    return "u.name, u.id" if dialect == "sqlite" else 'u.name COLLATE "C", u.id COLLATE "C"'


@dataclass(frozen=True)
class Command:
    """The units of one side at one place attached to one general (or to none), counted."""

    general: str | None  # id, as stored (it may name no general)
    general_name: str
    rank: int
    locations: tuple[str | None, ...]  # the spellings stored for the place
    units: int
    strength_points: int  # of the real units (dummies not counted)
    longest: int  # no unit row's label is longer than this, in characters
    ascii: bool  # every name and kind is ASCII: a character is a cell


@dataclass
class Stack:
    """One side's units at one place: campaigns.forces.Stack, counted rather than read."""

    side: str
    place: str
    commands: tuple[Command, ...]
    listing: Listing = field(repr=False, compare=False)
    number: int = 0

    @property
    def leader(self) -> str:
        return next((c.general_name for c in self.commands if c.general), "no general")

    @property
    def strength_points(self) -> int:
        return sum(c.strength_points for c in self.commands)

    @property
    def count(self) -> int:
        """The stack's units."""
        return sum(c.units for c in self.commands)

    @property
    def forces(self) -> tuple[Force, ...]:
        """Every unit of the stack, read (once) when asked."""
        return tuple(f for index in range(len(self.commands)) for f in self.listing.units(self.number, index))


def _by_place_and_general(row: Any) -> tuple[bool, str, bool, str]:
    """A side's groups in the order of their place, then general, as stored (no place or
    general first): SQLite's order for a GROUP BY of place and general, whatever the
    database's own order (one sorted run a nation, merged)."""
    return (row[0] is not None, row[0] or "", row[1] is not None, row[1] or "")


class Listing:
    """The stacks of `sides` (at `places`, when given), counted; their units read as asked."""

    def __init__(self, session: CampaignSession, sides: Collection[str], places: Collection[str] | None = None) -> None:
        self.session = session
        self._pages: dict[tuple[int, int, int], list[Force]] = {}
        self._all: dict[tuple[int, int], list[Force]] = {}
        self._where: dict[str, tuple[int, int]] = {}  # a unit's (stack, command), once read
        self.stacks: list[Stack] = []
        self._nations: dict[str, list[str]] = {}  # each side's nations
        if not sides:
            return
        # A side at a time, its nations named first and the generals read apart: the units
        # alone are grouped (no join a unit). Grouped by nation first, in the order of the
        # index ix_unit_stacks (schema 12), SQLite reads them from it with no sort (both
        # sides of 50,000 units: 61 ms of CPU against 156, medians of 15 pairs on a loaded
        # machine); a place and general under two nations is merged below.
        where, given = ["u.nation IN :nations"], {}
        if places is not None and NOWHERE not in places:
            where.append("TRIM(u.location) IN :places")
            given["places"] = list(places)
        with plainly(), session.store.connect() as db:
            self.dialect = dialect = db.dialect.name
            names = ("u.name", "u.kind")
            outline = text(
                "SELECT u.location, u.general, COUNT(*), "
                "SUM(CASE WHEN u.kind != 'dummy' THEN u.strength_points ELSE 0 END), "
                "MAX(LENGTH(u.name) + LENGTH(u.kind) + LENGTH(CAST(u.strength_points AS TEXT))), "
                f"MAX({' + '.join(_octets(c, dialect) for c in names)} - {' - '.join(f'LENGTH({c})' for c in names)}) "
                f"FROM unit u WHERE {' AND '.join(where)} GROUP BY u.nation, u.location, u.general"
            ).bindparams(*(bindparam(name, expanding=True, type_=String) for name in ("nations", *given)))
            order = [side for side, _name in db.execute(SIDES)]
            nations: dict[str, list[str]] = {}
            for nation, side in db.execute(NATIONS):
                nations.setdefault(side, []).append(nation)
            self._nations = nations
            generals = {gid: (name, rank) for gid, name, rank in db.execute(GENERALS)}
            rows = [
                (side, location, general, *generals.get(general, (None, None)), units, sp, longest, extra)
                for side in order if side in sides and nations.get(side)
                for location, general, units, sp, longest, extra in sorted(
                    db.execute(outline, {**given, "nations": nations[side]}).all(), key=_by_place_and_general
                )
            ]
        # Places as stored are grouped as campaigns.forces groups them (trimmed).
        merged: dict[tuple[str, str, str | None], list[Any]] = {}
        for side, location, general, name, rank, units, sp, longest, extra in rows:
            place = (location or "").strip() or NOWHERE
            if places is not None and place not in places:
                continue
            entry = merged.get((side, place, general))
            if entry is None:
                merged[(side, place, general)] = [name or "no general", rank or 0, {location}, units, sp or 0, longest or 0, extra or 0]
            else:
                entry[2].add(location)
                entry[3] += units
                entry[4] += sp or 0
                entry[5] = max(entry[5], longest or 0)
                entry[6] = max(entry[6], extra or 0)
        by_side: dict[str, dict[str, list[Command]]] = {}
        for (side, place, general), (name, rank, locations, units, sp, longest, extra) in merged.items():
            command = Command(
                general, name, rank, tuple(sorted(locations, key=lambda x: (x is None, x or ""))),
                units, sp, longest + len("  ") + len(" SP") + 1, not extra,
            )
            by_side.setdefault(side, {}).setdefault(place, []).append(command)
        for side in order:
            at = by_side.get(side, {})
            for place in sorted(at, key=lambda p: (p == NOWHERE, p.casefold())):
                commands = sorted(at[place], key=lambda c: (c.general is None, -c.rank, c.general_name))
                self.stacks.append(Stack(side, place, tuple(commands), self, len(self.stacks)))

    # -- reading units -------------------------------------------------------

    def _which(self, stack: int, command: int) -> tuple[str, dict[str, Any]]:
        st = self.stacks[stack]
        c = st.commands[command]
        where = ["n.side = :side"]
        given: dict[str, Any] = {"side": st.side}
        if c.general is None:
            where.append("u.general IS NULL")
        else:
            where.append("u.general = :general")
            given["general"] = c.general
        spelled = [x for x in c.locations if x is not None]
        test = []
        if spelled:
            test.append("u.location IN :locations")
            given["locations"] = spelled
        if None in c.locations:
            test.append("u.location IS NULL")
        where.append(f"({' OR '.join(test)})")
        return " AND ".join(where), given

    def _read(self, stack: int, command: int, start: int, count: int | None) -> list[Force]:
        where, given = self._which(stack, command)
        limit = "" if count is None else f" LIMIT {int(count)} OFFSET {int(start)}"
        statement = text(
            "SELECT u.id, u.name, u.kind, u.strength_points, u.cohesion, u.general "
            f"FROM unit u JOIN nation n ON u.nation = n.id WHERE {where} ORDER BY {_by_name(self.dialect)}{limit}"
        )
        if "locations" in given:
            statement = statement.bindparams(bindparam("locations", expanding=True, type_=String))
        with plainly(), self.session.store.connect() as db:
            found = [Force(*row) for row in db.execute(statement, given)]
        for force in found:
            self._where[force.id] = (stack, command)
        return found

    def unit(self, stack: int, command: int, offset: int) -> Force:
        """The command's unit at `offset` (by name), read with its page."""
        done = self._all.get((stack, command))
        if done is not None:
            return done[offset]
        page = offset // PAGE
        rows = self._pages.get((stack, command, page))
        if rows is None:
            rows = self._pages[(stack, command, page)] = self._read(stack, command, page * PAGE, PAGE)
        return rows[offset - page * PAGE]

    def units(self, stack: int, command: int) -> list[Force]:
        """Every unit of the command, by name (read once)."""
        done = self._all.get((stack, command))
        if done is None:
            done = self._all[(stack, command)] = self._read(stack, command, 0, None)
        return done

    def _seek(self, commands: list[tuple[int, int]]) -> None:
        """Every unit of these (stack, command)s, each spelling of each command's place looked up
        by nation, place and general (SQLite: `IS` matches a missing place or general too)."""
        statement = text(
            "SELECT u.id, u.name, u.kind, u.strength_points, u.cohesion, u.general FROM unit u "
            "WHERE u.nation IN :nations AND u.location IS :location AND u.general IS :general"
        ).bindparams(bindparam("nations", expanding=True, type_=String))
        with plainly(), self.session.store.connect() as db:
            for key in commands:
                stack = self.stacks[key[0]]
                command = stack.commands[key[1]]
                given = {"nations": self._nations.get(stack.side, []), "general": command.general}
                forces = [Force(*row) for location in command.locations for row in db.execute(statement, {**given, "location": location})]
                forces.sort(key=lambda f: (f.name, f.id))  # as the pages read them (_by_name)
                for force in forces:
                    self._where[force.id] = key
                self._all[key] = forces

    def read_whole(self, commands: Collection[tuple[int, int]]) -> None:
        """Every unit of these (stack, command)s, read in one pass over the units (units()
        then asks nothing more): looked up a general at a time, each query read every unit
        of the general, at every place, to keep the few at one place."""
        commands = [key for key in commands if key not in self._all]
        if not commands:
            return
        wanted = sum(self.stacks[s].commands[c].units for s, c in commands)
        if self.dialect == "sqlite" and 4 * wanted < sum(st.count for st in self.stacks):
            # A few of the listing's units (the few generals whose names might wrap at 80
            # columns, in big stacks): each command's looked up through ix_unit_stacks
            # (nation, place, general), not in a pass over the table or over its places
            # (at 50,000 units, 120 units of 9 generals: 0.5-1 ms of CPU against 10).
            self._seek(commands)
            return
        at = {(self.stacks[s].side, location, self.stacks[s].commands[c].general): (s, c)
              for s, c in commands for location in self.stacks[s].commands[c].locations}
        locations = sorted({location for _s, location, _g in at if location is not None})
        generals = sorted({general for _s, _l, general in at if general is not None})
        nowhere = any(location is None for _s, location, _g in at)
        where = ["n.side IN :sides", "(u.location IN :locations OR u.location IS NULL)" if nowhere else "u.location IN :locations"]
        given: dict[str, Any] = {"sides": sorted({side for side, _l, _g in at}), "locations": locations or [""]}
        test = ["u.general IN :generals"] if generals else []
        if generals:
            given["generals"] = generals
        if any(general is None for _s, _l, general in at):
            test.append("u.general IS NULL")
        where.append(f"({' OR '.join(test)})")
        scan = ""
        if self.dialect == "sqlite":
            # The units of a few places through the index of places (a unit looked up at a
            # time); of many, in one pass over the table in its order. At 50,000 units, the
            # few generals whose names might wrap at 80 columns: 16 ms against 26-29.
            asked = set(locations)
            here = sum(st.count for st in self.stacks if not asked.isdisjoint(c for cm in st.commands for c in cm.locations))
            scan = " INDEXED BY ix_unit_location" if not nowhere and 4 * here < sum(st.count for st in self.stacks) else " NOT INDEXED"
        statement = text(
            "SELECT n.side, u.location, u.general, u.id, u.name, u.kind, u.strength_points, u.cohesion "
            f"FROM unit u{scan} JOIN nation n ON u.nation = n.id WHERE {' AND '.join(where)}"
        ).bindparams(*(bindparam(name, expanding=True, type_=String) for name in ("sides", "locations", "generals") if name in given))
        found: dict[tuple[int, int], list[Force]] = {key: [] for key in commands}
        with plainly(), self.session.store.connect() as db:
            for side, location, general, uid, name, kind, sp, cohesion in db.execute(statement, given):
                key = at.get((side, location, general))
                if key is not None:
                    found[key].append(Force(uid, name, kind, sp, cohesion, general))
        for key, forces in found.items():
            forces.sort(key=lambda f: (f.name, f.id))  # as the pages read them (_by_name)
            for force in forces:
                self._where[force.id] = key
            self._all[key] = forces

    def ids(self, stack: int, command: int | None = None) -> tuple[str, ...]:
        """The unit ids of a command, or of the whole stack, in the order listed."""
        commands = range(len(self.stacks[stack].commands)) if command is None else (command,)
        return tuple(f.id for c in commands for f in self.units(stack, c))

    def where(self, ids: Iterable[str]) -> dict[str, tuple[int, int]]:
        """The (stack, command) of each of `ids` listed here; the others are left out."""
        ids = list(ids)
        unknown = [i for i in ids if i not in self._where]
        if unknown:
            at = {(st.side, location, c.general): (st.number, index)
                  for st in self.stacks for index, c in enumerate(st.commands) for location in c.locations}
            query = text(
                "SELECT u.id, n.side, u.location, u.general FROM unit u JOIN nation n ON u.nation = n.id WHERE u.id IN :ids"
            ).bindparams(bindparam("ids", expanding=True, type_=String))
            with plainly(), self.session.store.connect() as db:
                for start in range(0, len(unknown), CHUNK):
                    for uid, side, location, general in db.execute(query, {"ids": unknown[start : start + CHUNK]}):
                        found = at.get((side, location, general))
                        if found is not None:
                            self._where[uid] = found
        return {i: self._where[i] for i in ids if i in self._where}

    def in_order(self, ids: Iterable[str]) -> list[str]:
        """`ids` listed here, in the order listed: only the commands holding them are read."""
        chosen = set(ids)
        groups = sorted(set(self.where(chosen).values()))
        return [i for stack, command in groups for i in self.ids(stack, command) if i in chosen]

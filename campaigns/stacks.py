"""Stacks: every unit and general of a side at one place of the gazetteer.

A stack is named by one of its generals (id or name, as `adjutant route FILE
ney PLACE`, in any case and accents, or by words of the name that only one general's
name holds: "Latour-Maubourg", "Blücher"), or by SIDE@PLACE for a force without a general.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import Select, bindparam, func, select, text

from campaigns.errors import CampaignError, plainly
from campaigns.gazetteer import GazetteerError, fold, gazetteer
from campaigns.session import CampaignSession
from models.oob_rows import GeneralRow

if TYPE_CHECKING:
    # The ORM's classes, imported by the functions that read units and generals whole: the
    # counted stacks (the battles' first visit, the map) read plain rows and do without the
    # ORM, whose import is the slowest part of a first visit that needs it (150-250 ms).
    from sqlmodel import Session

    from models import Army, General, Unit


class Commander(Protocol):
    """What a stack reads of its generals: a General (ORM) row, or a plain GeneralRow."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def army(self) -> str | None: ...
    @property
    def rank(self) -> int: ...
    @property
    def command_value(self) -> int: ...


@dataclass(frozen=True)
class Stack:
    side: str
    side_name: str
    place: str
    generals: tuple[Commander, ...]
    units: tuple[Unit, ...]

    @property
    def key(self) -> str:
        return f"{self.side}@{self.place}"

    @property
    def members(self) -> tuple[str, ...]:
        """"general:ID" and "unit:ID" of everyone in the stack, as an activation records them."""
        return tuple(f"general:{g.id}" for g in self.generals) + tuple(f"unit:{u.id}" for u in self.units)

    @property
    def strength_points(self) -> int:
        return sum(u.strength_points for u in self.units)

    @property
    def unit_count(self) -> int:
        return len(self.units)

    @property
    def leader(self) -> Commander | None:
        """The general of the highest rank (then command value) in the stack."""
        return max(self.generals, key=lambda g: (g.rank, g.command_value, g.id), default=None)

    @property
    def label(self) -> str:
        who = self.leader.name if self.leader else f"{self.side_name} force"
        return f"{who}'s stack at {self.place}" if self.leader else f"{who} at {self.place}"

    @property
    def letter(self) -> str:
        """The side's letter on the map: the first of its id ("french" F, "allies" A)."""
        return self.side[:1].upper()

    def badge(self) -> str:
        """The stack as the map shows it: the side's letter and its SP, e.g. "F 42"."""
        return f"{self.letter} {self.strength_points}"

    @property
    def mark(self) -> str:
        """The badge without a space, as the terminal map packs it: "F42"."""
        return f"{self.letter}{self.strength_points}"

    def summary(self) -> str:
        who = ", ".join(g.name for g in self.generals) or "no general"
        return f"{self.side_name}: {who} ({self.unit_count} units, {self.strength_points} SP)"


@dataclass(frozen=True)
class CountedStack(Stack):
    """A stack as the map and the contacts show it: its generals, and its units counted and
    their SP summed by the database; `units` is empty (`stacks_at` reads them all), or the
    first few by id (`first_units`), as many as a line can name."""

    count: int = 0
    total: int = 0

    @property
    def strength_points(self) -> int:
        return self.total

    @property
    def unit_count(self) -> int:
        return self.count

    @property
    def members(self) -> tuple[str, ...]:
        raise TypeError("a counted stack has no units read: stacks_at reads them")


@dataclass(frozen=True)
class SightedStack(Stack):
    """An enemy stack as a side last saw it (campaigns.knowledge): no rows, only what was learned."""

    seen_strength: int | None = None
    seen_turn: int = 0
    learned: str = ""

    @property
    def strength_points(self) -> int:
        return self.seen_strength or 0

    @property
    def label(self) -> str:
        return f"the {self.side_name} stack seen at {self.place} on turn {self.seen_turn}"

    def badge(self) -> str:
        """"A ?12": a sighting, not a count (the ? says it may have moved or changed)."""
        return f"{self.letter} ?{self.seen_strength if self.seen_strength is not None else ''}"

    @property
    def mark(self) -> str:
        return f"{self.letter}?{self.seen_strength if self.seen_strength is not None else ''}"

    def summary(self) -> str:
        return f"{self.side_name}, seen turn {self.seen_turn}: {self.learned}"


def all_stacks(session: CampaignSession, places: set[str] | None = None) -> list[Stack]:
    """Every stack on the map, by place then side; generals and units without a place are left out.

    With `places`, only the stacks at those places (their units alone are read)."""
    with plainly(), session.store.read() as db:
        return _read_stacks(db, places)


def _read_stacks(db: Session, places: set[str] | None) -> list[Stack]:
    """`all_stacks` in a read session already open: the sides and nations as plain rows (only
    their ids, names and order are needed), the generals and units whole, by statements built
    once per process (building a statement cost more than running it)."""
    sides = {side_id: name for side_id, name in db.execute(_SIDES)}
    nation_side = {nation: side_id for nation, side_id in db.execute(_NATIONS)}
    general_query, unit_query = _statements(places is not None)
    where = {"places": sorted(places)} if places is not None else {}
    generals = list(db.scalars(general_query, where))
    units = list(db.scalars(unit_query, where))
    groups: dict[tuple[str, str], tuple[list[General], list[Unit]]] = {}
    for g in generals:
        if g.location:
            groups.setdefault((g.location, nation_side[g.nation]), ([], []))[0].append(g)
    for u in units:
        if u.location:
            groups.setdefault((u.location, nation_side[u.nation]), ([], []))[1].append(u)
    order = {sid: i for i, sid in enumerate(sides)}
    return [
        Stack(side, sides[side], place, tuple(gs), tuple(us))
        for (place, side), (gs, us) in sorted(groups.items(), key=lambda kv: (kv[0][0], order[kv[0][1]]))
    ]


@cache
def _statements(at_places: bool) -> tuple[Select[General], Select[Unit]]:
    """The generals and the units, by id; `at_places`: at the places bound as "places"."""
    from sqlmodel import col

    from models import General, Unit

    general_query = select(General).order_by(col(General.id))
    unit_query = select(Unit).order_by(col(Unit.id))
    if at_places:
        general_query = general_query.where(col(General.location).in_(bindparam("places", expanding=True)))
        unit_query = unit_query.where(col(Unit.location).in_(bindparam("places", expanding=True)))
    return general_query, unit_query


def stacks_at(session: CampaignSession, place: str) -> list[Stack]:
    """The stacks at one place, units and all."""
    return all_stacks(session, {place})


def counted_stacks(session: CampaignSession) -> list[CountedStack]:
    """Every stack on the map as `all_stacks` finds them (by place then side), its units
    counted and summed by the database rather than read: what the map and the contacts
    show, in time that does not grow with the units in Python. A unit is its nation's side's,
    as in `all_stacks` and models.visibility. Read once per version of the campaign."""
    return list(session.kept("stacks.counted", lambda: _count_stacks(session)))


# Plain rows, not ORM objects: the battles' first visit and the map read them. The units are
# counted by place and nation, in the order of ix_unit_location (a covering index, no sort and
# no join; 50,000 units in ~20 ms, against ~60 ms grouped by side through a join), and each
# nation's side is looked up here.
_SIDES = text("SELECT id, name FROM side ORDER BY position")
_NATIONS = text("SELECT id, side FROM nation")
# The generals on the map as the order of battle reads them (models.oob_rows), every column.
_PLACED_GENERALS = text(f"SELECT {', '.join(GeneralRow._fields)} FROM general WHERE location != '' ORDER BY id")
_COUNTED = text(
    "SELECT location, nation, count(*), coalesce(sum(strength_points), 0) FROM unit WHERE location != '' GROUP BY location, nation"
)


def _count_stacks(session: CampaignSession) -> tuple[CountedStack, ...]:
    with plainly(), session.store.connect() as db:
        sides = {side_id: name for side_id, name in db.execute(_SIDES)}
        nation_side = {nation: side_id for nation, side_id in db.execute(_NATIONS)}
        generals = [GeneralRow(*row) for row in db.execute(_PLACED_GENERALS)]
        sums = db.execute(_COUNTED).all()
    groups: dict[tuple[str, str], tuple[list[Commander], list[int]]] = {}
    for g in generals:
        if g.location:
            groups.setdefault((g.location, nation_side[g.nation]), ([], [0, 0]))[0].append(g)
    for place, nation, count, total in sums:
        side_id = nation_side.get(nation)
        if place and side_id is not None:  # a unit of no nation stored is nobody's (as the join left it out)
            counted = groups.setdefault((place, side_id), ([], [0, 0]))[1]
            counted[0] += int(count)
            counted[1] += int(total)
    order = {sid: i for i, sid in enumerate(sides)}
    return tuple(
        CountedStack(side_id, sides[side_id], place, tuple(gs), (), count, total)
        for (place, side_id), (gs, (count, total)) in sorted(groups.items(), key=lambda kv: (kv[0][0], order[kv[0][1]]))
    )


def first_units(session: CampaignSession, stacks: list[CountedStack], limit: int) -> list[CountedStack]:
    """The counted stacks of one place, each with its first `limit` units read (by id):
    what a line naming their units shows of a crowded place, read in one pass over the
    units, with no more than `limit` of each side's built."""
    from sqlmodel import col

    from models import Nation, Unit

    places = {s.place for s in stacks}
    if not stacks or limit <= 0:
        return list(stacks)
    if len(places) > 1:
        raise ValueError("first_units reads the stacks of one place")
    numbered = (
        select(col(Unit.id).label("id"), col(Nation.side).label("side"),
               func.row_number().over(partition_by=col(Nation.side), order_by=col(Unit.id)).label("n"))
        .join(Nation, col(Nation.id) == col(Unit.nation))
        .where(col(Unit.location) == stacks[0].place)
        .subquery()
    )
    with plainly(), session.store.read() as db:
        rows = db.execute(
            select(Unit, numbered.c.side).join(numbered, numbered.c.id == col(Unit.id))
            .where(numbered.c.n <= limit).order_by(col(Unit.id))
        ).all()
    units: dict[str, list[Unit]] = {}
    for unit, side in rows:
        units.setdefault(side, []).append(unit)
    return [replace(s, units=tuple(units.get(s.side, ()))) for s in stacks]


def stack_of(session: CampaignSession, text: str) -> Stack:
    """The stack a general (id or name) stands in, or SIDE@PLACE; one sentence if there is none.

    One read session: the generals' ids, names and places as plain rows, then the stacks at
    the places of those named."""
    wanted = text.strip()
    if "@" in wanted:
        side, _, place = wanted.partition("@")
        try:
            place = gazetteer().place(place).name
        except GazetteerError as exc:
            raise CampaignError(str(exc)) from None
        for stack in all_stacks(session, {place}):  # the units of that place alone
            if stack.side == side.strip() and stack.place == place:
                return stack
        raise CampaignError(f"side {side.strip()!r} has no stack at {place}")
    key = fold(wanted)
    with plainly(), session.store.read() as db:
        generals = db.execute(_GENERAL_NAMES).all()
        named = [g for g in generals if g.id == wanted or _folded(g.id) == key or _folded(g.name) == key]
        if not named and key:  # words of one general's name: "Latour-Maubourg", "Blücher"
            words = re.compile(rf"(?<!\w){re.escape(key)}(?!\w)")
            named = [g for g in generals if words.search(_folded(g.name))]
            if len(named) > 1:
                raise CampaignError(f"{wanted!r} names {len(named)} generals ({', '.join(g.name for g in named[:4])}"
                                    f"{'...' if len(named) > 4 else ''}); give more of the name, or the id")
        ids = {g.id for g in named}
        # The stacks at the places of the generals so named (the first, by place, if several are).
        places = {g.location for g in named if g.location}
        for stack in _read_stacks(db, places) if places else ():
            for general in stack.generals:
                if general.id in ids:
                    return stack
    if named:
        raise CampaignError(f"{named[0].name} stands at no place of the map")
    raise CampaignError(f"there is no general {wanted!r} (give a general's id or name, or SIDE@PLACE)")


# Every general's id, name and place, for `stack_of` to find the one named.
_GENERAL_NAMES = text("SELECT id, name, location FROM general ORDER BY id")


@lru_cache(maxsize=4096)
def _folded(name: str) -> str:
    """`fold(name)`, remembered: `stack_of` folds every general's id and name at each call."""
    return fold(name)


def army_of(session: CampaignSession, stack: Stack) -> Army:
    """The army that pays for the stack: its leader's, else its units' generals', else the side's first."""
    from sqlmodel import col

    from models import Army, General

    with plainly(), session.store.read() as db:
        if stack.leader is not None and stack.leader.army:
            return db.get_one(Army, stack.leader.army)
        for unit in stack.units:
            general = db.get(General, unit.general) if unit.general else None
            if general is not None and general.army:
                return db.get_one(Army, general.army)
        army = db.scalars(select(Army).where(col(Army.side) == stack.side).order_by(col(Army.id))).first()
    if army is None:
        raise CampaignError(f"side {stack.side_name} has no army to pay for {stack.label}")
    return army

"""What the map shows: places, roads, rivers, stacks, pending battles and the weather of a turn.

Read once from the gazetteer and the campaign; the terminal map screen and the
SVG of `adjutant map` both draw from it. Coordinates are projected onto a plane
(equirectangular, longitude scaled by the cosine of the theatre's middle
latitude, so a degree east is as long as it is at 52 N), x east and y south, in km.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, select

from campaigns.contact import contacts
from campaigns.errors import CampaignError, plainly
from campaigns.gazetteer import Place, gazetteer
from campaigns.glance import NOT_ROLLED, weather_now
from campaigns.session import CampaignSession
from campaigns.stacks import CountedStack, Stack, counted_stacks
from models import record_columns as rows
from rules.numbers import TURN

if TYPE_CHECKING:
    from models import General

# The map of today (the umpire's, or a side's) is read as plain rows through table clauses
# (models.record_columns), and today's stacks are counted (stacks.counted_stacks): its
# first visit imports neither the SQLModel classes nor SQLAlchemy's ORM (150-250 ms of
# CPU on a quiet machine). A past turn's map (positions_at_end_of, _stacks_then) reads
# through the ORM's classes, imported where it is drawn.

KM_PER_DEGREE = 111.2


def project(lat: float, lon: float) -> tuple[float, float]:
    """A place's (x, y) on the map, in km east and south of the theatre's north-west corner."""
    bounds = gazetteer().bounds
    middle = math.radians((bounds.south + bounds.north) / 2)
    return (lon - bounds.west) * KM_PER_DEGREE * math.cos(middle), (bounds.north - lat) * KM_PER_DEGREE


def extent() -> tuple[float, float]:
    """The width and height of the whole theatre, in km."""
    bounds = gazetteer().bounds
    return project(bounds.south, bounds.east)


@dataclass(frozen=True)
class MapPlace:
    place: Place
    x: float
    y: float
    stacks: tuple[Stack, ...]
    battle: bool  # a pending battle here


@dataclass(frozen=True)
class MapData:
    turn: int
    date: date
    weather: str | None
    places: tuple[MapPlace, ...]
    roads: tuple[tuple[str, str, str], ...]  # (place, place, kind)
    rivers: tuple[tuple[str, str, tuple[str, ...]], ...]  # (name, size, course)
    battles: tuple[str, ...]  # places of this turn's pending battles
    sides: tuple[str, ...]  # the side names, in order
    unknown: tuple[str, ...]  # locations of the campaign the gazetteer does not know
    contacts: tuple[str, ...] = ()  # places where the two sides' stacks are in contact (this turn only)
    seen_by: str | None = None  # the name of the side whose view this is (the scenario's); None: the umpire's whole map

    def at(self, name: str) -> MapPlace:
        return next(p for p in self.places if p.place.name == name)


def positions_at_end_of(session: CampaignSession, turn: int) -> dict[tuple[str, str], str] | None:
    """Where every general and unit stood when turn `turn` ended, read back from the history.

    None when the campaign has not passed that turn yet (the positions are today's). The
    history is read newest first, HISTORY_BATCH events at a time as their stored text, until
    the turn's end: memory does not grow with the history, and only the events since that
    turn are read.
    """
    from sqlmodel import col

    from models import Campaign, General, Unit

    with plainly(), session.store.read() as db:
        if turn >= db.get_one(Campaign, 1).turn:
            return None
        where = {("general", id_): location for id_, location in db.execute(select(col(General.id), col(General.location)))}
        where |= {("unit", id_): location for id_, location in db.execute(select(col(Unit.id), col(Unit.location)))}
        for changes in _changes_newest_first(db.connection()):
            if any(c.get("table") == "campaign" and (c.get("after") or {}).get("turn") == turn + 1 for c in changes):
                return where  # the turn advanced here: what stood then is what stood when it ended
            for change in reversed(changes):
                before = change.get("before") or {}
                if change.get("table") in ("general", "unit") and "location" in before:
                    where[(change["table"], change["key"]["id"])] = before["location"]
    return where


HISTORY_BATCH = 1000
# What a change that moves a stack or ends a turn holds in its stored text; an event without
# any of them (or an escape, which could spell one) changes no position and no turn.
_MOVING = (b"location", b"turn", b"\\")


def _changes_newest_first(db: Connection) -> Iterator[list[dict[str, Any]]]:
    """The `changes` of every event not undone, newest first, read as Event.changes reads them
    (orjson); those that cannot move a stack or end a turn are passed over unparsed."""
    import orjson
    from sqlalchemy import Text, cast
    from sqlmodel import col

    from models import Event

    before: int | None = None
    while True:
        query = select(col(Event.id), cast(col(Event.changes), Text)).where(col(Event.undone) == False)  # noqa: E712
        if before is not None:
            query = query.where(col(Event.id) < before)
        rows = db.execute(query.order_by(col(Event.id).desc()).limit(HISTORY_BATCH)).all()
        if not rows:
            return
        for _id, stored in rows:
            if stored is None:
                yield []
                continue
            encoded = stored.encode()
            if any(word in encoded for word in _MOVING):
                yield orjson.loads(stored) or []
        before = rows[-1][0]


def map_data(session: CampaignSession, turn: int | None = None, side: str | None = None) -> MapData:
    """The map of the theatre; with `side` (and always in a side file), as that side sees it:
    its own stacks, and the enemy only where it was last sighted."""
    g = gazetteer()
    side = side if side is not None else session.side
    with plainly(), session.store.connect() as db:
        current = db.execute(select(rows.CAMPAIGN.c.turn).where(rows.CAMPAIGN.c.id == 1)).scalar_one()
        shown = current if turn is None else turn
        if shown > current:
            raise CampaignError(f"turn {shown} has not been played yet (this is turn {current})")
        turn_row = (  # -3000000000 is no turn, and PostgreSQL refuses to look
            db.execute(select(rows.TURN.c.date, rows.TURN.c.weather).where(rows.TURN.c.number == shown)).one_or_none()
            if TURN.holds(shown) else None
        )
        if turn_row is None:
            raise CampaignError(f"the campaign has no turn {shown}")
        weather = turn_row.weather
        if weather is None and shown > 1:  # Mud forced by the turn before's Rain*, as the overview says it
            before = db.execute(select(rows.TURN.c.weather).where(rows.TURN.c.number == shown - 1)).scalar_one_or_none()
            weather = None if (now := weather_now(None, before)) == NOT_ROLLED else now
        seen_by = (
            db.execute(select(rows.SIDE.c.name).where(rows.SIDE.c.id == side)).scalar_one_or_none() or side
            if side is not None else None
        )
        battle = rows.BATTLE.c
        battles = tuple(
            db.scalars(select(battle.location).where(battle.turn == shown, battle.status == "pending").order_by(battle.id))
        )
    # Today's stacks are counted by the database (stacks.counted_stacks); a past turn's are put
    # back where they stood unit by unit, from the history, and counted here (_stacks_then).
    past = positions_at_end_of(session, shown) if turn is not None else None
    every: list[Stack] = list(counted_stacks(session)) if past is None else _stacks_then(session, past)
    stacks = every
    if side is not None:
        from campaigns.knowledge import sighted_stacks

        battles = tuple(b for b in battles if b in _battles_of(session, side, shown))
        stacks = [s for s in every if s.side == side] + sighted_stacks(session, side, shown)
    if past is not None:
        from campaigns.stacks import SightedStack

        seen: list[Stack] = [s for s in stacks if isinstance(s, SightedStack)]  # sightings stand where they were seen
        stacks = [s for s in stacks if not isinstance(s, SightedStack)] + seen
    by_place: dict[str, list[Stack]] = {}
    unknown: list[str] = []
    for stack in stacks:
        if stack.place in g.places:
            by_place.setdefault(stack.place, []).append(stack)
        elif stack.place not in unknown:
            unknown.append(stack.place)
    places = tuple(
        MapPlace(p, *project(p.lat, p.lon), tuple(by_place.get(p.name, ())), p.name in battles)
        for p in sorted(g.places.values(), key=lambda p: (p.lat, p.lon))
    )
    sides = tuple(dict.fromkeys(s.side_name for s in stacks))
    return MapData(
        shown, turn_row.date, weather, places,
        tuple((r.a, r.b, r.kind) for r in g.roads),
        tuple((r.name, r.size, r.course) for r in g.rivers.values()),
        battles, sides, tuple(unknown),
        () if past is not None or side is not None else tuple(c.place for c in contacts(session, every)),
        seen_by,
    )


# The units an opened stack's line names, at most: a crowded place (thousands of units at
# 50,000) is read and drawn in time that does not grow with its stacks.
NAMED_UNITS = 8


@dataclass(frozen=True)
class Opened:
    """The stacks at one place of the map, opened for their actions: counted as the map
    shows them, each with its first NAMED_UNITS units read (stacks.first_units), whether the
    place is in contact, and for each stack (by key) the enemy stacks its reconnaissance
    reaches (counted)."""

    place: str
    in_contact: bool
    stacks: dict[str, CountedStack]
    enemies: dict[str, tuple[Stack, ...]]
    entrench_cost: int  # PC, by the rules (campaigns.movement.entrench_cost)


def opened(session: CampaignSession, place: str) -> Opened:
    """What the umpire's actions on the stacks at `place` need, read for that place alone.

    The entrenchment's price is read from the card as campaigns.movement.entrench_cost reads
    it, without importing movement and the routes' graph (networkx, a third of a second):
    they are needed once an action is picked (tui.screens.theatre warms them meanwhile)."""
    from campaigns.reconnaissance import reach_from
    from rules.allemagne1813.command import action_cost
    from campaigns.stacks import first_units

    counted = counted_stacks(session)
    here = {s.key: s for s in first_units(session, [s for s in counted if s.place == place], NAMED_UNITS)}
    reach = reach_from(session, place)
    enemies: dict[str, tuple[Stack, ...]] = {key: tuple(e for e in counted if e.side != s.side and e.place in reach) for key, s in here.items()}
    cost = action_cost("entrench", True)
    assert cost is not None, "the card prices an entrenchment"
    return Opened(place, place in {c.place for c in contacts(session, counted)}, here, enemies, cost)


def _battles_of(session: CampaignSession, side: str, turn: int) -> set[str]:
    """The places of the battles of `turn` that `side` fought (campaigns.despatch.fought_by)."""
    battle = rows.BATTLE.c
    with plainly(), session.store.connect() as db:
        found = db.execute(select(battle.location, battle.participants).where(battle.turn == turn)).all()
    return {location for location, participants in found if _fought_by(participants, side)}


def _fought_by(participants: Any, side: str) -> bool:
    """campaigns.despatch.fought_by for a battle's participants read as a plain row."""
    return any(isinstance(p, dict) and p.get("side") == side for p in (participants or {}).values())


def _stacks_then(session: CampaignSession, where: dict[tuple[str, str], str]) -> list[Stack]:
    """Every stack as it stood when a past turn ended (`where`: positions_at_end_of), by place,
    side id and side name: its generals moved back, its units counted and their SP summed from
    plain rows (id, nation, SP, place), not an object each. A member without a place now or
    then is left out, as the map leaves out one without a place."""
    from sqlmodel import col

    from models import General, Nation, Side, Unit

    with plainly(), session.store.read() as db:
        sides = {side.id: side.name for side in db.scalars(select(Side).order_by(col(Side.position)))}
        nation_side = {n.id: n.side for n in db.scalars(select(Nation))}
        generals = [g for g in db.scalars(select(General).order_by(col(General.id))) if g.location]
        units = db.execute(select(col(Unit.id), col(Unit.nation), col(Unit.strength_points), col(Unit.location)).order_by(col(Unit.id))).all()
    order = {side_id: i for i, side_id in enumerate(sides)}
    groups: dict[tuple[str, str, str], tuple[list[General], list[int]]] = {}
    # A general joins his group in the order the stacks of today list him: by place, side, id.
    for g in sorted(generals, key=lambda g: (g.location, order[nation_side[g.nation]], g.id)):
        then = where.get(("general", g.id), g.location)
        if then:
            side_id = nation_side[g.nation]
            groups.setdefault((then, side_id, sides[side_id]), ([], [0, 0]))[0].append(g.model_copy(update={"location": then}))
    for unit_id, nation, strength_points, location in units:
        then = where.get(("unit", unit_id), location) if location else ""
        if then:
            side_id = nation_side[nation]
            counted = groups.setdefault((then, side_id, sides[side_id]), ([], [0, 0]))[1]
            counted[0] += 1
            counted[1] += strength_points
    return [
        CountedStack(side_id, name, place, tuple(gs), (), count, total)
        for (place, side_id, name), (gs, (count, total)) in sorted(groups.items())
    ]

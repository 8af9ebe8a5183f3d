"""What a side knows: its own forces exactly, and of the enemy only what it has sighted.

A sighting is a row of its own (models.Sighting): a side saw an enemy stack at a
place on a turn, and learned what the reconnaissance result, the battle, the
contact or the umpire's report showed it (rules/allemagne1813/sighting.py).
Sightings are written inside the action that made them (a reconnaissance, a
battle's set-up) or as an action of their own (contact, the umpire's report),
so each is undone with what made it.

What side S knows at turn N is a filter on rows: units and generals whose nation
is on side S, armies of side S, and sightings with side = S and turn <= N.

What a side knows is read as plain rows (SightingRow, through models.record_columns):
the sightings screen and a side's map are drawn without SQLModel's classes and
SQLAlchemy's ORM (150-250 ms of CPU to import). Writing a sighting, inside an action,
uses the classes, imported where it is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import Connection, select

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from models import record_columns as rows
from rules.allemagne1813 import sighting as seeing

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from models import Sighting

RECONNAISSANCE, BATTLE, CONTACT, REPORT = "reconnaissance", "battle", "contact", "report"
SOURCES = (RECONNAISSANCE, BATTLE, CONTACT, REPORT)


def _side_of_nation(db: Session) -> dict[str, str]:
    from models import Nation

    return {n.id: n.side for n in db.scalars(select(Nation))}


def stack_seen(db: Session, enemy_side: str, place: str) -> tuple[list[str], list[seeing.UnitSeen]]:
    """The generals' names and the units (name, arm, SP) of `enemy_side` standing at `place`."""
    from sqlmodel import col

    from models import General, Unit

    sides = _side_of_nation(db)
    generals = [g.name for g in db.scalars(select(General).where(col(General.location) == place).order_by(col(General.id))) if sides[g.nation] == enemy_side]
    # Plain columns, not a Unit object each: a place may hold thousands of units.
    at_place = select(col(Unit.name), col(Unit.kind), col(Unit.strength_points), col(Unit.nation)).where(col(Unit.location) == place)
    units = [
        (name, kind, strength_points)
        for name, kind, strength_points, nation in db.execute(at_place.order_by(col(Unit.id)))
        if sides[nation] == enemy_side
    ]
    return generals, units


def add(
    db: Session, *, side: str, enemy_side: str, place: str, source: str, level: int,
    generals: list[str], units: list[seeing.UnitSeen], result: int | None = None, note: str = "",
) -> Sighting:
    """Store what `side` saw, in the action `db` belongs to."""
    from models import Campaign, Sighting

    seen = seeing.learned(level, generals, units)
    row = Sighting(
        side=side, turn=db.get_one(Campaign, 1).turn, place=place, enemy_side=enemy_side, source=source,
        result=result, learned=seen, strength_points=seen.get("strength_points"), note=note,
    )
    db.add(row)
    return row


def sight_reconnaissance(db: Session, options: dict[str, str], reconnoitring: list[str], screening: list[str], result: int) -> Sighting | None:
    """The hook of a reconnaissance: what its result reveals of the screened stack, stored
    in the reconnaissance's own action (so undoing the roll undoes the sighting)."""
    from models import Unit

    level = seeing.reading(result, options)
    if level == 0 or not reconnoitring or not screening:
        return None
    sides = _side_of_nation(db)
    seer, screen = db.get_one(Unit, reconnoitring[0]), db.get_one(Unit, screening[0])
    enemy = sides[screen.nation]
    generals, units = stack_seen(db, enemy, screen.location)
    return add(db, side=sides[seer.nation], enemy_side=enemy, place=screen.location, source=RECONNAISSANCE,
               level=level, generals=generals, units=units, result=result)


def sight_battle(db: Session, place: str, sides: dict[str, dict[str, Any]]) -> None:
    """The hook of a battle's set-up: each side sees every enemy force that fights it, whole."""
    for role, other in (("attacker", "defender"), ("defender", "attacker")):
        them = sides[other]
        units = [(name, kind, sp) for _id, name, kind, sp, *_rest in them["forces"]]
        add(db, side=sides[role]["side"], enemy_side=them["side"], place=place, source=BATTLE,
            level=seeing.EVERYTHING, generals=[g["name"] for g in them["generals"]], units=units)


def sight_contacts(session: CampaignSession) -> list[str]:
    """Every stack in contact sees the enemy stacks in its reach, as the option contact_reveals
    says; each sighting is one action. Sightings this turn already made are not made twice."""
    from sqlmodel import col

    from campaigns.contact import contacts
    from models import Campaign, Sighting

    level = int(session.options()["contact_reveals"])
    if level == 0:
        return ["Contact reveals nothing under the option contact_reveals=0."]
    done: list[str] = []
    with plainly(), session.store.read() as db:
        turn = db.get_one(Campaign, 1).turn
        made = {(s.side, s.place) for s in db.scalars(select(Sighting).where(col(Sighting.turn) == turn, col(Sighting.source) == CONTACT))}
    pairs = {(seer.side, enemy.side, enemy.place)
             for contact in contacts(session, armed=False) for seer in contact.stacks for enemy in contact.stacks
             if seer.side != enemy.side and seer.place in _reach(session, enemy.place)}
    for side, enemy, place in sorted(pairs):
        if (side, place) in made:
            continue
        with plainly(), session.store.action(f"Contact: {_name(session, side)} see the enemy at {place}") as db:
            generals, units = stack_seen(db, enemy, place)
            add(db, side=side, enemy_side=enemy, place=place, source=CONTACT, level=level, generals=generals, units=units)
        done.append(f"{_name(session, side)} see the enemy at {place}")
    return done or ["No new contact to sight this turn."]


def _reach(session: CampaignSession, place: str) -> set[str]:
    from campaigns.contact import reach

    return reach(place, session.options()["contact"])


def _name(session: CampaignSession, side: str) -> str:
    with plainly(), session.store.connect() as db:
        name = _side_name(db, side)
    if name is None:
        raise CampaignError(f"there is no side {side!r}")
    return name


def _side_name(db: Connection, side: str) -> str | None:
    return db.execute(select(rows.SIDE.c.name).where(rows.SIDE.c.id == side)).scalar_one_or_none()


def report(session: CampaignSession, side: str, place: str, level: int, note: str = "") -> str:
    """The umpire tells `side` what it learns of the enemy at `place` (level 1-4 of sighting.toml),
    or, with level 0, only his note. One action."""
    from campaigns.gazetteer import GazetteerError, gazetteer
    from campaigns.text import plain_name
    from models import Campaign, Sighting

    name = _name(session, side)
    try:
        place = gazetteer().place(place).name
    except GazetteerError as exc:
        raise CampaignError(str(exc)) from None
    if level not in (0, 1, 2, 3, 4):
        raise CampaignError(f"a report reveals at a level of 0 (a note only) to 4, not {level}")
    note = plain_name(note, "a report's note") if note.strip() else ""
    if level == 0 and not note:
        raise CampaignError("a report that reveals nothing needs a note")
    with plainly(), session.store.connect() as connection:
        # In the table's order, as the classes read it (the id alone could be read from its index, sorted).
        enemies = [s for s, _name in connection.execute(select(rows.SIDE.c.id, rows.SIDE.c.name)) if s != side]
    with plainly(), session.store.action(f"Umpire's report to {name}: the enemy at {place}") as db:
        enemy = enemies[0]
        generals, units = stack_seen(db, enemy, place)
        if level and not units and not generals:
            raise CampaignError(f"there is no enemy of {name} at {place} to report")
        if level:
            add(db, side=side, enemy_side=enemy, place=place, source=REPORT, level=level, generals=generals, units=units, note=note)
        else:
            db.add(Sighting(side=side, turn=db.get_one(Campaign, 1).turn, place=place, enemy_side=enemy,
                            source=REPORT, learned={}, note=note))
    return f"Reported to {name}: the enemy at {place}" + (f" ({note})" if note else "")


def side_ids(session: CampaignSession) -> list[str]:
    """The campaign's sides, in order."""
    with plainly(), session.store.connect() as db:
        return _side_ids(db)


def _side_ids(db: Connection) -> list[str]:
    return list(db.scalars(select(rows.SIDE.c.id).order_by(rows.SIDE.c.position)))


def all_stacks_of(session: CampaignSession, side: str) -> list:
    """Side `side`'s stacks on the map (the umpire's view)."""
    from campaigns.stacks import all_stacks

    return [s for s in all_stacks(session) if s.side == side]


# -- reading -------------------------------------------------------------------


class SightingRow(NamedTuple):
    """A sighting (models.Sighting) read as a plain row: its columns, in the table's order."""

    id: int
    side: str
    turn: int
    place: str
    enemy_side: str
    source: str
    result: int | None
    learned: dict[str, Any]
    strength_points: int | None
    note: str


@dataclass(frozen=True)
class Knowledge:
    side: str
    side_name: str
    turn: int
    nations: tuple[str, ...]
    sightings: tuple[SightingRow, ...]


def sightings(db: Session, side: str, turn: int) -> list[Sighting]:
    """Side `side`'s sightings up to turn `turn`, oldest first, as the ORM's rows (a side
    file's copy: campaigns.despatch)."""
    from sqlmodel import col

    from models import Sighting

    query = select(Sighting).where(col(Sighting.side) == side, col(Sighting.turn) <= turn).order_by(col(Sighting.turn), col(Sighting.id))
    return list(db.scalars(query))


def _sighting_rows(db: Connection, side: str, turn: int) -> list[SightingRow]:
    """`sightings` as plain rows, in the same order."""
    seen = rows.SIGHTING.c
    query = select(*(seen[name] for name in SightingRow._fields)).where(seen.side == side, seen.turn <= turn)
    return [SightingRow(*row) for row in db.execute(query.order_by(seen.turn, seen.id))]


def known(session: CampaignSession, side: str, turn: int | None = None) -> Knowledge:
    """What `side` knows at `turn` (default: now): its nations and its sightings."""
    with plainly(), session.store.connect() as db:
        name = _side_name(db, side)
        if name is None:
            ids = ", ".join(_side_ids(db))
            raise CampaignError(f"there is no side {side!r} (the sides are {ids})")
        now = db.execute(select(rows.CAMPAIGN.c.turn).where(rows.CAMPAIGN.c.id == 1)).scalar_one()
        turn = now if turn is None else turn
        if not 1 <= turn <= now:
            raise CampaignError(f"turn {turn} has not been played: the campaign is at turn {now}")
        nation = rows.NATION.c
        nations = tuple(db.scalars(select(nation.id).where(nation.side == side).order_by(nation.id)))
        return Knowledge(side, name, turn, nations, tuple(_sighting_rows(db, side, turn)))


def sighted_stacks(session: CampaignSession, side: str, turn: int) -> list:
    """The enemy as side `side` last saw it, up to `turn`: one stack per place, from the newest
    sighting there that saw a stack (an umpire's note alone draws nothing)."""
    from campaigns.stacks import SightedStack

    with plainly(), session.store.connect() as db:
        names = dict(db.execute(select(rows.SIDE.c.id, rows.SIDE.c.name)).all())
        newest: dict[tuple[str, str], SightingRow] = {}
        for row in _sighting_rows(db, side, turn):
            if row.learned:
                newest[(row.enemy_side, row.place)] = row
    return [
        SightedStack(enemy, names.get(enemy, enemy), place, (), (), row.strength_points, row.turn, describe(row))
        for (enemy, place), row in sorted(newest.items(), key=lambda kv: kv[0][1])
    ]


def describe(sighting: Sighting | SightingRow) -> str:
    """One line: turn, place, source, what was learned."""
    seen = sighting.learned or {}
    parts = [seen.get("estimate") or (f"{seen['strength_points']} SP" if "strength_points" in seen else "")]
    if "arms" in seen:
        parts.append(", ".join(f"{n} {arm}" for arm, n in seen["arms"].items()))
    elif "units_counted" in seen:
        parts.append(f"{seen['units_counted']} unit{'' if seen['units_counted'] == 1 else 's'}")
    if seen.get("generals"):
        parts.append("led by " + ", ".join(seen["generals"]))
    if sighting.note:
        parts.append(sighting.note)
    what = "; ".join(p for p in parts if p) or "nothing more"
    how = f"{sighting.source} result {sighting.result}" if sighting.result is not None else sighting.source
    return f"turn {sighting.turn}, {sighting.place} ({how}): {what}"

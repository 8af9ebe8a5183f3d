"""The forces as the umpire picks them (battle set-up, reconnaissance): by side, then place, then general.

A stack is what stands at one place: "Ney's stack at Weimar" is every unit at
Weimar, grouped under the general each is attached to. Battle set-up and
reconnaissance both list forces this way, so a whole stack is marked at once.

Places are grouped by the location as stored (trimmed; case kept), so that
they can later be keyed on gazetteer places instead without changing callers.
Read with plain SQL: the screens show names and numbers, not ORM rows.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import bindparam, text

from campaigns.errors import plainly
from campaigns.session import CampaignSession
from campaigns.words import plural

NOWHERE = "(no place given)"
UNITS = (
    "SELECT n.side, u.id, u.name, u.kind, u.strength_points, u.cohesion, u.location, u.general, g.name, g.rank "
    "FROM unit u JOIN nation n ON u.nation = n.id LEFT JOIN general g ON g.id = u.general"
)
SIDES = text("SELECT id, name FROM side ORDER BY position, id")


@dataclass(frozen=True)
class Force:
    id: str
    name: str
    kind: str
    strength_points: int
    cohesion: int
    general: str | None  # the general's id

    @property
    def dummy(self) -> bool:
        return self.kind == "dummy"

    def short(self) -> str:
        """What the unit is, in a few words: "cavalry 3 SP", "dummy"."""
        return "dummy" if self.dummy else f"{self.kind} {self.strength_points} SP"


@dataclass(frozen=True)
class Command:
    """The units at one place attached to one general (or to none)."""

    general: str | None  # id
    general_name: str
    forces: tuple[Force, ...]


@dataclass(frozen=True)
class Stack:
    place: str
    commands: tuple[Command, ...]

    @property
    def forces(self) -> tuple[Force, ...]:
        return tuple(f for c in self.commands for f in c.forces)

    @property
    def leader(self) -> str:
        """The general named first at this place (the highest ranked)."""
        return next((c.general_name for c in self.commands if c.general), "no general")


@dataclass(frozen=True)
class SideStacks:
    side: str
    name: str
    stacks: tuple[Stack, ...]


def sides(session: CampaignSession) -> list[tuple[str, str]]:
    """Each side's id and name, in their order."""
    with plainly(), session.store.connect() as db:
        return [(side, name) for side, name in db.execute(SIDES)]


def stacks(
    session: CampaignSession, of_sides: Collection[str] | None = None, places: Collection[str] | None = None
) -> list[SideStacks]:
    """Every side's stacks: places by name, generals by rank then name, units by name.
    Only the units of `of_sides` and at `places` are read, when given (the other sides
    are listed without stacks)."""
    query, where, given = UNITS, [], {}
    if of_sides is not None:
        where.append("n.side IN :sides")
        given["sides"] = list(of_sides)
    if places is not None and NOWHERE not in places:
        where.append("TRIM(u.location) IN :places")
        given["places"] = list(places)
    if where:
        query += " WHERE " + " AND ".join(where)
    statement = text(query).bindparams(*(bindparam(name, expanding=True) for name in given))
    with plainly(), session.store.connect() as db:
        sides = list(db.execute(SIDES))
        rows = list(db.execute(statement, given))
    by_side: dict[str, dict[str, dict[str | None, tuple[str, int, list[Force]]]]] = {}
    for side, uid, name, kind, sp, cohesion, location, general, general_name, rank in rows:
        place = (location or "").strip() or NOWHERE
        command = by_side.setdefault(side, {}).setdefault(place, {})
        entry = command.setdefault(general, (general_name or "no general", rank or 0, []))
        entry[2].append(Force(uid, name, kind, sp, cohesion, general))
    out = []
    for side, side_name in sides:
        places = by_side.get(side, {})
        out.append(
            SideStacks(
                side,
                side_name,
                tuple(
                    Stack(
                        place,
                        tuple(
                            Command(general, name, tuple(sorted(forces, key=lambda f: f.name)))
                            for general, (name, _rank, forces) in sorted(
                                places[place].items(), key=lambda item: (item[0] is None, -item[1][1], item[1][0])
                            )
                        ),
                    )
                    for place in sorted(places, key=lambda p: (p == NOWHERE, p.casefold()))
                ),
            )
        )
    return out


def stacks_in(session: CampaignSession, places: Collection[str] | None) -> list[SideStacks]:
    """Every side's stacks standing at one of `places` (all of them when None): the forces
    a battle or a reconnaissance at a place can draw on."""
    sides = stacks(session, places=places)
    if places is None:
        return sides
    return [SideStacks(s.side, s.name, tuple(st for st in s.stacks if st.place in places)) for s in sides]


@dataclass(frozen=True)
class Picked:
    """What a set of marked forces amounts to: SP, units, dummies, the leaders present."""

    strength_points: int
    units: int
    dummies: int
    leaders: tuple[str, ...]  # general names, highest ranked first
    leader_ids: tuple[str, ...]

    def summary(self) -> str:
        if not self.units and not self.dummies:
            return "nothing marked"
        parts = [f"{self.strength_points} SP in {plural(self.units, 'unit')}"]
        if self.dummies:
            parts.append(plural(self.dummies, "dummy", "dummies"))
        leaders = ", ".join(self.leaders) or "none"
        return f"{'; '.join(parts)}; leaders: {leaders}"


def picked(side: SideStacks, marked: set[str]) -> Picked:
    forces = [(stack, command, force) for stack in side.stacks for command in stack.commands for force in command.forces if force.id in marked]
    leaders: dict[str, str] = {}
    for _stack, command, _force in forces:
        if command.general:
            leaders.setdefault(command.general, command.general_name)
    real = [f for _s, _c, f in forces if not f.dummy]
    return Picked(
        strength_points=sum(f.strength_points for f in real),
        units=len(real),
        dummies=len(forces) - len(real),
        leaders=tuple(leaders.values()),
        leader_ids=tuple(leaders),
    )

"""Contact between the two sides: where battles are to be set up, and which forces may fight there.

By the rules option `contact`, stacks are in contact at the same place of the
gazetteer, or also one road apart. A force that stands elsewhere can join a
battle only when the umpire overrides with a reason, which is recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campaigns.errors import CampaignError, plainly
from campaigns.gazetteer import GazetteerError, gazetteer
from campaigns.session import CampaignSession
from campaigns.stacks import Stack, all_stacks, counted_stacks


class OutOfContact(CampaignError):
    """A force chosen for a battle stands where it cannot fight it; the umpire may override."""


@dataclass(frozen=True)
class Contact:
    place: str
    stacks: tuple[Stack, ...]  # every stack of both sides in contact there

    def describe(self) -> str:
        return f"{self.place}: " + "; ".join(f"{s.side_name} {s.badge()} at {s.place}" for s in self.stacks)


def reach(place: str, rule: str) -> set[str]:
    """The places a stack at `place` is in contact with."""
    return {place} | (gazetteer().neighbours(place) if rule == "adjacent" else set())


def contacts(session: CampaignSession, stacks: Sequence[Stack] | None = None, armed: bool = True) -> list[Contact]:
    """Each place holding a stack with an enemy stack in contact: the battles to set up this turn.

    A battle needs units on both sides (battles.begin), so by default a stack of generals
    alone (their units eliminated, option zero_sp_unit) makes no contact; `armed=False`
    counts it, as what two sides see of each other does (campaigns.knowledge).

    With the option contact = adjacent, two stacks one road apart are listed at both places.
    The stacks are counted, not read unit by unit (stacks.counted_stacks; `stacks`: those
    already counted, every side's).
    """
    rule = session.options()["contact"]
    places = gazetteer().places
    at: dict[str, list[Stack]] = {}  # by place, each place's by side; the places in order
    for s in counted_stacks(session) if stacks is None else stacks:
        if s.place not in places or (armed and s.unit_count == 0):
            continue
        at.setdefault(s.place, []).append(s)
    out: list[Contact] = []
    for place in sorted(at):
        near = reach(place, rule)
        here = at[place]
        sides_here = {h.side for h in here}
        enemies = [s for p in sorted(near) if p in at for s in at[p] if s.side not in sides_here]
        if enemies or len({s.side for s in here}) > 1:
            out.append(Contact(place, tuple(here) + tuple(e for e in enemies if e not in here)))
    return out


def check_forces(session: CampaignSession, location: str, unit_ids: list[str], general_ids: list[str]) -> str:
    """The battle's place as the gazetteer names it; OutOfContact names the first force out of reach."""
    try:
        place = gazetteer().place(location).name
    except GazetteerError as exc:
        raise CampaignError(str(exc)) from None
    from models import General, Unit  # the ORM for a battle's set-up only: the contacts read plain rows

    near = reach(place, session.options()["contact"])
    with plainly(), session.store.read() as db:
        forces = [db.get(Unit, u) for u in unit_ids] + [db.get(General, g) for g in general_ids]
        for force in forces:
            if force is not None and force.location not in near:
                where = force.location or "no place"
                apart = "at or next to" if len(near) > 1 else "at"
                raise OutOfContact(
                    f"{force.name} stands at {where}, not {apart} {place}: a battle is fought between stacks in "
                    "contact, unless the umpire overrides with a reason"
                )
    return place


def battle_reach(session: CampaignSession, place_text: str) -> tuple[str, set[str]]:
    """The place as the gazetteer names it, and the places whose forces can fight a battle there
    (option contact); one sentence with the nearest names for an unknown place."""
    try:
        place = gazetteer().place(place_text).name
    except GazetteerError as exc:
        raise CampaignError(str(exc)) from None
    return place, reach(place, session.options()["contact"])


def forces_at(session: CampaignSession, place: str) -> list[Stack]:
    """The stacks a battle at `place` can draw on, both sides."""
    near = reach(gazetteer().place(place).name, session.options()["contact"])
    with plainly():
        return all_stacks(session, near)



"""Pontoon bridges: a major river is crossed only by a bridge or a pontoon built at a ford (card 6.4).

The card's 6.4 (who builds a pontoon, how long it takes) is in the series rules,
not in the seeds: the umpire builds one where the rules allow, and it is recorded
as one action, so that routes can cross there from then on.
"""

from __future__ import annotations

from sqlalchemy import select

from campaigns.errors import CampaignError, plainly
from campaigns.gazetteer import GazetteerError, gazetteer
from campaigns.session import CampaignSession
from models import Campaign, Pontoon


def pontoon_keys(session: CampaignSession) -> frozenset[str]:
    """The pontoons standing, as campaigns.routes reads them: "RIVER@A-B" with the road's ends."""
    with plainly(), session.store.read() as db:
        return frozenset(f"{p.river}@{p.place_a}-{p.place_b}" for p in db.scalars(select(Pontoon)))


def build(session: CampaignSession, place_a: str, place_b: str, river: str | None = None, note: str = "") -> str:
    """Record a pontoon where the road between two places fords a river."""
    g = gazetteer()
    try:
        a, b = g.place(place_a).name, g.place(place_b).name
    except GazetteerError as exc:
        raise CampaignError(str(exc)) from None
    road = next((r for r in g.roads if {r.a, r.b} == {a, b}), None)
    if road is None:
        raise CampaignError(f"no road joins {a} and {b}")
    fords = [c for c in road.crossings if c.by == "ford" and (river is None or c.river.casefold() == river.casefold())]
    if not fords:
        rivers = ", ".join(f"the {c.river} by {c.by}" for c in road.crossings) or "no river"
        raise CampaignError(f"a pontoon is built at a ford (card 6.4); the road {a}-{b} crosses {rivers}")
    if len(fords) > 1:
        raise CampaignError(f"the road {a}-{b} fords {' and '.join(c.river for c in fords)}: name the river")
    crossing = fords[0]
    if f"{crossing.river}@{road.a}-{road.b}" in pontoon_keys(session):
        raise CampaignError(f"there is already a pontoon over the {crossing.river} between {a} and {b}")
    description = f"Pontoon over the {crossing.river} between {road.a} and {road.b}" + (f": {note.strip()}" if note.strip() else "")
    with plainly(), session.store.action(description) as db:
        turn = db.get_one(Campaign, 1).turn
        db.add(Pontoon(river=crossing.river, place_a=road.a, place_b=road.b, turn=turn, note=note.strip()))
    return description

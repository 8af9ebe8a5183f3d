"""The turn sequence: where play stands, what the phase still needs, and advancing.

Advancing moves to the next phase of the turn; after the last phase the next
turn begins and the calendar moves on with it. Each advance is one action.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from campaigns.errors import CampaignError, plainly
from campaigns.glance import glance
from campaigns.phases import Phase, next_phase, phases
from campaigns.session import CampaignSession


@dataclass(frozen=True)
class TurnStatus:
    turn: int
    turns: int
    date: date
    phase: Phase
    phases: tuple[Phase, ...]
    outstanding: tuple[str, ...]  # what the current phase still needs, in words

    @property
    def last_turn(self) -> bool:
        return self.turn >= self.turns


def status(session: CampaignSession) -> TurnStatus:
    view = glance(session)
    return TurnStatus(
        turn=view.view.turn,
        turns=view.view.turns,
        date=view.view.date,
        phase=view.phase,
        phases=phases(),
        outstanding=view.outstanding,
    )


def advance(session: CampaignSession, *, anyway: bool = False) -> str:
    """Move to the next phase (or turn). Refuses while the phase needs something,
    unless the umpire says to go on anyway."""
    now = status(session)
    if now.outstanding and not anyway:
        raise CampaignError(f"{now.phase.name} still needs: " + "; ".join(now.outstanding))
    following = next_phase(now.phase.id)
    if following is None and now.last_turn:
        raise CampaignError(f"turn {now.turn} is the last turn of the campaign")
    description = (
        f"Turn {now.turn}: {now.phase.name} -> {following.name}"
        if following
        else f"End of turn {now.turn}: turn {now.turn + 1} begins"
    )
    # The SQLModel classes only to write: the screen reads the turn without them (glance).
    from models import Campaign

    with plainly(), session.store.action(description) as db:
        campaign = db.get_one(Campaign, 1)
        if following is None:
            campaign.turn += 1
            campaign.phase = phases()[0].id
        else:
            campaign.phase = following.id
    return description

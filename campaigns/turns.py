"""The turn sequence: where play stands, what the phase still needs, and advancing.

Advancing moves to the next phase of the turn; after the last phase the next
turn begins and the calendar moves on with it. Each advance is one action.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select

from campaigns.errors import CampaignError, plainly
from campaigns.phases import Phase, next_phase, phase, phases
from campaigns.session import CampaignSession
from models import Army, Battle, Campaign, CommandPointRoll, Turn


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


def _outstanding(db, campaign: Campaign, current: Phase) -> list[str]:
    missing = []
    turn = db.get(Turn, campaign.turn)
    for need in current.needs:
        if need == "weather_set" and (turn is None or not turn.weather):
            missing.append("roll (or take the forced) weather for this turn")
        elif need == "command_points_rolled":
            armies = list(db.scalars(select(Army).where(Army.commander.is_not(None))))  # type: ignore[union-attr]
            rolled = set(db.scalars(select(CommandPointRoll.army).where(CommandPointRoll.turn == campaign.turn)))
            waiting = [a.name for a in armies if a.id not in rolled]
            if waiting:
                missing.append("roll command points for " + ", ".join(waiting))
        elif need == "no_pending_battle":
            pending = db.scalar(
                select(func.count()).select_from(Battle).where(Battle.status == "pending", Battle.turn == campaign.turn)
            )
            if pending:
                missing.append(f"finish {pending} pending battle{'s' if pending > 1 else ''}")
    return missing


def status(session: CampaignSession) -> TurnStatus:
    with plainly(), session.store.read() as db:
        campaign = db.get_one(Campaign, 1)
        current = phase(campaign.phase)
        turn = db.get(Turn, campaign.turn)
        return TurnStatus(
            turn=campaign.turn,
            turns=campaign.turns,
            date=turn.date if turn else campaign.start_date,
            phase=current,
            phases=phases(),
            outstanding=tuple(_outstanding(db, campaign, current)),
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
    with plainly(), session.store.action(description) as db:
        campaign = db.get_one(Campaign, 1)
        if following is None:
            campaign.turn += 1
            campaign.phase = phases()[0].id
        else:
            campaign.phase = following.id
    return description

"""The campaign at a glance: where play stands, each side's strength, the latest events.

Every query here is bounded by the size of the order of battle, never by the
length of the history, so a campaign a year old opens as fast as a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.store import CampaignStore
from models.tables import Army, Battle, Campaign, Event, General, Nation, Side, Turn, Unit


@dataclass(frozen=True)
class SideStrength:
    id: str
    name: str
    armies: int
    generals: int
    units: int
    strength_points: int


@dataclass(frozen=True)
class Overview:
    name: str
    scenario: str
    ruleset: str
    turn: int
    turns: int
    phase: str
    date: date
    weather: str | None
    dice_mode: str
    sides: tuple[SideStrength, ...]
    pending_battles: int
    recent_events: tuple[Event, ...]  # newest first
    can_undo: bool
    can_redo: bool


def overview(store: CampaignStore, recent: int = 5) -> Overview:
    with store.read() as session:
        campaign = session.get_one(Campaign, 1)
        turn = session.get(Turn, campaign.turn)
        events = tuple(session.scalars(select(Event).order_by(Event.id.desc()).limit(recent)))  # type: ignore[union-attr]
        last_done = session.scalars(
            select(Event.kind).where(Event.undone.is_(False)).order_by(Event.id.desc()).limit(1)  # type: ignore[attr-defined,union-attr]
        ).first()
        pending = select(func.count()).select_from(Battle).where(Battle.status == "pending")
        redoable = select(Event.id).where(Event.undone.is_(True)).limit(1)  # type: ignore[attr-defined]
        # Past the last turn of the calendar there is no turn row: count on from the start.
        day = campaign.start_date + timedelta(days=(campaign.turn - 1) * campaign.turn_days)
        return Overview(
            name=campaign.name,
            scenario=campaign.scenario,
            ruleset=campaign.ruleset,
            turn=campaign.turn,
            turns=campaign.turns,
            phase=campaign.phase,
            date=turn.date if turn else day,
            weather=turn.weather if turn else None,
            dice_mode=campaign.dice_mode,
            sides=_sides(session),
            pending_battles=session.scalar(pending) or 0,
            recent_events=events,
            can_undo=last_done == "action",
            can_redo=session.scalar(redoable) is not None,
        )


def _sides(session: Session) -> tuple[SideStrength, ...]:
    armies = dict(session.execute(select(Army.side, func.count()).group_by(Army.side)).all())
    generals = dict(
        session.execute(
            select(Nation.side, func.count()).join(General, General.nation == Nation.id).group_by(Nation.side)
        ).all()
    )
    units = {
        side: (count, points)
        for side, count, points in session.execute(
            select(Nation.side, func.count(), func.coalesce(func.sum(Unit.strength_points), 0))
            .join(Unit, Unit.nation == Nation.id)
            .group_by(Nation.side)
        )
    }
    return tuple(
        SideStrength(
            id=side.id,
            name=side.name,
            armies=armies.get(side.id, 0),
            generals=generals.get(side.id, 0),
            units=units.get(side.id, (0, 0))[0],
            strength_points=units.get(side.id, (0, 0))[1],
        )
        for side in session.scalars(select(Side).order_by(Side.position, Side.id))
    )

"""The despatch: a side file holding only what one side knows at one turn.

A side file is a campaign file built fresh through the same path as a new
campaign (models.create_store: a new database, the migrations, then the rows):
nothing is copied and then deleted, so no hidden row survives in free pages or
a journal. It holds the side's own order of battle, armies and command points,
its sightings up to the turn, the weather so far, the battles it fought with
their dice, and the campaign's dice commitment; never the seed or the salt.
Its campaign row is marked with the side and the turn (fog_side, fog_turn) and
keeps the campaign's uid, so the app opens it as that side's player and the
orders written in it name the despatch they answer.

Every row goes in by a filter a database could apply itself (the club server's
row-level security uses the same): nation.side = S, army.side = S, units and
generals of those nations, sighting.side = S, battles whose participants
include S, dice rolls of those battles (dice_roll.battle), of the weather and
of S's command points.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlmodel import col, SQLModel

from campaigns.errors import CampaignError, plainly
from campaigns.knowledge import known, sightings
from campaigns.session import CampaignSession
from models.check import Dangling, DanglingRow, dangling_reference
from models import (
    Activation, Army, Battle, Campaign, CommandPointRoll, CommandPointSpend, DiceRoll, General, Nation,
    Side, Turn, Unit, create_store,
)


def _copy(row: SQLModel, **changes: Any) -> SQLModel:
    """A new row of the same table with the same values (a fresh object for the new file)."""
    values = row.model_dump()
    values.update(changes)
    return type(row)(**values)


def fought_by(battle: Battle, side: str) -> bool:
    return any(isinstance(p, dict) and p.get("side") == side for p in (battle.participants or {}).values())


@contextmanager
def _as_of(session: CampaignSession, turn: int) -> Iterator[CampaignSession]:
    """The campaign as the side file shows it: now, or as turn `turn` ended."""
    if turn == session.campaign().turn:
        yield session
        return
    from campaigns.past import moment, open_past

    view = open_past(session, moment(session, turn=turn))
    try:
        yield view
    finally:
        view.close()


def side_rows(session: CampaignSession, side: str, turn: int) -> tuple[Campaign, list[SQLModel]]:
    """The campaign row and every other row of side `side`'s file at `turn` but its units
    (`side_units`: thousands of them, copied as plain values)."""
    rows: list[SQLModel] = []
    with plainly(), session.store.read() as db:
        campaign = db.get_one(Campaign, 1)
        nations = {n.id for n in db.scalars(select(Nation).where(col(Nation.side) == side))}
        armies = {a.id for a in db.scalars(select(Army).where(col(Army.side) == side))}
        rows += [_copy(s) for s in db.scalars(select(Side).order_by(col(Side.position)))]
        rows += [_copy(n) for n in db.scalars(select(Nation).where(col(Nation.side) == side))]
        rows += [_copy(a) for a in db.scalars(select(Army).where(col(Army.side) == side))]
        rows += [_copy(g) for g in db.scalars(select(General).where(col(General.nation).in_(nations)))]
        dice: set[int] = set()
        for t in db.scalars(select(Turn).order_by(col(Turn.number))):
            so_far = t.number <= turn
            rows.append(_copy(t, weather=t.weather if so_far else None, weather_source=t.weather_source if so_far else None,
                              dice_roll=t.dice_roll if so_far else None))
            if so_far and t.dice_roll is not None:
                dice.add(t.dice_roll)
        for r in db.scalars(select(CommandPointRoll).where(col(CommandPointRoll.army).in_(armies), col(CommandPointRoll.turn) <= turn)):
            rows.append(_copy(r))
            if r.dice_roll is not None:
                dice.add(r.dice_roll)
        rows += [_copy(s) for s in db.scalars(select(CommandPointSpend).where(col(CommandPointSpend.army).in_(armies), col(CommandPointSpend.turn) <= turn))]
        rows += [_copy(a) for a in db.scalars(select(Activation).where(col(Activation.side) == side, col(Activation.turn) <= turn))]
        for battle in db.scalars(select(Battle).where(col(Battle.turn) <= turn).order_by(col(Battle.id))):
            if fought_by(battle, side):
                rows.append(_copy(battle))
                dice |= _battle_dice(db, battle)
        rows += [_copy(s) for s in sightings(db, side, turn)]
        # Their events stay behind (they name the umpire's other actions): a roll keeps what it was for.
        rows += [_copy(d, event=None) for d in db.scalars(select(DiceRoll).where(col(DiceRoll.id).in_(dice)).order_by(col(DiceRoll.id)))]
    head = Campaign(
        uid=campaign.uid, dice_commitment=campaign.dice_commitment, dice_salt=None, fog_side=side, fog_turn=turn,
        name=campaign.name, ruleset=campaign.ruleset, scenario=campaign.scenario, dice_seed=0,
        dice_mode=campaign.dice_mode, dice_next_index=0, turn=turn, phase=campaign.phase,
        start_date=campaign.start_date, turn_days=campaign.turn_days, turns=campaign.turns,
        options=dict(campaign.options), created=campaign.created,
    )
    return head, rows


COPY_BATCH = 1000


def side_units(session: CampaignSession, side: str) -> Iterator[list[dict[str, Any]]]:
    """The units of side `side`'s nations as plain values, COPY_BATCH at a time, in the order
    the database holds them: one batch in memory, and no ORM object per unit."""
    from sqlalchemy import Table

    units: Table = Unit.__table__  # type: ignore[attr-defined]  # a table class gets __table__ from SQLAlchemy
    nations = select(col(Nation.id)).where(col(Nation.side) == side)
    with plainly(), session.store.connect() as db:
        read = db.execution_options(yield_per=COPY_BATCH).execute(select(units).where(units.c.nation.in_(nations)))
        for batch in read.partitions():
            yield [dict(row._mapping) for row in batch]


def _battle_dice(db: Any, battle: Battle) -> set[int]:
    """The rolls made for a battle (an undone step's went with it): marked with its id."""
    return set(db.scalars(select(col(DiceRoll.id)).where(col(DiceRoll.battle) == battle.id)))


def write_despatch(session: CampaignSession, side: str, out: Path, turn: int | None = None) -> Path:
    """Write side `side`'s file for `turn` (default: now) at `out`, which must not exist."""
    campaign = session.campaign()
    if campaign.fog_side is not None:
        raise CampaignError("this is a side file already: a despatch is written from the umpire's campaign")
    knowledge = known(session, side, turn)
    with _as_of(session, knowledge.turn) as source:
        head, rows = side_rows(source, side, knowledge.turn)
        with plainly():
            try:
                store = create_store(
                    out, head, rows, f"Despatch to {knowledge.side_name}, turn {knowledge.turn} of {campaign.name}",
                    copied=[(Unit.__table__, side_units(source, side))],  # type: ignore[attr-defined]  # as in side_units
                )
            except DanglingRow as error:
                raise CampaignError(_left_behind(session, side, error.found)) from None
    store.close()
    return out


def _left_behind(session: CampaignSession, side: str, found: Dangling) -> str:
    """Why a side file would name a row it does not hold: the campaign names a row that does not
    exist (what `check` says), or a row of the side names one of another side's."""
    with session.store.connect() as connection:
        damage = dangling_reference(connection, session.where)
    if damage is not None:
        return damage
    return (
        f"{session.where} cannot be despatched to {side}: {found.row_names()}, which the side "
        f"{side} does not hold (`adjutant check` names it)"
    )


@contextmanager
def despatch_session(session: CampaignSession, side: str, turn: int | None = None) -> Iterator[CampaignSession]:
    """The side file opened read-only in a temporary folder (for the printed report), removed after."""
    with tempfile.TemporaryDirectory(prefix="adjutant-despatch-") as folder:
        path = write_despatch(session, side, Path(folder) / "side.campaign", turn)
        opened = CampaignSession.open(path)
        try:
            yield opened
        finally:
            opened.close()

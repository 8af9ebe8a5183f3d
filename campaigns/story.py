"""The campaign turn by turn, as numbers to plot: SP, losses by cause, command
points, weather and luck.

Each side's SP at the end of a turn is found by walking the history back from
today's order of battle: undoing, in memory, every later change of a unit's SP
(or its creation or removal) gives the SP as they stood when that turn ended.
Losses are counted where they were taken: a battle's SP lost (less its pursuit),
the pursuit, and forced marches (the SP the march actions took).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, or_, select

from campaigns.battles import ATTACKER, DEFENDER, load
from campaigns.errors import plainly
from campaigns.luck import Ledger, events_in_order, indexed, turn_end_events
from campaigns.session import CampaignSession
# Table clauses, not the SQLModel classes: the story is read on the Plots screen's first visit,
# which does without the ORM, whose import is the slowest part of one (150-250 ms).
from models.record_columns import ARMY, BATTLE as BATTLES, CAMPAIGN, COMMAND_POINT_ROLL, COMMAND_POINT_SPEND, EVENT, NATION, SIDE
from models.record_columns import FORCED_MARCHES, STRENGTH_CHANGES, TURN, TURN_ENDS, UNIT

BATTLE, FORCED_MARCH, PURSUIT = "battle", "forced march", "pursuit"
CAUSES = (BATTLE, FORCED_MARCH, PURSUIT)


@dataclass(frozen=True)
class TurnWeather:
    turn: int
    date: str  # "26 Apr"
    weather: str | None  # as printed, None still to come
    infantry_mp: int | None


@dataclass
class Story:
    sides: dict[str, str]  # id -> name
    turns: list[int]  # the turns played so far, 1..current
    sp: dict[str, list[int]] = field(default_factory=dict)  # side -> SP at the end of each turn (the current: now)
    losses: dict[str, dict[str, list[int]]] = field(default_factory=dict)  # side -> cause -> SP by turn
    points_rolled: dict[str, list[int]] = field(default_factory=dict)  # side -> PC rolled by turn
    points_spent: dict[str, list[int]] = field(default_factory=dict)
    weather: list[TurnWeather] = field(default_factory=list)  # every turn of the calendar
    luck: dict[str, list[float | None]] = field(default_factory=dict)  # side -> mean percentile by turn


def story(session: CampaignSession, book: Ledger | None = None) -> Story:
    """The series of the campaign up to the current turn; `book` adds the luck by turn."""
    with plainly(), session.store.connect() as db:
        # Plain rows of the columns read, not ORM objects: the story is read on the Plots
        # screen's first visit.
        current = db.execute(select(CAMPAIGN.c.turn).where(CAMPAIGN.c.id == 1)).scalar_one()
        sides = {i: name for i, name in db.execute(select(SIDE.c.id, SIDE.c.name).order_by(SIDE.c.position, SIDE.c.id))}
        turns = list(range(1, current + 1))
        out = Story(sides, turns)
        nation_side = {i: side for i, side in db.execute(select(NATION.c.id, NATION.c.side))}
        army_side = {i: side for i, side in db.execute(select(ARMY.c.id, ARMY.c.side))}
        out.sp = _sp_by_turn(db, sides, nation_side, current)
        out.losses = {s: {cause: [0] * len(turns) for cause in CAUSES} for s in sides}
        _battle_losses(session, db, out)
        _march_losses(db, out, nation_side)
        out.points_rolled = {s: [0] * len(turns) for s in sides}
        out.points_spent = {s: [0] * len(turns) for s in sides}
        for army, turn, points in db.execute(select(COMMAND_POINT_ROLL.c.army, COMMAND_POINT_ROLL.c.turn, COMMAND_POINT_ROLL.c.points)):
            _add(out.points_rolled, army_side.get(army), turn, points)
        for army, turn, cost in db.execute(select(COMMAND_POINT_SPEND.c.army, COMMAND_POINT_SPEND.c.turn, COMMAND_POINT_SPEND.c.cost)):
            _add(out.points_spent, army_side.get(army), turn, cost)
        out.weather = list(_weather(db, session.options()))
    if book is not None:
        out.luck = luck_by_turn(out, book)
    return out


def luck_by_turn(story: Story, book: Ledger) -> dict[str, list[float | None]]:
    """Each side's mean percentile by turn, from the ledger: the series of the luck chart."""
    by = {(item.side, item.turn): item for item in book.by_turn}
    return {s: [float(by[(s, t)].run.mean) if (s, t) in by else None for t in story.turns] for s in story.sides}


def _add(series: dict[str, list[int]], side: str | None, turn: int, amount: int) -> None:
    if side in series and 1 <= turn <= len(series[side]):
        series[side][turn - 1] += amount


_COUNTED = or_(UNIT.c.kind.is_(None), UNIT.c.kind != "dummy")  # a dummy counter holds no SP


def _units(db: Any, ids: Iterable[Any], nation_side: dict[str, str]) -> dict[str, tuple[str, int]]:
    """The side and SP now of these units (not the dummies): the rest are not read."""
    wanted = sorted({u for u in ids if isinstance(u, str)})
    out: dict[str, tuple[str, int]] = {}
    for start in range(0, len(wanted), 500):
        query = select(UNIT.c.id, UNIT.c.nation, UNIT.c.strength_points).where(
            UNIT.c.id.in_(wanted[start:start + 500]), _COUNTED
        )
        out.update((unit, (nation_side.get(nation, ""), sp)) for unit, nation, sp in db.execute(query))
    return out


def _sp_by_turn(db: Any, sides: dict[str, str], nation_side: dict[str, str], current: int) -> dict[str, list[int]]:
    """Each side's SP at the end of each turn up to the current one (which is: now).

    Today's totals are summed by the database; only the units the history changed are read,
    each once, before the first (newest) event that names it."""
    now: dict[str, int] = {}
    side_of: dict[str, str] = {}
    looked_up: set[Any] = set()
    running = {s: 0 for s in sides}  # each side's SP as of the event reached, kept as `now` changes
    for nation, total in db.execute(
        select(UNIT.c.nation, func.sum(UNIT.c.strength_points)).where(_COUNTED).group_by(UNIT.c.nation)
    ):
        if nation_side.get(nation, "") in running:
            running[nation_side.get(nation, "")] += int(total or 0)

    def look_up(changes: list) -> None:
        ids = {c["key"].get("id") for c in changes if c.get("table") == "unit"} - looked_up
        for unit, (side, sp) in _units(db, ids, nation_side).items():
            now[unit], side_of[unit] = sp, side
        looked_up.update(i for i in ids if isinstance(i, str))

    def count(unit: str, sign: int) -> None:
        if unit in now and side_of.get(unit) in running:
            running[side_of[unit]] += sign * now[unit]

    out = {s: [0] * current for s in sides}
    for s, total in running.items():
        out[s][current - 1] = total
    # Only the ends of turns and the events that changed a unit's SP (or made or removed a
    # unit, whose row names its SP) matter: each is found through its index (models.tables).
    ends = {n: words for n, words, undone in db.execute(indexed(TURN_ENDS, EVENT.c.description, EVENT.c.undone)) if not undone}
    changed = [n for n, undone in db.execute(indexed(STRENGTH_CHANGES, EVENT.c.undone)) if not undone]
    for event in _newest_first(db, ends, changed, look_up):
        if event.description.startswith("End of turn "):
            ended = current_turn_ended(event.description)
            if ended is not None and 1 <= ended < current:
                for s, total in running.items():
                    out[s][ended - 1] = total
        for change in reversed(event.changes):
            if change.get("table") != "unit":
                continue
            unit_id = change["key"].get("id")
            before, after = change.get("before"), change.get("after")
            if before is None:  # created by this event: before it, the unit was not there
                count(unit_id, -1)
                now.pop(unit_id, None)
            elif after is None:  # removed by this event: before it, it was
                if before.get("kind") != "dummy":
                    count(unit_id, -1)
                    now[unit_id] = int(before.get("strength_points", 0))
                    side_of[unit_id] = nation_side.get(before.get("nation", ""), "")
                    count(unit_id, 1)
            elif "strength_points" in before and unit_id in now:
                count(unit_id, -1)
                now[unit_id] = int(before["strength_points"])
                count(unit_id, 1)
    return out


class _Seen:
    """An event as _sp_by_turn reads it: its description and changes."""

    __slots__ = ("description", "changes")

    def __init__(self, description: str, changes: list) -> None:
        self.description, self.changes = description, changes


def _newest_first(db: Any, ends: dict[int, str], changed: list[int], seen: Callable[[list], None]) -> Iterator[_Seen]:
    """The turn ends and the events that changed SP, newest first; the changes read a batch at a
    time, and each batch's changes given to `seen` before its events are."""
    order = sorted({*ends, *changed}, reverse=True)
    wanted = set(changed)
    for start in range(0, len(order), 500):
        batch = order[start:start + 500]
        reading = [n for n in batch if n in wanted]
        query = select(EVENT.c.id, EVENT.c.changes).where(EVENT.c.id.in_(reading))
        read = {number: changes for number, changes in db.execute(query)} if reading else {}
        seen([c for changes in read.values() for c in changes])
        for number in batch:
            yield _Seen(ends.get(number, ""), read.get(number, []))


def current_turn_ended(description: str) -> int | None:
    """'End of turn 3: turn 4 begins' -> 3."""
    word = description.removeprefix("End of turn ").split(":", 1)[0]
    return int(word) if word.isascii() and word.isdigit() and len(word) <= 9 else None  # "²" is a digit to isdigit


def _battle_losses(session: CampaignSession, db: Any, out: Story) -> None:
    for battle in db.execute(select(BATTLES.c.id, BATTLES.c.turn, BATTLES.c.losses, BATTLES.c.result).where(BATTLES.c.status == "done")):
        fight = load(session, battle.id)
        lost = battle.losses.get("sides", {})
        pursuit = 0
        if fight.battle is not None and fight.battle.pursuit_result is not None:
            pursuit = fight.battle.pursuit_result.sp_lost
        elif fight.battle is None:
            pursuit = fight.pursuit_loss()
        loser = None
        if battle.result:
            winner = ATTACKER if battle.result.startswith(ATTACKER) else DEFENDER
            loser = DEFENDER if winner == ATTACKER else ATTACKER
        for role in (ATTACKER, DEFENDER):
            side = fight.participants.get(role, {}).get("side")
            taken = int(lost.get(role, 0))
            chased = pursuit if role == loser else 0
            if side in out.losses and 1 <= battle.turn <= len(out.turns):
                out.losses[side][BATTLE][battle.turn - 1] += taken - chased
                out.losses[side][PURSUIT][battle.turn - 1] += chased


def _march_losses(db: Any, out: Story, nation_side: dict[str, str]) -> None:
    """The SP each forced-march action took, by the side of the unit and the turn it was in."""
    end_ids = turn_end_events(db)
    marches = [n for n, undone in db.execute(indexed(FORCED_MARCHES, EVENT.c.undone)) if not undone]
    units: dict[str, tuple[str, int]] = {}
    for event in events_in_order(db, marches):
        turn = 1 + bisect.bisect_left(end_ids, event.id)
        named = {c["key"].get("id") for c in event.changes if c.get("table") == "unit"}
        units.update(_units(db, {u for u in named if isinstance(u, str)} - set(units), nation_side))
        for change in event.changes:
            before, after = change.get("before") or {}, change.get("after") or {}
            if change.get("table") != "unit" or "strength_points" not in before or "strength_points" not in after:
                continue
            side = units.get(change["key"].get("id"), ("", 0))[0]
            if side in out.losses and 1 <= turn <= len(out.turns):
                out.losses[side][FORCED_MARCH][turn - 1] += int(before["strength_points"]) - int(after["strength_points"])


def _weather(db: Any, options: dict[str, str]) -> Iterator[TurnWeather]:
    from rules.allemagne1813.movement import movement_points
    from rules.allemagne1813.weather import weather_name

    for number, date, weather in db.execute(select(TURN.c.number, TURN.c.date, TURN.c.weather).order_by(TURN.c.number)):
        mp = movement_points("infantry", weather_name(weather), options=options).total if weather else None
        yield TurnWeather(number, f"{date:%d %b}", weather, mp)

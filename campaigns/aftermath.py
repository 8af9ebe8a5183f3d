"""After a battle is applied: the loser's retreat (option loser_retreat).

The card prints no retreat; by default the umpire is asked (R on the battles screen,
`adjutant retreat FILE BATTLE PLACE`) to take the beaten force at the battle's place to an
adjacent place of his choosing. A place held by the enemy needs his reason, which is
recorded. The beaten side's other generals at the place, who did not fight, go with it when
no unit of their side stays there (option retreat_generals_left): a staff is not left alone
among the victors. The retreat is one action that can be undone, recorded with the battle's
losses; its entry in the history names who moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.battles import ATTACKER, DEFENDER, load, title
from campaigns.errors import CampaignError, plainly
from campaigns.gazetteer import GazetteerError, gazetteer
from campaigns.session import CampaignSession

UMPIRE_CHOOSES = "umpire_chooses"  # the option loser_retreat's default (rules/allemagne1813/options.toml)
WITH_THE_RETREAT = "go_with_the_retreat"  # the option retreat_generals_left's default


@dataclass(frozen=True)
class Retreat:
    """What a retreat from a battle can move, and where to."""

    battle_id: int
    place: str  # the battle's place, as the gazetteer names it
    loser: str  # "attacker" or "defender"
    units: tuple[tuple[str, str], ...]  # (id, name) of the loser's units still at the place
    generals: tuple[tuple[str, str], ...]  # (id, name) of the loser's generals still at the place
    choices: tuple[tuple[str, bool], ...]  # each adjacent place, and whether the enemy holds it
    # (id, name) of the beaten side's generals at the place who did not fight, and go with the
    # retreat since none of their side's units stays there (option retreat_generals_left)
    alone: tuple[tuple[str, str], ...] = ()

    def moving(self) -> str:
        """Who retreats, in words: generals, units, then the generals who go with them."""
        named = ", ".join(name for _, name in (*self.generals, *self.units))
        if self.alone:
            named += f"; with them, left alone at {self.place}: " + ", ".join(name for _, name in self.alone)
        return named

    def describe(self, to: str, enemy: bool) -> str:
        held = " (held by the enemy: the umpire gives his reason)" if enemy else ""
        return f"{to}{held}"


def _enemy_places(db: Any, enemy_side: str) -> set[str]:
    from sqlalchemy import select
    from sqlmodel import col

    from models import Nation, Unit

    nations = list(db.scalars(select(col(Nation.id)).where(col(Nation.side) == enemy_side)))
    return {
        loc for loc in db.scalars(
            select(col(Unit.location)).where(col(Unit.nation).in_(nations), col(Unit.location) != "", col(Unit.kind) != "dummy",
                                        col(Unit.strength_points) > 0).distinct()
        )
    }


def plan_retreat(session: CampaignSession, battle_id: int) -> Retreat:
    """The loser's forces still at the battle's place and the adjacent places they may go to;
    one sentence when there is no retreat to make."""
    from models import Battle as BattleRow
    from models import General, Unit

    rule = session.options().get("loser_retreat", UMPIRE_CHOOSES)
    if rule != UMPIRE_CHOOSES:
        raise CampaignError(f"under the option loser_retreat = {rule} the loser stays; the umpire moves it by hand")
    fight = load(session, battle_id)
    if fight.status != "done" or not fight.result:
        raise CampaignError(f"{title(fight)} is not applied yet: apply its result (a), then retreat the loser")
    if "sides" not in fight.setup:
        raise CampaignError(f"{title(fight)} was played with units entered by hand: it has no campaign forces to retreat")
    winner = fight.result.split(" wins", 1)[0]
    if winner not in (ATTACKER, DEFENDER):
        raise CampaignError(f"{title(fight)} names no winner: the umpire moves the forces by hand")
    loser = DEFENDER if winner == ATTACKER else ATTACKER
    try:
        place = gazetteer().place(fight.location).name
    except GazetteerError as exc:
        raise CampaignError(str(exc)) from None
    sides = fight.setup["sides"]
    take_alone = session.options().get("retreat_generals_left", WITH_THE_RETREAT) == WITH_THE_RETREAT
    with plainly(), session.store.read() as db:
        row = db.get_one(BattleRow, battle_id)
        if isinstance(row.losses, dict) and row.losses.get("retreat"):
            done = row.losses["retreat"]
            raise CampaignError(f"the {done.get('side')} retreated from {title(fight)} already, to {done.get('to')} (u undoes it)")
        units = [u for u in (db.get(Unit, i) for i in sides[loser]["units"]) if u is not None and u.location == place]
        generals = [g for g in (db.get(General, x["id"]) for x in sides[loser]["generals"]) if g is not None and g.location == place]
        enemy = _enemy_places(db, sides[winner]["side"])
        alone = []
        if take_alone:
            alone = _left_alone(db, sides[loser]["side"], place, {u.id for u in units}, {g.id for g in generals})
    if not units and not generals:
        raise CampaignError(f"nothing of the {loser} stands at {place} any more: there is nothing to retreat")
    return Retreat(
        battle_id, place, loser,
        tuple((u.id, u.name) for u in units), tuple((g.id, g.name) for g in generals),
        tuple((to, to in enemy) for to in sorted(gazetteer().neighbours(place))),
        tuple((g.id, g.name) for g in alone),
    )


def _left_alone(db: Any, side: str, place: str, retreating: set[str], fought: set[str]) -> list[Any]:
    """The generals of `side` at `place` who did not fight (not in `fought`), when none of the
    side's units (dummies aside) stays there once the `retreating` ones leave; else none."""
    from sqlalchemy import select
    from sqlmodel import col

    from models import General, Nation, Unit

    nations = select(col(Nation.id)).where(col(Nation.side) == side)
    staying = db.scalars(
        select(col(Unit.id)).where(col(Unit.nation).in_(nations), col(Unit.location) == place, col(Unit.kind) != "dummy",
                                   col(Unit.strength_points) > 0, col(Unit.id).not_in(retreating)).limit(1)
    ).first()
    if staying is not None:
        return []
    return [g for g in db.scalars(
        select(General).where(col(General.nation).in_(nations), col(General.location) == place).order_by(col(General.rank).desc(), col(General.name))
    ) if g.id not in fought]


def retreat(session: CampaignSession, battle_id: int, to_text: str, reason: str = "") -> str:
    """Move the loser's forces at the battle's place to an adjacent place, as one action."""
    from models import Battle as BattleRow
    from models import General, Unit

    plan = plan_retreat(session, battle_id)
    try:
        to = gazetteer().place(to_text).name
    except GazetteerError as exc:
        raise CampaignError(str(exc)) from None
    held = dict(plan.choices)
    if to not in held:
        raise CampaignError(
            f"{to} is not one road from {plan.place}: the loser retreats to "
            + (", ".join(held) if held else "no place (no road leaves it)")
        )
    from campaigns.text import TextError, plain_name

    try:  # typed in a form or on a command line: recorded in the history as written
        reason = plain_name(reason, "the umpire's reason")
    except TextError as exc:
        raise CampaignError(str(exc)) from None
    if held[to] and not reason:
        raise CampaignError(f"the enemy holds {to}: a retreat there needs the umpire's reason")
    fight = load(session, battle_id)
    why = f"; the umpire's reason: {reason}" if held[to] else ""
    note = f"retreated from the battle of {plan.place} (#{battle_id})"
    with plainly(), session.store.action(f"{title(fight)}: the {plan.loser} retreats to {to}: {plan.moving()}{why}") as db:
        for unit_id, _ in plan.units:
            unit = db.get_one(Unit, unit_id)
            unit.location, unit.march_note = to, note
        for general_id, _ in (*plan.generals, *plan.alone):
            general = db.get_one(General, general_id)
            general.location, general.march_note = to, note
        row = db.get_one(BattleRow, battle_id)
        record: dict[str, Any] = {
            "side": plan.loser, "to": to, "units": [u for u, _ in plan.units], "generals": [g for g, _ in plan.generals],
        }
        if plan.alone:
            record["alone"] = [g for g, _ in plan.alone]
        if held[to]:
            record["reason"] = reason
        row.losses = {**(row.losses or {}), "retreat": record}
    return f"The {plan.loser} retreats from {plan.place} to {to}: {plan.moving()}{why}"

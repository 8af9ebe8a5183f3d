"""The turn: the army commanders' initiative roll, a contest of the initiative, the
turn ended by initiative rolls of 17 or more, and what keeps a phase from ending.

Who holds the initiative, and a turn ended by the dice, are facts of the battle, not of
a unit: they are kept in the battle's own state (Request.battle), for the turn. Any unit
of a side rolls for its army commander; the winner's side holds the initiative.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_d10 import initiative as initiating
from rules.napoleonic_d10.data import band_label, card, cell_text, options_of, values_of
from rules.napoleonic_d10.resolver.prepare import (
    label,
    mods_text,
    scratch,
    ticked_one,
)
from rules.napoleonic_d10.resolver.units import (
    AMMO_ROLL,
    INITIATIVE,
    MORALE_DUE,
    REASONS,
    SURRENDERING,
    TURN_OVER,
)
from rules.resolver import BattleValue, Number, Outcome, Prepared, Request, Roll, Tick, Unit
from rules.resolver import other as enemy_of

RATED = [str(v) for v in values_of("initiative_modifiers", "modifier") if v != "grand_tac"]
SPEC = card().dice.initiative
ENDS_AT = card().initiative.turn_ends_at
CONTEST = ("Division or better commanders may contest the initiative; they roll against the active division "
           "(corps or army if attached) commander")

HELD = "initiative_held"  # the side that won the initiative last, for option initiative_tie = holder_keeps

# the battle's own state: the initiative and a turn ended by the dice for the turn; who
# held it last for the whole battle (a tie the next turn may go to the holder)
BATTLE_STATE = (
    BattleValue(INITIATIVE, "Initiative", "turn", lambda side: f"the {side} moves first"),
    BattleValue(TURN_OVER, "Turn ended", "turn", lambda _: f"initiative rolls of {ENDS_AT} or more", ends_turn=True),
    BattleValue(HELD, "Initiative held last by", "battle", lambda side: f"the {side}"),
)


def turn_over(battle: Mapping[str, Any]) -> bool:
    return bool(battle.get(TURN_OVER))


def holder(request: Request) -> str | None:
    """The side holding the initiative this turn, if it was rolled. (A battle stored before
    the battle kept a state of its own marked the winner's unit instead, for that turn.)"""
    held = request.battle.get(INITIATIVE)
    if held is None:
        held = next((u.side for u in request.units.values() if u.has(INITIATIVE)), None)
    return held


def in_turn(prepare: Callable[[Request], Prepared]) -> Callable[[Request], Prepared]:
    """A phase's resolution: refused once the initiative dice have ended the turn."""

    def checked(request: Request) -> Prepared:
        if turn_over(request.battle):
            raise RulesError(f"the turn has ended (initiative rolls of {ENDS_AT} or more): n goes on to the next turn")
        return prepare(request)

    return checked


def pending(phase: str, battle: Mapping[str, Any]) -> list[str]:
    """The initiative is rolled before its phase ends."""
    if phase == "initiative" and not (battle.get(INITIATIVE) or battle.get(TURN_OVER)):
        return ["the two army commanders roll for initiative at the beginning of the turn (r on any unit)"]
    return []


def unfinished(phase: str, units: Mapping[str, Unit]) -> list[str]:
    """What units must roll before the phase ends: every pending roll."""
    out = []
    for u in units.values():
        if u.removed:
            continue
        if u.has(SURRENDERING):
            out.append(f"{u.name} rolls 1d10 for the percentage of the unit which surrenders")
        if u.has(AMMO_ROLL):
            out.append(f"{u.name} rolled a natural 10: roll again for ammunition")
        if u.has(MORALE_DUE):
            out.append(f"{u.name} must check morale: {u.attr(REASONS) or 'Check morale every time'}")
    return out


def ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    out = []
    for who, words in (("own", "this side's commander"), ("other", "the other commander")):
        out += [Tick(f"{who}_{r}", f"{words}: {label('initiative_modifiers', r)}") for r in RATED]
    out.append(Tick("holds", "this side holds the initiative (option initiative_tie = holder_keeps)"))
    return out


def prefill(action: str, actor: Unit, leaders, battle: Mapping[str, Any]) -> frozenset[str]:
    """The commanders' ratings ticked from the forces, and 'holds' from the battle. The
    hand-off keeps each leader's rating but not his rank, so the best-rated leader present
    is read as the side's commander; the umpire unticks it when another commands."""
    if action not in ("initiative", "contest_initiative"):
        return frozenset()
    holds = {"holds"} if battle.get(HELD) == actor.side else set()
    ladder = ("poor", "average", "good", "excellent", "superior")
    best: dict[str, str] = {}
    for side, _name, rating in leaders:
        if rating in ladder and ladder.index(rating) > ladder.index(best.get(side, "poor")):
            best[side] = rating
        best.setdefault(side, rating)
    out = holds
    for who, side in (("own", actor.side), ("other", enemy_of(actor.side))):
        if best.get(side) in RATED:
            out.add(f"{who}_{best[side]}")
    return frozenset(out)


def numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("grand_tac_own", "Grand-Tac points allotted by this side", 0, 20, 0),
            Number("grand_tac_other", "Grand-Tac points allotted by the other side", 0, 20, 0)]


def _other_side(request: Request) -> str:
    """The side rolling against the actor's: the target's in a contest, else the enemy army's."""
    return request.target.side if request.target is not None else enemy_of(request.actor.side)


def _commanders(request: Request) -> tuple[initiating.Commander, initiating.Commander]:
    own = ticked_one(request, [f"own_{r}" for r in RATED], "rating for this side's commander")
    other = ticked_one(request, [f"other_{r}" for r in RATED], "rating for the other commander")
    return (
        initiating.Commander(own[4:] if own else "average", request.numbers.get("grand_tac_own", 0), request.actor.side),
        initiating.Commander(other[6:] if other else "average", request.numbers.get("grand_tac_other", 0), _other_side(request)),
    )


def command_radii() -> str:
    """Command Radius by level, as the card prints it."""
    return "Command Radius: " + ", ".join(
        f"{band_label('command_radius', 'level', level)} {cell_text('command_radius', level=level)}" for level in values_of("command_radius", "level"))


def prepare(request: Request) -> Prepared:
    held = holder(request)
    if request.action == "initiative" and held is not None:
        raise RulesError(f"initiative was rolled this turn: the {held} moves first")
    if request.action == "contest_initiative" and held is None:
        raise RulesError("the army commanders roll for initiative at the beginning of the turn, before any contest")
    first, second = _commanders(request)
    odds = initiating.initiative_odds(first, second, request.options)
    mods = (f"{first.name} {mods_text(initiating.initiative_modifiers(first, request.options))}; "
            f"{second.name} {mods_text(initiating.initiative_modifiers(second, request.options))}")
    notes: tuple[str, ...] = ()
    if request.action == "contest_initiative":
        notes = (CONTEST, command_radii())
    return Prepared(
        f"initiative: each commander rolls {SPEC}",
        f"the high modified die wins ({mods}); combined rolls of {ENDS_AT} or more end the turn",
        None,
        (("Initiative", {f"{first.name} wins": odds[initiating.FIRST], f"{second.name} wins": odds[initiating.SECOND],
                         "equal": odds["equal"]}),
         ("The turn ends immediately", {"yes": odds["turn_ends"], "no": 1 - odds["turn_ends"]})),
        notes,
        rolls=(Roll("first", f"the {first.name}'s commander", SPEC, first.name),
               Roll("second", f"the {second.name}'s commander", SPEC, second.name)),
    )


def resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    first, second = _commanders(request)
    a, b = record.of("first"), record.of("second")
    kept = None
    if options_of(request.options)["initiative_tie"] == "holder_keeps":
        kept = initiating.FIRST if "holds" in request.ticked else initiating.SECOND
    rolled = initiating.roll_initiative(first, second, scratch(), holder=kept, first_entered=a,
                                        second_entered=b, options=request.options)
    dice = f"{rolled.first_record.result} against {rolled.second_record.result}"
    if rolled.turn_ends:
        return Outcome(f"the combined rolls equal or exceed {ENDS_AT}: the turn ends immediately",
                       battle={TURN_OVER: True})
    if rolled.winner is None:
        return Outcome(f"{dice}: equal modified dice, nobody has won: both commanders roll again")
    winner = request.actor.side if rolled.winner == initiating.FIRST else _other_side(request)
    verb = "takes" if request.action == "contest_initiative" and winner == request.actor.side else "has"
    return Outcome(f"{dice}: the high modified die wins; the {winner} {verb} the initiative and moves first",
                   battle={INITIATIVE: winner, HELD: winner})

"""The turn: the army commanders' initiative roll, a contest of the initiative, the
turn ended by initiative rolls of 17 or more, and what keeps a phase from ending.

A unit of each army stands for its army commander: the acting unit's side rolls
first; the winner's unit holds the initiative (a state) for the turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

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
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Roll, Tick, Unit
from rules.resolver import other as enemy_of

RATED = [str(v) for v in values_of("initiative_modifiers", "modifier") if v != "grand_tac"]
SPEC = card()["dice"]["initiative"]
ENDS_AT = card()["initiative"]["turn_ends_at"]
CONTEST = ("Division or better commanders may contest the initiative; they roll against the active division "
           "(corps or army if attached) commander")


def turn_over(units: Mapping[str, Unit]) -> bool:
    return any(u.has(TURN_OVER) for u in units.values())


def holder(units: Mapping[str, Unit]) -> Unit | None:
    """The unit whose side holds the initiative this turn, if it was rolled."""
    return next((u for u in units.values() if u.has(INITIATIVE)), None)


def in_turn(prepare: Callable[[Request], Prepared]) -> Callable[[Request], Prepared]:
    """A phase's resolution: refused once the initiative dice have ended the turn."""

    def checked(request: Request) -> Prepared:
        if turn_over(request.units):
            raise RulesError(f"the turn has ended (initiative rolls of {ENDS_AT} or more): go on to the next turn")
        return prepare(request)

    return checked


def unfinished(phase: str, units: Mapping[str, Unit]) -> list[str]:
    """What must be rolled before the phase ends: initiative, and every pending roll."""
    out = []
    if phase == "initiative" and not any(u.has(INITIATIVE) or u.has(TURN_OVER) for u in units.values()):
        out.append("the two army commanders roll for initiative at the beginning of the turn")
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


def prefill(action: str, actor: Unit, leaders) -> frozenset[str]:
    """The commanders' ratings ticked from the forces. The hand-off keeps each leader's
    rating but not his rank, so the best-rated leader present is read as the side's
    commander; the umpire unticks it when another commands."""
    if action not in ("initiative", "contest_initiative"):
        return frozenset()
    ladder = ("poor", "average", "good", "excellent", "superior")
    best: dict[str, str] = {}
    for side, _name, rating in leaders:
        if rating in ladder and ladder.index(rating) > ladder.index(best.get(side, "poor")):
            best[side] = rating
        best.setdefault(side, rating)
    out = set()
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


def _stands_for(request: Request, side: str) -> Unit:
    """The unit that holds the initiative for `side` when it wins: the target in a contest,
    else the side's first unit on the table (the initiative belongs to the army)."""
    if request.target is not None and request.target.side == side:
        return request.target
    present = sorted((u for u in request.units.values() if u.side == side and not u.removed), key=lambda u: u.id)
    if not present:
        raise RulesError(f"the {side} has no unit on the table to hold the initiative")
    return present[0]


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
    held = holder(request.units)
    if request.action == "initiative" and held is not None:
        raise RulesError(f"initiative was rolled this turn: the {held.side} moves first")
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
                       (Effect(request.actor.id, add={TURN_OVER: 1}),))
    if rolled.winner is None:
        return Outcome(f"{dice}: equal modified dice, nobody has won: both commanders roll again")
    winner = request.actor if rolled.winner == initiating.FIRST else _stands_for(request, _other_side(request))
    effects = [Effect(u.id, clear=(INITIATIVE,)) for u in request.units.values() if u.has(INITIATIVE) and u.id != winner.id]
    effects.append(Effect(winner.id, add={INITIATIVE: 1}))
    verb = "takes" if request.action == "contest_initiative" and winner is request.actor else "has"
    return Outcome(f"{dice}: the high modified die wins; the {winner.side} {verb} the initiative and moves first",
                   tuple(effects))

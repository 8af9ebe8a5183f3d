"""The 13-phase turn as the resolver's checklist: the resolutions open in each phase, the
tests the card makes compulsory before a phase ends, and the card's plain rolls (d6”
retire, d6 casualties) that are resolutions of their own."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_13phase.data import RULESET, card
from rules.napoleonic_13phase.data import phase as card_phase
from rules.napoleonic_13phase.resolver.morale import STAND_PHASES
from rules.napoleonic_13phase.resolver.units import (
    AUSTRIAN,
    CASUALTIES,
    CHARGE_MARKER,
    CHARGING,
    CLOSING,
    CONTACT,
    D6_CASUALTIES,
    FRENCH,
    IN_MELEE,
    LOST_MELEE,
    RECALL_FAILED,
    RETIRES,
    TARGET,
    casualty_words,
    inches,
    nation,
    odds,
    phase_number,
)
from rules.napoleonic_13phase.rolls import card_roll
from rules.napoleonic_13phase.sequence import turn_sequence
from rules.options import resolve_options
from rules.resolver import BOTH, Effect, Outcome, Phase, Prepared, Request, Unit

_BY_KIND = {
    "artillery_fire": ("artillery_fire", "artillery_behind", "unlimber"),
    "move_and_fire": ("move", "change_formation", "charge", "fire", "square_fire", "skirmishers_evade"),
    "melee": ("melee", "support"),
    "recall": ("recall",),
}
_PLAIN_ROLLS = ("loser_retires", "cannot_form_line")  # the card's rolls that are resolutions of their own


def _actions_of(number: int) -> tuple[str, ...]:
    kind_of = card_phase(number).kind
    if kind_of in _BY_KIND:
        return _BY_KIND[kind_of]
    actions = ["stand", "change_formation"] if number in STAND_PHASES else ["morale"]
    if number == 5:
        actions.append("guard_presses")
    if number in (7, 12):
        actions.append("change_formation")
    actions += [r for r in _PLAIN_ROLLS if number in card().rolls[r].phases]
    return tuple(actions)


def phases() -> tuple[Phase, ...]:
    out = []
    for p in turn_sequence():
        printed = f"{p.number}. {p.title}" + (f" {p.note}" if p.note else "")
        out.append(Phase(f"phase_{p.number}", f"{p.number}. {p.title}", BOTH, _actions_of(p.number), printed,
                         who=p.checklist))
    return tuple(out)


# in the phases where one side moves and the other shoots (3 and 8), who takes each act
_MOVERS = ("move", "charge", "change_formation")  # 'French Move', 'Austrians Move' (a change of formation is a move)
_SHOOTERS = ("fire", "square_fire", "skirmishers_evade")  # the side that shoots is the side charged


def not_for(phase_id: str, action: str, unit: Unit, chosen: Mapping[str, str]) -> str | None:
    """Why the card does not let `unit`'s nation take `action` in this phase, or None: in
    phase 3 the French move and the Austrians shoot, in phase 8 the other way round."""
    if not phase_id.startswith("phase_"):
        return None
    p = card_phase(int(phase_id.removeprefix("phase_")))
    if p.kind != "move_and_fire" or action not in (*_MOVERS, *_SHOOTERS):
        return None
    side = nation(unit, resolve_options(RULESET, chosen))
    acting = p.moves if action in _MOVERS else p.fires
    if side == acting:
        return None
    people = {FRENCH: "French", AUSTRIAN: "Austrians"}
    return f"in phase {p.number} ({p.title}) the {people.get(str(acting), acting)} {'move' if action in _MOVERS else 'shoot'}, not the {people[side]}"


def unfinished(phase_id: str, units: Mapping[str, Unit]) -> list[str]:
    """Tests the card makes compulsory in this phase and not yet taken."""
    number = int(phase_id.removeprefix("phase_")) if phase_id.startswith("phase_") else 0
    present = [u for u in units.values() if not u.removed]
    out = []
    if number in (2, 4, 9):
        out += [f"{u.name} took casualties and checks morale" for u in present if u.has(CASUALTIES)]
    if number in (4, 9):
        out += [f"{u.name} checks morale to close for melee" for u in present
                if u.arm == "infantry" and u.has(CHARGING) and u.attr("unit_type") == "infantry_column"
                and not any(u.has(s) for s in (CLOSING, CONTACT, IN_MELEE))]
    if number in STAND_PHASES:
        for u in present:
            target = units.get(str(u.attr(TARGET)))
            closing = u.has(CLOSING) or (u.arm == "cavalry" and not u.has(CONTACT))
            if (u.has(CHARGING) and closing and target is not None and not target.removed and target.arm == "infantry"
                    and not target.has(IN_MELEE) and not target.has(CONTACT)):
                out.append(f"{target.name} checks morale to stand against {u.name}")
    if number in (7, 12):
        out += [f"{u.name} lost a melee and checks morale" for u in present if u.has(LOST_MELEE)]
        out += [f"{u.name} retires d6” (Loser retires d6”)" for u in present if u.has(RETIRES)]
    if number in card().rolls["cannot_form_line"].phases:
        out += [f"{u.name} takes d6 casualties (unable to form line)" for u in present if u.has(D6_CASUALTIES)]
    if number == 13:
        # a failed recall lasts 2 turns from the phase it was rolled in: at 2 it was rolled this turn
        out += [f"{u.name} rolls to recall" for u in present
                if u.has(CHARGE_MARKER) and u.states.get(RECALL_FAILED) != 2]
    return out


# -- the card's plain rolls ------------------------------------------------------------------


def plain(
    roll_id: str, owed: str | None = None, why: str = "",
) -> tuple[Callable[[Request], Prepared], Callable[[Request, DiceRecord | None], Outcome]]:
    """prepare and resolve of a plain roll; `owed`: the state a result left that calls for it,
    `why`: the result that gives it, for the refusal."""

    def prepare(request: Request) -> Prepared:
        roll = card_roll(roll_id).roll_of
        if phase_number(request) not in roll.phases:
            raise RulesError(f"{roll.printed} is rolled in phases {', '.join(map(str, roll.phases))}")
        if owed and not request.actor.has(owed):
            raise RulesError(f"{request.actor.name} owes no {roll.dice.removeprefix('1')} {roll.counts}: {why}")
        casualties = roll.counts == "casualties"
        shown = odds(card_roll(roll_id).odds) if casualties else inches(card_roll(roll_id).odds)
        return Prepared(roll.printed, roll.dice + ("" if casualties else "”"), roll.dice,
                        (("Casualties" if casualties else "Inches", shown),))

    def resolve(request: Request, record: DiceRecord | None) -> Outcome:
        prepare(request)
        assert record is not None
        if card_roll(roll_id).roll_of.counts == "casualties":
            clear = (owed,) if owed else ()
            return Outcome(f"takes {casualty_words(record.result)}", (Effect(request.actor.id, lost=record.result, clear=clear),))
        clear = (owed,) if owed else ()
        return Outcome(f"retires {record.result}”; the winner follows up", (Effect(request.actor.id, clear=clear),))

    return prepare, resolve

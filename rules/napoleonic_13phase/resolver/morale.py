"""Morale on the resolver screen: the checks of phases 2, 4, 7, 9 and 12, with the results
that halt, rout or form line (d6 casualties when a unit cannot), and the recall of cavalry
in phase 13.  The tests to stand (phases 5 and 10) are in `standing`."""

from __future__ import annotations

from collections.abc import Callable

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_13phase import morale as morales
from rules.napoleonic_13phase.data import card
from rules.napoleonic_13phase.resolver.units import (
    AUSTRIAN,
    CASUALTIES,
    CHARGE_MARKER,
    CHARGING,
    CLOSING,
    CONTACT,
    D6_CASUALTIES,
    HALTED,
    HELD_OFF,
    IN_MELEE,
    LOST_MELEE,
    OPPONENT,
    RECALL_FAILED,
    RETIRES,
    TARGET,
    ends_melee,
    kind,
    options,
    phase_number,
    removed,
    side_of,
    unit_class,
)
from rules.napoleonic_13phase.sequence import turn_sequence
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

STAND_PHASES = tuple(p.number for p in turn_sequence() if "in_melee" in p.excluded)
_FLANK_PHASES = (2, 9)  # the Austrian results that print the column within 3” to the flank
Check = Callable[[Request], morales.MoraleCheck]


def morale_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    infantry = actor.arm == "infantry"
    no_line = None if infantry else "only infantry forms line"
    return [
        Tick("general_attached", "+1 General attached to unit", checked=bool(actor.attr("general"))),
        Tick("infantry_charging", "-1 Infantry Charging (phases 4 and 9)", checked=infantry and actor.has(CHARGING),
             excluded=None if infantry else "only infantry takes -1 Infantry Charging"),
        Tick("unable_to_form_line", "unable to form line if the result requires it (d6 casualties)", excluded=no_line),
        Tick("column_on_flank", "another Austrian infantry column within 3” to the flank (d6 casualties; phases 2 and 9)",
             excluded=no_line),
    ]


def recall_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return morale_ticks(actor, target)[:2]


def casualty_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    # read only under option casualties_counted = this_phase; the default counts the battle's (the note says which)
    return [Number("casualties_this_phase", "Casualties this phase (counted only if option casualties_counted = this_phase)", 0)]


def morale_test(request: Request, number: int) -> morales.MoraleTest:
    actor = request.actor
    found = kind(actor)
    cavalry_charging = found.arm == "cavalry" and actor.has(CHARGING)
    return morales.MoraleTest(
        phase=number,
        side=side_of(request),
        unit=found.id,
        unit_class=unit_class(actor),
        casualties=actor.lost,
        casualties_this_phase=request.numbers.get("casualties_this_phase", 0),
        general_attached="general_attached" in request.ticked,
        charging="infantry_charging" in request.ticked or cavalry_charging,  # charging cavalry: refused in 4 and 9
        charged_in_flank_or_rear="flank_or_rear" in request.ticked,
        in_melee=actor.has(IN_MELEE),
    )


def prepared(check: Check, what: str) -> Callable[[Request], Prepared]:
    """The prepare of a test: the pass value with its modifiers, and the odds of each result."""

    def prepare(request: Request) -> Prepared:
        done = check(request)
        mods = "".join(f", {m.value:+d} {m.label}" for m in done.modifiers)
        needed = f"{done.pass_on} or less on 1d6 ({done.test.unit_class.title()} {done.printed}{mods})"
        if options(request)["casualties_counted"] == "total":
            note = f"-1 per 3 casualties: {request.actor.lost} casualties in the battle"
        else:
            note = f"-1 per 3 casualties: {request.numbers.get('casualties_this_phase', 0)} casualties this phase"
        return Prepared(f"{what}, phase {done.phase.number}: {done.phase.title}", needed, card().morale.dice,
                        (("Result", done.odds()),), (note,))

    return prepare


def rolled(check: Check, request: Request, record: DiceRecord | None) -> tuple[morales.MoraleCheck, str, str]:
    """The check, its outcome on the die, and the result in the card's words."""
    assert record is not None
    done = check(request)
    outcome = done.outcome(record.result)
    return done, outcome, f"{done.label(outcome)}: {for_side(done.text(outcome), done.phase.number, side_of(request))}"


def for_side(text: str, number: int, side: str) -> str:
    """The card's result as a unit of `side` reads it: the sentences printed for the other
    nation's own troops only (rules.toml [morale] side_only) are left out."""
    for part in card().morale.side_only:
        if part.phase == number and part.nation != side:
            text = " ".join(text.replace(part.printed, "").split())
    return text


# -- phases 2, 4, 7, 9 and 12 ---------------------------------------------------------------


def _has_cause(unit: Unit, number: int) -> None:
    """The phase's heading says who tests: units that took casualties, charging infantry, losers."""
    if number == 2 and not unit.has(CASUALTIES):
        raise RulesError(f"{unit.name} took no artillery casualties: it does not check morale in phase 2")
    if number in (4, 9) and not unit.has(CASUALTIES) and not (unit.arm == "infantry" and unit.has(CHARGING)):
        raise RulesError(f"{unit.name} took no shooting casualties and is not closing for melee: it does not check morale in phase {number}")
    if number in (7, 12) and not unit.has(LOST_MELEE):
        raise RulesError(f"{unit.name} did not lose a melee: it does not check morale in phase {number}")


def _forms_line(request: Request, number: int) -> bool:
    """Whether Fail by 1 or 2 makes this unit form line: Austrian columns and masse (2), charging
    columns (4, 9), infantry not in line (7, 12)."""
    actor, found = request.actor, kind(request.actor)
    if number == 2:
        return side_of(request) == AUSTRIAN and found.formation in ("column", "masse")
    if number in (4, 9):
        return found.formation == "column" and actor.has(CHARGING)
    return number in (7, 12) and found.arm == "infantry" and found.formation != "line"


def _check_line_ticks(request: Request, number: int) -> None:
    ticked = {"unable_to_form_line", "column_on_flank"} & request.ticked
    if ticked and not _forms_line(request, number):
        raise RulesError(f"{request.actor.name} does not form line on a failed test in phase {number}: it takes no d6 casualties for it")
    if "column_on_flank" in ticked and (number not in _FLANK_PHASES or side_of(request) != AUSTRIAN):
        raise RulesError("d6 casualties for another Austrian infantry column within 3” to the flank are for Austrians in phases 2 and 9")


def morale_check(request: Request) -> morales.MoraleCheck:
    number = phase_number(request)
    if number in STAND_PHASES:
        raise RulesError(f"in phase {number} the charged infantry checks morale to stand against the unit charging it")
    _has_cause(request.actor, number)
    _check_line_ticks(request, number)
    return morales.morale_check(morale_test(request, number), request.options)


def morale_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    check, outcome, words = rolled(morale_check, request, record)
    actor = request.actor
    tested = (CASUALTIES, LOST_MELEE)
    if outcome == morales.ROUT:
        return Outcome(words, (Effect(actor.id, clear=tested), *removed(actor, request.units, destroyed=False)))
    number = check.phase.number
    add: dict[str, int | None] = {}
    clear: list[str] = list(tested)
    form: dict[str, str | None] = {}
    if outcome == morales.PASS:
        if number in (4, 9) and kind(actor).formation == "column" and actor.has(CHARGING):
            add[CLOSING] = 1
        return Outcome(words, (Effect(actor.id, add=add, clear=tuple(clear)),))
    if number == 2:
        add[HALTED] = 1
    if number in (4, 9) and actor.has(CHARGING):
        # "Charging infantry columns form line 2” from target ... Others stand in place": a
        # charger that fails to close does not reach its target, so it is in contact with
        # nobody (held off: the melee of phase 6 or 11 no longer offers it)
        clear.append(CHARGING)
        add[HELD_OFF] = 1
        form[TARGET] = None  # no target's test to stand: a Guard held off here does not press on
    if number in (7, 12) and kind(actor).arm == "infantry" and not _forms_line(request, number):
        # "If already in line, loser retires d6” and the winner follows up": owed, and only then
        add[RETIRES] = None
        words += f" {actor.name} retires d6”: roll it (Loser retires d6”)."
    if _forms_line(request, number):
        if "unable_to_form_line" not in request.ticked:
            form["unit_type"] = "infantry_line"
        if {"unable_to_form_line", "column_on_flank"} & request.ticked:
            add[D6_CASUALTIES] = None
            words += f" {actor.name} takes d6 casualties: roll them."
    return Outcome(words, (Effect(actor.id, add=add, clear=tuple(clear), set=form),))


# -- phase 13: recall -------------------------------------------------------------------------


def recall_check(request: Request) -> morales.MoraleCheck:
    return morales.recall_check(morale_test(request, phase_number(request)), request.options)


def recall_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    _, outcome, words = rolled(recall_check, request, record)
    actor = request.actor
    if outcome == morales.PASS:
        effects = (Effect(actor.id, clear=(CHARGE_MARKER, CHARGING, IN_MELEE, CONTACT), set={OPPONENT: None}),
                   *ends_melee(actor, request.units))
        return Outcome(words, effects)
    # RECALL_FAILED lasts this turn and the next: 'Next turn they cannot move'.
    lost = card().morale.recall_fail_casualties
    return Outcome(words, (Effect(actor.id, lost=lost, add={RECALL_FAILED: 2}),))

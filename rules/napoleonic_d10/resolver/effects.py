"""What the card's results do to units: casualty steps, morale states and how long
they last, removal, and the morale checks a result makes due."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules.errors import RulesError
from rules.napoleonic_d10 import skirmish as skirmishing
from rules.napoleonic_d10.data import card, cell_text, options_of
from rules.napoleonic_d10.resolver.prepare import legend
from rules.napoleonic_d10.resolver.units import (
    IN_MELEE,
    LADDER,
    MORALE_DUE,
    REASONS,
    SMOKE,
    STEPS,
    SURRENDERING,
    castings_per_stand,
    steps_taken,
)
from rules.resolver import Effect, Outcome, Request, Unit


def lasts(printed: str, options: Mapping[str, str]) -> int:
    """Turns a 'Full Turn' or '2 Full Turns' (Duration of Loss) lasts, this turn counted, by option loss_duration."""
    m = re.match(r"^(\d+)?\s*Full Turns?$", printed)
    if not m:
        raise RulesError(f"{printed!r} is not a duration in turns")
    full = int(m[1] or 1)
    return full + 1 if options_of(options)["loss_duration"] == "next_full_turns" else full


def worsen(unit: Unit, status: str, options: Mapping[str, str]) -> Effect:
    """A morale state put on: a worse state replaces the milder ones; a unit already worse stays so."""
    rank = LADDER.index(status)
    if any(unit.has(s) for s in LADDER[rank + 1:]):
        return Effect(unit.id)
    turns = lasts(cell_text("morale_duration", status=status), options)
    return Effect(unit.id, add={status: turns}, clear=tuple(s for s in LADDER[:rank] if unit.has(s)))


def casualties(unit: Unit, steps: int, options: Mapping[str, str]) -> Effect:
    """Casualty steps taken: a stand lost for each full stand of castings."""
    per = castings_per_stand(unit, options)
    before = steps_taken(unit)
    after = before + steps
    lost = min(unit.size, after // per - before // per)
    return Effect(unit.id, lost=lost, set={STEPS: after} if steps else {})


def reconcile(before: Unit, after: Unit, options: Mapping[str, str]) -> Unit:
    """A unit edited by hand: its casualty steps and its stands say the same losses.

    Stands changed: each stand lost (or given back) is a stand's castings of steps;
    steps changed: the stands follow ('a stand lost for each full stand of castings');
    both changed: they must agree."""
    per = castings_per_stand(after, options)
    steps, size = steps_taken(after), after.size
    changed_steps, changed_size = steps != steps_taken(before), size != before.size or after.start != before.start
    if changed_size and not changed_steps:
        steps = max(0, (after.start - size) * per + steps_taken(before) % per)
    elif changed_steps and not changed_size:
        size = max(0, after.start - steps // per)
    elif not changed_size:  # neither: a unit removed by a rout keeps its stands lost beyond its steps
        return after
    elif after.start - size != min(after.start, steps // per):
        raise RulesError(f"{after.name}: {size} stands of {after.start} is {(after.start - size) * per} to "
                         f"{(after.start - size) * per + per - 1} casualty steps lost ({per} castings a stand), not {steps}")
    return replace(after, size=size, attrs={**after.attrs, STEPS: steps})


def removed(unit: Unit, options: Mapping[str, str], *, surrendered: bool = False, steps: int = 0) -> Effect:
    """The unit taken off the table: every stand lost if it surrendered, or if it routed
    under option routed_stands = lost; otherwise only its casualty steps."""
    hit = casualties(unit, steps, options)
    left = unit.size - hit.lost
    lose_all = surrendered or options_of(options)["routed_stands"] == "lost"
    pending = tuple(s for s in (MORALE_DUE, SURRENDERING, IN_MELEE) if unit.has(s))
    return Effect(unit.id, lost=hit.lost + (left if lose_all else 0), set=hit.set, clear=pending, removed=True)


def merge(a: Effect, b: Effect) -> Effect:
    """Two effects on one unit as one (the framework applies them in turn; one line reads better)."""
    return Effect(a.unit, a.lost + b.lost, {**a.add, **b.add}, tuple(dict.fromkeys(a.clear + b.clear)),
                  {**a.set, **b.set}, a.removed or b.removed)


def morale_due(unit: Unit, reasons: Sequence[str]) -> Effect:
    """A morale check the unit must take ('Check morale every time'), with the card's reasons."""
    if not reasons:
        return Effect(unit.id)
    known = [r for r in str(unit.attr(REASONS, "") or "").split("; ") if r]
    return Effect(unit.id, add={MORALE_DUE: None}, set={REASONS: "; ".join(dict.fromkeys(known + list(reasons)))})


def _bracket(state: skirmishing.State) -> str:
    if state.number is None:
        return ""
    return f"; ({state.number}): the card does not say what the number in brackets counts, the umpire applies it"


def printed_state_outcome(request: Request, unit: Unit, printed: str, table_id: str) -> Outcome:
    """A result printed as a state (SH, DO, DOR, Brok, Smk; skirmish, crash through,
    disruptive terrain): the state with its Morale Loss Move, and smoke."""
    state = skirmishing.read_state(printed)
    effect, move = Effect(unit.id), ""
    if state.state is not None:
        entry = card().morale.results[state.state]
        move = f'; moves {cell_text("morale_loss_move", result=entry.move)}' if entry.move is not None else ""
        if entry.status is not None:  # a state the card gives no morale status for worsens nothing
            effect = worsen(unit, entry.status, request.options)
    if state.smoke:
        effect = merge(effect, Effect(unit.id, add={SMOKE: None}))
    text = legend(table_id, printed) + move + _bracket(state)
    return Outcome(text, (effect,) if effect.add or effect.clear else ())

"""Morale: the check on the morale table by CW level, its result on the unit (state,
Morale Loss Move, Duration of Loss, surrender or rout), the causes that make a
check due ('Check morale every time') beyond fire and melee, and crash through."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_d10 import morale as moraling
from rules.napoleonic_d10.data import card, options_of, table
from rules.napoleonic_d10.resolver.effects import (
    merge,
    morale_due,
    printed_state_outcome,
    removed,
    worsen,
)
from rules.napoleonic_d10.resolver.prepare import label, legend, mods_text, ticked_one
from rules.napoleonic_d10.resolver.units import (
    BROKEN,
    DISORDERED,
    FAR,
    FIREFIGHT,
    IN_MELEE,
    MELEE_WITH,
    MORALE_DUE,
    OUT_OF_AMMO,
    REASONS,
    SHAKEN,
    cw_level,
    disordered_or_worse,
    leader,
    losses_percent,
    unit_class,
)
from rules.napoleonic_d10.rolls import (
    UMPIRE_READS,
    TableRoll,
    distribution,
    natural_ranges,
)
from rules.odds import roll_distribution
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

CHECKS = card().morale.checks
FRIEND_WITHIN = card().morale.friend_breaks_within


def ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    out = [
        Tick("no_div_integrity", label("morale_modifiers", "no_div_integrity")),
        Tick("out_of_ammo", label("morale_modifiers", "out_of_ammo"), checked=actor.has(OUT_OF_AMMO)),
        Tick("fired_on_flank", label("morale_modifiers", "fired_on_flank")),
        Tick("in_firefight", label("morale_modifiers", "in_firefight"), checked=actor.has(FIREFIGHT)),
        Tick("flanks_covered", label("morale_modifiers", "flanks_covered")),
    ]
    out += [Tick(c, label("morale_modifiers", c)) for c in moraling.COVERS]
    out.append(Tick("downhill", label("morale_modifiers", "downhill")))
    return out


def numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("enemy_within", f"Inches to the nearest enemy Inf./Cav. in good order ({FAR}: none near)", 0, FAR, FAR)]


def _situation(request: Request) -> moraling.MoraleSituation:
    u, t = request.actor, request.ticked
    return moraling.MoraleSituation(
        unit_class(u), cw_level(u), shaken=u.has(SHAKEN), disordered=u.has(DISORDERED), broken=u.has(BROKEN),
        no_div_integrity="no_div_integrity" in t, losses_percent=losses_percent(u, request.options),
        out_of_ammo="out_of_ammo" in t, fired_on_flank="fired_on_flank" in t, in_firefight="in_firefight" in t,
        flanks_covered="flanks_covered" in t,
        cover=ticked_one(request, moraling.COVERS, "cover") or moraling.NO_COVER,
        downhill="downhill" in t, leaders=tuple(x for x in (leader(u),) if x is not None),
    )


@dataclass(frozen=True)
class MoraleRoll:
    """The morale check with option morale_roll_of_twenty: a roll the class dice make
    themselves (20) reads the top row whatever option morale_roll_beyond_table says."""

    check: TableRoll
    options: Mapping[str, str]

    def read(self, natural: int) -> str:
        modified = natural + self.check.modifier
        rows = table("morale").rows
        highest = max(roll_distribution(self.check.dice))
        if options_of(self.options)["morale_roll_of_twenty"] == "top_row" and rows.nearest(modified) < modified <= highest:
            modified = rows.nearest(modified)
        return self.check.read_modified(modified)


def _roll(request: Request) -> MoraleRoll:
    return MoraleRoll(moraling.morale_check(_situation(request), request.options), request.options)


def prepare(request: Request) -> Prepared:
    roll = _roll(request)
    needed = ", ".join(str(r) for r in natural_ranges(roll.check.dice, roll.read))
    why = request.actor.attr(REASONS)
    return Prepared(
        f"{roll.check.purpose}" + (f": {why}" if why else ""),
        f"{roll.check.dice} ({mods_text(roll.check.modifiers)}): {needed}",
        roll.check.dice,
        (("Morale", distribution(roll.check.dice, roll.read)),),
    )


def _outcome(request: Request, unit: Unit, result: str, enemy_within: int | None) -> Outcome:
    """A morale result on the unit: its state, move and duration, or its removal."""
    options = request.options
    effect = moraling.morale_effect(result, enemy_within)
    clear = Effect(unit.id, clear=(MORALE_DUE,), set={REASONS: ""})
    text = legend("morale", result)
    if effect.status is None:
        return Outcome(text, (clear,))
    retreat = effect.move is not None or effect.removed
    effects: list[Effect] = []
    if effect.routs_instead:
        text += f' -> no enemy Inf./Cav. in good order within {card().morale.surrender_within}": it routs ({effect.move})'
    if effect.removed:
        effects.append(merge(clear, removed(unit, options, surrendered=effect.status == "surrendered")))
    else:
        effects.append(merge(clear, worsen(unit, effect.status, options)))
    if retreat and unit.has(IN_MELEE):
        effects[0] = merge(effects[0], Effect(unit.id, clear=(IN_MELEE,), set={MELEE_WITH: ""}))
        other = request.units.get(str(unit.attr(MELEE_WITH, "")))
        if other is not None and other.has(IN_MELEE):
            effects.append(Effect(other.id, clear=(IN_MELEE,), set={MELEE_WITH: ""}))
            text += f"; the melee with {other.name} ends"
    if effect.status in (BROKEN, "rout", "surrendered"):
        text += f"; {CHECKS['friend_breaks']}: they check morale"
    return Outcome(text, tuple(effects))


def resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    roll = _roll(request)
    result = roll.read(record.result)
    if result == UMPIRE_READS:
        modified = record.result + roll.check.modifier
        return Outcome(f"modified roll {modified} is beyond the morale table: the umpire reads the result "
                       "(option morale_roll_beyond_table) and sets the unit's state",
                       (Effect(request.actor.id, clear=(MORALE_DUE,), set={REASONS: ""}),))
    near = request.numbers.get("enemy_within", FAR)
    return _outcome(request, request.actor, result, None if near >= FAR else near)


def crash_check(request: Request) -> TableRoll:
    return moraling.crash_through_check(_situation(request), request.options)


def crash_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    printed = crash_check(request).read(record.result)
    return printed_state_outcome(request, request.actor, printed, "crash_through")


# -- the other causes of a morale check: no dice, the check is made due ------------------


def _due(unit: Unit, event: moraling.MoraleEvent, request: Request, otherwise: str) -> Outcome:
    reasons = moraling.morale_checks_due(event, request.options)
    if not reasons:
        return Outcome(otherwise)
    return Outcome(f"{unit.name} checks morale: " + "; ".join(reasons), (morale_due(unit, reasons),))


def friend_breaks_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("friend_within", "Inches to the friendly unit that broke or routed", 0, FAR, FRIEND_WITHIN)]


def friend_breaks_prepare(request: Request) -> Prepared:
    return Prepared(f"Check morale every time: {CHECKS['friend_breaks']}",
                    f'{request.actor.name} checks morale if the friend was within {FRIEND_WITHIN}"', None)


def friend_breaks_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    unit = request.actor
    near = request.numbers.get("friend_within", FRIEND_WITHIN)
    event = moraling.MoraleEvent(unit_class(unit), friend_broke_within=near)
    return _due(unit, event, request, f'the friend was more than {FRIEND_WITHIN}" away: no morale check')


def pass_through_prepare(request: Request) -> Prepared:
    actor, target = request.actor, request.target
    assert target is not None
    if not disordered_or_worse(actor):
        raise RulesError(f"{actor.name} is in good order or only shaken: only a Disordered or worse unit passing "
                         "through makes a friend check morale")
    return Prepared(f"Check morale every time: {CHECKS['passed_through']}",
                    f"{target.name}, passed through by {actor.name}, checks morale", None)


def pass_through_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    target = request.target
    assert target is not None
    event = moraling.MoraleEvent(unit_class(target), passed_through_by_disordered=True)
    return _due(target, event, request, "no morale check")

"""Steps 1.3 and 2.1: brigade generals killed or captured are replaced, and UC that
had losses fill their ranks.  The card prints no procedure for either: the first is
recorded in the log; the second takes off, under the rules option loss_unit =
figure, the EC whose figures are gone (under loss_unit = ec every unsaved hit took
off its EC already)."""

from __future__ import annotations

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_uc_um.morale import must_test
from rules.napoleonic_uc_um.resolver.units import chosen, um
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

_FATES = {"killed": "tué (killed)", "captured": "capturé (captured)"}


def general_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return [Tick(fate, f"général de brigade {label}") for fate, label in _FATES.items()]


def _fate(request: Request) -> str:
    if len(request.ticked) != 1:
        raise RulesError("tick whether the général de brigade was killed or captured")
    return _FATES[next(iter(request.ticked))]


def general_prepare(request: Request) -> Prepared:
    return Prepared(f"remplacement du général de brigade (brigade general replaced) of UM {um(request.actor)}, "
                    f"{_fate(request)}", "no roll", None)


def general_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    return Outcome(f"UM {um(request.actor)}: général de brigade {_fate(request)} remplacé "
                   "(brigade general replaced); its UC count their command distance from the new one")


def ranks_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("ec_off", "EC retirés, leurs figurines perdues (EC taken off, their figures gone)",
                   0, actor.size, 0)]


def _ec_off(request: Request) -> int:
    if chosen(request)["loss_unit"] != "figure":
        raise RulesError("each hit not saved took off one EC already (rules option loss_unit = ec): "
                         "the ranks are filled")
    return request.numbers.get("ec_off", 0)


def ranks_prepare(request: Request) -> Prepared:
    return Prepared("comblent les rangs (fill the ranks)", f"{_ec_off(request)} EC off", None)


def ranks_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    actor, off = request.actor, _ec_off(request)
    text = f"rangs comblés (ranks filled): {off} EC off"
    if off and must_test(actor.lost + off, actor.start) and not must_test(actor.lost, actor.start):
        text += "; it has lost more than half its EC: it tests at Phase 1"
    return Outcome(text, (Effect(actor.id, lost=off),) if off else ())

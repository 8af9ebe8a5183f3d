"""Phase 1: the morale tests of a UC, then its UM, that lost more than half its
'effectifs', and of a division that lost more than half its UM."""

from __future__ import annotations

from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.napoleonic_uc_um.morale import (
    formation_temperament,
    morale_check,
    must_test,
    roll_morale,
)
from rules.napoleonic_uc_um.resolver.morale import (
    broken_effects,
    morale_situation,
    morale_ticks,
)
from rules.napoleonic_uc_um.resolver.shown import Given, test_prepared, words
from rules.napoleonic_uc_um.resolver.units import (
    chosen,
    division,
    members,
    not_broken,
    standing,
    temperament,
    um,
)
from rules.napoleonic_uc_um.rolls import Check
from rules.resolver import Outcome, Prepared, Request, Tick, Unit


def _test(request: Request) -> tuple[Check, str, list[Unit]]:
    """The Phase 1 test of the actor's UC, UM or division: the check, what tests, and the UC it breaks."""
    actor = request.actor
    if request.action == "loss_test":
        if not must_test(actor.lost, actor.start):
            raise RulesError(f"{actor.name} has lost {actor.lost} of its {actor.start} EC: "
                             "not more than half ('+ de la moitié'), no test")
        return morale_check(morale_situation(request, "1.1"), request.options), f"UC {actor.name}", [actor]
    if request.action == "um_test":
        body = members(request, um)
        if chosen(request)["um_strength"] == "uc":
            lost, strength, what = len(body) - len(standing(body)), len(body), "UC"
        else:
            lost, strength, what = sum(u.lost for u in body), sum(u.start for u in body), "EC"
        name, step = f"UM {um(actor)}", "1.1"
    else:
        body = members(request, division)
        ums = {um(u) for u in body}
        lost, strength, what = len(ums - {um(u) for u in standing(body)}), len(ums), "UM"
        name, step = f"division {division(actor)}", "1.2"
    if not must_test(lost, strength):
        raise RulesError(f"{name} has lost {lost} of its {strength} {what}: not more than half, no test")
    left = standing(body)
    if not left:
        raise RulesError(f"{name} has no UC left on the table out of rupture to test")
    tested = formation_temperament([temperament(u) for u in left], request.options)
    return morale_check(morale_situation(request, step, tested), request.options), name, left


def loss_test_prepare(request: Request) -> Prepared:
    not_broken(request.actor)
    check, name, _ = _test(request)
    return test_prepared(check, f"test de moral (morale test) of {name}, step {check.step}")


def loss_test_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    check, name, body = _test(request)
    result = roll_morale(check, Given(record), options=request.options)
    return Outcome(f"{name}: {words(result)}", broken_effects(request, body, bool(result.successes)))


def loss_test_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    return morale_ticks("alone")(actor, target)

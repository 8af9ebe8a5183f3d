"""The morale tests as resolutions: the card's morale factors as ticks for how the UC
meets its enemy, the test's situation, and what a failed test does."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.napoleonic_uc_um.data import factors
from rules.napoleonic_uc_um.morale import MoraleSituation, morale_factors
from rules.napoleonic_uc_um.resolver.shown import arm_excluded, factor_ticks
from rules.napoleonic_uc_um.resolver.units import (
    FLANK_CHARGE,
    ROUT,
    chosen,
    temperament,
    troop,
)
from rules.resolver import Effect, Number, Request, Tick, Unit

FLANK_ONLY = "the charge goes in on the flank or rear (* sauf sur le flanc ou les arrières)"


def morale_ticks(situation: str) -> Callable[[Unit, Unit | None], list[Tick]]:
    """The morale ticks of one test: `situation` says how the actor meets its target
    ('alone', 'charging', 'charged' or 'contact')."""

    def ticks(actor: Unit, target: Unit | None) -> list[Tick]:
        other = troop(target) if target is not None else None
        facing = "flank" if actor.has(FLANK_CHARGE) else "front"
        ticked = morale_factors(
            troop(actor),
            charging=other if situation == "charging" else None,
            facing=facing,
            charged_by=other if situation == "charged" else None,
            in_contact_with=other if situation == "contact" else None,
            national_characteristic=bool(actor.attr("national_characteristic")),
        )
        excluded = arm_excluded("morale", actor)
        if facing != "front":
            excluded.update({f.id: FLANK_ONLY for f in factors("morale") if f.front_only})
        out = factor_ticks("morale", ticked, excluded)
        if situation == "contact":
            out.append(Tick("fall_back", "repli si réussi (fall back if the test is passed, instead of fighting on)"))
        return out

    return ticks


def morale_situation(request: Request, step: str, tested: str | None = None) -> MoraleSituation:
    """The actor's test at `step`, with the morale factors ticked; `tested` is the
    temperament a UM or division tests with, when it is not the actor's own."""
    actor = request.actor
    morale_ids = {f.id for f in factors("morale")}
    return MoraleSituation(
        temperament=tested or temperament(actor),
        arm=actor.arm,
        step=step,
        factors=frozenset(request.ticked & morale_ids),
        facing="flank" if actor.has(FLANK_CHARGE) else "front",
        covered_flanks=request.numbers.get("covered_flanks", 0) if actor.arm == "artillery" else 0,
    )


def flank_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    """'Artillerie ayant une UC en ordre à 5 cm ou - de son flanc': -1 a flank."""
    if actor.arm != "artillery":
        return []
    return [Number("covered_flanks", "Flancs couverts par une UC en ordre à 5 cm ou - (flanks covered)", 0, 2, 0)]


def broken_effects(request: Request, units: Sequence[Unit], passed: bool) -> tuple[Effect, ...]:
    """A failed test other than after melee: rupture, by the option failed_test_effect."""
    if passed or chosen(request)["failed_test_effect"] != "rupture":
        return ()
    return tuple(Effect(u.id, add={ROUT: None}) for u in units)

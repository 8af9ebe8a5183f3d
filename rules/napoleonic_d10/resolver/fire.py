"""Fire: small arms and guns on the fire table, defensive fire at chargers (Def.
Fire Range), ammunition points and the natural 10's second roll, fire discipline
and skirmish combat."""

from __future__ import annotations

from rules.dice import DiceRecord, Modifier
from rules.errors import RulesError
from rules.napoleonic_d10 import fire as firing
from rules.napoleonic_d10 import morale as moraling
from rules.napoleonic_d10 import skirmish as skirmishing
from rules.napoleonic_d10.data import card, cell_text, table
from rules.napoleonic_d10.resolver.effects import (
    casualties,
    merge,
    morale_due,
    printed_state_outcome,
)
from rules.napoleonic_d10.resolver.prepare import label, mods_text, ticked_one
from rules.napoleonic_d10.resolver.units import (
    AMMO_ROLL,
    AP,
    BROKEN,
    DISORDERED,
    FIREFIGHT,
    NONE,
    SHAKEN,
    SMOKE,
    losses_percent,
    situation,
    steps_taken,
    unit_class,
)
from rules.napoleonic_d10.rolls import TableRoll, distribution, natural_ranges
from rules.resolver import Effect, Number, Outcome, Prepared, Request, Tick, Unit

SMALL_ARMS_ONLY = ("additional_ammo", "scrounging_ammo", "initial_volley", "infantry_moved_over_half")
GUNS_ONLY = ("initial_fire", "ricochet_fire", "canister", "battalion_guns", "battalion_guns_moved_under_half")
AMMO = card().fire
DEFENSIVE = ("Def. Fire Range: Small Arms " + cell_text("defensive_fire_range", fire="small_arms")
             + ", Artillery " + cell_text("defensive_fire_range", fire="artillery"))


def _guns(unit: Unit) -> bool:
    return unit.arm == "artillery"


def fire_ticks(actor: Unit, target: Unit | None) -> list[Tick]:
    guns = _guns(actor)
    formation = target.attr("formation") if target is not None else None
    labels = {row: label("fire_modifiers", row) for row in
              (*SMALL_ARMS_ONLY, "initial_fire", "ricochet_fire", "battalion_guns_moved_under_half", *firing.COVERS,
               "in_smoke", "flank", "square", "closed_column", "open_order_in_cover")}
    labels["canister"] = "firing canister (Cannister range)"
    labels["battalion_guns"] = "battalion guns"
    ticks = []
    for row in (*SMALL_ARMS_ONLY, *GUNS_ONLY):
        wrong = (row in SMALL_ARMS_ONLY and guns) or (row in GUNS_ONLY and not guns)
        why = f"a {'small-arms' if row in SMALL_ARMS_ONLY else 'gun'} modifier, not one for {'guns' if guns else 'small arms'}"
        ticks.append(Tick(row, labels[row], excluded=why if wrong else None))
    ticks += [Tick(c, f"target in {labels[c]}") for c in firing.COVERS]
    ticks += [
        Tick("in_smoke", f"target {labels['in_smoke']}", checked=target is not None and target.has(SMOKE)),
        Tick("flank", f"target's {labels['flank']}"),
        Tick("square", f"target in {labels['square']}", checked=formation == "square"),
        Tick("closed_column", f"target in {labels['closed_column']}", checked=formation == "closed_column"),
        Tick("open_order_in_cover", labels["open_order_in_cover"]),
        Tick("at_artillery", "target is artillery (" + ("Counter Battery" if guns else label("fire_modifiers", "small_arms_at_artillery")) + ")",
             checked=target is not None and target.arm == "artillery"),
        Tick("defensive_fire", f"defensive fire at a charging unit ({DEFENSIVE})"),
    ]
    return ticks


def fire_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    numbers = [Number("distance", "Distance to the target, inches", 0, 40, 2)]
    if _guns(actor):
        numbers += [Number("tubes", "Tubes firing", 1, None, max(1, actor.size)),
                    Number("ap", "AP spent on this fire (1-4)", 1, 4, AMMO.artillery_plain_ap)]
    else:
        numbers.append(Number("stands", "Stands firing", 1, None, max(1, actor.size)))
    return numbers


def _weapon(unit: Unit) -> str:
    guns = _guns(unit)
    weapon = unit.attr("gun" if guns else "weapon", NONE)
    if weapon in (None, NONE):
        raise RulesError(f"{unit.name} has no fire arms: give it a {'gun' if guns else 'weapon'} first (e edits the unit)")
    return str(weapon)


def _fire_situation(request: Request) -> firing.FireSituation:
    u, t, ticked = request.actor, request.target, request.ticked
    assert t is not None
    guns = _guns(u)
    cover = ticked_one(request, firing.COVERS, "cover for the target")
    moved = "over_half" if "infantry_moved_over_half" in ticked else "under_half" if "battalion_guns_moved_under_half" in ticked else "no"
    return firing.FireSituation(
        weapon=_weapon(u),
        distance=request.numbers.get("distance", 2),
        stands=None if guns else request.numbers.get("stands", u.size),
        tubes=request.numbers.get("tubes", u.size) if guns else None,
        ammunition="canister" if "canister" in ticked else "ball",
        ap=request.numbers.get("ap") if guns else None,
        additional_ammo="additional_ammo" in ticked,
        scrounging_ammo="scrounging_ammo" in ticked,
        initial_volley="initial_volley" in ticked,
        initial_fire="initial_fire" in ticked,
        ricochet_fire="ricochet_fire" in ticked,
        moved=moved,
        battalion_guns="battalion_guns" in ticked,
        shaken=u.has(SHAKEN),
        disordered=u.has(DISORDERED),
        broken=u.has(BROKEN),
        target_cover=cover or firing.NO_COVER,
        target_in_smoke="in_smoke" in ticked,
        target_flank="flank" in ticked,
        target_square="square" in ticked,
        target_closed_column="closed_column" in ticked,
        target_open_order="open_order_in_cover" in ticked,
        target_artillery="at_artillery" in ticked,
    )


def _defensive_reach(request: Request) -> None:
    """Defensive fire is given in the Charges phase, at a charger within the Def. Fire Range."""
    if "defensive_fire" not in request.ticked:
        return
    if request.phase and request.phase != "charges":
        raise RulesError("defensive fire is given at chargers, in the Charges phase")
    reach = firing.defensive_fire_reach(_weapon(request.actor))
    distance = request.numbers.get("distance", 2)
    if distance > reach:
        raise RulesError(f'{request.actor.name} gives defensive fire up to {reach}" ({DEFENSIVE}), not at {distance}"')


def _fire_check(request: Request) -> firing.FireCheck:
    if request.actor.has(AMMO_ROLL):
        raise RulesError(f"{request.actor.name} rolls again for ammunition (a natural 10) before it fires again")
    _defensive_reach(request)
    return firing.fire_check(_fire_situation(request), request.options)


def fire_prepare(request: Request) -> Prepared:
    check = _fire_check(request)
    needed = ", ".join(str(r) for r in check.needed())
    ammo = (f"{check.base_ap} AP spent; a natural {AMMO.natural_extra_ap} spends {AMMO.extra_ap} more, "
            f"a natural {AMMO.natural_roll_again} rolls again")
    return Prepared(
        f"{check.purpose} ({check.range})",
        f"{check.dice} ({mods_text(check.modifiers)}): {needed} casualty steps",
        check.dice,
        (("Casualty steps", check.odds()),),
        (ammo,),
    )


def fire_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None and request.target is not None
    check = _fire_check(request)
    natural = record.result
    text = check.read(natural)
    actor, target = request.actor, request.target
    options = request.options
    steps = 0 if text == AMMO.no_effect else int(text)
    extra = AMMO.extra_ap if natural == AMMO.natural_extra_ap else 0
    spent = int(actor.attr(AP, 0) or 0) + check.base_ap + extra
    shooter = Effect(actor.id, set={AP: spent}, add={AMMO_ROLL: None} if natural == AMMO.natural_roll_again else {})
    words = f"{text} casualty step{'s' if steps != 1 else ''}" if steps else f"{text} (no effect)"
    words += f"; {check.base_ap + extra} AP spent"
    if natural == AMMO.natural_roll_again:
        words += f"; a natural {natural}: roll again for ammunition"
    hit = casualties(target, steps, options)
    event = moraling.MoraleEvent(
        unit_class(target), hit=steps > 0,
        losses_before_percent=losses_percent(target, options),
        losses_after_percent=losses_percent(target, options, steps_taken(target) + steps),
        fired_on=True, fired_from="flank" if "flank" in request.ticked else "front", fire_range=check.range,
    )
    reasons = moraling.morale_checks_due(event, options)
    if reasons:
        words += f"; {target.name} checks morale: " + "; ".join(reasons)
    return Outcome(words, (shooter, merge(hit, morale_due(target, reasons))))


def ammunition_prepare(request: Request) -> Prepared:
    if not request.actor.has(AMMO_ROLL):
        raise RulesError(f"{request.actor.name} has no natural 10 to roll again for")
    tab = table("ammunition_reroll")
    dice = tab.dice or card().dice.fire
    odds = distribution(dice, lambda n: tab.lookup(roll=n).text)
    needed = ", ".join(str(r) for r in natural_ranges(dice, lambda n: tab.lookup(roll=n).text))
    return Prepared("ammunition: a natural 10, roll again", f"{dice}: {needed}", dice, (("AP spent", odds),))


def ammunition_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    cell = table("ammunition_reroll").lookup(roll=record.result)
    spent = int(request.actor.attr(AP, 0) or 0) + int(cell.number)
    return Outcome(f"{cell.text} more spent", (Effect(request.actor.id, set={AP: spent}, clear=(AMMO_ROLL,)),))


def discipline_check(request: Request) -> TableRoll:
    return firing.fire_discipline_check(unit_class(request.actor), situation(request), request.options)


def discipline_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    read = firing.read_discipline(discipline_check(request).read(record.result))
    text = f"{read.text} ({'Firefight' if read.action == 'firefight' else read.action})"
    if read.action == "firefight":
        return Outcome(text, (Effect(request.actor.id, add={FIREFIGHT: None}),))
    return Outcome(text)


def skirmish_numbers(actor: Unit, target: Unit | None) -> list[Number]:
    return [Number("screen_mods", "Screen modifiers (the card does not list them)", -20, 20, 0)]


def skirmish_check(request: Request) -> TableRoll:
    mods = request.numbers.get("screen_mods", 0)
    screen = [Modifier("screen mods", mods)] if mods else []
    return skirmishing.skirmish_check(unit_class(request.actor), screen, request.options)


def skirmish_resolve(request: Request, record: DiceRecord | None) -> Outcome:
    assert record is not None
    printed = skirmish_check(request).read(record.result)
    return printed_state_outcome(request, request.actor, printed, "skirmish")

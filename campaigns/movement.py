"""Activating and moving stacks: command points by the card, routes priced by its tables.

Activating a stack charges its army the card's command points (command PointS
table) and records what was activated; only an activated stack moves, and a move
is one action whose description carries the route and its cost, so `adjutant
log` shows it and undo puts the stack back. Stacking is checked where the move
ends, except with the commander-in-chief.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlmodel import col

from campaigns.command_points import action_label, turn_points
from campaigns.errors import CampaignError, plainly
from campaigns.forced_march import weather_now
from campaigns.gazetteer import GazetteerError, gazetteer
from campaigns.pontoons import pontoon_keys
from campaigns.routes import Route, find_route, road_distance
from campaigns.session import CampaignSession
from campaigns.stacks import Stack, all_stacks, army_of, counted_stacks, stack_of
from campaigns.words import plural
from models import Activation, Army, Campaign, CommandPointSpend, General, Nation, Unit
from rules.allemagne1813.command import action_cost
from rules.allemagne1813.march import MarchPrice, price_march
from rules.allemagne1813.movement import stack_fits, stacking_limits

UNIT_TYPES = ("infantry", "cavalry", "artillery")
OWN_MARCH = "own_march"  # the option split_stack_march's default
STOPS = "stops_there"  # the option enemy_held_place's default (rules/allemagne1813/options.toml)
# The option line_of_communication's within_two_turns: infantry's 6 MP in clear, twice.
TWO_TURNS_MP = 12


@dataclass(frozen=True)
class MoveReport:
    stack: Stack
    destination: str
    weather: str
    weather_known: bool
    route: Route
    price: MarchPrice
    spent: int  # MP the stack has marched already this turn
    activation: Activation | None
    stacking: str | None = None  # why the stack could not stand where the move ends, by the card's limits
    # The places the enemy holds that the route went round (option enemy_held_place), and the
    # umpire's reason when he let the move pass through them.
    enemy_held: tuple[str, ...] = ()
    override: str = ""

    @property
    def refusal(self) -> str | None:
        if self.price.blocked:
            return self.price.blocked
        short = [u for u in self.price.units if u.cost > u.points.total - self.spent]
        if not short:
            return self.stacking
        unit = min(short, key=lambda u: u.points.total)  # the slowest type holds the stack back
        already = f" ({self.spent} MP marched already this turn)" if self.spent else ""
        left = f"{_plural(unit.unit)} have {unit.points.total - self.spent} MP left in {self.weather.title()}{already}"
        if self.route.shorter_blocked:
            return (
                f"{self.route.shorter_blocked}, and the way round by {self.route.describe()} "
                f"costs {unit.cost} MP where {left}"
            )
        return f"the route costs {unit.cost} MP and {left}"

    @property
    def allowed(self) -> bool:
        return self.refusal is None

    @property
    def shortfall(self) -> int:
        """MP the slowest type of unit lacks for this route (0 when every type can march it)."""
        return max([u.cost - (u.points.total - self.spent) for u in self.price.units] + [0])

    @property
    def passed_enemy(self) -> tuple[str, ...]:
        """The enemy-held places the route passes through (only with the umpire's override)."""
        return tuple(p for p in self.route.places[1:-1] if p in self.enemy_held)

    def forcible(self, options: dict[str, str]) -> bool:
        """Whether a forced march (option forced_march_mp) would carry the stack there."""
        return self.price.blocked is None and self.stacking is None and 0 < self.shortfall <= int(options["forced_march_mp"])

    def lines(self) -> list[str]:
        out = [f"{self.stack.label}: {_count(len(self.stack.generals), 'general')}, {_count(len(self.stack.units), 'unit')}, {self.stack.strength_points} SP"]
        weather = self.weather.title() + ("" if self.weather_known else " (this turn's weather is not rolled: priced as Clear)")
        out.append(f"Route: {self.route.describe()} ({weather})")
        for leg in self.price.legs:
            for charge in leg.charges:
                out.append(f"  {leg.leg.start}-{leg.leg.end}: {charge.what} = {charge.mp} MP  [{charge.cited}]")
            if leg.blocked:
                out.append(f"  {leg.leg.start}-{leg.leg.end}: refused: {leg.blocked}")
        if self.route.off_road:
            out.append(f"  {OFF_ROAD}")
        out.append(f"Cost: {self.price.mp} MP")
        for unit in self.price.units:
            left = unit.points.total - self.spent
            verdict = "can march it" if unit.cost <= left else f"{unit.cost - left} MP short"
            out.append(f"  {_plural(unit.unit)}: costs {unit.cost} MP of {left} ({unit.cited}): {verdict}")
        if self.route.shorter_blocked:
            out.append(f"Not by the shorter road ({self.route.shorter_mp} MP): {self.route.shorter_blocked}")
        passed = self.passed_enemy
        if passed:
            out.append(f"Through {', '.join(passed)}, held by the enemy: the umpire's reason: {self.override}")
        elif self.enemy_held:
            out.append("Passes no place the enemy holds (option enemy_held_place).")
        out.append(self.verdict)
        return out

    @property
    def verdict(self) -> str:
        """One line: whether the stack may march the route now, and what it still needs."""
        refusal = self.refusal
        if refusal is not None:
            unready = "; and the stack is not activated this turn" if self.activation is None else ""
            return f"Refused: {refusal}{unready}."
        if self.activation is None:
            return "Allowed once activated: the stack is not activated this turn; activate it, then move."
        return "Allowed."


OFF_ROAD = (
    "off road (option off_road = as_poor_road): priced as a poor road on the straight line; "
    "the rivers on the way are not known, so the umpire rules on any crossing"
)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _plural(unit: str) -> str:
    return {"general": "generals", "cavalry": "cavalry", "infantry": "infantry", "artillery": "reserve artillery"}[unit]


def _place(text: str) -> str:
    try:
        return gazetteer().place(text).name
    except GazetteerError as exc:
        raise CampaignError(str(exc)) from None


def _turn(session: CampaignSession) -> int:
    with plainly(), session.store.read() as db:
        return db.get_one(Campaign, 1).turn


def activation_of(session: CampaignSession, stack: Stack, turn: int | None = None) -> Activation | None:
    """This turn's activation that covers every member of the stack, if any."""
    turn = turn or _turn(session)
    members = set(stack.members)
    with plainly(), session.store.read() as db:
        for row in db.scalars(select(Activation).where(col(Activation.turn) == turn).order_by(col(Activation.id))):
            if members <= set(row.members):
                return row
    return None


def part_of(stack: Stack, only: list[str] | None) -> Stack:
    """The generals and units named in `only` (ids), detached from their stack; the whole stack if None."""
    if not only:
        return stack
    ids = {g.id for g in stack.generals} | {u.id for u in stack.units}
    stray = [i for i in only if i not in ids]
    if stray:
        raise CampaignError(f"{stray[0]!r} is not a general or unit of {stack.label}")
    return replace(
        stack,
        generals=tuple(g for g in stack.generals if g.id in only),
        units=tuple(u for u in stack.units if u.id in only),
    )


def enemy_places(session: CampaignSession, side: str) -> tuple[str, ...]:
    """The places an enemy stack with units holds (the stacks counted, as the map shows them)."""
    return tuple(sorted({s.place for s in counted_stacks(session) if s.side != side and s.unit_count > 0}))


def plan_move(
    session: CampaignSession, stack_text: str, place_text: str, only: list[str] | None = None, override: str = "",
) -> MoveReport:
    """Route, price and verdict of a move (of the whole stack, or of the members in `only`), changing nothing.

    By the option enemy_held_place the route passes through no place the enemy holds (it may
    end at one); `override`, the umpire's reason, lets it pass through them."""
    stack = part_of(stack_of(session, stack_text), only)
    destination = _place(place_text)
    rolled = weather_now(session)
    weather = rolled or "clear"
    options = session.options()
    from campaigns.text import TextError, plain_name

    try:  # the umpire's reason, typed in a form: recorded in the history as written
        override = plain_name(override, "the umpire's reason")
    except TextError as exc:
        raise CampaignError(str(exc)) from None
    held = enemy_places(session, stack.side) if options.get("enemy_held_place", STOPS) == STOPS else ()
    route = find_route(stack.place, destination, weather, options, pontoon_keys(session), () if override else held)
    types: dict[str, bool] = {}
    if stack.generals:
        types["general"] = False
    for unit in stack.units:
        if unit.kind in UNIT_TYPES:  # a dummy moves with its stack and never limits it
            types[unit.kind] = types.get(unit.kind, False) or unit.out_of_command
    price = price_march(route.legs, weather, types, options)
    activation = activation_of(session, stack)
    stacking = None if destination == stack.place else _stacking_problem(session, stack, destination)
    return MoveReport(stack, destination, weather, rolled is not None, route, price,
                      activation.mp_spent if activation else 0, activation, stacking, held, override)


def _stacking_problem(session: CampaignSession, moving: Stack, destination: str) -> str | None:
    there = next((s for s in all_stacks(session, {destination}) if s.place == destination and s.side == moving.side), None)
    units = list(moving.units) + (list(there.units) if there else [])
    generals = list(moving.generals) + (list(there.generals) if there else [])
    with plainly(), session.store.read() as db:
        commanders = {a.commander for a in db.scalars(select(Army))}
    with_cinc = any(g.id in commanders for g in generals)
    count = {kind: sum(1 for u in units if u.kind == kind) for kind in ("infantry", "cavalry", "dummy")}
    if stack_fits(count["infantry"], count["cavalry"], count["dummy"], commander_in_chief=with_cinc, options=session.options()):
        return None
    dummies = f" (and {plural(count['dummy'], 'dummy', 'dummies')})" if count["dummy"] else ""
    return (
        f"{count['infantry']} infantry and {count['cavalry']} cavalry units{dummies} "
        f"would stand together at {destination} without a commander-in-chief; the card allows at most "
        + ", ".join(stacking_limits()[:-1]) + " or " + stacking_limits()[-1]
    )


def move(
    session: CampaignSession,
    stack_text: str,
    place_text: str,
    only: list[str] | None = None,
    *,
    forced: bool = False,
    entered: dict[str, list[int]] | None = None,
    override: str = "",
) -> str:
    """Move an activated stack (or the members in `only`) along the cheapest route, as one undoable action.

    With `forced`, a route up to the option forced_march_mp beyond the stack's MP
    is marched as a forced march: each unit rolls on the forced march table in the
    same action (dice typed in by unit id in `entered`, for dice rolled on the table).
    """
    report = plan_move(session, stack_text, place_text, only, override)
    stack = report.stack
    if report.activation is None:
        raise CampaignError(f"{stack.label} has not been activated this turn; activate it before it moves")
    if not report.weather_known:
        raise CampaignError("this turn's weather is not rolled yet; roll it before moving")
    if report.destination == stack.place:
        raise CampaignError(f"{stack.label} is already at {stack.place}")
    if report.stacking:
        raise CampaignError(f"{stack.label} cannot end its move at {report.destination}: {report.stacking}")
    options = session.options()
    forcing = forced and report.refusal is not None and report.forcible(options)
    if report.refusal and not forcing:
        hint = ""
        if report.forcible(options):
            hint = f"; a forced march can carry it ({report.shortfall} MP beyond, each unit rolls on the forced march table)"
        raise CampaignError(f"{stack.label} cannot move to {report.destination}: {report.refusal}{hint}")
    cost = report.price.mp
    description = (
        f"{'Forced march: move' if forcing else 'Move'} {stack.label} to {report.destination} by "
        f"{report.route.describe()}: {cost} MP ({report.weather.title()})"
        + (f"; {OFF_ROAD}" if report.route.off_road else "")
        + (f"; through {', '.join(report.passed_enemy)}, held by the enemy: the umpire's reason: {report.override}"
           if report.passed_enemy else "")
    )
    losses: list[str] = []
    with plainly(), session.store.action(description) as db:
        if forcing:
            losses = _forced_march_rolls(session, db, stack, report.weather, entered or {})
        for general in stack.generals:
            row = db.get_one(General, general.id)
            row.location, row.march_note = report.destination, ""
        for unit in stack.units:
            row_u = db.get_one(Unit, unit.id)
            row_u.location, row_u.march_note = report.destination, ""
        assert report.activation is not None and report.activation.id is not None
        charge(db, db.get_one(Activation, report.activation.id), stack, report.spent + cost, options)
    return description + (f"; {'; '.join(losses)}" if losses else "")


def charge(db, activation: Activation, moving: Stack, spent: int, options: dict[str, str]) -> None:
    """Charge a move's MP to the activation that let it (option split_stack_march).

    A part of an activated stack that moves on its own (only some of the members) takes its
    members out of the activation into one of its own, which carries its march: the part
    left behind keeps the MP it had marched, and its own move is charged from there. The new
    row costs no command points (the stack was activated once) and names the activation it
    came from. Under `shared` every part is charged the whole activation's march."""
    members = set(moving.members)
    if options.get("split_stack_march", OWN_MARCH) != OWN_MARCH or not members < set(activation.members):
        activation.mp_spent = spent
        return
    activation.members = [m for m in activation.members if m not in members]
    db.add(Activation(
        turn=activation.turn, army=activation.army, side=activation.side, place=activation.place,
        action=activation.action, members=list(moving.members), cost=0, loc=activation.loc,
        ruling=f"part of activation #{activation.id}, moved on its own", mp_spent=spent,
    ))


def _forced_march_rolls(session: CampaignSession, db, stack: Stack, weather: str, entered: dict[str, list[int]]) -> list[str]:
    """Each real unit of the stack rolls on the forced march table (the card's modifiers); SP taken at once."""
    from rules.allemagne1813.forced_march import forced_march_loss, forced_march_modifiers

    options = session.options()
    cvs = [g.command_value for g in stack.generals]
    dice = session.store.dice()
    lines = []
    for unit in stack.units:
        if unit.kind == "dummy":
            continue
        modifiers = forced_march_modifiers(cvs, unit.cohesion, weather)
        record = dice.roll("1d6", f"forced march of {unit.name}", modifiers, entered=entered.get(unit.id))
        row = db.get_one(Unit, unit.id)
        loss = min(row.strength_points, forced_march_loss(record.result, max(row.strength_points, 1), options))
        row.strength_points -= loss
        lines.append(f"{unit.name}: 1d6 = {record.raw[0]}{''.join(f' {m.value:+d}' for m in modifiers)} = {record.result}, {loss} SP lost")
    return lines


# -- activation ---------------------------------------------------------------


@dataclass(frozen=True)
class ActivationPlan:
    stack: Stack
    army: Army
    action: str
    loc_valid: bool
    loc_computed: bool
    cost: int

    def describe(self) -> str:
        loc = "valid LOC" if self.loc_valid else "no valid LOC"
        ruled = "" if self.loc_valid == self.loc_computed else " (ruled by the umpire)"
        return f"{action_label(self.action)} ({loc}{ruled}): {self.cost} PC"


def line_of_communication(session: CampaignSession, stack: Stack, army: Army) -> bool:
    """Whether the stack has a valid LOC to its commander-in-chief, by the option line_of_communication."""
    with plainly(), session.store.read() as db:
        cinc = db.get(General, army.commander) if army.commander else None
    if cinc is None or not cinc.location:
        return False
    enemy = {s.place for s in all_stacks(session) if s.side != stack.side}
    options = session.options()
    mp = road_distance(stack.place, cinc.location, options, avoid=enemy)
    if mp is None:
        return False
    return options["line_of_communication"] == "road_not_blocked" or mp <= TWO_TURNS_MP


def plan_activation(session: CampaignSession, stack_text: str, ruling: bool | None = None) -> ActivationPlan:
    stack = stack_of(session, stack_text)
    army = army_of(session, stack)
    if army.commander and any(g.id == army.commander for g in stack.generals):
        action, computed = "activate_cinc", True
    else:
        action = "activate_general" if stack.generals else "activate_force"
        computed = line_of_communication(session, stack, army)
    valid = computed if ruling is None else ruling
    cost = action_cost(action, valid)
    if cost is None:
        raise CampaignError(f"'{action_label(action)}' is not possible without a valid LOC (the card prints '-')")
    return ActivationPlan(stack, army, action, valid, computed, cost)


def activate(session: CampaignSession, stack_text: str, ruling: bool | None = None, reason: str = "") -> str:
    """Activate a stack for this turn, charging its army the card's command points.

    `ruling` lets the umpire rule the LOC valid (True) or not (False) against the
    road network; the ruling needs a reason and is recorded.
    """
    if ruling is not None and not reason.strip():
        raise CampaignError("an umpire's ruling on the LOC needs a reason")
    plan = plan_activation(session, stack_text, ruling)
    if activation_of(session, plan.stack) is not None:
        raise CampaignError(f"{plan.stack.label} is already activated this turn")
    points = next(p for p in turn_points(session) if p.army == plan.army.id)
    if points.rolled is None:
        raise CampaignError(f"{plan.army.name} has not rolled its command points this turn")
    if plan.cost > points.balance:
        raise CampaignError(f"{plan.army.name} has {points.balance} PC left; activating {plan.stack.label} costs {plan.cost}")
    loc = "valid" if plan.loc_valid else "none"
    ruled = f"; the umpire ruled the LOC {'valid' if plan.loc_valid else 'cut'}: {reason.strip()}" if ruling is not None and plan.loc_valid != plan.loc_computed else ""
    if ruling is not None and not ruled:
        ruled = f"; the umpire confirmed the LOC: {reason.strip()}"
    description = f"Activate {plan.stack.label}: {plan.describe()}"
    with plainly(), session.store.action(description + ruled) as db:
        turn = db.get_one(Campaign, 1).turn
        db.add(
            Activation(
                turn=turn, army=plan.army.id, side=plan.stack.side, place=plan.stack.place, action=plan.action,
                members=list(plan.stack.members), cost=plan.cost, loc=loc, ruling=reason.strip() if ruling is not None else "",
            )
        )
        db.add(
            CommandPointSpend(
                turn=turn, army=plan.army.id, action=plan.action, cost=plan.cost,
                balance=points.balance - plan.cost, note=f"{plan.stack.label}, {'valid LOC' if plan.loc_valid else 'no valid LOC'}{ruled}",
            )
        )
    return f"{description}; {plan.army.name} has {points.balance - plan.cost} PC left{ruled}"


def entrench_cost() -> int:
    """The card's price of an entrenchment (command points table), read from the data."""
    cost = action_cost("entrench", True)
    assert cost is not None, "the card prices an entrenchment"
    return cost


def entrench(session: CampaignSession, stack_text: str, only: list[str] | None = None) -> str:
    """Entrench a stack (or the units of it in `only`): the card's PC from its army, each unit marked entrenched.

    The one way a unit becomes entrenched, from the map and from the order of battle alike."""
    stack = part_of(stack_of(session, stack_text), only)
    army = army_of(session, stack)
    cost = entrench_cost()
    points = next(p for p in turn_points(session) if p.army == army.id)
    if points.rolled is None:
        raise CampaignError(f"{army.name} has not rolled its command points this turn; an entrenchment costs {cost} PC")
    if cost > points.balance:
        raise CampaignError(f"{army.name} has {points.balance} PC left; an entrenchment costs {cost}")
    what = stack.label if only is None else ", ".join(u.name for u in stack.units)
    if not stack.units:
        raise CampaignError(f"{what} holds no unit to entrench")
    description = f"Entrench {what}: {cost} PC"
    with plainly(), session.store.action(description) as db:
        turn = db.get_one(Campaign, 1).turn
        for unit in stack.units:
            db.get_one(Unit, unit.id).entrenched = True
        db.add(CommandPointSpend(turn=turn, army=army.id, action="entrench", cost=cost,
                                 balance=points.balance - cost, note=what))
    return f"{description}; {army.name} has {points.balance - cost} PC left"


def entrench_unit(session: CampaignSession, unit_id: str) -> str:
    """Entrench one unit where it stands, at the card's price (the order of battle's flag)."""
    with plainly(), session.store.read() as db:
        unit = db.get(Unit, unit_id)
        if unit is None:
            raise CampaignError(f"there is no unit {unit_id!r}")
        side = db.get_one(Nation, unit.nation).side
        place = unit.location
    if not place:
        raise CampaignError(f"{unit.name} stands at no place of the map")
    return entrench(session, f"{side}@{place}", only=[unit_id])

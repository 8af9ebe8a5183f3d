"""A battle fought on the tabletop, resolved on the resolver screen and stored in the campaign.

A battle handed to a tactical rule set (campaigns/battles.py, `resolver` = the
rule set) gets a *tactical battle* in its `detail["tactical"]`:

    ruleset, options       the rule set and its named options for this battle
    position               turn, whose bound, which phase of the sequence of play
    units                  the tactical order of battle (rules.resolver.Unit as JSON)
    leaders                [side, name, rating]
    battle                 what the battle knows beyond its units (who holds the initiative...)
    log                    every resolution: who, what, the dice, the result in the card's words
    ended                  who held the field, once the umpire ends the battle

Every change is one campaign action, so it can be undone, survives closing the
program, and its dice are in the campaign's dice records.  Ending the battle
turns the stands (figures...) each campaign force lost into SP by the rule set's
conversion, and stores them as the battle's tabletop result: the campaign then
applies them unit by unit (battles.settlement / battles.apply).

A tabletop game outside the campaign's forces (`new_game`) has units entered by
hand and returns nothing to the campaign: ending it closes it with its result.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlmodel import col

from campaigns import battles
from campaigns.errors import CampaignError, plainly, typed_number
from campaigns.session import CampaignSession
from campaigns.words import heading
from models import Battle as BattleRow
from models import Campaign
from models import Unit as CampaignUnit
from rules.conversion import apportion, load_conversion, sp_exact
from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.numbers import PIECES
from rules.options import resolve_options
from rules.resolver import (
    ATTACKER,
    DEFENDER,
    ENEMY,
    SIDES,
    Contact,
    Outcome,
    Position,
    Prepared,
    Request,
    Resolver,
    Unit,
    advance,
    apply_effects,
    battle_after,
    check_request,
    contacts_after,
    counted,
    effect_text,
    get_resolver,
    tactical_rulesets,
    in_contact,
    may_act,
    new_bound_battle,
    new_bound_states,
    out_of_reach,
    roll_prepared,
    still_in_contact,
)


# A game outside the campaign's forces is "game" while it is played, not "pending":
# the campaign's Battles phase waits for its own battles only.
GAME = "game"
PLAYING = ("pending", GAME)


@dataclass(frozen=True)
class Tabletop:
    """A tactical battle as the resolver screen shows it."""

    battle_id: int
    location: str
    status: str
    resolver: Resolver
    options: dict[str, str]
    position: Position
    units: dict[str, Unit]
    leaders: list[list[str]]
    log: list[dict[str, Any]]
    ended: dict[str, Any] | None
    standalone: bool  # entered by hand, outside the campaign's forces
    contacts: tuple[Contact, ...] = ()  # who is in contact with whom (charges, the umpire's rulings)
    battle: dict[str, Any] = field(default_factory=dict)  # the battle's own state: initiative, counters

    @property
    def phase(self):
        return self.resolver.phases[self.position.phase]

    def side_units(self, side: str, *, present: bool = True) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side and (not present or not u.removed)]

    def unfinished(self) -> list[str]:
        return [*self.resolver.pending(self.phase.id, self.battle), *self.resolver.unfinished(self.phase.id, self.units)]

    def battle_lines(self) -> list[str]:
        """The battle's own state as shown: "Initiative: the attacker moves first"."""
        return [self.resolver.battle_value(k).text(v) for k, v in self.battle.items()
                if any(b.id == k for b in self.resolver.battle_state)]


def _resolver(ruleset: str) -> Resolver:
    try:
        return get_resolver(ruleset)
    except RulesError as exc:
        raise CampaignError(str(exc)) from None


def _stored(row: BattleRow) -> dict[str, Any]:
    tactical = row.detail.get("tactical")
    if tactical is None:
        raise CampaignError(f"battle {row.id} has no tactical battle yet: g on its battle screen puts it on the table")
    return dict(tactical)


def load(session: CampaignSession, battle_id: int) -> Tabletop:
    with plainly(), session.store.read() as db:
        row = db.get(BattleRow, battle_id)
        if row is None:
            raise CampaignError(f"there is no battle {battle_id}")
        return _table(row)


def _table(row: BattleRow) -> Tabletop:
    """The tactical battle a battle's row holds. Its dicts and lists are its own at the top
    level; what they hold is shared with the row, and is never changed (JSON is reassigned)."""
    tactical = _stored(row)
    assert row.id is not None
    return Tabletop(
        battle_id=row.id,
        location=row.location,
        status=row.status,
        resolver=_resolver(tactical["ruleset"]),
        options=dict(tactical["options"]),
        position=Position(**tactical["position"]),
        units={u["id"]: Unit.from_json(u) for u in tactical["units"]},
        leaders=[list(x) for x in tactical.get("leaders", [])],
        log=list(tactical.get("log", [])),
        ended=tactical.get("ended"),
        standalone=bool(tactical.get("standalone", False)),
        contacts=tuple(Contact.from_json(c) for c in tactical.get("contacts", [])),
        battle=dict(tactical.get("battle", {})),
    )


def started(session: CampaignSession, battle_id: int) -> bool:
    with plainly(), session.store.read() as db:
        row = db.get(BattleRow, battle_id)
        return row is not None and "tactical" in row.detail


def has_resolver(ruleset: str) -> bool:
    return ruleset in tactical_rulesets()


def _save(db, battle_id: int, tactical: Mapping[str, Any]) -> None:
    row = db.get_one(BattleRow, battle_id)
    row.detail = {**row.detail, "tactical": dict(tactical)}  # JSON columns are reassigned, never mutated


def _units_json(units: Mapping[str, Unit]) -> list[dict[str, Any]]:
    return [u.to_json() for u in units.values()]


# -- beginning ---------------------------------------------------------------------


def start(session: CampaignSession, battle_id: int) -> str:
    """Build the tactical order of battle from the campaign forces, by the conversion."""
    fight = battles.load(session, battle_id)
    if fight.status != "pending":
        raise CampaignError(f"battle {battle_id} is over and applied")
    if fight.battle is not None:
        raise CampaignError(f"battle {battle_id} is fought with the campaign's tables, not on the tabletop")
    if fight.tabletop is not None:
        raise CampaignError(f"battle {battle_id} already has its tabletop result typed in")
    if started(session, battle_id):
        raise CampaignError(f"battle {battle_id} is already on the tabletop")
    resolver = _resolver(fight.resolver)
    units: dict[str, Unit] = {}
    leaders: list[list[str]] = []
    for role in SIDES:
        converted = battles.tactical_order(fight, role)
        if converted is None:
            raise CampaignError(f"{fight.resolver} has no conversion data")
        conversion, order = converted
        for n, t in enumerate(order.units, start=1):
            raw = {**conversion.defaults.get(t.arm, {}), "quality": t.quality, **resolver.converted(t.arm, t.cohesion),
                   **t.attrs}  # what the force's name says it is (Cossacks...), by the conversion's [[named]]
            if not t.carries_sp:  # guns of an AB: no force below, yet still in their force's UM (UC/UM)
                raw.setdefault("um", t.force)
            try:
                attrs = resolver.attrs_for(raw)
            except RulesError as exc:
                raise CampaignError(f"{fight.resolver}'s conversion data: {exc}") from None
            unit_id = f"{role[0]}{n}"
            # "XI Corps: 31st Division regiment 2" -> "31st Division #2": the table is narrow
            name = t.name.split(": ", 1)[-1].replace(f" {conversion.label} ", " #")
            # the guns an AB adds beyond the force's SP carry no SP back (rules/conversion.py)
            units[unit_id] = Unit(unit_id, name, role, t.arm, t.size, t.size, attrs, {}, t.force if t.carries_sp else None)
        leaders += [[role, name, rating] for name, rating in order.leaders]
    tactical = {
        "ruleset": fight.resolver,
        "options": resolve_options(fight.resolver, None),
        "position": Position().__dict__,
        "units": _units_json(units),
        "leaders": leaders,
        "log": [],
        "ended": None,
    }
    with plainly(), session.store.action(f"{battles.title(fight)}: on the tabletop under {resolver.title}") as db:
        _save(db, battle_id, tactical)
    return f"{len(units)} units on the table under {resolver.title}"


def new_game(session: CampaignSession, ruleset: str, location: str) -> int:
    """A tabletop game outside the campaign's forces: units are entered by hand."""
    resolver = _resolver(ruleset)
    location = battles.checked_place(location)
    with plainly(), session.store.read() as db:
        turn = db.get_one(Campaign, 1).turn
    tactical: dict[str, Any] = {
        "ruleset": ruleset, "options": resolve_options(ruleset, None), "position": Position().__dict__,
        "units": [], "leaders": [], "log": [], "ended": None, "standalone": True,
    }
    with plainly(), session.store.action(f"Tabletop game at {location.strip()} ({resolver.title})") as db:
        row = BattleRow(
            turn=turn, location=location.strip(),
            participants={role: {"side": role, "side_name": role.title(), "units": {}, "generals": []} for role in SIDES},
            resolver=ruleset, status=GAME, detail={"setup": {}, "journal": [], "tactical": tactical},
        )
        db.add(row)
        db.flush()
        battle_id = row.id
    assert battle_id is not None
    return battle_id


# -- the order of battle -------------------------------------------------------------


def _checked_unit(resolver: Resolver, values: Mapping[str, Any], before: Unit | None) -> dict[str, Any]:
    name = str(values.get("name", before.name if before else "")).strip()
    if not name:
        raise CampaignError("a unit needs a name")
    side = str(values.get("side", before.side if before else "")).strip()
    if side not in SIDES:
        raise CampaignError(f"side is attacker or defender, not {side!r}")
    arm = str(values.get("arm", before.arm if before else "")).strip()
    if arm not in resolver.arms:
        raise CampaignError(f"arm is one of {', '.join(resolver.arms)}, not {arm!r}")
    out: dict[str, Any] = {"name": name, "side": side, "arm": arm}
    for key in ("size", "start"):
        raw = str(values.get(key, getattr(before, key) if before else values.get("size", ""))).strip()
        out[key] = typed_number(raw, PIECES, f"a unit's {key} in {resolver.size_label}")
    if out["size"] > out["start"]:
        raise CampaignError(f"a unit cannot have more {resolver.size_label} ({out['size']}) than it began with ({out['start']})")
    attrs = dict(before.attrs) if before else {}
    attrs.update({a.id: values[a.id] for a in resolver.attributes if a.id in values})
    for a in resolver.attributes:  # choices that depend on the arm (artillery types for artillery)
        allowed = a.choices_for(arm)
        value = attrs.get(a.id, a.default)
        if a.kind != "choice" or not allowed or value in allowed or value not in a.choices:
            continue  # (a value that is no choice at all gets the attribute's own sentence)
        if value == a.default or (before is not None and arm != before.arm and value == before.attrs.get(a.id)):
            attrs[a.id] = allowed[0]  # left as it was: the first the arm takes
        else:
            raise CampaignError(f"{a.label}: {a.label_of(value)} is not one for {arm}; {arm} takes "
                                f"{', '.join(a.label_of(c) for c in allowed)}")
    try:
        # values a rule set carries between resolutions ("_charge_target"...) are kept as they are
        carried = {k: v for k, v in attrs.items() if k.startswith("_")}
        out["attrs"] = {**carried, **resolver.attrs_for(attrs)}
    except RulesError as exc:
        raise CampaignError(str(exc)) from None
    return out


@contextmanager
def _changing(session: CampaignSession, battle_id: int, description: str) -> Iterator[tuple[Tabletop, dict, BattleRow]]:
    """One change of a tactical battle still being fought, as one campaign action:
    the battle as it stands, its stored tactical part (saved on leaving) and its row."""
    # The place (for the action's description) and the status are read first, without the
    # battle's JSON; the battle itself is read once, in the action, and told from its own row.
    with plainly(), session.store.connect() as connection:
        found = connection.execute(select(col(BattleRow.location), col(BattleRow.status)).where(col(BattleRow.id) == battle_id)).first()
    if found is None:
        raise CampaignError(f"there is no battle {battle_id}")
    location, status = found
    if status not in PLAYING:
        raise CampaignError(f"battle {battle_id} is over")
    with plainly(), session.store.action(f"Battle #{battle_id} at {location}: {description}") as db:
        row = db.get_one(BattleRow, battle_id)
        table = _table(row)
        if table.ended:
            raise CampaignError(f"battle {battle_id} is over")  # (nothing is written: the action is rolled back)
        tactical = _stored(row)
        try:
            yield table, tactical, row
        except RulesError as exc:
            raise CampaignError(str(exc)) from None
        # a unit removed, routing or fallen back (by any change) is in contact with nobody
        units = {u["id"]: Unit.from_json(u) for u in tactical["units"]}
        contacts = [Contact.from_json(c) for c in tactical.get("contacts", [])]
        tactical["contacts"] = [c.to_json() for c in still_in_contact(table.resolver, contacts, units)]
        _save(db, battle_id, tactical)


def _change(session: CampaignSession, battle_id: int, description: str, do) -> Any:
    with _changing(session, battle_id, description) as (table, tactical, _row):
        return do(table, tactical, session)


def add_unit(session: CampaignSession, battle_id: int, values: Mapping[str, Any]) -> str:
    """A unit entered by hand (a game outside the campaign, or a detachment the conversion missed)."""

    def do(table: Tabletop, tactical: dict, _session) -> str:
        checked = _checked_unit(table.resolver, {**values, "start": values.get("start", values.get("size"))}, None)
        prefix = checked["side"][0]
        # ASCII digits of a sane length: a stored id (an import's) of "a²" or "a" and 5,000 digits is not counted
        n = 1 + max((int(u[1:]) for u in table.units if u[0] == prefix and u[1:].isascii() and u[1:].isdigit() and len(u) < 10), default=0)
        unit = Unit(f"{prefix}{n}", checked["name"], checked["side"], checked["arm"], checked["size"],
                    checked["start"], checked["attrs"])
        tactical["units"] = [*tactical["units"], unit.to_json()]
        return f"{unit.name} added to the {unit.side}"

    return _change(session, battle_id, f"unit {values.get('name', '')} added", do)


def _edited(table: Tabletop, unit_id: str, values: Mapping[str, Any]) -> tuple[Unit, Unit, list[str]]:
    """The unit before and after the umpire's edit, its rule set's count of losses kept
    in step with its size, and each change as 'label old → new'."""
    before = _unit(table, unit_id)
    checked = _checked_unit(table.resolver, values, before)
    if before.force is not None and checked["side"] != before.side:
        raise CampaignError("a campaign force fights for its own side")
    try:
        after = table.resolver.reconcile(before, replace(before, **checked), table.options)
    except RulesError as exc:
        raise CampaignError(str(exc)) from None
    after = replace(after, removed=before.removed or after.size == 0)
    return before, after, changes(table.resolver, before, after)


def changes(resolver: Resolver, before: Unit, after: Unit) -> list[str]:
    """What an edit changed, field by field, as 'label old → new'."""
    size = heading(resolver.size_label)
    fields = [("Name", before.name, after.name), ("Side", before.side, after.side), ("Arm", before.arm, after.arm),
              (f"{size} now", before.size, after.size), (f"{size} at start", before.start, after.start)]
    fields += [(a.label, before.attrs.get(a.id), after.attrs.get(a.id)) for a in resolver.attributes]
    fields.append(("Removed from the table", before.removed, after.removed))
    return [f"{label} {_shown(old)} → {_shown(new)}" for label, old, new in fields if old != new]


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "-" if value in (None, "") else str(value)


def edit_unit(session: CampaignSession, battle_id: int, unit_id: str, values: Mapping[str, Any]) -> str:
    """The umpire's edit of a unit: one change of the battle, recorded old → new in the
    battle's log (the account) and the campaign's history."""
    first, _after, changed = _edited(load(session, battle_id), unit_id, values)
    if not changed:
        return f"{first.name}: nothing changed"  # no action: nothing to undo, nothing in the log

    def do(table: Tabletop, tactical: dict, _session) -> str:
        was, after, changed = _edited(table, unit_id, values)
        tactical["units"] = [after.to_json() if u["id"] == unit_id else u for u in tactical["units"]]
        text = "umpire's edit: " + "; ".join(changed)
        tactical["log"] = [*tactical["log"], {
            "turn": table.position.turn, "bound": table.position.bound, "phase": table.phase.id, "side": was.side,
            "action": "edit", "actor": unit_id, "target": None, "ticked": [], "numbers": {}, "needed": None,
            "dice": None, "raw": None, "mode": None, "text": text, "effects": [],
            "changes": changed, "before": _before(table, {unit_id})}]
        return f"{after.name}: " + "; ".join(changed)

    return _change(session, battle_id, f"{first.name} ({unit_id}) edited: " + "; ".join(changed), do)


def set_state(session: CampaignSession, battle_id: int, unit_id: str, state: str, on: bool) -> str:
    """The umpire puts a state on a unit, or takes it off, outside a resolution."""

    def do(table: Tabletop, tactical: dict, _session) -> str:
        unit = _unit(table, unit_id)
        label = table.resolver.state(state).label
        states = dict(unit.states)
        if on:
            states[state] = None
        else:
            states.pop(state, None)
        tactical["units"] = [replace(unit, states=states).to_json() if u["id"] == unit_id else u for u in tactical["units"]]
        return f"{unit.name}: {label}" if on else f"{unit.name}: no longer {label}"

    return _change(session, battle_id, f"{state} {'on' if on else 'off'} {unit_id}", do)


def rule_contact(session: CampaignSession, battle_id: int, unit_id: str, other_id: str, on: bool, reason: str) -> str:
    """The umpire's ruling: two units are in contact (or no longer), for the reason given.
    Recorded in the battle's log like a resolution."""
    if not reason.strip():
        raise CampaignError("an umpire's ruling gives its reason")

    def do(table: Tabletop, tactical: dict, _session) -> str:
        unit, other = _unit(table, unit_id), _unit(table, other_id)
        if unit.side == other.side:
            raise CampaignError(f"{unit.name} and {other.name} are on the same side: contact is with the enemy")
        found = in_contact(table.contacts, unit_id, other_id)
        if on:
            if unit.removed or other.removed:
                raise CampaignError(f"{(unit if unit.removed else other).name} has been removed from the table")
            if found is not None:
                raise CampaignError(f"{unit.name} and {other.name} are already in contact")
            contacts = [*table.contacts, Contact(unit_id, other_id, "ruling", reason.strip())]
            text = f"in contact with {other.name}"
        else:
            if found is None:
                raise CampaignError(f"{unit.name} and {other.name} are not in contact")
            contacts = [c for c in table.contacts if c is not found]
            text = f"no longer in contact with {other.name}"
        tactical["contacts"] = [c.to_json() for c in contacts]
        tactical["log"] = [*tactical["log"], {
            "turn": table.position.turn, "bound": table.position.bound, "phase": table.phase.id, "side": unit.side,
            "action": "ruling", "actor": unit_id, "target": other_id, "ruling": reason.strip(),
            "ticked": [], "numbers": {}, "needed": None, "dice": None, "raw": None, "mode": None,
            "text": f"umpire's ruling: {text} ({reason.strip()})", "effects": [], "before": _before(table, set())}]
        return f"{unit.name}: {text}"

    return _change(session, battle_id, f"ruling: {unit_id} {'in' if on else 'out of'} contact with {other_id}", do)


def set_option(session: CampaignSession, battle_id: int, option: str, value: str) -> str:
    def do(table: Tabletop, tactical: dict, _session) -> str:
        tactical["options"] = resolve_options(table.resolver.ruleset, {**tactical["options"], option: value})
        return f"{option} = {value} for this battle"

    return _change(session, battle_id, f"option {option} = {value}", do)


def _unit(table: Tabletop, unit_id: str | None) -> Unit:
    if unit_id not in table.units:
        raise CampaignError(f"there is no unit {unit_id!r} in this battle")
    return table.units[unit_id]


# -- resolutions -----------------------------------------------------------------------


def request(table: Tabletop, action: str, actor: str, target: str | None = None,
            ticked: Sequence[str] = (), numbers: Mapping[str, int] | None = None, ruling: str = "") -> Request:
    """A resolution checked against the card and the sequence of play: one sentence if wrong.

    `ruling`: the umpire's reason for taking it where the card would not (a target
    out of contact, a second resolution of the same act in this phase)."""
    actor_unit = _unit(table, actor)
    target_unit = _unit(table, target) if target else None
    req = Request(action, actor_unit, target_unit, frozenset(ticked), dict(numbers or {}), table.options,
                  table.units, table.phase.id, table.position.turn, table.position.bound, table.contacts,
                  ruling.strip(), table.battle)
    try:
        may_act(table.resolver, table.position, action, actor_unit.side)
        check_request(table.resolver, req)
    except RulesError as exc:
        raise CampaignError(str(exc)) from None
    if not req.ruling:
        done = taken(table, action, actor, target)
        if done is not None:
            raise CampaignError(done)
    return req


def taken(table: Tabletop, action: str, actor: str, target: str | None) -> str | None:
    """Why the same act of the same unit (at the same target) cannot be taken again in
    this phase, or None: the card resolves it once."""
    the_action = table.resolver.action(action)
    if the_action.repeats or target is None:  # a unit saves, reads its hits... as often as it is hit
        return None
    at = table.position
    for entry in table.log:
        if entry.get("taken_back"):
            continue
        if (entry.get("turn"), entry.get("bound"), entry.get("phase"), entry.get("action"), entry.get("actor"),
                entry.get("target")) == (at.turn, at.bound, table.phase.id, action, actor, target):
            whom = f" at {table.units[target].name}" if target in table.units else ""
            return (f"{table.units[actor].name} has already taken {the_action.title}{whom} in this phase "
                    f"({entry['text']}); u undoes it, or an umpire's ruling takes it again")
    return None


def reachable(table: Tabletop, action: str, actor: str) -> tuple[list[Unit], str]:
    """The units `action` of `actor` may take as its target now, and why the others
    are not offered (empty when every unit of the right side is)."""
    the_action = table.resolver.action(action)
    me = table.units[actor]
    side = [u for u in table.units.values() if not u.removed and u.id != actor
            and ((u.side != me.side) if the_action.target == ENEMY else (u.side == me.side))]
    out, why = [], ""
    for unit in side:
        refused = out_of_reach(the_action, me, unit, table.contacts) or taken(table, action, actor, unit.id)
        if refused:
            why = why or refused
        else:
            out.append(unit)
    return out, why


def prepare(table: Tabletop, req: Request) -> Prepared:
    try:
        return table.resolver.action(req.action).prepare(req)
    except RulesError as exc:
        raise CampaignError(str(exc)) from None


def resolve(session: CampaignSession, battle_id: int, action: str, actor: str, target: str | None = None,
            ticked: Sequence[str] = (), numbers: Mapping[str, int] | None = None,
            entered: Sequence[int] | Sequence[Sequence[int]] | Mapping[str, Sequence[int]] | None = None,
            ruling: str = "") -> str:
    """Carry out one resolution: roll (or take the dice typed in), read the card, apply the result.

    `entered`: the dice typed in; for a resolution that rolls several named expressions
    (each side's dice), a list for each (or by the expression's id), or all in one list.

    `ruling`: the umpire's reason, recorded with it, for taking it where the card would not."""

    def do(table: Tabletop, tactical: dict, session: CampaignSession) -> str:
        req = request(table, action, actor, target, ticked, numbers, ruling)
        the_action = table.resolver.action(action)
        prepared = prepare(table, req)
        if entered and not prepared.rolls_dice:
            raise CampaignError(f"{the_action.title} rolls no dice")
        purpose = f"{req.actor.name}: {prepared.what}, needs {prepared.needed}"
        # several dice expressions (each side's dice) are each a record of their own, named
        record: DiceRecord | None = roll_prepared(session.store.dice(battle=table.battle_id), prepared, purpose, entered)
        outcome: Outcome = the_action.resolve(req, record)
        touched = {actor, *([target] if target else []), *(e.unit for e in outcome.effects)}
        units = apply_effects(table.units, outcome.effects)
        lines = [effect_text(table.resolver, table.units, e) for e in outcome.effects]
        if outcome.battle:  # the battle's own state: initiative, counters
            tactical["battle"] = battle_after(table.resolver, table.battle, outcome.battle)
            lines += [f"battle: {table.resolver.battle_value(k).text(v)}" if v is not None
                      else f"battle: no longer {table.resolver.battle_value(k).label}" for k, v in outcome.battle.items()]
        tactical["units"] = _units_json(units)
        contacts = contacts_after(table.resolver, table.contacts, the_action, actor, target, units)
        tactical["contacts"] = [c.to_json() for c in contacts]
        entry = {
            "turn": table.position.turn, "bound": table.position.bound, "phase": table.phase.id,
            "side": req.actor.side, "ruling": req.ruling,
            "action": action, "actor": actor, "target": target, "ticked": sorted(req.ticked),
            "numbers": dict(req.numbers), "needed": prepared.needed,
            "dice": prepared.dice_text() or None, "raw": list(record.raw) if record else None,
            "rolls": _rolls_json(prepared, record),
            "mode": record.mode if record else None, "text": outcome.text, "effects": lines,
            "before": _before(table, touched),
        }
        tactical["log"] = [*tactical["log"], entry]
        return f"{the_action.title}, {req.actor.name}{dice_text(entry)}: {outcome.text}"

    return _change(session, battle_id, f"{action} by {actor}", do)


def _rolls_json(prepared: Prepared, record: DiceRecord | None) -> list[dict[str, Any]]:
    """Each named dice expression of a resolution that rolls several, as the log keeps it."""
    if record is None or not record.parts:
        return []
    rolled = dict(record.parts)
    return [{"id": r.id, "label": r.label, "side": r.side, "dice": r.dice, "raw": list(rolled[r.id].raw),
             "mode": rolled[r.id].mode} for r in prepared.rolls]


def dice_text(entry: Mapping[str, Any]) -> str:
    """The dice of a log entry as shown: " [3 5]", or each named expression
    " [attacker, Guard #1 3d6: 6 4 1; defender, Line #2 2d6: 2 5]"."""
    if entry.get("rolls"):
        return " [" + "; ".join(f"{r['label']} {r['dice']}: {' '.join(map(str, r['raw']))}" for r in entry["rolls"]) + "]"
    return f" [{' '.join(map(str, entry['raw']))}]" if entry.get("raw") else ""


def _before(table: Tabletop, unit_ids: set[str]) -> dict[str, Any]:
    """What a log entry changes, as it was before: enough to take the entry back."""
    return {"units": [table.units[u].to_json() for u in sorted(unit_ids) if u in table.units],
            "contacts": [c.to_json() for c in table.contacts], "battle": dict(table.battle)}


def take_back(session: CampaignSession, battle_id: int) -> str:
    """Take back the last resolution (or edit, or ruling) as one step, even after the
    phases moved on: its units and contacts are as they were before it; the phase stays
    where it is. The entry stays in the log, marked taken back; its dice stay in the
    campaign's dice records."""
    table = load(session, battle_id)
    entry = next((e for e in reversed(table.log) if not e.get("taken_back")), None)
    if entry is None:
        raise CampaignError("nothing to take back: no resolution yet")
    if "before" not in entry:
        raise CampaignError("this entry was stored before resolutions could be taken back: u undoes it")
    who = table.units[entry["actor"]].name if entry["actor"] in table.units else entry["actor"]
    what = entry["action"].replace("_", " ")

    def do(table: Tabletop, tactical: dict, _session) -> str:
        before = {u["id"]: u for u in entry["before"]["units"]}
        tactical["units"] = [before.get(u["id"], u) for u in tactical["units"]]
        tactical["contacts"] = list(entry["before"]["contacts"])
        if "battle" in entry["before"]:  # entries stored before the battle kept a state of its own have none
            tactical["battle"] = dict(entry["before"]["battle"])
        index = len(tactical["log"]) - 1 - next(i for i, e in enumerate(reversed(tactical["log"])) if not e.get("taken_back"))
        tactical["log"] = [{**e, "taken_back": True} if i == index else e for i, e in enumerate(tactical["log"])]
        return f"Taken back: {who}, {what} ({entry['text']})"

    return _change(session, battle_id, f"{who}'s {what} taken back", do)


def next_phase(session: CampaignSession, battle_id: int) -> str:
    """Tick the phase off the checklist and move to the next one."""

    def do(table: Tabletop, tactical: dict, _session) -> str:
        waiting = table.unfinished()
        if waiting:
            # the key that does what is missing: r on the unit (or any unit, for the commanders)
            key = "" if "(r " in waiting[0] else " (r on the unit resolves it)"
            raise CampaignError(f"the {table.phase.title} phase is not finished: {waiting[0]}{key}")
        after = advance(table.resolver, table.position, battle=table.battle)
        units = table.units
        if (after.turn, after.bound) != (table.position.turn, table.position.bound):
            units = new_bound_states(units)
            tactical["battle"] = new_bound_battle(table.resolver, table.battle, after.turn != table.position.turn)
        tactical["units"] = _units_json(units)
        tactical["position"] = after.__dict__
        phase = table.resolver.phases[after.phase]
        return f"{table.resolver.turn_label.title()} {after.turn}, {after.bound}: {phase.title}"

    return _change(session, battle_id, "next phase", do)


def previous_phase(session: CampaignSession, battle_id: int) -> str:
    """Go back one phase in the same bound, where the card says to go back ("allez à (c)")."""

    def do(table: Tabletop, tactical: dict, _session) -> str:
        if table.position.phase == 0:
            raise CampaignError(f"the {table.resolver.turn_label} begins with this phase; undo (u) goes back further")
        before = replace(table.position, phase=table.position.phase - 1)
        tactical["position"] = before.__dict__
        return f"Back to {table.resolver.phases[before.phase].title}"

    return _change(session, battle_id, "previous phase", do)


# -- the end, and back to the campaign -------------------------------------------------------


@dataclass(frozen=True)
class Return:
    """What ending the tactical battle gives back to the campaign."""

    winner: str
    sp_by_force: dict[str, int]  # campaign unit id -> SP lost
    sp_by_side: dict[str, int]
    lines: list[str]  # force by force, for the umpire to read before confirming


def returned(session: CampaignSession, battle_id: int, winner: str) -> Return:
    """The SP each campaign force loses for the stands (figures...) its tactical units lost."""
    if winner not in SIDES:
        raise CampaignError("say who held the field: attacker or defender")
    table = load(session, battle_id)
    if not table.standalone:
        battles.needs_weather(battles.load(session, battle_id))
    lines: list[str] = []
    by_force: dict[str, int] = {}
    by_side: dict[str, int] = {role: 0 for role in SIDES}
    if table.standalone:
        return Return(winner, {}, by_side, ["A game outside the campaign's forces: nothing goes back to the campaign."])
    conversion = load_conversion(table.resolver.ruleset)
    assert conversion is not None
    options = resolve_options(table.resolver.ruleset, table.options)  # options added since the battle began
    exact: dict[str, dict[str, Fraction]] = {role: {} for role in SIDES}
    caps: dict[str, int] = {}
    told: dict[str, tuple[str, str, int]] = {}
    with plainly(), session.store.read() as db:
        for force in sorted({u.force for u in table.units.values() if u.force}):
            row = db.get_one(CampaignUnit, force)
            mine = [u for u in table.units.values() if u.force == force]
            lost_by_arm: dict[str, int] = {}
            for u in mine:
                # one number: what the rule set counts lost, a routed or broken unit whole by its option
                lost_by_arm[u.arm] = lost_by_arm.get(u.arm, 0) + table.resolver.lost_at_end(u, options)
            exact[mine[0].side][force] = sum((sp_exact(conversion, arm, lost) for arm, lost in lost_by_arm.items()
                                              if arm in conversion.size), Fraction(0))
            caps[force] = row.strength_points
            told[force] = (row.name, ", ".join(counted(n, conversion.size_label) for n in lost_by_arm.values()), row.strength_points)
    for role in SIDES:
        shares = apportion(conversion, exact[role], caps)
        for force, sp in shares.items():
            name, lost_text, strength = told[force]
            lines.append(f"{name}: lost {lost_text} ({float(exact[role][force]):.2f} SP) -> loses {sp} of its {strength} SP")
            if sp:
                by_force[force] = sp
            by_side[role] += sp
    return Return(winner, by_force, by_side, lines)


def end(session: CampaignSession, battle_id: int, winner: str) -> str:
    """End the tactical battle, as one action: who held the field, and the SP each
    force lost as the battle's tabletop result (applied to the campaign with `a`)."""
    back = returned(session, battle_id, winner)
    with _changing(session, battle_id, f"the {winner} held the field") as (table, tactical, row):
        tactical["ended"] = {"winner": winner, "position": table.position.__dict__}
        if table.standalone:
            row.status = "done"
            row.result = f"{winner} held the field (a tabletop game outside the campaign's forces)"
        else:
            row.detail = {**row.detail, "tabletop_result": {**back.sp_by_side, "winner": winner, "by_unit": back.sp_by_force}}
    if table.standalone:
        return f"Tabletop game over: the {winner} held the field"
    return (f"Tabletop battle over, the {winner} held the field: SP lost attacker {back.sp_by_side[ATTACKER]}, "
            f"defender {back.sp_by_side[DEFENDER]}; a on the battle screen applies them to the campaign")

"""The tabletop resolver: what every tactical rule set gives the resolver screen.

A tactical rule set plugs in as a package registered under the entry point
group "adjutant.rulesets" (rules/registry.py) whose `PLUGIN` names its
resolver, a `Resolver`: the attributes its units carry, the states they can
be in, its sequence of play (`Phase`) and its resolutions (`Action`).  The
resolver screen, the stored tactical battle (campaigns/tabletop.py) and the
return of losses to the campaign are the same for every rule set; only this
description differs.  Everything here is pure: units are plain values, an
action reads them and says what to change (`Effect`), and the caller stores it.

Words used once and then throughout:

- a *bound* is one side's turn (the card's "bound", "player turn"); rule sets
  where both sides act in every phase have one bound per turn (`alternating`
  False);
- a *phase* is one line of the card's sequence of play; the checklist is the
  list of phases of the bound, with the current one marked;
- a *resolution* is one action of one unit (fire, charge, morale test...): the
  umpire picks the acting unit and its target, ticks the card's modifiers,
  types the numbers the card needs (range...), sees the number needed and the
  exact odds, then rolls or types the dice;
- a unit's *size* counts what the rule set counts (stands, figures, bases,
  strength points); losses go back to the campaign by the rule set's
  conversion (rules/conversion.py);
- the *battle's own state* is what the battle knows beyond its units (who holds
  the initiative, a turn ended by the dice): `Resolver.battle_state`, read from
  `Request.battle`, set by `Outcome.battle`;
- a resolution where each side rolls names each side's dice (`Prepared.rolls`,
  rules/named_dice.py): each is rolled and recorded apart, and read back by name.

An action may refuse with `RulesError`: its sentence is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Final, Literal

from rules import registry
from rules.dice import DiceRecord
from rules.errors import RulesError
from rules.numbers import whole
from rules.named_dice import Roll, roll_prepared  # noqa: F401  (re-exported: a resolution's dice, named)

# The closed sets of words, as types: a checker refuses "atacker" where a Side belongs.
Side = Literal["attacker", "defender"]
Whom = Literal["enemy", "friend", "none"]  # whom an action takes as its target
Acts = Literal["active", "both", "inactive"]  # who acts in a phase
Reach = Literal["contact", "charger"]
ContactChange = Literal["makes", "ends"]
AttributeKind = Literal["choice", "int", "bool", "text"]

ATTACKER: Final = "attacker"
DEFENDER: Final = "defender"
SIDES: tuple[Side, Side] = (ATTACKER, DEFENDER)
ENEMY: Final = "enemy"
FRIEND: Final = "friend"
NO_TARGET: Final = "none"
ACTIVE: Final = "active"
BOTH: Final = "both"
INACTIVE: Final = "inactive"
# whom an action may reach (Action.reach): a unit in contact with the actor, or the unit that charged it
CONTACT: Final = "contact"
CHARGER: Final = "charger"
# what an action does to contact (Action.contact): a charge makes it; a retreat ends the actor's
MAKES: Final = "makes"
ENDS: Final = "ends"


# -- what a rule set describes --------------------------------------------------


@dataclass(frozen=True)
class Attribute:
    """One attribute of a unit under this rule set (class, weapon, formation...).

    kind: "choice" (one of `choices`), "int" (lowest..highest), "bool" or "text".
    """

    id: str
    label: str
    kind: AttributeKind = "choice"
    choices: tuple[str, ...] = ()
    lowest: int = 0
    highest: int | None = None
    default: Any = None
    help: str = ""
    labels: tuple[tuple[str, str], ...] = ()  # (choice, as shown: the card's words, accents and all)
    by_arm: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (arm, the choices for it): artillery types for artillery
    arms: tuple[str, ...] = ()  # the arms it applies to (a gun's weight: artillery); empty: every arm

    def applies_to(self, arm: str) -> bool:
        return not self.arms or arm in self.arms

    def label_of(self, value: Any) -> str:
        return dict(self.labels).get(str(value), str(value).replace("_", " "))

    def choices_for(self, arm: str | None) -> tuple[str, ...]:
        """The choices for a unit of `arm` (every one when the attribute does not depend on the arm)."""
        return dict(self.by_arm).get(arm, self.choices) if arm is not None else self.choices

    def check(self, raw: Any) -> Any:
        """The value as stored, or one clear sentence."""
        if self.kind == "choice":
            text = str(raw).strip()
            if text not in self.choices:
                raise RulesError(f"{self.label} is one of {', '.join(self.choices)}, not {text!r}")
            return text
        if self.kind == "int":
            text = str(raw).strip()
            value = whole(text, self.label)
            if value < self.lowest or (self.highest is not None and value > self.highest):
                top = f" to {self.highest}" if self.highest is not None else " or more"
                raise RulesError(f"{self.label} must be {self.lowest}{top}, not {value}")
            return value
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("yes", "true", "1", "y"):
                return True
            if text in ("no", "false", "0", "n", ""):
                return False
            raise RulesError(f"{self.label} is yes or no, not {text!r}")
        return str(raw).strip()


@dataclass(frozen=True)
class State:
    """A state a unit can be in (disrupted, shaken, routing...) and how long it lasts, as the card says."""

    id: str
    label: str
    lasts: str = "until removed by a rule"


@dataclass(frozen=True)
class BattleValue:
    """A fact of the whole battle, not of one unit: who holds the initiative, a turn
    ended by the dice, a counter the card keeps.  Kept in the battle's own state
    (`Request.battle`), set by a result (`Outcome.battle`), shown on the checklist."""

    id: str
    label: str  # as shown: "Initiative"
    lasts: str = "turn"  # "bound": until the next bound; "turn": until the next turn; "battle": to the end
    shown: Callable[[Any], str] = str  # the value as shown beside the label: "the attacker moves first"
    ends_turn: bool = False  # once set, the turn is over: the next phase is the next turn's first

    def text(self, value: Any) -> str:
        return f"{self.label}: {self.shown(value)}"


@dataclass(frozen=True)
class Phase:
    """One line of the card's sequence of play."""

    id: str
    title: str
    acts: Acts = BOTH  # ACTIVE: the side whose bound it is; BOTH; INACTIVE: the other side
    actions: tuple[str, ...] = ()
    printed: str = ""  # the card's words for it
    who: str = ""  # who does what, for the checklist, when the card says more than `acts`


@dataclass(frozen=True)
class Number:
    """A number the umpire types for a resolution (range in hexes, hits...)."""

    id: str
    label: str
    lowest: int = 0
    highest: int | None = None
    default: int = 0
    decimal: bool = False  # the card prints decimals here (UC/UM's '7,5 +' cm): 7.5 or 7,5 is typed

    def parse(self, text: str) -> int | float | str:
        """The number typed, as the resolution takes it; the text itself when it is none
        (the check then says why)."""
        text = text.strip()
        if text.lstrip("-").isdigit():
            return int(text)
        if self.decimal:
            whole, sep, part = text.replace(",", ".").partition(".")
            if sep and whole.lstrip("-").isdigit() and part.isdigit() and len(part) <= 2:
                return float(f"{whole}.{part}")
        return text


@dataclass(frozen=True)
class Tick:
    """A modifier or circumstance the card lists for this resolution.

    `checked`: pre-filled from what stored state knows.  `excluded`: the reason
    the situation does not allow it; ticking it is refused with that sentence."""

    id: str
    label: str  # as printed, with its value: "+2 target behind wall"
    checked: bool = False
    excluded: str | None = None


@dataclass(frozen=True)
class Prepared:
    """A resolution shown before its dice: the number needed and the exact odds."""

    what: str  # in the card's words: who rolls what, on which table
    needed: str  # the number needed, as printed, with the modifiers applied
    dice: str | None  # for the dice service ("3d12>=9", "1d6"); None: nothing is rolled (or `rolls`)
    odds: tuple[tuple[str, Mapping[Any, Fraction]], ...] = ()  # (heading, outcome -> chance)
    notes: tuple[str, ...] = ()
    rolls: tuple[Roll, ...] = ()  # several named expressions, rolled one after the other, instead of `dice`

    @property
    def expressions(self) -> tuple[Roll, ...]:
        """Every dice expression rolled, named (one unnamed for `dice`); () when nothing is rolled."""
        if self.rolls:
            return self.rolls
        return (Roll("", "", self.dice),) if self.dice else ()

    @property
    def rolls_dice(self) -> bool:
        return bool(self.expressions)

    def dice_text(self) -> str:
        """The dice as shown: "2d6" or "attacker, Guard #1 3d6; defender, Line #2 2d6"."""
        return "; ".join(f"{r.label} {r.dice}" if r.label else r.dice for r in self.expressions)


@dataclass(frozen=True)
class Effect:
    """What a result does to one unit."""

    unit: str  # the unit's id
    lost: int = 0  # stands (figures, bases...) lost
    add: Mapping[str, int | None] = field(default_factory=dict)  # state -> bounds it lasts, this one counted (None: until removed)
    clear: tuple[str, ...] = ()  # states taken off
    set: Mapping[str, Any] = field(default_factory=dict)  # attributes changed
    removed: bool = False  # taken off the table


@dataclass(frozen=True)
class Outcome:
    text: str  # the result in the card's words
    effects: tuple[Effect, ...] = ()
    battle: Mapping[str, Any] = field(default_factory=dict)  # the battle's own state set (None: taken off)


@dataclass(frozen=True)
class Unit:
    """One tactical unit of one side, as stored in the battle."""

    id: str
    name: str
    side: Side
    arm: str  # infantry, cavalry, artillery (or what the rule set adds)
    size: int  # what is left on the table
    start: int  # what it began with
    attrs: Mapping[str, Any] = field(default_factory=dict)
    states: Mapping[str, int | None] = field(default_factory=dict)
    force: str | None = None  # the campaign unit it comes from; None when entered by hand
    removed: bool = False

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)

    def has(self, state: str) -> bool:
        return state in self.states

    @property
    def lost(self) -> int:
        return self.start - self.size

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "side": self.side, "arm": self.arm, "size": self.size,
            "start": self.start, "attrs": dict(self.attrs), "states": dict(self.states),
            "force": self.force, "removed": self.removed,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Unit:
        return cls(
            raw["id"], raw["name"], raw["side"], raw["arm"], int(raw["size"]), int(raw["start"]),
            dict(raw.get("attrs", {})), dict(raw.get("states", {})), raw.get("force"), bool(raw.get("removed", False)),
        )


@dataclass(frozen=True)
class Contact:
    """Two units in contact: `charger` charged `charged` (how = "charge"), or the
    umpire ruled them in contact (how = "ruling", with the reason)."""

    charger: str
    charged: str
    how: Literal["charge", "ruling"] = "charge"
    reason: str = ""

    def touches(self, unit_id: str) -> bool:
        return unit_id in (self.charger, self.charged)

    def other(self, unit_id: str) -> str:
        return self.charged if unit_id == self.charger else self.charger

    def to_json(self) -> dict[str, str]:
        return {"charger": self.charger, "charged": self.charged, "how": self.how, "reason": self.reason}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Contact:
        how = raw.get("how", "charge")
        if how not in ("charge", "ruling"):
            raise RulesError(f"a contact is made by a charge or a ruling, not {how!r}")
        return cls(str(raw["charger"]), str(raw["charged"]), how, str(raw.get("reason", "")))


@dataclass(frozen=True)
class Request:
    """One resolution as the umpire set it up."""

    action: str
    actor: Unit
    target: Unit | None = None
    ticked: frozenset[str] = frozenset()
    numbers: Mapping[str, int] = field(default_factory=dict)
    options: Mapping[str, str] = field(default_factory=dict)  # the rule set's named options, resolved
    units: Mapping[str, Unit] = field(default_factory=dict)  # every unit of the battle, by id
    phase: str = ""
    turn: int = 1
    bound: Side = ATTACKER  # the side whose bound it is
    contacts: tuple[Contact, ...] = ()  # who is in contact with whom, as the battle keeps it
    ruling: str = ""  # the umpire's reason for taking the resolution where the card would not
    battle: Mapping[str, Any] = field(default_factory=dict)  # the battle's own state (Resolver.battle_state)


@dataclass(frozen=True)
class Action:
    """One kind of resolution of the card.

    - `numbers(actor, target)`: the numbers the umpire types;
    - `ticks(actor, target)`: the card's modifiers, pre-filled from stored state;
    - `prepare(request)`: the number needed and the odds, or a RulesError;
    - `resolve(request, record)`: the outcome once the dice (None when
      `Prepared.dice` is None) are known.
    """

    id: str
    title: str
    target: Whom
    prepare: Callable[[Request], Prepared]
    resolve: Callable[[Request, DiceRecord | None], Outcome]
    numbers: Callable[[Unit, Unit | None], Sequence[Number]] = lambda actor, target: ()
    ticks: Callable[[Unit, Unit | None], Sequence[Tick]] = lambda actor, target: ()
    help: str = ""
    acts: Acts | None = None  # who acts, when not the phase's side: INACTIVE for a response to the enemy
    anytime: bool = False  # taken in any phase, when a result calls for it (a rout move, reading hits)
    arms: tuple[str, ...] = ()  # the arms that take it (artillery fire...); empty: any arm
    # whom it may reach: None, any unit of the right side (range is the umpire's to
    # measure); CONTACT, a unit in contact with the actor; CHARGER, the unit that charged it
    reach: Reach | None = None
    contact: ContactChange | None = None  # MAKES: the target is charged (contact); ENDS: the actor leaves contact
    repeats: bool = False  # may be taken again by the same unit at the same target in the same phase
    target_arms: tuple[str, ...] = ()  # the arms its target may be ("Support artillery": artillery); empty: any
    why: str = ""  # the card's words for whom it reaches, quoted when a target is refused


@dataclass(frozen=True)
class Resolver:
    """A tactical rule set as the resolver screen runs it."""

    ruleset: str
    title: str
    size_label: str  # "stands", "figures", "bases"...
    attributes: tuple[Attribute, ...]
    states: tuple[State, ...]
    phases: tuple[Phase, ...]
    actions: tuple[Action, ...]
    alternating: bool = True  # each side has a bound of its own, repeating the phases
    turn_label: str = "turn"
    # attributes a unit drawn from the campaign takes from its force, beyond the
    # conversion's class and defaults: (arm, campaign cohesion 1-6) -> attrs
    converted: Callable[[str, int], Mapping[str, Any]] = lambda arm, cohesion: {}
    # sentences that stop the phase from ending (hits not yet read...), for the phase id
    unfinished: Callable[[str, Mapping[str, Unit]], Sequence[str]] = lambda phase, units: ()
    arms: tuple[str, ...] = ("infantry", "cavalry", "artillery")
    shown: tuple[str, ...] = ()  # attributes shown beside the states when set (hits waiting...)
    # the card's own name for each battle side, where the card names sides (French,
    # Austrian): battle options -> {"attacker": "French", "defender": "Austrian"}
    side_names: Callable[[Mapping[str, str]], Mapping[str, str]] = lambda options: {}
    # states that take a unit out of contact (routing, broken, fallen back...)
    breaks_contact: tuple[str, ...] = ()
    # a unit edited by hand (before, after, battle options) -> the unit with the rule set's
    # own count of losses kept in step with its size, so that every reader of the losses
    # (morale modifiers, the checklist, the return to the campaign) reads one number
    reconcile: Callable[[Unit, Unit, Mapping[str, str]], Unit] = lambda before, after, options: after
    # what a unit counts as lost when the battle goes back to the campaign (battle options
    # resolved): a unit routed, broken or off the table may count whole, by a named option
    lost_at_end: Callable[[Unit, Mapping[str, str]], int] = lambda unit, options: unit.lost
    # the resolutions a unit owes now (hits waiting to be read, a morale check due),
    # offered first when the umpire resolves for it
    due: Callable[[Unit], tuple[str, ...]] = lambda unit: ()
    # ticks pre-filled from the forces and the battle's own state: (action id, actor, the
    # battle's leaders as (side, name, rating), Request.battle) -> tick ids (d10's
    # initiative: the commanders' ratings, and whether the actor's side held it last)
    prefill: Callable[[str, Unit, Sequence[tuple[str, str, str]], Mapping[str, Any]], frozenset[str]] = (
        lambda action, actor, leaders, battle: frozenset())
    # why the card does not let this unit's side take the action in this phase, or None:
    # (phase id, action id, unit, battle options) -> the sentence. Such an action is not
    # offered to the unit (13-phase: the French move in phase 3 and the Austrians shoot)
    not_for: Callable[[str, str, Unit, Mapping[str, str]], str | None] = lambda phase, action, unit, options: None
    # what the battle knows beyond its units (initiative, turn counters): Request.battle, Outcome.battle
    battle_state: tuple[BattleValue, ...] = ()
    # sentences that stop the phase from ending, read from the battle's own state (phase id, state)
    pending: Callable[[str, Mapping[str, Any]], Sequence[str]] = lambda phase, battle: ()

    def action(self, action_id: str) -> Action:
        for action in self.actions:
            if action.id == action_id:
                return action
        raise RulesError(f"{action_id!r} is not a resolution of {self.title}")

    def phase(self, phase_id: str) -> Phase:
        for phase in self.phases:
            if phase.id == phase_id:
                return phase
        raise RulesError(f"{phase_id!r} is not a phase of {self.title}")

    def state(self, state_id: str) -> State:
        for state in self.states:
            if state.id == state_id:
                return state
        raise RulesError(f"{state_id!r} is not a state of {self.title}")

    def battle_value(self, value_id: str) -> BattleValue:
        for value in self.battle_state:
            if value.id == value_id:
                return value
        raise RulesError(f"{value_id!r} is not kept by the battle under {self.title}")

    def attrs_for(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Every attribute of a unit, checked; missing ones take their default."""
        out = {}
        for attribute in self.attributes:
            value = raw.get(attribute.id, attribute.default)
            out[attribute.id] = attribute.check(value) if value is not None else None
        return out


def tactical_rulesets() -> tuple[str, ...]:
    """The rule sets with a tabletop resolver, as registered (rules/registry.py)."""
    return tuple(registry.tactical_ids())


def get_resolver(ruleset: str) -> Resolver:
    """The resolver of a tactical rule set, or one clear sentence."""
    if ruleset not in registry.tactical_ids():
        raise RulesError(
            f"{ruleset!r} has no tabletop resolver; the rule sets with one are {', '.join(registry.tactical_ids())}"
        )
    resolver = registry.load_resolver(ruleset)
    if not isinstance(resolver, Resolver) or resolver.ruleset != ruleset:
        raise RulesError(f"the resolver the rule set {ruleset} names is not a rules.resolver.Resolver of {ruleset}")
    return resolver


# -- the sequence of play ------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """Where the battle stands in the sequence: turn, whose bound, which phase."""

    turn: int = 1
    bound: Side = ATTACKER  # the side whose bound it is; the first bound is the attacker's
    phase: int = 0  # index in Resolver.phases


def other(side: Side) -> Side:
    return DEFENDER if side == ATTACKER else ATTACKER


def advance(resolver: Resolver, at: Position, first: Side = ATTACKER, battle: Mapping[str, Any] | None = None) -> Position:
    """The next phase: the next line of the card, then the other side's bound, then the next
    turn; the next turn at once when the battle's state says the turn is over (`battle`)."""
    if battle and any(v.ends_turn and battle.get(v.id) for v in resolver.battle_state):
        return Position(at.turn + 1, first, 0)
    if at.phase + 1 < len(resolver.phases):
        return replace(at, phase=at.phase + 1)
    if resolver.alternating and at.bound == first:
        return replace(at, bound=other(first), phase=0)
    return Position(at.turn + 1, first, 0)


def may_act(resolver: Resolver, at: Position, action_id: str, side: Side) -> Phase:
    """The phase, if `side` may do `action_id` in it now; otherwise one clear sentence."""
    phase = resolver.phases[at.phase]
    action = resolver.action(action_id)
    if action.anytime:
        return phase
    if action_id not in phase.actions:
        where = [p.title for p in resolver.phases if action_id in p.actions]
        if not where:
            raise RulesError(f"{action.title} is not part of the sequence of play")
        raise RulesError(f"{action.title} is not done in the {phase.title} phase; it is done in: {', '.join(where)}")
    acts = action.acts or phase.acts
    if acts == ACTIVE and side != at.bound:
        raise RulesError(f"only the {at.bound}, whose {resolver.turn_label} it is, acts in the {phase.title} phase")
    if acts == INACTIVE and side == at.bound:
        raise RulesError(f"{action.title} is taken by the {other(at.bound)}, not by the side whose {resolver.turn_label} it is")
    return phase


def battle_after(resolver: Resolver, battle: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """The battle's own state once a result's changes are made (None takes a value off)."""
    out = dict(battle)
    for key, value in changes.items():
        resolver.battle_value(key)  # a value the rule set does not keep is a mistake of its own
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def new_bound_battle(resolver: Resolver, battle: Mapping[str, Any], new_turn: bool) -> dict[str, Any]:
    """The battle's own state at the start of a new bound: what lasts a bound ends, and
    what lasts a turn ends when the turn is new."""
    ends = {"bound", "turn"} if new_turn else {"bound"}
    lasting = {v.id: v.lasts for v in resolver.battle_state}
    return {k: v for k, v in battle.items() if lasting.get(k, "battle") not in ends}


def new_bound_states(units: Mapping[str, Unit]) -> dict[str, Unit]:
    """Units at the start of a new bound (a new turn where sides do not alternate):
    states that last a number of bounds count down, and end at 0."""
    out = {}
    for unit_id, unit in units.items():
        states: dict[str, int | None] = {}
        for state, left in unit.states.items():
            if left is None:
                states[state] = None
            elif left > 1:
                states[state] = left - 1
        out[unit_id] = replace(unit, states=states)
    return out


# -- carrying out a resolution ---------------------------------------------------


def check_request(resolver: Resolver, request: Request) -> None:
    """The request's target, ticks and numbers, checked against the action: one sentence if wrong."""
    action = resolver.action(request.action)
    actor, target = request.actor, request.target
    if actor.removed:
        raise RulesError(f"{actor.name} has been removed from the table")
    if action.arms and actor.arm not in action.arms:
        raise RulesError(f"{action.title} is for {' and '.join(action.arms)} only; {actor.name} is {actor.arm}")
    if action.target == NO_TARGET and target is not None:
        raise RulesError(f"{action.title} takes no target")
    if action.target != NO_TARGET:
        if target is None:
            raise RulesError(f"{action.title} needs a target: pick one")
        if target.removed:
            raise RulesError(f"{target.name} has been removed from the table")
        if action.target == ENEMY and target.side == actor.side:
            raise RulesError(f"{action.title} takes an enemy unit as its target, not {target.name}")
        if action.target == FRIEND and target.side != actor.side:
            raise RulesError(f"{action.title} takes a friendly unit as its target, not {target.name}")
        if not request.ruling:
            refused = out_of_reach(action, actor, target, request.contacts)
            if refused:
                raise RulesError(refused)
    ticks = {t.id: t for t in action.ticks(actor, target)}
    for tick_id in request.ticked:
        if tick_id not in ticks:
            raise RulesError(f"{tick_id!r} is not a modifier the card lists for {action.title}")
        if ticks[tick_id].excluded:
            raise RulesError(f"{ticks[tick_id].label}: {ticks[tick_id].excluded}")
    for number in action.numbers(actor, target):
        value = request.numbers.get(number.id, number.default)
        kind_ok = isinstance(value, int) or (number.decimal and isinstance(value, float))
        if isinstance(value, bool) or not kind_ok or value < number.lowest or (
                number.highest is not None and value > number.highest):
            top = f" to {number.highest}" if number.highest is not None else " or more"
            what = "a number (7,5 or 7.5)" if number.decimal else "a whole number"
            raise RulesError(f"{number.label} must be {what} of {number.lowest}{top}, not {value!r}")


def apply_effects(units: Mapping[str, Unit], effects: Sequence[Effect]) -> dict[str, Unit]:
    """The units once the effects are applied: size never below 0, a unit with none left removed."""
    out = dict(units)
    for effect in effects:
        unit = out[effect.unit]
        size = max(0, unit.size - effect.lost)
        states = {k: v for k, v in unit.states.items() if k not in effect.clear}
        states.update(effect.add)
        attrs = {**unit.attrs, **effect.set}
        removed = unit.removed or effect.removed or size == 0
        out[effect.unit] = replace(unit, size=size, states=states, attrs=attrs, removed=removed)
    return out


def counted(n: int, label: str) -> str:
    """ "1 stand", "3 stands", "1 figure", "2 EC": a plural label loses its s for one."""
    return f"{n} {label[:-1] if n == 1 and label.endswith('s') else label}"


def effect_text(resolver: Resolver, units: Mapping[str, Unit], effect: Effect) -> str:
    """One line saying what the effect does, for the log."""
    unit = units[effect.unit]
    words = []
    if effect.lost:
        words.append(f"loses {counted(effect.lost, resolver.size_label)}")
    for state, left in effect.add.items():
        label = resolver.state(state).label
        words.append(f"{label} ({left} {resolver.turn_label}{'s' if left != 1 else ''})" if left else label)
    words += [f"no longer {resolver.state(s).label}" for s in effect.clear if s in unit.states]
    words += [f"{k.replace('_', ' ')} {v}" for k, v in effect.set.items() if not k.startswith("_")]
    if effect.removed:
        words.append("removed from the table")
    return f"{unit.name}: " + (", ".join(words) if words else "no change")



# -- contact: who may reach whom ---------------------------------------------------------


def in_contact(contacts: Sequence[Contact], a: str, b: str) -> Contact | None:
    return next((c for c in contacts if c.touches(a) and c.other(a) == b), None)


def out_of_reach(action: Action, actor: Unit, target: Unit, contacts: Sequence[Contact]) -> str | None:
    """Why the card does not let `action` of `actor` reach `target`, or None."""
    how = (f" ({action.why})" if action.why else "")
    if action.target_arms and target.arm not in action.target_arms:
        return (f"{target.name} is {target.arm}: {action.title} is only at "
                f"{' or '.join(action.target_arms)}{how}")
    if action.reach == CONTACT and in_contact(contacts, actor.id, target.id) is None:
        return (f"{target.name} is not in contact with {actor.name}: {action.title} is only against a unit in "
                f"contact{how}; a charge brings units into contact, j rules them in contact")
    if action.reach == CHARGER:
        found = in_contact(contacts, actor.id, target.id)
        if found is None or found.charged != actor.id:
            return (f"{target.name} has not charged {actor.name}: {action.title} answers the unit that charged it"
                    f"{how}; j rules them in contact")
    return None


def contacts_after(resolver: Resolver, contacts: Sequence[Contact], action: Action, actor: str,
                   target: str | None, units: Mapping[str, Unit]) -> list[Contact]:
    """Who is in contact once a resolution is taken: a charge makes contact, a
    retreat ends the actor's, and a unit removed or in a state that breaks contact
    (routing...) is in contact with nobody."""
    out = list(contacts)
    if action.contact == ENDS:
        out = [c for c in out if not c.touches(actor)]
    if action.contact == MAKES and target is not None and in_contact(out, actor, target) is None:
        out.append(Contact(actor, target))
    return still_in_contact(resolver, out, units)


def still_in_contact(resolver: Resolver, contacts: Sequence[Contact], units: Mapping[str, Unit]) -> list[Contact]:
    def gone(unit_id: str) -> bool:
        unit = units.get(unit_id)
        return unit is None or unit.removed or any(unit.has(s) for s in resolver.breaks_contact)

    return [c for c in contacts if not (gone(c.charger) or gone(c.charged))]

"""Battles in the campaign: set up from the stored forces, fought step by step with
the campaign's tables (or handed to the tabletop), and applied back as SP losses.

A battle in progress is a `battle` row with status "pending". Its `detail` holds
the set-up as it was when the battle began and a journal of what happened (the
dice of each step, the umpire's morale rulings). The rules' `Battle` is rebuilt
by replaying that journal, so a pending battle survives closing the program and
every roll is stored once, in the action that rolled it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import text

from campaigns.contact import check_forces
from campaigns.errors import CampaignError, plainly, typed_number
from campaigns.session import CampaignSession
from campaigns.text import TextError, plain_name
from campaigns.words import column
from rules.allemagne1813.data import Situation
from rules.allemagne1813.weather import weather_name
from rules.dice import DiceService
from rules.errors import RulesError
from rules.numbers import PIECES, STRENGTH

if TYPE_CHECKING:
    # The ORM's classes are imported by the functions that set up, fight and apply a battle:
    # the list of battles (the Battles screen's first visit) reads plain rows and does
    # without the ORM, whose import is the slowest part of a first visit that needs it.
    from models import Unit
    # The rules' battle, imported where a battle is fought or rebuilt: the battles' list
    # (the Battles screen's first visit, `adjutant battles`) does without it.
    from rules.allemagne1813.battle import Battle, Step
    from rules.allemagne1813.combat import CombatSide
    from rules.allemagne1813.pursuit import PursuitStep

TABLES = "allemagne1813"  # the campaign's own combat tables as the resolver
ATTACKER, DEFENDER = "attacker", "defender"
ELIMINATED = "eliminated"  # the option zero_sp_unit's default (rules/allemagne1813/options.toml)
ARMS = ("infantry", "cavalry", "artillery")
FACTS = (
    ("flank_attack", "Flank attack"),
    ("defender_encircled", "Defender encircled"),
    ("defender_in_mountain", "Defender in mountain"),
    ("defender_in_defensive_terrain", "Defender in defensive terrain"),
    ("defender_entrenched", "Defender entrenched"),
    ("defender_in_fortified_city", "Defender in a fortified city"),
    ("attacker_crosses_bridge", "A force attacks across a bridge"),
    ("defence_in_open_terrain", "Defence in open terrain"),
    ("attacker_fatigued", "Attacker fatigued"),
)


@dataclass
class Draft:
    """What the umpire chose for a new battle."""

    location: str
    attacker_units: list[str]
    defender_units: list[str]
    attacker_generals: list[str] = field(default_factory=list)
    defender_generals: list[str] = field(default_factory=list)
    facts: dict[str, bool] = field(default_factory=dict)
    weather: str | None = None  # clear, rain, mud, snow; None: this turn's
    # The umpire's reason for letting forces fight that are not in contact at the
    # place (campaigns/contact.py); recorded with the battle. "" checks contact.
    override: str = ""


# -- building the sides from the stored state --------------------------------


def _side(db, unit_ids: Iterable[str], general_ids: Iterable[str]) -> dict[str, Any]:
    from models import General, Unit

    units = [db.get(Unit, u) for u in unit_ids]
    missing = [u for u, row in zip(unit_ids, units) if row is None]
    if missing:
        raise CampaignError(f"there is no unit {missing[0]!r}")
    for unit in units:  # eliminated (option zero_sp_unit): no longer a force, whatever the override
        if unit.kind != "dummy" and unit.strength_points <= 0 and not unit.location:
            raise CampaignError(f"{unit.name} is off the map at 0 SP ({unit.march_note or 'eliminated'}): it cannot fight")
    fighting = [u for u in units if u.kind != "dummy" and u.strength_points > 0]
    sp = {arm: sum(u.strength_points for u in fighting if u.kind == arm) for arm in ARMS}
    generals = [db.get(General, g) for g in general_ids]
    cohesion = Fraction(sum(u.cohesion for u in fighting), len(fighting)) if fighting else Fraction(0)
    return {
        "units": [u.id for u in units],
        "names": {u.id: u.name for u in units},
        # the AB last: the tabletop conversion puts its guns on the table (rules/conversion.py)
        "forces": [[u.id, u.name, u.kind, u.strength_points, u.cohesion, u.artillery_bonus] for u in units],
        "generals": [
            {"id": g.id, "name": g.name, "rank": g.rank, "tactical_bonus": g.tactical_bonus, "command_value": g.command_value}
            for g in generals
            if g
        ],
        "sp_by_arm": sp,
        "average_cohesion": [cohesion.numerator, cohesion.denominator],
        "artillery_bonus": sum(u.artillery_bonus for u in fighting),
        "cavalry_bonus": sum(u.cavalry_bonus for u in fighting),
    }


def _combat_side(data: Mapping[str, Any]) -> CombatSide:
    from rules.allemagne1813.combat import CombatSide, Leader

    return CombatSide(
        sp_by_arm=dict(data["sp_by_arm"]),
        leaders=tuple(Leader(g["name"], g["rank"], g["tactical_bonus"]) for g in data["generals"]),
        average_cohesion=Fraction(*data["average_cohesion"]),
        artillery_bonus=data["artillery_bonus"],
        cavalry_bonus=data["cavalry_bonus"],
    )


def suggested_facts(session: CampaignSession, attacker_units: list[str], defender_units: list[str]) -> dict[str, bool]:
    """The situation as far as the stored state tells it; the umpire sets the rest."""
    from models import Unit

    with plainly(), session.store.read() as db:
        attackers = [db.get(Unit, u) for u in attacker_units]
        defenders = [db.get(Unit, u) for u in defender_units]
    facts = {key: False for key, _ in FACTS}
    facts["defender_entrenched"] = any(u is not None and u.entrenched for u in defenders)
    facts["attacker_fatigued"] = any(u is not None and u.fatigued for u in attackers)
    return facts


def current_weather(session: CampaignSession) -> str:
    from models import Campaign, Turn

    with plainly(), session.store.read() as db:
        turn = db.get(Turn, db.get_one(Campaign, 1).turn)
    if turn is None or not turn.weather:
        raise CampaignError("roll this turn's weather before a battle: it changes rounds, artillery and pursuit")
    return weather_name(turn.weather)


def weather_if_rolled(session: CampaignSession, turn: int | None = None) -> str | None:
    """The weather of `turn` (this turn by default), or None while it is not rolled."""
    from models import Campaign, Turn

    with plainly(), session.store.read() as db:
        row = db.get(Turn, turn if turn is not None else db.get_one(Campaign, 1).turn)
    return weather_name(row.weather) if row is not None and row.weather else None


def leaders_at(session: CampaignSession, unit_ids: list[str]) -> list[str]:
    """The generals the units are attached to: the leaders present by default."""
    from models import Unit

    with plainly(), session.store.read() as db:
        return sorted({u.general for u in (db.get(Unit, i) for i in unit_ids) if u and u.general})


# -- starting a battle ---------------------------------------------------------


def checked_place(raw: str) -> str:
    """Where a battle is fought, as the umpire typed it: plain text of at most NAME_LIMIT characters."""
    try:
        location = plain_name(raw, "a battle's place")
    except TextError as exc:
        raise CampaignError(str(exc)) from None
    if not location:
        raise CampaignError("say where the battle is fought")
    return location


def begin(session: CampaignSession, draft: Draft, resolver: str = TABLES) -> int:
    """Store a new pending battle; returns its id."""
    from campaigns.knowledge import sight_battle
    from models import Battle as BattleRow
    from models import Campaign, Nation, Side, Unit

    location = checked_place(draft.location)
    if not draft.attacker_units or not draft.defender_units:
        raise CampaignError("a battle needs at least one force on each side")
    if set(draft.attacker_units) & set(draft.defender_units):
        raise CampaignError("a force cannot fight on both sides")
    # the tables need the weather for the rounds; a tabletop battle only for the pursuit after it,
    # so it is set up whatever the weather and takes the turn's once rolled (`load`)
    weather = draft.weather or (current_weather(session) if resolver == TABLES else weather_if_rolled(session))
    with plainly(), session.store.read() as db:
        sides = {
            ATTACKER: _side(db, draft.attacker_units, draft.attacker_generals),
            DEFENDER: _side(db, draft.defender_units, draft.defender_generals),
        }
        for role in (ATTACKER, DEFENDER):
            nations = {db.get_one(Unit, u).nation for u in sides[role]["units"]}
            side_ids = {db.get_one(Nation, n).side for n in nations}
            if len(side_ids) > 1:
                raise CampaignError(f"the {role}'s forces belong to both sides")
            sides[role]["side"] = side_ids.pop()
        if sides[ATTACKER]["side"] == sides[DEFENDER]["side"]:
            raise CampaignError("attacker and defender are on the same side")
        turn = db.get_one(Campaign, 1).turn
    location = draft.location.strip()
    if not draft.override.strip():
        location = check_forces(
            session, location, draft.attacker_units + draft.defender_units,
            draft.attacker_generals + draft.defender_generals,
        )
    facts: dict[str, Any] = {key: bool(draft.facts.get(key, False)) for key, _ in FACTS}  # Situation's keyword arguments
    try:  # the same refusal for a tabletop battle, whose set-up the tables never read
        Situation(**facts)
    except RulesError as exc:
        raise CampaignError(str(exc)) from None
    setup = {"sides": sides, "facts": facts, "weather": weather, "options": session.options()}
    if draft.override.strip():
        setup["override"] = draft.override.strip()
    if resolver == TABLES:
        _rebuild(setup, [])  # a set-up the rules refuse is refused here, before anything is stored
    overridden = f"; the umpire overrides contact: {draft.override.strip()}" if draft.override.strip() else ""
    with plainly(), session.store.action(f"Battle of {location} begins ({resolver}){overridden}") as db:
        row = BattleRow(
            turn=turn,
            location=location,
            participants={
                role: {
                    "side": s["side"],
                    "side_name": db.get_one(Side, s["side"]).name,
                    "units": s["names"],
                    "generals": [g["name"] for g in s["generals"]],
                }
                for role, s in sides.items()
            },
            resolver=resolver,
            status="pending",
            detail={"setup": setup, "journal": []},
        )
        db.add(row)
        sight_battle(db, location, sides)  # each side now knows the enemy forces it fights
        db.flush()
        battle_id = row.id
    assert battle_id is not None
    return battle_id


# -- fighting it with the campaign's tables ----------------------------------


def _rebuild(setup: Mapping[str, Any], journal: list[dict]) -> Battle:
    from rules.allemagne1813.battle import Battle

    try:
        situation = Situation(weather=setup["weather"], **setup["facts"])
        battle = Battle(
            _combat_side(setup["sides"][ATTACKER]), _combat_side(setup["sides"][DEFENDER]), situation, setup["options"]
        )
    except RulesError as exc:  # a sentence about the set-up
        raise CampaignError(str(exc)) from None
    replay = DiceService(seed=0)  # every die of the journal is typed back in
    for entry in journal:
        if entry["do"] == "roll":
            step = battle.next_step()
            assert step is not None
            battle.resolve(step, replay, entered=entry["raw"])
        elif entry["do"] == "morale":
            battle.record_morale(entry["side"], entry["passed"])
        elif entry["do"] == "result":
            battle.record_result(entry["cell"])
        elif entry["do"] == "pursuit":
            pursuit = battle.pursuit()
            assert pursuit is not None
            battle.resolve_pursuit(pursuit, replay, entered=entry["raw"])
    return battle


@dataclass
class Fight:
    """A battle as the screen shows it: the stored row and the rules' battle replayed."""

    id: int
    location: str
    resolver: str
    status: str
    participants: dict[str, Any]
    setup: dict[str, Any]
    journal: list[dict]
    battle: Battle | None  # None for a battle handed to the tabletop
    result: str | None
    tabletop: dict[str, Any] | None = None  # the result the players reported
    tactical: bool = False  # resolved on the resolver screen (campaigns/tabletop.py)

    @property
    def next_step(self) -> Step | None:
        return self.battle.next_step() if self.battle else None

    @property
    def pursued(self) -> bool:
        return any(e["do"] == "pursuit" for e in self.journal)

    def pursuit_step(self) -> PursuitStep | None:
        """The winner's pursuit roll still to come, if there is one."""
        if self.status != "pending" or self.pursued:
            return None
        if self.battle is not None:
            return self.battle.pursuit() if self.battle.finished else None
        if self.tabletop is None:
            return None
        winner = self.tabletop["winner"]
        loser = DEFENDER if winner == ATTACKER else ATTACKER
        if self.tabletop[loser] >= sum(self.setup["sides"][loser]["sp_by_arm"].values()):
            return None
        from rules.allemagne1813.pursuit import pursuit_step

        return pursuit_step(self.setup["sides"][winner]["cavalry_bonus"], self.setup["weather"], self.setup["options"])

    @property
    def finished(self) -> bool:
        return self.tabletop is not None if self.battle is None else self.battle.finished

    @property
    def ready_to_apply(self) -> bool:
        return self.status == "pending" and self.finished and self.pursuit_step() is None

    def pursuit_loss(self) -> int:
        return sum(e.get("sp_lost", 0) for e in self.journal if e["do"] == "pursuit" and self.battle is None)


def load(session: CampaignSession, battle_id: int) -> Fight:
    # A plain row, not the ORM's: the plots and the luck ledger load every battle fought on
    # their first visit. The JSON columns are decoded as the ORM decodes them (their type's).
    from sqlalchemy import select

    from models.record_columns import BATTLE, TURN

    with plainly(), session.store.connect() as db:
        row = db.execute(select(BATTLE).where(BATTLE.c.id == battle_id)).first()
        if row is None:
            raise CampaignError(f"there is no battle {battle_id}")
        detail = dict(row.detail)
        if "setup" in detail and "weather" in detail["setup"] and detail["setup"]["weather"] is None:
            # a tabletop battle set up before the weather was rolled
            weather = db.execute(select(TURN.c.weather).where(TURN.c.number == row.turn)).scalar()
            if weather:
                detail["setup"] = {**detail["setup"], "weather": weather_name(weather)}
    journal = list(detail.get("journal", []))
    battle = _rebuild(detail["setup"], journal) if row.resolver == TABLES and "setup" in detail else None
    return Fight(
        battle_id, row.location, row.resolver, row.status, dict(row.participants), detail.get("setup", {}),
        journal, battle, row.result, detail.get("tabletop_result"), "tactical" in detail,
    )


def title(fight: Fight) -> str:
    """How the history names the battle (its rolls carry its id: DiceRoll.battle)."""
    return f"Battle #{fight.id} at {fight.location}"


class Listed(NamedTuple):
    """A battle as the list of battles shows it: a plain row, without its set-up and journal."""

    id: int
    turn: int
    location: str
    status: str
    resolver: str
    result: str | None


_LISTED = text("SELECT id, turn, location, status, resolver, result FROM battle ORDER BY id")


def battles(session: CampaignSession) -> list[Listed]:
    """Every battle of the campaign, by id: what the list shows (`load` reads one whole). Plain
    rows: the ORM's objects would read and decode each battle's JSON set-up and journal."""
    with plainly(), session.store.connect() as db:
        return [Listed(*row) for row in db.execute(_LISTED)]


def _journal(session: CampaignSession, battle_id: int, description: str, do) -> Any:
    """Run one step inside one action and append what it needs to be replayed."""
    from models import Battle as BattleRow

    fight = load(session, battle_id)
    if fight.status != "pending":
        raise CampaignError(f"battle {battle_id} is over and applied")
    with plainly(), session.store.action(description) as db:
        try:
            entry, shown = do(fight, session.store.dice(battle=battle_id))  # each roll marked as this battle's
        except RulesError as exc:  # the rules' sentence, for the umpire
            raise CampaignError(str(exc)) from None
        row = db.get_one(BattleRow, battle_id)
        detail = dict(row.detail)
        detail["journal"] = [*detail.get("journal", []), entry]
        row.detail = detail
        if fight.battle is not None:
            row.rounds = fight.battle.round_number
    return shown


def roll_step(session: CampaignSession, battle_id: int, entered: list[int] | None = None) -> str:
    """Roll (or read the typed dice of) the next step of the battle."""
    from rules.allemagne1813.battle import MORALE, UMPIRE_RESULT

    def do(fight: Fight, dice):
        battle = _tables(fight)
        step = battle.next_step()
        if step is None:
            raise CampaignError("the battle is over")
        if step.kind == MORALE and step.dice is None:
            raise CampaignError(f"the umpire records the {step.side}'s morale test: p for pass, f for fail")
        if step.kind == UMPIRE_RESULT:
            raise CampaignError("the roll is off the table: the umpire types the result")
        result = battle.resolve(step, dice, entered=entered)
        raw = list(result.record.raw) if result.record else []
        return {"do": "roll", "raw": raw}, describe_result(step, result)

    fight = load(session, battle_id)
    step = fight.next_step
    label = f"round {step.round_number} {step.side} {step.kind}" if step else "step"
    return _journal(session, battle_id, f"{title(fight)}: {label}", do)


def tactical_order(fight: Fight, role: str):
    """The tabletop order of battle of one side, by the rule set's conversion data;
    None while the rule set has no conversion yet (the umpire then types the result)."""
    from rules.conversion import load_conversion, tactical_order as convert

    conversion = load_conversion(fight.resolver)
    if conversion is None:
        return None
    changed = fight.setup.get("conversion", {})
    if changed:  # what the umpire changed for this battle
        conversion = replace(
            conversion,
            sp_per_unit=changed.get("sp_per_unit", conversion.sp_per_unit),
            size={**conversion.size, **changed.get("size", {})},
        )
    side = fight.setup["sides"][role]
    forces = [tuple(f) for f in side.get("forces", [])]
    leaders = [(g["name"], g.get("command_value", 0)) for g in side["generals"]]
    return conversion, convert(conversion, forces, leaders)


def edit_conversion(session: CampaignSession, battle_id: int, values: Mapping[str, str]) -> str:
    """Change, for this battle only, how many SP make a tabletop unit and its size by arm."""
    from models import Battle as BattleRow
    from rules.conversion import load_conversion

    fight = load(session, battle_id)
    conversion = load_conversion(fight.resolver)
    if fight.battle is not None or conversion is None:
        raise CampaignError("only a battle on the tabletop, under a rule set with a conversion, has one to edit")
    if fight.status != "pending" or fight.tabletop is not None:
        raise CampaignError("the conversion is edited before the tabletop result is typed")
    if fight.tactical:
        raise CampaignError("the units are on the table already: change them on the resolver screen")
    checked: dict[str, Any] = {"size": {}}
    for key, raw in values.items():
        number = typed_number(raw, replace(PIECES, low=1), key.replace("_", " "))
        if key == "sp_per_unit":
            checked["sp_per_unit"] = number
        elif key in conversion.size:
            checked["size"][key] = number
        else:
            raise CampaignError(f"{fight.resolver}'s conversion has no {key!r}")
    with plainly(), session.store.action(f"{title(fight)}: conversion changed") as db:
        row = db.get_one(BattleRow, battle_id)
        detail = dict(row.detail)
        detail["setup"] = {**detail["setup"], "conversion": checked}
        row.detail = detail
    return f"Conversion for battle #{battle_id}: " + ", ".join(f"{k} {v}" for k, v in {**checked["size"], "SP per unit": checked.get("sp_per_unit", conversion.sp_per_unit)}.items())


def _tables(fight: Fight) -> Battle:
    if fight.battle is None:
        raise CampaignError(f"battle {fight.id} is fought on the tabletop, not with the tables")
    return fight.battle


def describe_result(step: Step, result) -> str:
    from rules.allemagne1813.battle import MORALE

    if step.kind == MORALE:
        return f"{step.side} morale test: {'passed' if result.passed else 'failed'}"
    if result.record is None:
        return f"{step.side}: no column, no loss"
    mods = "".join(f" {m.value:+d}" for m in step.modifiers)
    star = ", morale test" if result.morale_test else ""
    assert step.column is not None  # a step that inflicted a loss was read on a column
    return (
        f"Round {step.round_number}, {step.side} {step.kind} on {column(step.column)}: "
        f"{result.die}{mods} = {result.modified_roll} -> {result.cell}: {result.sp_lost} SP lost{star}"
    )


def record_morale(session: CampaignSession, battle_id: int, passed: bool) -> str:
    from rules.allemagne1813.battle import MORALE

    fight = load(session, battle_id)
    step = fight.next_step
    if step is None or step.kind != MORALE:
        raise CampaignError("no morale test is due")

    def do(fight: Fight, _dice):
        _tables(fight).record_morale(step.side, passed)
        return {"do": "morale", "side": step.side, "passed": passed}, f"{step.side} morale test: {'passed' if passed else 'failed'} (umpire)"

    return _journal(session, battle_id, f"{title(fight)}: {step.side} morale test", do)


def record_result(session: CampaignSession, battle_id: int, cell: str) -> str:
    def do(fight: Fight, _dice):
        result = _tables(fight).record_result(cell)
        return {"do": "result", "cell": cell.strip()}, f"The umpire reads {cell.strip()}: {result.sp_lost} SP lost"

    return _journal(session, battle_id, f"{title(load(session, battle_id))}: the umpire reads a roll off the table", do)


def roll_pursuit(session: CampaignSession, battle_id: int, entered: list[int] | None = None) -> str:
    from rules.allemagne1813.pursuit import resolve_pursuit

    def do(fight: Fight, dice):
        step = fight.pursuit_step()
        if step is None:
            raise CampaignError("there is no pursuit to roll")
        if fight.battle is not None:
            result = fight.battle.resolve_pursuit(step, dice, entered=entered)
        else:
            assert fight.tabletop is not None
            loser = DEFENDER if fight.tabletop["winner"] == ATTACKER else ATTACKER
            room = sum(fight.setup["sides"][loser]["sp_by_arm"].values()) - fight.tabletop[loser]
            result = resolve_pursuit(step, dice, entered, fight.setup["options"], room=room)
        mods = "".join(f" {m.value:+d}" for m in step.modifiers)
        return {"do": "pursuit", "raw": list(result.record.raw), "sp_lost": result.sp_lost}, (
            f"Pursuit on CB {column(step.column)}: {sum(result.record.raw)}{mods} = {result.record.result} -> {result.cell}: {result.sp_lost} SP lost"
        )

    return _journal(session, battle_id, f"{title(load(session, battle_id))}: pursuit", do)


# -- applying the result -------------------------------------------------------


def _take(pool: list[Unit], lost: int, left: dict[str, int], taken: dict[str, int]) -> None:
    """Take `lost` SP from `pool` one at a time, each from the unit with the most
    SP left (the first in the battle's order on a tie), never below 0."""
    for _ in range(lost):
        candidates = [u for u in pool if left[u.id] > 0]
        if not candidates:
            return
        unit = max(candidates, key=lambda u: left[u.id])
        left[unit.id] -= 1
        taken[unit.id] = taken.get(unit.id, 0) + 1


def allocate(units: list[Unit], lost_by_arm: Mapping[str, int]) -> dict[str, int]:
    """SP each unit loses: an arm's losses fall on its own units."""
    left = {u.id: u.strength_points for u in units}
    taken: dict[str, int] = {}
    for arm, lost in lost_by_arm.items():
        _take([u for u in units if u.kind == arm], lost, left, taken)
    return taken


def _any_arm(units: list[Unit], total: int, already: Mapping[str, int] | None = None) -> dict[str, int]:
    """A loss typed in as a number of SP: spread over every arm, largest unit first
    (after the losses `already` taken)."""
    left = {u.id: u.strength_points - (already or {}).get(u.id, 0) for u in units}
    taken: dict[str, int] = {}
    _take([u for u in units if u.kind != "dummy"], total, left, taken)
    return taken


@dataclass(frozen=True)
class Settlement:
    """What applying the battle will do: shown to the umpire before it is done."""

    winner: str
    losses: dict[str, int]  # side role -> SP lost
    by_unit: dict[str, int]  # unit id -> SP lost
    names: dict[str, str]
    reason: str
    # Units left with 0 SP that the option zero_sp_unit eliminates with the losses (ids, in the
    # battle's order), and the option's choice, which the result and the account name.
    eliminated: tuple[str, ...] = ()
    zero_sp_rule: str = "eliminated"

    def eliminated_line(self) -> str:
        """What becomes of the units left with 0 SP, in one sentence ("" when there are none)."""
        if not self.eliminated:
            return ""
        who = ", ".join(self.names.get(u, u) for u in self.eliminated)
        if self.zero_sp_rule == ELIMINATED:
            return f"Eliminated at 0 SP (option zero_sp_unit): {who}: they leave the map"
        return f"Left with 0 SP (option zero_sp_unit = {self.zero_sp_rule}): {who}: they stay on the map for the umpire"


def checked_tabletop(typed: Mapping[str, Any]) -> dict[str, Any]:
    """What the players report from the tabletop: SP lost by each side and who held the field."""
    out: dict[str, Any] = {}
    for role in (ATTACKER, DEFENDER):
        out[role] = typed_number(typed.get(role, ""), STRENGTH, f"the {role}'s SP lost")
    winner = str(typed.get("winner", "")).strip()
    if winner not in (ATTACKER, DEFENDER):
        raise CampaignError("say who held the field: attacker or defender")
    out["winner"] = winner
    return out


def needs_weather(fight: Fight) -> None:
    """A tabletop battle set up before the weather was rolled returns its result once it is:
    the pursuit after it depends on the weather (none in mud)."""
    if "sides" in fight.setup and fight.setup.get("weather") is None:
        raise CampaignError("roll this turn's weather first (w, the weather screen): the pursuit after the battle "
                            "depends on it")


def record_tabletop(session: CampaignSession, battle_id: int, typed: Mapping[str, Any]) -> str:
    """Store the tabletop battle's result, as the players report it (one action)."""
    from models import Battle as BattleRow

    result = checked_tabletop(typed)
    fight = load(session, battle_id)
    if fight.battle is not None:
        raise CampaignError(f"battle {battle_id} is fought with the campaign's tables")
    if fight.status != "pending":
        raise CampaignError(f"battle {battle_id} is over and applied")
    if fight.tactical:
        raise CampaignError("this battle is on the resolver screen: ending it there returns the result")
    needs_weather(fight)
    sides = fight.setup["sides"]
    for role in (ATTACKER, DEFENDER):
        total = sum(sides[role]["sp_by_arm"].values())
        if result[role] > total:
            raise CampaignError(f"the {role} had {total} SP; it cannot lose {result[role]}")
    with plainly(), session.store.action(f"{title(fight)}: tabletop result") as db:
        row = db.get_one(BattleRow, battle_id)
        row.detail = {**row.detail, "tabletop_result": result}
    return f"Recorded: attacker lost {result[ATTACKER]} SP, defender {result[DEFENDER]} SP; the {result['winner']} held the field"


def settlement(session: CampaignSession, battle_id: int) -> Settlement:
    """The losses by unit and the winner, as applying the battle will take them."""
    from models import Unit

    fight = load(session, battle_id)
    if "sides" not in fight.setup:  # a tabletop game outside the campaign's forces
        raise CampaignError(f"{title(fight)} was played with units entered by hand: it has no campaign losses to apply")
    if fight.status != "pending":
        raise CampaignError(f"battle {battle_id} is over and applied")
    sides = fight.setup["sides"]
    with plainly(), session.store.read() as db:
        units = {role: [db.get_one(Unit, u) for u in sides[role]["units"]] for role in (ATTACKER, DEFENDER)}
    by_unit: dict[str, int] = {}
    if fight.battle is not None:
        if not fight.ready_to_apply:
            raise CampaignError("the battle is not over yet" if not fight.battle.finished else "roll the pursuit first: r on the battle screen rolls it")
        outcome = fight.battle.outcome
        assert outcome is not None
        for role in (ATTACKER, DEFENDER):
            by_unit.update(allocate(units[role], fight.battle.lost_by_arm(role)))
        losses = {role: fight.battle.sp_lost(role) for role in (ATTACKER, DEFENDER)}
        winner, reason = outcome.winner, outcome.reason
    else:
        if fight.tabletop is None:
            raise CampaignError("type the tabletop result first")
        if not fight.ready_to_apply:
            raise CampaignError("roll the pursuit first: r on the battle screen rolls it")
        winner = fight.tabletop["winner"]
        loser = DEFENDER if winner == ATTACKER else ATTACKER
        losses = {role: fight.tabletop[role] for role in (ATTACKER, DEFENDER)}
        if "by_unit" in fight.tabletop:  # unit by unit, from the resolver screen (campaigns/tabletop.py)
            by_unit.update({u: int(n) for u, n in fight.tabletop["by_unit"].items()})
            for u, n in _any_arm(units[loser], fight.pursuit_loss(), by_unit).items():
                by_unit[u] = by_unit.get(u, 0) + n
        else:
            for role in (ATTACKER, DEFENDER):
                by_unit.update(_any_arm(units[role], losses[role]))
        losses[loser] += fight.pursuit_loss()
        reason = f"fought on the tabletop under {fight.resolver}; the {winner} held the field"
    names = {u.id: u.name for role in units.values() for u in role}
    rule = session.options().get("zero_sp_unit", ELIMINATED)  # a rule set without the option keeps them
    spent = tuple(
        u.id for role in (ATTACKER, DEFENDER) for u in units[role]
        if is_spent(u) or (u.kind != "dummy" and u.location and u.strength_points - by_unit.get(u.id, 0) <= 0)
    )
    return Settlement(winner, losses, by_unit, names, reason, spent, rule)


def is_spent(unit: Any) -> bool:
    """A fighting unit at 0 SP that stands on the map: what the option zero_sp_unit rules on."""
    return unit.kind != "dummy" and unit.strength_points <= 0 and bool(unit.location)


def eliminated_note(location: str, battle_id: int, turn: int) -> str:
    """The march note of a unit eliminated in a battle: where, which battle and when."""
    return f"eliminated at 0 SP: battle of {location} (#{battle_id}), turn {turn}"


def apply(session: CampaignSession, battle_id: int) -> str:
    """Take the SP losses and close the battle, as one action that can be undone."""
    from models import Battle as BattleRow
    from models import Unit

    fight = load(session, battle_id)
    plan = settlement(session, battle_id)
    with plainly(), session.store.action(f"{title(fight)}: result applied") as db:
        for unit_id, lost in plan.by_unit.items():
            unit = db.get_one(Unit, unit_id)
            unit.strength_points = max(0, unit.strength_points - lost)
        row = db.get_one(BattleRow, battle_id)
        gone = plan.eliminated if plan.zero_sp_rule == ELIMINATED else ()
        for unit_id in gone:  # in the same action as the losses: one undo restores both
            unit = db.get_one(Unit, unit_id)
            unit.location, unit.march_note = "", eliminated_note(fight.location, battle_id, row.turn)
        row.status = "done"
        row.result = f"{plan.winner} wins: {plan.reason}"
        losses: dict[str, Any] = {"sides": plan.losses, "units": plan.by_unit}
        if plan.eliminated:
            losses["zero_sp"] = {"rule": plan.zero_sp_rule, "units": list(plan.eliminated)}
        row.losses = losses
        if fight.battle is not None and fight.battle.outcome is not None:
            row.rounds = fight.battle.outcome.rounds_fought
    said = f"Battle of {fight.location}: the {plan.winner} wins; SP lost {plan.losses[ATTACKER]} / {plan.losses[DEFENDER]}"
    if plan.eliminated:
        said += f". {plan.eliminated_line()}"
    if session.options().get("loser_retreat") == "umpire_chooses":  # campaigns.aftermath
        said += f". R on the battles screen retreats the {DEFENDER if plan.winner == ATTACKER else ATTACKER} (option loser_retreat)"
    return said

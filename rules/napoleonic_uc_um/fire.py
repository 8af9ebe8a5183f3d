"""Phase 3 fire: priority targets, effectiveness, the number needed, hits and saves.

>>> check = fire_check(FireSituation("aguerri", "musket", firing_ec=3, distance_cm=15))
>>> check.need, check.dice   # Aguerri 4 +, long range +2; 3 EC x effectiveness 2
(6, 6)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.dice import DiceRecord, Roller
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_uc_um import rolls
from rules.napoleonic_uc_um.data import RULESET, card, check_value, label, needed
from rules.napoleonic_uc_um.movement import turn_actions
from rules.napoleonic_uc_um.rolls import Check, Result
from rules.napoleonic_uc_um.troops import Troop
from rules.options import resolve_options


def _cm(text: str) -> Fraction:
    """A printed distance: '20', '10 +', '7,5 +' (French decimal comma)."""
    return Fraction(text.rstrip("+ ").replace(",", "."))


@dataclass(frozen=True)
class Reach:
    range_cm: Fraction  # Portée: the greatest range
    long_range_cm: Fraction  # Longue portée 'N +': long range from N cm


def reach(weapon: str) -> Reach:
    check_value("weapons", "weapon", weapon, "weapon")
    table = get_table(RULESET, "weapons")
    return Reach(
        _cm(table.lookup(weapon=weapon, stat="range").text),
        _cm(table.lookup(weapon=weapon, stat="long_range").text),
    )


def is_artillery(weapon: str) -> bool:
    return weapon in card().weapons.artillery


@dataclass(frozen=True)
class Effectiveness:
    printed: int  # the weapon's own (artillery: by experience)
    value: int  # after the footnote * (moved, changed formation, disordered)
    reasons: tuple[str, ...]


def effectiveness(
    weapon: str,
    experience: str,
    *,
    moved: bool = False,
    changed_formation: bool = False,
    disordered: bool = False,
) -> Effectiveness:
    """Dice per firer: the weapon's Efficacité, artillery's by experience (**), reduced to
    1 after moving, changing formation or in disorder (*)."""
    check_value("weapons", "weapon", weapon, "weapon")
    check_value("artillery_effectiveness", "experience", experience, "experience")
    cell = get_table(RULESET, "weapons").lookup(weapon=weapon, stat="effectiveness").text
    reasons = [f"{label('weapons', 'weapon', weapon)}: Efficacité {cell}"]
    if cell == card().weapons.artillery_cell:
        printed = int(get_table(RULESET, "artillery_effectiveness").lookup(experience=experience).text)
        reasons.append(f"{label('artillery_effectiveness', 'experience', experience)} = {printed}")
    else:
        printed = int(cell)
    value = printed
    why = [w for w, hit in (("moved", moved), ("changed formation", changed_formation), ("disordered", disordered)) if hit]
    reduced = card().effectiveness.reduced
    if why and printed > reduced:
        value = reduced
        reasons.append(f"Efficacité = {reduced}: the firer {' and '.join(why)} (*)")
    return Effectiveness(printed, value, tuple(reasons))


@dataclass(frozen=True)
class FireSituation:
    """One UC firing at one target.

    `factors` are the card's fire factors the umpire ticks (table fire_modifiers, e.g.
    "target_column", "good_fire_discipline"); long range, the firer's disorder and
    'Tireur avec Efficacité de 1 et ayant bougé' follow from the other fields.
    """

    experience: str
    weapon: str
    firing_ec: int
    distance_cm: float
    moved: bool = False
    changed_formation: bool = False
    disordered: bool = False
    factors: frozenset[str] | Mapping[str, int] = field(default_factory=frozenset)


def fire_check(situation: FireSituation, options: Mapping[str, str] | None = None) -> Check:
    """The number needed, the factors, the dice and the exact odds of hits."""
    s = situation
    chosen = resolve_options(RULESET, options)
    base = needed("to_hit", "experience", s.experience, "experience")
    turn_actions(s.experience, moved=s.moved, changed_formation=s.changed_formation, options=options).check(fires=True)
    if s.firing_ec < 1:
        raise RulesError(f"at least one EC must fire, not {s.firing_ec}")
    if s.distance_cm < 0:
        raise RulesError(f"a distance cannot be negative ({s.distance_cm} cm)")
    weapon_reach = reach(s.weapon)
    distance = Fraction(str(s.distance_cm))
    if distance > weapon_reach.range_cm:
        raise RulesError(
            f"{label('weapons', 'weapon', s.weapon)} reaches {weapon_reach.range_cm} cm: "
            f"a target at {s.distance_cm} cm is out of range"
        )
    eff = effectiveness(
        s.weapon, s.experience, moved=s.moved, changed_formation=s.changed_formation, disordered=s.disordered
    )
    moved_one = eff.printed if chosen["moved_effectiveness_one"] == "printed_one" else eff.value
    derived = {
        "long_range": int(distance >= weapon_reach.long_range_cm),
        "firer_disordered": int(s.disordered),
        "firer_moved_effectiveness_one": int(s.moved and moved_one == 1),
    }
    applied = rolls.apply_factors("fire", s.factors, derived=derived, weapon=s.weapon)
    need = base + sum(a.value for a in applied)
    target = rolls.hit_target(need, chosen["natural_one_to_hit"] == "always_misses")
    per_ec = chosen["fire_dice"] == "per_ec"
    dice = eff.value * (s.firing_ec if per_ec else 1)
    notes = eff.reasons + (
        (f"{s.firing_ec} EC x {eff.value} = {dice} dice",) if per_ec else (f"the UC rolls {dice} dice",)
    )
    return Check(
        kind="fire",
        base=base,
        base_label=f"{label('to_hit', 'experience', s.experience)} {base} +",
        applied=applied,
        need=need,
        target=target,
        dice=dice,
        odds=rolls.pool_odds(dice, target),
        notes=notes,
    )


def hits_result(check: Check, record: DiceRecord, hits: int) -> Result:
    """Hits in the card's words ('touches')."""
    words = card().words
    return Result(
        check,
        record,
        hits,
        rolls.pluriel(hits, words.hit, words.hits),
        rolls.plural(hits, "hit", "hits"),
    )


def roll_fire(
    check: Check, service: Roller, *, entered: Sequence[int] | None = None, by: str = "umpire"
) -> Result:
    """Roll the fire dice; the result is the number of hits ('touches')."""
    if check.kind != "fire":
        raise RulesError(f"roll_fire rolls a fire check, not a {check.kind} check")
    record, hits = rolls.roll(check, service, "fire", entered=entered, by=by)
    return hits_result(check, record, hits)


def save_check(attack: str, hits: int) -> Check:
    """Saves: one d6 per hit, 3+ against fire and 4+ in melee (table save)."""
    base = needed("save", "attack", attack, "attack")
    if hits < 1:
        raise RulesError(f"there must be at least one hit to save, not {hits}")
    return Check(
        kind="save",
        base=base,
        base_label=f"Sauvegarde {label('save', 'attack', attack)} {base}+",
        applied=(),
        need=base,
        target=base,
        dice=hits,
        odds=rolls.pool_odds(hits, base),
        notes=(f"{hits} hits: one save die each",),
    )


def roll_save(
    check: Check, service: Roller, *, entered: Sequence[int] | None = None, by: str = "umpire"
) -> Result:
    """Roll the saves; `extra['losses']` is the hits not saved ('pertes')."""
    if check.kind != "save":
        raise RulesError(f"roll_save rolls a save check, not a {check.kind} check")
    record, saved = rolls.roll(check, service, "saves", entered=entered, by=by)
    lost = check.dice - saved
    words = card().words
    text = f"{rolls.pluriel(saved, words.save, words.saves)}, {rolls.pluriel(lost, words.loss, words.losses)}"
    english = f"{rolls.plural(saved, 'save', 'saves')}, {rolls.plural(lost, 'loss', 'losses')}"
    return Result(check, record, saved, text, english, {"losses": lost})


def fire_loss_odds(check: Check) -> dict[int, Fraction]:
    """Exact chance of each number of losses from this fire after the target's saves."""
    return rolls.loss_odds(check, needed("save", "attack", "fire", "attack"))


def fire_factors(
    target: Troop,
    *,
    charging: bool = False,
    hidden: bool = False,
    skirmishers: bool = False,
    firer_weapon: str | None = None,
    firer_charged: bool = False,
    regimental_artillery: bool = False,
    fire_discipline: str = "",
) -> frozenset[str]:
    """The fire factors a described target and firer call for, to pre-fill the ticks.

    fire_discipline is "good", "poor" or "" (neither named).
    """
    if fire_discipline not in ("", "good", "poor"):
        raise RulesError(f"fire discipline is good, poor or not given, not {fire_discipline!r}")
    ids = {
        "target_charging": charging,
        "target_hidden": hidden,
        "target_with_skirmishers": skirmishers and not charging,
        "target_column": target.in_column,
        "target_square": target.in_square,
        "target_cavalry": target.arm == "cavalry",
        "target_irregular_light_horse": target.kind == "irregular_light_horse",
        "target_deployed_artillery": target.arm == "artillery" and target.formation == "unlimbered",
        "target_limbered_artillery": target.arm == "artillery" and target.formation == "limbered",
        "good_fire_discipline": fire_discipline == "good",
        "poor_fire_discipline": fire_discipline == "poor",
        "regimental_artillery": regimental_artillery,
        "artillery_charged": firer_charged and firer_weapon is not None and is_artillery(firer_weapon),
    }
    return frozenset(k for k, v in ids.items() if v)


@dataclass(frozen=True)
class Candidate:
    """An enemy unit the firer can see and reach, with what the priorities ask of it."""

    name: str
    distance_cm: float
    charging_firer: bool = False
    can_charge_or_fire_at_firer: bool = False
    charging_friend_within_10cm: bool = False


@dataclass(frozen=True)
class Priority:
    letter: str  # a) to e)
    printed: str
    targets: tuple[str, ...]  # the firer picks one of these


def priority_targets(candidates: Sequence[Candidate], *, artillery_with_general: bool = False) -> Priority:
    """The first of the card's priorities a) to e) that names a candidate.

    `artillery_with_general`: the firer is artillery with an artillery general or its
    divisional general within 5 cm (priority d, free choice).
    """
    if not candidates:
        raise RulesError("there is no enemy unit to fire at")
    close = card().distances.priority_close
    table = get_table(RULESET, "fire_priority")
    for c in candidates:
        if c.distance_cm < 0:
            raise RulesError(f"a distance cannot be negative ({c.name}: {c.distance_cm} cm)")
    nearest = min(Fraction(str(c.distance_cm)) for c in candidates)
    rules = (
        ("a", [c for c in candidates if c.charging_firer]),
        ("b", [c for c in candidates if c.can_charge_or_fire_at_firer and Fraction(str(c.distance_cm)) <= close]),
        ("c", [c for c in candidates if c.charging_friend_within_10cm]),
        ("d", list(candidates) if artillery_with_general else []),
        ("e", [c for c in candidates if Fraction(str(c.distance_cm)) == nearest]),
    )
    for letter, found in rules:
        if found:
            return Priority(letter, table.lookup(priority=letter).text, tuple(c.name for c in found))
    raise AssertionError("priority e) always names the nearest unit")

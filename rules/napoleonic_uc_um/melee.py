"""Phase 3 melee, step (c): the elements that fight, the number needed, hits and saves.

>>> check = melee_check(MeleeSituation("veteran", "cavalry", elements=2,
...                                    factors=frozenset({"cavalry_vs_open_infantry"})))
>>> check.need, check.dice   # Vétéran 3 +, cavalry against infantry not in square - 2
(1, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.dice import Roller
from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_uc_um import rolls
from rules.napoleonic_uc_um.data import ARMS, RULESET, card, label, needed
from rules.napoleonic_uc_um.fire import effectiveness, hits_result
from rules.napoleonic_uc_um.rolls import Check, Result
from rules.napoleonic_uc_um.troops import Troop
from rules.options import resolve_options


@dataclass(frozen=True)
class Elements:
    count: int
    reasons: tuple[str, ...]


def fighting_elements(
    round_number: int,
    *,
    in_contact: int = 0,
    second_rank: int = 0,
    french_column_charged: bool = False,
    within_5cm: int = 0,
) -> Elements:
    """The EC of one UC that fight (table melee_elements).

    Round 1: the EC in contact, plus the second rank (`second_rank` EC) of a column
    with French doctrine that charged or counter-charged. Later rounds: every EC
    within 5 cm of a fighting enemy element (`within_5cm`).
    """
    table = get_table(RULESET, "melee_elements")
    if round_number < 1:
        raise RulesError(f"melee rounds start at 1, not {round_number}")
    if min(in_contact, second_rank, within_5cm) < 0:
        raise RulesError("a number of EC cannot be negative")
    rule = table.lookup(round=round_number, elements="fighting").text
    if round_number == 1:
        if within_5cm:
            raise RulesError(f"in the first round only the elements in contact fight ({rule})")
        if second_rank and not french_column_charged:
            raise RulesError(
                "only a column with French doctrine that charged or counter-charged adds its second rank"
            )
        reasons = [f"{in_contact} EC in contact ({rule})"]
        if second_rank:
            extra = table.lookup(round=round_number, elements="second_rank").text
            reasons.append(f"{second_rank} EC of the second rank ({extra})")
        return Elements(in_contact + second_rank, tuple(reasons))
    if in_contact or second_rank:
        raise RulesError(f"after the first round the elements within 5 cm fight ({rule}): give within_5cm")
    return Elements(within_5cm, (f"{within_5cm} EC within 5 cm ({rule})",))


@dataclass(frozen=True)
class MeleeSituation:
    """One UC's dice in a round of melee.

    `factors` are the card's melee factors the umpire ticks (table melee_modifiers);
    the unit's own disorder ('Unité en désordre et combattant') follows from
    `disordered`. `kind` is the cavalry kind (lancers, cuirassiers...); `weapon` is
    read only under the option melee_dice = weapon_effectiveness.
    """

    experience: str
    arm: str
    elements: int
    round_number: int = 1
    kind: str = ""
    disordered: bool = False
    weapon: str | None = None
    factors: frozenset[str] | Mapping[str, int] = field(default_factory=frozenset)


def melee_check(situation: MeleeSituation, options: Mapping[str, str] | None = None) -> Check:
    """The number needed, the factors, the dice and the exact odds of hits."""
    s = situation
    chosen = resolve_options(RULESET, options)
    base = needed("to_hit", "experience", s.experience, "experience")
    if s.arm not in ARMS:
        raise RulesError(f"arm {s.arm!r} is not on the card; it is infantry, cavalry or artillery")
    if s.elements < 1:
        raise RulesError(f"at least one element must fight, not {s.elements}")
    if s.round_number < 1:
        raise RulesError(f"melee rounds start at 1, not {s.round_number}")
    applied = rolls.apply_factors(
        "melee",
        s.factors,
        derived={"disordered": int(s.disordered)},
        arm=s.arm,
        kind=s.kind,
        round_number=s.round_number,
    )
    need = base + sum(a.value for a in applied)
    target = rolls.hit_target(need, chosen["natural_one_to_hit"] == "always_misses")
    if chosen["melee_dice"] == "weapon_effectiveness":
        if s.weapon is None:
            raise RulesError("the option melee_dice = weapon_effectiveness needs the unit's weapon")
        per = effectiveness(s.weapon, s.experience).printed
        notes = (f"{s.elements} elements x Efficacité {per} = {s.elements * per} dice",)
    else:
        per = 1
        notes = (f"{s.elements} elements, one die each",)
    return Check(
        kind="melee",
        base=base,
        base_label=f"{label('to_hit', 'experience', s.experience)} {base} +",
        applied=applied,
        need=need,
        target=target,
        dice=s.elements * per,
        odds=rolls.pool_odds(s.elements * per, target),
        notes=notes,
    )


def roll_melee(
    check: Check, service: Roller, *, entered: Sequence[int] | None = None, by: str = "umpire"
) -> Result:
    """Roll the melee dice; the result is the number of hits ('touches')."""
    if check.kind != "melee":
        raise RulesError(f"roll_melee rolls a melee check, not a {check.kind} check")
    record, hits = rolls.roll(check, service, "melee", entered=entered, by=by)
    return hits_result(check, record, hits)


def melee_loss_odds(check: Check) -> dict[int, Fraction]:
    """Exact chance of each number of losses from these melee dice after the enemy's saves."""
    return rolls.loss_odds(check, needed("save", "attack", "melee", "attack"))


def melee_factors(
    own: Troop, enemy: Troop, *, round_number: int = 1, enemy_counter_charged: bool = False
) -> frozenset[str]:
    """The melee factors of `own` fighting `enemy`, to pre-fill the ticks (the unit's own
    disorder is given to MeleeSituation, not ticked)."""
    cavalry = own.arm == "cavalry"
    lancers = cavalry and own.kind in card().factors["melee"]["lancers_cuirassiers_vs_open_infantry"].kinds
    ids = {
        "cavalry_vs_open_infantry": cavalry and enemy.open_infantry,
        "lancers_cuirassiers_vs_open_infantry": lancers and not own.disordered and enemy.open_infantry,
        "against_cuirassiers": own.arm in ("cavalry", "infantry") and enemy.cuirassiers,
        "enemy_in_cover": round_number == 1 and enemy.in_cover and not enemy_counter_charged,
        "cavalry_vs_solid_square": cavalry and enemy.square_in_order and enemy.formation == "solid_square",
        "cavalry_vs_hollow_square": cavalry and enemy.square_in_order and enemy.formation == "hollow_square",
    }
    return frozenset(k for k, v in ids.items() if v)

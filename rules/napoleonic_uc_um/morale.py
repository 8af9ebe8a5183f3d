"""Morale tests: Phase 1 loss tests, the charge tests (a), (b) and the chargers',
and the test after melee.

>>> check = morale_check(MoraleSituation("confiant", "infantry",
...                                      factors=frozenset({"general_near", "in_cover"})))
>>> check.need, round(float(check.odds[1]), 4)   # Confiant 4 +, -1, -1: 2+
(2, 0.8333)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.dice import Roller
from rules.errors import RulesError
from rules.napoleonic_uc_um import rolls
from rules.napoleonic_uc_um.data import ARMS, RULESET, card, check_value, label, needed
from rules.napoleonic_uc_um.rolls import Check, Result
from rules.napoleonic_uc_um.troops import Troop
from rules.options import resolve_options

FACINGS = ("front", "flank", "rear")


@dataclass(frozen=True)
class MoraleSituation:
    """One UC (or UM, or division) taking a morale test at a step of the sequence.

    `factors` are the card's morale factors the umpire ticks (table morale_modifiers);
    `facing` is where this UC's own charge goes in on its enemy (front, flank or rear:
    the starred factors do not count on the flank or rear); `covered_flanks` is the
    number of flanks of an artillery UC with a UC in order within 5 cm (0 to 2).
    """

    temperament: str
    arm: str
    step: str = "3.9"
    factors: frozenset[str] | Mapping[str, int] = field(default_factory=frozenset)
    facing: str = "front"
    covered_flanks: int = 0


def morale_check(situation: MoraleSituation, options: Mapping[str, str] | None = None) -> Check:
    """The number needed, the factors and the exact chance to pass (odds[1])."""
    s = situation
    resolve_options(RULESET, options)
    base = needed("morale", "temperament", s.temperament, "temperament")
    if s.arm not in ARMS:
        raise RulesError(f"arm {s.arm!r} is not on the card; it is infantry, cavalry or artillery")
    steps = card().morale_test.steps
    if s.step not in steps:
        raise RulesError(f"step {s.step!r} calls for no morale test; the tests are at steps {', '.join(steps)}")
    if s.facing not in FACINGS:
        raise RulesError(f"facing {s.facing!r} is front, flank or rear")
    applied = rolls.apply_factors(
        "morale", s.factors, derived={"artillery_flank_covered": s.covered_flanks}, arm=s.arm, facing=s.facing
    )
    need = base + sum(a.value for a in applied)
    target = rolls.morale_target(need)
    rules = card().morale_test
    return Check(
        kind="morale",
        base=base,
        base_label=f"{label('morale', 'temperament', s.temperament)} {base} +",
        applied=applied,
        need=need,
        target=target,
        dice=1,
        odds=rolls.pool_odds(1, target),
        notes=(f"a {rules.always_passes} always passes, a {rules.always_fails} always fails",),
        step=s.step,
    )


def roll_morale(
    check: Check,
    service: Roller,
    *,
    entered: Sequence[int] | None = None,
    by: str = "umpire",
    options: Mapping[str, str] | None = None,
) -> Result:
    """Roll the test; the text is the card's: 'réussi', or 'raté' and its effect."""
    if check.kind != "morale":
        raise RulesError(f"roll_morale rolls a morale check, not a {check.kind} check")
    chosen = resolve_options(RULESET, options)
    record, passed = rolls.roll(check, service, f"morale test (step {check.step})", entered=entered, by=by)
    words = card().words
    after_melee = check.step == card().charge.after_melee
    if passed:
        if after_melee:
            text = f"{words.passed}: {words.fall_back} ou {words.fight_on} (allez à (c))"
            english = "passed: fall back, or fight on (go to (c))"
        else:
            text, english = words.passed, "passed"
    elif after_melee or chosen["failed_test_effect"] == "rupture":
        text, english = f"{words.failed}: {words.rout}", "failed: rout"
    else:
        text, english = words.failed, "failed: the umpire decides the effect"
    return Result(check, record, passed, text, english, {"passed": bool(passed)})


def morale_factors(
    unit: Troop,
    *,
    charging: Troop | None = None,
    facing: str = "front",
    charged_by: Troop | None = None,
    in_contact_with: Troop | None = None,
    general_near: bool = False,
    national_characteristic: bool = False,
) -> frozenset[str]:
    """The morale factors a described situation calls for, to pre-fill the ticks
    (artillery flanks are counted in MoraleSituation.covered_flanks)."""
    if facing not in FACINGS:
        raise RulesError(f"facing {facing!r} is front, flank or rear")
    front = charging is not None and facing == "front"
    attackers = [t for t in (charged_by, in_contact_with) if t is not None]
    targets = [t for t in (charging, in_contact_with) if t is not None]
    by_cavalry = any(t.arm == "cavalry" for t in attackers)
    ids = {
        "general_near": general_near,
        "in_cover": unit.in_cover,
        "disordered_and_charged": unit.disordered and charged_by is not None,
        "infantry_charging_cavalry": front and unit.arm == "infantry" and charging.arm == "cavalry",  # type: ignore[union-attr]  # front only with a charging unit
        "charging_artillery": front and charging.arm == "artillery",  # type: ignore[union-attr]  # front only with a charging unit
        "charged_by_cuirassiers": charged_by is not None and charged_by.cuirassiers,
        "cavalry_charging_cavalry": unit.arm == "cavalry" and charging is not None and charging.arm == "cavalry",
        "cavalry_vs_guns_or_open_infantry": unit.arm == "cavalry"
        and any(t.arm == "artillery" or t.open_infantry for t in targets),
        "hollow_square_vs_cavalry": by_cavalry and unit.square_in_order and unit.formation == "hollow_square",
        "solid_square_vs_cavalry": by_cavalry and unit.square_in_order and unit.formation == "solid_square",
        "open_infantry_vs_cavalry": by_cavalry and unit.open_infantry,
        "infantry_charging_line": unit.arm == "infantry"
        and charging is not None
        and charging.arm == "infantry"
        and charging.formation == "line"
        and not charging.disordered,
        "national_characteristic": national_characteristic,
    }
    return frozenset(k for k, v in ids.items() if v)


def must_test(lost: int, strength: int) -> bool:
    """Phase 1: a UC or UM that lost more than half its EC, a division more than half
    its UM ('+ de la moitié'), tests."""
    if strength < 1 or not 0 <= lost <= strength:
        raise RulesError(f"losses must be between 0 and the strength ({strength}), not {lost}")
    rule = card().loss_test
    return lost * rule.denominator > strength * rule.numerator


def formation_temperament(temperaments: Sequence[str], options: Mapping[str, str] | None = None) -> str:
    """The temperament a UM or a division tests with (option formation_test_temperament)."""
    if not temperaments:
        raise RulesError("a UM or division with no UC left has nothing to test")
    for t in temperaments:
        check_value("morale", "temperament", t, "temperament")
    confidence = {t: -needed("morale", "temperament", t, "temperament") for t in temperaments}
    if resolve_options(RULESET, options)["formation_test_temperament"] == "least_confident":
        return min(temperaments, key=lambda t: confidence[t])
    counts = Counter(temperaments)
    return max(counts, key=lambda t: (counts[t], -confidence[t]))


def who_tests_after_melee(losses: Mapping[str, int], options: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The sides that take the test of step 3.9, by the option melee_morale_test.
    `losses` gives the EC each side lost in the round."""
    if len(losses) != 2 or any(v < 0 for v in losses.values()):
        raise RulesError("give the EC lost in the round by each of the two sides (0 or more)")
    sides = tuple(losses)
    if resolve_options(RULESET, options)["melee_morale_test"] == "both":
        return sides
    most = max(losses.values())
    return tuple(s for s in sides if losses[s] == most)

"""The French UC/UM card (seed 003): rule set `napoleonic_uc_um`.

UC is the unité de combat (combat unit), UM the unité de manœuvre (manoeuvre unit,
a brigade of UC), EC the élément combattant (one base of a UC). Every roll is a d6
against a number needed: to hit by expérience (Elite 2+ ... Conscrit 5+), saves 3+
against fire and 4+ in melee, morale by tempérament (Intrépide 3+ ... Hésitant 5+),
with the card's cumulative factors added to the number needed.

The tables are data (tables/*.toml, read with `rules.lookup`); `factors("fire")`
lists the card's fire (melee, morale) factors with their French, English and value,
`label()` gives the French-with-English label of any axis value, `english()` the
English of a term (UC, rupture...). The procedures:

- `movement`: speed, going_of, move, command_distance_cm, in_command, turn_actions,
  may_charge;
- `fire`: priority_targets, effectiveness, reach, fire_check, roll_fire, save_check,
  roll_save, fire_loss_odds, fire_factors;
- `melee`: fighting_elements, melee_check, roll_melee, melee_loss_odds, melee_factors;
- `morale`: morale_check, roll_morale, morale_factors, must_test,
  formation_temperament, who_tests_after_melee;
- `sequence`: steps, next_step, charge_tests, after_melee_test, melee_winner,
  after_pursuit.

>>> from rules import lookup
>>> lookup("napoleonic_uc_um", "to_hit", experience="aguerri").text
'4 +'
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.errors import RulesError
from rules.registry import RuleSet

if TYPE_CHECKING:
    from rules.napoleonic_uc_um.data import RULESET, english, factors, label

# The card's data (rules.toml, terms.toml, their pydantic models) is read when first asked
# for, not when the rule set is found: every list of rule sets (the Rules screen's, `adjutant
# rules list`) imports each plug-in to read its PLUGIN.
_FROM_DATA = ("RULESET", "check_value", "english", "factors", "label")


def __getattr__(name: str) -> Any:
    if name in _FROM_DATA:
        from rules.napoleonic_uc_um import data

        return getattr(data, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def quality(text: str) -> tuple[str, str]:
    """The (expérience, tempérament) of a conversion quality such as 'aguerri/confiant'."""
    from rules.napoleonic_uc_um.data import check_value

    experience, sep, temperament = text.partition("/")
    if not sep:
        raise RulesError(f"a quality is written expérience/tempérament, such as aguerri/confiant, not {text!r}")
    check_value("to_hit", "experience", experience, "experience")
    check_value("morale", "temperament", temperament, "temperament")
    return experience, temperament


__all__ = ["PLUGIN", "RULESET", "english", "factors", "label", "quality"]

# The rule set as a plug-in: pyproject.toml names this object under "adjutant.rulesets".
PLUGIN = RuleSet(
    id="napoleonic_uc_um",
    title="UC/UM rules (French card)",
    folder=Path(__file__).parent,
    resolver="rules.napoleonic_uc_um.resolver:RESOLVER",
)

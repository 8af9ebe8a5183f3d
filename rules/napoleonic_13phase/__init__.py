"""The French-Austrian 13-phase rules (seed 004, "V. A15"): the rules layer.

Tables are data (tables/*.toml, read with `rules.lookup`); the card's other numbers
are in rules.toml, its open questions in options.toml, the campaign hand-off in
conversion.toml. The procedures take a described situation and return the number
needed, the modifiers applied, the exact odds and, once rolled through the dice
service, the result in the card's words:

- sequence: `turn_sequence`, `phase`, `next_phase`
- fire: `artillery_fire` (phase 1), `fire` (phases 3 and 8), `square_fire`, `turn_to_face`
- morale: `morale_check` (phases 2, 4, 5, 7, 9, 10, 12), `recall_check` (phase 13)
- movement: `movement_allowance`, `infantry_charge`, `cavalry_charge`,
  `skirmishers_evade`, `locked_in_firefight`, `check_wheel`, `guard_presses_charge`
- melee: `melee` (phases 6 and 11), `dice_for`, `melee_modifiers`
- rolls: `card_roll` (d6 casualties, d6” retreat...)

>>> from rules import lookup
>>> lookup("napoleonic_13phase", "morale", **{"class": "veteran"}).text
'5 or less'
"""

from pathlib import Path

from rules.registry import RuleSet

# The rule set as a plug-in: pyproject.toml names this object under "adjutant.rulesets".
PLUGIN = RuleSet(
    id="napoleonic_13phase",
    title="13-phase French-Austrian rules",
    folder=Path(__file__).parent,
    resolver="rules.napoleonic_13phase.resolver:RESOLVER",
)

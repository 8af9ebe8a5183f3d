"""Kallistra's American Civil War hex-based rules (2014 draft), seed card 002.

The card's tables are data (tables/*.toml), its other numbers are in rules.toml,
and where the card is silent a named option decides (options.toml).  The
procedures, each over a described situation (`data.Stands`, `fire.Shot`,
`charge.ChargeDefence`), return what they applied and the exact odds:

- fire.small_arms_fire, fire.artillery_fire -> rolls.HitsStep; rolls.roll_hits
- charge.response_step / resolve_response; charge.hand_to_hand_step
- combat.combat_result, combat_odds, apply_combat, hits_to_read
- moves.movement_allowance, rout_step / resolve_rout, recoil, evade_move,
  rallies, in_command, general_move
- sequence.steps, check_action

>>> from rules import lookup
>>> lookup("kallistra_acw", "small_arms", weapon="RM", range=2, **{"class": "R"}).text
'7+'
"""

from pathlib import Path

from rules.registry import RuleSet

# The rule set as a plug-in: pyproject.toml names this object under "adjutant.rulesets".
PLUGIN = RuleSet(
    id="kallistra_acw",
    title="Kallistra ACW hex rules",
    folder=Path(__file__).parent,
    resolver="rules.kallistra_acw.resolver:RESOLVER",
)

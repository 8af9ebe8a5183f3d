"""napoleonic_d10: the English battalion-level Napoleonic QRS of seed 001
(001_c4de82bc21018f2c.txt): d10s, morale by CW level and class dice.

The tables are data (tables/*.toml, read with `rules.lookup`); the prose numbers
of the card are rules.toml; where the card is silent, options.toml names a
default. The procedures, each over a described situation, returning the
modifiers applied, the natural totals each result needs, the exact odds and,
rolled through the dice service, the result in the card's words:

- morale: MoraleSituation, morale_check, resolve_morale, morale_effect,
  MoraleEvent, morale_checks_due, crash_through_check
- fire: FireSituation, fire_check, resolve_fire, range_effect,
  fire_discipline_check, defensive_fire_reach
- charge: ChargeSide, ChargeSituation, charge_check, resolve_charge,
  charge_result, may_continue_charge, may_ride_down, surrender_percent,
  melee_check, melee_round
- movement: MovementSituation, movement_check, movement_distance,
  artillery_move, terrain_effect
- initiative: Commander, initiative_odds, roll_initiative,
  local_initiative_check, command_radius
- skirmish: skirmish_check, disruption_check, read_state
- rolls: TableRoll (odds, needed, roll), Rolled
"""

from pathlib import Path

from rules.registry import RuleSet

# The rule set as a plug-in: pyproject.toml names this object under "adjutant.rulesets".
PLUGIN = RuleSet(
    id="napoleonic_d10",
    title="d10 battalion rules",
    folder=Path(__file__).parent,
    resolver="rules.napoleonic_d10.resolver:RESOLVER",
)

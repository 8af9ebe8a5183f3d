"""Allemagne 1813: the operational game's tables (tables/*.toml), its other numbers
(rules.toml) and named readings (options.toml), and its procedures
(march, combat, battle, pursuit, weather...)."""

from pathlib import Path

from rules.registry import RuleSet

# The rule set as a plug-in: pyproject.toml names this object under "adjutant.rulesets".
PLUGIN = RuleSet(
    id="allemagne1813",
    title="Allemagne 1813",
    folder=Path(__file__).parent,
    resolver=None,
)

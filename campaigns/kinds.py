"""The kinds of unit, in the scenario files' order.

A module of its own, importing nothing: the order of battle lists its totals by
kind on its first visit without importing the scenario reader (campaigns.scenario,
10-15 ms), which checks a scenario's units against the same kinds.
"""

UNIT_KINDS = ("infantry", "cavalry", "artillery", "dummy")

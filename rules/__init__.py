"""Rules as data: dice, tables and the procedures of each rule set.

Pure Python, no UI and no database. The public API:

>>> from rules import lookup
>>> lookup("allemagne1813", "combat", roll=8, sp=35).text
'3*'
"""

from rules.errors import RulesError
from rules.loader import get_table, load_ruleset, ruleset_ids
from rules.tables import Cell, Table

__all__ = ["Cell", "RulesError", "Table", "get_table", "load_ruleset", "lookup", "ruleset_ids"]


def lookup(ruleset_id: str, table_id: str, **axes: int | str) -> Cell:
    """The cell of `table_id` at the given axis values; `.text` is the cell as
    printed, `-` for a blank cell."""
    return get_table(ruleset_id, table_id).lookup(**axes)

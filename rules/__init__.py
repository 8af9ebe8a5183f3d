"""Rules as data: dice, tables and the procedures of each rule set.

Pure Python, no UI and no database. The public API:

>>> from rules import lookup
>>> lookup("allemagne1813", "combat", roll=8, sp=35).text
'3*'
"""

from importlib import import_module
from typing import TYPE_CHECKING

# Each public name and the module that defines it, imported on first use (PEP 562,
# as models/__init__.py does): `adjutant FILE` imports rules.commandline, which runs
# this file, and the rule tables' pydantic models (rules.schema, via rules.loader)
# are not needed before the first screen.
_HOME = {
    "RulesError": "errors",
    "get_table": "loader", "load_ruleset": "loader", "ruleset_ids": "loader",
    "Cell": "tables", "Table": "tables",
}

__all__ = ["Cell", "RulesError", "Table", "get_table", "load_ruleset", "lookup", "ruleset_ids"]


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(f"module 'rules' has no attribute {name!r}")
    value = getattr(import_module(f"rules.{_HOME[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def lookup(ruleset_id: str, table_id: str, **axes: int | str) -> "Cell":
    """The cell of `table_id` at the given axis values; `.text` is the cell as
    printed, `-` for a blank cell."""
    from rules.loader import get_table

    return get_table(ruleset_id, table_id).lookup(**axes)


if TYPE_CHECKING:
    from rules.errors import RulesError
    from rules.loader import get_table, load_ruleset, ruleset_ids
    from rules.tables import Cell, Table

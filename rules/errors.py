"""The one error type of the rules layer: a sentence a person can act on."""


class RulesError(Exception):
    """Bad input to the rules (unknown table, value off the table, bad data file)."""

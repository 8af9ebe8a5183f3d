"""What one side may read of a campaign, as a row filter per table (the fog of war in SQL).

A side file (campaigns/despatch.py) holds exactly the rows these filters select,
at the despatch's turn; a test checks the two agree, table by table. The club
server's row-level security can use the same predicates for a side's role:

    CREATE POLICY french_reads ON unit FOR SELECT TO french USING (<predicate>)

with :side and :turn bound to the role's side and the campaign's turn. The
parameters are named, so a caller binds them (SQLAlchemy text()) or writes them
into a policy. Tables not listed are the umpire's alone (the event log names
every unit of both sides); in `campaign` the columns in HIDDEN_COLUMNS are his.
"""

from __future__ import annotations

OWN_NATIONS = "(SELECT id FROM nation WHERE side = :side)"
OWN_ARMIES = "(SELECT id FROM army WHERE side = :side)"

# The battles a side fought: its side is the attacker's or the defender's (battle.participants).
_FOUGHT = {
    "sqlite": "(json_extract({t}participants, '$.attacker.side') = :side OR json_extract({t}participants, '$.defender.side') = :side)",
    "postgresql": "(({t}participants -> 'attacker' ->> 'side') = :side OR ({t}participants -> 'defender' ->> 'side') = :side)",
}

FILTERS: dict[str, str] = {
    "side": "TRUE",
    "nation": "side = :side",
    "army": "side = :side",
    "general": f"nation IN {OWN_NATIONS}",
    "unit": f"nation IN {OWN_NATIONS}",
    "turn": "TRUE",  # the calendar; its weather only up to :turn (a side file blanks the turns after)
    "sighting": "side = :side AND turn <= :turn",
    "side_order": "side = :side",
    "activation": "side = :side AND turn <= :turn",
    "command_point_roll": f"army IN {OWN_ARMIES} AND turn <= :turn",
    "command_point_spend": f"army IN {OWN_ARMIES} AND turn <= :turn",
    "battle": "turn <= :turn AND {fought}",
    # the weather's rolls, the side's command points, and the rolls made for the battles it fought
    "dice_roll": (
        "id IN (SELECT dice_roll FROM turn WHERE number <= :turn)"
        f" OR id IN (SELECT dice_roll FROM command_point_roll WHERE turn <= :turn AND army IN {OWN_ARMIES})"
        " OR battle IN (SELECT b.id FROM battle b WHERE b.turn <= :turn AND {fought_b})"
    ),
}
HIDDEN_COLUMNS: dict[str, tuple[str, ...]] = {"campaign": ("dice_seed", "dice_salt")}


def predicate(table: str, dialect: str = "sqlite") -> str:
    """The WHERE clause that keeps the rows of `table` side :side may read at turn :turn.

    :raises KeyError: for a table a side may not read at all."""
    fought = _FOUGHT[dialect]
    return FILTERS[table].format(fought=fought.format(t=""), fought_b=fought.format(t="b."))

"""The columns of the tables that the story, the luck ledger, the map, what a side knows
(campaigns.knowledge) and the orders read, as plain SQLAlchemy table clauses: the paperwork tables
(models.records) and the campaign's own (models.tables). The Plots, Luck, Map, Sightings and
Orders screens read them on their first visit; naming the columns this way builds neither the
six paperwork ORM classes (about 50 ms of CPU) nor the SQLModel classes and the ORM (150-250 ms).
Each column has its class's type, so a row reads the same (JSON decoded by the engine's own
decoder, a date as a date). A test (tests/models/test_records_tables.py) holds each clause to
the class's own table.

The conditions of the partial indexes on events and rolls are here too, for the same readers:
models.tables names its indexes with them."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Date, Integer, String, column, table

COMMAND_POINT_ROLL = table(
    "command_point_roll",
    column("id", Integer), column("turn", Integer), column("army", String), column("points", Integer),
    column("dice_roll", Integer),
)
COMMAND_POINT_SPEND = table(
    "command_point_spend",
    column("id", Integer), column("turn", Integer), column("army", String), column("action", String),
    column("cost", Integer), column("balance", Integer),
)
SIDE_ORDER = table(
    "side_order",
    column("id", Integer), column("side", String), column("turn", Integer), column("kind", String),
    column("stack", String), column("place", String), column("detail", JSON), column("text", String),
    column("status", String), column("ruling", String),
)

CAMPAIGN = table("campaign", column("id", Integer), column("turn", Integer))
SIDE = table("side", column("id", String), column("name", String), column("position", Integer))
NATION = table("nation", column("id", String), column("side", String))
ARMY = table("army", column("id", String), column("side", String), column("name", String))
UNIT = table(
    "unit",
    column("id", String), column("name", String), column("nation", String), column("kind", String),
    column("strength_points", Integer),
)
TURN = table(
    "turn", column("number", Integer), column("date", Date), column("weather", String), column("dice_roll", Integer),
)
BATTLE = table(
    "battle",
    column("id", Integer), column("turn", Integer), column("location", String), column("participants", JSON),
    column("losses", JSON), column("result", String), column("resolver", String), column("status", String),
    column("detail", JSON),
)
EVENT = table(
    "event",
    column("id", Integer), column("description", String), column("changes", JSON), column("undone", Boolean),
)
SIGHTING = table(
    "sighting",
    column("id", Integer), column("side", String), column("turn", Integer), column("place", String),
    column("enemy_side", String), column("source", String), column("result", Integer), column("learned", JSON),
    column("strength_points", Integer), column("note", String),
)
DICE_ROLL = table(
    "dice_roll",
    column("id", Integer), column("event", Integer), column("purpose", String), column("dice", String),
    column("raw", JSON), column("modifiers", JSON), column("result", Integer), column("mode", String),
    column("battle", Integer),
)

# The partial indexes' conditions (models.tables): a query that writes one of them finds its index.
TURN_ENDS = "description LIKE 'End of turn %'"
FORCED_MARCHES = "description LIKE 'Forced march: %'"
STRENGTH_CHANGES = "CAST(changes AS TEXT) LIKE '%strength_points%'"
MARCH_ROLLS = "purpose LIKE 'forced march of %'"
RECONNAISSANCE_ROLLS = "purpose LIKE 'reconnaissance, column %'"

"""The columns of two paperwork tables (models.records) that the story and the luck ledger read, as
plain SQLAlchemy table clauses. The Plots and Luck screens read them on their first visit; naming
the columns this way does not build the six paperwork ORM classes (about 50 ms of CPU). A test
(tests/models/test_records_tables.py) holds each clause to the class's own table."""

from __future__ import annotations

from sqlalchemy import Integer, String, column, table

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

"""Alembic environment: migrate the connection models.schema hands over, inside its transaction."""

from __future__ import annotations

from alembic import context

from models import table_metadata
from models.search import outside_models

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=table_metadata(),  # every table, for autogenerate
    render_as_batch=True,
    include_name=outside_models,  # the history's search index is made by SQL (0003), not by the models
)
with context.begin_transaction():
    context.run_migrations()

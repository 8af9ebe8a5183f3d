"""Campaign files: the SQLModel tables of a campaign and the functions that open,
create, copy, check, migrate and query them.

    from models import open_campaign, Unit
    with open_campaign("leipzig.campaign") as store:
        with store.action("Ney marches to Dresden") as session:
            session.get_one(Unit, "fr-iii").location = "Dresden"
        store.undo()

A campaign lives in one SQLite `.campaign` file or in a PostgreSQL database
(`postgresql+psycopg://...`); the same code serves both. No textual here.
"""

from importlib import import_module
from typing import TYPE_CHECKING

# Each public name and the module that defines it. They are imported on first
# use (PEP 562), so that opening a campaign loads only what opening needs and
# `adjutant` reaches its first screen sooner.
_HOME = {
    "CheckReport": "check", "check_campaign": "check",
    "CampaignDice": "dice_log", "dice_rolls": "dice_log", "to_record": "dice_log",
    "CampaignFileError": "errors", "ConcurrentEditError": "errors", "NothingToUndo": "errors", "StoreError": "errors",
    "dump": "exchange", "dumps": "exchange", "load": "exchange", "loads": "exchange",
    "create_store": "opening", "open_campaign": "opening",
    "Overview": "glance", "SideStrength": "glance", "overview": "glance",
    "save_as": "saving",
    "CampaignStore": "store",
    "Activation": "tables", "Army": "tables", "Battle": "tables", "Campaign": "tables", "CommandPointRoll": "tables",
    "CommandPointSpend": "tables", "DiceRoll": "tables", "Event": "tables", "EventNote": "tables", "General": "tables",
    "Nation": "tables", "Pontoon": "tables", "Side": "tables", "SideOrder": "tables", "Sighting": "tables", "Turn": "tables", "Unit": "tables",
    "SUFFIX": "targets",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(f"module 'models' has no attribute {name!r}")
    value = getattr(import_module(f"models.{_HOME[name]}"), name)
    globals()[name] = value
    return value


def table_metadata() -> "MetaData":
    """SQLModel's metadata with every table of a campaign in it.

    A table is registered there only when models.tables is imported, and a process
    of its own (`adjutant export FILE`) may not have imported it yet: an export
    that read `SQLModel.metadata` directly wrote no rows. Read the tables through
    this, so that what they are never depends on what was imported before."""
    from sqlmodel import SQLModel

    from models.tables import every_table

    every_table()  # every table class defined, models.records' too: each registers its table

    return SQLModel.metadata


if TYPE_CHECKING:
    from sqlalchemy import MetaData

    from models.check import CheckReport, check_campaign
    from models.dice_log import CampaignDice, dice_rolls, to_record
    from models.errors import CampaignFileError, ConcurrentEditError, NothingToUndo, StoreError
    from models.exchange import dump, dumps, load, loads
    from models.opening import create_store, open_campaign
    from models.glance import Overview, SideStrength, overview
    from models.saving import save_as
    from models.store import CampaignStore
    from models.tables import (
        Activation, Army, Battle, Campaign, CommandPointRoll, CommandPointSpend, DiceRoll, Event, EventNote, General, Nation, Pontoon, Side, SideOrder, Sighting, Turn, Unit,
    )
    from models.targets import SUFFIX

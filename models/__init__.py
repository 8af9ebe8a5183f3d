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

from models.check import CheckReport, check_campaign
from models.dice_log import CampaignDice, dice_rolls, to_record
from models.errors import CampaignFileError, ConcurrentEditError, NothingToUndo, StoreError
from models.exchange import dump, dumps, load, loads
from models.opening import create_store, open_campaign
from models.overview import Overview, SideStrength, overview
from models.save_as import save_as
from models.store import CampaignStore
from models.tables import (
    Army,
    Battle,
    Campaign,
    CommandPointRoll,
    CommandPointSpend,
    DiceRoll,
    Event,
    General,
    Nation,
    Side,
    Turn,
    Unit,
)
from models.targets import SUFFIX

__all__ = [
    "Army",
    "Battle",
    "Campaign",
    "CampaignDice",
    "CampaignFileError",
    "CampaignStore",
    "CheckReport",
    "CommandPointRoll",
    "CommandPointSpend",
    "ConcurrentEditError",
    "DiceRoll",
    "Event",
    "General",
    "Nation",
    "NothingToUndo",
    "Overview",
    "SUFFIX",
    "Side",
    "SideStrength",
    "StoreError",
    "Turn",
    "Unit",
    "check_campaign",
    "create_store",
    "dice_rolls",
    "dump",
    "dumps",
    "load",
    "loads",
    "open_campaign",
    "overview",
    "save_as",
    "to_record",
]

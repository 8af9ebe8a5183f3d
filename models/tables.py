"""The tables of a campaign file: one row per thing on the umpire's map and in his notes.

One file (or one PostgreSQL database) holds one campaign, so `campaign` has a
single row. Sides, nations, armies, generals and units keep the string ids of the
scenario they came from as their keys; the records that pile up during play
(turn records, command points, battles, dice, events) have integer keys.

Foreign keys are checked at commit (DEFERRABLE INITIALLY DEFERRED), so an action,
an undo or an import may write rows in any order. `army.commander` names a
general but carries no foreign key, because generals also point at their army.

The tables of a turn's paperwork (command points, activations, pontoons, notes on
events, the sides' orders) are defined in models.records and built when first asked
for, by name from here or with the whole schema (`models.table_metadata()`).
"""

# No `from __future__ import annotations`: the annotations below are evaluated here, once, as
# types. As strings, pydantic and SQLAlchemy each compiled and evaluated every one of the
# 141 columns' while building the classes (about a tenth of their cost).
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, text
from sqlmodel import Field, SQLModel
from sqlmodel.main import SQLModelConfig

from models import search, tally

# The partial indexes' conditions, as every query of them writes it, so it finds its index
# (migrations 0009, 0010): written in models.record_columns, which the story and the luck
# ledger read without these classes.
from models.record_columns import FORCED_MARCHES as FORCED_MARCHES, MARCH_ROLLS as MARCH_ROLLS
from models.record_columns import RECONNAISSANCE_ROLLS as RECONNAISSANCE_ROLLS
from models.record_columns import STRENGTH_CHANGES as STRENGTH_CHANGES, TURN_ENDS as TURN_ENDS

if TYPE_CHECKING:  # this module's names for the type checker, loaded by __getattr__ below
    from models.records import Activation as Activation, CommandPointRoll as CommandPointRoll
    from models.records import CommandPointSpend as CommandPointSpend, EventNote as EventNote
    from models.records import Pontoon as Pontoon, SideOrder as SideOrder

# The tables of a turn's paperwork, built when first asked for (models.records).
RECORDS = ("Activation", "CommandPointRoll", "CommandPointSpend", "EventNote", "Pontoon", "SideOrder")


def _ref(target: str, *, nullable: bool = False, index: bool = True) -> Any:
    """A column holding the key of a row of another table, checked at commit."""
    return Field(
        default=None if nullable else ...,
        nullable=nullable,
        index=index,
        sa_column_args=[ForeignKey(target, deferrable=True, initially="DEFERRED")],
    )


class _Table(SQLModel):
    """Every table's class: pydantic builds its validation schema when first asked for it, not on import."""

    model_config = SQLModelConfig(defer_build=True)


class Campaign(_Table, table=True):
    """The campaign: its rules, scenario, dice, calendar and where play stands.

    `version` counts committed actions; every action checks it has not moved
    since the store read it (optimistic locking between umpires).
    """

    __tablename__ = "campaign"

    id: int = Field(default=1, primary_key=True)
    name: str
    ruleset: str = "allemagne1813"
    scenario: str
    dice_seed: int = Field(sa_type=BigInteger)
    dice_mode: str = "rolled"  # or "entered": the players roll on the table and type the dice in
    dice_next_index: int = 0
    turn: int = 1
    phase: str = "weather"
    start_date: date
    turn_days: int
    turns: int
    options: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    version: int = 0
    created: datetime
    uid: str | None = None  # the campaign's identity: a despatch and the orders answering it name it
    # SHA-256 of the decimal seed followed by the salt's hex digits (campaigns/commitment.py);
    # None in a campaign made before commitments. A side file holds the commitment, never seed or salt.
    dice_commitment: str | None = None
    dice_salt: str | None = None
    fog_side: str | None = None  # set only in a side file (a despatch): whose view of the campaign it is
    fog_turn: int | None = None  # and of which turn


class Side(_Table, table=True):
    """One of the two camps: the French and their allies, or the Allies."""

    __tablename__ = "side"

    id: str = Field(primary_key=True)
    name: str
    position: int = 0


class Nation(_Table, table=True):
    """A nation fighting on a side: France, Prussia, Russia, Austria, Sweden..."""

    __tablename__ = "nation"

    id: str = Field(primary_key=True)
    side: str = _ref("side.id")


class Army(_Table, table=True):
    """An army and its commander-in-chief (a general's id)."""

    __tablename__ = "army"

    id: str = Field(primary_key=True)
    side: str = _ref("side.id")
    name: str
    commander: str | None = None


class General(_Table, table=True):
    """A general counter: rank, command value (CV) and tactical bonus."""

    __tablename__ = "general"

    id: str = Field(primary_key=True)
    name: str
    nation: str = _ref("nation.id")
    army: str | None = _ref("army.id", nullable=True)
    rank: int
    command_value: int
    tactical_bonus: int
    location: str = ""  # a place of the gazetteer (campaigns/theatre), "" when not placed
    march_note: str = ""  # "on the march from Thorn": what the place alone does not say
    superior: str | None = _ref("general.id", nullable=True)


class Unit(_Table, table=True):
    """A force on the map: infantry, cavalry, reserve artillery or a dummy.

    `location` names a place of the gazetteer (campaigns/theatre) and `march_note`
    what the place alone does not say; `general` is the general the unit is
    attached to, if any. A stack is every unit and general of a side at one place.
    """

    __tablename__ = "unit"
    # Totals by nation, general and kind read from this index alone, never from the
    # rows: the overview and the order of battle of 50,000 units sum it in milliseconds.
    # The stacks (units by place and side, counted and summed) from ix_unit_location alone
    # (migration 0011): the map and the battles list count 50,000 units without reading them.
    # A side's stacks listed (campaigns.listed) from ix_unit_stacks alone, in its order,
    # with no sort (migration 0012).
    __table_args__ = (
        Index("ix_unit_strength", "nation", "general", "kind", "strength_points"),
        Index("ix_unit_location", "location", "nation", "strength_points"),
        Index("ix_unit_stacks", "nation", "location", "general", "kind", "strength_points", "name"),
    )

    id: str = Field(primary_key=True)
    name: str
    nation: str = _ref("nation.id")
    kind: str  # "infantry", "cavalry", "artillery" or "dummy"
    general: str | None = _ref("general.id", nullable=True)
    strength_points: int
    cohesion: int
    artillery_bonus: int = 0
    cavalry_bonus: int = 0
    fatigued: bool = False
    entrenched: bool = False
    out_of_command: bool = False
    location: str = ""
    march_note: str = ""


class DiceRoll(_Table, table=True):
    """A stored `rules.dice.DiceRecord`, with the event of the action that rolled it.

    `battle` is the battle the roll was made for (its steps, its pursuit, its tabletop
    resolutions), None for any other roll: a side reads the dice of the battles it
    fought by this column alone (models.access, models.visibility), never through the
    history, which it may not read. It carries no foreign key, like `army.commander`:
    battle.turn -> turn and turn.dice_roll -> dice_roll already, and a key back to battle
    would close a cycle in which SQLAlchemy cannot sort the tables (it warns, on every
    import too, and leaves those keys out of the order undo and import write rows in).
    """

    __tablename__ = "dice_roll"
    # The partial indexes name their WHERE for SQLite only: on PostgreSQL the migrations make them
    # with theirs, and naming it here would import SQLAlchemy's PostgreSQL dialect (0.1 s of CPU)
    # whenever the tables are built, on SQLite too. Alembic's comparison does not read a WHERE.
    # The forced marches' and the reconnaissances' rolls (migration 0010): the luck reads them
    # without going through every roll.
    __table_args__ = tuple(
        Index(name, "id", sqlite_where=text(where))
        for name, where in (("ix_dice_roll_marches", MARCH_ROLLS), ("ix_dice_roll_reconnaissance", RECONNAISSANCE_ROLLS))
    )

    id: int | None = Field(default=None, primary_key=True)
    event: int | None = _ref("event.id", nullable=True)
    purpose: str
    dice: str
    raw: list[int] = Field(sa_type=JSON)
    modifiers: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSON)
    result: int
    mode: str
    stream_index: int | None = None
    by: str = "umpire"
    when: datetime
    battle: int | None = Field(default=None, index=True)  # migration 0008


class Turn(_Table, table=True):
    """A turn of the calendar: its date and, once known, its weather."""

    __tablename__ = "turn"

    number: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    date: date
    weather: str | None = None
    weather_source: str | None = None  # "rolled", "forced" (Mud after a Rain* turn) or "set" by the umpire
    dice_roll: int | None = _ref("dice_roll.id", nullable=True, index=False)


class Battle(_Table, table=True):
    """A battle: where, who, how it went and which resolver decided it.

    `resolver` names what resolved it: the campaign's own combat table
    ("allemagne1813") or a tactical rule set played on the table.
    """

    __tablename__ = "battle"

    id: int | None = Field(default=None, primary_key=True)
    turn: int = _ref("turn.number")
    location: str
    participants: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    rounds: int = 0
    losses: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    result: str | None = None
    resolver: str = Field(default="allemagne1813", sa_column_kwargs={"server_default": "allemagne1813"})
    status: str = "pending"  # or "done"
    detail: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)


REPLAY_KINDS = "kind IN ('undo', 'redo')"  # as every query of them writes it, so it finds ix_event_replays


class Event(_Table, table=True):
    """One entry of the history: one action, with the before and after of every row it changed.

    `changes` is a list of {"table", "key", "before", "after"}: `before` is None
    for a row the action inserted, `after` None for a row it deleted, and for an
    update both hold only the columns that changed. Only events of kind "action"
    can be undone; `undone` marks those undone and not yet redone.
    """

    __tablename__ = "event"
    # The undo and redo events alone (migration 0009): their marks and the redo stack are
    # read without going through every event.
    __table_args__ = (
        Index("ix_event_replays", "id", sqlite_where=text(REPLAY_KINDS)),
        # The ends of turns, the forced marches and the events that changed a unit's SP (migration 0010):
        # the luck and the plots read them without going through every event.
        *(
            Index(name, "id", sqlite_where=text(where))
            for name, where in (
                ("ix_event_turn_ends", TURN_ENDS), ("ix_event_forced_marches", FORCED_MARCHES),
                ("ix_event_strength_changes", STRENGTH_CHANGES),
            )
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    when: datetime
    kind: str = "action"  # or "setup", the creation of the campaign; "undo" and "redo" (models.journal)
    description: str
    changes: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSON)
    undone: bool = Field(default=False, index=True)


class Sighting(_Table, table=True):
    """An enemy stack a side saw: where, on which turn, how, and what it learned.

    `source` is "reconnaissance", "battle", "contact" or "report" (the umpire's);
    `result` the reconnaissance table's result that revealed it. `learned` holds
    what the side now knows: {"generals": [names], "units": [{"name", "kind",
    "strength_points"?}], "counted": {kind: number}, "estimate": text}, each part
    present only when learned; `strength_points` the SP as the side reckons it.
    Row filter for what a side may read: `side`.
    """

    __tablename__ = "sighting"

    id: int | None = Field(default=None, primary_key=True)
    side: str = _ref("side.id")
    turn: int = _ref("turn.number")
    place: str
    enemy_side: str = _ref("side.id")
    source: str
    result: int | None = None
    learned: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    strength_points: int | None = None
    note: str = ""


# The history's search index follows every event and roll the ORM writes (models.search).
search.listen(Event, "event")
search.listen(DiceRoll, "dice_roll")
tally.listen(DiceRoll)


def __getattr__(name: str) -> object:
    """A table of models.records, built on first use (PEP 562), as if it were defined here."""
    if name not in RECORDS:
        raise AttributeError(f"module 'models.tables' has no attribute {name!r}")
    import models.records

    value = getattr(models.records, name)
    globals()[name] = value
    return value


def every_table() -> None:
    """Build every table class, models.records' too: what a whole schema is read from."""
    import models.records  # noqa: F401

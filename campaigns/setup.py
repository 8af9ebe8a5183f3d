"""A new campaign from a scenario: its order of battle and calendar, in a new campaign file."""

from __future__ import annotations

import secrets
import tomllib
from pathlib import Path

from sqlmodel import SQLModel

from campaigns.commitment import digest, new_salt
from campaigns.scenario import Scenario
from campaigns.text import plain_name
from models import Army, Campaign, CampaignStore, General, Nation, Side, Turn, Unit, create_store
from models.clock import utcnow
from models.targets import Target
from rules.dice import ENTERED, ROLLED
from rules.errors import RulesError
from rules.numbers import SEED

RULESET = "allemagne1813"
PHASES = Path(__file__).parent / "phases.toml"
MAX_SEED = SEED.high


def new_seed() -> int:
    """A dice seed short enough to read out to a co-umpire."""
    return secrets.randbelow(2**31)


def create_campaign(
    target: Target,
    scenario: Scenario,
    *,
    seed: int | None = None,
    dice_mode: str = ROLLED,
    name: str | None = None,
) -> CampaignStore:
    """Create the campaign file (or database) `target` at the start of `scenario`.

    `dice_mode` is "rolled" (the dice service rolls, from `seed`) or "entered"
    (the players roll on the table and type the dice in).
    """
    if name:
        name = plain_name(name, "a campaign's name")  # a TextError is a ValueError, like the others here
    if dice_mode not in (ROLLED, ENTERED):
        raise ValueError(f"dice mode is {ROLLED!r} or {ENTERED!r}, not {dice_mode!r}")
    seed = new_seed() if seed is None else seed
    try:
        SEED.check(seed)  # one range for a seed: the command line's and the start screen's
    except RulesError as error:
        raise ValueError(str(error)) from None
    salt = new_salt()
    campaign = Campaign(
        uid=secrets.token_hex(16),
        dice_commitment=digest(seed, salt),
        dice_salt=salt,
        name=name or scenario.title,
        ruleset=RULESET,
        scenario=scenario.id,
        dice_seed=seed,
        dice_mode=dice_mode,
        phase=first_phase(),
        start_date=scenario.start_date,
        turn_days=scenario.turn_days,
        turns=scenario.turns,
        created=utcnow(),
    )
    return create_store(
        target,
        campaign,
        order_of_battle(scenario),
        f"New campaign from scenario {scenario.id}: {scenario.title}",
    )


def order_of_battle(scenario: Scenario) -> list[SQLModel]:
    """The rows of a scenario: sides, nations, armies, generals, units and the calendar's turns."""
    rows: list[SQLModel] = []
    for position, side in enumerate(scenario.sides):
        rows.append(Side(id=side.id, name=side.name, position=position))
        rows.extend(Nation(id=nation, side=side.id) for nation in side.nations)
    rows.extend(Army(id=a.id, side=a.side, name=a.name, commander=a.commander) for a in scenario.armies)
    rows.extend(
        General(
            id=g.id,
            name=g.name,
            nation=g.nation,
            army=g.army,
            rank=g.rank,
            command_value=g.command_value,
            tactical_bonus=g.tactical_bonus,
            location=g.location,
            march_note=g.march_note,
            superior=g.superior or None,
        )
        for g in scenario.generals
    )
    rows.extend(
        Unit(
            id=u.id,
            name=u.name,
            nation=u.nation,
            kind=u.kind,
            general=u.general or None,
            strength_points=u.strength_points,
            cohesion=u.cohesion,
            artillery_bonus=u.artillery_bonus,
            cavalry_bonus=u.cavalry_bonus,
            location=u.location,
            march_note=u.march_note,
        )
        for u in scenario.units
    )
    rows.extend(Turn(number=n, date=scenario.turn_start(n)) for n in range(1, scenario.turns + 1))
    return rows


def first_phase() -> str:
    """The phase a turn opens with, as campaigns/phases.toml orders them."""
    return str(tomllib.loads(PHASES.read_text(encoding="utf-8"))["phase"][0]["id"])

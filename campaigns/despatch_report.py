"""The despatch as a printed letter: markdown, or HTML rendered from it by rich.

It is read from the side file itself (campaigns.despatch), never from the
umpire's campaign, so the letter cannot hold more than the file does.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from sqlalchemy import select
from sqlmodel import col

from campaigns.errors import plainly
from campaigns.knowledge import describe
from campaigns.session import CampaignSession
from models import (
    Army, Battle, Campaign, CommandPointRoll, CommandPointSpend, DiceRoll, General, Side, Sighting, Turn, Unit,
)


def _cell(text: object) -> str:
    """A value in a markdown table: no line breaks, no column bars."""
    return str(text).replace("\n", " ").replace("|", "/")


def markdown(side_file: CampaignSession) -> str:
    return "\n".join(_lines(side_file)) + "\n"


def _lines(session: CampaignSession) -> Iterator[str]:
    with plainly(), session.store.read() as db:
        campaign = db.get_one(Campaign, 1)
        side = db.get_one(Side, campaign.fog_side)
        turn = campaign.fog_turn or campaign.turn
        date = db.get_one(Turn, turn).date
        yield f"# Despatch to {_cell(side.name)}: {_cell(campaign.name)}, turn {turn} ({date:%d %B %Y})"
        yield ""
        yield f"Campaign {campaign.uid}. Dice commitment (SHA-256 of seed and salt): "
        yield f"`{campaign.dice_commitment}`" if campaign.dice_commitment else "none: this campaign was made before dice commitments."
        yield ""
        yield "## Your order of battle"
        yield ""
        generals = list(db.scalars(select(General).order_by(col(General.army), col(General.rank).desc(), col(General.name))))
        # Plain rows, each general's found once: a side's file may hold tens of thousands of units.
        units = db.execute(
            select(col(Unit.general), col(Unit.name), col(Unit.kind), col(Unit.strength_points), col(Unit.cohesion), col(Unit.location))
            .order_by(col(Unit.general), col(Unit.name))
        ).all()
        under: dict[str | None, list] = {}
        for u in units:
            under.setdefault(u.general, []).append(u)
        for army in db.scalars(select(Army).order_by(Army.id)):
            yield f"### {_cell(army.name)}"
            yield ""
            yield "| General or unit | Arm | SP | Cohesion | Place |"
            yield "|---|---|---|---|---|"
            for g in (g for g in generals if g.army == army.id):
                yield f"| **{_cell(g.name)}** (rank {g.rank}, CV {g.command_value}) | general | | | {_cell(g.location)} |"
                for u in under.get(g.id, ()):
                    yield f"| {_cell(u.name)} | {u.kind} | {u.strength_points} | {u.cohesion} | {_cell(u.location)} |"
            yield ""
        known = {g.id for g in generals}
        loose = [u for u in units if u.general is None or u.general not in known]
        if loose:
            yield "### Units under no general"
            yield ""
            yield from (f"- {_cell(u.name)}: {u.kind}, {u.strength_points} SP, at {_cell(u.location)}" for u in loose)
            yield ""
        yield "## What you have seen of the enemy"
        yield ""
        seen = list(db.scalars(select(Sighting).order_by(col(Sighting.turn), col(Sighting.id))))
        if not seen:
            yield "Nothing yet."
        for s in seen:
            yield f"- {_cell(describe(s))}"
            for unit in (s.learned or {}).get("units", []):
                yield f"    - {_cell(unit.get('name'))}: {unit.get('arm')}, {unit.get('strength_points')} SP"
        yield ""
        yield "## Weather so far"
        yield ""
        for t in db.scalars(select(Turn).where(col(Turn.number) <= turn).order_by(col(Turn.number))):
            yield f"- turn {t.number} ({t.date:%d %B}): {t.weather or 'not rolled'}"
        yield ""
        yield "## Command points"
        yield ""
        rolls = list(db.scalars(select(CommandPointRoll).order_by(col(CommandPointRoll.turn), col(CommandPointRoll.army))))
        spends = list(db.scalars(select(CommandPointSpend).order_by(col(CommandPointSpend.turn), col(CommandPointSpend.id))))
        if not rolls and not spends:
            yield "None rolled yet."
        for r in rolls:
            yield f"- turn {r.turn}, {_cell(r.army)}: {r.points} points"
        for spend in spends:
            yield f"- turn {spend.turn}, {_cell(spend.army)}: {_cell(spend.action)} -{spend.cost}, {spend.balance} left"
        yield ""
        yield "## Battles you fought"
        yield ""
        fought = list(db.scalars(select(Battle).order_by(col(Battle.id))))
        if not fought:
            yield "None."
        for b in fought:
            yield f"### Battle #{b.id} at {_cell(b.location)}, turn {b.turn}: {b.status}{': ' + _cell(b.result) if b.result else ''}"
            yield ""
            for role, part in (b.participants or {}).items():
                names = part.get("units") or {}
                listed = names.values() if isinstance(names, dict) else names
                yield f"- {role} ({_cell(part.get('side_name', part.get('side')))}): " + ", ".join(_cell(n) for n in listed)
            yield ""
        rolls_held = list(db.scalars(select(DiceRoll).order_by(col(DiceRoll.id))))
        yield "## Dice records held"
        yield ""
        for d in rolls_held:
            yield f"- #{d.id} {_cell(d.purpose)}: {d.dice} = {' '.join(map(str, d.raw))} -> {d.result} ({d.mode}, stream {d.stream_index})"
        if not rolls_held:
            yield "None."


def html(side_file: CampaignSession) -> str:
    """The same letter as HTML, rendered by rich from the markdown."""
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(record=True, width=100, file=io.StringIO(), color_system="truecolor")
    console.print(Markdown(markdown(side_file)))
    return console.export_html(inline_styles=True)

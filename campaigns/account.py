"""The after-action account of a battle, as the umpire reads it or prints it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from sqlalchemy import select
from sqlmodel import col

from campaigns.battles import ATTACKER, DEFENDER, FACTS, load
from campaigns.errors import plainly
from campaigns.log import dice_line
from campaigns.session import CampaignSession
from campaigns.tabletop import dice_text
from models import Battle as BattleRow
from models import DiceRoll
from rules.resolver import get_resolver


def account(session: CampaignSession, battle_id: int) -> Iterator[str]:
    fight = load(session, battle_id)
    yield f"Battle of {fight.location} (#{fight.id}), {fight.resolver}, {fight.status}"
    sides = fight.setup.get("sides", {})
    for role in (ATTACKER, DEFENDER):
        part = fight.participants.get(role, {})
        data = sides.get(role, {})
        sp = sum(data.get("sp_by_arm", {}).values())
        side = part.get("side_name", part.get("side", "?"))
        yield f"  {role.title()} ({side}): {sp} SP; leaders: {', '.join(part.get('generals', [])) or 'none'}"
        units = part.get("units") or {}  # a game outside the campaign stored an empty list
        for name in units.values() if isinstance(units, dict) else units:
            yield f"    {name}"
    facts = [label for key, label in FACTS if fight.setup.get("facts", {}).get(key)]
    yield f"  Weather {fight.setup.get('weather', '?')}; " + ("; ".join(facts) if facts else "no special situation")
    with plainly(), session.store.read() as db:
        row = db.get_one(BattleRow, battle_id)
        # The rolls made for this battle (an undone step's are gone with it): a plain row filter,
        # so a side's player reads them too, on the club (row-level security) and in a side file.
        rolls = list(db.scalars(select(DiceRoll).where(col(DiceRoll.battle) == battle_id).order_by(col(DiceRoll.id))))
        for roll in rolls:
            yield "  " + dice_line(roll)
        for entry in fight.journal:
            if entry["do"] == "morale":
                yield f"  {entry['side']} morale test recorded by the umpire: {'passed' if entry['passed'] else 'failed'}"
            elif entry["do"] == "result":
                yield f"  the umpire read a roll off the table as {entry['cell']}"
        yield from _tactical_lines(row.detail.get("tactical"))
        if fight.tabletop:
            t = fight.tabletop
            yield f"  Tabletop result: attacker lost {t['attacker']} SP, defender {t['defender']} SP; the {t['winner']} held the field"
        if row.status == "done":
            losses = row.losses.get("sides", {})
            yield f"  Result: {row.result}; SP lost: attacker {losses.get(ATTACKER, 0)}, defender {losses.get(DEFENDER, 0)}"
            for unit_id, lost in row.losses.get("units", {}).items():
                name = sides.get(ATTACKER, {}).get("names", {}).get(unit_id) or sides.get(DEFENDER, {}).get("names", {}).get(unit_id, unit_id)
                yield f"    {name}: -{lost} SP"
            zero = row.losses.get("zero_sp")
            if isinstance(zero, dict) and zero.get("units"):
                named = ", ".join(
                    sides.get(ATTACKER, {}).get("names", {}).get(u) or sides.get(DEFENDER, {}).get("names", {}).get(u, u)
                    for u in zero["units"]
                )
                done = "eliminated, they left the map" if zero.get("rule") == "eliminated" else "they stayed on the map for the umpire"
                yield f"    Left with 0 SP (option zero_sp_unit = {zero.get('rule')}): {named}: {done}"
            went = row.losses.get("retreat")
            if isinstance(went, dict) and went.get("to"):
                why = f" (the umpire's reason: {went['reason']})" if went.get("reason") else ""
                yield f"  Retreat: the {went.get('side')} to {went['to']}{why}"
        else:
            yield "  Still being fought."


def _tactical_lines(tactical: dict | None) -> Iterator[str]:
    """The resolver screen's log: every resolution, in the card's words, with what it did."""
    if not tactical:
        return
    names = {u["id"]: u["name"] for u in tactical.get("units", [])}
    sides = {u["id"]: u["side"] for u in tactical.get("units", [])}
    log = tactical.get("log", [])
    resolver = get_resolver(tactical["ruleset"])
    alternating = resolver.alternating  # a bound of each side; else one turn for both
    # The units put on the table, as the players set them up: `adjutant battles FILE` is the list to hand them.
    units = tactical.get("units", [])
    yield f"  The tactical order of battle: {len(units)} units ({resolver.size_label} at the start -> now)"
    for u in units:
        quality = (u.get("attrs") or {}).get("quality")
        yield (f"    {u['id']} {u['name']} ({u['side']}, {u['arm']}): {u['start']} -> {u['size']} {resolver.size_label}"
               + (f", {quality}" if quality not in (None, "", "-") else "") + (", off the table" if u.get("removed") else ""))
    for leader in tactical.get("leaders", []):
        if len(leader) == 3:
            yield f"    leader of the {leader[0]}: {leader[1]} ({leader[2]})"
    yield f"  On the tabletop under {tactical['ruleset']}: {len(log)} entr{'y' if len(log) == 1 else 'ies'} (resolutions, the umpire's edits and rulings)"
    for entry in log:
        who = names.get(entry["actor"], entry["actor"])
        side = entry.get("side") or sides.get(entry["actor"], "")  # the side that acted, not whose bound it is
        at = f" at {names.get(entry['target'], entry['target'])}" if entry.get("target") else ""
        dice = dice_text(entry)  # each side's dice named, where the resolution rolls several
        ruling = f" (umpire's ruling: {entry['ruling']})" if entry.get("ruling") and entry["action"] != "ruling" else ""
        ruling += " [taken back]" if entry.get("taken_back") else ""
        bound = f"{entry['bound']}'s bound, " if alternating else ""
        yield (f"    turn {entry['turn']}, {bound}{entry['phase'].replace('_', ' ')}: "
               f"{who} ({side}), {entry['action'].replace('_', ' ')}{at}{dice}{ruling}: {entry['text']}")
        for line in entry.get("effects", []):
            yield f"      {line}"
    if tactical.get("ended"):
        yield f"  Tabletop battle ended: the {tactical['ended']['winner']} held the field"


def all_accounts(session: CampaignSession) -> Iterator[str]:
    with plainly(), session.store.read() as db:
        ids = cast(list[int], list(db.scalars(select(col(BattleRow.id)).order_by(col(BattleRow.id)))))  # a stored row's id is never None
    if not ids:
        yield "No battle has been fought in this campaign."
    for n, battle_id in enumerate(ids):
        if n:
            yield ""
        yield from account(session, battle_id)

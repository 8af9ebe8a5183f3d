"""A spring 1813 campaign played for some turns with a fixed seed, for the luck,
plots, report and past-turn tests: weather, command points rolled and spent,
Ney moving town to town, forced marches, and a battle fought to its pursuit.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from campaigns import battles, command_points, forced_march, oob, turns, weather
from campaigns.session import CampaignSession
from models.targets import sqlite_path, to_url
from tests.run_shared import built_for_the_run
from tests.templates import new_campaign

BATTLES = {3: "Lützen", 7: "Bautzen"}
NEY_ROUTE = ("Weimar", "Naumburg", "Weissenfels", "Lützen", "Grossgörschen", "Leipzig", "Wurzen", "Oschatz", "Riesa", "Meissen", "Dresden")


def ney_location(turn: int) -> str:
    """Where Ney stands at the end of `turn` in the played campaign."""
    return NEY_ROUTE[min(turn, len(NEY_ROUTE) - 1)]


_played: dict[tuple[int, int, str | None], Path] = {}


def play(path: Path | str, played: int = 10, *, seed: int = 1813, ney_unit_name: str | None = None) -> Path | str:
    """Play `played` whole turns and leave the campaign at the start of the next one.

    `ney_unit_name` renames the first unit of Ney's corps first (as a file from
    elsewhere could name it): it then marches and fights under that name.

    A `.campaign` file is played once per run for each (turns, seed, name), by the
    first xdist worker that asks (tests/run_shared.py), and copied, as tests/templates.py
    copies new campaigns: ten turns take some 2-4 s of
    CPU, and the same turns were played again by each module (and each test of
    test_past_rewind) that asked for them. The copies share the moments the events
    were stamped with; no test compares those between two files. A PostgreSQL
    database is played anew."""
    if sqlite_path(to_url(path)) is None:
        return _play(path, played, seed, ney_unit_name)
    key = (played, seed, ney_unit_name)
    made = _played.get(key)
    if made is None:
        made = _played[key] = _played_for_the_run(key)
    shutil.copyfile(made, path)
    return path


def _played_for_the_run(key: tuple[int, int, str | None]) -> Path:
    """The file played for `key`, played once for the whole run (tests/run_shared.py), then
    copied by every xdist worker: each of the 3 workers of `-n auto` played ten turns (some
    1.9 CPU-s) for itself."""
    import zlib

    played, seed, ney_unit_name = key
    return built_for_the_run(
        f"played-{zlib.crc32(repr(key).encode()):08x}.campaign",
        lambda folder: _play(folder / "played.campaign", played, seed, ney_unit_name),
    )


def _play(path: Path | str, played: int, seed: int, ney_unit_name: str | None) -> Path | str:
    s = CampaignSession.open(new_campaign(path, "spring1813", seed=seed))
    try:
        if ney_unit_name is not None:
            from models import Unit

            stack = next(st for st in forced_march.stacks(s) if st.key == "ney")
            with s.store.action("Rename a unit") as db:
                db.get_one(Unit, forced_march.units(s, stack)[0].id).name = ney_unit_name
        for turn in range(1, played + 1):
            _turn(s, turn)
            while turns.status(s).turn == turn:
                turns.advance(s, anyway=True)
    finally:
        s.close()
    return path


def _turn(s: CampaignSession, turn: int) -> None:
    weather.roll(s)
    for army in command_points.turn_points(s):
        if army.commander is not None:
            command_points.roll(s, army.army)
    if turn % 2 == 0:
        command_points.spend(s, "army_of_the_main", "activate_force", False)  # 2 PC
    else:
        command_points.spend(s, "allied_army", "entrench", True)  # 2 PC
    ney = next(g for g in _generals(s) if g.id == "ney")
    oob.edit_general(s, "ney", {
        "name": ney.name, "location": ney_location(turn), "rank": str(ney.rank),
        "command_value": str(ney.command_value), "tactical_bonus": str(ney.tactical_bonus),
    })
    if turn % 3 == 1:
        stack = next(st for st in forced_march.stacks(s) if st.key == "ney")
        forced_march.march(s, stack, [u.id for u in forced_march.units(s, stack)])
    if turn in BATTLES:
        _battle(s, BATTLES[turn])


def _generals(s: CampaignSession):
    from sqlalchemy import select

    from models import General

    with s.store.read() as db:
        return list(db.scalars(select(General)))


def _battle(s: CampaignSession, place: str) -> None:
    tree = oob.tree(s)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind in ("infantry", "cavalry") and u.strength_points > 0][:3]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry" and u.strength_points > 0][:2]
    draft = battles.Draft(place, french, allies, battles.leaders_at(s, french), battles.leaders_at(s, allies), {}, override="a test battle between forces placed by hand")
    battle_id = battles.begin(s, draft)
    while (step := battles.load(s, battle_id).next_step) is not None:
        if step.kind == "morale test" and step.dice is None:
            battles.record_morale(s, battle_id, False)
        else:
            battles.roll_step(s, battle_id)
    if battles.load(s, battle_id).pursuit_step() is not None:
        battles.roll_pursuit(s, battle_id)
    battles.apply(s, battle_id)

"""A club's campaign on a real PostgreSQL after battles: what a side may read of them."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from campaigns import battles, tabletop, weather
from campaigns.scenario import load_scenario
from campaigns.session import CampaignSession
from tui.cli import main
from tests.templates import new_campaign

# Allied names the French never meet in `fought_club`: the umpire gives them to units of a
# tabletop game outside the campaign, which no side fought.
ENTERED_BY_HAND = ("Kleist's Corps, Prussian and Russian troops", "Lützow Free Corps")


@dataclass(frozen=True)
class Fought:
    roles: dict[str, dict[str, str]]  # as `club setup --json` prints them: who -> {role, url}
    tables: int  # a battle on the campaign's own tables, two steps rolled
    d10: int  # a battle on the d10 tabletop, its initiative rolled
    game: int  # a tabletop game outside the campaign's forces, no side's, its initiative rolled

    def url(self, who: str) -> str:
        return self.roles[who]["url"]


def fight(umpire: CampaignSession) -> tuple[int, int, int]:
    """The French III Corps fights Blücher's brigades twice, each battle rolling dice; then the
    umpire plays a game outside the campaign with units named after allied corps."""
    weather.roll(umpire, [2])  # April +1: 3, Clear
    tables = battles.begin(umpire, battles.Draft("Lützen", ["iii_souham"], ["brigade_klux"], [], [], override="for the test"))
    battles.roll_step(umpire, tables)
    battles.roll_step(umpire, tables)
    d10 = battles.begin(
        umpire, battles.Draft("Zeitz", ["iii_ricard"], ["brigade_zieten"], [], [], override="for the test"), resolver="napoleonic_d10"
    )
    tabletop.start(umpire, d10)
    tabletop.resolve(umpire, d10, "initiative", "a1")
    game = tabletop.new_game(umpire, "napoleonic_d10", "Möckern")
    for name, role in zip(ENTERED_BY_HAND, ("attacker", "defender")):
        tabletop.add_unit(umpire, game, {"name": name, "side": role, "arm": "infantry", "size": "6"})
    tabletop.resolve(umpire, game, "initiative", "a1")
    return tables, d10, game


def _fight_at(url: str) -> tuple[int, int, int]:
    """A new campaign at `url` (an empty database) and its battles fought (`fight`)."""
    new_campaign(url, load_scenario("spring1813"), seed=1813)
    umpire = CampaignSession.open(url)
    try:
        return fight(umpire)
    finally:
        umpire.close()


_fought: dict[str, tuple[str, tuple[int, int, int]]] = {}  # the server -> its database of _fight_at, and the battles


def _fought_copied(postgres_url: str) -> tuple[int, int, int]:
    """The empty database of postgres_url replaced by a copy of one _fight_at made once per
    worker (CREATE DATABASE ... TEMPLATE, as tests/templates.py copies new campaigns), and its
    battles: the campaign from the same template, the dice from the same seed, the same rows
    every time but for the times the actions were stamped with, which no test here compares
    with another's. Fighting them again for each test was most of its set-up."""
    import atexit

    import psycopg
    from sqlalchemy.engine import make_url

    from tests.templates import _drop

    url = make_url(postgres_url)
    server = url.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(server, autocommit=True) as connection:
        made = _fought.get(server)
        if made is None:
            template = f"adjutant_club_fought_{os.getpid()}"
            connection.execute(f'CREATE DATABASE "{template}"')
            atexit.register(_drop, server, template)
            made = _fought[server] = (template, _fight_at(url.set(database=template).render_as_string(hide_password=False)))
        connection.execute(f'DROP DATABASE "{url.database}"')
        connection.execute(f'CREATE DATABASE "{url.database}" TEMPLATE "{made[0]}"')
    return made[1]


@pytest.fixture
def fought_club(postgres_url: str, capsys: pytest.CaptureFixture[str]) -> Iterator[Fought]:
    ids = _fought_copied(postgres_url)
    assert main(["club", "setup", "--db", postgres_url, "--json"]) == 0
    yield Fought(json.loads(capsys.readouterr().out), *ids)
    assert main(["club", "revoke", "--db", postgres_url]) == 0  # roles outlive a dropped database

"""A club's campaign on a real PostgreSQL after battles: what a side may read of them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from campaigns import battles, tabletop, weather
from campaigns.scenario import load_scenario
from campaigns.session import CampaignSession
from tui.cli import main
from tests.templates import database_built_once, new_campaign

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


@pytest.fixture
def fought_club(postgres_url: str, capsys: pytest.CaptureFixture[str]) -> Iterator[Fought]:
    # Fought once per worker and copied (tests/templates.py): fighting it again for each test was
    # most of its set-up.
    ids = database_built_once(postgres_url, "club_fought", _fight_at)
    assert main(["club", "setup", "--db", postgres_url, "--json"]) == 0
    yield Fought(json.loads(capsys.readouterr().out), *ids)
    assert main(["club", "revoke", "--db", postgres_url]) == 0  # roles outlive a dropped database

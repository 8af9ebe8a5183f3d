"""The map's `g` (the map as SVG) on a club's server: a side's login writes no file on the
server's disk (not offered, its key does nothing); the umpire's map goes in the working folder,
named after the database, and no name of a campaign or a database takes it anywhere else."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy.engine import URL, make_url

from campaigns.errors import CampaignError
from campaigns.map_svg import map_file
from campaigns.player import open_side
from campaigns.session import CampaignSession
from tests.club.conftest import Fought
from tests.tui.helpers import key, wait_for, wait_for_notice, wait_for_screen


def test_a_players_map_writes_nothing_and_the_umpires_is_named_after_the_database(
    fought_club: Fought, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from tui.app import AdjutantApp
    from tui.screens.theatre import TheatreScreen

    monkeypatch.chdir(tmp_path)  # the folder the server's account runs Adjutant in

    async def press_g(session: CampaignSession, name: str) -> tuple[bool, set[str], str]:
        app = AdjutantApp(session, prepare=False)
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, name)
            await pilot.press("p")
            await wait_for_screen(pilot, TheatreScreen)
            shown = await wait_for(pilot, "Map")
            offered = bool(app.screen.check_action("svg", ()))
            palette = {c.title for c in app.get_system_commands(app.screen)}
            await pilot.press(key(TheatreScreen, "map.svg"))
            if offered:
                await wait_for_notice(pilot, "Wrote")
            else:
                for _ in range(5):
                    await pilot.pause()
            return offered, palette, shown

    offered, palette, shown = asyncio.run(press_g(open_side(fought_club.url("french"), "french"), "CLUB: French"))
    assert not offered and "Map: Save SVG" not in palette and "Save SVG" not in shown
    assert os.listdir(tmp_path) == []  # the key did nothing
    offered, palette, shown = asyncio.run(press_g(CampaignSession.open(fought_club.url("umpire")), "turn 1/20"))
    assert offered and "Map: Save SVG" in palette
    database = make_url(fought_club.url("umpire")).database
    assert os.listdir(tmp_path) == [f"{database}-turn1.svg"]
    assert ">Lützen</text>" in (tmp_path / f"{database}-turn1.svg").read_text(encoding="utf-8")


def _session(url: URL | str) -> SimpleNamespace:
    url = make_url(url)
    return SimpleNamespace(store=SimpleNamespace(url=url, is_sqlite=url.get_backend_name() == "sqlite"))


@pytest.mark.parametrize(
    ("database", "name"),
    [
        ("lutzen", "lutzen-turn3.svg"),
        ("../../etc/cron.d/x", "_.._etc_cron.d_x-turn3.svg"),  # a quoted PostgreSQL name may hold anything
        ("/root/.ssh/authorized_keys", "_root_.ssh_authorized_keys-turn3.svg"),
        ("..", "campaign-turn3.svg"),
        ("Lützen 1813\x1b]0;owned\x07\n", "Lützen 1813_0_owned_-turn3.svg"),
        ("", "campaign-turn3.svg"),
    ],
)
def test_a_database_names_the_map_in_the_working_folder_only(database: str, name: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    url = URL.create("postgresql+psycopg", username="lutzen_umpire", host="db.example", database=database)
    made = map_file(_session(url), 3)  # type: ignore[arg-type]  # the store's url and kind are all it reads
    assert made == Path.cwd() / name and made.parent == tmp_path


def test_a_campaign_files_map_goes_beside_it_and_is_not_written_through_a_link(tmp_path: Path):
    file = tmp_path / "Lützen 1813.campaign"
    session = _session(f"sqlite:///{file}")
    assert map_file(session, 2) == tmp_path / "Lützen 1813-turn2.svg"  # type: ignore[arg-type]
    (tmp_path / "Lützen 1813-turn2.svg").write_text("an older map")
    assert map_file(session, 2) == tmp_path / "Lützen 1813-turn2.svg"  # type: ignore[arg-type]  # replaced, as before
    (tmp_path / "Lützen 1813-turn3.svg").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "Lützen 1813-turn4.svg").mkdir()
    for turn in (3, 4):
        with pytest.raises(CampaignError, match=f"Lützen 1813-turn{turn}.svg in .* is not a plain file"):
            map_file(session, turn)  # type: ignore[arg-type]

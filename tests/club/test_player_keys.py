"""A club player's screens name only the keys the player may press.

The key bar, the help and the palette offer a side's login only what CampaignScreen.offered
(through each screen's check_action) lets it take; the titles and hints written on the screens
named the umpire's keys all the same ("Battles (n new, ...)", "ctrl+r rolls"). Every screen a
player reaches by key, and each battle the side fought, is walked at 80x24 as sshd's
ForceCommand or `serve --side` runs it, and its text is read for a key not offered there."""

from __future__ import annotations

import asyncio
import re

from textual.binding import Binding

from campaigns.player import open_side
from tests.club.conftest import Fought
from tests.tui.helpers import screen_text, wait_for, wait_for_screen
from tui.commands import ACTIONS, SCREENS

NAMED = {"enter": "Enter", "escape": "Escape", "space": "Space", "tab": "Tab", "question_mark": "?"}
ARTICLES = {"a", "A", "I"}  # a key that is also a word: named only as "a:", "(a)" or "a applies"


def offered_keys(app, screen) -> tuple[set[str], dict[str, str]]:
    """The keys offered on the screen as the help lists them (the screen's own, its widgets',
    the app's), and the others bound there, each with its binding's description."""
    offered: set[str] = set()
    others: dict[str, str] = {}

    def split(keys: str) -> list[str]:
        return [k.strip() for k in keys.split(",")]

    for binding in screen.BINDINGS:
        if isinstance(binding, Binding):
            taken = screen.check_action(binding.action, ()) is not False
            for each in split(binding.key):
                (offered.add(each) if taken else others.setdefault(each, binding.description))
    for widget in screen.query("*"):
        for cls in type(widget).__mro__:
            for binding in cls.__dict__.get("BINDINGS", ()):
                if isinstance(binding, Binding) and binding.id:
                    offered.update(split(binding.key))
    for command in SCREENS + ACTIONS:
        taken = app.check_action(command.action, ()) is not False
        for each in split(command.key):
            (offered.add(each) if taken else others.setdefault(each, command.name))
    return offered, {k: d for k, d in others.items() if k not in offered}


def named_keys(text: str, keys: dict[str, str]) -> list[str]:
    """The keys of `keys` that `text` names, as the screens' hints name keys."""
    found = []
    for key, description in keys.items():
        said = NAMED.get(key, key)
        if len(said) > 1:
            pattern = rf"(?<![\w+]){re.escape(said)}(?![\w+])"
            flags = re.IGNORECASE if "+" in said or re.fullmatch(r"f\d+", said) else 0
        elif said in ARTICLES:
            verb = re.escape(description.split()[0][:4].lower())
            pattern = rf"(?<![\w'’+.#-]){re.escape(said)}(?::|\)| {verb})"
            flags = 0
        else:
            pattern = rf"(?<![\w'’+.#-]){re.escape(said)}(?![\w'’+-])(?!\.\w)"
            flags = 0
        if re.search(pattern, text, flags):
            found.append(key)
    return found


async def settled(pilot) -> str:
    for _ in range(6):
        await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    for _ in range(3):
        await pilot.pause()
    return screen_text(pilot.app)


def test_a_players_screens_name_no_key_that_is_not_offered_to_them(fought_club: Fought):
    from tui.app import AdjutantApp
    from tui.screens.battles import BattlesScreen
    from tui.screens.fight import FightScreen
    from tui.screens.registry import screen_class

    seen: dict[str, str] = {}
    wrong: dict[str, list[str]] = {}

    async def look(name: str, app, pilot) -> None:
        text = await settled(pilot)
        seen[name] = text
        offered, others = offered_keys(app, app.screen)
        if named := named_keys(text, others):
            wrong[name] = named

    async def play() -> None:
        app = AdjutantApp(open_side(fought_club.url("french"), "french"), prepare=False)
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, "CLUB: French Empire and allies")
            for command in SCREENS:
                name = command.action.split("'")[1]
                await pilot.press(command.key)
                await wait_for_screen(pilot, screen_class(name))
                await look(name, app, pilot)
            await pilot.press("x")
            await wait_for_screen(pilot, BattlesScreen)
            await wait_for(pilot, "Lützen")
            for row in range(2):  # the two battles the French fought; the umpire's game is no side's
                await pilot.press("enter")
                await wait_for_screen(pilot, FightScreen)
                await look(f"battle {row + 1}", app, pilot)
                await pilot.press("escape")
                await wait_for_screen(pilot, BattlesScreen)
                await pilot.press("down")

    asyncio.run(play())
    assert wrong == {}, {name: (keys, seen[name]) for name, keys in wrong.items()}
    assert "Battles (Enter to fight or read)" in seen["battles"] and "Zeitz" in seen["battle 2"]
    lines = {line.strip() for text in seen.values() for line in text.splitlines()}
    assert {"History: newest first", "Reconnaissance (6.3): Space marks, s a whole stack"} <= lines

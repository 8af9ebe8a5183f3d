"""Keyboard first: the help screen on ? and F1, the command palette on ctrl+p."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import Input, OptionList

from tests.tui.helpers import type_text, wait_for, wait_for_screen
from tui.commands import ACTIONS, SCREENS
from tui.screens.help import HelpScreen
from tui.screens.registry import screen_class
from tui.screens.weather import WeatherScreen


def screen_name(command) -> str:
    return command.action.split("'")[1]


@pytest.mark.parametrize("opener", ["question_mark", "f1"])
async def test_help_lists_the_keys_of_the_screen_and_of_the_app(campaign_file, make_app, opener):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("w", opener)
        await wait_for(pilot, "Keys  (ctrl+p")
        assert isinstance(pilot.app.screen, HelpScreen)
        text = str(pilot.app.screen.query_one("Static").render())
        for binding in WeatherScreen.BINDINGS:
            assert f"{binding.key}" in text and binding.description in text
        for command in SCREENS + ACTIONS:
            assert command.name in text
        assert "?,f1" in text
        await pilot.press(opener)  # the same key closes it
        await pilot.pause()
        assert isinstance(pilot.app.screen, WeatherScreen)


async def test_the_palette_lists_every_screen_and_action_by_name(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await wait_for(pilot, "Search for commands")
        assert isinstance(pilot.app.screen, CommandPalette)
        results = pilot.app.screen.query_one(OptionList)
        await pilot.pause()
        names = {str(results.get_option_at_index(i).prompt).split("\n")[0] for i in range(results.option_count)}
        missing = {c.name for c in SCREENS + ACTIONS} - names
        assert not missing, f"not in the palette: {missing}"
        assert not any(n.endswith("Focus Next") for n in names)  # Textual's focus keys are not actions


async def test_every_screen_is_reached_through_the_palette(campaign_file, make_app):
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        for number, command in enumerate(SCREENS):
            await pilot.press("ctrl+p")
            await wait_for_screen(pilot, CommandPalette)
            if number == 0:
                await type_text(pilot, command.name)
            else:  # each key searches again: the whole name at once keeps the test quick
                pilot.app.screen.query_one(Input).value = command.name
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(pilot.app.screen, screen_class(screen_name(command))), command.name

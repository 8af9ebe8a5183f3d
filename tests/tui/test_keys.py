"""Keyboard first: the help screen on ? and F1, the command palette on ctrl+p."""

from __future__ import annotations

from textual.command import CommandPalette
from textual.widgets import Input, OptionList

from tests.tui.helpers import palette_offers, type_text, wait_for, wait_for_screen
from tests.tui.polling import until
from tui.commands import ACTIONS, SCREENS
from tui.screens.help import HelpScreen
from tui.screens.registry import screen_class
from tui.screens.weather import WeatherScreen


def screen_name(command) -> str:
    return command.action.split("'")[1]


async def test_help_lists_the_keys_of_the_screen_and_of_the_app(campaign_file, make_app):
    # ? and F1 in one app, one after the other: each opens the help and closes it
    async with make_app(campaign_file, start="weather").run_test(size=(80, 24)) as pilot:  # not the overview first
        for opener in ("question_mark", "f1"):
            await pilot.press(opener)
            await wait_for(pilot, "Keys  (ctrl+p")
            assert isinstance(pilot.app.screen, HelpScreen), f"{opener} opened {pilot.app.screen}"
            text = str(pilot.app.screen.query_one("Static").content)
            for binding in WeatherScreen.BINDINGS:
                assert f"{binding.key}" in text and binding.description in text, (opener, binding.key)
            for command in SCREENS + ACTIONS:
                assert command.name in text, (opener, command.name)
            assert "?,f1" in text, opener
            await pilot.press(opener)  # the same key closes it
            await until(pilot, lambda: isinstance(pilot.app.screen, WeatherScreen), f"the help closed by {opener}")  # noqa: B023


async def palette_names(pilot, query: str, wanted: str) -> set[str]:
    """The palette's results for `query`, by their first line, once `wanted` is among them
    (the results of the query before stay until the new search has answered)."""
    from textual.widgets import OptionList

    pilot.app.screen.query_one(Input).value = query
    results = pilot.app.screen.query_one(OptionList)

    def names() -> set[str]:
        return {str(results.get_option_at_index(i).prompt).split("\n")[0] for i in range(results.option_count)}

    try:
        await until(pilot, lambda: wanted in names(), f"{wanted!r} in the palette's results for {query!r}")
    except AssertionError as error:
        raise AssertionError(f"{error}; shown: {sorted(names())}") from None
    return names()


async def test_the_palette_lists_every_screen_and_action_by_name_and_every_screens_actions_by_their_key_bar_names(
        campaign_file, make_app):
    # One palette for both: first, searching nothing, every screen and action of the app by
    # name; then each screen's own actions, searched one by one, by the key bar's names.
    from tui.commands import screen_actions

    # in the umpire's campaign: a side file's player's own actions (Orders: Note, Export) are not offered
    walked = [(n, t, b) for n, t, b in screen_actions() if b.action not in getattr(screen_class(n), "PLAYER_ONLY", ())]
    assert len({name for name, _, _ in walked}) >= 8  # every screen with keys of its own is walked
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await wait_for(pilot, "Search for commands")
        assert isinstance(pilot.app.screen, CommandPalette)
        results = pilot.app.screen.query_one(OptionList)

        def names() -> set[str]:
            return {str(results.get_option_at_index(i).prompt).split("\n")[0] for i in range(results.option_count)}

        wanted = {c.name for c in SCREENS + ACTIONS}
        await until(pilot, lambda: wanted <= names(), "every screen and action in the palette")
        missing = wanted - names()
        assert not missing, f"not in the palette: {missing}"
        assert not any(n.endswith("Focus Next") for n in names())  # Textual's focus keys are not actions
        for _name, title, binding in walked:
            await palette_names(pilot, binding.description, f"{title}: {binding.description}")


async def test_an_action_chosen_in_the_palette_opens_its_screen_and_starts(campaign_file, make_app):
    from tests.tui.helpers import stored, wait_for_notice
    from models import Turn

    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")  # on the Overview
        await wait_for_screen(pilot, CommandPalette)
        await palette_names(pilot, "roll", "Weather: Roll weather")
        pilot.app.screen.query_one(Input).value = "Weather: Roll weather"
        await palette_offers(pilot, "Weather: Roll weather")
        await pilot.press("enter")
        await wait_for_notice(pilot, "Turn 1:")
        assert isinstance(pilot.app.screen, WeatherScreen)
    with stored(campaign_file) as db:
        assert db.get_one(Turn, 1).weather


async def test_the_key_bar_follows_the_focus_and_a_click_on_a_key_runs_it(campaign_file, make_app):
    from tui.screens.battle_setup import BattleSetupScreen
    from tui.widgets.status import KeyLine

    async with make_app(campaign_file, start="battles").run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await wait_for_screen(pilot, BattleSetupScreen)
        line = pilot.app.screen.query_one(KeyLine)
        assert "Mark stack" not in str(line.render())
        await pilot.press("tab", "tab", "tab")  # into the first side's forces
        await until(pilot, lambda: "s Mark stack" in str(line.render()), "the key bar of the forces' list")
        shown = str(line.render())
        assert "space Mark" in shown and "s Mark stack" in shown and shown.rstrip().endswith("? all keys")
        x = shown.index(" esc Cancel") + 2
        await pilot.click(KeyLine, offset=(x, 0))
        await until(pilot, lambda: not isinstance(pilot.app.screen, BattleSetupScreen), "the click to run Cancel")


async def test_a_long_description_in_help_goes_on_under_itself_at_80_columns(campaign_file, make_app, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    async with make_app(campaign_file, start="weather").run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        shown = await wait_for(pilot, "Keys  (ctrl+p")
        rows = [line.split("│")[1] for line in shown.splitlines() if line.count("│") >= 2]
        start = next(i for i, row in enumerate(rows) if "Overview: The campaign at a glance" in row)
        column = rows[start].index("Overview:")
        assert rows[start + 1][:column].strip() == "" and rows[start + 1][column] != " "  # under the description
        assert "weather" in rows[start + 1]


def widget_keys(screen) -> dict[str, tuple[str, str]]:
    """Every key of our own (a Binding with an id) on the screen and its widgets: id -> (key, description)."""
    from textual.binding import Binding

    found = {}
    for node in [screen, *screen.query("*")]:
        for cls in type(node).__mro__:
            for b in cls.__dict__.get("BINDINGS", ()):
                if isinstance(b, Binding) and b.id:
                    found.setdefault(b.id, (b.key_display or b.key, b.description))
    return found


async def test_every_screen_is_reached_through_the_palette_and_its_help_lists_every_key_that_works_there(
        campaign_file, make_app):
    # One walk of the screens for both (each screen built once): reached through the palette,
    # then its help read for every key of its own and its widgets'.
    from tui.screens.battle_setup import BattleSetupScreen
    from tui.screens.battles import BattlesScreen

    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        checked = {}
        for number, command in enumerate([*SCREENS, None]):
            if command is None:
                name = "battle set-up"
                await app.run_action("show('battles')")
                await wait_for_screen(pilot, BattlesScreen)
                app.push_screen(BattleSetupScreen())
                await wait_for_screen(pilot, BattleSetupScreen)
            else:
                name = screen_name(command)
                await pilot.press("ctrl+p")
                await wait_for_screen(pilot, CommandPalette)
                if number == 0:
                    await type_text(pilot, command.name)
                else:  # each key searches again: the whole name at once keeps the test quick
                    pilot.app.screen.query_one(Input).value = command.name
                await palette_offers(pilot, command.name)
                await pilot.press("enter")
                shown = screen_class(name)
                await until(pilot, lambda: isinstance(pilot.app.screen, shown), f"the {command.name} screen")  # noqa: B023
                if name == "orders":  # a side file's keys: its help is read in test_fog_screens.py
                    continue
            await pilot.pause()
            keys = widget_keys(app.screen)
            await app.run_action("help")
            await wait_for_screen(pilot, HelpScreen)
            text = str(app.screen.query_one("Static").content)
            for ident, (key, description) in keys.items():
                assert f"  {key.replace('question_mark', '?')}" in text and description in text, (name, ident, key, description)
            checked[name] = set(keys)
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "the help closed")
        # the keys the tester missed: space and s on the reconnaissance and the battle set-up
        assert {"marks.mark", "marks.stack"} <= checked["recon"] and {"marks.mark", "marks.stack", "ticks.tick"} <= checked["battle set-up"]

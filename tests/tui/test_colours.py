"""The app works without colour (NO_COLOR) and in a 256-colour terminal."""

from __future__ import annotations

import io

import textual.constants
from rich.console import Console
from rich.segment import Segment

from tests.tui.helpers import wait_for
from tests.tui.polling import settled, until
from tui.commands import SCREENS
from tui.screens.registry import screen_class
from tui.textual_private import screen_update


def rendered(app, color_system: str) -> tuple[list[Segment], str]:
    """The current screen as segments, and as the escape codes a terminal of `color_system` gets."""
    console = Console(
        width=app.size.width, height=app.size.height, file=io.StringIO(), force_terminal=True,
        color_system=color_system, legacy_windows=False,
    )
    update = screen_update(app)
    segments = list(console.render(update))
    console.print(update)
    return segments, console.file.getvalue()


async def visit(pilot, keys: str) -> None:
    """Screens one key away (every screen is reached through the palette in test_keys)."""
    for key in keys:
        command = next(c for c in SCREENS if c.key == key)
        await pilot.press(key)
        shown = screen_class(command.action.split("'")[1])
        await until(pilot, lambda: isinstance(pilot.app.screen, shown), f"the {command.name} screen")  # noqa: B023
        await settled(pilot)  # what its workers read, drawn


async def test_no_color_shows_the_screens_in_shades_of_grey(campaign_file, make_app, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(campaign_file)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        for key in "bwcmht":
            await visit(pilot, key)
            segments, _ = rendered(pilot.app, "truecolor")
            colours = {c.triplet for s in segments if s.style for c in (s.style.color, s.style.bgcolor) if c and c.triplet}
            assert colours and all(r == g == b for r, g, b in colours), f"a colour got through NO_COLOR on {key}"
        await wait_for(pilot, "> 1. Weather")
        segments, _ = rendered(pilot.app, "truecolor")
        # Without colour the current phase still stands out: reverse video.
        current = [s for s in segments if "1. Weather" in s.text]
        assert current and current[0].style.reverse


async def test_a_256_colour_terminal_gets_256_colours(campaign_file, make_app, monkeypatch):
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "256")
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "256")  # read when textual was imported
    app = make_app(campaign_file)
    assert app.console.color_system == "256"
    async with app.run_test(size=(80, 24)) as pilot:
        await visit(pilot, "btc")
        _, output = rendered(pilot.app, pilot.app.console.color_system)
        assert "38;5;" in output and "38;2;" not in output


async def test_the_resolver_without_colour(campaign_file, make_app, monkeypatch):
    from tests.tui.test_resolver import handed_off, resolve, to_resolver

    monkeypatch.setenv("NO_COLOR", "1")
    handed_off(campaign_file)
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        segments, _ = rendered(pilot.app, "truecolor")
        colours = {c.triplet for s in segments if s.style for c in (s.style.color, s.style.bgcolor) if c and c.triplet}
        assert all(r == g == b for r, g, b in colours), "a colour got through NO_COLOR on the resolver"
        await pilot.press("n", "n")
        await resolve(pilot, "small_arms_fire")
        shown = await wait_for(pilot, "Hits:")
        # ticks say their state in text, not only in colour
        assert "[ ]" in shown and "%" in shown

"""The reconnaissance, as the forced march and the battles: the first reading starts as the
screen is built and is awaited before the screen's first layout, so a first visit lays the
screen out and draws it once, with what it read, not first empty and then again (a layout
of the whole screen on the UI thread, which the reading shares).

Not the luck: its tables empty or filled take the same layout, which the ledger's reading
overlaps when it is not awaited (awaited, its first visit took longer, in paired runs)."""

from __future__ import annotations

import pytest

from tests.tui.helpers import wait_for_screen
from tests.tui.polling import settled


def _first_layouts(monkeypatch, screen_class, shown) -> list:
    """What `shown(screen)` says at each layout of the screen at a new size (its Resize):
    the first is its first layout."""
    seen: list = []
    before = getattr(screen_class, "on_resize", None)

    def counting(self, event) -> None:
        seen.append(shown(self))
        if before is not None:
            before(self, event)

    monkeypatch.setattr(screen_class, "on_resize", counting, raising=False)
    return seen


def _slowed(monkeypatch, module, name: str) -> None:
    """The reading `module.name` answers a moment later, as on a big campaign: the screen is
    composed and mounted before it comes."""
    import time

    reading = getattr(module, name)

    def slow(*args, **kwargs):
        time.sleep(0.3)
        return reading(*args, **kwargs)

    monkeypatch.setattr(module, name, slow)


@pytest.mark.parametrize("name", ["recon"])
async def test_a_first_visit_is_laid_out_once_already_showing_what_it_read(campaign_file, make_app, monkeypatch, name):
    from tui.screens import recon

    module, screen_class, shown, reading = {
        "recon": (recon, recon.ReconnaissanceScreen, lambda s: len(s.query_one("#ours").stacks), (recon, "_view")),
    }[name]
    monkeypatch.setattr(module, "FIRST_WAIT", 60.0)  # however loaded the machine, the reading comes within it
    _slowed(monkeypatch, *reading)
    seen = _first_layouts(monkeypatch, screen_class, shown)
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.app.run_action(f"show({name!r})")
        await wait_for_screen(pilot, screen_class)
        await settled(pilot)
        now = shown(pilot.app.screen)
    assert now > 0
    assert seen[:1] == [now]

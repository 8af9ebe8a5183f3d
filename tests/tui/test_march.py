"""Forced march: mark units of a stack, roll, the SP lost stored as one action that u undoes."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from campaigns import forced_march
from campaigns.session import CampaignSession
from models import DiceRoll, Event, Unit
from tests.tui.helpers import screen_text, sizes_in_colour_or_not, stored, type_text, wait_for, wait_for_notice, wait_for_screen
from tests.tui.polling import settled, until

STACK = "blucher"  # General Blücher's Prussian corps: five units


def stack_index(path, key: str = STACK) -> tuple[int, list[str]]:
    session = CampaignSession.open(path)
    try:
        stacks = forced_march.stacks(session)
        index = next(i for i, s in enumerate(stacks) if s.key == key)
        units = [u.id for u in forced_march.units(session, stacks[index])]
    finally:
        session.close()
    return index, units


def strengths(db) -> dict[str, int]:
    return {u.id: u.strength_points for u in db.scalars(select(Unit))}


async def open_stack(pilot, index: int) -> None:
    from tui.screens.march import ForcedMarchScreen

    await pilot.press("m")
    await wait_for_screen(pilot, ForcedMarchScreen)
    await settled(pilot)  # the stacks read and listed
    await pilot.press(*["down"] * index)
    await pilot.press("tab")  # to the units of the stack


async def test_marked_units_roll_and_lose_sp_in_one_action_that_undo_restores(campaign_file, make_app):
    index, units = stack_index(campaign_file)
    with stored(campaign_file) as db:
        before = strengths(db)
        events_before = len(list(db.scalars(select(Event))))
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await open_stack(pilot, index)
        await pilot.press("space", "down", "space")
        shown = await wait_for(pilot, "[x]")
        assert shown.count("[x]") == 2
        await pilot.press("r")
        notice = await wait_for_notice(pilot, "SP lost")
        assert notice.count("SP lost") == 2
        assert "[x]" not in screen_text(pilot.app)  # the marks are cleared after the march
        with stored(campaign_file) as db:
            after = strengths(db)
            events = list(db.scalars(select(Event).order_by(Event.id)))
            assert len(events) == events_before + 1
            march = events[-1]
            assert march.description.startswith("Forced march: General Blücher")
            rolls = list(db.scalars(select(DiceRoll).where(DiceRoll.event == march.id)))
            assert sorted(r.purpose for r in rolls) == sorted(
                f"forced march of {db.get_one(Unit, u).name}" for u in units[:2]
            )
            changed = {u for u in before if before[u] != after[u]}
            assert changed <= set(units[:2])
            assert sum(before.values()) - sum(after.values()) == sum(
                int(line.split(": ")[-1].split()[0]) for line in notice.splitlines()
            )
        await pilot.press("u")  # the app's undo, on the same screen
        await wait_for_notice(pilot, "Undone: Forced march: General Blücher")
    with stored(campaign_file) as db:
        assert strengths(db) == before
        assert db.get_one(Event, march.id).undone


async def test_a_all_marks_the_whole_stack_and_entered_dice_are_asked_per_unit(manual_campaign_file, make_app):
    index, units = stack_index(manual_campaign_file, "barclay")  # two units
    with stored(manual_campaign_file) as db:
        before = strengths(db)
    async with make_app(manual_campaign_file).run_test(size=(80, 24)) as pilot:
        await open_stack(pilot, index)
        await pilot.press("a")
        shown = await wait_for(pilot, "[x]")
        assert shown.count("[x]") == len(units)
        await pilot.press("r")
        for _ in units:
            await wait_for(pilot, "Dice rolled on the table for the forced march of")
            await type_text(pilot, "1")  # the best die: no loss
            await pilot.press("enter")
        await wait_for_notice(pilot, "SP lost")
    with stored(manual_campaign_file) as db:
        rolls = list(db.scalars(select(DiceRoll)))
        assert [r.raw for r in rolls] == [[1]] * len(units)
        assert all(r.mode == "entered" for r in rolls)
        assert strengths(db) == before


async def test_the_modifiers_and_odds_of_the_stack_are_shown(campaign_file, make_app):
    index, _ = stack_index(campaign_file)
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await open_stack(pilot, index)

        def mods() -> str:
            return str(pilot.app.screen.query_one("#mods").render())

        await until(pilot, lambda: "Brigade Klüx (-2) loses" in mods(), "the odds of the first unit of the stack")
        shown = mods()
        assert "Weather: clear (weather not rolled)" in shown
        assert "General with a CV of 3 or 4 in the stack -1" in shown
        # The odds of the unit under the cursor, readable at 80 columns.
        assert "Blücher's Corps: Brigade Klüx (-2) loses: 0 SP 100%" in shown
        await pilot.press("down")
        await until(pilot, lambda: "Brigade Röder, with the Prussian Guard" in mods(), "the odds of the next unit")


async def test_a_first_visit_is_laid_out_once_already_listing_the_stacks(campaign_file, make_app, monkeypatch):
    """The first reading starts as the screen is built and is awaited before its first layout:
    the screen is not laid out and drawn empty first, then again with the stacks."""
    from tui.screens import march

    monkeypatch.setattr(march, "FIRST_WAIT", 60.0)  # however loaded the machine, the reading comes within it
    listed_at_layout: list[int] = []
    on_resize = march.ForcedMarchScreen.on_resize

    def counting(self, event) -> None:  # a screen's Resize comes with each layout at a new size: the first one
        listed_at_layout.append(self.query_one("#stacks").option_count)
        on_resize(self, event)

    monkeypatch.setattr(march.ForcedMarchScreen, "on_resize", counting)
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await wait_for_screen(pilot, march.ForcedMarchScreen)
        await settled(pilot)
        listed = pilot.app.screen.query_one("#stacks").option_count
    assert listed > 5
    assert listed_at_layout[:1] == [listed]


@pytest.mark.parametrize(("size", "colour"), sizes_in_colour_or_not([(80, 24), (120, 40)], "march names"))  # both sizes, both modes
async def test_every_unit_name_of_every_stack_is_whole_and_nothing_runs_off_the_edge(
    tmp_path, make_app, monkeypatch, size, colour
):
    """The autumn scenario's longest names (up to 91 characters) wrap onto more lines
    of their row, whole, with SP, cohesion, modifier and odds in view beside them."""
    from tests.tui.conftest import new_campaign

    if not colour:
        monkeypatch.setenv("NO_COLOR", "1")
    path = new_campaign(tmp_path / "autumn.campaign", scenario="autumn1813")
    session = CampaignSession.open(path)
    try:
        stacks = [[u.name for u in forced_march.units(session, s)] for s in forced_march.stacks(session)]
    finally:
        session.close()
    async with make_app(path).run_test(size=size) as pilot:
        await pilot.press("m")
        await wait_for(pilot, "Forced march:")
        screen = pilot.app.screen
        table = screen.query_one("#units")
        wrapped = 0
        for index, names in enumerate(stacks):
            screen.query_one("#stacks").highlighted = index

            def units_shown() -> list[str]:
                cells = [str(table.get_row(row.key)[1]).split("\n") for row in table.ordered_rows]
                return [" ".join(line.strip() for line in lines) for lines in cells]

            await until(pilot, lambda: units_shown() == names, f"the units of stack {index}")  # noqa: B023
            assert [c.label.plain for c in table.ordered_columns] == ["", "Unit", "SP", "Coh", "Mod", "SP lost: odds"]
            assert table.virtual_size.width <= table.size.width  # nothing off the right edge
            cells = [str(table.get_row(row.key)[1]).split("\n") for row in table.ordered_rows]
            assert [" ".join(line.strip() for line in lines) for lines in cells] == names
            wrapped += sum(len(lines) > 1 for lines in cells)
        assert wrapped  # the long names reach the wrapping


def test_the_stacks_named_through_the_generals_index_are_those_of_every_unit_counted(campaign_file):
    """forced_march.stacks asks the generals' index which generals have a real unit, and
    which ids no general has: the stacks, labels and command values of counting every unit,
    with a general left with dummies only, and units of none: all the units of one general
    and one unit of another (a general the file no longer has is refused at opening, models.gate)."""
    import sqlite3

    db = sqlite3.connect(campaign_file)
    generals = [g for (g,) in db.execute("SELECT id FROM general ORDER BY id")]
    db.execute("UPDATE unit SET kind = 'dummy' WHERE general = ?", (generals[0],))
    db.execute("UPDATE unit SET general = NULL WHERE general = ?", (generals[1],))
    db.execute("UPDATE unit SET general = NULL WHERE id = (SELECT MIN(id) FROM unit WHERE general = ?)", (generals[2],))
    rows = list(db.execute("SELECT general, location, kind FROM unit"))
    cvs = {g: (name, location, cv) for g, name, location, cv in db.execute("SELECT id, name, location, command_value FROM general")}
    db.commit()
    db.close()
    real = [(general, location) for general, location, kind in rows if kind != "dummy"]
    attached = {g for g, _l in real if g in cvs}
    loose = sorted({location for g, location in real if g not in cvs})
    expected = [
        (g, f"{cvs[g][0]} ({cvs[g][1] or 'no location'})", sorted(cv for o, (_n, there, cv) in cvs.items() if o == g or there == cvs[g][1]))
        for g in sorted(attached, key=lambda g: cvs[g][0])
    ] + [(f"at:{location}", f"Units without a general at {location}", []) for location in loose]
    assert generals[0] not in attached and generals[1] not in attached and loose  # the file is as awkward as meant
    session = CampaignSession.open(campaign_file)
    try:
        got = [(s.key, s.label, sorted(s.general_cvs)) for s in forced_march.stacks(session)]
    finally:
        session.close()
    assert got == expected


def test_the_columns_counted_from_the_distinct_figures_are_those_of_every_row():
    """The table's widths come from the stack's distinct names, SP, cohesions, modifiers
    and odds (tui.screens.march._Rows.widths), its rows' text only as they are added: the
    widths are those of counting every row's cells as shown, control characters and wide
    letters included."""
    from fractions import Fraction

    from rich.cells import cell_len

    from campaigns.text import shown
    from rules.dice import Modifier
    from tui.screens.march import _Rows

    names = ["Ney", "Souham\x1b[31m division\x07", "東京 division", "Zoë's brigade", "x" * 40, "\x1b" * 50]
    mods = [(Modifier("cohesion", -1),), (Modifier("cohesion", -1), Modifier("weather", -12)), ()]
    plans = [
        forced_march.UnitMarch(
            forced_march.Marcher(f"u{i}", name, sp, coh), mods[i % 3],
            {0: Fraction(5, 6), 1: Fraction(1, 6)} if i % 2 else {0: Fraction(1)},
        )
        for i, (name, sp, coh) in enumerate((n, s, c) for n in names for s, c in ((0, 1), (12, 10), (3, 2)))
    ]
    odds = {id(p.odds): "  ".join(f"{k}:{float(v) * 100:3.0f}%" for k, v in p.odds.items()) for p in plans}
    headers = ("", "Unit", "SP", "Coh", "Mod", "SP lost: odds")
    rows = _Rows(plans, {"u1", "u4"}, odds)
    every = [max([len(h), *(cell_len(shown(cells[i])) for _key, cells in rows)]) for i, h in enumerate(headers)]
    assert rows.widths(headers) == every
    assert every[1] == 40  # fifty escapes show as nothing: the forty x's are the widest name shown
    assert [key for key, _cells in rows] == [p.unit.id for p in plans] and rows[1][1][0] == "[x]" and rows[0][1][0] == "[ ]"

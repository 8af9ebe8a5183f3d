"""Battles from the keyboard: set up, fight step by step, hand off to the tabletop, apply."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from sqlmodel import select
from textual.widgets import Input, Select

from campaigns import battles, forces, oob, weather
from campaigns.session import CampaignSession
from models import Battle, DiceRoll, Unit
from tui.modals.form import FormScreen
from tui.screens.battle_setup import BattleSetupScreen
from tui.screens.battles import BattlesScreen
from tui.screens.fight import FightScreen
from tui.screens.recon import ReconnaissanceScreen
from tui.widgets.marklist import MarkList, TickList

from tests.tui.polling import caught_up, settled, until

from .helpers import burst, key, letters, palette_offers, screen_text, sizes_in_colour_or_not, stored, type_text, wait_for, wait_for_notice, wait_for_screen


def with_weather(path):
    session = CampaignSession.open(path)
    weather.roll(session, [2])  # April, 2 + 1 = 3: Clear
    session.close()
    return path


async def set_up(pilot, where: str, resolver: str | None = None, pick: int = 2) -> None:
    if not isinstance(pilot.app.screen, BattlesScreen):  # an app started on the battles is there
        await pilot.press("x")
    await wait_for_screen(pilot, BattlesScreen)
    await pilot.press(key(BattlesScreen, "battles.new"))
    await wait_for_screen(pilot, BattleSetupScreen)
    screen = pilot.app.screen
    await type_text(pilot, where)
    if resolver:
        screen.query_one("#resolver", Select).value = resolver
    for side in screen.sides:
        real = [f.id for stack in side.stacks for f in stack.forces if not f.dummy]
        screen.query_one(f"#units-{side.side}", MarkList).mark(real[:pick])
    await pilot.pause()
    await pilot.press(key(BattleSetupScreen, "setup.begin"))
    # The first units of each side stand far apart: the umpire overrides contact, with a reason.
    await wait_for_screen(pilot, FormScreen)
    # Typed as a fast typist does (the key gate delivers them one by one): pressing them
    # one at a time waited two idle rounds of the pilot per letter, a third of the test.
    await burst(pilot, *letters("forces gathered from the whole map for the test"))
    await pilot.press("ctrl+s")
    await wait_for_screen(pilot, FightScreen)


async def test_a_battle_fought_from_the_keyboard_and_applied(campaign_file, make_app):
    with_weather(campaign_file)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await set_up(pilot, "Grossgörschen")
        shown = await wait_for(pilot, "Round 1: the attacker")
        assert "Column:" in shown and "Result odds:" in shown
        for _ in range(40):
            fight = battles.load(app.session, 1)
            if fight.ready_to_apply:
                break
            step = fight.next_step
            if step is not None and step.kind == "morale test" and step.dice is None:
                await pilot.press(key(FightScreen, "fight.pass"))
            else:
                await pilot.press(key(FightScreen, "fight.roll"))
            await caught_up(pilot)  # the step is rolled in a worker: read once it is stored
        plan = battles.settlement(app.session, 1)
        await pilot.press(key(FightScreen, "fight.apply"))
        await wait_for(pilot, "Apply the battle")
        await pilot.press("y")
        await wait_for(pilot, "done):")
    with stored(campaign_file) as db:
        row = db.get(Battle, 1)
        assert row.status == "done" and row.losses["sides"] == plan.losses
        rolls = db.exec(select(DiceRoll)).all()
        assert any("battle round 1" in r.purpose for r in rolls)


def begun_from_the_whole_map(session: CampaignSession, place: str, pick: int) -> int:
    """A battle at `place` begun with the first `pick` forces of each side's list as the set-up
    screen lists them (set_up with pick=...), contact overridden, through the flow-layer call the
    set-up screen makes; its id."""
    att, dfn = ([f.id for stack in side.stacks for f in stack.forces if not f.dummy][:pick] for side in forces.stacks_in(session, None))
    draft = battles.Draft(
        place, att, dfn, battles.leaders_at(session, att), battles.leaders_at(session, dfn),
        facts=battles.suggested_facts(session, att, dfn), override="forces gathered from the whole map for the test",
    )
    return battles.begin(session, draft)


def luetzen_begun(path: Path) -> None:
    """The battle set_up(pilot, "Lützen") begins (two forces a side, the first of each side's
    list, contact overridden), begun through the flow-layer call the set-up screen makes."""
    with_weather(path)
    session = CampaignSession.open(path)
    try:
        begun_from_the_whole_map(session, "Lützen", 2)
    finally:
        session.close()


async def test_a_pending_battle_survives_closing_the_app(tmp_path, make_app):
    """A step rolled on the battle screen, the app closed: the battle, found again from the
    palette, has its step. The battle is begun once per worker through the flow layer
    (luetzen_begun): setting it up from the keyboard, as it once was here, is what the
    first test of this file and the tabletop test do, and half of this test's CPU."""
    from tests.tui.conftest import built_once

    path = built_once(tmp_path / "spring.campaign", "luetzen-begun", luetzen_begun)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_battle(1)
        await wait_for_screen(pilot, FightScreen)
        assert "No roll yet." in await wait_for(pilot, "Battle of Lützen")
        await pilot.press(key(FightScreen, "fight.roll"))
        await caught_up(pilot)  # the step is rolled and stored in a worker: the app is closed after it
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await type_text(pilot, "Battle of Lützen")
        await palette_offers(pilot, "Battle of Lützen")
        await pilot.press("enter")
        await wait_for_screen(pilot, FightScreen)
        shown = await wait_for(pilot, "Battle of Lützen")
        assert "1 step taken" in shown


async def test_a_battle_fought_on_the_resolver_screen_counts_its_resolutions(campaign_file, make_app):
    """The battle screen of a battle fought on the resolver screen: its resolutions counted,
    not "No roll yet." (before: the campaign tables' steps only, none for a tabletop battle)."""
    from campaigns import tabletop

    with_weather(campaign_file)
    session = CampaignSession.open(campaign_file)
    try:
        tree = oob.tree(session)
        french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:2]
        allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:2]
        draft = battles.Draft("Lützen", french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies), {},
                              override="a test battle between forces placed by hand")
        battle = battles.begin(session, draft, resolver="kallistra_acw")
        tabletop.start(session, battle)
        while tabletop.load(session, battle).phase.id != "simultaneous_fire":
            tabletop.next_phase(session, battle)
        shooter = tabletop.load(session, battle).side_units("attacker")[0]
        target = tabletop.load(session, battle).side_units("defender")[0]
        tabletop.resolve(session, battle, "small_arms_fire", shooter.id, target.id, numbers={"range": 2}, entered=[12, 12, 1])
    finally:
        session.close()
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await type_text(pilot, "Battle of Lützen")
        await palette_offers(pilot, "Battle of Lützen")
        await pilot.press("enter")
        await wait_for_screen(pilot, FightScreen)
        shown = await wait_for(pilot, "1 resolution on the resolver screen; the history screen (h) lists every roll.")
        assert "No roll yet." not in shown


async def test_tabletop_hand_off_and_result_back(campaign_file, make_app):
    with_weather(campaign_file)
    with stored(campaign_file) as db:
        before = sum(u.strength_points for u in db.exec(select(Unit)).all())
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await set_up(pilot, "Bautzen", resolver="napoleonic_13phase")
        shown = await wait_for(pilot, "Fought on the tabletop")
        assert "on the table" in shown  # the rule set's conversion lists the units
        await pilot.press(key(FightScreen, "fight.type"))
        await wait_for(pilot, "Result of the tabletop battle")
        form = app.screen
        form.query_one("#f-attacker", Input).value = "x"
        await pilot.press("ctrl+s")
        await wait_for(pilot, "whole number")  # the form stays, with the reason
        form.query_one("#f-attacker", Input).value = "1"
        form.query_one("#f-defender", Input).value = "2"
        form.query_one("#f-winner", Select).value = "attacker"
        await pilot.press("ctrl+s")
        await wait_for(pilot, "Tabletop result")
        fight = battles.load(app.session, 1)
        if fight.pursuit_step() is not None:
            await pilot.press(key(FightScreen, "fight.roll"))
            await caught_up(pilot)  # the pursuit rolled and stored before the settlement is read
        plan = battles.settlement(app.session, 1)
        await pilot.press(key(FightScreen, "fight.apply"))
        await wait_for(pilot, "Apply the battle")
        await pilot.press("y")
        await wait_for(pilot, "done):")
    with stored(campaign_file) as db:
        after = sum(u.strength_points for u in db.exec(select(Unit)).all())
        assert db.get(Battle, 1).resolver == "napoleonic_13phase"
    assert before - after == plan.losses["attacker"] + plan.losses["defender"]


async def test_bad_set_up_says_what_is_wrong(campaign_file, make_app):
    with_weather(campaign_file)
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")
        await wait_for_screen(pilot, BattlesScreen)
        await pilot.press("n")
        await wait_for_screen(pilot, BattleSetupScreen)
        await pilot.press("ctrl+s")
        assert "Say where the battle is fought" in await wait_for(pilot, "Say where")
        await type_text(pilot, "Halle")
        await pilot.press("ctrl+s")
        assert "at least one force" in await wait_for(pilot, "at least one force")
        screen = pilot.app.screen
        for lst in screen.query(MarkList):
            if lst.id and lst.id.startswith("units-"):
                lst.mark([next(f.id for st in lst.stacks for f in st.forces if not f.dummy)])
        await pilot.pause()
        await pilot.press("ctrl+s")  # Halle: forces from elsewhere are refused, and the umpire is asked why
        await wait_for(pilot, "overrides with a reason")  # "... not at Halle: a battle is fought between stacks in contact"
        await pilot.press("ctrl+s")
        assert "Give the reason" in await wait_for(pilot, "Give the reason")
        await pilot.press("escape")
        await wait_for_screen(pilot, BattleSetupScreen)
        facts = screen.query_one("#facts", TickList)
        facts.select("defence_in_open_terrain")
        facts.select("defender_in_defensive_terrain")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, "overrides with a reason")
        await type_text(pilot, "a test of the set-up")
        await pilot.press("ctrl+s")
        # the rules' sentence naming the card's lines, not a traceback
        assert "Defence is open terrain" in await wait_for(pilot, "Defence is open terrain")
        assert isinstance(app.screen, BattleSetupScreen)
    with stored(campaign_file) as db:
        assert db.exec(select(Battle)).all() == []


async def test_reconnaissance_rolls_and_stores(campaign_file, make_app):
    """From a stack against an enemy stack in reach: the screens offered are those in reach of
    the marked stack's place (option reconnaissance_reach, one road by default)."""
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i")
        await wait_for_screen(pilot, ReconnaissanceScreen)
        screen = app.screen
        ours, theirs = screen.query_one("#ours", MarkList), screen.query_one("#theirs", MarkList)
        assert theirs.stacks == []  # nothing to screen until the reconnoitring stack is marked
        eisleben = next(st for st in ours.stacks if st.place == "Eisleben")  # Latour-Maubourg's cavalry
        ours.mark([f.id for f in eisleben.forces])
        await wait_for(pilot, "Screening units in reach of Eisleben")
        # Halle is one road from Eisleben; Weissenfels and the rest are not.
        assert [st.place for st in theirs.stacks] == ["Halle"]
        theirs.mark([f.id for f in theirs.stacks[0].forces])
        await wait_for(pilot, "Cavalry SP differential")
        await pilot.press(key(ReconnaissanceScreen, "recon.roll"))
        await wait_for_notice(pilot, "Reconnaissance by")  # rolled and stored in a worker, then told
        # Units of two places are not one stack: one sentence, no screens offered.
        coburg = next(st for st in ours.stacks if st.place == "Coburg")
        ours.mark([f.id for f in coburg.forces])
        await wait_for(pilot, "a reconnaissance is made from one stack")
        assert theirs.stacks == []
    with stored(campaign_file) as db:
        assert any(r.purpose.startswith("reconnaissance") for r in db.exec(select(DiceRoll)).all())


async def test_a_stored_set_up_the_card_refuses_shows_its_sentence(campaign_file, make_app):
    # A file written before open terrain excluded mountain: the battle screen says why.
    session = CampaignSession.open(with_weather(campaign_file))
    tree = oob.tree(session)
    ours = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
    theirs = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
    battle_id = battles.begin(session, battles.Draft("Halle", ours, theirs, override="a test battle between forces placed by hand"))
    with session.store.action("an older set-up") as db:
        row = db.get(Battle, battle_id)
        facts = {**row.detail["setup"]["facts"], "defence_in_open_terrain": True, "defender_in_mountain": True}
        row.detail = {**row.detail, "setup": {**row.detail["setup"], "facts": facts}}
    session.close()
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_battle(battle_id)
        await wait_for_screen(pilot, FightScreen)
        assert "Defence is open terrain" in await wait_for(pilot, "Defence is open terrain")
async def test_marks_typed_in_a_burst_all_count_and_the_totals_follow(campaign_file, make_app):
    from tests.tui.helpers import burst, letters

    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key(BattlesScreen, "battles.new"))
        await wait_for_screen(pilot, BattleSetupScreen)
        screen = app.screen
        french = screen.sides[0]
        first = french.stacks[0]
        # The cursor is on the first row as the list takes the focus: Space at once marks
        # the place; then each unit row of the second stack, keys sent with no pause.
        units_of_second = len(french.stacks[1].forces)
        rows_to_second = 1 + len(first.commands) + len(first.forces)
        keys = ["tab", "tab", "tab", "space"] + ["down"] * (rows_to_second + 1)
        for _ in range(units_of_second):
            keys += ["down", "space"]
        await burst(pilot, *letters("Lützen"), *keys)
        marks = screen.query_one(f"#units-{french.side}", MarkList)
        assert set(marks.selected) == {f.id for f in first.forces} | {f.id for f in french.stacks[1].forces}
        sp = sum(f.strength_points for st in french.stacks[:2] for f in st.forces if not f.dummy)
        await wait_for(pilot, f"Attacker ({french.name}): {sp} SP")
        assert "[x]" in screen_text(app) and "[ ]" in screen_text(app)


async def test_a_half_filled_set_up_is_kept_when_the_form_is_left(campaign_file, make_app):
    # issue 24: the half-filled form was lost on leaving it; now it waits for the umpire's return
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")
        await wait_for_screen(pilot, BattlesScreen)
        await pilot.press(key(BattlesScreen, "battles.new"))
        await wait_for_screen(pilot, BattleSetupScreen)
        screen = pilot.app.screen
        await type_text(pilot, "Lützen")
        screen.query_one("#resolver", Select).value = "napoleonic_d10"
        side = screen.sides[0]
        first = next(f.id for stack in side.stacks for f in stack.forces if not f.dummy)
        screen.query_one(f"#units-{side.side}", MarkList).mark([first])
        screen.query_one("#facts", TickList).select("defender_in_defensive_terrain")
        await pilot.pause()
        await pilot.press(key(BattleSetupScreen, "setup.cancel"))
        await wait_for_screen(pilot, BattlesScreen)

        await pilot.press(key(BattlesScreen, "battles.new"))  # back: as it was left
        await wait_for_screen(pilot, BattleSetupScreen)
        screen = pilot.app.screen
        await wait_for(pilot, "The set-up you left is as you left it: ctrl+n discards it")
        assert screen.query_one("#where", Input).value == "Lützen"
        assert screen.query_one("#resolver", Select).value == "napoleonic_d10"
        assert screen.query_one(f"#units-{side.side}", MarkList).selected == [first]
        assert "defender_in_defensive_terrain" in screen.query_one("#facts", TickList).selected

        await pilot.press(key(BattleSetupScreen, "setup.discard"))  # discarded explicitly
        await wait_for(pilot, "Set-up discarded")
        assert screen.query_one("#where", Input).value == ""
        assert screen.query_one(f"#units-{side.side}", MarkList).selected == []
        await pilot.press(key(BattleSetupScreen, "setup.cancel"))
        await wait_for_screen(pilot, BattlesScreen)
        await pilot.press(key(BattlesScreen, "battles.new"))
        await wait_for_screen(pilot, BattleSetupScreen)
        await settled(pilot)  # what the screen shows once built: nothing of the set-up discarded
        assert pilot.app.screen.query_one("#where", Input).value == ""
        assert "as you left it" not in str(pilot.app.screen.query_one("#error").render())
def kleist_to_merseburg(path):
    """Kleist's stack joins Macdonald's at Merseburg: the two sides in contact there."""
    session = CampaignSession.open(with_weather(path))
    try:
        with session.store.action("Kleist to Merseburg (set up by hand)") as db:
            from models import General

            db.get_one(General, "kleist").location = "Merseburg"
            for unit in db.exec(select(Unit).where(Unit.location == "Halle")):
                unit.location = "Merseburg"
    finally:
        session.close()
    return path


async def test_a_battle_starts_from_a_contact_place_with_the_stacks_there(campaign_file, make_app):
    from tests.tui.helpers import burst
    from tui.modals.pick import PickScreen

    kleist_to_merseburg(campaign_file)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Stacks in contact")
        await pilot.press(key(BattlesScreen, "battles.new"))
        await wait_for_screen(pilot, PickScreen)
        assert "Merseburg: French Empire and allies F 11 at Merseburg" in screen_text(app)
        await pilot.press("enter")  # the first place offered
        await wait_for_screen(pilot, BattleSetupScreen)
        screen = app.screen
        assert screen.query_one("#where", Input).value == "Merseburg"
        assert {st.place for side in screen.sides for st in side.stacks} == {"Merseburg"}
        await wait_for(pilot, "in contact at Merseburg")
        await burst(pilot, "tab", "tab", "tab", "s", "tab", "s")
        await wait_for(pilot, "Attacker (French Empire and allies): 11 SP in 3 units")
        # Every place's forces on ctrl+t, the marks kept; and back.
        elsewhere = key(BattleSetupScreen, "setup.elsewhere")
        await pilot.press(elsewhere)
        await wait_for(pilot, "Coburg: Marshal Oudinot")
        assert len({st.place for side in screen.sides for st in side.stacks}) > 5
        await wait_for(pilot, "Attacker (French Empire and allies): 11 SP in 3 units")
        await pilot.press(elsewhere)
        await wait_for(pilot, "in contact at Merseburg")
        await pilot.press(key(BattleSetupScreen, "setup.begin"))  # in contact: no reason asked
        await wait_for_screen(pilot, FightScreen)
    with stored(campaign_file) as db:
        battle = db.exec(select(Battle)).one()
        assert battle.location == "Merseburg" and "override" not in battle.detail["setup"]


async def test_the_place_typed_in_a_set_up_from_a_place_lists_the_forces_there(campaign_file, make_app):
    from tui.modals.pick import PickScreen

    kleist_to_merseburg(campaign_file)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key(BattlesScreen, "battles.new"))
        await wait_for_screen(pilot, PickScreen)
        await pilot.press("enter")
        await wait_for_screen(pilot, BattleSetupScreen)
        screen = app.screen
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "Weimar")
        await wait_for(pilot, "in contact at Weimar")
        french, allies = screen.sides
        assert [st.place for st in french.stacks] == ["Weimar"] and allies.stacks == ()
        title = str(screen.query_one(f"#title-{allies.side}").render())
        assert title == "Russia and Prussia in contact at Weimar (none; ctrl+t: every place)"


@pytest.mark.parametrize(("size", "colour"), sizes_in_colour_or_not([(80, 24), (120, 40)], "battle set-up names"))  # both sizes, both modes
async def test_a_long_force_goes_on_under_its_name_with_its_figures_whole_and_the_form_scrolls_to_the_cursor(
    tmp_path, make_app, monkeypatch, size, colour
):
    """Autumn's longest names (up to 91 characters): a row that wraps goes on under the
    name, past its box, and "infantry 7 SP" is never parted; the lists are as tall as
    their rows, so only the form scrolls (one scroll bar), and it follows the cursor."""
    from tests.tui.conftest import new_campaign

    if not colour:
        monkeypatch.setenv("NO_COLOR", "1")
    path = new_campaign(tmp_path / "autumn.campaign", scenario="autumn1813")
    app = make_app(path, start="battles")
    async with app.run_test(size=size) as pilot:
        await pilot.press(key(BattlesScreen, "battles.new"))
        await wait_for_screen(pilot, BattleSetupScreen)
        screen = app.screen
        await until(
            pilot,
            lambda: all(screen.query_one(f"#units-{side.side}", MarkList).size.width for side in screen.sides),
            "the set-up's lists laid out",
        )
        wrapped = 0
        for side in screen.sides:
            marks = screen.query_one(f"#units-{side.side}", MarkList)
            assert marks.max_scroll_y == 0  # the list does not scroll inside the form
            forces = {f.id: f for stack in side.stacks for f in stack.forces}
            for index, row in enumerate(marks._rows):
                lines = marks.lines_of(index)
                assert all(len(line) <= marks.size.width for line in lines)
                indent = len(lines[0]) - len(lines[0].lstrip(" ")) + len("[x] ")
                assert all(line.startswith(" " * indent) and line[indent] != " " for line in lines[1:])
                assert " ".join(lines).split() == marks._prompt(row).replace("\u00a0", " ").split()  # every word
                if row.depth == 2:
                    assert any(line.endswith(forces[row.forces[0]].short()) for line in lines)
                wrapped += len(lines) > 1
        assert wrapped or size[0] > 80  # at 80 columns the long names reach the wrapping
        first = screen.query_one(f"#units-{screen.sides[0].side}", MarkList)
        first.focus()
        # To the last row by End: the same highlight change and scroll_to_highlight as a Down
        # on each row, one key instead of hundreds (each pressed key cost the pilot two idle
        # rounds: most of the test's time).
        await pilot.press("end")
        await until(pilot, lambda: first.highlighted == len(first._rows) - 1, "the cursor on the last row")
        last = first.lines_of(len(first._rows) - 1)
        await until(pilot, lambda: all(line in screen_text(app) for line in last), "the form scrolled to the last row")
        shown = screen_text(app)
        assert all(line in shown for line in last)  # the form scrolled to the cursor's row


def fought_at_grossgoerschen(path: Path) -> None:
    """Twelve forces a side, the first of each side's list as the set-up lists them (set_up
    with pick=12), fought at Grossgörschen to the end, every step rolled and every morale
    test passed as the keyboard test above takes them (fight.roll, fight.pass), through
    the same flow-layer calls the fight screen makes."""
    with_weather(path)
    session = CampaignSession.open(path)
    try:
        battle_id = begun_from_the_whole_map(session, "Grossgörschen", 12)
        for _ in range(60):
            fight = battles.load(session, battle_id)
            if fight.ready_to_apply:
                break
            step = fight.next_step
            if step is not None and step.kind == "morale test" and step.dice is None:
                battles.record_morale(session, battle_id, True)
            elif step is not None:
                battles.roll_step(session, battle_id)
            else:
                battles.roll_pursuit(session, battle_id)
        assert battles.load(session, battle_id).ready_to_apply
    finally:
        session.close()


@pytest.mark.parametrize("colour", [True, False], ids=["colour", "NO_COLOR"])
async def test_a_units_loss_that_wraps_goes_on_under_itself_at_80_columns(tmp_path, make_app, monkeypatch, colour):
    """The losses, unit by unit, in the half-width step pane: "  1st Young Guard Division
    (Dumoustier): -2" goes on four cells in, never back at the pane's edge.

    The battle is fought once per worker through the flow layer (fought_at_grossgoerschen)
    and opened on its screen: fighting it from the keyboard, as it once was here, took 60
    keys and most of the test's time, and is what the first test of this file proves."""
    from tests.tui.conftest import built_once

    if not colour:
        monkeypatch.setenv("NO_COLOR", "1")
    path = built_once(tmp_path / "spring.campaign", "fought-at-grossgoerschen", fought_at_grossgoerschen)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_battle(1)
        await wait_for_screen(pilot, FightScreen)
        plan = battles.settlement(app.session, 1)
        await wait_for(pilot, "SP lost: attacker")
        pane = app.screen.query_one("#step-text")
        # The whole pane as drawn at its width, the part scrolled out of view included.
        console = Console(width=pane.content_region.width, file=io.StringIO(), record=True, color_system=None)
        console.print(pane.content)
        lines = console.export_text().splitlines()
        losses = [f"{plan.names.get(u, u)}: -{n}" for u, n in plan.by_unit.items()]
        assert losses
        wrapped = 0
        for loss in losses:
            start = next(i for i, line in enumerate(lines) if line.startswith("  ") and loss.startswith(line.strip()))
            taken = [lines[start]]
            while " ".join(line.strip() for line in taken) != loss:
                taken.append(lines[start + len(taken)])
                assert taken[-1].startswith("    ") and taken[-1][4] != " "  # under the name, deeper than it
            wrapped += len(taken) > 1
        assert wrapped  # the long names reach the wrapping in the half-width pane


async def test_r_retreats_the_loser_of_an_applied_battle(campaign_file, make_app):
    """R on a battle applied: the umpire picks the adjacent place the loser retreats to."""
    from tests.campaigns.test_aftermath import PLACE, _forces, _fought

    session = CampaignSession.open(with_weather(campaign_file))
    french, allies = _forces(session)
    battles.apply(session, _fought(session, french, allies))
    session.close()
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_screen(pilot, BattlesScreen)
        await settled(pilot)
        await pilot.press(key(BattlesScreen, "battles.retreat"))
        await wait_for_screen(pilot, FormScreen)
        assert f"Retreat the defender from {PLACE}" in screen_text(pilot.app)
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, BattlesScreen)
        await caught_up(pilot)
    with stored(campaign_file) as db:
        places = {db.get_one(Unit, u).location for u in allies}
    assert places == {"Freyburg"}  # the first adjacent place the enemy does not hold (the French are at Eisleben)


async def test_s_on_a_field_that_takes_no_letter_goes_to_the_forces_not_to_save_a_copy(campaign_file, make_app):
    """The battle set-up and the reconnaissance say "s a whole stack". Before, s on their
    Select (Attacker, Resolver; the side reconnoitring) was the app's Save a copy, a form
    over them; now it goes to the forces, where s marks the stack under the cursor."""
    from tui.screens.files import SaveAsScreen

    async with make_app(campaign_file, start="battles").run_test(size=(80, 24)) as pilot:
        await pilot.press(key(BattlesScreen, "battles.new"))
        await wait_for_screen(pilot, BattleSetupScreen)
        screen = pilot.app.screen
        screen.query_one("#attacker-side", Select).focus()
        await until(pilot, lambda: pilot.app.focused is screen.query_one("#attacker-side", Select), "the Attacker field focused")
        await pilot.press("s")
        first = screen.query(MarkList).first()
        await until(pilot, lambda: pilot.app.focused is first, "the first side's forces focused")
        assert not isinstance(pilot.app.screen, SaveAsScreen)
        await pilot.press("s")  # there: the stack under the cursor, marked whole
        await until(pilot, lambda: bool(first.selected), "a stack marked")
        await pilot.press("escape")
        await pilot.press("i")
        await wait_for_screen(pilot, ReconnaissanceScreen)
        recon = pilot.app.screen
        recon.query_one("#who", Select).focus()
        await until(pilot, lambda: pilot.app.focused is recon.query_one("#who", Select), "the side's list focused")
        await pilot.press("s")
        await until(pilot, lambda: pilot.app.focused is recon.query_one("#ours", MarkList), "the reconnoitring units focused")
        assert not isinstance(pilot.app.screen, SaveAsScreen)

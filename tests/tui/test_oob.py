"""Order of battle: search, add, edit, move and remove, through forms that refuse bad values."""

from __future__ import annotations

from sqlalchemy import func, select

from models import Event, General, Unit
from tests.tui.helpers import key, notices, stored, type_text, wait_for, wait_for_notice
from tui.modals.confirm import ConfirmScreen
from tui.textual_private import guide_width, tree_lines
from tui.modals.form import FormScreen
from tui.modals.pick import PickScreen
from tui.screens.oob import OrderOfBattleScreen

REMOVE = key(OrderOfBattleScreen, "oob.remove")


def counts(db) -> tuple[int, int, int]:
    return (
        db.scalar(select(func.count()).select_from(Unit)),
        db.scalar(select(func.count()).select_from(General)),
        db.scalar(select(func.count()).select_from(Event)),
    )


async def find(pilot, name: str) -> None:
    """Search with / and jump to the first unit or general named like `name`."""
    await pilot.press("b")  # at once: the apps of these tests start on the order of battle
    await pilot.press("slash")
    await type_text(pilot, name)
    await pilot.press("enter")
    await pilot.pause()


def cursor(pilot):
    return pilot.app.screen.query_one("#tree").cursor_node.data


async def fill(pilot, field: str, value: str) -> None:
    """Replace what the form's field holds with `value`."""
    form = pilot.app.screen
    box = form.query_one(f"#f-{field}")
    box.focus()
    box.value = ""
    await pilot.pause()
    await type_text(pilot, value)


def form_error(pilot) -> str:
    return str(pilot.app.screen.query_one("#error").render())


async def test_slash_searches_by_name_and_selects_the_find(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        unit = cursor(pilot)
        assert isinstance(unit, Unit) and unit.id == "brigade_zieten"
        assert pilot.app.focused.id == "tree"
        await wait_for(pilot, "Blücher's Corps: Brigade Zieten: 3 SP")  # the totals of the selection
        await find(pilot, "qqq")
        await wait_for_notice(pilot, "No unit or general named like 'qqq'")


async def test_a_adds_a_unit_under_the_selected_general(campaign_file, make_app):
    with stored(campaign_file) as db:
        units, generals, events = counts(db)
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "kleist")
        await pilot.press("a")
        await wait_for(pilot, "New unit under General Kleist")
        await fill(pilot, "name", "Landwehr")
        await fill(pilot, "strength_points", "4")
        await fill(pilot, "cohesion", "2")
        await pilot.press("ctrl+s")
        await wait_for_notice(pilot, "done.")
        assert not isinstance(pilot.app.screen, FormScreen)
    with stored(campaign_file) as db:
        assert counts(db) == (units + 1, generals, events + 1)
        unit = db.scalars(select(Unit).where(Unit.name == "Landwehr")).one()
        kleist = db.get_one(General, "kleist")
        assert (unit.general, unit.kind, unit.strength_points, unit.cohesion) == ("kleist", "infantry", 4, 2)
        assert (unit.nation, unit.location) == (kleist.nation, kleist.location)


async def test_e_edits_the_selected_unit(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await pilot.press("e")
        await wait_for(pilot, "Edit Blücher's Corps: Brigade Zieten")
        assert pilot.app.screen.query_one("#f-name").value == "Blücher's Corps: Brigade Zieten"
        await fill(pilot, "strength_points", "3")
        await fill(pilot, "location", "Lützen")
        await pilot.press("enter")  # Enter on the last field saves
        await wait_for_notice(pilot, "done.")
    with stored(campaign_file) as db:
        unit = db.get_one(Unit, "brigade_zieten")
        assert (unit.strength_points, unit.location) == (3, "Lützen")


async def test_e_edits_the_selected_general(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "kleist")
        await pilot.press("e")
        await wait_for(pilot, "Edit General Kleist")
        await fill(pilot, "command_value", "3")
        await pilot.press("ctrl+s")
        await wait_for_notice(pilot, "done.")
    with stored(campaign_file) as db:
        assert db.get_one(General, "kleist").command_value == 3


UNIT_ERRORS = [
    ("strength_points", "-1", "SP must be a whole number of 0 or more, not -1"),
    ("strength_points", "abc", "SP must be a whole number, not 'abc'"),
    ("cohesion", "9", "cohesion must be a whole number from 1 to 6, not 9"),
    ("location", "  ", "location cannot be empty"),  # a unit stands somewhere, or it shows "?"
    ("name", "", "name cannot be empty"),
]
GENERAL_ERRORS = [
    ("command_value", "7", "CV must be a whole number from 0 to 5, not 7"),
    ("name", " ", "name cannot be empty"),
]


async def refuse(pilot, opens: str, field: str, value: str, error: str) -> None:
    """Open a form, put one bad value in, save: the form stays open and says what is wrong."""
    await pilot.press(opens)
    await pilot.pause()
    await fill(pilot, field, value)
    await pilot.press("ctrl+s")
    await pilot.pause()
    assert isinstance(pilot.app.screen, FormScreen), f"the form closed on {field}={value!r}"
    assert form_error(pilot) == error
    await pilot.press("escape")
    await pilot.pause()
    assert not isinstance(pilot.app.screen, FormScreen)


async def test_bad_values_in_the_unit_forms_keep_them_open_and_store_nothing(campaign_file, make_app):
    with stored(campaign_file) as db:
        before = counts(db)
        zieten = db.get_one(Unit, "brigade_zieten").model_dump()
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        for field, value, error in UNIT_ERRORS[:-1]:
            await refuse(pilot, "e", field, value, error)  # editing this unit
        await refuse(pilot, "a", *UNIT_ERRORS[-1])  # a new unit beside it, its name left empty
    with stored(campaign_file) as db:
        assert counts(db) == before
        assert db.get_one(Unit, "brigade_zieten").model_dump() == zieten


async def test_bad_values_in_the_general_forms_keep_them_open_and_store_nothing(campaign_file, make_app):
    with stored(campaign_file) as db:
        before = counts(db)
        kleist = db.get_one(General, "kleist").model_dump()
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "kleist")
        for field, value, error in GENERAL_ERRORS:
            await refuse(pilot, "e", field, value, error)  # editing this general
        await refuse(pilot, "g", "name", "", "name cannot be empty")  # a new general under him
    with stored(campaign_file) as db:
        assert counts(db) == before
        assert db.get_one(General, "kleist").model_dump() == kleist


async def test_v_moves_a_unit_to_the_general_picked(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await pilot.press("v")
        await wait_for(pilot, "Attach Blücher's Corps: Brigade Zieten to")
        assert isinstance(pilot.app.screen, PickScreen)
        await type_text(pilot, "Kleist")
        await pilot.press("enter")
        await wait_for_notice(pilot, "Brigade Zieten now under General Kleist.")  # names, not ids
        assert cursor(pilot).id == "brigade_zieten"  # the selection follows the unit
    with stored(campaign_file) as db:
        unit = db.get_one(Unit, "brigade_zieten")
        assert unit.general == "kleist"
        assert unit.location == db.get_one(General, "kleist").location


async def test_a_unit_cannot_join_a_general_of_the_other_side(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await pilot.press("v")
        await wait_for(pilot, "Attach")
        await type_text(pilot, "Napoleon")
        await pilot.press("down", "enter")
        await wait_for_notice(pilot, "is on the other side")
    with stored(campaign_file) as db:
        assert db.get_one(Unit, "brigade_zieten").general == "blucher"


async def test_remove_key_removes_after_the_confirmation_and_u_brings_it_back(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await pilot.press(REMOVE)
        await wait_for(pilot, "Remove Blücher's Corps: Brigade Zieten?")
        await pilot.press("n")  # no: nothing happens
        await pilot.pause()
        await pilot.press(REMOVE)
        await wait_for(pilot, "Remove Blücher's Corps: Brigade Zieten?")
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_for_notice(pilot, "Removed Blücher's Corps: Brigade Zieten")
    with stored(campaign_file) as db:
        assert db.get(Unit, "brigade_zieten") is None
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await pilot.press("u")
        await wait_for_notice(pilot, "Undone: Remove unit Blücher's Corps: Brigade Zieten")
    with stored(campaign_file) as db:
        assert db.get_one(Unit, "brigade_zieten").general == "blucher"


async def test_removing_a_commander_in_chief_is_refused(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "Wittgenstein")
        await pilot.press(REMOVE, "y")
        await wait_for_notice(pilot, "commands an army")
        assert not any("Removed" in n for n in notices(pilot.app))
    with stored(campaign_file) as db:
        assert db.get(General, "wittgenstein") is not None


async def test_tab_moves_into_the_table_and_an_edit_shows_at_once_in_it(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await pilot.press("tab")
        await pilot.pause()
        assert pilot.app.focused.id == "detail"
        await pilot.press("shift+tab")
        await pilot.pause()
        assert pilot.app.focused.id == "tree"
        await pilot.press("e")
        await wait_for(pilot, "Edit Blücher's Corps: Brigade Zieten")
        await fill(pilot, "strength_points", "1")
        await pilot.press("ctrl+s")
        await wait_for_notice(pilot, "done.")
        table = pilot.app.screen.query_one("#detail")
        for _ in range(20):  # the cursor has not moved: the table shows the new SP all the same
            await pilot.pause()
            if str(table.get_row_at(0)[2]) == "1":
                break
        assert str(table.get_row_at(0)[2]) == "1"
        assert str(pilot.app.screen.query_one("#totals").render()).endswith("in 1 unit")  # not "1 units"


async def test_coming_back_after_a_change_relabels_only_the_lines_that_changed(campaign_file, make_app):
    from campaigns import oob

    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await wait_for(pilot, "Brigade Zieten: 3 SP")
        screen = pilot.app.screen
        lines = {id(n): str(n.label) for n in screen._lines.values()}
        zieten = pilot.app.screen.query_one("#tree").cursor_node
        neighbours = [c for c in zieten.parent.children if c is not zieten]
        oob.edit_unit(pilot.app.session, "brigade_zieten", {**cursor(pilot).model_dump(), "strength_points": "5"})
        await pilot.press("o")  # away, and back to a changed campaign
        await pilot.press("b")
        await wait_for(pilot, "Brigade Zieten: 5 SP")  # the totals of the selection
        await pilot.app.workers.wait_for_complete()
        # The same lines, not a tree built anew: only the labels with a total changed.
        assert all(id(n) in lines for n in screen._lines.values())
        changed = [n for n in screen._lines.values() if str(n.label) != lines[id(n)]]
        assert changed and all("SP)" in str(n.label) for n in changed)
        assert [c for c in zieten.parent.children if c is not zieten] == neighbours
        assert str(zieten.label) == "Blücher's Corps: Brigade Zieten 5 SP"


async def test_every_line_of_the_opened_tree_ends_within_80_columns_with_its_figures(tmp_path, make_app):
    """The autumn scenario holds the longest unit names, five levels deep: at 80 columns
    a long name gives up its end (an ellipsis), never its SP or ranks, and the tree
    does not scroll sideways; the whole name is in the totals line above the table
    and in the unit's row of the table, wrapped."""
    from rich.console import Console

    from tests.tui.conftest import new_campaign

    path = new_campaign(tmp_path / "autumn.campaign", scenario="autumn1813")
    async with make_app(path, start="oob").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Order of battle")
        screen = pilot.app.screen
        tree = screen.query_one("#tree")
        for _ in range(50):
            await pilot.pause()
            if screen._lines:
                break
        for node in list(screen._lines.values()):
            node.expand()
            screen._fill(node)
        tree.root.expand_all()
        await pilot.pause()
        await pilot.pause()
        assert tree.guide_depth == 2
        assert tree.virtual_size.width <= tree.size.width  # nothing to scroll sideways to
        lines = tree_lines(tree)
        assert len(lines) > 100
        console = Console(width=200)
        shortened = 0
        for line in lines:
            node = line.node
            shown = tree.render_label(node, tree.rich_style, tree.rich_style).plain
            guides = guide_width(line, tree)
            assert guides + console.measure(shown).maximum <= tree.size.width - 2, shown
            whole = str(node.label)
            if "…" in shown:
                shortened += 1
                figures = whole[len(getattr(node.data, "name", "")):]  # " 6 SP", " (R3 CV2 TB1)"
                assert figures and shown.endswith(figures), (shown, whole)
            else:
                assert shown.endswith(whole)
        assert shortened  # the test reaches names that need it
        # The cursor on a shortened unit: the totals line above the table names it whole.
        long = next(line.node for line in lines if "…" in tree.render_label(line.node, tree.rich_style, tree.rich_style).plain and hasattr(line.node.data, "strength_points"))
        tree.move_cursor(long)
        totals = screen.query_one("#totals")
        for _ in range(20):
            await pilot.pause()
            if str(totals.render()).startswith(long.data.name + ":"):
                break
        assert str(totals.render()).startswith(long.data.name + ":")
        # And the table below the tree holds his row, the name whole on the lines of that row.
        table = screen.query_one("#detail")
        for _ in range(20):
            await pilot.pause()
            if table.row_count == 1 and table.ordered_rows[0].key.value == long.data.id:
                break
        name = str(table.get_row_at(0)[0])
        assert " ".join(part.strip() for part in name.split("\n")) == long.data.name


async def test_f_entrenches_a_unit_at_the_cards_price_or_says_why_not(campaign_file, make_app):
    """The order of battle's Entrenched flag is the map's Entrench for one unit: the army pays
    the card's PC (2), and with no points rolled the form says so in one sentence, storing nothing."""
    from campaigns import command_points, weather
    from campaigns.session import CampaignSession

    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "souham")
        await wait_for(pilot, "Souham")
        await pilot.press("f")
        await wait_for(pilot, "Entrenched (2 PC)")
        pilot.app.screen.query_one("#f-entrenched").value = "yes"
        await pilot.press("ctrl+s")
        await wait_for(pilot, "has not rolled its command points")
        assert isinstance(pilot.app.screen, FormScreen)
        assert form_error(pilot) == (
            "Army of the Main (Napoleon) has not rolled its command points this turn; an entrenchment costs 2 PC"
        )
        await pilot.press("escape")
    with stored(campaign_file) as db:
        assert not db.get_one(Unit, "iii_souham").entrenched
    session = CampaignSession.open(campaign_file)
    weather.roll(session, [2])
    from campaigns import turns

    turns.advance(session)
    command_points.roll(session, "army_of_the_main", [3])
    left = next(p.balance for p in command_points.turn_points(session) if p.army == "army_of_the_main")
    session.close()
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "souham")
        await wait_for(pilot, "Souham")
        await pilot.press("f")
        await wait_for(pilot, "Entrenched (2 PC)")
        pilot.app.screen.query_one("#f-entrenched").value = "yes"
        await pilot.press("ctrl+s")
        await wait_for_notice(pilot, f"has {left - 2} PC left")
        await wait_for(pilot, "SP [E]")  # the tree marks it
    with stored(campaign_file) as db:
        assert db.get_one(Unit, "iii_souham").entrenched
    session = CampaignSession.open(campaign_file)
    try:
        assert next(p.balance for p in command_points.turn_points(session) if p.army == "army_of_the_main") == left - 2
    finally:
        session.close()


async def test_at_80_columns_the_table_shows_every_unit_name_whole(tmp_path, make_app):
    """A long name wraps onto more lines of its row: nothing of it is cut, and SP,
    cohesion, the bonuses and the place stay in view beside it."""
    from tests.tui.conftest import new_campaign

    path = new_campaign(tmp_path / "autumn.campaign", scenario="autumn1813")
    with stored(path) as db:
        names = {u.id: u.name for u in db.scalars(select(Unit))}
    async with make_app(path, start="oob").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Order of battle")
        screen = pilot.app.screen
        tree = screen.query_one("#tree")
        table = screen.query_one("#detail")
        tree.move_cursor(tree.root)  # the root lists every unit of every side
        for _ in range(100):
            await pilot.pause()
            if table.row_count == len(names):
                break
        assert table.row_count == len(names)
        assert table.virtual_size.width <= table.size.width  # nothing off the right edge
        assert [c.label.plain for c in table.ordered_columns] == ["Name", "Kind", "SP", "Coh", "AB", "CB", "Where"]
        wrapped = 0
        for row in table.ordered_rows:
            cell = table.get_row(row.key)[0]
            lines = str(cell).split("\n")
            assert "…" not in str(cell)
            assert " ".join(line.strip() for line in lines) == names[row.key.value]
            assert row.height == len(lines)
            wrapped += len(lines) > 1
        assert wrapped  # the scenario's long names reach the wrapping

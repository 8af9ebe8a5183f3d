"""Order of battle: search, add, edit, move and remove, through forms that refuse bad values."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from campaigns import oob_view
from campaigns.oob_view import UnitRow
from models import Event, General, Unit
from tests.tui.helpers import key, notices, screen_text, sizes_in_colour_or_not, stored, type_text, wait_for, wait_for_notice, wait_for_screen
from tui.modals.confirm import ConfirmScreen
from tui.modals.form import FormScreen
from tui.modals.pick import PickScreen
from tui.screens.oob import OrderOfBattleScreen
from tests.tui.polling import caught_up, settled, until

REMOVE = key(OrderOfBattleScreen, "oob.remove")
GUIDES = re.compile(r"^[│├└─▶▼ ]*")  # what stands before a label on a tree row


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
    await settled(pilot)  # the search ran and the cursor is on the find (or the notice raised)


def cursor(pilot):
    return pilot.app.screen.query_one("#tree").cursor_node.data


async def fill(pilot, field: str, value: str) -> None:
    """Replace what the form's field holds with `value`."""
    form = pilot.app.screen
    box = form.query_one(f"#f-{field}")
    box.focus()
    box.value = ""
    await until(pilot, lambda: pilot.app.focused is box and box.value == "", f"the field {field} focused and empty")
    await type_text(pilot, value)


def form_error(pilot) -> str:
    return str(pilot.app.screen.query_one("#error").render())


async def test_slash_searches_by_name_and_selects_the_find(campaign_file, make_app):
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        unit = cursor(pilot)
        assert isinstance(unit, UnitRow) and unit.id == "brigade_zieten"
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
    ("strength_points", "-1", "SP must be a whole number from 0 to 9999, not -1."),
    ("strength_points", "abc", "SP must be a whole number, not 'abc'."),
    ("cohesion", "9", "Cohesion must be a whole number from 1 to 6, not 9."),
    ("location", "  ", "Location cannot be empty."),  # a unit stands somewhere, or it shows "?"
    ("name", "", "Name cannot be empty."),
]
GENERAL_ERRORS = [
    ("command_value", "7", "CV must be a whole number from 0 to 5, not 7."),
    ("name", " ", "Name cannot be empty."),
]


async def refuse(pilot, opens: str, errors: list[tuple[str, str, str]]) -> None:
    """Open a form; for each (field, value, error) put that one bad value in, save: the form
    stays open and says what is wrong. The field gets its value back before the next one,
    so that each save holds one bad value only, as a form opened for it would (one form
    for them all: opening and closing one is some ten layouts of the screen)."""
    await pilot.press(opens)
    await until(pilot, lambda: isinstance(pilot.app.screen, FormScreen), f"a form opened by {opens!r}")
    form = pilot.app.screen
    for field, value, error in errors:
        box = form.query_one(f"#f-{field}")
        kept = box.value
        await fill(pilot, field, value)
        await pilot.press("ctrl+s")
        await caught_up(pilot)  # the form's check runs in a worker: closed, or the refusal shown
        assert pilot.app.screen is form, f"the form closed on {field}={value!r}"
        assert form_error(pilot) == error  # each error differs from the one before: never the last one's
        box.value = kept
    await pilot.press("escape")
    await until(pilot, lambda: not isinstance(pilot.app.screen, FormScreen), "the form closed by escape")


async def test_bad_values_in_the_unit_forms_keep_them_open_and_store_nothing(campaign_file, make_app):
    with stored(campaign_file) as db:
        before = counts(db)
        zieten = db.get_one(Unit, "brigade_zieten").model_dump()
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await refuse(pilot, "e", UNIT_ERRORS[:-1])  # editing this unit
        await refuse(pilot, "a", UNIT_ERRORS[-1:])  # a new unit beside it, its name left empty
    with stored(campaign_file) as db:
        assert counts(db) == before
        assert db.get_one(Unit, "brigade_zieten").model_dump() == zieten


async def test_bad_values_in_the_general_forms_keep_them_open_and_store_nothing(campaign_file, make_app):
    with stored(campaign_file) as db:
        before = counts(db)
        kleist = db.get_one(General, "kleist").model_dump()
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "kleist")
        await refuse(pilot, "e", GENERAL_ERRORS)  # editing this general
        await refuse(pilot, "g", [("name", "", "Name cannot be empty.")])  # a new general under him
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
        # The selection follows the unit: the tree is read again in a worker after the notice,
        # and the cursor is put back on the unit's new line a frame after it is rebuilt.
        await until(pilot, lambda: getattr(cursor(pilot), "id", None) == "brigade_zieten", "the cursor back on Brigade Zieten")
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
        await until(pilot, lambda: not isinstance(pilot.app.screen, ConfirmScreen), "the question closed by n")
        await pilot.press(REMOVE)
        await wait_for(pilot, "Remove Blücher's Corps: Brigade Zieten?")
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_for_notice(pilot, "Removed Blücher's Corps: Brigade Zieten")
        with stored(campaign_file) as db:
            assert db.get(Unit, "brigade_zieten") is None
        await pilot.press("u")  # the app's undo, on the same screen
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
        await until(pilot, lambda: pilot.app.focused.id == "detail", "the focus on the table after tab")
        await pilot.press("shift+tab")
        await until(pilot, lambda: pilot.app.focused.id == "tree", "the focus on the tree after shift+tab")
        await pilot.press("e")
        await wait_for(pilot, "Edit Blücher's Corps: Brigade Zieten")
        await fill(pilot, "strength_points", "1")
        await pilot.press("ctrl+s")
        await wait_for_notice(pilot, "done.")
        table = pilot.app.screen.query_one("#detail")
        await until(pilot, lambda: str(table.get_row_at(0)[2]) == "1", "str(table.get_row_at(0)[2]) == '1'")  # the cursor has not moved: the table shows the new SP all the same
        assert str(table.get_row_at(0)[2]) == "1"
        assert str(pilot.app.screen.query_one("#totals").render()).endswith("in 1 unit")  # not "1 units"


async def test_in_the_table_e_and_v_act_on_the_unit_the_tables_cursor_is_on(campaign_file, make_app):
    """With the focus in the table, the keys of the screen take the unit highlighted there
    (before: "Select a unit or a general to edit.", whatever the table's cursor was on)."""
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "General Blücher")
        assert cursor(pilot).general.id == "blucher"
        await pilot.press("tab")
        table = pilot.app.screen.query_one("#detail")
        await until(pilot, lambda: pilot.app.focused is table and table.row_count > 2, "the focus on Blücher's units")
        await pilot.press("down", "down")
        await until(pilot, lambda: table.cursor_row == 2, "the table's cursor on the third unit")
        unit_id = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        with stored(campaign_file) as db:
            name = db.get_one(Unit, unit_id).name
        await pilot.press("e")
        await wait_for(pilot, f"Edit {name}")
        assert pilot.app.screen.query_one("#f-name").value == name
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, OrderOfBattleScreen), "the form closed")
        await pilot.press("v")
        await until(pilot, lambda: isinstance(pilot.app.screen, PickScreen), "the pick list of generals")
        assert f"Attach {name} to" in screen_text(pilot.app)


async def test_coming_back_after_a_change_relabels_only_the_lines_that_changed(campaign_file, make_app):
    from campaigns import oob

    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await wait_for(pilot, "Brigade Zieten: 3 SP")
        screen = pilot.app.screen
        lines = {id(n): str(n.label) for n in screen._lines.values()}
        zieten = pilot.app.screen.query_one("#tree").cursor_node
        neighbours = [c for c in zieten.parent.children if c is not zieten]
        oob.edit_unit(pilot.app.session, "brigade_zieten", {**cursor(pilot)._asdict(), "strength_points": "5"})
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


async def test_a_change_to_one_unit_labels_that_units_line_again_and_no_other(campaign_file, make_app, monkeypatch):
    from campaigns import oob
    from tui.screens import oob as oob_screen

    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await find(pilot, "zieten")
        await wait_for(pilot, "Brigade Zieten: 3 SP")
        screen = pilot.app.screen
        zieten = screen.query_one("#tree").cursor_node
        assert len(zieten.parent.children) > 2  # his general's other units are open beside him
        labelled: list[str] = []
        label = oob_screen.unit_label

        def counted(unit: UnitRow):
            labelled.append(unit.id)
            return label(unit)

        monkeypatch.setattr(oob_screen, "unit_label", counted)
        oob.set_unit_flags(pilot.app.session, "brigade_zieten", fatigued=True)
        await pilot.press("o")  # away, and back to a changed campaign
        await pilot.press("b")
        await until(pilot, lambda: str(zieten.label).endswith("[F]"), "Zieten's line marked fatigued")
        await pilot.app.workers.wait_for_complete()
        # A general with a thousand units open relabels one line, not a thousand (the 1M-event
        # benchmark campaign's commit was spent labelling lines that had not changed).
        assert labelled == ["brigade_zieten"]


@pytest.mark.parametrize(("size", "colour"), sizes_in_colour_or_not([(80, 24), (120, 40)], "oob tree"))  # both sizes, both modes
async def test_no_line_of_the_opened_tree_is_cut(tmp_path, make_app, monkeypatch, size, colour):
    """The autumn scenario holds the longest unit names, five levels deep: every
    general and unit of the opened tree, read off the screen page by page, is there
    whole with its figures: a long label goes on under itself, never cut, and the
    tree does not scroll sideways."""
    from tests.tui.conftest import new_campaign

    if not colour:
        monkeypatch.setenv("NO_COLOR", "1")
    path = new_campaign(tmp_path / "autumn.campaign", scenario="autumn1813")
    with stored(path) as db:
        names = {u.name for u in db.scalars(select(Unit))} | {g.name for g in db.scalars(select(General))}
    async with make_app(path, start="oob").run_test(size=size) as pilot:
        await wait_for(pilot, "Order of battle")
        screen = pilot.app.screen
        tree = screen.query_one("#tree")
        await until(pilot, lambda: screen._lines, "screen._lines")
        opened = 0
        while opened < len(screen._lines):  # every general opened, his units and subordinates read
            opened = len(screen._lines)
            for node in list(screen._lines.values()):
                screen._fill(node)
                node.expand()
        await settled(pilot)
        await until(pilot, lambda: len(list(tree.rows())) > 100, "every general's rows in the tree")
        assert tree.virtual_size.width <= tree.scrollable_content_region.width  # nothing to scroll sideways to
        rows = list(tree.rows())
        nodes = list(dict.fromkeys(node for node, _ in rows))
        assert len(nodes) > 100
        area = tree.scrollable_content_region
        wrapped = 0
        seen: set[str] = set()
        checked: set[int] = set()
        top, last = 0, -1
        while len(checked) < len(nodes):  # page by page, each node read where it is whole in view
            tree.scroll_to(y=top, animate=False)
            want = min(top, tree.max_scroll_y)
            await until(pilot, lambda: int(tree.scroll_offset.y) == want, f"the tree scrolled to {want}")  # noqa: B023
            first = int(tree.scroll_offset.y)
            assert first != last, f"{len(nodes) - len(checked)} nodes never whole in view"
            last = first
            shown = screen_text(pilot.app).splitlines()[area.y : area.bottom]
            for node in nodes:
                height = sum(1 for n, _ in rows if n is node)
                at = node.line - first
                if id(node) in checked or at < 0 or at + height > area.height:
                    continue
                checked.add(id(node))
                # The node's rows as the terminal shows them, cropped to the tree, guides and icons left out.
                parts = [GUIDES.sub("", line[area.x : area.right]).rstrip() for line in shown[at : at + height]]
                assert " ".join(parts) == node.label.plain, (parts, node.label.plain)
                assert "…" not in "".join(parts)
                wrapped += height > 1
                if isinstance(node.data, UnitRow):
                    seen.add(node.data.name)
                elif isinstance(node.data, oob_view.GeneralEntry):
                    seen.add(node.data.general.name)
            top = first + area.height - 4  # a few rows again: a node cut by the bottom edge is whole on the next page
        assert names <= seen  # every unit and general of the scenario was on the screen
        assert wrapped  # the test reaches names that need more than one line
        # The totals line above the table names the selected unit whole too.
        longest = max(nodes, key=lambda n: len(n.label.plain) if isinstance(n.data, UnitRow) else 0)
        tree.move_cursor(longest)
        totals = screen.query_one("#totals")
        await until(pilot, lambda: str(totals.render()).startswith(longest.data.name + ":"), "str(totals.render()).startswith(longest.data.name + ':')")
        assert str(totals.render()).startswith(longest.data.name + ":")


async def test_the_tree_moves_by_names_opens_with_space_and_reads_a_generals_units_when_opened(tmp_path, make_app):
    """The keys of Textual's tree on the wrapped one: Down and Up go name to name, a
    name of two lines included; Space opens and closes; Enter opens too; shift+left
    goes to the superior; Home, End and the page keys. A general's units are read
    only when he is first opened."""
    from tests.tui.conftest import new_campaign

    path = new_campaign(tmp_path / "autumn.campaign", scenario="autumn1813")
    async with make_app(path, start="oob").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Grande Armée (Napoleon)")
        screen = pilot.app.screen
        tree = screen.query_one("#tree")
        await pilot.press("down")
        assert tree.cursor_node is tree.root
        army = screen._lines["a:grande_armee"]
        tree.move_cursor(army)
        await pilot.press("space")
        await until(pilot, lambda: "g:napoleon" in screen._lines, "the army opened, Napoleon's line read")
        napoleon = screen._lines["g:napoleon"]
        assert napoleon.children == ()  # his units are not read until he is opened
        await pilot.press("down")
        assert tree.cursor_node is napoleon
        await pilot.press("enter")  # opens him, as Space does
        await until(pilot, lambda: napoleon.children, "napoleon.children")
        units = [c for c in napoleon.children if isinstance(c.data, UnitRow)]
        assert units and napoleon.is_expanded
        saint_cyr = screen._lines["g:st_cyr"]
        assert saint_cyr.children == ()  # nor his subordinates' units
        tree.move_cursor(saint_cyr)
        await pilot.press("space")
        await until(pilot, lambda: len(saint_cyr.children) == 3, "len(saint_cyr.children) == 3")
        dummy, long, short = saint_cyr.children
        assert long.line - dummy.line == 1 and short.line - long.line == 2  # the long name takes two rows
        await pilot.press("down", "down")
        assert tree.cursor_node is long
        await pilot.press("down")
        assert tree.cursor_node is short  # one press past both rows of the long name
        await pilot.press("up")
        assert tree.cursor_node is long
        await wait_for(pilot, "light cavalry: 6 SP (infantry 6")  # the totals follow the cursor
        await pilot.press("shift+left")
        assert tree.cursor_node is saint_cyr
        await pilot.press("space")
        await until(pilot, lambda: not saint_cyr.is_expanded and long.line == -1, "Saint-Cyr closed")
        await pilot.press("end")
        last = tree.cursor_node
        assert last is not None and last.line + 1 >= tree.virtual_size.height - 2
        await pilot.press("home")
        assert tree.cursor_node is tree.root
        await pilot.press("pagedown")
        page = tree.scrollable_content_region.height - 1
        assert tree.cursor_node.line <= page < tree.cursor_node.line + 3
        await pilot.press("pageup")
        assert tree.cursor_node is tree.root
        # The mouse: a click on a name takes the cursor there and opens it; on its icon, opens or closes.
        tree.scroll_to(y=0, animate=False)
        await until(pilot, lambda: tree.scroll_offset.y == 0, "the tree scrolled to the top")
        await pilot.click(tree, offset=(12, saint_cyr.line))
        await until(pilot, lambda: tree.cursor_node is saint_cyr and saint_cyr.is_expanded, "Saint-Cyr opened by a click on his name")
        await pilot.click(tree, offset=(6, saint_cyr.line))  # "▼ " after three levels of two cells
        await until(pilot, lambda: tree.cursor_node is saint_cyr and not saint_cyr.is_expanded, "Saint-Cyr closed by a click on his icon")


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
            "Army of the Main (Napoleon) has not rolled its command points this turn; an entrenchment costs 2 PC."
        )
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(pilot.app.screen, FormScreen), "the form closed by escape")
        with stored(campaign_file) as db:
            assert not db.get_one(Unit, "iii_souham").entrenched
        # the points rolled meanwhile, through the flow layer on the app's own session, as
        # another screen would: the same app asked again, its cursor still on Souham
        from campaigns import turns

        await settled(pilot)
        session = pilot.app.session
        weather.roll(session, [2])
        turns.advance(session)
        command_points.roll(session, "army_of_the_main", [3])
        left = next(p.balance for p in command_points.turn_points(session) if p.army == "army_of_the_main")
        assert cursor(pilot).id == "iii_souham"
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
        await until(pilot, lambda: table.row_count and str(screen.query_one("#totals").render()).startswith("All sides"), "every side's units listed")
        assert 0 < table.row_count <= 24  # a screenful at first; the rest as they come into view
        widths = [c.width for c in table.ordered_columns]
        table.focus()
        await pilot.press("ctrl+end")  # to the last unit listed
        await until(pilot, lambda: table.row_count == len(names), "table.row_count == len(names)")
        assert table.row_count == len(names)
        assert table.cursor_row == len(names) - 1
        assert [c.width for c in table.ordered_columns] == widths  # counted over every row from the start
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


async def test_the_table_adds_its_units_as_the_cursor_goes_down_to_them(campaign_file, make_app):
    """A screenful of rows at first (a 200-unit selection costs about as much as one of 20);
    paging down adds the next ones before the cursor reaches the last row added."""
    async with make_app(campaign_file, start="oob").run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, "Order of battle")
        screen = pilot.app.screen
        tree, table = screen.query_one("#tree"), screen.query_one("#detail")
        tree.move_cursor(tree.root)  # every unit of every side (more than a screenful)
        await until(pilot, lambda: table.row_count and str(screen.query_one("#totals").render()).startswith("All sides"), "every side's units listed")
        first = table.row_count
        assert 0 < first <= 24 and table.rest
        table.focus()
        for _ in range(first):
            await pilot.press("down")
            assert table.cursor_row < table.row_count - 1  # never stuck at the last row added
        assert table.row_count > first
        # The rows added are the next units in the order of the tree, none twice.
        listed = oob_view.listed(pilot.app.session, None, screen.sides, table.row_count)
        assert [row.key.value for row in table.ordered_rows] == [u.id for u in listed]


async def test_the_first_reading_answered_before_the_screen_is_composed_shows_once_it_is(campaign_file, make_app):
    # The tree's first reading starts when the screen is made (tui/screens/oob.py): here its
    # answer comes back before the screen is even installed, then the screen is shown.
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = OrderOfBattleScreen()
        await app.workers.wait_for_complete()
        await until(pilot, lambda: screen._early_answer is not None, "the tree's first reading answered")  # held: nothing of the screen is there to show it in
        app.install_screen(screen, "oob")
        await app.run_action("show('oob')")
        text = await wait_for(pilot, "All sides:")
        assert "French" in text and screen.query_one("#detail").row_count > 0


async def test_the_units_eliminated_are_counted_apart_on_the_overview_and_the_order_of_battle(tmp_path, make_app):
    """Two allied units eliminated at 0 SP (option zero_sp_unit): the overview's side line and
    army row and the order of battle's totals count the units present, and say the two apart."""
    from campaigns import battles, weather
    from campaigns.session import CampaignSession
    from tests.campaigns.test_aftermath import _all_sp, _forces, _fought
    from tests.templates import new_campaign
    from tui.screens.overview import OverviewScreen

    path = new_campaign(tmp_path / "a.campaign", "spring1813", seed=1813)
    session = CampaignSession.open(path)
    try:
        weather.roll(session, [2])
        french, allies = _forces(session)
        battles.apply(session, _fought(session, french, allies, defender_lost=str(_all_sp(session, allies))))
        view = session.overview()
        side = view.sides[1]
        present = side.units - side.dummies
        everyone = sum(s.units - s.dummies for s in view.sides)
        army = next(a for a in view.armies if a.side == "allies")
    finally:
        session.close()
    assert army.eliminated == 2
    async with make_app(path).run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(pilot.app.screen, OverviewScreen), "the overview")
        shown = await wait_for(pilot, f"Russia and Prussia: {side.strength_points} SP in {present} units (+3 dummies, +2")
        assert "+2 eliminated" in shown.replace("\n", " ").replace("│", " ")  # the line wraps at 80 columns
        assert re.search(rf"Russo-Prussian Army \(Wittgenstein\) +{army.strength_points} +{army.units} +- ", shown)  # those present
        await pilot.press("b")
        await wait_for_screen(pilot, OrderOfBattleScreen)
        await wait_for(pilot, f"All sides: {sum(s.strength_points for s in view.sides)} SP")
        totals = str(pilot.app.screen.query_one("#totals").render())
        assert f"in {everyone} units (+2 eliminated)" in totals, totals

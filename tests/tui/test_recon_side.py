"""Reconnaissance: the reconnoitring side is chosen as from any Select, though its list
of sides is built only when first opened (tui.textual_private.select_listed_on_open)."""

from __future__ import annotations

from textual.widgets import Select

from campaigns import forces
from campaigns.session import CampaignSession
from tests.tui.helpers import screen_text
from tests.tui.polling import settled, until
from tui.textual_private import select_listed_on_open, select_options


def sides(path) -> list[tuple[str, str]]:
    session = CampaignSession.open(path)
    try:
        return forces.sides(session)
    finally:
        session.close()


def overlays(select: Select) -> int:
    from textual.widgets import OptionList

    return len(select.query(OptionList))


async def test_the_other_side_is_chosen_from_the_list_built_when_first_opened(campaign_file, make_app):
    (first, first_name), (second, second_name) = sides(campaign_file)[:2]
    async with make_app(campaign_file, start="recon").run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        who = pilot.app.screen.query_one("#who", Select)
        assert who.value == first and pilot.app.focused is who
        assert f"{first_name} reconnoitres" in screen_text(pilot.app)
        assert overlays(who) == 0  # shown, not opened: no list of sides built
        assert select_options(who) == [(f"{name} reconnoitres", side) for side, name in sides(campaign_file)]
        await pilot.press("enter")
        await until(pilot, lambda: who.expanded and overlays(who) == 1, "the list of sides opened")
        assert who.query_one("SelectOverlay").highlighted == 0  # on the side shown
        await pilot.press("down", "enter")
        await settled(pilot)
        assert who.value == second and not who.expanded and pilot.app.focused is who
        text = screen_text(pilot.app)
        assert f"{second_name} reconnoitres" in text
        # The reconnoitring units are the second side's now.
        stacks = pilot.app.screen.query_one("#ours").stacks
        assert stacks and {st.side for st in stacks} == {second}
        await pilot.press("enter")  # opened again: the same list, highlighted on the value
        await until(pilot, lambda: who.expanded, "the list of sides opened again")
        assert overlays(who) == 1 and who.query_one("SelectOverlay").highlighted == 1


async def test_a_click_opens_the_list_and_a_value_set_in_code_is_shown_and_told(campaign_file, make_app):
    (first, _), (second, second_name) = sides(campaign_file)[:2]
    async with make_app(campaign_file, start="recon").run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        who = pilot.app.screen.query_one("#who", Select)
        assert isinstance(who, select_listed_on_open())
        who.value = second  # set before the list is built
        await settled(pilot)
        assert f"{second_name} reconnoitres" in screen_text(pilot.app)
        assert {st.side for st in pilot.app.screen.query_one("#ours").stacks} == {second}
        await pilot.click("#who")
        await until(pilot, lambda: who.expanded and overlays(who) == 1, "the list opened by a click")
        assert who.query_one("SelectOverlay").highlighted == 1
        await pilot.press("up", "enter")
        await settled(pilot)
        assert who.value == first and {st.side for st in pilot.app.screen.query_one("#ours").stacks} == {first}


async def test_the_first_visit_reads_the_stacks_once_and_draws_as_a_screen_styled_anew(campaign_file, make_app):
    """The first side's stacks are read as the screen is built, not again when it is first
    shown (one reading); and the widgets, styled as they were mounted and not again as
    the screen was first shown, are drawn as they are once every style is worked out anew."""
    first, _name = sides(campaign_file)[0]
    async with make_app(campaign_file).run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.app.run_action("show('recon')")
        await settled(pilot)
        screen = pilot.app.screen
        ours = screen.query_one("#ours")
        assert ours.stacks and {st.side for st in ours.stacks} == {first}
        assert screen._reads == 1
        shown = pilot.app.export_screenshot()
        screen.update_node_styles(animate=False)
        await settled(pilot)
        assert pilot.app.export_screenshot() == shown

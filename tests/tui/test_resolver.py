"""The resolver screen from the keyboard: a tabletop battle from hand-off to return."""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, DataTable, Input, Select
from textual.widgets.select import InvalidSelectValueError

from campaigns import battles, oob, tabletop, weather
from campaigns.session import CampaignSession
from models import Battle, DiceRoll, Unit
from rules.resolver import tactical_rulesets
from tui.modals.resolution import ResolutionScreen, allowed_actions
from tui.textual_private import select_options
from tui.screens.battles import BattlesScreen
from tui.screens.fight import FightScreen
from tui.screens.resolver import ResolverScreen

from .tabletop_play import on_resolver as to_resolver
from tests.tui.polling import caught_up, until

from .helpers import (
    key,
    notices,
    screen_text,
    stored,
    wait_for,
    wait_for_notice,
    wait_for_screen,
)

# Forces from all over the map: the umpire overrides contact (campaigns/contact.py).
GATHERED = "forces gathered from the whole map for the test"


def handed_off(path, resolver: str = "kallistra_acw") -> int:
    """At `path` (a new campaign's copy), a battle at Lützen handed to the tabletop under
    `resolver`: played once per worker and rule set and copied (built_once), the same file."""
    from tests.tui.conftest import built_once

    built_once(path, f"resolver-handed-off-{resolver}", lambda made: _hands_off(made, resolver))
    return _BATTLE


_BATTLE = 1  # the new campaign's first battle: _hands_off checks it


def _hands_off(path, resolver: str) -> None:
    session = CampaignSession.open(path)
    try:
        weather.roll(session, [2])
        tree = oob.tree(session)
        french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
        allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
        draft = battles.Draft("Lützen", french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies), override=GATHERED)
        assert battles.begin(session, draft, resolver=resolver) == _BATTLE
    finally:
        session.close()


async def pick_unit(pilot, unit_id: str) -> None:
    grid = pilot.app.screen.query_one("#units", DataTable)
    grid.move_cursor(row=grid.get_row_index(unit_id))
    await until(pilot, lambda: pilot.app.screen.selected() == unit_id, f"the cursor on {unit_id}")


async def resolve(pilot, action: str | None = None) -> ResolutionScreen:
    await pilot.press(key(ResolverScreen, "resolver.resolve"))
    await wait_for_screen(pilot, ResolutionScreen)
    modal: ResolutionScreen = pilot.app.screen  # type: ignore[assignment]
    if action:
        modal.query_one("#action", Select).value = action
        await until(pilot, lambda: modal.built == action and not modal.building, f"the form rebuilt for {action}")
    return modal


async def test_a_tabletop_battle_from_hand_off_to_return(campaign_file, make_app):
    handed_off(campaign_file)
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        shown = screen_text(app)
        assert "▶ movement" in shown and "(side A moves" in shown and "a1" in shown and "d1" in shown
        table = tabletop.load(app.session, 1)
        attacker, defender = table.side_units("attacker")[0], table.side_units("defender")[0]

        # movement: the first unit moves; nothing is rolled
        await pick_unit(pilot, attacker.id)
        modal = await resolve(pilot)
        assert "Nothing is rolled" in await wait_for(pilot, "Needs:")
        await pilot.press("ctrl+r")
        await caught_up(pilot)  # resolved and stored in a worker, after the form has closed
        await wait_for_screen(pilot, ResolverScreen)
        assert tabletop.load(app.session, 1).log[-1]["action"] == "move"

        # a defender cannot act in the attacker's movement phase: uncharged, it has nothing to
        # answer, and the form does not open on a resolution the card then refuses
        table = tabletop.load(app.session, 1)
        assert [a for a, _title in allowed_actions(table, defender.id)][:2] == ["response_to_charge", "evade"]
        await pick_unit(pilot, defender.id)
        await pilot.press(key(ResolverScreen, "resolver.resolve"))
        said = await wait_for_notice(pilot, "has nothing to do in the movement phase")
        assert "none of Response to charge, Evade" in said and isinstance(app.screen, ResolverScreen)
        # charged, it answers: the form opens on its response, and offers no move
        tabletop.resolve(app.session, 1, "declare_charge", attacker.id, defender.id)
        pilot.app.screen.refresh_view()
        modal = await resolve(pilot)
        assert modal.action_id() == "response_to_charge"
        with pytest.raises(InvalidSelectValueError):
            modal.query_one("#action", Select).value = "move"  # one it does not offer
        await pilot.press("escape")
        await wait_for_screen(pilot, ResolverScreen)
        tabletop.take_back(app.session, 1)
        pilot.app.screen.refresh_view()

        # on to the simultaneous fire: the checklist moves
        await pilot.press("n", "n")
        assert "▶ simultaneous fire" in await wait_for(pilot, "▶ simultaneous fire")

        # small arms: a range that is not a number is refused, nothing stored
        await pick_unit(pilot, attacker.id)
        modal = await resolve(pilot, "small_arms_fire")
        rng = [w for w in modal.query(Input) if w.id and w.id.startswith("n-range")][0]
        rng.value = "far"
        await wait_for(pilot, "Range in hexes must be a whole")
        before = app.session.version()
        await pilot.press("ctrl+r")
        await caught_up(pilot)  # a resolution runs in a worker: nothing stored once it has ended
        assert isinstance(app.screen, ResolutionScreen) and app.session.version() == before
        rng.value = "2"
        wall = [w for w in modal.query(Checkbox) if w.id and w.id.startswith("t-wall")][0]
        wall.value = True
        shown = await wait_for(pilot, "+2 target behind wall")
        assert "Hits:" in shown and "%" in shown
        # the dice rolled on the table, typed in
        await pilot.press("ctrl+e")
        await wait_for(pilot, "Dice rolled on the table")
        await pilot.press(*"12 12 1", "enter")
        await wait_for_screen(pilot, ResolverScreen)
        await wait_for_notice(pilot, "2 hits")
        table = tabletop.load(app.session, 1)
        assert table.units[defender.id].attr("hits") == 2 and table.log[-1]["raw"] == [12, 12, 1]

        # the phase does not end with hits waiting
        await pilot.press(key(ResolverScreen, "resolver.next"))
        await wait_for_notice(pilot, "hits to read on the combat table")
        await pick_unit(pilot, defender.id)
        await resolve(pilot, "combat")
        await pilot.press("ctrl+r")
        await caught_up(pilot)  # resolved and stored in a worker, after the form has closed
        await wait_for_screen(pilot, ResolverScreen)
        assert tabletop.load(app.session, 1).units[defender.id].has("disrupted")
        assert "disrupted" in await wait_for(pilot, "disrupted")

        # the end: the defender held the field; losses go back through the battle screen
        await pilot.press(key(ResolverScreen, "resolver.end"))
        await wait_for(pilot, "Who held the field?")
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, "End the battle: the defender held the field")
        await pilot.press("y")
        await wait_for_screen(pilot, FightScreen)
        await wait_for(pilot, "Tabletop result")
        fight = battles.load(app.session, 1)
        assert fight.tabletop["winner"] == "defender" and "by_unit" in fight.tabletop
        if fight.pursuit_step() is not None:
            await pilot.press(key(FightScreen, "fight.roll"))
            await caught_up(pilot)  # the pursuit rolled and stored
        await pilot.press(key(FightScreen, "fight.apply"))
        await wait_for(pilot, "Apply the battle")
        await pilot.press("y")
        await wait_for(pilot, "done):")
    with stored(campaign_file) as db:
        battle = db.get(Battle, 1)
        assert battle.status == "done" and battle.detail["tactical"]["ended"]["winner"] == "defender"
        rolls = db.exec(__import__("sqlmodel").select(DiceRoll)).all()
        assert any(list(r.raw) == [12, 12, 1] for r in rolls)
        assert all(db.get(Unit, u).strength_points >= 0 for u in battle.losses["units"])


async def test_bad_unit_values_are_refused_in_the_form(campaign_file, make_app):
    handed_off(campaign_file)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        before = tabletop.load(app.session, 1)
        await pilot.press(key(ResolverScreen, "resolver.edit"))
        await wait_for(pilot, "Stands now")
        form = app.screen
        form.query_one("#f-size", Input).value = "99"
        await pilot.press("ctrl+s")
        await wait_for(pilot, "cannot have more stands (99) than it began with")
        await pilot.press("escape")
        await wait_for_screen(pilot, ResolverScreen)
        assert tabletop.load(app.session, 1) == before
        await pilot.press(key(ResolverScreen, "resolver.markers"))
        await wait_for(pilot, "put on: disrupted")
        await pilot.press("enter")
        await wait_for_notice(pilot, ": disrupted")
        assert any(u.has("disrupted") for u in tabletop.load(app.session, 1).units.values())


async def test_the_tabletop_battle_survives_closing_the_app(campaign_file, make_app):
    handed_off(campaign_file)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        await pilot.press(key(ResolverScreen, "resolver.next"))
        await wait_for(pilot, "▶ artillery fire")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        assert "▶ artillery fire" in await wait_for(pilot, "▶ artillery fire")


async def test_a_game_outside_the_campaign_with_units_entered_by_hand(campaign_file, make_app):
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")
        await wait_for_screen(pilot, BattlesScreen)
        await pilot.press("g")
        await wait_for(pilot, "A tabletop game outside the campaign's forces")
        app.screen.query_one("#f-location", Input).value = "Gettysburg"
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, ResolverScreen)
        await pilot.press(key(ResolverScreen, "resolver.add"))
        await wait_for(pilot, "A unit entered by hand")
        app.screen.query_one("#f-name", Input).value = "1st Minnesota"
        await pilot.press("ctrl+s")
        # Saved in a worker; the name shows in the form before, so it is no sign of the save.
        await caught_up(pilot)
        await wait_for_screen(pilot, ResolverScreen)
        await wait_for(pilot, "1st Minnesota")
    with stored(campaign_file) as db:
        tactical = db.get(Battle, 1).detail["tactical"]
        assert tactical["standalone"] and tactical["units"][0]["name"] == "1st Minnesota"


@pytest.mark.parametrize("ruleset", tactical_rulesets())
async def test_every_rule_set_opens_on_the_resolver_screen(campaign_file, make_app, ruleset):
    handed_off(campaign_file, ruleset)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        first = tabletop.load(app.session, 1).resolver.phases[0]
        assert f"▶ {first.title}"[:20] in await wait_for(pilot, "▶")
        assert not [n for n in notices(app) if "Traceback" in n]


async def test_the_checklist_goes_forward_and_back(campaign_file, make_app):
    handed_off(campaign_file)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        await pilot.press(key(ResolverScreen, "resolver.next"), key(ResolverScreen, "resolver.next"))
        await wait_for(pilot, "▶ simultaneous fire")
        await pilot.press(key(ResolverScreen, "resolver.previous"))
        await wait_for(pilot, "▶ artillery fire")
        assert tabletop.load(app.session, 1).phase.id == "artillery_fire"


async def test_home_end_whole_states_and_a_contact_ruled_by_the_umpire(campaign_file, make_app):
    bid = handed_off(campaign_file, "napoleonic_uc_um")
    session = CampaignSession.open(campaign_file)
    try:
        tabletop.start(session, bid)
        last = list(tabletop.load(session, bid).units)[-1]
        for state in ("rout", "disordered", "charged"):
            tabletop.set_state(session, bid, last, state, True)
    finally:
        session.close()
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_resolver(pilot)
        await pilot.press("end")
        assert screen.selected() == last
        shown = screen_text(app)
        # the State column reads whole words at 80 columns, wrapped in its column
        assert "en rupture (broken)," in shown and "(disordered)," in shown and "chargé (charged)" in shown
        await pilot.press("home")
        assert screen.selected() == "a1"
        await pilot.press(key(ResolverScreen, "resolver.contact"))
        await wait_for(pilot, "Contact of")
        await pilot.press("enter")
        await wait_for(pilot, "the umpire's ruling")
        await pilot.press("ctrl+s")
        await wait_for(pilot, "An umpire's ruling gives its reason")
        app.screen.query_one("#f-reason", Input).value = "the column went in with the bayonet"
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, ResolverScreen)
        table = tabletop.load(app.session, bid)
        assert [(c.charger, c.how, c.reason) for c in table.contacts] == [("a1", "ruling", "the column went in with the bayonet")]
        assert table.log[-1]["action"] == "ruling"


async def test_a_unit_added_by_hand_lists_the_types_of_its_arm(campaign_file, make_app):
    # 13-phase: fifteen unit types in all; the list follows the Arm picked, so artillery
    # opens on the two artillery types and the unit is stored with one of them
    session = CampaignSession.open(campaign_file)
    tabletop.new_game(session, "napoleonic_13phase", "Leipzig")
    session.close()
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        await pilot.press(key(ResolverScreen, "resolver.add"))
        await wait_for(pilot, "A unit entered by hand")
        form = app.screen
        unit_type = form.query_one("#f-unit_type", Select)
        assert [v for _, v in select_options(unit_type)] == [
            "infantry_column", "infantry_line", "infantry_square", "battalion_masse", "skirmishers"]
        form.query_one("#f-name", Input).value = "Foot battery"
        form.query_one("#f-arm", Select).value = "artillery"
        await until(pilot, lambda: unit_type.value == "limbered_artillery", "the unit types of the artillery offered")
        assert select_options(unit_type) == [("limbered artillery", "limbered_artillery"), ("artillery", "artillery")]
        assert unit_type.value == "limbered_artillery"
        unit_type.value = "artillery"
        await pilot.press("ctrl+s")
        # Saved in a worker; the name shows in the form before, so it is no sign of the save.
        await caught_up(pilot)
        await wait_for_screen(pilot, ResolverScreen)
        await wait_for(pilot, "Foot battery")
    with stored(campaign_file) as db:
        unit = db.get(Battle, 1).detail["tactical"]["units"][0]
        assert (unit["arm"], unit["attrs"]["unit_type"]) == ("artillery", "artillery")


async def test_a_units_details_show_only_the_attributes_of_its_arm(campaign_file, make_app):
    """13-phase: a cavalry unit shows no "Guns (lbs)", a battery does (issue 24)."""
    from .tabletop_play import handed_off as with_every_arm

    with_every_arm(campaign_file, "napoleonic_13phase")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        table = tabletop.load(app.session, 1)
        by_arm = {u.arm: u for u in table.units.values()}
        assert {"cavalry", "artillery", "infantry"} <= set(by_arm)
        shown = {}
        for arm, unit in by_arm.items():
            await pick_unit(pilot, unit.id)
            shown[arm] = str(app.screen.query_one("#detail").render()).splitlines()[0]
        assert "Guns (lbs)" not in shown["cavalry"] and "Guns (lbs)" not in shown["infantry"]
        assert "Guns (lbs) " in shown["artillery"]


@pytest.mark.parametrize("width", range(12, 31))
def test_a_unit_s_states_fit_their_column_whole(width):
    # At 80x24 the State column is 18 wide: "rolled to move (1)," took 19, the table wrapped it
    # onto the row's second line, and "moved (2)" was cut off the row.
    from tui.screens.resolver import state_lines

    for marks in ("rolled to move (1), moved (2)", "disordered, shaken (2), routing", "broken"):
        lines = state_lines(marks, width)
        assert all(len(line) <= width for line in lines), lines
        assert " ".join(lines).split() == marks.split()  # every word of every state, in order

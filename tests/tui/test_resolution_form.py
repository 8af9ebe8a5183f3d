"""The resolution form follows the units chosen: every change of target builds the
card's modifiers for the new pair again, pre-ticks those stored state decides, and
the number needed follows the card (issue 24).

Each test sets up a game by hand, opens the form on the acting unit, reads the
number needed against one target, picks another and reads it again.  The numbers
expected are read off the card (/work/shared/seeds), the arithmetic in comments.
"""

from __future__ import annotations


from campaigns import tabletop
from campaigns.session import CampaignSession
from tui.modals.resolution import ResolutionScreen
from tui.screens.resolver import ResolverScreen

from tests.tui.polling import caught_up, until

from .helpers import burst, wait_for, wait_for_screen
from .test_resolver import pick_unit, resolve, to_resolver


def game(path, ruleset: str, units: list[dict], phase: str, bound: str | None = None, setup=None) -> int:
    """A game outside the campaign with `units` entered by hand, at `phase`."""
    session = CampaignSession.open(path)
    try:
        bid = tabletop.new_game(session, ruleset, "Probstheida")
        for values in units:
            tabletop.add_unit(session, bid, values)
        if setup:
            setup(session, bid)
        for _ in range(80):
            table = tabletop.load(session, bid)
            if table.phase.id == phase and (bound is None or table.position.bound == bound):
                return bid
            tabletop.next_phase(session, bid)
        raise AssertionError(f"never reached {phase}")
    finally:
        session.close()


def needs(modal: ResolutionScreen) -> str:
    line = [x for x in str(modal.query_one("#prepared").content).splitlines() if x.startswith("Needs:")]
    assert line, modal.query_one("#error").render()
    return line[0]


async def form(pilot, actor: str, action: str) -> ResolutionScreen:
    await to_resolver(pilot)
    await pick_unit(pilot, actor)
    modal = await resolve(pilot, action)
    await wait_for(pilot, "Needs:")
    return modal


async def retarget(pilot, modal: ResolutionScreen, target: str) -> str:
    before = modal.params
    modal.target_select.value = target
    try:  # rebuilt for the new target and shown (the count moves on as the rebuild begins)
        await until(pilot, lambda: (modal.params != before and not modal.building and modal.params_for == target
                                    and "Needs:" in str(modal.query_one("#prepared").content)), f"the form rebuilt for {target}")
    except AssertionError as exc:
        raise AssertionError(f"{exc}: {modal.query_one('#error').render()}") from None
    return needs(modal)


def ticked(modal: ResolutionScreen) -> set[str]:
    return {k for k, box in modal.ticks.items() if box.value}


async def test_uc_um_melee_cavalry_against_infantry_not_in_square(campaign_file, make_app):
    # the card's CORPS A CORPS: Aguerri hits on 4+; "Cavalerie contre infanterie non
    # en carré ... - 2": a light cavalry UC needs 4+ against cavalry, 2+ against a line
    def in_contact(session, bid):
        for enemy in ("d1", "d2"):
            tabletop.rule_contact(session, bid, "a1", enemy, True, "the hussars' charge reached both")

    game(campaign_file, "napoleonic_uc_um", [
        dict(name="Hussards", side="attacker", arm="cavalry", size="4", formation="line", kind="light"),
        dict(name="Chaplits", side="defender", arm="cavalry", size="4", formation="line", kind="light"),
        dict(name="Klüx", side="defender", arm="infantry", size="6", formation="line"),
    ], "3.8", setup=in_contact)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "a1", "melee")
        assert modal.target_id() == "d1" and needs(modal).startswith("Needs: 4 +")
        assert "cavalry_vs_open_infantry" not in ticked(modal)
        assert modal.ticks["cavalry_vs_open_infantry"].disabled  # Chaplits is cavalry
        shown = await retarget(pilot, modal, "d2")
        assert shown.startswith("Needs: 2 +") and "-2" in shown
        assert "cavalry_vs_open_infantry" in ticked(modal)
        # and back: the -2 goes with the infantry
        assert (await retarget(pilot, modal, "d1")).startswith("Needs: 4 +")
        await pilot.press("ctrl+r")
        await caught_up(pilot)  # resolved and stored in a worker, after the form has closed
        await wait_for_screen(pilot, ResolverScreen)
        entry = tabletop.load(app.session, 1).log[-1]
        assert entry["target"] == "d1" and entry["needed"].startswith("4 +")


async def test_uc_um_fire_at_cavalry_then_infantry_is_not_blocked(campaign_file, make_app):
    # the leftover "Cible Cavalerie -1" of the first target must not block a shot at the second
    game(campaign_file, "napoleonic_uc_um", [
        dict(name="Voltigeurs", side="attacker", arm="infantry", size="6", formation="line"),
        dict(name="Chaplits", side="defender", arm="cavalry", size="4", formation="line", kind="light"),
        dict(name="Klüx", side="defender", arm="infantry", size="6", formation="line"),
    ], "3.1")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "a1", "fire")
        assert "target_cavalry" in ticked(modal)
        distance = modal.numbers["distance"]
        distance.value = "5"  # typed by the umpire: kept across the change of target
        await caught_up(pilot)
        await retarget(pilot, modal, "d2")
        assert "target_cavalry" not in ticked(modal) and modal.numbers["distance"].value == "5"
        assert modal.numbers["distance"] is distance  # the same fields for this target: set in place, not built again
        assert modal.query_one("#error").render().plain == ""


async def test_kallistra_small_arms_at_skirmishers(campaign_file, make_app):
    # Firing (small arms): Rifle musket, class R, 1 hex: 5+; "+2 skirmishing infantry": 7+
    game(campaign_file, "kallistra_acw", [
        dict(name="Iron Brigade", side="attacker", arm="infantry", size="4"),
        dict(name="Stonewall", side="defender", arm="infantry", size="4"),
        dict(name="Sharpshooters", side="defender", arm="infantry", size="1", skirmishing="yes"),
    ], "simultaneous_fire")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "a1", "small_arms_fire")
        modal.numbers["range"].value = "1"
        await until(pilot, lambda: needs(modal) == "Needs: 5+", "needs(modal) == 'Needs: 5+'")  # the form shows the new range once the Input's change is handled
        assert needs(modal) == "Needs: 5+"
        assert (await retarget(pilot, modal, "d2")).startswith("Needs: 7+ (5+, +2 skirmishing")
        assert (await retarget(pilot, modal, "d1")) == "Needs: 5+"


async def test_13phase_fire_at_charging_cavalry(campaign_file, make_app):
    # phase 3, the Austrian infantry shoots: Column 4+; Charging Cavalry 6+
    def charging(session, bid):
        tabletop.set_state(session, bid, "a2", "charging", True)

    game(campaign_file, "napoleonic_13phase", [
        dict(name="IR 4 Deutschmeister", side="defender", arm="infantry", size="24"),
        dict(name="8e Ligne", side="attacker", arm="infantry", size="24", unit_type="infantry_column"),
        dict(name="5e Hussards", side="attacker", arm="cavalry", size="12", unit_type="light_cavalry"),
    ], "phase_3", setup=charging)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "d1", "fire")
        assert needs(modal).startswith("Needs: 4+")
        assert (await retarget(pilot, modal, "a2")).startswith("Needs: 6+")
        assert "charging_cavalry" in ticked(modal)
        assert (await retarget(pilot, modal, "a1")).startswith("Needs: 4+")
        assert modal.ticks["charging_cavalry"].disabled


async def test_d10_fire_at_a_battery_and_a_square(campaign_file, make_app):
    # Fire: "Small Arms at Arty -5", "Square +5" follow the target picked
    def initiative(session, bid):
        tabletop.resolve(session, bid, "initiative", "a1", entered=[5, 3])

    game(campaign_file, "napoleonic_d10", [
        dict(name="1er Léger", side="attacker", arm="infantry", size="6", weapon="musket"),
        dict(name="Pavlograd", side="defender", arm="infantry", size="6"),
        dict(name="Battery", side="defender", arm="artillery", size="2"),
        dict(name="Square", side="defender", arm="infantry", size="6", formation="square"),
    ], "fire", setup=initiative)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "a1", "fire")
        assert "Arty" not in needs(modal) and "Square" not in needs(modal)
        assert "Small Arms at Arty -5" in await retarget(pilot, modal, "d2")
        shown = await retarget(pilot, modal, "d3")
        assert "Square +5" in shown and "Arty" not in shown


async def test_the_form_scrolls_to_the_focused_field_at_80x24(campaign_file, make_app):
    game(campaign_file, "napoleonic_uc_um", [
        dict(name="Voltigeurs", side="attacker", arm="infantry", size="6", formation="line"),
        dict(name="Klüx", side="defender", arm="infantry", size="6", formation="line"),
    ], "3.1")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "a1", "fire")
        box = modal.query_one("#form")
        assert box.max_scroll_y > 0  # the fire modifiers are taller than the screen
        last = [b for b in modal.ticks.values() if not b.disabled][-1]
        await pilot.press("tab", "tab")  # on the first number: Down and PageDown scroll the form
        await pilot.press("down")
        await until(pilot, lambda: box.scroll_y == 1, "the form scrolled a line down")
        await pilot.press("pagedown")
        await until(pilot, lambda: box.scroll_y > 1, "the form scrolled a page down")
        await pilot.press("pageup", "pageup")
        await until(pilot, lambda: box.scroll_y == 0, "the form scrolled back to the top")
        # Tab to the last modifier, as many Tabs as the focus chain has fields before it, typed
        # in one burst (each key handed over once the one before is handled): the form follows
        # the focus. One at a time with the pilot's idle waits, they were a third of the test.
        chain = modal.focus_chain
        tabs = chain.index(last) - chain.index(app.focused)
        assert 0 < tabs < 40
        await burst(pilot, *["tab"] * tabs)
        assert app.focused is last
        await until(pilot, lambda: box.scroll_y > 0 and box.region.contains_region(last.region), "the form scrolled to the focused modifier")


async def test_a_unit_with_hits_waiting_offers_the_combat_table_first(campaign_file, make_app):
    bid = game(campaign_file, "kallistra_acw", [
        dict(name="Iron Brigade", side="attacker", arm="infantry", size="4"),
        dict(name="Stonewall", side="defender", arm="infantry", size="4"),
    ], "simultaneous_fire")
    session = CampaignSession.open(campaign_file)
    tabletop.edit_unit(session, bid, "d1", {"hits": "2"})
    session.close()
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_resolver(pilot)
        await pick_unit(pilot, "d1")
        modal = await resolve(pilot)
        assert modal.action_id() == "combat"
        offered = [key for key, _ in modal.actions]
        assert offered[0] == "combat" and offered.index("small_arms_fire") > 0


async def test_uc_um_charged_test_b_pre_ticks_infantry_charged_by_cavalry(campaign_file, make_app):
    # MORAL: "Inf. non en carré ou en désordre et chargée/contact avec la Cavalerie + 1":
    # Aguerri/Confiant tests on 4+; charged by cavalry, 5+; charged by infantry, 4+
    def charged(session, bid):
        tabletop.rule_contact(session, bid, "a1", "d1", True, "the hussars charged")
        tabletop.rule_contact(session, bid, "a2", "d1", True, "the voltigeurs charged too")
        for unit_id, state in (("a1", "charging"), ("a2", "charging"), ("d1", "charged")):
            tabletop.set_state(session, bid, unit_id, state, True)

    game(campaign_file, "napoleonic_uc_um", [
        dict(name="Hussards", side="attacker", arm="cavalry", size="4", formation="line", kind="light"),
        dict(name="Voltigeurs", side="attacker", arm="infantry", size="6", formation="line"),
        dict(name="Klüx", side="defender", arm="infantry", size="6", formation="line"),
    ], "3.4", setup=charged)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "d1", "test_b")
        assert modal.target_id() == "a1" and "open_infantry_vs_cavalry" in ticked(modal)
        assert needs(modal).startswith("Needs: 5")
        shown = await retarget(pilot, modal, "a2")
        assert "open_infantry_vs_cavalry" not in ticked(modal) and shown.startswith("Needs: 4")


async def test_uc_um_distance_typed_with_the_card_s_decimal_comma(campaign_file, make_app):
    game(campaign_file, "napoleonic_uc_um", [
        dict(name="Voltigeurs", side="attacker", arm="infantry", size="6", formation="line", weapon="other"),
        dict(name="Klüx", side="defender", arm="infantry", size="6", formation="line"),
    ], "3.1")
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "a1", "fire")
        modal.numbers["distance"].value = "7,5"  # 'Autres armes ... 7,5 +': long range from 7,5 cm
        shown = await wait_for(pilot, "Longue portée")
        assert "must be" not in shown
        modal.numbers["distance"].value = "7"
        await until(pilot, lambda: "Longue portée" not in needs(modal), "'Longue portée' not in needs(modal)")
        assert "Longue portée" not in needs(modal)
        modal.numbers["distance"].value = "7,5"
        await wait_for(pilot, "Longue portée")
        await pilot.press("ctrl+r")
        await caught_up(pilot)  # resolved and stored in a worker, after the form has closed
        await wait_for_screen(pilot, ResolverScreen)
        assert tabletop.load(app.session, 1).log[-1]["numbers"]["distance"] == 7.5


async def test_typed_dice_are_asked_for_each_side_by_name(campaign_file, make_app):
    # a 13-phase melee rolls the attacker's dice and the defender's: ctrl+e asks for each on a line of its own
    from tui.modals.dice_entry import DiceEntryScreen

    def in_contact(session, bid):
        tabletop.rule_contact(session, bid, "a1", "d1", True, "the column charged home")

    bid = game(campaign_file, "napoleonic_13phase", [
        dict(name="8e Ligne", side="attacker", arm="infantry", size="8", unit_type="infantry_column", quality="elite"),
        dict(name="IR 4", side="defender", arm="infantry", size="9", unit_type="infantry_line"),
    ], "phase_6", setup=in_contact)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "a1", "melee")
        shown = str(modal.query_one("#prepared").content)
        assert " attacker 8e Ligne: 8d6" in shown and " defender IR 4: 4d6" in shown
        await pilot.press("ctrl+e")
        await wait_for_screen(pilot, DiceEntryScreen)
        entry = app.screen
        labels = [str(label.render()) for label in entry.query("Label")]
        assert labels == ["attacker 8e Ligne 8d6", "defender IR 4 4d6"]
        await pilot.press(*"4 4 4 1 1 1 1 1", "enter")  # on to the defender's line
        await until(pilot, lambda: app.focused is entry.query_one("#dice-1"), "the defender's line focused after enter")
        await pilot.press(*"6 6 1", "enter")
        await wait_for(pilot, "4d6 needs 4 dice typed in, not 3")
        await pilot.press("space", "1", "enter")
        await caught_up(pilot)  # resolved and stored in a worker, after the form has closed
        await wait_for_screen(pilot, ResolverScreen)
        entry = tabletop.load(app.session, bid).log[-1]
        assert [r["raw"] for r in entry["rolls"]] == [[4, 4, 4, 1, 1, 1, 1, 1], [6, 6, 1, 1]]
        assert entry["text"].startswith("Attacker inflicts 3, defender inflicts 2")


async def test_the_form_opens_on_the_action_its_fields_two_widgets_a_row(campaign_file, make_app, monkeypatch):
    # Opening a resolution is Textual building the form: the fields' box taking the first
    # focus and handing it on restyled the whole form twice, and a row was three widgets.
    game(campaign_file, "napoleonic_uc_um", [
        dict(name="Voltigeurs", side="attacker", arm="infantry", size="6", formation="line"),
        dict(name="Klüx", side="defender", arm="infantry", size="6", formation="line"),
    ], "3.1")
    focused: list[str | None] = []
    monkeypatch.setattr(ResolutionScreen, "on_descendant_focus", lambda _self, event: focused.append(event.widget.id), raising=False)
    app = make_app(campaign_file, start="battles")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await form(pilot, "a1", "fire")
        assert focused == ["action"]  # the first focus, and the only one, on what the unit does
        rows = len(modal.numbers) + len(modal.ticks)
        assert rows > 10  # the fire modifiers: a long form
        # each number or tick is its field and its text, in one of two grids (numbers, ticks)
        assert len(modal.query(".params *")) == 2 * rows + 2

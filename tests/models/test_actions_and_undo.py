"""Actions commit at once as one event; undo and redo replay events, across restarts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import func, select

from campaigns.scenario import load_scenario
from campaigns.setup import create_campaign
from models import (
    Battle,
    CampaignStore,
    DiceRoll,
    Event,
    NothingToUndo,
    StoreError,
    Unit,
    open_campaign,
    overview,
)
from rules.dice import DiceError
from tests.templates import new_campaign

SCENARIO = load_scenario("spring1813")
FIRST, SECOND = SCENARIO.units[0], SCENARIO.units[1]


@pytest.fixture
def store(campaign_target: str) -> Iterator[CampaignStore]:
    with open_campaign(new_campaign(campaign_target, SCENARIO, seed=1813)) as store:
        yield store


def unit(store: CampaignStore, unit_id: str) -> Unit:
    with store.read() as session:
        return session.get_one(Unit, unit_id)


def events(store: CampaignStore) -> list[Event]:
    with store.read() as session:
        return list(session.exec(select(Event).order_by(Event.id)))


def march(store: CampaignStore, unit_id: str, where: str) -> None:
    with store.action(f"{unit_id} marches to {where}") as session:
        session.get_one(Unit, unit_id).location = where


def test_a_new_campaign_starts_with_a_setup_event_that_cannot_be_undone(store: CampaignStore) -> None:
    [setup] = events(store)
    assert setup.kind == "setup" and "spring1813" in setup.description
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        store.undo()


def test_an_action_is_one_event_with_the_before_and_after_of_each_row(store: CampaignStore) -> None:
    with store.action("Ney's corps marches and tires") as session:
        first = session.get_one(Unit, FIRST.id)
        first.location, first.fatigued = "Lützen", True
        session.get_one(Unit, SECOND.id).strength_points -= 1
        session.add(Battle(turn=1, location="Lützen"))
    event = events(store)[-1]
    assert event.description == "Ney's corps marches and tires"
    assert {
        "table": "unit",
        "key": {"id": FIRST.id},
        "before": {"fatigued": False, "location": FIRST.location},
        "after": {"fatigued": True, "location": "Lützen"},
    } in event.changes
    assert {
        "table": "unit",
        "key": {"id": SECOND.id},
        "before": {"strength_points": SECOND.strength_points},
        "after": {"strength_points": SECOND.strength_points - 1},
    } in event.changes
    [battle] = [c for c in event.changes if c["table"] == "battle"]
    assert battle["before"] is None and battle["after"]["location"] == "Lützen"
    assert store.campaign().version == store.version == 1


def test_an_action_that_fails_writes_nothing(store: CampaignStore) -> None:
    with pytest.raises(RuntimeError):
        with store.action("half a march") as session:
            session.get_one(Unit, FIRST.id).location = "Lützen"
            raise RuntimeError("the umpire changed his mind")
    assert unit(store, FIRST.id).location == FIRST.location
    assert len(events(store)) == 1 and store.campaign().version == 0


def test_an_action_that_breaks_the_records_is_refused_whole(store: CampaignStore) -> None:
    with pytest.raises(StoreError, match="refused"):
        with store.action("a unit under a general who does not exist") as session:
            session.get_one(Unit, FIRST.id).location = "Lützen"
            session.get_one(Unit, SECOND.id).general = "nobody"
    assert unit(store, FIRST.id).location == FIRST.location
    march(store, FIRST.id, "Lützen")  # the store goes on working
    assert unit(store, FIRST.id).location == "Lützen"


def test_an_action_that_changes_nothing_records_nothing(store: CampaignStore) -> None:
    with store.action("look at the map") as session:
        session.get_one(Unit, FIRST.id)
    assert len(events(store)) == 1 and store.version == 0


def test_an_action_inside_an_action_is_part_of_it(store: CampaignStore) -> None:
    with store.action("two marches") as session:
        session.get_one(Unit, FIRST.id).location = "Lützen"
        march(store, SECOND.id, "Weißenfels")
    assert len(events(store)) == 2 and len(events(store)[-1].changes) == 2


def test_undo_and_redo_replay_the_event(store: CampaignStore) -> None:
    march(store, FIRST.id, "Lützen")
    march(store, FIRST.id, "Leipzig")
    assert store.undo().description == f"{FIRST.id} marches to Leipzig"
    assert unit(store, FIRST.id).location == "Lützen"
    store.undo()
    assert unit(store, FIRST.id).location == FIRST.location
    with pytest.raises(NothingToUndo):
        store.undo()
    store.redo()
    store.redo()
    assert unit(store, FIRST.id).location == "Leipzig"
    with pytest.raises(NothingToUndo, match="nothing to redo"):
        store.redo()


def test_undo_removes_inserted_rows_and_restores_deleted_ones(store: CampaignStore) -> None:
    with store.action("a battle is fought") as session:
        session.add(Battle(turn=1, location="Lützen", participants={"french": [FIRST.id]}))
    with store.action("the dummy is removed") as session:
        session.delete(session.get_one(Unit, SECOND.id))
    store.undo()
    assert unit(store, SECOND.id).name == SECOND.name
    store.undo()
    with store.read() as session:
        assert session.exec(select(func.count()).select_from(Battle)).one() == 0
    store.redo()
    with store.read() as session:
        assert session.exec(select(Battle)).one().participants == {"french": [FIRST.id]}


def test_undo_and_redo_survive_a_restart(store: CampaignStore, campaign_target: str) -> None:
    march(store, FIRST.id, "Lützen")
    march(store, SECOND.id, "Leipzig")
    store.undo()
    store.close()
    with open_campaign(campaign_target) as reopened:
        assert unit(reopened, SECOND.id).location == SECOND.location
        assert overview(reopened).can_undo and overview(reopened).can_redo
        reopened.redo()
    with open_campaign(campaign_target) as reopened:
        assert unit(reopened, SECOND.id).location == "Leipzig"
        reopened.undo()
        reopened.undo()
    with open_campaign(campaign_target) as reopened:
        assert unit(reopened, FIRST.id).location == FIRST.location
        assert not overview(reopened).can_undo


def test_a_new_action_after_undo_keeps_the_undone_one_in_the_record_but_cannot_redo_it(store: CampaignStore) -> None:
    march(store, FIRST.id, "Lützen")
    store.undo()
    march(store, SECOND.id, "Leipzig")
    kept = [(e.kind, e.description, e.undone) for e in events(store)][1:]
    assert kept == [
        ("action", f"{FIRST.id} marches to Lützen", True),
        ("undo", f"{FIRST.id} marches to Lützen", False),
        ("action", f"{SECOND.id} marches to Leipzig", False),
    ]
    with pytest.raises(NothingToUndo, match="cannot be redone"):
        store.redo()
    assert not overview(store).can_redo
    # Undoing the new action does not bring the abandoned one back into reach.
    store.undo()
    assert store.redo().description == f"{SECOND.id} marches to Leipzig"
    with pytest.raises(NothingToUndo, match="cannot be redone"):
        store.redo()
    assert unit(store, FIRST.id).location == FIRST.location


def test_undo_and_redo_are_events_naming_the_action(store: CampaignStore) -> None:
    march(store, FIRST.id, "Lützen")
    march(store, SECOND.id, "Leipzig")
    store.undo()
    store.undo()
    store.redo()
    log = events(store)
    first, second = log[1].id, log[2].id
    assert [(e.kind, e.changes) for e in log[3:]] == [
        ("undo", [{"event": second}]),
        ("undo", [{"event": first}]),
        ("redo", [{"event": first}]),
    ]
    assert store.redo().id == second  # redo goes back in the reverse order of the undos
    assert unit(store, SECOND.id).location == "Leipzig"


def test_dice_are_stored_in_the_action_that_rolls_them(store: CampaignStore) -> None:
    dice = store.dice()
    with store.action("weather of turn 1") as session:
        roll = dice.roll("1d6", "weather")
        session.get_one(Unit, FIRST.id).fatigued = roll.result > 3
    event = events(store)[-1]
    with store.read() as session:
        stored = session.exec(select(DiceRoll)).one()
    assert (stored.event, stored.raw, stored.result, stored.stream_index) == (
        event.id,
        [roll.raw[0]],
        roll.result,
        0,
    )
    assert store.campaign().dice_next_index == 1


def test_a_roll_outside_an_action_is_an_action_of_its_own(store: CampaignStore) -> None:
    store.dice().roll("2d6", "forced march")
    assert events(store)[-1].description == "forced march: 2d6"
    assert store.campaign().dice_next_index == 1


def test_the_dice_stream_continues_after_a_restart(store: CampaignStore, campaign_target: str) -> None:
    first = [store.dice().roll("1d6", f"roll {n}") for n in range(3)]
    store.close()
    with open_campaign(campaign_target) as reopened:
        later = reopened.dice().roll("1d6", "roll 3")
    assert [r.index for r in first] + [later.index] == [0, 1, 2, 3]


def test_undone_dice_come_back_the_same_so_undo_cannot_fish_for_a_better_roll(store: CampaignStore) -> None:
    dice = store.dice()
    before = dice.roll("2d6", "combat at Lützen")
    store.undo()
    with store.read() as session:
        assert session.exec(select(func.count()).select_from(DiceRoll)).one() == 0
    again = dice.roll("2d6", "combat at Lützen")
    assert (again.raw, again.index) == (before.raw, before.index)


def test_two_dice_services_of_one_store_share_one_stream(store: CampaignStore) -> None:
    a, b = store.dice(), store.dice()
    assert [a.roll("1d6", "a").index, b.roll("1d6", "b").index, a.roll("1d6", "c").index] == [0, 1, 2]


def test_a_campaign_with_dice_typed_in_refuses_a_roll_without_them(campaign_target: str) -> None:
    with create_campaign(campaign_target, SCENARIO, dice_mode="entered") as store:
        with pytest.raises(DiceError, match="type in"):
            store.dice().roll("1d6", "weather")
        record = store.dice().roll("1d6", "weather", entered=[4])
        assert (record.result, record.mode, record.index) == (4, "entered", None)
        assert store.campaign().dice_next_index == 0


def test_the_overview_shows_where_play_stands(store: CampaignStore) -> None:
    march(store, FIRST.id, "Lützen")
    view = overview(store)
    assert (view.scenario, view.turn, view.date, view.phase) == (
        "spring1813",
        1,
        SCENARIO.start_date,
        "weather",
    )
    assert sum(side.units for side in view.sides) == len(SCENARIO.units)
    assert sum(side.strength_points for side in view.sides) == sum(u.strength_points for u in SCENARIO.units)
    assert [e.description for e in view.recent_events][0] == f"{FIRST.id} marches to Lützen"
    assert view.can_undo and not view.can_redo

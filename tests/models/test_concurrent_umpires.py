"""Two umpires on one campaign: the one who acts on a stale view is told so, and no update is lost."""

from __future__ import annotations

import threading

import pytest
from sqlmodel import func, select

from campaigns.scenario import load_scenario
from tests.templates import new_campaign
from models import CampaignStore, ConcurrentEditError, Event, Unit, open_campaign

SCENARIO = load_scenario("spring1813")
FIRST, SECOND = SCENARIO.units[0], SCENARIO.units[1]


@pytest.fixture
def target(campaign_target: str) -> str:
    new_campaign(campaign_target, SCENARIO, seed=5)
    return campaign_target


def march(store: CampaignStore, unit_id: str, where: str) -> None:
    with store.action(f"{unit_id} to {where}") as session:
        session.get_one(Unit, unit_id).location = where


def test_the_umpire_who_acts_second_on_a_stale_view_is_refused(target: str) -> None:
    with open_campaign(target) as alice, open_campaign(target) as bob:
        march(alice, FIRST.id, "Lützen")
        with pytest.raises(
            ConcurrentEditError,
            match="another umpire changed the campaign since you opened it; reload and try again",
        ):
            march(bob, SECOND.id, "Leipzig")
        with bob.read() as session:
            assert session.get_one(Unit, SECOND.id).location == SECOND.location  # nothing half-done
        bob.reload()
        march(bob, SECOND.id, "Leipzig")
        with pytest.raises(ConcurrentEditError):
            alice.undo()  # undo on a stale view could undo Bob's action
        alice.reload()
        assert alice.undo().description == f"{SECOND.id} to Leipzig"
    with open_campaign(target) as carol, carol.read() as session:
        assert session.get_one(Unit, FIRST.id).location == "Lützen"
        assert session.get_one(Unit, SECOND.id).location == SECOND.location


def test_a_roll_on_a_stale_view_is_refused_and_the_stream_never_forks(target: str) -> None:
    with open_campaign(target) as alice, open_campaign(target) as bob:
        alice_dice, bob_dice = alice.dice(), bob.dice()
        first = alice_dice.roll("1d6", "weather")
        with pytest.raises(ConcurrentEditError):
            bob_dice.roll("1d6", "command points")
        bob.reload()
        second = bob_dice.roll("1d6", "command points")
        assert (first.index, second.index) == (0, 1)


def test_many_writers_at_once_lose_no_update(target: str) -> None:
    writers, rounds = 4, 15
    errors: list[BaseException] = []
    start = threading.Barrier(writers)

    def umpire(number: int) -> None:
        try:
            with open_campaign(target) as store:
                start.wait()
                done = 0
                while done < rounds:
                    try:
                        with store.action(f"umpire {number} reinforces, round {done}") as session:
                            session.get_one(Unit, FIRST.id).strength_points += 1
                        done += 1
                    except ConcurrentEditError:
                        store.reload()
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=umpire, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with open_campaign(target) as store, store.read() as session:
        assert session.get_one(Unit, FIRST.id).strength_points == FIRST.strength_points + writers * rounds
        assert (
            session.exec(select(func.count()).select_from(Event).where(Event.kind == "action")).one()
            == writers * rounds
        )
        assert store.campaign().version == writers * rounds

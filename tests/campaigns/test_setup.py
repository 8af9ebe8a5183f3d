"""A new campaign holds its scenario's order of battle and calendar, ready for turn 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select

from campaigns.scenario import load_scenario, scenario_ids
from campaigns.setup import create_campaign
from models import Army, General, Nation, Side, Turn, Unit, overview


@pytest.mark.parametrize("scenario_id", scenario_ids())
def test_a_new_campaign_holds_the_whole_scenario(scenario_id: str, tmp_path: Path) -> None:
    scenario = load_scenario(scenario_id)
    with create_campaign(tmp_path / "new.campaign", scenario, seed=7) as store, store.read() as session:
        campaign = store.campaign()
        assert (campaign.scenario, campaign.ruleset, campaign.dice_seed, campaign.dice_mode) == (
            scenario_id,
            "allemagne1813",
            7,
            "rolled",
        )
        assert (campaign.name, campaign.turn, campaign.phase) == (scenario.title, 1, "weather")
        assert [s.id for s in session.exec(select(Side).order_by(Side.position))] == [
            s.id for s in scenario.sides
        ]
        assert {n.id: n.side for n in session.exec(select(Nation))} == {
            nation: side.id for side in scenario.sides for nation in side.nations
        }
        assert {a.id: a.commander for a in session.exec(select(Army))} == {
            a.id: a.commander for a in scenario.armies
        }
        generals = {g.id: g for g in session.exec(select(General))}
        for general in scenario.generals:
            stored = generals[general.id]
            assert (
                stored.rank,
                stored.command_value,
                stored.tactical_bonus,
                stored.army,
                stored.location,
            ) == (general.rank, general.command_value, general.tactical_bonus, general.army, general.location)
            assert stored.superior == (general.superior or None)
        units = {u.id: u for u in session.exec(select(Unit))}
        for unit in scenario.units:
            stored = units[unit.id]
            assert (
                stored.kind,
                stored.strength_points,
                stored.cohesion,
                stored.artillery_bonus,
                stored.cavalry_bonus,
                stored.general,
                stored.location,
            ) == (
                unit.kind,
                unit.strength_points,
                unit.cohesion,
                unit.artillery_bonus,
                unit.cavalry_bonus,
                unit.general,
                unit.location,
            )
            assert not (stored.fatigued or stored.entrenched or stored.out_of_command)
        turns = session.exec(select(Turn).order_by(Turn.number)).all()
        assert [t.date for t in turns] == [scenario.turn_start(n) for n in range(1, scenario.turns + 1)]
        assert overview(store).date == scenario.start_date


def test_a_campaign_can_be_named_and_have_its_dice_typed_in(tmp_path: Path) -> None:
    with create_campaign(
        tmp_path / "c.campaign", load_scenario("spring1813"), dice_mode="entered", name="Club game"
    ) as store:
        assert (store.campaign().name, store.campaign().dice_mode) == ("Club game", "entered")


def test_each_campaign_gets_its_own_seed_unless_given_one(tmp_path: Path) -> None:
    scenario = load_scenario("spring1813")
    seeds = {create_campaign(tmp_path / f"{n}.campaign", scenario).campaign().dice_seed for n in range(3)}
    assert len(seeds) == 3


@pytest.mark.parametrize(
    ("options", "message"), [({"seed": -1}, "dice seed"), ({"dice_mode": "loaded"}, "dice mode")]
)
def test_bad_settings_are_refused_before_any_file_is_made(
    options: dict, message: str, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match=message):
        create_campaign(tmp_path / "c.campaign", load_scenario("spring1813"), **options)
    assert list(tmp_path.iterdir()) == []

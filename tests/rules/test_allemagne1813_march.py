"""Pricing a march by the card's terrain effects and movement tables, line by line."""

from __future__ import annotations

import pytest

from rules.allemagne1813.march import Leg, RiverCrossing, price_leg, price_march
from rules.errors import RulesError

ROAD_3 = Leg("A", "B", "road", 3)
POOR_2 = Leg("B", "C", "poor_road", 2)
FORD = Leg("C", "D", "road", 1, (RiverCrossing("Mulde", "minor", "ford"),))
BRIDGE = Leg("C", "D", "road", 1, (RiverCrossing("Mulde", "minor", "bridge"),))
ELBE_FORD = Leg("Riesa", "Grossenhain", "poor_road", 3, (RiverCrossing("Elbe", "major", "ford"),))


def test_a_road_costs_1_mp_a_hex_and_a_poor_road_2() -> None:
    # teRRain effectS, Clear: ROaD 1 MP, POOR ROaD 2 MP.
    assert price_leg(ROAD_3, "clear").mp == 3
    assert price_leg(POOR_2, "clear").mp == 4
    assert "Terrain effects by weather, Clear, Road: '1 MP'" == price_leg(ROAD_3, "clear").charges[0].cited


@pytest.mark.parametrize(("weather", "extra"), [("clear", 0), ("rain", 1), ("mud", 1), ("snow", 0)])
def test_a_minor_river_without_a_bridge_costs_1_more_in_rain_and_mud(weather: str, extra: int) -> None:
    # MiNOR RiveR: Clear No Effect, Rain +1, Mud +1, Snow No Effect; bRiDge: No Effect.
    assert price_leg(FORD, weather).mp == 1 + extra
    assert price_leg(BRIDGE, weather).mp == 1


def test_a_major_river_is_crossed_only_by_a_bridge_or_a_pontoon() -> None:
    blocked = price_leg(ELBE_FORD, "clear").blocked
    assert blocked is not None and "Elbe" in blocked and "Can be crossed only by a bridge or a pontoon" in blocked
    pontoon = Leg("Riesa", "Grossenhain", "poor_road", 3, (RiverCrossing("Elbe", "major", "ford", pontoon=True),))
    assert price_leg(pontoon, "clear").blocked is None and price_leg(pontoon, "clear").mp == 6


def test_mud_leaves_each_type_its_own_mp() -> None:
    # movement table 8/8/6/6, Mud -1 infantry, -2 cavalry, -3 reserve artillery; generals -2
    # by the option mud_general_mp (terrain table). Route 3 hexes of road + 2 of poor road (4) + 1 of road with the
    # Mulde forded (+1 in Mud) = 3 + 4 + 1 + 1 = 9 MP.
    price = price_march([ROAD_3, POOR_2, FORD], "mud", {"general": False, "cavalry": False, "infantry": False, "artillery": False})
    assert price.mp == 9
    assert {u.unit: u.points.total for u in price.units} == {"general": 6, "cavalry": 6, "infantry": 5, "artillery": 3}
    assert not price.allowed
    assert price.refusal() == "the march costs 9 MP and reserve artillery have 3 MP in Mud"


def test_the_same_route_costs_more_in_mud_than_in_clear() -> None:
    clear = price_march([ROAD_3, FORD], "clear", {"infantry": False})
    mud = price_march([ROAD_3, FORD], "mud", {"infantry": False})
    assert (clear.mp, mud.mp) == (4, 5)
    assert clear.allowed and mud.allowed  # infantry: 6 MP in Clear, 5 in Mud


def test_out_of_command_takes_1_mp() -> None:
    price = price_march([ROAD_3, Leg("B", "C", "road", 3)], "clear", {"infantry": True})
    assert price.units[0].points.total == 5 and not price.allowed
    assert "out of command -1" in price.units[0].cited


def test_a_blocked_route_is_refused_with_the_river() -> None:
    price = price_march([ELBE_FORD], "clear", {"infantry": False})
    assert not price.allowed and "Elbe" in (price.refusal() or "")


def test_nonsense_is_refused() -> None:
    with pytest.raises(RulesError):
        price_leg(Leg("A", "B", "track", 1), "clear")
    with pytest.raises(RulesError):
        price_march([ROAD_3], "clear", {"dragoons": False})

"""Routes on the road network of the gazetteer, priced by the card (networkx finds the cheapest).

An edge's weight is the MP its road costs in the turn's weather
(rules.allemagne1813.march); a road that crosses a major river without a bridge
has no weight, so the route goes round by a bridge. When the road round costs
more than the blocked one would have, the route says so: that is the reason a
march can be refused.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache

import networkx as nx

from campaigns.errors import CampaignError
from campaigns.gazetteer import Road, distance_km, gazetteer
from rules.allemagne1813.march import Leg, RiverCrossing, leg_mp, price_leg


class EnemyHeld(CampaignError):
    """Every road there passes a place the enemy holds (option enemy_held_place); the umpire may override."""


@dataclass(frozen=True)
class Route:
    places: tuple[str, ...]
    legs: tuple[Leg, ...]
    mp: int
    # The cheaper road the route could not take, and why (a major river without a bridge).
    shorter_blocked: str | None = None
    shorter_mp: int | None = None
    # Straight across country (option off_road = as_poor_road): the gazetteer knows no
    # rivers there, so the card's river costs are not charged and the umpire rules on them.
    off_road: bool = False

    def describe(self) -> str:
        return " - ".join(self.places)


def hex_km(options: Mapping[str, str]) -> float:
    return float(options["hex_size_km"])


def as_leg(road: Road, start: str, km_per_hex: float, pontoons: Collection[str] = ()) -> Leg:
    """A road walked from `start`, as the card's pricing reads it."""
    crossings = tuple(
        RiverCrossing(c.river, c.size, c.by, pontoon=c.by == "ford" and f"{c.river}@{road.a}-{road.b}" in pontoons)
        for c in road.crossings
    )
    return Leg(start, road.other(start), road.kind, road.hexes(km_per_hex), crossings)


@cache
def road_graph() -> nx.Graph:
    g = gazetteer()
    graph = nx.Graph()
    graph.add_nodes_from(g.places)
    for road in g.roads:
        graph.add_edge(road.a, road.b, road=road)
    return graph


def _path_legs(graph: nx.Graph, path: list[str], km_per_hex: float, pontoons: Collection[str]) -> tuple[Leg, ...]:
    return tuple(as_leg(graph.edges[a, b]["road"], a, km_per_hex, pontoons) for a, b in zip(path, path[1:]))


def find_route(
    start: str,
    end: str,
    weather: str,
    options: Mapping[str, str],
    pontoons: Collection[str] = (),
    avoid: Collection[str] = (),
) -> Route:
    """The cheapest route in MP from one place to another in this weather, passing through
    none of `avoid` (the places the enemy holds, option enemy_held_place; the route may
    end at one).

    Raises CampaignError (one sentence) when no road leads there.
    """
    g = gazetteer()
    start, end = g.place(start).name, g.place(end).name
    if start == end:
        return Route((start,), (), 0)
    graph = road_graph()
    km_per_hex = hex_km(options)
    blocked = set(avoid) - {start, end}

    def passable(a: str, b: str, data: dict) -> int | None:
        if a in blocked or b in blocked:
            return None
        return leg_mp(as_leg(data["road"], a, km_per_hex, pontoons), weather)

    def any_road(a: str, b: str, data: dict) -> int | None:
        if a in blocked or b in blocked:
            return None
        return price_leg(as_leg(data["road"], a, km_per_hex, ()), "clear").mp

    route: Route | None = None
    try:
        path = nx.shortest_path(graph, start, end, weight=passable)
        legs = _path_legs(graph, path, km_per_hex, pontoons)
        route = Route(tuple(path), legs, sum(leg_mp(leg, weather) or 0 for leg in legs))
    except nx.NetworkXNoPath:
        pass
    if options.get("off_road") == "as_poor_road":
        straight = max(1, round(distance_km(g.places[start], g.places[end]) / km_per_hex))
        leg = Leg(start, end, "poor_road", straight)
        mp = leg_mp(leg, weather) or 0
        if route is None or mp < route.mp:
            route = Route((start, end), (leg,), mp, off_road=True)
    # The road the rivers forbid: priced as if every river had a bridge.
    try:
        direct = nx.shortest_path(graph, start, end, weight=any_road)
    except nx.NetworkXNoPath:
        direct = None
    blocked_reason, blocked_mp = None, None
    if direct is not None:
        direct_legs = _path_legs(graph, direct, km_per_hex, pontoons)
        prices = [price_leg(leg, weather) for leg in direct_legs]
        reason = next((p.blocked for p in prices if p.blocked), None)
        if reason and (route is None or sum(p.mp for p in prices) < route.mp):
            blocked_reason, blocked_mp = reason, sum(p.mp for p in prices)
    if route is None:
        if blocked:  # the road the enemy bars: the route there were the places it holds passable
            try:
                through = nx.shortest_path(
                    graph, start, end, weight=lambda a, b, data: leg_mp(as_leg(data["road"], a, km_per_hex, pontoons), weather)
                )
            except nx.NetworkXNoPath:
                through = []
            held = [p for p in through[1:-1] if p in blocked]
            if held:
                why = f" ({blocked_reason})" if blocked_reason else ""
                raise EnemyHeld(
                    f"every road an army can march from {start} to {end} passes a place the enemy holds{why}: "
                    f"{' - '.join(through)} passes {', '.join(held)}; a move stops at the first one "
                    "(option enemy_held_place), unless the umpire overrides with a reason"
                )
        if blocked_reason:
            raise CampaignError(f"no road leads from {start} to {end} that an army can march: {blocked_reason}")
        raise CampaignError(f"no road leads from {start} to {end}")
    if blocked_reason:
        return Route(route.places, route.legs, route.mp, blocked_reason, blocked_mp, route.off_road)
    return route


def road_distance(start: str, end: str, options: Mapping[str, str], avoid: Collection[str] = ()) -> int | None:
    """MP of the cheapest road route in clear weather that passes none of `avoid`; None if there is none."""
    graph = road_graph()
    km_per_hex = hex_km(options)
    blocked = set(avoid) - {start, end}

    def weight(a: str, b: str, data: dict) -> int | None:
        if a in blocked or b in blocked:
            return None
        return leg_mp(as_leg(data["road"], a, km_per_hex), "clear")

    try:
        return int(nx.shortest_path_length(graph, start, end, weight=weight))
    except nx.NetworkXNoPath:
        return None

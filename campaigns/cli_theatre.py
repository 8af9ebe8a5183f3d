"""The theatre commands of `adjutant`: places, route, activate, move, pontoon, map.

`route` changes nothing; `activate` and `move` are each one undoable action.
Errors are one sentence and exit code 2, as for every command (campaigns/cli.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any, Iterator

from campaigns.errors import CampaignError
from campaigns.text import shown

OK, FAULT = 0, 1


@contextmanager
def _session(args: argparse.Namespace, target: Callable[[argparse.Namespace], Any]) -> Iterator[Any]:
    from campaigns.session import CampaignSession

    session = CampaignSession.open(target(args))
    try:
        yield session
    finally:
        session.close()


def add_commands(commands: Any, command: Callable[..., Any], campaign: Callable[..., None], target: Callable[..., Any]) -> None:
    """Register the theatre's commands on the parser of campaigns/cli.py."""

    def run(function: Callable[[argparse.Namespace, Any], int]) -> Callable[[argparse.Namespace], int]:
        def runner(args: argparse.Namespace) -> int:
            try:
                with _session(args, target) as session:
                    return function(args, session)
            except CampaignError as exc:
                raise ValueError(str(exc)) from None  # the CLI's one sentence, exit 2

        return runner

    places = command(commands, "places", run(_places), "list the places of the theatre with the stacks at each")
    campaign(places)
    places.add_argument("--all", action="store_true", help="every place of the gazetteer, not only those with stacks")
    route = command(commands, "route", run(_route), "price a stack's move to a place, changing nothing")
    campaign(route)
    route.add_argument("stack", metavar="STACK", help="a general's id or name (his stack moves), or SIDE@PLACE")
    route.add_argument("place", metavar="PLACE", help="where to (a place of the gazetteer)")
    route.add_argument("--only", metavar="IDS", help="move only these generals and units of the stack (ids, comma separated)")
    activate = command(commands, "activate", run(_activate), "activate a stack for this turn, paying its command points")
    campaign(activate)
    activate.add_argument("stack", metavar="STACK", help="a general's id or name, or SIDE@PLACE")
    activate.add_argument("--loc", choices=("valid", "cut"), help="the umpire's ruling on the line of communication")
    activate.add_argument("--reason", default="", help="why the umpire rules the LOC so (recorded)")
    move = command(commands, "move", run(_move), "move an activated stack to a place, as one undoable action")
    campaign(move)
    move.add_argument("stack", metavar="STACK", help="a general's id or name, or SIDE@PLACE")
    move.add_argument("place", metavar="PLACE", help="where to (a place of the gazetteer)")
    move.add_argument("--only", metavar="IDS", help="move only these generals and units of the stack (ids, comma separated)")
    move.add_argument("--forced", action="store_true", help="a forced march beyond the MP: every unit rolls on the forced march table")
    pontoon = command(commands, "pontoon", run(_pontoon), "record a pontoon built where a road fords a river (card 6.4)")
    campaign(pontoon)
    pontoon.add_argument("place_a", metavar="PLACE", help="one end of the road")
    pontoon.add_argument("place_b", metavar="PLACE", help="the other end")
    pontoon.add_argument("--river", help="the river, where the road fords more than one")
    pontoon.add_argument("--note", default="", help="who built it, as the series rules require (recorded)")
    picture = command(commands, "map", run(_map), "write the map of the theatre with stacks and battles as SVG")
    campaign(picture)
    picture.add_argument("-o", "--output", metavar="SVG", required=True, help="the .svg file to write")
    picture.add_argument("--turn", type=int, metavar="N", help="the map as turn N ended (default: now)")
    picture.add_argument("--side", metavar="SIDE", help="the map as side SIDE sees it: its stacks, the enemy where sighted")


def _only(args: argparse.Namespace) -> list[str] | None:
    return [i.strip() for i in args.only.split(",") if i.strip()] if args.only else None


def _places(args: argparse.Namespace, session: Any) -> int:
    from campaigns.theatre_map import map_data

    data = map_data(session)
    for place in data.places if args.all else sorted((p for p in data.places if p.stacks), key=lambda p: p.place.name):
        stacks = "; ".join(
            f"{s.side_name}: {', '.join(g.name for g in s.generals) or 'no general'}, {len(s.units)} unit{'' if len(s.units) == 1 else 's'}, {s.strength_points} SP"
            for s in place.stacks
        )
        battle = " [battle]" if place.battle else " [contact]" if place.place.name in data.contacts else ""
        say(f"{place.place.name} ({place.place.kind}){battle}" + (f": {stacks}" if stacks else ""))
    if data.unknown:
        from campaigns.gazetteer import gazetteer

        for name in data.unknown:
            hint = gazetteer().suggest(name)
            maybe = f"; did you mean {', '.join(hint)}?" if hint else ""
            print(f"adjutant: {name!r} is not a place of the gazetteer{maybe}", file=sys.stderr)
        return FAULT
    return OK


def _route(args: argparse.Namespace, session: Any) -> int:
    from campaigns.movement import plan_move

    report = plan_move(session, args.stack, args.place, _only(args))
    for line in report.lines():
        say(line)
    return OK


def _activate(args: argparse.Namespace, session: Any) -> int:
    from campaigns.movement import activate

    ruling = None if args.loc is None else args.loc == "valid"
    say(activate(session, args.stack, ruling, args.reason))
    return OK


def _move(args: argparse.Namespace, session: Any) -> int:
    from campaigns.movement import move

    say(move(session, args.stack, args.place, _only(args), forced=args.forced))
    return OK


def _pontoon(args: argparse.Namespace, session: Any) -> int:
    from campaigns.pontoons import build

    say(build(session, args.place_a, args.place_b, args.river, args.note))
    return OK


def _map(args: argparse.Namespace, session: Any) -> int:
    from campaigns.map_svg import write_svg
    from campaigns.theatre_map import map_data

    if args.side is not None:
        from campaigns.knowledge import side_ids

        if args.side not in side_ids(session):
            raise CampaignError(f"there is no side {args.side!r} (the sides are {', '.join(side_ids(session))})")
    written = write_svg(map_data(session, args.turn, args.side), args.output)
    say(f"Wrote {written}.")
    return OK


def say(line: object) -> None:
    """Print a line that may hold text from a campaign, its control characters stripped."""
    print(shown(line))

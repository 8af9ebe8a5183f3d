"""The theatre commands of `adjutant`: places, route, activate, move, pontoon, map.

`route` changes nothing; `activate` and `move` are each one undoable action.
Errors are one sentence and exit code 2, as for every command (campaigns/cli.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from campaigns.errors import CampaignError
from campaigns.text import shown

OK, FAULT = 0, 1


def _with_session(function: Callable[[argparse.Namespace, Any], int]) -> Callable[[argparse.Namespace], int]:
    """The command run on the campaign named by FILE or --db (tui/cli.py's table names these)."""

    def runner(args: argparse.Namespace) -> int:
        from campaigns.cli import _target
        from campaigns.session import CampaignSession

        try:
            session = CampaignSession.open(_target(args))
            try:
                return function(args, session)
            finally:
                session.close()
        except CampaignError as exc:
            raise ValueError(str(exc)) from None  # the CLI's one sentence, exit 2

    return runner


def _only(args: argparse.Namespace) -> list[str] | None:
    return [i.strip() for i in args.only.split(",") if i.strip()] if args.only else None


def _places(args: argparse.Namespace, session: Any) -> int:
    from campaigns.cli import reading
    from campaigns.theatre_map import map_data

    with reading(session.store):  # a value no sound campaign holds: one sentence
        data = map_data(session)
    for place in data.places if args.all else sorted((p for p in data.places if p.stacks), key=lambda p: p.place.name):
        stacks = "; ".join(
            f"{s.side_name}: {', '.join(g.name for g in s.generals) or 'no general'}, {s.unit_count} unit{'' if s.unit_count == 1 else 's'}, {s.strength_points} SP"
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
    if report.refusal is not None and report.forcible(session.options()):  # as `move` says when it refuses
        say(f"A forced march can carry it: {report.shortfall} MP beyond, each unit rolls on the forced march table "
            "(adjutant move --forced).")
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
    from campaigns.cli import reading

    with reading(session.store):  # a value no sound campaign holds: one sentence
        data = map_data(session, args.turn, args.side)
    written = write_svg(data, args.output)
    say(f"Wrote {written}.")
    return OK


def say(line: object) -> None:
    """Print a line that may hold text from a campaign, its control characters stripped."""
    print(shown(line))


places = _with_session(_places)
route = _with_session(_route)
activate = _with_session(_activate)
move = _with_session(_move)
pontoon = _with_session(_pontoon)
map_svg = _with_session(_map)

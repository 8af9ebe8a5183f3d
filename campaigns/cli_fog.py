"""The fog-of-war commands of `adjutant`: despatch, sight, knows, orders, and dice reveal.

`despatch` writes a side file (or its printed letter); `sight` records what a side
sees in contact or by the umpire's report; `knows` lists what a side knows;
`orders` exports a side file's orders, or imports, lists, applies and refuses them
in the umpire's campaign; `dice reveal` prints the seed and salt at the end, and
`dice verify --seed --salt` checks them against the commitment before replaying.
Errors are one sentence and exit code 2, as for every command (campaigns/cli.py); the
arguments are in the command table, tui/cli.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campaigns.errors import CampaignError
from campaigns.text import shown
from campaigns.words import plural

OK = 0


def say(line: object) -> None:
    print(shown(line))


def _open(args: argparse.Namespace, target: Callable[[argparse.Namespace], Any]) -> Any:
    from campaigns.session import CampaignSession

    return CampaignSession.open(target(args))


def _runner(function: Callable[[argparse.Namespace, Any], int], target: Callable[..., Any]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            session = _open(args, target)
            try:
                return function(args, session)
            finally:
                session.close()
        except CampaignError as exc:
            raise ValueError(str(exc)) from None  # the CLI's one sentence, exit 2

    return run


def _target(args: argparse.Namespace) -> Any:
    from campaigns.cli import _target as target  # the one reading of FILE / --db

    return target(args)


def _orders_target(args: argparse.Namespace) -> Any:
    """`orders FILE -o OUT` names the side file first; the other verbs name it second."""
    args.file = args.words[1] if _verb(args.words) != "export" else args.words[0]
    args.db = None
    return _target(args)


def revealed_seed(store: Any, seed: int | None, salt: str | None) -> int | None:
    """The seed to replay from: None for the stored one, or the revealed one once it matches the commitment."""
    from campaigns.commitment import NO_COMMITMENT, matches

    campaign = store.campaign()
    if seed is None and salt is None:
        if campaign.fog_side is not None:
            raise ValueError("a side file holds no dice seed: give --seed and --salt as the umpire revealed them")
        return None
    if seed is None or salt is None:
        raise ValueError("give both --seed and --salt, as `adjutant dice reveal` printed them")
    if campaign.dice_commitment is None:
        raise ValueError(NO_COMMITMENT)
    if not matches(campaign.dice_commitment, seed, salt):
        raise ValueError("the seed and salt do not match the campaign's dice commitment")
    return seed


def _reveal(args: argparse.Namespace) -> int:
    from campaigns.cli import _target  # the one reading of FILE / --db
    from campaigns.commitment import NO_COMMITMENT
    from models import open_campaign

    with open_campaign(_target(args)) as store:
        campaign = store.campaign()
    if campaign.fog_side is not None:
        raise ValueError("a side file holds no dice seed: the umpire reveals it from the campaign")
    if campaign.dice_commitment is None or campaign.dice_salt is None:
        raise ValueError(NO_COMMITMENT)
    if args.json:
        print(json.dumps({"seed": campaign.dice_seed, "salt": campaign.dice_salt}))
    else:
        say(f"Seed {campaign.dice_seed}, salt {campaign.dice_salt}")
        say(f"Commitment {campaign.dice_commitment}: printf '%s%s' {campaign.dice_seed} {campaign.dice_salt} | sha256sum")
    return OK


def _despatch(args: argparse.Namespace, session: Any) -> int:
    from campaigns.despatch import despatch_session, write_despatch

    out = Path(args.output)
    # A letter goes into a device or a pipe (-o /dev/stdout) as a report does; a file is never replaced.
    if out.exists() and (args.format == "campaign" or out.is_file() or out.is_dir()):
        raise CampaignError(f"{out} already exists; choose another name or remove it first")
    from campaigns.cli import reading

    if args.format == "campaign":
        with reading(session.store):  # a value no sound campaign holds: one sentence
            write_despatch(session, args.side, out, args.turn)
        commitment = session.campaign().dice_commitment or "none (a campaign made before dice commitments)"
        from campaigns.forces import sides

        name = dict(sides(session)).get(args.side, args.side)
        print(shown(f"Wrote {out}: what {name} knows at turn {args.turn or session.campaign().turn}; "
                    f"dice commitment {commitment}."), file=sys.stderr)  # the commitment is the file's text
        return OK
    from campaigns import despatch_report

    from campaigns.output import written_whole

    with reading(session.store), despatch_session(session, args.side, args.turn) as side_file, \
            written_whole(out, newline="\n") as letter:
        despatch_report.write(side_file, args.format, letter.write)  # a chunk at a time: tens of thousands of units
    print(f"Wrote {out} ({args.format}).", file=sys.stderr)
    return OK


def _sight(args: argparse.Namespace, session: Any) -> int:
    from campaigns import knowledge

    if args.contacts:
        for line in knowledge.sight_contacts(session):
            say(line)
        return OK
    if not args.side or not args.at:
        raise CampaignError("give --contacts, or --side and --at for the umpire's report")
    say(knowledge.report(session, args.side, args.at, args.level, args.note))
    return OK


def _knows(args: argparse.Namespace, session: Any) -> int:
    from campaigns.knowledge import describe, known
    from campaigns.player import PlayerSession, as_club_side

    player = as_club_side(session)
    if isinstance(player, PlayerSession) and player.side != args.side:
        # a club side's role reads no other side's sightings: "0 sightings" would be an answer, and wrong
        raise CampaignError(f"this is the {player.side} side's view: it knows its own sightings, not the {args.side} side's")
    knowledge = known(session, args.side, args.turn)
    say(f"{knowledge.side_name} at turn {knowledge.turn}: {len(knowledge.sightings)} sighting{'' if len(knowledge.sightings) == 1 else 's'}")
    for s in knowledge.sightings:
        say(f"  {describe(s)}")
    return OK


def _verb(words: list[str]) -> str:
    return words[0] if words[0] in ("import", "list", "write", "apply", "refuse") and len(words) > 1 else "export"


def _orders(args: argparse.Namespace, session: Any) -> int:
    from campaigns import orders

    words = args.words
    verb = _verb(words)
    if verb == "export":
        if not args.output:
            raise CampaignError("give -o ORDERS.json, the file to write the orders to")
        document = orders.export(session)
        out = Path(args.output)
        out.write_text(json.dumps(document, indent=2, ensure_ascii=True) + "\n", encoding="utf-8")
        print(f"Wrote {out}: {plural(len(document['orders']), 'order')} of {document['side']} for turn {document['turn']}.", file=sys.stderr)  # type: ignore[arg-type]  # export's document: its orders are a list
    elif verb == "import":
        if len(words) != 3:
            raise CampaignError("orders import takes FILE ORDERS.json")
        say(orders.import_orders(session, orders.read(Path(words[2]))))
    elif verb == "list":
        queue = orders.listed(session)
        for order in queue:
            say(orders.describe(order))
        if not queue:
            say("No orders.")
    elif verb == "write":
        from campaigns.player import as_club_side

        if len(words) != 3:
            raise CampaignError("orders write takes FILE KIND (move, forced_march, command_points, reconnaissance, note)")
        # a club's URL with a side's role: the player's orders, straight into the umpires' queue
        say(orders.write(as_club_side(session), words[2], args.stack, args.to, args.text, args.action))
    else:
        if len(words) < 3:
            raise CampaignError(f"orders {verb} takes FILE and an order's number (as `orders list` shows it)")
        number = _order_number(words[2])
        if verb == "apply":
            say(orders.apply(session, number))
        else:
            say(orders.refuse(session, number, " ".join(words[3:])))
    return OK


def _order_number(text: str) -> int:
    """An order's number as typed: digits 0-9 only ("²" and "٣" are digits to str.isdigit), within
    the range of an order's number (rules.numbers.ORDER), which every store holds."""
    from rules.errors import RulesError
    from rules.numbers import ORDER

    try:
        return ORDER.read(text)
    except RulesError as error:
        raise CampaignError(f"{error} (as `orders list` shows it)") from None


despatch = _runner(_despatch, _target)
sight = _runner(_sight, _target)
knows = _runner(_knows, _target)
orders = _runner(_orders, _orders_target)
reveal = _reveal

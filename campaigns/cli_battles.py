"""The battle commands of `adjutant` that the battle screens have as keys: `retreat`
(R on the battles screen) and `result` (t on a battle's screen).

Each is one undoable action. Errors are one sentence and exit code 2, as for every
command (campaigns/cli.py); what the umpire types is checked as the screens' forms
check it, by the same functions.
"""

from __future__ import annotations

import argparse
from typing import Any

from campaigns.cli_theatre import OK, _with_session, say


def _retreat(args: argparse.Namespace, session: Any) -> int:
    from campaigns.aftermath import retreat

    say(retreat(session, args.battle, args.place, args.reason))
    return OK


def _result(args: argparse.Namespace, session: Any) -> int:
    from campaigns import battles
    from campaigns.errors import CampaignError

    tabletop = {"attacker": args.attacker_lost, "defender": args.defender_lost, "winner": args.winner}
    fight = battles.load(session, args.battle)
    if fight.battle is not None:  # fought with the campaign's tables: a roll read off the table
        if args.cell is None or any(v is not None for v in tabletop.values()):
            raise CampaignError(f"battle {args.battle} is fought with the campaign's tables: give the umpire's reading "
                                "of the roll with --cell alone")
        say(battles.record_result(session, args.battle, args.cell))
        return OK
    if args.cell is not None:
        raise CampaignError(f"battle {args.battle} is fought on the tabletop: give --attacker-lost, --defender-lost "
                            "and --winner, not --cell")
    say(battles.record_tabletop(session, args.battle, {k: "" if v is None else v for k, v in tabletop.items()}))
    return OK


retreat = _with_session(_retreat)
result = _with_session(_result)

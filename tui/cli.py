"""The `adjutant` command: the one table of its commands, and the dispatch.

`COMMANDS` is the only list of commands: the parsers, `adjutant --help`'s list
and the dispatch are built from it (rules/commandline.py), and a test runs
`--help` of each.  Adding a command is one entry here: its name, its help, its
arguments and the function that runs it ("module:function", imported only when
it runs, so that `adjutant rules ...` never loads textual or sqlmodel).  Its
`guard` is its layer's: rules.cli.guarded for the rules, campaigns.cli.guarded
for a campaign (one sentence on stderr and exit 2 for every refusal).

Anything else (`adjutant`, `adjutant FILE`, `--db URL`) runs the app (tui/launch.py).
"""

from __future__ import annotations

import sys

from rules.commandline import Arg, Command, arg, dispatch, find, one_of
from rules.numbers import BATTLE, EVENT, SEED, TURN

RULES = "rules.cli:guarded"
CAMPAIGN = "campaigns.cli:guarded"
DESCRIPTION = "Campaign files of Allemagne 1813."


def campaign(where: str = "the .campaign file") -> tuple[Arg, ...]:
    """FILE or --db URL: the campaign a command reads or writes."""
    return (
        arg("file", metavar="FILE", nargs="?", help=where),
        arg("--db", metavar="URL",
            help="a PostgreSQL database instead (postgresql+psycopg://...; or set ADJUTANT_DATABASE_URL)"),
    )


def club_database() -> Arg:
    return arg("--db", metavar="URL", help="the campaign's PostgreSQL database (or set ADJUTANT_DATABASE_URL)")


def rules_axes() -> tuple[Arg, ...]:
    return (arg("ruleset"), arg("table"), arg("axes", nargs="*", metavar="AXIS=VALUE"))


COMMANDS: tuple[Command, ...] = (
    Command("rules", "read the rule sets' tables", guard=RULES, sub=(
        Command("list", "rule sets, where each comes from, their tables and each table's axes", "rules.cli:run_list"),
        Command("show", "a table laid out as on the card, with its notes; 'options' (or nothing) for the named readings",
                "rules.cli:run_show", (arg("ruleset"), arg("table", nargs="?", default="options"))),
        Command("lookup", "the cell as printed", "rules.cli:run_lookup",
                (*rules_axes(), arg("--json", action="store_true", help="print JSON"))),
        Command("odds", "the exact distribution of results for a roll", "rules.cli:run_odds", (
            *rules_axes(),
            arg("--modifier", type=str, default="0", help="added to the roll"),
            arg("--dice", help="dice rolled, when not the table's own (e.g. 2d6)"),
            arg("--beyond", choices=["error", "nearest"], default="error",
                help="a modified roll past the printed rows: an error, or the nearest row"),
            arg("--json", action="store_true", help="print JSON"),
        )),
    )),
    Command("new", "create a campaign from a scenario", "campaigns.cli:_new", (
        arg("scenario", metavar="SCENARIO", help="a scenario id (see `adjutant scenarios`) or a scenario .toml file"),
        *campaign("the new .campaign file"),
        arg("--seed", type=SEED, help="the dice seed (default: a random one)"),
        one_of(arg("--manual-dice", action="store_true", help="the players roll real dice and type them in"),
               arg("--rolled-dice", action="store_true", help="Adjutant rolls the dice from the seed")),
        arg("--name", help="the campaign's name (default: the scenario's title)"),
    ), guard=CAMPAIGN),
    Command("scenarios", "list the scenarios", "campaigns.cli:_scenarios", guard=CAMPAIGN),
    Command("check", "check a campaign's integrity and schema version", "campaigns.cli:_check", campaign(), guard=CAMPAIGN),
    Command("export", "print the whole campaign as JSON", "campaigns.cli:_export", (
        *campaign(),
        arg("--salvage", action="store_true",
            help="read only the rows of a FILE that holds triggers, views or tables Adjutant did not make "
            "(import the result for a clean copy)"),
    ), guard=CAMPAIGN),
    Command("import", "build a new campaign from an export", "campaigns.cli:_import", (
        arg("json", metavar="JSON", help="the export (- for standard input)"), *campaign("the new .campaign file"),
    ), guard=CAMPAIGN),
    Command("log", "print the history and the dice, newest last", "campaigns.cli:_log", (
        *campaign(), arg("--dice-only", action="store_true", help="print only the dice"),
        arg("--full", action="store_true", help="print long values (a tabletop battle's state) whole, not summed up"),
    ), guard=CAMPAIGN),
    Command("dice", "audit the dice", guard=CAMPAIGN, metavar="AUDIT", sub=(
        Command("verify", "replay every rolled die from the campaign's seed, or the revealed one", "campaigns.cli:_verify", (
            *campaign(),
            arg("--seed", type=SEED, help="the seed as `dice reveal` printed it (needed on a side file)"),
            arg("--salt", help="the salt as `dice reveal` printed it"),
        )),
        Command("reveal", "print the dice seed and salt, to check the commitment (at the end of the campaign)",
                "campaigns.cli_fog:reveal", (*campaign(), arg("--json", action="store_true", help='print {"seed": ..., "salt": ...}'))),
    )),
    Command("battles", "print the after-action account of every battle", "campaigns.cli:_battles", (
        *campaign(), arg("--list", action="store_true", help="one line a battle instead of the accounts"),
    ), guard=CAMPAIGN),
    Command("result", "type a battle's result: the umpire's reading of a roll, or the tabletop's (t on its screen)",
            "campaigns.cli_battles:result", (
        *campaign(),
        arg("battle", type=BATTLE, metavar="BATTLE", help="the battle's number (adjutant battles --list)"),
        arg("--cell", metavar="CELL", help="fought with the tables: the umpire's reading of the roll (e.g. 2, 3*, -)"),
        arg("--attacker-lost", metavar="SP", help="fought on the tabletop: the attacker's SP lost"),
        arg("--defender-lost", metavar="SP", help="fought on the tabletop: the defender's SP lost"),
        arg("--winner", metavar="SIDE", help="fought on the tabletop: who held the field, attacker or defender"),
    ), guard=CAMPAIGN),
    Command("retreat", "retreat a battle's loser one road away, as one undoable action (R on the battles screen)",
            "campaigns.cli_battles:retreat", (
        *campaign(),
        arg("battle", type=BATTLE, metavar="BATTLE", help="the battle's number (adjutant battles --list)"),
        arg("place", metavar="PLACE", help="where the loser goes: a place one road from the battle's"),
        arg("--reason", default="", help="why, where the enemy holds that place (recorded)"),
    ), guard=CAMPAIGN),
    Command("options", "show the rules options of the campaign, or change them", "campaigns.cli:_options", (
        *campaign(),
        arg("--set", metavar="OPTION=VALUE", action="append", default=[],
            help="choose a reading for this campaign (repeatable)"),
    ), guard=CAMPAIGN),
    Command("luck", "how lucky each side has been, every die against its exact odds", "campaigns.cli:_luck", (
        *campaign(),
        arg("--side", metavar="S", help="only the rolls that count for this side (its id)"),
        arg("--json", action="store_true", help="print the ledger as JSON"),
    ), guard=CAMPAIGN),
    Command("report", "write the after-action report of the campaign, a turn or a battle", "campaigns.cli:_report", (
        *campaign(),
        one_of(arg("--turn", type=TURN, metavar="N", help="only turn N"),
               arg("--battle", type=BATTLE, metavar="N", help="only battle N (see adjutant battles --list)")),
        arg("--side", metavar="S", help="only what side S knows (needs fog of war: not yet)"),
        arg("--format", choices=("md", "html", "txt"), default="md", help="markdown, HTML with SVG plots, or text"),
        arg("-o", "--output", metavar="OUT", required=True, help="the file to write (- for standard output)"),
    ), guard=CAMPAIGN),
    Command("past", "the campaign as of the end of a turn or just before an event (read-only)", "campaigns.cli:_past", (
        *campaign(),
        one_of(arg("--turn", type=TURN, metavar="N", help="at the end of turn N"),
               arg("--event", type=EVENT, metavar="N", help="just before event #N (see adjutant log)"), required=True),
        arg("--save", metavar="OUT", help="also save that past as a new .campaign file"),
    ), guard=CAMPAIGN),
    Command("places", "list the places of the theatre with the stacks at each", "campaigns.cli_theatre:places", (
        *campaign(), arg("--all", action="store_true", help="every place of the gazetteer, not only those with stacks"),
    ), guard=CAMPAIGN),
    Command("route", "price a stack's move to a place, changing nothing", "campaigns.cli_theatre:route", (
        *campaign(),
        arg("stack", metavar="STACK", help="a general's id or name (his stack moves), or SIDE@PLACE"),
        arg("place", metavar="PLACE", help="where to (a place of the gazetteer)"),
        arg("--only", metavar="IDS", help="move only these generals and units of the stack (ids, comma separated)"),
    ), guard=CAMPAIGN),
    Command("activate", "activate a stack for this turn, paying its command points", "campaigns.cli_theatre:activate", (
        *campaign(),
        arg("stack", metavar="STACK", help="a general's id or name, or SIDE@PLACE"),
        arg("--loc", choices=("valid", "cut"), help="the umpire's ruling on the line of communication"),
        arg("--reason", default="", help="why the umpire rules the LOC so (recorded)"),
    ), guard=CAMPAIGN),
    Command("move", "move an activated stack to a place, as one undoable action", "campaigns.cli_theatre:move", (
        *campaign(),
        arg("stack", metavar="STACK", help="a general's id or name, or SIDE@PLACE"),
        arg("place", metavar="PLACE", help="where to (a place of the gazetteer)"),
        arg("--only", metavar="IDS", help="move only these generals and units of the stack (ids, comma separated)"),
        arg("--forced", action="store_true",
            help="a forced march beyond the MP: every unit rolls on the forced march table"),
    ), guard=CAMPAIGN),
    Command("pontoon", "record a pontoon built where a road fords a river (card 6.4)", "campaigns.cli_theatre:pontoon", (
        *campaign(),
        arg("place_a", metavar="PLACE", help="one end of the road"),
        arg("place_b", metavar="PLACE", help="the other end"),
        arg("--river", help="the river, where the road fords more than one"),
        arg("--note", default="", help="who built it, as the series rules require (recorded)"),
    ), guard=CAMPAIGN),
    Command("map", "write the map of the theatre with stacks and battles as SVG", "campaigns.cli_theatre:map_svg", (
        *campaign(),
        arg("-o", "--output", metavar="SVG", required=True, help="the .svg file to write"),
        arg("--turn", type=TURN, metavar="N", help="the map as turn N ended (default: now)"),
        arg("--side", metavar="SIDE", help="the map as side SIDE sees it: its stacks, the enemy where sighted"),
    ), guard=CAMPAIGN),
    Command("despatch", "write what one side knows as a side file, or as a printed letter", "campaigns.cli_fog:despatch", (
        *campaign(),
        arg("--side", required=True, metavar="SIDE", help="the side's id (french, allies)"),
        arg("--turn", type=TURN, metavar="N", help="as of turn N (default: now)"),
        arg("--format", choices=("campaign", "md", "html"), default="campaign",
            help="a side file (default), or a letter in markdown or HTML"),
        arg("-o", "--output", metavar="OUT", required=True, help="the file to write (it must not exist)"),
    ), guard=CAMPAIGN),
    Command("sight", "record what a side sees: stacks in contact, or the umpire's report", "campaigns.cli_fog:sight", (
        *campaign(),
        arg("--contacts", action="store_true", help="every stack in contact sees the enemy in reach (option contact_reveals)"),
        arg("--side", metavar="SIDE", help="the side the umpire reports to"),
        arg("--at", metavar="PLACE", help="where the enemy stack it learns of stands"),
        arg("--level", type=int, default=1, metavar="N",
            help="what it learns: 1-4 as a reconnaissance result reveals, 0 the note only"),
        arg("--note", default="", help="the umpire's words to the side (recorded)"),
    ), guard=CAMPAIGN),
    Command("knows", "list what a side knows of the enemy (its sightings)", "campaigns.cli_fog:knows", (
        *campaign(),
        arg("--side", required=True, metavar="SIDE"),
        arg("--turn", type=TURN, metavar="N", help="as of turn N (default: now)"),
    ), guard=CAMPAIGN),
    Command("orders", "export a side file's orders; or import, list, write, apply or refuse them", "campaigns.cli_fog:orders", (
        arg("words", nargs="+", metavar="ARGS",
            help="FILE -o ORDERS.json | import FILE ORDERS.json | list FILE | write FILE KIND ... | apply FILE ID "
            "| refuse FILE ID REASON"),
        arg("-o", "--output", metavar="JSON", help="where to write the exported orders"),
        arg("--stack", default="", help="write: the stack (a general's id or name, or SIDE@PLACE)"),
        arg("--to", default="", help="write: the place"),
        arg("--action", default="", help="write: what to spend command points on"),
        arg("--text", default="", help="write: the text to the umpire"),
    ), guard=CAMPAIGN),
    Command("config", "print where the settings file and the log are, and what the settings hold",
            "tui.keymap:config", guard=CAMPAIGN),
    Command("club", "roles for a club's players: each side reads only what it knows", guard=CAMPAIGN, metavar="ACTION", sub=(
        Command("setup", "create or update a role per side and the umpires', with row-level security",
                "campaigns.cli_club:_setup", (
                    club_database(),
                    arg("--json", action="store_true", help="print side -> {role, url} as JSON"),
                    arg("--password-file", metavar="F",
                        help='a TOML file: umpire = "...", french = "..." (otherwise a prompt at a terminal)'),
                )),
        Command("revoke", "remove the club's roles and policies from the campaign", "campaigns.cli_club:_revoke",
                (club_database(),)),
    )),
    Command("serve", "serve the app to web browsers (needs: pip install 'adjutant[web]')", "tui.serve:serve", (
        *campaign(),
        arg("--side", metavar="SIDE", help="serve that side's player view (fog of war)"),
        arg("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)"),
        arg("--port", type=int, default=8000, help="the port (default 8000)"),
        arg("--password-file", metavar="F", help="a file whose first line is the password (or ADJUTANT_SERVE_PASSWORD)"),
    ), guard="tui.serve:guarded"),
)


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the program itself (the installed `adjutant`, python -m tui.cli), not a caller in a process that goes on
        exit_without_collecting()
    args = sys.argv[1:] if argv is None else argv
    if args and find(COMMANDS, args[0]) is not None:
        return dispatch("adjutant", DESCRIPTION, COMMANDS, args)
    from tui.launch import main as app_main

    return app_main(args)


def exit_without_collecting() -> None:
    """At exit, leave out Python's last garbage collection (gc.freeze once everything else at exit
    has run: atexit calls the last registered first).

    Python's finalization walks every object the program made, in case one in a reference cycle
    has a finalizer to run: 0.1-0.2 CPU-s for a command that read a campaign (SQLAlchemy, pydantic
    and the ORM's classes are hundreds of thousands of objects), 0.2-0.3 for one that imported the
    app, paid after the command's work was done. What holds a file or a connection is closed by
    the code that opened it (the campaign's store, the log, the outputs, all written whole before
    this), or by the system with the process; objects no cycle holds are freed as ever. Only the
    program registers it: a test worker calls main() thousands of times and must go on collecting."""
    import atexit
    import gc

    atexit.register(gc.freeze)


if __name__ == "__main__":
    sys.exit(main())

"""The campaign-file commands of `adjutant` (their names, help and arguments are in
the one table of commands, tui/cli.py; the theatre's are in campaigns/cli_theatre.py).

A campaign is named by its FILE, or, for a club's shared campaign, by a database
URL given with --db or in ADJUTANT_DATABASE_URL. Errors end in one sentence on
stderr and exit code 2 (1 when a check or an audit finds a fault).

Everything printed goes through `say` or `_fail`, which strip the control
characters a campaign from someone else may hold (campaigns.text), so a name
or a description can never retitle, clear or drive the terminal.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from contextlib import AbstractContextManager, contextmanager
from typing import IO, TYPE_CHECKING

# Only what every command needs (the refusals `guarded` turns into one sentence). What
# some commands need is imported in the command: the SQLModel classes (models.tables)
# and the set-up, the scenarios, the check, the log's and the export's machinery are
# a tenth of a second and more that `log`, `export`, `config` and the rest would
# otherwise wait for. Each place that reads the tables imports them itself
# (models.table_metadata): a command run in a process of its own has imported nothing.
from campaigns import settings
from campaigns.errors import CampaignError
from campaigns.logfile import start_logging
from campaigns.text import one_line, shown
from models.errors import CampaignFileError, StoreError
from rules.commandline import UsageError
from rules.errors import RulesError

if TYPE_CHECKING:
    from campaigns import luck
    from models.store import CampaignStore
    from models.targets import Target

DATABASE_VARIABLE = "ADJUTANT_DATABASE_URL"
OK, FAULT, BAD_INPUT = 0, 1, 2
SHOWN_MISMATCHES = 20


def guarded(work: Callable[[], int], argv: Sequence[str]) -> int:
    """Run a campaign command (the parse included): every refusal is one sentence on
    stderr and exit 2 (1 when a check or an audit finds a fault)."""
    start_logging(settings.load_environment())
    try:
        return work()
    except UsageError as error:
        return _fail(f"{error} (see adjutant {argv[0] + ' ' if argv else ''}--help)")
    except (StoreError, CampaignError, ValueError) as error:
        # CampaignError: a stored battle the rules now refuse (its set-up, say) is one sentence too
        return _fail(_unreadable(error) or str(error))
    except BrokenPipeError:  # `adjutant export FILE | head`: the reader has had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    except OSError as error:
        return _fail(f"{error.filename or 'a file'}: {error.strerror or error}")
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        if _is_scenario_error(error):
            return _fail(str(error))
        said = _database_said(error) or _unreadable(error)
        if said:
            return _fail(said)
        raise


def _unreadable(error: BaseException) -> str | None:
    """One sentence for a stored value SQLAlchemy could not read as its column's type, in a
    command that reads rows without `reading`: SQLite keeps a number typed into a DATE column
    as a number, and SQLAlchemy's reader of dates takes text only (TypeError), or a day that
    is none (ValueError). Found by the raising frame, SQLAlchemy's result processors; None for
    anything else, which stays what it was."""
    if not isinstance(error, (TypeError, ValueError, OverflowError)):
        return None
    frame = error.__traceback__
    while frame is not None:
        where = frame.tb_frame.f_code.co_filename
        if "sqlalchemy" in where and "processors" in where:
            return (
                f"the campaign is damaged: it holds a value Adjutant cannot read ({type(error).__name__}); "
                "`adjutant check` names the row"
            )
        frame = frame.tb_next
    return None


def _database_said(error: Exception) -> str | None:
    """One sentence for what SQLite said when a read met a file that opened well but is
    damaged further in (a bit flipped deep in a table: the gate read the schema, a command
    reads the rows), or could not be read (locked, the disk): sqlite3's error, bare (the
    log's plain SQL) or wrapped by SQLAlchemy. None for anything else, a mistake of ours
    among them (ProgrammingError, InterfaceError), which stays a traceback."""
    import sqlite3

    cause = getattr(error, "orig", None) if type(error).__module__.startswith("sqlalchemy") else error
    if not isinstance(cause, sqlite3.DatabaseError) or isinstance(cause, sqlite3.ProgrammingError):
        return None
    reason = one_line(str(cause)) or type(cause).__name__
    if isinstance(cause, sqlite3.OperationalError):
        return f"the campaign could not be read: {reason}"
    return (
        f"the campaign is damaged: {reason} (adjutant check names what it can; "
        "adjutant export --salvage saves the rows that can still be read)"
    )


def _is_scenario_error(error: Exception) -> bool:
    """A scenario refused (campaigns.scenario), asked without importing the scenarios for
    the commands that read none: only a command that has imported them can raise one."""
    scenario = sys.modules.get("campaigns.scenario")
    return scenario is not None and isinstance(error, scenario.ScenarioError)


def _fail(message: str, status: int = BAD_INPUT) -> int:
    logging.getLogger("adjutant.cli").info("refused: %s", one_line(message))
    print(f"adjutant: {one_line(message)}", file=sys.stderr)
    return status


def say(line: object) -> None:
    """Print a line that may hold text from a campaign."""
    print(shown(line))


def say_all(lines: Iterable[object]) -> None:
    """Print every line, or, when reading them fails part way, none: a refusal is one
    sentence on stderr, not half a log (campaigns.output); memory stays flat."""
    from campaigns.output import lines_out

    lines_out(lines)


@contextmanager
def reading(store: CampaignStore) -> Iterator[None]:
    """Values no sound campaign holds (a date that is not a date, a list that is not a list)
    end as one sentence: the file is damaged, and `check` names the row."""
    try:
        yield
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError, RulesError) as error:
        # RulesError: a stored value the rules refuse (a roll of "abc" dice)
        raise CampaignFileError(
            f"{store.name} is damaged: it holds a value Adjutant cannot read ({type(error).__name__}); "
            f"`adjutant check` names the row"
        ) from None
    except sqlite3.OperationalError as error:  # rows read straight from sqlite3 (log, export)
        if "decode" not in str(error):
            raise
        raise CampaignFileError(
            f"{store.name} is damaged: it holds a text that is not UTF-8; `adjutant check` names the row"
        ) from None


def _target(args: argparse.Namespace, *, new: bool = False) -> Target:
    from models.targets import SUFFIX  # here: sqlalchemy's URL comes with it, which `config` does without

    if args.file and args.db:
        raise UsageError("give a campaign FILE or --db URL, not both")
    if args.file and "://" in args.file:
        return str(args.file)
    if args.file:
        path = Path(args.file)
        return path.with_name(path.name + SUFFIX) if new and not path.suffix else path
    url = args.db or settings.load_environment().database_url
    if not url:
        # FILE is optional (--db names a database instead), so `move lutzen.campaign ney` reads the
        # file as the STACK and ney as the PLACE: say that an argument is missing, not the file.
        for dest, value in vars(args).items():
            if dest not in ("file", "db") and isinstance(value, str) and (value.endswith(SUFFIX) or Path(value).is_file()):
                raise UsageError(f"{shown(value)!r} was read as {dest.upper()}, not as the campaign FILE: an argument after it is missing")
        raise UsageError(f"name a campaign FILE, or a database with --db URL or {DATABASE_VARIABLE}")
    return str(url)


def _dice_mode(args: argparse.Namespace) -> str:
    """--manual-dice or --rolled-dice, else dice_mode of config.toml (rolled by default)."""
    from rules.dice import ENTERED, ROLLED

    if args.manual_dice or args.rolled_dice:
        return ENTERED if args.manual_dice else ROLLED
    chosen = settings.load()
    for problem in chosen.problems:
        print(f"adjutant: {one_line(problem)}", file=sys.stderr)
    return chosen.dice_mode


def _new(args: argparse.Namespace) -> int:
    from campaigns.scenario import load_scenario
    from campaigns.setup import create_campaign
    from rules.dice import ENTERED

    target = _target(args, new=True)
    scenario = load_scenario(args.scenario)
    with create_campaign(
        target, scenario, seed=args.seed, dice_mode=_dice_mode(args), name=args.name
    ) as store:
        campaign = store.campaign()
        dice = (
            "typed in by the players"
            if campaign.dice_mode == ENTERED
            else f"rolled from seed {campaign.dice_seed}"
        )
        say(
            f"Created {store.name}: {campaign.name}, {len(scenario.units)} units, "
            f"{campaign.turns} turns from {campaign.start_date:%d %B %Y}; dice {dice}."
        )
    return OK


def _scenarios(_args: argparse.Namespace) -> int:
    from campaigns.scenario import ScenarioError, load_scenario, scenario_ids

    status = OK
    for scenario_id in scenario_ids():
        try:
            s = load_scenario(scenario_id)
        except ScenarioError as error:
            status = _fail(str(error))
            continue
        say(
            f"{s.id:<12}  {s.title}: {s.start_date:%d %B %Y}, {s.turns} turns of {s.turn_days} days, "
            f"{len(s.units)} units, {len(s.generals)} generals"
        )
    return status


def _check(args: argparse.Namespace) -> int:
    from models.check import check_campaign

    target = _target(args)
    try:
        report = check_campaign(target)
    except StoreError as error:
        return _fail(str(error), FAULT)
    if not report.sound:
        more = len(report.problems) - 1
        return _fail(report.problems[0] + (f" (and {more} more problems)" if more else ""), FAULT)
    for note in report.notes:
        say(f"{report.name}: {note}")
    say(f"{report.name}: sound (schema {report.revision})")
    return OK


def _export(args: argparse.Namespace) -> int:
    from campaigns.output import Write, all_or_nothing
    from models.exchange import write, write_salvaged
    from models.opening import open_campaign

    target = _target(args)
    if args.salvage and not isinstance(target, Path):
        raise UsageError("--salvage reads a campaign FILE, not a database")

    salvaged = target if isinstance(target, Path) else None  # --salvage on a database was refused above

    def export(out: Write) -> None:
        if args.salvage and salvaged is not None:
            write_salvaged(salvaged, out)
        else:
            with open_campaign(target) as store:
                write(store, out)

    # Printed all or nothing: a damaged row late in the file refuses the export with
    # nothing on standard output, and memory stays flat however long it is.
    all_or_nothing(export, spool_file=True)  # the helper's pieces written straight into it (models.export_split)
    return OK


def _import(args: argparse.Namespace) -> int:
    from models.exchange import LIMIT_BYTES
    from campaigns.userfile import open_regular
    from models.import_stream import import_export, seekable_copy

    source = "standard input" if args.json == "-" else args.json
    opened: AbstractContextManager[IO[bytes]]
    if args.json == "-":
        # A text stream without bytes beneath (a test's, an embedding program's) is read as text.
        stream = getattr(sys.stdin, "buffer", None) or io.BytesIO(sys.stdin.read(LIMIT_BYTES + 1).encode())
        opened = seekable_copy(stream, source)
    else:
        # A FIFO, a device or a directory is refused at once, without waiting on it.
        opened = open_regular(args.json, "an export")
    # Read row by row (models.import_stream): memory stays flat however long the export.
    with opened as exported, import_export(_target(args, new=True), exported, source=source) as store:
        say(f"Imported {source} into {store.name}: {store.campaign().name}.")
    return OK


def _log(args: argparse.Namespace) -> int:
    from campaigns.log import printed_chunks
    from campaigns.output import chunks_out
    from models.opening import open_campaign

    if args.full:
        from campaigns import changes

        changes.WHOLE_VALUES = True  # one command, one process (and the halves it forks)
    with open_campaign(_target(args)) as store, reading(store):
        chunks_out(printed_chunks(store, dice_only=args.dice_only))  # as say_all, a batch of lines at a time
    return OK


def _verify(args: argparse.Namespace) -> int:
    from campaigns.cli_fog import revealed_seed
    from campaigns.dice_audit import audit_dice  # the rolls streamed a batch at a time
    from models.opening import open_campaign

    with open_campaign(_target(args)) as store:
        seed = revealed_seed(store, args.seed, args.salt)  # the commitment checked first (campaigns/cli_fog.py)
        with reading(store):
            audit = audit_dice(store, seed)
    for roll in audit.mismatches[:SHOWN_MISMATCHES]:
        _fail(
            f"dice #{roll.id} ({roll.purpose}, stream {roll.stream_index}) does not match "
            f"a replay from the campaign's seed"
        )
    if len(audit.mismatches) > SHOWN_MISMATCHES:
        _fail(f"... and {len(audit.mismatches) - SHOWN_MISMATCHES} more")
    if audit.mismatches:
        return FAULT
    if seed is not None:
        say("The seed and salt match the campaign's dice commitment.")
    typed = f"; {audit.typed} typed in by the umpire" if audit.typed else ""
    if not audit.rolled:
        say(f"No rolled dice to verify{typed or ': none stored yet'}.")
    else:
        say(f"All {audit.rolled} rolled {'die matches' if audit.rolled == 1 else 'dice match'} the campaign's seed{typed}.")
    return OK


def _options(args: argparse.Namespace) -> int:
    from campaigns.rules_options import choose, describe
    from campaigns.session import CampaignSession
    from models.opening import open_campaign

    pairs = []
    for pair in args.set:
        option, sep, value = pair.partition("=")
        if not sep or not option or not value:
            raise UsageError(f"--set takes OPTION=VALUE (for example battle_rounds=6), not {pair!r}")
        pairs.append((option.strip(), value.strip()))
    session = CampaignSession(open_campaign(_target(args)))
    try:
        for option, value in pairs:
            print(choose(session, option, value))
        if not pairs:
            print(describe(session))
    finally:
        session.close()
    return OK


def _battles(args: argparse.Namespace) -> int:
    from models.opening import open_campaign

    if not args.list:
        from campaigns.account import all_accounts
        from campaigns.session import CampaignSession

        session = CampaignSession(open_campaign(_target(args)))
        try:
            with reading(session.store):
                say_all(all_accounts(session))
        finally:
            session.close()
        return OK
    from sqlalchemy import text

    # Plain rows, not the SQLModel classes: the list needs none of their machinery (models.tables).
    listed = text("SELECT id, turn, location, status, result, resolver FROM battle ORDER BY id")
    with open_campaign(_target(args)) as store, reading(store), store.connect() as db:
        battles = db.execute(listed).all()
        say_all(
            f"#{battle.id}  turn {battle.turn}  {one_line(battle.location)}  {battle.status}"
            f"{': ' + battle.result if battle.result else ''}  ({battle.resolver})"
            for battle in battles
        )
    if not battles:
        say("No battles yet.")
    return OK


def _luck(args: argparse.Namespace) -> int:
    from campaigns import luck
    from campaigns.output import all_or_nothing
    from campaigns.session import CampaignSession
    from models.opening import open_campaign

    session = CampaignSession(open_campaign(_target(args)))
    try:
        # The totals and each turn's first; every roll is read as it is printed (luck.each_roll),
        # all or nothing (campaigns.output): memory stays flat however many rolls there are.
        with reading(session.store):
            book = luck.ledger(session, args.side, latest=0)
            rolls = luck.each_roll(session, args.side)
            all_or_nothing(lambda write: (_luck_json if args.json else _luck_text)(book, rolls, write))
    except CampaignError as error:
        return _fail(str(error))
    finally:
        session.close()
    return OK


def _luck_text(book: luck.Ledger, rolls: Iterable[luck.RollLuck], write: Callable[[bytes], object]) -> None:
    from campaigns import luck
    from campaigns.printable import printable

    lines = [*luck.lines(book)]  # the totals and each turn's: `book` lists no roll
    for roll in rolls:
        lines.append(luck.roll_line(roll))
        if len(lines) >= LINES:
            write(("\n".join(map(printable, lines)) + "\n").encode())
            lines = []
    if lines:
        write(("\n".join(map(printable, lines)) + "\n").encode())


def _luck_json(book: luck.Ledger, rolls: Iterable[luck.RollLuck], write: Callable[[bytes], object]) -> None:
    """`json.dumps(luck.as_json(book), indent=2, ensure_ascii=True)` of the ledger with every
    roll, a roll at a time (JSON escapes every control character itself)."""
    import json

    from campaigns import luck
    from campaigns.output import indented_json

    whole = luck.as_json(book)
    some = iter(rolls)
    first = next(some, None)
    if first is None:
        write((json.dumps(whole, indent=2, ensure_ascii=True) + "\n").encode())
        return
    whole["rolls"] = [0]  # where the rolls go: the one number in the page alone on its line
    head, tail = json.dumps(whole, indent=2, ensure_ascii=True).split("\n    0\n", 1)
    pieces = [head, "\n    ", indented_json(luck.roll_data(first), 2)]
    for roll in some:
        pieces += [",\n    ", indented_json(luck.roll_data(roll), 2)]
        if len(pieces) >= LINES:
            write("".join(pieces).encode())
            pieces = []
    pieces += ["\n", tail, "\n"]
    write("".join(pieces).encode())


LINES = 2000  # lines (or rolls) written at a time


def _report(args: argparse.Namespace) -> int:
    from campaigns import report
    from campaigns.output import all_or_nothing, written_whole
    from campaigns.session import CampaignSession
    from models.opening import open_campaign

    if args.side is not None:
        return _fail("a report shows all the umpire knows: for what one side knows, write its despatch (adjutant despatch FILE --side S --format md -o OUT)")
    target = _target(args)
    out = None if args.output == "-" else Path(args.output)
    if out is not None and isinstance(target, Path) and out.resolve() == target.resolve():
        return _fail(f"{out} is the campaign itself: write the report to another file")
    session = CampaignSession(open_campaign(target))
    try:
        # Written as it is read (report.write): memory stays flat however long the campaign.
        with reading(session.store):
            made = report.build(session, turn=args.turn, battle=args.battle)
            if out is None:  # all or nothing (campaigns.output), as `log` and `export`
                all_or_nothing(lambda write: report.write(made, args.format, lambda text: write(text.encode())))
            else:
                # Written beside the target and renamed over it: a report cut short never replaces a good one.
                with written_whole(out) as file:
                    report.write(made, args.format, file.write)
        if out is not None:
            print(f"Wrote {out} ({args.format}).", file=sys.stderr)
    except CampaignError as error:
        return _fail(str(error))
    finally:
        session.close()
    return OK


def _past(args: argparse.Namespace) -> int:
    from sqlalchemy import select as select_rows

    from campaigns import past
    from campaigns.errors import CampaignError
    from campaigns.phases import phase
    from campaigns.printable import printable
    from campaigns.session import CampaignSession
    from models import General, open_campaign, save_as

    if args.save and Path(args.save).exists():
        return _fail(f"{args.save} already exists; save the past under a new name")
    session = CampaignSession(open_campaign(_target(args)))
    try:
        view = past.open_past(session, past.moment(session, turn=args.turn, event=args.event))
    except CampaignError as error:
        return _fail(str(error))
    finally:
        session.close()
    try:
        glance = view.overview()
        print(printable(f"As of {view.moment.label}: {glance.date:%d %B %Y}, weather {glance.weather or 'not rolled'}; "
                        f"turn {glance.turn}, phase {phase(glance.phase).name}."))
        for side in glance.sides:
            print(printable(f"{side.name}: {side.strength_points} SP in {side.units} units"))
        with view.store.read() as db:
            for general in db.scalars(select_rows(General).order_by(General.name)):
                print(printable(f"  {general.name}: {general.location or 'no location'}"))
        if args.save:
            saved = save_as(view.store, Path(args.save))
            print(f"Saved {saved}.", file=sys.stderr)
    finally:
        view.close()
    return OK

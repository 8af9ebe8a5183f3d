"""`adjutant [FILE] [--db URL] [--side SIDE]`: open a campaign (or none) and run the app.

With --side, the player view of that side (campaigns.player.open_side): on a
club's PostgreSQL campaign connected as the side's role, or on its side file."""

from __future__ import annotations

import gc
import logging
import os
import sys
import threading

from rules.commandline import Parser, UsageError, names


def epilog() -> str:
    """The commands, every one of tui/cli.py's table."""
    from tui.cli import COMMANDS

    return f"Commands: {', '.join(names(COMMANDS))} (adjutant COMMAND --help)."


def main(argv: list[str]) -> int:
    parser = Parser(prog="adjutant", description="Run the 1813 campaign from the keyboard.", epilog=epilog())
    parser.add_argument("file", nargs="?", help="a campaign file (.campaign) to open")
    parser.add_argument("--db", help="a database URL such as postgresql+psycopg://... (or ADJUTANT_DATABASE_URL)")
    parser.add_argument(
        "--side", metavar="SIDE", help="open SIDE's player view: a club's campaign as that side's role (adjutant club setup), or its side file"
    )
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:  # one line and exit 2, as every other command
        print(f"adjutant: {exc} (adjutant --help lists the commands)", file=sys.stderr)
        return 2
    from campaigns.logfile import start_logging
    from campaigns.settings import load

    settings = load()
    start_logging(settings)
    target = args.db or args.file or settings.database_url
    if args.side is not None and not target:
        print("adjutant: --side needs the campaign: --db URL (the side's URL from adjutant club setup) or a side file", file=sys.stderr)
        return 2

    # Importing textual, sqlalchemy and the campaign makes hundreds of thousands
    # of objects and no garbage worth collecting: without the collector running
    # over them again and again (40-50 ms), the first screen comes sooner. What
    # the imports made is then frozen out of later collections.
    gc.disable()
    try:
        return _run(target, settings, args.side)
    finally:
        gc.enable()


def _run(target: str | None, settings, side: str | None = None) -> int:
    from campaigns.errors import CampaignError
    from campaigns.session import CampaignSession
    from campaigns.text import one_line
    from tui.keymap import check_settings

    log = logging.getLogger("adjutant.launch")
    check_settings(settings)
    for problem in settings.problems:  # a bad setting is named, and its default used
        log.warning("%s", problem)
        print(one_line(f"adjutant: {problem}"), file=sys.stderr)
    session = None
    if target:
        try:
            if side is None:
                session = CampaignSession.open(target)
            else:
                from campaigns.player import open_side

                session = open_side(target, side)
        except CampaignError as exc:
            log.info("refused: %s", exc)
            print(f"adjutant: {exc}", file=sys.stderr)
            return 2
        if side is None or "://" not in target:  # a club's side is its role's URL with --side: not one to reopen plainly
            from campaigns.settings import remember

            remember(target)  # offered by the start screen next time, as a file opened there is
    if not keys_from_a_terminal():
        # Without a terminal (`ssh HOST COMMAND` to a login whose ForceCommand is adjutant, a pipe,
        # cron) Textual's driver read an ended standard input again and again: 40-70% of a core
        # for as long as nobody killed it, long after the connection was gone.
        if session is not None:
            session.close()
        print(
            "adjutant: the app reads its keys from a terminal, and standard input is not one "
            "(log in with one: ssh -t; the commands work without: adjutant --help)",
            file=sys.stderr,
        )
        return 2
    reader = None
    if session is not None:
        # The first screen's data (the overview: sums over every unit) is read by SQLite,
        # which does not hold Python's lock, in a thread while this one imports the app
        # and builds it: 50-60 ms of a start-up on 50,000 units, on the other core. The
        # session keeps what it read until the campaign changes.
        reader = threading.Thread(target=_read_ahead, args=(session,), name="adjutant-overview", daemon=True)
        reader.start()
    from tui.app import AdjutantApp, calm_collector

    app = AdjutantApp(session, settings=settings)
    if reader is not None:
        # The first screen's module (its table widget, its words) is imported while the
        # reader is still at work on a large campaign, rather than after the terminal is
        # taken, between it and the first frame.
        import tui.screens.overview  # noqa: F401

        reader.join()
    calm_collector()
    gc.enable()
    app.run()
    if app.failure:  # after the terminal is restored, as one line (Rich would wrap it)
        print(app.failure, file=sys.stderr)
    return app.return_code or 0


def keys_from_a_terminal() -> bool:
    """Whether the app has keys to read: standard input is a terminal, or Textual is told which
    driver to use instead (textual-serve's web driver for `adjutant serve`, with pipes)."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return True
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):  # closed
        return False


def _read_ahead(session) -> None:
    try:
        session.overview()
    except Exception:  # noqa: BLE001  (the first screen reads it again on the UI thread, and says what went wrong)
        pass

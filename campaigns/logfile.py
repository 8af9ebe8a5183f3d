"""The log for bug reports: every logger of the process into one rotating file
in the user's log folder (ADJUTANT_LOG_DIR moves it), and nothing on the terminal."""

from __future__ import annotations

import logging
import logging.handlers

from campaigns.settings import Settings

MAX_BYTES = 1_000_000
BACKUPS = 3  # adjutant.log.1 .. .3: a few sessions back, a few MB at most
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class SharedLog(logging.handlers.RotatingFileHandler):
    """The rotating file, shared by every `adjutant` of the user at once (two umpires, a
    club's sessions, a command beside the app): one may rotate the files while another
    does, and its rename or remove then finds a file gone. A record that cannot be written
    is dropped; Python's handler would print "--- Logging error ---" and a traceback on
    the terminal (found by a suite run with three workers, an import's refusal). The next
    record opens the file again."""

    def handleError(self, record: logging.LogRecord) -> None:
        return None


def start_logging(settings: Settings) -> None:
    """Send every logger's records at INFO and above to the log file, and none to the
    terminal: the root logger gets the file (or, when it cannot be opened, nothing at
    all), so Python's last-resort stderr handler never runs; warnings go to the log too."""
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "adjutant", False):
            root.removeHandler(old)
            old.close()
    handler: logging.Handler
    try:
        settings.log_dir.mkdir(parents=True, exist_ok=True)
        handler = SharedLog(
            settings.log_path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
        )
        handler.setFormatter(logging.Formatter(FORMAT))
    except OSError:
        handler = logging.NullHandler()  # no log is better than an app that will not start
    handler.adjutant = True  # type: ignore[union-attr]  # our mark on a stdlib handler, looked for above
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)  # a line per plugin, every start
    logging.captureWarnings(True)

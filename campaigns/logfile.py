"""The log for bug reports: every logger of the process into one rotating file
in the user's log folder (ADJUTANT_LOG_DIR moves it), and nothing on the terminal."""

from __future__ import annotations

import logging
import logging.handlers

from campaigns.settings import Settings

MAX_BYTES = 1_000_000
BACKUPS = 3  # adjutant.log.1 .. .3: a few sessions back, a few MB at most
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


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
        handler = logging.handlers.RotatingFileHandler(
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

"""The log for bug reports: every logger of the process into one rotating file
in the user's log folder (ADJUTANT_LOG_DIR moves it), and nothing on the terminal."""

from __future__ import annotations

import logging
import logging.handlers
import re

from campaigns.settings import Settings
from campaigns.text import BIDI_CONTROLS, CONTROLS

MAX_BYTES = 1_000_000
BACKUPS = 3  # adjutant.log.1 .. .3: a few sessions back, a few MB at most
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


_UNSAFE = re.compile(f"[{CONTROLS}{BIDI_CONTROLS}]")


def _written(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str) -> str:
    """`text` with every control and bidirectional character written out (ESC as \\x1b):
    a name from a campaign file may hold anything, and the log is read in a terminal
    (`less`, `cat`) and pasted into bug reports."""
    return _UNSAFE.sub(_written, text)


class PlainFormatter(logging.Formatter):
    """Records whose text cannot act on the terminal that shows the log: control characters
    written out, a message's further lines indented, and no further line of a record
    (a traceback's either) begun as a record is (its date): a name with a line break in it
    never reads as a record of its own."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = inert(record.message).replace("\n", "\n    ")
        return super().formatMessage(record)

    def format(self, record: logging.LogRecord) -> str:
        # The traceback as another handler may have cached it (record.exc_text): made inert here.
        return _RECORD_LIKE.sub("\n    ", inert(super().format(record)))


_RECORD_LIKE = re.compile(r"\n(?=\d)")  # no line of a traceback begins with a digit; a record does


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
        handler.setFormatter(PlainFormatter(FORMAT))
    except OSError:
        handler = logging.NullHandler()  # no log is better than an app that will not start
    handler.adjutant = True  # type: ignore[union-attr]  # our mark on a stdlib handler, looked for above
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)  # a line per plugin, every start
    logging.captureWarnings(True)

"""The campaign's history as readable lines, and the audit of its dice.

#3  2026-11-22 14:02:11  action  Weather for turn 1
      dice #1: weather 2d6 = 4 1 +1 (May) = 6  [rolled, stream 0, umpire]
"""

from __future__ import annotations

import gc
import os
import pickle
import re
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import ExitStack, closing, contextmanager
from datetime import datetime
from itertools import chain
from operator import itemgetter
from types import SimpleNamespace
from typing import IO, TYPE_CHECKING, Any

import orjson

from campaigns.words import column
from campaigns.errors import CampaignError
from campaigns.changes import Names, _plain_label, _show, change_lines, inserted_dice, load, update_line
from campaigns.replays import replay_marks
from models.journal import REDO, REPLAYS, UNDO, target
from rules.dice import ROLLED

if TYPE_CHECKING:  # the SQLModel classes (models.tables, 90 ms and more): the history screen reads without them
    from sqlalchemy import Connection

    from models import CampaignStore

DICE_COLUMNS = 'id, event, purpose, dice, raw, modifiers, result, mode, stream_index, "by", "when"'
# Read as plain rows (the database driver's own values): see `_plain_batches`.
LOOSE_DICE = f"SELECT {DICE_COLUMNS} FROM dice_roll WHERE event IS NULL ORDER BY id"
# An event's rolls are shown without their moment: none is read.
EVENT_DICE = (
    "SELECT id, event, purpose, dice, raw, modifiers, result, mode, stream_index, \"by\", NULL"
    " FROM dice_roll WHERE event IS NOT NULL ORDER BY event, id"
)
ALL_DICE = f"SELECT {DICE_COLUMNS} FROM dice_roll ORDER BY id"
EVENTS = 'SELECT id, "when", kind, description, changes, undone FROM event ORDER BY id'
# The two halves of a long history (`log_chunks`, halves): the older events and their rolls
# here, the newer in a second process. A roll whose event is a text or a blob (a damaged
# file) sorts after every number in SQLite as in EVENT_DICE: it goes with the newer half.
EVENTS_UPTO = 'SELECT id, "when", kind, description, changes, undone FROM event WHERE id <= ? ORDER BY id'
EVENTS_AFTER = 'SELECT id, "when", kind, description, changes, undone FROM event WHERE id > ? ORDER BY id'
EVENT_DICE_UPTO = EVENT_DICE.replace("WHERE event IS NOT NULL", "WHERE event IS NOT NULL AND event <= ?")
EVENT_DICE_AFTER = EVENT_DICE.replace("WHERE event IS NOT NULL", "WHERE event IS NOT NULL AND event > ?")
# The older half's events that may name a row (a "name" key, or one of its letters written
# as an escape): what a change shows of a named row's name is the name the changes before
# it left (`Names.remember`), so the second process reads these first (`_newer_half`).
NAMING_EVENTS = (
    'SELECT id, "when", kind, description, changes, undone FROM event WHERE id <= ?'
    " AND (instr(changes, 'name') OR changes GLOB '*\\u006[15deDE]*') ORDER BY id"
)
HALVES_FROM = 200_000  # events from which the newer half goes to a second process (its start costs ~0.1 s)
INDENT = "      "
BATCH = 200  # rows read at a time: the memory the log holds, however long the history
# How SQLAlchemy stores a moment in SQLite: UTC, without its offset.
STORED_MOMENT = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}", re.ASCII)
# A stored moment's shape, its digits written 0: each moment of a batch is checked by one
# comparison of the batch (`_shown_times`).
_SHAPE = "0000-00-00 00:00:00.000000"
_ZEROS = str.maketrans("123456789", "000000000")
# The day and hour of a moment, its first 13 characters, real when the day is a real day of
# the Gregorian calendar (years 1-9999, as `date.fromisoformat` reads them) and the hour 00-23.
_LEAP_YEAR = r"[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00"
_REAL_DAY = re.compile(
    r"(?!0000)[0-9]{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)"
    rf"|(?:{_LEAP_YEAR})-02-29"
)
_DAY_HOUR = itemgetter(slice(0, 13))
_TO_THE_SECOND = itemgetter(slice(0, 19))
_REAL_HOURS: dict[str, bool] = {}  # a moment's day and hour -> whether it is real
_SHAPES: dict[int, str] = {}  # a batch's number of moments -> their shape


def log_lines(store: CampaignStore, *, dice_only: bool = False) -> Iterator[str]:
    """The events, oldest first, each with what it changed and the dice its action rolled.

    Rows are read with plain SQL and streamed, so memory does not grow with the
    length of the history; only names and the undo and redo marks are held."""
    for lines in log_chunks(store, dice_only=dice_only):
        yield from "\n".join(lines).split("\n")


def log_chunks(store: CampaignStore, *, dice_only: bool = False) -> Iterator[list[str]]:
    """The lines of `log_lines`, a batch of rows' lines at a time (for printing a million
    events without a step per line); an event's lines may come joined in one text."""
    return _chunks(store, dice_only=dice_only, halves=False)  # type: ignore[return-value]  # lists alone without halves


def printed_chunks(store: CampaignStore, *, dice_only: bool = False) -> Iterator[list[str] | IO[bytes]]:
    """`log_chunks` for `adjutant log` (campaigns.output.chunks_out): on a long history in a
    file, the newer half of the events is written by a second process while this one writes
    the older (the machine's second core); its text comes last, as a file of the bytes
    `campaigns.output` writes of lines (`_encoded`)."""
    return _chunks(store, dice_only=dice_only, halves=True)


def _chunks(store: CampaignStore, *, dice_only: bool, halves: bool) -> Iterator[list[str] | IO[bytes]]:
    with store.connect() as db, ExitStack() as reading:
        if gc.isenabled():  # rows hold no cycles: the collector paused, as models.exchange.no_collection does
            gc.disable()
            reading.callback(gc.enable)
        plain = _plain_batches(db)

        def batches(sql: str, parameters: tuple[Any, ...] = ()) -> Iterator[Any]:
            # closed before the connection is, even when a damaged row ends the log early
            return reading.enter_context(closing(plain(sql, parameters)))

        if dice_only:
            for rolls in batches(ALL_DICE):
                yield [_dice_text(roll, with_time=True) for roll in rolls]
            return
        for rolls in batches(LOOSE_DICE):
            yield [_dice_text(roll, with_time=True) for roll in rolls]
        marks = replay_marks(db)
        names = Names(db, preload=True)
        split = _split(db) if halves and db.dialect.name == "sqlite" else None
        if split is None:
            yield from _event_chunks(batches(EVENTS), chain.from_iterable(batches(EVENT_DICE)), marks, names)
            return
        # Forked here: this process's read transaction has begun (models.engine: BEGIN), and
        # until it ends no umpire can commit, so the second reads the very same rows.
        newer = reading.enter_context(_newer_half(store, split, marks, names))
        if newer is None:  # no second process to be had: this one writes it all
            yield from _event_chunks(batches(EVENTS), chain.from_iterable(batches(EVENT_DICE)), marks, names)
            return
        yield from _event_chunks(
            batches(EVENTS_UPTO, (split,)), chain.from_iterable(batches(EVENT_DICE_UPTO, (split,))), marks, names
        )
        yield newer()


def _event_chunks(
    events: Iterable[Sequence[Any]], dice: Iterator[Any], marks: dict[int, list[str]], names: Names
) -> Iterator[list[str]]:
    """The lines of the events, a batch at a time, each followed by its dice (`dice`, the rows
    of EVENT_DICE in its order: those of events not read here are passed over)."""
    by_table = names.by_table
    roll: Any = next(dice, None)
    due = _NEVER if roll is None else roll[1]  # the event of the next roll
    shown_fields: dict[str, str] = {}  # a pair of values as _ONE_UPDATE matched it, shown
    event_lines = _EventLines(marks, names, shown_fields)
    for batch in events:
        # Read a batch at a time where one call does a column: the moments, the changes.
        numbers, whens, kinds, descriptions, stored_changes, undone_flags = zip(*batch, strict=True)
        times, updates = _shown_times(whens), _one_updates(stored_changes, kinds, undone_flags)
        lines: list[str] = []
        add = lines.append
        kind = kinds[0]
        if (
            times[0] is not None  # every moment read at once
            and type(kind) is str
            and kinds.count(kind) == len(kinds)
            and not any(undone_flags)
            and marks.keys().isdisjoint(numbers)
        ):
            # The batch as almost every batch is: actions of one kind, none undone, redone or
            # undone: an event whose one change _ONE_UPDATE matched is one text, its lines
            # joined (`update_line` of its change, its stream position before); any other
            # goes the way of every event.
            shown_kind = f"{kind:<6}"
            for number, shown, description, stored, update in zip(
                numbers, times, descriptions, stored_changes, updates, strict=True
            ):
                if update is not None:
                    stream, table, ident, pair = update.group(1, 3, 4, 5)
                    fields = shown_fields.get(pair)
                    if fields is None:
                        fields = _plain_fields("unit", *update.group(6, 7, 8))  # the same label for each named table
                        if len(shown_fields) < KEPT_FIELDS:
                            shown_fields[pair] = fields
                    if not fields:  # a reference or a name: read as any other change (none is undone)
                        event_lines(lines, number, None, shown, kind, description, stored, update, 0)
                    elif stream is None:
                        add(f"#{number}  {shown}  {shown_kind}  {description}\n{INDENT}{table} {by_table[table].get(ident) or ident}: {fields}")
                    else:  # the roll's stream position moved, before the update
                        add(
                            f"#{number}  {shown}  {shown_kind}  {description}\n{INDENT}campaign: {_STREAM} {stream} -> {update[2]}"
                            f"\n{INDENT}{table} {by_table[table].get(ident) or ident}: {fields}"
                        )
                else:
                    event_lines(lines, number, None, shown, kind, description, stored, None, 0)
                while due <= number:
                    if due == number:
                        add(INDENT + _dice_text(roll))
                    roll = next(dice, None)
                    due = _NEVER if roll is None else roll[1]
        else:
            for number, when, shown, kind, description, stored, update, undone in zip(
                numbers, whens, times, kinds, descriptions, stored_changes, updates, undone_flags, strict=True
            ):
                tail = event_lines(lines, number, when, shown, kind, description, stored, update, undone)
                while due <= number:
                    if due == number:
                        add(INDENT + _dice_text(roll))
                    roll = next(dice, None)
                    due = _NEVER if roll is None else roll[1]
                if tail:  # an undone event's dice, taken back with it: the event still holds them
                    lines.extend(INDENT + dice_line(kept, undone=True) for kept in stored_dice(tail))
        yield lines


def _split(db: Connection) -> int | None:
    """The last event of the older half of a history of HALVES_FROM events or more, None
    for a shorter one: the last of a batch, so that each half reads its rows in the batches
    one process would (a damaged row is met in the same batch, the same refusal said)."""
    driver = db.connection.driver_connection
    count, first, last = driver.execute("SELECT count(*), min(id), max(id) FROM event").fetchone()  # type: ignore[union-attr]  # open: its driver's
    if count < HALVES_FROM:
        return None
    older = count // (2 * BATCH) * BATCH  # the older half's events
    if last - first + 1 == count:  # no event missing (as written): the id of the last of them
        return int(first + older - 1)
    row = driver.execute("SELECT id FROM event ORDER BY id LIMIT 1 OFFSET ?", (older - 1,)).fetchone()  # type: ignore[union-attr]
    return None if row is None else int(row[0])


@contextmanager
def _newer_half(
    store: CampaignStore, split: int, marks: dict[int, list[str]], names: Names
) -> Iterator[Callable[[], IO[bytes]] | None]:
    """A second process (a fork of this one: its names and marks already read) that writes
    the lines of the events after `split`, and their rolls, into a file no folder lists; what
    it gives is a call that waits for it and returns that file, or raises what the second
    process raised (so a damaged row there is refused in the same sentence); None where no
    process can be started. Whatever ends this one early (a refusal, an interrupt) ends it;
    it ends itself if this one is gone."""
    from campaigns.output import CHUNK_LINES, _encoded

    text = tempfile.TemporaryFile()
    told, tell = os.pipe()
    parent = os.getpid()
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        child = os.fork()
    except OSError:  # no process to be had (a limit, memory): None, and the first writes it all
        os.close(told)
        os.close(tell)
        text.close()
        yield None
        return
    if child == 0:  # the second process: nothing of the first's runs on its way out (os._exit)
        outcome: BaseException | None = None
        try:
            os.close(told)
            _end_with(parent)
            store.engine.dispose(close=False)  # the first's connections are the first's
            with store.connect() as db:
                plain = _plain_batches(db)
                with closing(plain(NAMING_EVENTS, (split,))) as naming:
                    try:
                        for _lines in _event_chunks(naming, iter(()), marks, names):  # names as the older half leaves them
                            pass
                    except Exception:  # noqa: BLE001, S110 - a row the first process meets first, and refuses
                        pass
                with closing(plain(EVENTS_AFTER, (split,))) as events, closing(plain(EVENT_DICE_AFTER, (split,))) as rolls:
                    pending: list[str] = []
                    for lines in _event_chunks(events, chain.from_iterable(rolls), marks, names):
                        pending += lines
                        if len(pending) >= CHUNK_LINES:
                            text.write(_encoded(pending))
                            pending = []
                            if os.getppid() != parent:
                                os._exit(1)
                    if pending:
                        text.write(_encoded(pending))
            text.flush()
        except BaseException as error:  # noqa: BLE001 - every outcome is the first process's to say
            outcome = error
        try:
            said = pickle.dumps(outcome)
        except Exception:  # noqa: BLE001 - an error that cannot be sent: said in words
            said = pickle.dumps(RuntimeError(f"{type(outcome).__name__}: {outcome}"))
        with os.fdopen(tell, "wb") as pipe:
            pipe.write(b"\x01" + said)
        os._exit(0)
    os.close(tell)
    done = False

    def newer() -> IO[bytes]:
        nonlocal done
        with os.fdopen(told, "rb", closefd=False) as pipe:
            said = pipe.read()
        os.waitpid(child, 0)
        done = True
        if not said.startswith(b"\x01"):
            raise CampaignError(f"the log of {store.name} was cut short: its second process ended without a word")
        outcome = pickle.loads(said[1:])  # noqa: S301 - from this process's own fork
        if outcome is not None:
            raise outcome
        text.seek(0)
        return text

    try:
        yield newer
    finally:
        if not done:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
        os.close(told)
        text.close()


def _end_with(parent: int) -> None:
    """This (second) process killed as soon as `parent` ends, on Linux (PR_SET_PDEATHSIG);
    elsewhere it ends itself at its next batch (`_newer_half`)."""
    if sys.platform == "linux":
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # gone before that was asked
        os._exit(1)


class _EventLines:
    """An event's own lines, in any form: its line and what it changed, added to `lines`; and,
    for an undone event that holds changes, those changes (its dice are shown after the
    dice the table holds for it)."""

    def __init__(self, marks: dict[int, list[str]], names: Names, shown_fields: dict[str, str]) -> None:
        self.marks, self.names, self.shown_fields = marks, names, shown_fields
        self.padded: dict[str, str] = {}  # an event's kind as the line shows it, padded to 6

    def __call__(
        self, lines: list[str], number: Any, when: Any, shown: str | None, kind: Any, description: Any, stored: Any,
        update: re.Match[str] | None, undone: Any,
    ) -> list[dict[str, Any]] | None:
        names, add = self.names, lines.append
        changes: list[dict[str, Any]] | None = None
        quick: list[str] | None = None
        if update is not None:
            # `update_line` of its one change, read from its text, each pair of values shown once
            stream, table, ident, pair = update.group(1, 3, 4, 5)
            fields = self.shown_fields.get(pair)
            if fields is None:
                fields = _plain_fields("unit", *update.group(6, 7, 8))  # the same label for each named table
                if len(self.shown_fields) < KEPT_FIELDS:
                    self.shown_fields[pair] = fields
        elif kind in REPLAYS:
            fields, changes = "", []
            description = f"#{target(stored)} {description}"
        elif type(stored) is str and (quick := _quick_lines(stored, undone, names.by_table, self.shown_fields)) is not None:
            fields, changes = "", []  # its lines below, after the event's own
        else:
            fields, changes, quick = "", load(stored), None
        mark = self.marks.get(number)
        state = f"  [{', '.join(mark)}]" if mark else ("  [undone]" if undone else "")
        shown_kind = self.padded.get(kind)
        if shown_kind is None:
            shown_kind = f"{kind:<6}"
            if type(kind) is str:
                self.padded[kind] = shown_kind
        add(f"#{number}  {shown if shown is not None else _shown_time(when)}  {shown_kind}  {description}{state}")
        if fields:
            if stream is not None:  # the roll's stream position moved, before the update
                add(f"{INDENT}campaign: {_STREAM} {stream} -> {update[2]}")  # type: ignore[index]  # matched
            add(f"{INDENT}{table} {names.by_table[table].get(ident) or ident}: {fields}")
        elif quick is not None:
            lines += quick
        else:
            if changes is None:  # a reference or a name: read as any other change
                changes = load(stored)
            line = update_line(changes[0], names) if len(changes) == 1 and type(changes[0]) is dict else None
            if line is not None:
                add(INDENT + line)
            else:
                lines.extend(INDENT + line for line in change_lines(changes, names))
        return changes if undone and changes else None


_NEVER = float("inf")  # the event of the roll after the last: after every event

# The form almost every action stores: one change that updates one plain value of a named
# row, as SQLAlchemy writes it (json.dumps). Such a text is matched in C, a batch in one
# call, and shown as `update_line` shows its change: its row's id read from the text, the
# column and its two values read as JSON once for each pair of values (`shown_fields`).
# Anything else (PostgreSQL's parsed JSON included) is read as JSON and goes row by row.
# Every repeat is possessive (`*+`, `?+`): Python's engine then keeps no point to come back
# to for each (a number costs half as much). None gives up what it matched in a
# match that succeeds: what follows each is a character it cannot take (a quote after a
# string's characters, a delimiter after a number), so the texts matched and their groups
# are the same as without.
_ID = r'"([^"\\\x00-\x1f]*+)"'  # a JSON string without escapes is its own text
_TEXT = r'"[^"\\\x00-\x1f]*+(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*+)*+"'
_NUMBER = r"-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][-+]?+[0-9]++)?+"
_VALUE = rf"{_TEXT}|{_NUMBER}|true|false|null"
_OR_NULL = rf"(?:{_NUMBER}|null)"
_MODIFIER = rf'\{{"label": {_TEXT}, "value": {_NUMBER}\}}'
_ROLL = (  # the row of a roll as the store records it (models.history), its columns in their order
    rf'\{{"id": {_NUMBER}, "event": {_OR_NULL}, "purpose": {_TEXT}, "dice": {_TEXT}, "raw": \[(?:{_NUMBER}(?:, {_NUMBER})*+)?+\], '
    rf'"modifiers": \[(?:{_MODIFIER}(?:, {_MODIFIER})*+)?+\], "result": {_OR_NULL}, "mode": {_TEXT}, "stream_index": {_OR_NULL}, "by": {_TEXT}, '
    rf'"when": (?:{_TEXT}|null), "battle": {_OR_NULL}\}}'
)
_ROLLED = rf'\{{"table": "dice_roll", "key": \{{"id": {_NUMBER}\}}, "before": null, "after": {_ROLL}\}}'
_WHOLE = r"0|-?+[1-9][0-9]{0,17}+"  # a whole number as JSON writes it, and as `str` shows it
# ... and its form in an event that rolled: the roll inserted (shown by its dice line), the
# stream position moved (groups 1 and 2), then the one update (groups 3-8).
_ONE_UPDATE = re.compile(
    rf'\[(?:{_ROLLED}, \{{"table": "campaign", "key": \{{"id": (?:{_NUMBER}|{_TEXT})\}}, '
    rf'"before": \{{"dice_next_index": ({_WHOLE})\}}, "after": \{{"dice_next_index": ({_WHOLE})\}}\}}, )?+'
    rf'\{{"table": "(unit|general|army|side)", "key": \{{"id": {_ID}\}}, '
    rf'"before": \{{(({_TEXT}): ({_VALUE})\}}, "after": \{{\6: ({_VALUE}))\}}\}}\]'
)
_STREAM = _plain_label("campaign", "dice_next_index")
# One change of an event of several, or of one that _ONE_UPDATE does not read: a one-value
# update of a named row or of the campaign (groups 1-6 as _ONE_UPDATE's), or the head of a
# dice roll inserted (shown by its dice line, not as a change), whose row is read by orjson
# up to where the next change begins (`_quick_lines`).
_CHANGE = re.compile(
    rf'\{{"table": "(?:(unit|general|army|side|campaign)", "key": \{{"id": (?:{_ID}|(?:0|[1-9][0-9]{{0,17}}+))\}}, '
    rf'"before": \{{(({_TEXT}): ({_VALUE})\}}, "after": \{{\4: ({_VALUE}))\}}\}}'
    rf'|dice_roll", (?:"key": \{{"id": {_NUMBER}\}}, "before": null, "after": {_ROLL}\}}())?)'
)
_NEXT = '}, {"table": "'  # where a change ends and the next begins (no JSON text holds it: its quotes)
_WHOLE_NUMBER = re.compile(_WHOLE)
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")  # a whole number as JSON writes it, of any length
_CAMPAIGN_LABELS: dict[str, str] = {}  # a column of the campaign as stored (JSON text) -> its label, "" if none
KEPT_FIELDS = 4096  # pairs of values kept shown: the memory the log holds for them, however long the history


def _one_updates(
    stored: tuple[Any, ...], kinds: tuple[Any, ...], undone: tuple[Any, ...] = ()
) -> list[re.Match[str] | None]:
    """For each change of a batch, its match of _ONE_UPDATE, or None (for an undo or a redo
    too: its changes name the action it replays; and for an undone event that rolled: its
    dice are shown from its changes)."""
    if set(map(type, stored)) != {str}:
        return [None] * len(stored)
    matched = list(map(_ONE_UPDATE.fullmatch, stored))
    if UNDO in kinds or REDO in kinds:
        matched = [None if kind in REPLAYS else match for kind, match in zip(kinds, matched, strict=True)]
    if any(undone):
        matched = [None if taken and match and match[1] is not None else match for taken, match in zip(undone, matched, strict=True)]
    return matched


def _quick_lines(
    stored: str, undone: Any, by_table: dict[str, dict[Any, str | None]], shown_fields: dict[Any, str]
) -> list[str] | None:
    """The lines `change_lines` gives an event's changes where each is a one-value update of a
    different row or a dice roll inserted (_CHANGE), read from their text: None for any other
    form, or where two update one row (`change_lines` merges them), or where an undone event
    holds its dice (shown from its changes), which are then read as JSON."""
    if not stored.startswith("[{") or not stored.endswith("}]"):
        return None
    lines: list[str] = []
    rows: set[Any] = set()
    end = len(stored) - 1
    match = _CHANGE.match
    position, dice = 1, False
    while True:
        change = match(stored, position)
        if change is None:
            return None
        table = change[1]
        if table is None and change[7] is not None:  # a dice roll inserted, as the store records one
            dice, position = True, change.end()
        elif table is None:  # a dice roll inserted, otherwise: its text to the next change's, read as JSON
            after = stored.find(_NEXT, position)
            after = end if after < 0 else after + 1
            try:
                row = orjson.loads(stored[position:after])
            except orjson.JSONDecodeError:
                return None
            # read as `change_lines` reads it: a later "table" or "before" key is the one read
            if type(row) is not dict or row.get("table") != "dice_roll" or row.get("before", True) is not None:
                return None
            dice, position = True, after
        else:
            ident, pair = change.group(2, 3)
            if table == "campaign":
                if "campaign" in rows:  # any two of the campaign's: merged or not, read as JSON
                    return None
                rows.add("campaign")
                column, old, new = change.group(4, 5, 6)
                label = _CAMPAIGN_LABELS.get(column)
                if label is None:
                    label = _campaign_label(column)
                    if len(_CAMPAIGN_LABELS) < KEPT_FIELDS:
                        _CAMPAIGN_LABELS[column] = label
                if not label:
                    return None
                # the stream position: a new pair each time, shown without reading it as JSON
                shown = f"{label} {old} -> {new}" if _WHOLE_NUMBER.fullmatch(old) and _WHOLE_NUMBER.fullmatch(new) else _plain_fields(table, column, old, new)
                if not shown:
                    return None
                lines.append(f"{INDENT}campaign: {shown}")
            else:
                if ident is None or (table, ident) in rows:  # a named row by number, or one updated twice (merged)
                    return None
                rows.add((table, ident))
                fields = shown_fields.get(pair)  # a named table's columns are labelled alike
                if fields is None:
                    fields = _plain_fields(table, *change.group(4, 5, 6))
                    if len(shown_fields) < KEPT_FIELDS:
                        shown_fields[pair] = fields
                if not fields:
                    return None
                lines.append(f"{INDENT}{table} {by_table[table].get(ident) or ident}: {fields}")
            position = change.end()
        if position == end:
            return None if undone and dice else lines
        if not stored.startswith(", ", position):
            return None
        position += 2


def _campaign_label(column: str) -> str:
    """How `update_line` labels a column of the campaign stored as this JSON text; "" where it
    shows no plain value (the phase) or the text is none orjson reads."""
    try:
        name = orjson.loads(column)
    except orjson.JSONDecodeError:
        return ""
    return "" if name == "name" else _plain_label("campaign", name)


def _plain_fields(table: str, column: str, old: str, new: str) -> str:
    """`update_line`'s field of a column of `table` and its two values, each a JSON text as
    _ONE_UPDATE matched it; "" where it is no plain value (a reference, a phase, a name) or a
    text orjson does not read (then the change is read as `load` reads it).

    "" too for a whole number past 64 bits, a float to orjson: `load` reads the whole event
    with orjson, or with the standard library (a whole number) when another part of it is a
    text orjson refuses, such as a lone surrogate; so it is read as `load` reads it."""
    try:
        name, before, after = orjson.loads(column), orjson.loads(old), orjson.loads(new)
    except orjson.JSONDecodeError:
        return ""
    if (type(before) is float and _INTEGER.fullmatch(old)) or (type(after) is float and _INTEGER.fullmatch(new)):
        return ""
    label = _plain_label(table, name)
    if not label or name == "name":
        return ""
    return f"{label} {_show(before)} -> {_show(after)}"


def _shown_times(whens: tuple[Any, ...]) -> list[str] | list[None]:
    """`_shown_time` of each moment of a batch: where the local time is UTC and every moment is
    stored as SQLAlchemy stores one, on a real day and time, each is its first 19 characters;
    otherwise None for each, read one by one (in the order a fault would be met).

    The batch joined by line breaks, its digits written 0, is the shape of a moment repeated
    exactly when each moment is a text of 26 characters, each a digit or the separator where
    the shape has one (a line break within a moment would be one too many). Then the n-th
    characters of the moments are n, n + 27, n + 54... apart: the tens of the minutes and of
    the seconds are 0-5 where those columns hold nothing else. The day and hour, one or two
    a batch, are each checked once: where every moment holds the first or the last one's, those."""
    if not _LOCAL_IS_UTC or not whens:
        return [None] * len(whens)
    try:
        joined = "\n".join(whens)
    except TypeError:  # not all texts (PostgreSQL's moments, say)
        return [None] * len(whens)
    shape = _SHAPES.get(len(whens))
    if shape is None:
        shape = "\n".join([_SHAPE] * len(whens))
        if len(_SHAPES) < 8:
            _SHAPES[len(whens)] = shape
    if joined.translate(_ZEROS) != shape or joined[14::27].strip("012345") or joined[17::27].strip("012345"):
        return [None] * len(whens)
    # a 13-character day and hour is found at the start of a moment of this shape, nowhere else
    first, last = joined[:13], joined[-26:-13]
    if joined.count(first) == len(whens):
        hours: Iterable[str] = (first,)
    elif first != last and joined.count(first) + joined.count(last) == len(whens):
        hours = (first, last)
    else:
        hours = set(map(_DAY_HOUR, whens))
    if not all(map(_real_hour, hours)):
        return [None] * len(whens)
    return list(map(_TO_THE_SECOND, whens))


def _real_hour(day_hour: str) -> bool:
    """Whether a moment's first 13 characters, "YYYY-MM-DD HH" in digits, are a real day and hour."""
    real = _REAL_HOURS.get(day_hour)
    if real is None:
        real = _REAL_DAY.fullmatch(day_hour, 0, 10) is not None and day_hour[11:] < "24"
        if len(_REAL_HOURS) < KEPT_FIELDS:
            _REAL_HOURS[day_hour] = real
    return real


def _plain_batches(db: Connection) -> Callable[[str, tuple[Any, ...]], Generator[Sequence[Any], None, None]]:
    """Rows as the database driver gives them, BATCH at a time: on SQLite straight from
    sqlite3 (text for moments and JSON, read here as SQLAlchemy would), elsewhere through
    SQLAlchemy's connection without its per-row objects' cost mattering."""
    if db.dialect.name != "sqlite":
        streaming = db.execution_options(stream_results=True, yield_per=BATCH)

        def streamed(sql: str, parameters: tuple[Any, ...] = ()) -> Generator[Sequence[Any], None, None]:
            yield from streaming.exec_driver_sql(sql, parameters).partitions()

        return streamed
    driver = db.connection.driver_connection

    def batches(sql: str, parameters: tuple[Any, ...] = ()) -> Generator[Sequence[Any], None, None]:
        cursor = driver.cursor()  # type: ignore[union-attr]  # an open connection always has its driver's
        try:
            cursor.execute(sql, parameters)
            while batch := cursor.fetchmany(BATCH):
                yield batch
        finally:
            cursor.close()

    return batches


def event_line(event: Any, marks: list[str] | tuple[str, ...] = ()) -> str:
    description = event.description
    if event.kind in REPLAYS:
        description = f"#{target(event.changes)} {description}"
    state = f"  [{', '.join(marks)}]" if marks else ("  [undone]" if event.undone else "")
    return f"#{event.id}  {_time(event)}  {event.kind:<6}  {description}{state}"


def stored_dice(changes: list[dict[str, Any]]) -> list[SimpleNamespace]:
    """The dice rows an event inserted, as its changes recorded them."""
    rows = []
    for row in inserted_dice(changes):
        when = row.get("when")
        rows.append(SimpleNamespace(**{**row, "when": datetime.fromisoformat(when) if isinstance(when, str) else when}))
    return rows


def dice_line(roll: Any, *, with_time: bool = False, undone: bool = False) -> str:
    """A stored roll (an ORM row or a plain SQL row) as one line."""
    when = f"{_time(roll)}  " if with_time else ""
    return when + _reading(
        roll.id, roll.purpose, roll.dice, roll.raw, roll.modifiers, roll.result, roll.mode, roll.stream_index, roll.by,
        undone,
    )


def _dice_text(roll: tuple[Any, ...], *, with_time: bool = False) -> str:
    """A plain row of DICE_COLUMNS as `dice_line` writes it: its JSON read as SQLAlchemy reads it."""
    number, _event, purpose, dice, raw, modifiers, result, mode, stream_index, by, when = roll
    moment = f"{_shown_time(when)}  " if with_time else ""
    if modifiers == "[]" and mode == ROLLED and type(purpose) is str and ", column " not in purpose:
        # the most common roll (rolled, no modifiers, no card's heading) as `_reading` writes it, without its
        # call, and the faces of each stored text of them read once
        faces = _SHOWN_FACES.get(raw) if type(raw) is str else None
        if faces is None:
            faces = " ".join(map(str, orjson.loads(raw) if type(raw) is str else _json(raw)))
            if type(raw) is str and len(_SHOWN_FACES) < KEPT_FIELDS:
                _SHOWN_FACES[raw] = faces
        return f"{moment}dice #{number}: {purpose} {dice} = {faces} = {result}  [rolled, stream {stream_index}, {by}]"
    values = orjson.loads(raw) if type(raw) is str else _json(raw)
    return moment + _reading(number, purpose, dice, values, _json(modifiers), result, mode, stream_index, by, False)


_SHOWN_FACES: dict[str, str] = {}  # a roll's stored faces ("[3, 5]") as its line shows them ("3 5")


def _reading(
    number: Any, purpose: Any, dice: Any, raw: Any, modifiers: Any, result: Any, mode: Any, stream: Any, by: Any,
    undone: bool,
) -> str:
    no_modifiers = type(modifiers) is list and not modifiers  # most rolls: no generator for them
    shown_modifiers = "" if no_modifiers else "".join(f" {m['value']:+d} ({m['label']})" for m in modifiers)
    source = f"rolled, stream {stream}" if mode == ROLLED else "typed in"
    values = " ".join(map(str, raw))
    taken_back = ", undone" if undone else ""
    if type(purpose) is str and ", column " in purpose:  # the card's French heading, quoted with its English
        head, _, band = purpose.rpartition(", column ")
        purpose = f"{head}, column {column(band)}"
    return f"dice #{number}: {purpose} {dice} = {values}{shown_modifiers} = {result}  [{source}, {by}{taken_back}]"


def _json(value: Any) -> Any:
    """A JSON column's value as SQLAlchemy reads it from SQLite (orjson; a number stays a number)."""
    if type(value) is str or isinstance(value, str | bytes):
        return orjson.loads(value)
    return value


def _time(row: Any) -> str:
    return _to_the_second(row.when)


def _to_the_second(moment: datetime) -> str:
    """`moment` in local time as "YYYY-MM-DD HH:MM:SS" (strftime's %Y writes year 1 as "1")."""
    return local_time(moment).isoformat(" ", "seconds")[:19]


def local_time(moment: datetime) -> datetime:
    """`moment` in the local time zone; as it stands when the zone would carry it past the ends of
    the calendar (year 1's first hours, year 9999's last): no clock stamped it, yet an import takes it."""
    try:
        return moment.astimezone()
    except (OverflowError, ValueError):  # "year 0 is out of range", "date value out of range"
        return moment


# Where the local time is UTC, a stored moment is shown as it is stored, to the second.
_LOCAL_IS_UTC = time.timezone == 0 and time.altzone == 0 and not time.daylight


def _shown_time(when: Any) -> str:
    """A moment as `_time` shows it, read as SQLAlchemy reads it (text on SQLite)."""
    if isinstance(when, str):
        moment = datetime.fromisoformat(when)
        if _LOCAL_IS_UTC and moment.tzinfo is None and STORED_MOMENT.fullmatch(when):
            return when[:19]
        when = moment
    return _to_the_second(when)

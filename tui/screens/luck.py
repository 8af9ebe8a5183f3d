"""Luck: each side's dice against the exact odds, turn by turn, and every roll's percentile."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from campaigns.errors import CampaignError
from campaigns.luck import MP, PC, SP_INFLICTED, SP_LOST, Ledger, Luck, RollLuck
from campaigns.printable import printable
from campaigns.text import shown
from campaigns.words import sentence
from tui.screens.base import CampaignScreen
from tui.widgets.cells import MadeRows, fill
from tui.widgets.kept import KeptTable, PagedTable
from tui.workers import back_to

if TYPE_CHECKING:
    from textual.app import App

    from campaigns.session import CampaignSession

COLUMNS = (SP_LOST, SP_INFLICTED, PC, MP)


LISTED = 1000  # the latest rolls listed one by one; the totals count every roll
NAME_CELLS = 10  # the least a side's name wraps to: eight columns of figures keep 80 columns


class LuckScreen(CampaignScreen):
    TITLE_TEXT = "Luck"
    BINDINGS = [
        Binding("s", "side", "Side", id="luck.side", tooltip="Show every side, or one side's rolls only"),
    ]
    DEFAULT_CSS = """
    LuckScreen #method { height: auto; padding: 0 1; }
    LuckScreen #sides { height: 1fr; }
    LuckScreen #rolls { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.side: str | None = None  # None: every side
        self.sides: list[str] = []
        self.typed_early = 0  # s typed before the sides were read (L s in one burst): taken once they are
        # The ledger's first reading starts with the screen, before it is composed (as the order of
        # battle's tree): its SQLite work leaves Python's lock to the UI thread, which composes,
        # mounts and lays out the screen meanwhile, instead of after.
        self._early: int | None = None  # the campaign version the reading started here shows
        self._early_book: Ledger | None = None  # its answer, come before the screen was mounted
        self._composed = False  # every widget of the screen mounted (on_mount has run)
        self._early_refusal: str | None = None  # or its refusal (a damaged roll), come as early
        session = self.adjutant.session
        if session is not None:
            self._early = session.version()
            self.load(self.app, session)

    def body(self) -> ComposeResult:
        yield Static("Luck: actual - expected, and how unusual the dice were", classes="title")
        yield Static("Reading every roll...", id="method", markup=False)
        yield KeptTable(id="sides", cursor_type="row", zebra_stripes=True)
        yield PagedTable(id="rolls", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self._composed = True
        if self._early_book is not None:  # the first reading came while the screen was composed
            book, self._early_book = self._early_book, None
            self._show(book)
        if self._early_refusal is not None:
            refusal, self._early_refusal = self._early_refusal, None
            self._refused(refusal)

    def refresh_view(self) -> None:
        early, self._early = self._early, None
        if early is not None and early == self.shown_version:
            return  # the reading started with the screen reads this version: its answer shows it
        self.load()

    @work(thread=True, exclusive=True, exit_on_error=False)
    def load(self, app: App | None = None, session: CampaignSession | None = None) -> None:
        """Read the ledger and show it (`app`, `session`: given by a screen not mounted yet,
        which finds its app only on the UI thread)."""
        from textual.worker import get_current_worker

        from campaigns.luck import Superseded, ledger

        worker = get_current_worker()
        try:
            # A newer load (another side, a change) cancels this one: it stops at its next step.
            book = ledger(session or self.session, self.side, latest=LISTED, stop=lambda: worker.is_cancelled)
        except Superseded:
            return
        except CampaignError as exc:  # a roll `check` calls damaged (dice no roll stores): its sentence
            back_to(self, self._refused, str(exc), app=app)
            return
        if not worker.is_cancelled:
            back_to(self, self._show, book, app=app)

    def _refused(self, refusal: str) -> None:
        if not self._composed:  # refused while the screen is composed: said once it is
            self._early_refusal = refusal
            return
        self.query_one("#method", Static).update(printable(sentence(refusal)))
        self.notify(refusal, severity="error", timeout=8)

    def _show(self, book: Ledger) -> None:
        if not self._composed:  # the first reading, come while the screen is composed: shown once it is
            self._early_book = book
            return
        if not self.sides:
            self.sides = list(book.sides)
            order: list[str | None] = [None, *self.sides]
            early, self.typed_early = self.typed_early, 0
            if order[early % len(order)] is not None:  # the side typed for: read it instead
                self.side = order[early % len(order)]
                self.load()
                return
        whose = book.side_name(self.side) if self.side else "every side"
        listed = f"  The latest {len(book.rolls):,} of {book.counted:,} rolls." if book.counted > len(book.rolls) else ""
        self.query_one("#method", Static).update(printable(
            f"{whose} (s)  Pct: mid-rank in exact odds; p two-sided, ~ approx.{listed}"
        ))
        rows = []
        for side, total in book.totals.items():
            rows.append((f"{side}:all", _row(book.side_name(side), "all", total)))
            rows.extend((f"{side}:{t.turn}", _row("", str(t.turn), t)) for t in book.by_turn if t.side == side)
        sides = self.query_one("#sides", DataTable)
        # The side's name wraps onto more lines of its row, whole, rather than cut.
        fill(sides, ("Side", "Turn", "Rolls", "Mean", "p", "SP lost", "SP infl.", "PC", "MP"), rows,
             wrap_to=sides.size.width or self.app.size.width, wrap="Side", narrowest=NAME_CELLS)
        table = self.query_one("#rolls", PagedTable)
        # A screenful of rolls now, the others as they scroll into view: a thousand rolls cost
        # about what a screenful does. Their columns' widths from the rolls' few distinct figures.
        rolls = Rolls(book.rolls)
        table.rest = None
        table.rest = fill(
            table, ROLL_HEADERS, rolls,
            # What a roll decided wraps onto more lines of its row rather than running off the edge.
            wrap_to=table.size.width or self.app.size.width, first=self.app.size.height, widths=rolls.widths(ROLL_HEADERS),
        )

    def action_side(self) -> None:
        if not self.sides:
            self.typed_early += 1
            return
        order: list[str | None] = [None, *self.sides]
        self.side = order[(order.index(self.side) + 1) % len(order)] if self.side in order else None
        self.load()


ROLL_HEADERS = ("#", "Turn", "What", "Dice", "Pct", "Decided")


class Rolls(MadeRows):
    """The rolls table's rows (key, cells), the latest roll first, each made when it is read."""

    def __init__(self, rolls: list[RollLuck]) -> None:
        self.rolls = rolls

    def __len__(self) -> int:
        return len(self.rolls)

    def row(self, index: int) -> tuple[str, tuple[str, ...]]:
        r = self.rolls[-1 - index]
        return str(r.roll_id), (str(r.roll_id), str(r.turn or "-"), r.kind, _dice(r), f"{float(r.percentile):.0%}", printable(r.decided))

    def widths(self, headers: Sequence[str]) -> list[int]:
        """Each column's widest cell (the header's included), as cells.fill counts them."""
        rolls = self.rolls
        columns = [
            {str(r.roll_id) for r in rolls}, {str(r.turn or "-") for r in rolls}, {r.kind for r in rolls},
            {_dice(r) for r in rolls}, {f"{float(p):.0%}" for p in {r.percentile for r in rolls}},
            {printable(d) for d in {r.decided for r in rolls}},
        ]
        return [max(len(h), max((_cells(t) for t in texts), default=0)) for h, texts in zip(headers, columns)]


def _dice(r: RollLuck) -> str:
    return f"{r.dice} {' '.join(map(str, r.raw))}{r.modifier:+d}={r.result}"


def _cells(text: str) -> int:
    # Most cells are plain ASCII, where a character is a cell.
    return len(text) if text.isascii() and text.isprintable() else cell_len(shown(text))


def _row(name: str, turn: str, item: Luck) -> tuple[str, ...]:
    sums = [f"{float(item.sums[u]):+.2f}" if u in item.sums else "" for u in COLUMNS]
    p = item.run.p_value
    mark = "" if isinstance(p, Fraction) else "~"
    return (printable(name), turn, str(item.run.rolls), f"{float(item.run.mean):.0%}", f"{mark}{float(p):.3g}", *sums)

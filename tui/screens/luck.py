"""Luck: each side's dice against the exact odds, turn by turn, and every roll's percentile."""

from __future__ import annotations

from fractions import Fraction

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from campaigns.errors import CampaignError
from campaigns.luck import MP, PC, SP_INFLICTED, SP_LOST, Ledger, Luck
from campaigns.printable import printable
from tui.screens.base import CampaignScreen
from tui.widgets.cells import fill
from tui.widgets.kept import KeptTable, PagedTable
from tui.workers import back_to

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

    def body(self) -> ComposeResult:
        yield Static("Luck: actual - expected, and how unusual the dice were", classes="title")
        yield Static("Reading every roll...", id="method", markup=False)
        yield KeptTable(id="sides", cursor_type="row", zebra_stripes=True)
        yield PagedTable(id="rolls", cursor_type="row", zebra_stripes=True)

    def refresh_view(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, exit_on_error=False)
    def load(self) -> None:
        from textual.worker import get_current_worker

        from campaigns.luck import Superseded, ledger

        worker = get_current_worker()
        try:
            # A newer load (another side, a change) cancels this one: it stops at its next step.
            book = ledger(self.session, self.side, latest=LISTED, stop=lambda: worker.is_cancelled)
        except Superseded:
            return
        except CampaignError as exc:  # a roll `check` calls damaged (dice no roll stores): its sentence
            back_to(self, self._refused, str(exc))
            return
        if not worker.is_cancelled:
            back_to(self, self._show, book)

    def _refused(self, sentence: str) -> None:
        self.query_one("#method", Static).update(printable(sentence))
        self.notify(sentence, severity="error", timeout=8)

    def _show(self, book: Ledger) -> None:
        if not self.sides:
            self.sides = list(book.sides)
            order: list[str | None] = [None, *self.sides]
            early, self.typed_early = self.typed_early, 0
            if order[early % len(order)] is not None:  # the side typed for: read it instead
                self.side = order[early % len(order)]
                self.load()
                return
        shown = book.side_name(self.side) if self.side else "every side"
        listed = f"  The latest {len(book.rolls):,} of {book.counted:,} rolls." if book.counted > len(book.rolls) else ""
        self.query_one("#method", Static).update(printable(
            f"{shown} (s)  Pct: mid-rank in exact odds; p two-sided, ~ approx.{listed}"
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
        # about what a screenful does.
        table.rest = None
        table.rest = fill(
            table,
            ("#", "Turn", "What", "Dice", "Pct", "Decided"),
            (
                (str(r.roll_id), (
                    str(r.roll_id), str(r.turn or "-"), r.kind, f"{r.dice} {' '.join(map(str, r.raw))}{r.modifier:+d}={r.result}",
                    f"{float(r.percentile):.0%}", printable(r.decided),
                ))
                for r in reversed(book.rolls)
            ),
            # What a roll decided wraps onto more lines of its row rather than running off the edge.
            wrap_to=table.size.width or self.app.size.width,
            first=self.app.size.height,
        )

    def action_side(self) -> None:
        if not self.sides:
            self.typed_early += 1
            return
        order: list[str | None] = [None, *self.sides]
        self.side = order[(order.index(self.side) + 1) % len(order)] if self.side in order else None
        self.load()


def _row(name: str, turn: str, item: Luck) -> tuple[str, ...]:
    sums = [f"{float(item.sums[u]):+.2f}" if u in item.sums else "" for u in COLUMNS]
    p = item.run.p_value
    mark = "" if isinstance(p, Fraction) else "~"
    return (printable(name), turn, str(item.run.rolls), f"{float(item.run.mean):.0%}", f"{mark}{float(p):.3g}", *sums)

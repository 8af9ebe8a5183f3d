"""Orders: in a side file, the player's orders to the umpire; in the campaign, each side's queue.

A player writes moves from the map (Enter on a stack), and notes, spending and
reconnaissance requests here; e writes them to an orders file beside the side
file. The umpire imports such a file (i), then applies (a) or refuses (r) each
queued order, each as one action.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from campaigns import orders
from campaigns.command_points import ACTIONS, action_label
from campaigns.errors import CampaignError
from campaigns.text import shown
from tui.modals.form import FormScreen
from tui.screens.base import CampaignScreen
from tui.widgets.cells import fill
from tui.widgets.kept import KeptTable

# The status is a word of its own (written, queued, applied, refused); the umpire's ruling,
# which can be a long sentence, comes last, and whole under the table for the order selected.
HEADERS = ("#", "Side", "Status", "Order", "Stack", "To", "Text", "Ruling")
RULING_CELLS = 8  # the ruling's cell in the table: its start, the whole under the table
TEXT_CELLS = 12  # the least an order's text wraps to: a move's stack and place leave it little
# The umpire's table has the Side column too: at 80 columns a reconnaissance by latour_maubourg
# or a command-points spending pushed the Ruling off the screen. Its order, stack and place are
# cut to these (with an ellipsis), the whole order shown under the table with its ruling.
UMPIRE_CELLS = {"Order": 12, "Stack": 11, "To": 9, "Ruling": 6}
UMPIRE_TEXT_CELLS = 8


def is_player(session: object) -> bool:
    from campaigns.player import PlayerSession

    return isinstance(session, PlayerSession)


class OrdersScreen(CampaignScreen):
    TITLE_TEXT = "Orders"
    BINDINGS = [
        Binding("n", "note", "Note", id="orders.note", tooltip="Side file: write a note, a command-point spending or a reconnaissance request"),
        Binding("e", "export", "Export", id="orders.export", tooltip="Side file: write the orders to a JSON file for the umpire"),
        Binding("i", "import_file", "Import", id="orders.import", tooltip="Campaign: queue a side's orders from its orders file"),
        Binding("a", "apply", "Apply", id="orders.apply", tooltip="Campaign: carry out the selected queued order"),
        Binding("r", "refuse", "Refuse", id="orders.refuse", tooltip="Campaign: refuse the selected queued order, with a reason"),
    ]
    UMPIRE_ONLY = frozenset({"import_file", "apply", "refuse"})
    PLAYER_ONLY = frozenset({"note", "export"})

    @classmethod
    def offered(cls, action: str, session: object) -> bool:
        # On a club's server the orders are queued as written: there is no file to export.
        if action == "export" and getattr(session, "order_status", "") == orders.QUEUED:
            return False
        return super().offered(action, session)

    DEFAULT_CSS = """
    OrdersScreen #ruling { height: auto; max-height: 4; padding: 0 1; }
    """

    _rulings: dict[str, str] = {}  # row key: the ruling of the order, as shown under the table

    def body(self) -> ComposeResult:
        yield Static(id="title", classes="title", markup=False)
        yield KeptTable(id="list", cursor_type="row", zebra_stripes=True)
        yield Static(id="ruling", markup=False)

    def on_mount(self) -> None:
        self.query_one("#list", DataTable).focus()

    def on_screen_resume(self) -> None:
        # On a club's server a side's role queues its orders with no new version of the campaign
        # (that is the umpires' to make), so a visit reads the queue again whatever the version:
        # the umpire sees them at once, as the README says, not after his own next change.
        self.show_campaign()

    def refresh_view(self) -> None:
        player = is_player(self.session)
        club = player and getattr(self.session, "order_status", "") == orders.QUEUED  # a club's server: queued as written
        # The keys each names are the ones `offered` lets this file take (no export on a club's server).
        written = self.hint(("note", "n a note"), ("export", "e export"), ("import_file", "i import"), between="; ")
        ruled = self.hint(("apply", "a apply"), ("refuse", "r refuse the selected one"))
        keys = "; ".join(part for part in (written, ruled) if part)
        self.query_one("#title", Static).update(
            f"Your orders, queued for the umpire as written (moves: Enter on a stack of the map; {keys})" if club
            else f"Your orders to the umpire (moves: Enter on a stack of the map; {keys})"
            if player else f"Orders queued by side ({keys})"
        )
        table = self.query_one("#list", DataTable)
        keep = table.cursor_row
        # Widths counted here, not by the table once idle: refilled after an action, a
        # DataTable could draw its rows at the width of the headers first and keep that
        # drawing ("applied" cut to "applie"). The same rows are updated in place.
        listed = orders.listed(self.session)
        self._rulings = {str(o.id): f"#{o.id} {o.status}: {o.ruling}" for o in listed if o.ruling}
        if not player:  # the order itself, whole: its cells are cut in the umpire's table
            self._rulings = {str(o.id): _whole(o) + (f"\n{o.status}: {o.ruling}" if o.ruling else "") for o in listed}
        # An order's text wraps onto more lines of its row rather than running off the edge at
        # 80 columns; the ruling, whole under the table for the order selected, is cut to a glance.
        # A player's orders are all his side's: without that column (8 cells) a reconnaissance by
        # latour_maubourg leaves the ruling's column in view at 80 columns ("Ruli" before).
        headers = tuple(h for h in HEADERS if h != "Side") if player else HEADERS
        cells = (_cells(o) for o in listed)
        rows = ((str(c[0]), tuple(v for h, v in zip(HEADERS, c) if h in headers)) for c in cells)
        fill(table, headers, rows, widest={"Ruling": RULING_CELLS} if player else UMPIRE_CELLS,
             wrap_to=table.size.width or self.app.size.width, wrap="Text",
             narrowest=TEXT_CELLS if player else UMPIRE_TEXT_CELLS)
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))
        self._show_ruling()

    def on_data_table_row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._show_ruling()

    def _show_ruling(self) -> None:
        table = self.query_one("#list", DataTable)
        chosen = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value if table.row_count else None
        self.query_one("#ruling", Static).update(shown(self._rulings.get(str(chosen), "")))

    def _selected(self) -> int | None:
        table = self.query_one("#list", DataTable)
        if table.row_count == 0:
            self.notify("No orders.", severity="warning")
            return None
        return int(str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value))

    def action_note(self) -> None:
        kinds = [("A note", "note"), ("Command points: what to spend them on", "command_points"),
                 ("A reconnaissance: the stack, and the place it scouts", "reconnaissance")]
        # The card's spendings by their words (a command-points order only: '-' for the others).
        spendings = [("-", ""), *((action_label(a), a) for a in ACTIONS)]
        fields = [("kind", "Order", "note", kinds), ("stack", "Stack", "", None), ("place", "Place", "", None),
                  ("action", "Spend on", "", spendings), ("text", "Text", "", None)]

        def check(values: dict[str, str]) -> None:
            orders.write(self.session, values["kind"], values["stack"], values["place"], values["text"], values["action"])

        def done(values: dict[str, str] | None) -> None:
            if values:
                self.notify("Order written.")
                self.campaign_changed()

        self.app.push_screen(FormScreen("An order to the umpire", fields, check=check), done)

    def action_export(self) -> None:
        import json

        session = self.session

        def export() -> str:  # in a worker: it reads the orders and writes the file
            document = orders.export(session)
            where = Path(session.store.name)
            out = where.with_name(f"{where.stem}-orders.json")
            try:
                out.write_text(json.dumps(document, indent=2, ensure_ascii=True) + "\n", encoding="utf-8")
            except OSError as exc:
                raise CampaignError(f"The orders could not be written: {exc.strerror or exc}") from None
            return f"Wrote {out} ({len(document['orders'])} orders)."  # type: ignore[arg-type]  # export's document: its orders are a list

        self.attempt(export, worker=True, writes=False)

    def action_import_file(self) -> None:
        fields = [("path", "Orders file", "", None)]

        def check(values: dict[str, str]) -> None:
            self.notify(orders.import_orders(self.session, orders.read(Path(values["path"].strip()))))

        def done(values: dict[str, str] | None) -> None:
            if values:
                self.campaign_changed()

        self.app.push_screen(FormScreen("Import a side's orders", fields, check=_sentences(check)), done)

    def action_apply(self) -> None:
        if (chosen := self._selected()) is not None:
            self.attempt(lambda: orders.apply(self.session, chosen), worker=True)

    def action_refuse(self) -> None:
        if (chosen := self._selected()) is None:
            return
        fields = [("reason", "Why", "", None)]

        def check(values: dict[str, str]) -> None:
            orders.refuse(self.session, chosen, values["reason"])

        def done(values: dict[str, str] | None) -> None:
            if values:
                self.campaign_changed()

        self.app.push_screen(FormScreen(f"Refuse order #{chosen}", fields, check=check), done)


def _cells(o) -> tuple[object, ...]:
    what = o.kind.replace("_", " ") + (f" ({o.detail['action']})" if o.detail.get("action") else "")
    return o.id, o.side, o.status, what, o.stack or "-", o.place or "-", o.text or "-", o.ruling or "-"


def _whole(o) -> str:
    """The umpire's order under the table: each part, whole."""
    what = o.kind.replace("_", " ") + (f" ({o.detail['action']})" if o.detail.get("action") else "")
    where = f" {o.stack}" if o.stack else ""
    where += f" to {o.place}" if o.place else ""
    return f"#{o.id} {o.side} {what}{where}" + (f": {o.text}" if o.text else "")


def _sentences(check):
    """A file that cannot be read is one sentence in the form, like a refusal."""
    def checked(values: dict[str, str]) -> None:
        try:
            check(values)
        except OSError as exc:
            raise CampaignError(f"{exc.filename or 'the file'}: {exc.strerror or exc}") from None

    return checked

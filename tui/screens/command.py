"""Command points: each army's roll, what it spends, and the ledger of the turn."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from campaigns import command_points
from rules.allemagne1813.command import ACTIONS
from tui.screens.base import CampaignScreen
from tui.widgets.line_table import LineTable

LOC = {"valid LOC": True, "no valid LOC": False}
ARMY_HEADERS = ("Army", "Rolled", "Left", "CV", "Commander-in-chief")
# The note follows its action in one column that wraps: both can be long
# ("Activate a subordinate general with a stack of units: Marshal Ney's stack...").
LEDGER_HEADERS = ("Cost", "Left", "Action")


class CommandPointsScreen(CampaignScreen):
    TITLE_TEXT = "Command points"
    BINDINGS = [
        Binding("r", "roll", "Roll PC", id="command.roll", tooltip="Roll 1d6 + CV of the army's commander-in-chief"),
        Binding("e", "enter", "Enter die", id="command.enter", tooltip="Type in the die rolled on the table"),
        Binding("p", "spend", "Spend", id="command.spend", tooltip="Spend command points on an action"),
    ]
    UMPIRE_ONLY = frozenset({"roll", "enter", "spend"})
    DEFAULT_CSS = """
    CommandPointsScreen #armies { height: auto; max-height: 50%; }
    CommandPointsScreen #ledger { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._points: list[command_points.ArmyPoints] = []  # the armies shown, in the table's order

    def body(self) -> ComposeResult:
        yield Static("Command points: 1d6 + CV of the commander-in-chief", classes="title")
        # Tables drawn a line at a time, a commander's long name or a note wrapped
        # within the width (tui.widgets.line_table): a DataTable measured and styled
        # every cell before the screen's first frame.
        yield LineTable(id="armies")
        yield Static(id="ledger-title", markup=False)
        yield LineTable(id="ledger")

    def selected_army(self) -> str | None:
        army = self._selected()
        return army.army if army is not None else None

    def _selected(self) -> command_points.ArmyPoints | None:
        if not self._points:
            return None
        return self._points[min(self.query_one("#armies", LineTable).cursor_row, len(self._points) - 1)]

    def refresh_view(self) -> None:
        table = self.query_one("#armies", LineTable)
        self._points = command_points.turn_points(self.session)
        rows = [
            (
                army.name,
                "-" if army.rolled is None else army.rolled,
                "-" if army.rolled is None else army.balance,
                "-" if army.command_value is None else army.command_value,
                army.commander or "-",
            )
            for army in self._points
        ]
        table.set_rows(ARMY_HEADERS, rows, cursor=table.cursor_row)
        self.show_ledger()

    def on_line_table_highlighted(self, event: LineTable.Highlighted) -> None:
        if event.table.id == "armies":
            self.show_ledger()

    def show_ledger(self) -> None:
        army = self._selected()
        rows: list[tuple[object, ...]] = []
        if army is not None and army.rolled is not None:
            rows.append(("", army.rolled, f"Rolled: 1d6 + CV {army.command_value}"))
        if army is not None:
            rows += [
                (line.cost, line.balance, _with_note(command_points.action_label(line.action), line.note))
                for line in army.ledger
            ]
        self.query_one("#ledger", LineTable).set_rows(LEDGER_HEADERS, rows)
        if army is not None:
            self.query_one("#ledger-title", Static).update(f"Ledger of {army.name}, this turn")

    def _roll(self, typed: bool) -> None:
        army_id = self.selected_army()
        if army_id is None:
            return
        self.with_dice(
            "command points", "1d6",
            lambda dice: self.attempt(lambda: command_points.roll(self.session, army_id, dice), worker=True),
            typed=typed,
        )

    def action_roll(self) -> None:
        self._roll(typed=False)

    def action_enter(self) -> None:
        self._roll(typed=True)

    def action_spend(self) -> None:
        army_id = self.selected_army()
        if army_id is None:
            return
        labels = {command_points.action_label(a): a for a in ACTIONS}
        fields = [
            ("action", "Action", next(iter(labels)), list(labels)),
            ("loc", "LOC to the C-in-C", "valid LOC", list(LOC)),
            ("note", "Note", "", None),
        ]

        def spend(values: dict[str, str]) -> str:
            return command_points.spend(self.session, army_id, labels[values["action"]], LOC[values["loc"]], values["note"])

        def done(values: dict[str, str] | None) -> None:
            if values is not None:
                self.notify("Spent.")
                self.campaign_changed()

        from tui.modals.form import FormScreen

        self.app.push_screen(FormScreen("Spend command points", fields, check=spend), done)


def _with_note(action: str, note: str | None) -> str:
    return f"{action}: {note}" if note else action

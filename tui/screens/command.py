"""Command points: each army's roll, what it spends, and the ledger of the turn."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from campaigns import command_points
from rules.allemagne1813.command import ACTIONS
from tui.modals.form import FormScreen
from tui.screens.base import CampaignScreen
from tui.widgets.cells import fill
from tui.widgets.kept import KeptTable

LOC = {"valid LOC": True, "no valid LOC": False}


class CommandPointsScreen(CampaignScreen):
    TITLE_TEXT = "Command points"
    BINDINGS = [
        Binding("r", "roll", "Roll PC", id="command.roll", tooltip="Roll 1d6 + CV of the army's commander-in-chief"),
        Binding("e", "enter", "Enter die", id="command.enter", tooltip="Type in the die rolled on the table"),
        Binding("p", "spend", "Spend", id="command.spend", tooltip="Spend command points on an action"),
    ]
    DEFAULT_CSS = """
    CommandPointsScreen #armies { height: auto; max-height: 50%; }
    CommandPointsScreen #ledger { height: 1fr; }
    """

    def body(self) -> ComposeResult:
        yield Static("Command points: 1d6 + CV of the commander-in-chief", classes="title")
        yield KeptTable(id="armies", cursor_type="row", zebra_stripes=True)
        yield Static(id="ledger-title", markup=False)
        yield KeptTable(id="ledger", cursor_type="row")

    def selected_army(self) -> str | None:
        table = self.query_one("#armies", DataTable)
        if table.row_count == 0:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def refresh_view(self) -> None:
        table = self.query_one("#armies", DataTable)
        keep = table.cursor_row
        fill(
            table,
            ("Army", "Rolled", "Left", "CV", "Commander-in-chief"),
            (
                (
                    army.army,
                    (
                        army.name,
                        "-" if army.rolled is None else army.rolled,
                        "-" if army.rolled is None else army.balance,
                        "-" if army.command_value is None else army.command_value,
                        army.commander or "-",
                    ),
                )
                for army in command_points.turn_points(self.session)
            ),
            wrap_to=self._width(table),  # a commander's long name wraps rather than runs off the edge
        )
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))
        self.show_ledger()

    def _width(self, table: DataTable) -> int:
        return table.size.width or self.app.size.width

    def on_resize(self, _event) -> None:
        if self.shown_version is not None:
            self.call_after_refresh(self.refresh_view)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "armies":
            self.show_ledger()

    def show_ledger(self) -> None:
        army_id = self.selected_army()
        army = next((a for a in command_points.turn_points(self.session) if a.army == army_id), None)
        # The note follows its action in one column that wraps: both can be long
        # ("Activate a subordinate general with a stack of units: Marshal Ney's stack...").
        rows: list[tuple[str | None, tuple[object, ...]]] = []
        if army is not None and army.rolled is not None:
            rows.append((None, ("", army.rolled, f"Rolled: 1d6 + CV {army.command_value}")))
        if army is not None:
            rows += [
                (None, (line.cost, line.balance, _with_note(command_points.action_label(line.action), line.note)))
                for line in army.ledger
            ]
        ledger = self.query_one("#ledger", DataTable)
        fill(ledger, ("Cost", "Left", "Action"), rows, wrap_to=self._width(ledger))
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

        self.app.push_screen(FormScreen("Spend command points", fields, check=spend), done)


def _with_note(action: str, note: str | None) -> str:
    return f"{action}: {note}" if note else action

"""Type in the dice the players rolled on the table; they are checked against the dice."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from campaigns.words import plural
from rules.dice import Dice, DiceError, parse_entered


class DiceEntryScreen(ModalScreen[list[int] | None]):
    DEFAULT_CSS = """
    DiceEntryScreen { align: center middle; }
    DiceEntryScreen > Vertical { width: 60; max-width: 100%; height: auto; border: round $accent; padding: 0 1; background: $surface; }
    DiceEntryScreen #error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dice.cancel")]

    def __init__(self, purpose: str, dice: str = "1d6") -> None:
        super().__init__()
        self.purpose = purpose
        self.dice = Dice.parse(dice)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Dice rolled on the table for {self.purpose}: {self.dice}", markup=False)
            yield Input(placeholder=f"{plural(self.dice.count, 'value')} from 1 to {self.dice.sides}", id="dice")
            yield Static("", id="error", markup=False)
            yield Static("Enter to record, Escape to cancel", classes="muted")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            values = parse_entered(event.value)
            self.dice.check_entered(values)
        except DiceError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        self.dismiss(values)

    def action_cancel(self) -> None:
        self.dismiss(None)

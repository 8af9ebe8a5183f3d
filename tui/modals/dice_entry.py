"""Type in the dice the players rolled on the table; they are checked against the dice.

A resolution that rolls several named dice expressions (each side's melee dice, each
commander's initiative die) asks for each one on a line of its own, named; Enter on
a line goes to the next, and on the last records them all.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from campaigns.words import plural, sentence
from rules.dice import Dice, DiceError, parse_entered
from tui.widgets.text_field import TextField


class DiceEntryScreen(ModalScreen[list[int] | list[list[int]] | None]):
    """Returns the values typed: a list for one expression, a list of lists for named ones."""

    DEFAULT_CSS = """
    DiceEntryScreen { align: center middle; }
    DiceEntryScreen > Vertical { width: 70; max-width: 100%; height: auto; border: round $accent; padding: 0 1; background: $surface; }
    DiceEntryScreen Horizontal { height: auto; }
    DiceEntryScreen Label { width: 1fr; max-width: 36; padding: 0 1 0 0; }
    DiceEntryScreen Horizontal Input { width: 1fr; }
    DiceEntryScreen #error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dice.cancel")]

    def __init__(self, purpose: str, dice: str = "1d6", named: Sequence[tuple[str, str]] = ()) -> None:
        """`named`: (whose dice, expression) of each expression, when the resolution rolls several."""
        super().__init__()
        self.purpose = purpose
        self.named = [(label, Dice.parse(expression)) for label, expression in named]
        self.dice = Dice.parse(dice) if not self.named else None

    def compose(self) -> ComposeResult:
        with Vertical():
            if self.dice is not None:
                yield Static(f"Dice rolled on the table for {self.purpose}: {self.dice}", markup=False)
                yield TextField(placeholder=f"{plural(self.dice.count, 'value')} from 1 to {self.dice.sides}", id="dice")
            else:
                yield Static(f"Dice rolled on the table for {self.purpose}, each side's own:", markup=False)
                for n, (label, dice) in enumerate(self.named):
                    with Horizontal():
                        yield Label(f"{label} {dice}", markup=False)
                        yield TextField(placeholder=f"{plural(dice.count, 'value')}, 1-{dice.sides}", id=f"dice-{n}", compact=True)
            yield Static("", id="error", markup=False)
            enter = "Enter to record" if self.dice is not None else "Enter goes to the next line and records on the last"
            yield Static(f"{enter}, Escape to cancel", classes="muted")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.dice is not None:
            values = self._read(event.value, self.dice, "")
            if values is not None:
                self.dismiss(values)
            return
        fields = list(self.query(Input))
        at = fields.index(event.input)
        if at + 1 < len(fields) and not fields[at + 1].value.strip():
            fields[at + 1].focus()  # the next side's dice
            return
        typed: list[list[int]] = []
        for field, (label, dice) in zip(fields, self.named, strict=True):
            values = self._read(field.value, dice, label)
            if values is None:
                field.focus()
                return
            typed.append(values)
        self.dismiss(typed)

    def _read(self, text: str, dice: Dice, label: str) -> list[int] | None:
        try:
            values = parse_entered(text)
            dice.check_entered(values)
        except DiceError as exc:
            self.query_one("#error", Static).update(sentence(f"{label}: {exc}" if label else str(exc)))
            return None
        return values

    def action_cancel(self) -> None:
        self.dismiss(None)

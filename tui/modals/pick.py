"""Pick one item from a list, narrowing it by typing."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.text_field import TextField


class PickScreen(ModalScreen[str | None]):
    DEFAULT_CSS = """
    PickScreen { align: center middle; }
    PickScreen > Vertical { width: 70; max-width: 100%; height: 80%; border: round $accent; padding: 0 1; background: $surface; }
    PickScreen OptionList { height: 1fr; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="pick.cancel")]

    def __init__(self, title: str, items: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.items = items

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, markup=False)
            yield TextField(placeholder="type to narrow; Down to the list; Enter picks", id="filter")
            yield OptionList(*[Option(label, id=key) for key, label in self.items], id="choices")

    def on_input_changed(self, event: Input.Changed) -> None:
        needle = event.value.lower()
        choices = self.query_one("#choices", OptionList)
        choices.clear_options()
        choices.add_options([Option(label, id=key) for key, label in self.items if needle in label.lower()])
        if choices.option_count:
            choices.highlighted = 0

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        choices = self.query_one("#choices", OptionList)
        if choices.highlighted is not None:
            self.dismiss(str(choices.get_option_at_index(choices.highlighted).id))

    def on_key(self, event) -> None:
        if event.key == "down" and self.query_one("#filter", Input).has_focus:
            self.query_one("#choices", OptionList).focus()
            event.stop()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(str(event.option.id))

    def action_cancel(self) -> None:
        self.dismiss(None)

"""The help screen: every key of the app and of the screen it was opened from."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.hanging import Hanging


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 76; max-width: 100%; height: auto; max-height: 90%;
        border: round $primary; padding: 0 1; background: $surface;
    }
    """
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        width = max(len(k) for _, k, _ in self.rows)
        lines: list[str | Text | tuple[str, int]] = [Text("Keys", style="bold") + "  (ctrl+p: every screen and action by name)", ""]
        section = None
        for group, key, text in self.rows:
            if group != section:
                lines.append(Text(group, style="bold"))
                section = group
            # A description that wraps goes on under itself, past the key column.
            lines.append((f"  {key:<{width}}  {text}", width + 4))
        lines += ["", "Escape closes this help."]
        with VerticalScroll():
            yield Static(Hanging(lines), markup=False)

    def action_dismiss(self) -> None:  # type: ignore[override]  # Screen's takes a result: help has none to give
        self.dismiss(None)

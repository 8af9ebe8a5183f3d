"""The status line and the key line under every screen."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static


class StatusLine(Static):
    """Which campaign, when, and what phase."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__(markup=False)

    def on_mount(self) -> None:
        self.refresh_status()

    def refresh_status(self) -> None:
        self.update(getattr(self.app, "status_text", lambda: "")())


class KeyLine(Static):
    """The keys of the screen, the screen's own first, as one line of text.

    One widget drawn once, where Textual's Footer builds a widget per key and
    rebuilds them all at every change of screen; the help screen (? or F1) and
    the command palette (ctrl+p) list everything the line has no room for.
    """

    DEFAULT_CSS = """
    KeyLine { height: 1; background: $footer-background; color: $footer-foreground; }
    """

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        """Draw the keys that apply now: a screen whose keys depend on its state
        (check_action) calls this when the state changes."""
        line = Text(no_wrap=True, overflow="ellipsis")
        seen: set[str] = set()
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.show or not binding.description or binding.action in seen:
                continue
            seen.add(binding.action)
            line.append(f" {self.app.get_key_display(binding)} ", style="bold")
            line.append(f"{binding.description} ")
        self.update(line)


class BottomBar(Vertical):
    """The status line above the key line, both always at the bottom of the screen."""

    DEFAULT_CSS = """
    BottomBar { dock: bottom; height: 2; }
    """

    def compose(self) -> ComposeResult:
        yield StatusLine()
        yield KeyLine()

"""The status line under every screen: which campaign, when, and what phase."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__(markup=False)

    def on_mount(self) -> None:
        self.refresh_status()

    def refresh_status(self) -> None:
        self.update(getattr(self.app, "status_text", lambda: "")())


class BottomBar(Vertical):
    """The status line above the footer, both always at the bottom of the screen."""

    DEFAULT_CSS = """
    BottomBar { dock: bottom; height: 2; }
    BottomBar Footer { dock: none; }
    """

    def compose(self) -> ComposeResult:
        yield StatusLine()
        yield Footer(compact=True)

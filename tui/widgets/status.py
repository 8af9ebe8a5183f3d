"""The status line under every screen: which campaign, when, and what phase."""

from __future__ import annotations

from textual.widgets import Static


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine { dock: bottom; height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    def on_mount(self) -> None:
        self.refresh_status()

    def refresh_status(self) -> None:
        self.update(getattr(self.app, "status_text", lambda: "")())

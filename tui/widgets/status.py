"""The status line and the key line under every screen."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.widgets import Static


class StatusLine(Static):
    """Which campaign, when, and what phase: whole parts that fit, never a part cut."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__(markup=False)
        self._text = ""
        self._shown: str | None = None  # the line drawn

    def on_mount(self) -> None:
        self.refresh_status()

    def refresh_status(self) -> None:
        self._text = getattr(self.app, "status_text", lambda: "")()
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        # The parts run from the most to the least needed (the campaign's name last):
        # at 80 columns the last ones give way whole rather than end half-written.
        parts = self._text.split(" | ")
        room = max(self.content_size.width, 1) if self.is_mounted and self.size.width else 10_000
        while len(parts) > 1 and len(" | ".join(parts)) > room:
            parts.pop()
        line = " | ".join(parts)
        if line != self._shown:
            # One line, as wide as the screen whatever it says: no layout of the whole
            # screen is needed for it, as a Static's update would do after each action.
            self._shown = line
            self.update(line, layout=False)


class KeyLine(Static):
    """The keys of the screen, the screen's own first, as one line of text.

    Redrawn when the keys that apply change (another widget focused, a form
    closed), and as many as fit whole, then "? all keys": the help screen (? or
    F1) and the command palette (ctrl+p) list everything. A click on a key runs it.
    """

    DEFAULT_CSS = """
    KeyLine { height: 1; background: $footer-background; color: $footer-foreground; }
    """
    MORE = " ? all keys "

    def __init__(self) -> None:
        super().__init__()
        self._spans: list[tuple[int, int, str, DOMNode]] = []  # start, end, action, namespace
        self._line: Text | None = None  # the line drawn

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.redraw()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: object) -> None:
        self.redraw()

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        room = self.size.width or self.app.size.width
        line = Text(no_wrap=True)
        spans: list[tuple[int, int, str, DOMNode]] = []
        seen: set[str] = set()
        entries = []
        more = self.MORE
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if binding.action == "help" and active.node is self.app and more is self.MORE:
                more = f" {self.app.get_key_display(binding)} all keys "  # the help's first key, as the user mapped it
            if not binding.show or not binding.description or binding.action in seen or not active.enabled:
                continue
            seen.add(binding.action)
            entries.append((f" {self.app.get_key_display(binding)} ", f"{binding.description} ", binding.action, active.node))
        settings = getattr(self.app, "settings", None)
        if settings is not None and settings.file.keymap:  # without one, Textual's order is the declared one already
            entries = _declared_order(entries)
        for number, (key, name, action, node) in enumerate(entries):
            width = len(key) + len(name)
            last = number == len(entries) - 1
            if line.cell_len + width > room - (0 if last else len(more)):
                line.append(more)
                spans.append((line.cell_len - len(more), line.cell_len, "help", self.app))
                break
            start = line.cell_len
            line.append(key, style="bold")
            line.append(name)
            spans.append((start, line.cell_len, action, node))
        self._spans = spans
        if line != self._line:
            # Asked again at every change of focus and size (a screen's first visit: six
            # times); drawn only when it says something else (its text or its styles), and,
            # one line as wide as the screen whatever it says, without laying the screen out again.
            self._line = line
            self.update(line, layout=False)

    async def on_click(self, event) -> None:
        for start, end, action, node in self._spans:
            if start <= event.x < end:
                await self.app.run_action(action, node)
                return


def _declared_order(entries: list[tuple[str, str, str, DOMNode]]) -> list[tuple[str, str, str, DOMNode]]:
    """`entries` of each node (the focused widget's, the screen's, the app's, in that order)
    in the order its class declares them: a key the user remapped (config.toml's [keymap])
    comes last among the active bindings, and would drop off the line."""
    groups: dict[int, list[tuple[str, str, str, DOMNode]]] = {}
    for entry in entries:
        groups.setdefault(id(entry[3]), []).append(entry)
    ordered = []
    for group in groups.values():
        declared: dict[str, int] = {}
        for base in type(group[0][3]).__mro__:  # the class's own first (Textual's App has a "quit" too)
            for binding in base.__dict__.get("BINDINGS", None) or ():
                if isinstance(binding, Binding):
                    declared.setdefault(binding.action, len(declared))
        ordered += sorted(group, key=lambda entry: declared.get(entry[2], len(declared)))
    return ordered


class BottomBar(Vertical):
    """The status line above the key line, both always at the bottom of the screen."""

    DEFAULT_CSS = """
    BottomBar { dock: bottom; height: 2; }
    """

    def compose(self) -> ComposeResult:
        yield StatusLine()
        yield KeyLine()

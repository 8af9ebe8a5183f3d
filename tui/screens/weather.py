"""Weather: the whole calendar as a strip of turns, this turn's roll and its effects."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from campaigns import weather
from tui.screens.base import CampaignScreen
from tui.widgets.kept import KeptTable

SYMBOL = {"Clear": "C", "Rain": "R", "Rain*": "R*", "Snow": "S", "Mud": "M"}


class WeatherScreen(CampaignScreen):
    TITLE_TEXT = "Weather"
    BINDINGS = [
        Binding("r", "roll", "Roll weather", id="weather.roll", tooltip="Roll 1d6 + the month modifier for this turn"),
        Binding("e", "enter", "Enter die", id="weather.enter", tooltip="Type in the die rolled on the table"),
    ]
    DEFAULT_CSS = """
    WeatherScreen #strip { height: auto; border: round $primary; padding: 0 1; }
    WeatherScreen #now { height: auto; padding: 0 1; }
    WeatherScreen DataTable { height: 1fr; }
    """

    def body(self) -> ComposeResult:
        yield Static("Weather track", classes="title")
        yield Static(id="strip")
        yield Static(id="now", markup=False)
        yield KeptTable(id="turns", cursor_type="row", zebra_stripes=True)

    # A calendar of 300 turns would be 300 table rows (measured cell by cell by the
    # DataTable) and a strip of many lines: the screen shows a window of turns around
    # the current one, and moves or widens it as the cursor reaches its first or last row.
    BEFORE, AFTER, STEP = 10, 30, 30
    _window: tuple[int, int] | None = None  # (first, last + 1) indexes of the track shown
    _track: list = []
    _drawing = False

    def refresh_view(self) -> None:
        track = weather.track(self.session)
        current = next((i for i, t in enumerate(track) if t.current), 0)
        turn_moved = not self._track or next((i for i, t in enumerate(self._track) if t.current), 0) != current
        self._track = track
        if self._window is None or turn_moved:
            self._window = (max(0, current - self.BEFORE), min(len(track), current + self.AFTER + 1))
        self._draw(current)
        now = weather.now(self.session)
        lines = [f"Turn {now.turn}, {now.date:%d %B %Y}: {now.weather or 'not rolled yet'}"]
        if not now.weather:
            if now.forced_mud:
                lines.append("Rain* last turn: this turn is Mud without a roll (r takes it).")
            else:
                lines.append(f"Roll 1d6 {now.month_modifier.value:+d} ({now.month_modifier.label}).")
        lines += weather.effects(now.weather, self.session.options())
        self.query_one("#now", Static).update("\n".join(lines))

    def _draw(self, cursor: int) -> None:
        """The strip and the table of the window's turns, the cursor on track index `cursor`."""
        assert self._window is not None
        first, last = self._window
        shown = self._track[first:last]
        self._strip()
        table = self.query_one("#turns", DataTable)
        self._drawing = True
        try:
            table.clear(columns=True)
            table.add_columns("Turn", "Date", "Weather", "How")
            for t in shown:
                table.add_row(*_row(t), key=str(t.number))
            table.move_cursor(row=min(max(cursor - first, 0), max(len(shown) - 1, 0)))
        finally:
            self._drawing = False

    def _strip(self) -> None:
        assert self._window is not None
        first, last = self._window
        cells = []
        for t in self._track[first:last]:
            mark = SYMBOL.get(t.weather or "", "·")
            if t.source == "forced":
                mark = "M!"
            text = f"{t.number}:{mark}"
            cells.append(f"[reverse]{text}[/]" if t.current else text)
        if first > 0:
            cells.insert(0, "…")
        if last < len(self._track):
            cells.append("…")
        legend = "C clear  R rain  R* rain, Mud next  M! Mud forced  S snow  · to come"
        self.query_one("#strip", Static).update(" ".join(cells) + "\n" + legend)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self._drawing or self._window is None:
            return
        first, last = self._window
        row = event.cursor_row
        if row == last - first - 1 and last < len(self._track):
            # Later turns are added below; nothing above moves.
            more = self._track[last : last + self.STEP]
            self._window = (first, last + len(more))
            for t in more:
                event.data_table.add_row(*_row(t), key=str(t.number))
            self._strip()
        elif row == 0 and first > 0:
            self._window = (max(0, first - self.STEP), last)
            self._draw(first)

    def _roll(self, typed: bool) -> None:
        now = weather.now(self.session)
        if now.weather:
            self.notify(f"Turn {now.turn} already has its weather; u undoes it.", severity="warning")
            return
        if now.forced_mud:
            self.attempt(lambda: weather.roll(self.session), worker=True)
            return
        self.with_dice("the weather", "1d6", lambda dice: self.attempt(lambda: weather.roll(self.session, dice), worker=True), typed=typed)

    def action_roll(self) -> None:
        self._roll(typed=False)

    def action_enter(self) -> None:
        self._roll(typed=True)


def _row(t) -> tuple[str, str, str, str]:
    how = {"rolled": "rolled", "forced": "Mud forced by Rain*", "set": "set by the umpire"}.get(t.source or "", "to come")
    return str(t.number), f"{t.date:%d %b %Y}", t.weather or "-", how

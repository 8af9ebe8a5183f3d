"""Weather: the whole calendar as a strip of turns, this turn's roll and its effects."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from campaigns import weather
from tui.screens.base import CampaignScreen
from tui.widgets.line_table import LineTable

SYMBOL = {"Clear": "C", "Rain": "R", "Rain*": "R*", "Snow": "S", "Mud": "M"}
HEADERS = ("Turn", "Date", "Weather", "How")


class WeatherScreen(CampaignScreen):
    TITLE_TEXT = "Weather"
    BINDINGS = [
        Binding("r", "roll", "Roll weather", id="weather.roll", tooltip="Roll 1d6 + the month modifier for this turn"),
        Binding("e", "enter", "Enter die", id="weather.enter", tooltip="Type in the die rolled on the table"),
    ]
    UMPIRE_ONLY = frozenset({"roll", "enter"})
    DEFAULT_CSS = """
    WeatherScreen #strip { height: auto; border: round $primary; padding: 0 1; }
    WeatherScreen #now { height: auto; padding: 0 1; }
    """

    def body(self) -> ComposeResult:
        yield Static("Weather track", classes="title")
        yield Static(id="strip")
        yield Static(id="now", markup=False)
        # Every turn of the calendar, drawn a line at a time (only the lines in view):
        # a DataTable measured and styled every cell of every row first.
        yield LineTable(id="turns")

    # A calendar of 300 turns would make a strip of many lines: the strip shows a
    # window of turns around the cursor's, moved once the cursor leaves it.
    BEFORE, AFTER = 10, 30
    _window: tuple[int, int] = (0, 0)  # (first, last + 1) indexes of the track in the strip
    _track: list = []

    def refresh_view(self) -> None:
        track = weather.track(self.session)
        current = next((i for i, t in enumerate(track) if t.current), 0)
        self._track = track
        self._window = self._around(current)
        table = self.query_one("#turns", LineTable)
        table.set_rows(HEADERS, [_row(t) for t in track], cursor=current)
        self._strip()
        now = weather.now(self.session)
        lines = [f"Turn {now.turn}, {now.date:%d %B %Y}: {now.weather or 'not rolled yet'}"]
        if not now.weather:
            if now.forced_mud:
                lines.append(f"Rain* last turn: this turn is Mud without a roll{self.hint(('roll', ' (r takes it)'))}.")
            else:
                lines.append(f"Roll 1d6 {now.month_modifier.value:+d} ({now.month_modifier.label}).")
        # The campaign's options (the rule set's reading of them loaded the first time) only
        # for the effects of a weather rolled: a turn still to roll tells none.
        lines += weather.effects(now.weather, self.session.options() if now.weather else None)
        self.query_one("#now", Static).update("\n".join(lines))

    def _around(self, index: int) -> tuple[int, int]:
        return max(0, index - self.BEFORE), min(len(self._track), index + self.AFTER + 1)

    def _strip(self) -> None:
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

    def on_line_table_highlighted(self, event: LineTable.Highlighted) -> None:
        first, last = self._window
        if not first <= event.row < last:  # the cursor left the strip's turns: they follow it
            self._window = self._around(event.row)
            self._strip()

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

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

    def refresh_view(self) -> None:
        track = weather.track(self.session)
        cells = []
        for t in track:
            mark = SYMBOL.get(t.weather or "", "·")
            if t.source == "forced":
                mark = "M!"
            text = f"{t.number}:{mark}"
            cells.append(f"[reverse]{text}[/]" if t.current else text)
        legend = "C clear  R rain  R* rain, Mud next  M! Mud forced  S snow  · to come"
        self.query_one("#strip", Static).update(" ".join(cells) + "\n" + legend)
        now = weather.now(self.session)
        lines = [f"Turn {now.turn}, {now.date:%d %B %Y}: {now.weather or 'not rolled yet'}"]
        if not now.weather:
            if now.forced_mud:
                lines.append("Rain* last turn: this turn is Mud without a roll (r takes it).")
            else:
                lines.append(f"Roll 1d6 {now.month_modifier.value:+d} ({now.month_modifier.label}).")
        lines += weather.effects(now.weather, self.session.options())
        self.query_one("#now", Static).update("\n".join(lines))
        table = self.query_one("#turns", DataTable)
        table.clear(columns=True)
        table.add_columns("Turn", "Date", "Weather", "How")
        for t in track:
            how = {"rolled": "rolled", "forced": "Mud forced by Rain*", "set": "set by the umpire"}.get(t.source or "", "to come")
            table.add_row(str(t.number), f"{t.date:%d %b %Y}", t.weather or "-", how, key=str(t.number))
        current = next((i for i, t in enumerate(track) if t.current), 0)
        table.move_cursor(row=current)

    def _roll(self, typed: bool) -> None:
        now = weather.now(self.session)
        if now.weather:
            self.notify(f"Turn {now.turn} already has its weather; u undoes it.", severity="warning")
            return
        if now.forced_mud:
            self.attempt(lambda: weather.roll(self.session))
            return
        self.with_dice("the weather", "1d6", lambda dice: self.attempt(lambda: weather.roll(self.session, dice)), typed=typed)

    def action_roll(self) -> None:
        self._roll(typed=False)

    def action_enter(self) -> None:
        self._roll(typed=True)

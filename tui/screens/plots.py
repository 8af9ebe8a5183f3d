"""Plots: the campaign turn by turn, one chart at a time (n / p switch), so that
each has the whole screen even at 80x24."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static
from textual_plotext import PlotextPlot

from campaigns.charts import Chart, charts, draw
from campaigns.printable import printable
from tui.screens.base import CampaignScreen
from tui.workers import back_to


class PlotsScreen(CampaignScreen):
    TITLE_TEXT = "Plots"
    BINDINGS = [
        Binding("n,right", "step(1)", "Next plot", id="plots.next", tooltip="Show the next chart"),
        Binding("p,left", "step(-1)", "Previous plot", id="plots.previous", tooltip="Show the chart before"),
    ]
    DEFAULT_CSS = """
    PlotsScreen #which { height: 1; padding: 0 1; }
    PlotsScreen PlotextPlot { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.charts: list[Chart] = []
        self.index = 0

    def body(self) -> ComposeResult:
        yield Static("Plots", classes="title")
        yield Static("Reading the campaign...", id="which", markup=False)
        # A fixed theme: the plot's own background and text follow the app's
        # colours (and NO_COLOR), its series differ by marker as well as colour.
        plot = PlotextPlot(id="plot")
        plot.theme = "clear"
        yield plot

    def refresh_view(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, exit_on_error=False)
    def load(self) -> None:
        # The luck ledger replays every battle: off the UI thread.
        from textual.worker import get_current_worker

        from campaigns.luck import Superseded, ledger
        from campaigns.story import story

        worker = get_current_worker()
        try:
            # Only the luck by turn is drawn: no roll is listed.  A newer load cancels this one.
            book = ledger(self.session, latest=0, stop=lambda: worker.is_cancelled)
        except Superseded:
            return
        if worker.is_cancelled:
            return
        found = charts(story(self.session, book))
        if not worker.is_cancelled:
            back_to(self, self._show, found)

    def _show(self, found: list[Chart]) -> None:
        self.charts = found
        self.index = min(self.index, len(found) - 1) if found else 0
        self._draw()

    def _draw(self) -> None:
        if not self.charts:
            return
        chart = self.charts[self.index]
        names = "  ".join(("[" + c.id + "]") if i == self.index else c.id for i, c in enumerate(self.charts))
        self.query_one("#which", Static).update(printable(f"{self.index + 1}/{len(self.charts)}  {names}  (n/p)"))
        plot = self.query_one(PlotextPlot)
        draw(_clean(chart), plot.plt)
        plot.refresh()

    def action_step(self, by: int) -> None:
        if self.charts:
            self.index = (self.index + by) % len(self.charts)
            self._draw()


def _clean(chart: Chart) -> Chart:
    """The chart with the campaign's names stripped of control characters."""
    from dataclasses import replace

    return replace(
        chart,
        title=printable(chart.title),
        series=tuple(replace(s, label=printable(s.label)) for s in chart.series),
    )

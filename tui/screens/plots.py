"""Plots: the campaign turn by turn, one chart at a time (n / p switch), so that
each has the whole screen even at 80x24."""

from __future__ import annotations

from dataclasses import replace

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static
from textual_plotext import PlotextPlot

from campaigns.charts import LUCK, Chart, charts, draw
from campaigns.errors import CampaignError
from campaigns.printable import printable
from campaigns.story import Story
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
        self.story: Story | None = None  # what the charts show; its luck is read when its chart is first shown
        self.luck_asked: Story | None = None  # the story whose luck is being read (or has been)
        self.luck_read: Story | None = None  # the story whose luck has been read

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
        from textual.worker import get_current_worker

        from campaigns.story import story

        worker = get_current_worker()
        found = story(self.session)
        # The luck by turn needs every roll of the campaign (the luck ledger): it is read when
        # its chart is first shown (load_luck), not for the charts before it.
        found.luck = {side: [None] * len(found.turns) for side in found.sides}
        if not worker.is_cancelled:
            back_to(self, self._show, found)

    @work(thread=True, exclusive=True, exit_on_error=False, group="luck")
    def load_luck(self, found: Story) -> None:
        # The luck ledger replays every battle: off the UI thread.
        from textual.worker import get_current_worker

        from campaigns.luck import Superseded, ledger
        from campaigns.story import luck_by_turn

        worker = get_current_worker()
        try:
            # Only the luck by turn is drawn: no roll is listed.  A newer load cancels this one.
            book = ledger(self.session, latest=0, stop=lambda: worker.is_cancelled)
        except Superseded:
            return
        except CampaignError as exc:  # a roll `check` calls damaged (dice no roll stores): its sentence
            back_to(self, self.notify, str(exc), severity="error", timeout=8)
            return
        if not worker.is_cancelled:
            back_to(self, self._show_luck, found, luck_by_turn(found, book))

    def _show(self, found: Story) -> None:
        self.story = found
        self.charts = charts(found)
        # n and p typed before the charts were read are taken now, as they would have been
        self.index = self.index % len(self.charts) if self.charts else 0
        self._draw()

    def _show_luck(self, found: Story, luck: dict[str, list[float | None]]) -> None:
        if found is not self.story:
            return  # the campaign has changed since: its own luck is being read
        found.luck = luck
        self.luck_read = found
        self.charts = charts(found)
        self._draw()

    def _draw(self) -> None:
        if not self.charts:
            return
        chart = self.charts[self.index]
        names = "  ".join(("[" + c.id + "]") if i == self.index else c.id for i, c in enumerate(self.charts))
        self.query_one("#which", Static).update(printable(f"{self.index + 1}/{len(self.charts)}  {names}  (n/p)"))
        plot = self.query_one(PlotextPlot)
        if chart.id == LUCK and self.story is not None and self.luck_asked is not self.story:
            self.luck_asked = self.story
            self.load_luck(self.story)
        if chart.id == LUCK and self.luck_read is not self.story:
            chart = replace(chart, title="Reading every roll...", series=())
        draw(_clean(chart), plot.plt)
        plot.refresh()

    def action_step(self, by: int) -> None:
        self.index += by  # kept until the charts are read (_show), when typed before
        if self.charts:
            self.index %= len(self.charts)
            self._draw()


def _clean(chart: Chart) -> Chart:
    """The chart with the campaign's names stripped of control characters."""
    return replace(
        chart,
        title=printable(chart.title),
        series=tuple(replace(s, label=printable(s.label)) for s in chart.series),
    )

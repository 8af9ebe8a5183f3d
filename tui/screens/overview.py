"""Overview: the campaign at a glance, always one key away."""

from __future__ import annotations

from textual import work
from textual.worker import get_current_worker
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from campaigns.errors import CampaignError
from campaigns.glance import Glance, glance, outstanding
from campaigns.phases import phase
from campaigns.words import plural
from tui.screens.base import CampaignScreen
from tui.widgets.line_table import LineTable
from tui.workers import back_to


class OverviewScreen(CampaignScreen):
    TITLE_TEXT = "Overview"
    _sky_shown = False  # the weather box has shown what glance read
    DEFAULT_CSS = """
    OverviewScreen #top { height: auto; }
    OverviewScreen #when, OverviewScreen #sky { width: 1fr; height: auto; border: round $primary; padding: 0 1; }
    OverviewScreen #sides { height: auto; border: round $primary; padding: 0 1; }
    OverviewScreen LineTable { height: 1fr; }
    """

    def body(self) -> ComposeResult:
        yield Static("Overview", classes="title")
        with Horizontal(id="top"):
            yield Static(id="when", markup=False)
            yield Static(id="sky", markup=False)
        yield Static(id="sides", markup=False)
        with Vertical():
            yield LineTable(id="armies")

    def refresh_view(self) -> None:
        # What the campaign file holds is shown at once; the weather to come is read from
        # the rule set's tables (glance), which the first screen of the app is drawn
        # without (loading the rule set is a tenth of the start-up): read in a worker,
        # it follows a moment later, in lines already there, so nothing moves.
        view = self.session.overview()
        current = phase(view.phase)
        needed = outstanding(current, view)
        self.query_one("#when", Static).update(
            f"{view.name}\n{view.date:%A %d %B %Y}\nTurn {view.turn} of {view.turns}\n"
            f"Phase: {current.name}"
            + (f"\nStill needed: {needed[0]}" if needed else "")
        )
        if not self._sky_shown:  # the first time; after a change, the box keeps its lines until the new ones come
            self.query_one("#sky", Static).update(
                f"Weather now: {view.weather or 'not rolled'}\nNext turn: …\nMonth modifier: …\n"
                f"Pending battles: {view.pending_battles}"
            )
        self.call_after_refresh(self._read_sky)  # once this frame is drawn (the app's first, at start-up)
        lines = []
        fog = self.session.side  # a side file: the enemy is known only by sightings
        for side in view.sides:
            if fog is not None and side.id != fog:
                lines.append(f"{side.name}: known only by what you have seen (S)")
                continue
            rolled = [a for a in view.armies if a.side == side.id and a.points_rolled is not None]
            pc_text = f"{sum(a.points_left for a in rolled)} PC left" if rolled else "PC not rolled"
            apart = [f"+{plural(side.dummies, 'dummy', 'dummies')}"] if side.dummies else []
            apart += [f"+{side.eliminated} eliminated"] if side.eliminated else []
            lines.append(
                f"{side.name}: {side.strength_points} SP in {plural(side.units - side.dummies, 'unit')}"
                + (f" ({', '.join(apart)})" if apart else "") + f"; {pc_text}"
            )
        self.query_one("#sides", Static).update("\n".join(lines))

        # A table drawn a line at a time (as the history's): the first screen of the app
        # is drawn without a DataTable, whose styles, measuring and drawing of every cell
        # through Rich cost some 60 ms of the first frame. The commander's name, last,
        # wraps when the screen is narrow.
        rows = []
        for army in view.armies:
            pc = "-" if army.points_rolled is None else f"{army.points_left}/{army.points_rolled}"
            cv = "-" if army.command_value is None else army.command_value
            # The units present: the eliminated are said on the side's line (a wider column
            # would take the commander's room at 80 columns).
            rows.append((army.name, army.strength_points, army.units, pc, cv, army.commander or "-"))
        table = self.query_one("#armies", LineTable)
        table.set_rows(("Army", "SP", "Units", "PC", "CV", "Commander"), rows, cursor=min(table.cursor_row, max(len(rows) - 1, 0)))

    @work(thread=True, exclusive=True, group="overview-sky")
    def _read_sky(self) -> None:
        # Once the umpire pauses (tui.app.QUIET): the first read loads the rule set's tables
        # (60-80 ms of Python), which a key's screen would otherwise wait for, Python's lock
        # shared, on the first visit right after start-up. The weather's screen loads them
        # when it is first shown; the box here keeps its "…" until then.
        app = self.adjutant
        app.wait_for_quiet(but=get_current_worker())
        if not app.is_running:
            return
        try:
            now = glance(self.session)
        except CampaignError as exc:
            back_to(self, self.notify, str(exc), severity="error", timeout=8)
            return
        back_to(self, self._show_sky, now)

    def _show_sky(self, now: Glance) -> None:
        if not self.query("#sky"):
            return  # the answer came after the app closed the screen
        self._sky_shown = True
        view = now.view
        self.query_one("#sky", Static).update(
            f"Weather now: {now.weather_now}\nNext turn: {now.next_weather}\n"
            f"Month modifier: {now.month_modifier.value:+d}\n"
            f"Pending battles: {view.pending_battles}"
        )

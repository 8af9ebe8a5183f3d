"""Reconnaissance: choose the reconnoitring cavalry and the screen, see the odds, roll."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Select, Static

from campaigns import forces, reconnaissance
from campaigns.errors import CampaignError
from campaigns.words import column
from tui.screens.base import CampaignScreen
from tui.widgets.bars import odds_bar
from tui.widgets.marklist import MarkList


class ReconnaissanceScreen(CampaignScreen):
    TITLE_TEXT = "Reconnaissance"
    BINDINGS = [
        # Not F5: that is the app's Reload on every screen.
        Binding("ctrl+r", "roll", "Roll", id="recon.roll", tooltip="Roll the reconnaissance (1d6 on its table)"),
        Binding("ctrl+e", "enter", "Enter die", id="recon.enter", tooltip="Type in the die rolled on the table"),
    ]
    DEFAULT_CSS = """
    ReconnaissanceScreen #lists { height: 1fr; }
    ReconnaissanceScreen #lists MarkList { height: 1fr; max-height: 100%; }
    ReconnaissanceScreen #preview { height: auto; padding: 0 1; }
    ReconnaissanceScreen Select { width: 48; }
    """

    def body(self) -> ComposeResult:
        self.sides = forces.stacks(self.session)
        yield Static("Reconnaissance (6.3): Space marks, s a whole stack; ctrl+r rolls", classes="title")
        yield Select([(f"{s.name} reconnoitres", s.side) for s in self.sides], allow_blank=False, id="who", compact=True)
        with Vertical(id="lists"):
            yield Static("Reconnoitring units (one stack), by place and general", id="ours-title")
            yield MarkList(id="ours")
            yield Static("Screening units: mark the reconnoitring stack first", id="theirs-title", markup=False)
            yield MarkList(id="theirs")
        yield Static(id="preview", markup=False)

    def refresh_view(self) -> None:
        who = str(self.query_one("#who", Select).value)
        self.sides = forces.stacks(self.session)
        ours = self.query_one("#ours", MarkList)
        ours.set_stacks([st for side in self.sides if side.side == who for st in side.stacks])
        self.show_screens()
        self.show_preview()

    def show_screens(self) -> None:
        """The enemy stacks in reach of the stack the reconnaissance is made from (option
        reconnaissance_reach): a screen is chosen from those only."""
        who = str(self.query_one("#who", Select).value)
        title = self.query_one("#theirs-title", Static)
        try:
            place = reconnaissance.from_one_place(self.session, self.query_one("#ours", MarkList).selected)
        except CampaignError:
            place = None  # units of several places: the preview says why
        theirs = self.query_one("#theirs", MarkList)
        if place is None:
            theirs.set_stacks([])
            title.update("Screening units: mark the reconnoitring stack first")
            return
        reach = reconnaissance.reach_from(self.session, place)
        theirs.set_stacks([st for side in self.sides if side.side != who for st in side.stacks if st.place in reach])
        found = "" if theirs.stacks else ": no enemy stack in reach"
        title.update(f"Screening units in reach of {place}{found}")

    def on_select_changed(self, _event: Select.Changed) -> None:
        for list_id in ("#ours", "#theirs"):
            self.query_one(list_id, MarkList).marked = set()
        self.refresh_view()

    def on_mark_list_changed(self, event: MarkList.Changed) -> None:
        if event.marks.id == "ours":
            self.show_screens()
        self.show_preview()

    def chosen(self) -> tuple[list[str], list[str]]:
        return self.query_one("#ours", MarkList).selected, self.query_one("#theirs", MarkList).selected

    def show_preview(self) -> None:
        ours, theirs = self.chosen()
        preview = self.query_one("#preview", Static)
        if not ours:
            preview.update("Mark the units making the reconnaissance, and the units screening.")
            return
        try:
            reconnaissance.check_reach(self.session, ours, theirs)
            step = reconnaissance.plan(self.session, ours, theirs)
        except CampaignError as exc:
            preview.update(str(exc))
            return
        if step.column is None:
            preview.update(f"Cavalry SP differential {step.differential}: no column, nothing to roll.")
            return
        mods = ", ".join(f"{m.label} {m.value:+d}" for m in step.modifiers) or "none"
        lines = [f"Cavalry SP differential {step.differential}: column {column(step.column)}; modifiers: {mods}"]
        lines += [f"  {k:>2} {odds_bar(p, 12)} {float(p) * 100:5.1f}%" for k, p in step.odds.items()]
        preview.update("\n".join(lines))

    def _roll(self, typed: bool) -> None:
        ours, theirs = self.chosen()
        self.with_dice("the reconnaissance", "1d6",
                       lambda d: self.attempt(lambda: reconnaissance.reconnoitre(self.session, ours, theirs, d, in_reach=True), worker=True), typed=typed)

    def action_roll(self) -> None:
        self._roll(typed=False)

    def action_enter(self) -> None:
        self._roll(typed=True)

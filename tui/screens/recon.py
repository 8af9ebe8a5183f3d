"""Reconnaissance: choose the reconnoitring cavalry and the screen, see the odds, roll."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Select, SelectionList, Static

from campaigns import oob, reconnaissance
from campaigns.errors import CampaignError
from tui.screens.base import CampaignScreen
from tui.widgets.bars import odds_bar


class ReconnaissanceScreen(CampaignScreen):
    TITLE_TEXT = "Reconnaissance"
    BINDINGS = [
        Binding("ctrl+r,f5", "roll", "Roll", id="recon.roll", tooltip="Roll the reconnaissance (1d6 on its table)"),
        Binding("ctrl+e,f6", "enter", "Enter die", id="recon.enter", tooltip="Type in the die rolled on the table"),
    ]
    DEFAULT_CSS = """
    ReconnaissanceScreen #lists { height: 1fr; }
    ReconnaissanceScreen SelectionList { width: 1fr; height: 1fr; }
    ReconnaissanceScreen #preview { height: auto; padding: 0 1; }
    ReconnaissanceScreen Select { width: 48; }
    """

    def body(self) -> ComposeResult:
        self.sides = oob.tree(self.session)
        yield Static("Reconnaissance (6.3): space marks units; F5 rolls", classes="title")
        yield Select([(f"{s.side.name} reconnoitres", s.side.id) for s in self.sides], allow_blank=False, id="who")
        with Horizontal(id="lists"):
            with Vertical():
                yield Static("Reconnoitring units", id="ours-title")
                yield SelectionList[str](id="ours")
            with Vertical():
                yield Static("Screening units", id="theirs-title")
                yield SelectionList[str](id="theirs")
        yield Static(id="preview", markup=False)

    def refresh_view(self) -> None:
        who = str(self.query_one("#who", Select).value)
        self.sides = oob.tree(self.session)
        for list_id, mine in (("#ours", True), ("#theirs", False)):
            widget = self.query_one(list_id, SelectionList)
            keep = set(widget.selected)
            widget.clear_options()
            for side in self.sides:
                if (side.side.id == who) == mine:
                    for u in oob.side_units(side):
                        label = f"{u.name} ({'dummy' if u.kind == 'dummy' else f'{u.kind} {u.strength_points} SP'}, coh {u.cohesion})"
                        widget.add_option((label, u.id, u.id in keep))
        self.show_preview()

    def on_select_changed(self, _event: Select.Changed) -> None:
        for list_id in ("#ours", "#theirs"):
            self.query_one(list_id, SelectionList).deselect_all()
        self.refresh_view()

    def on_selection_list_selected_changed(self, _event: SelectionList.SelectedChanged) -> None:
        self.show_preview()

    def chosen(self) -> tuple[list[str], list[str]]:
        return list(self.query_one("#ours", SelectionList).selected), list(self.query_one("#theirs", SelectionList).selected)

    def show_preview(self) -> None:
        ours, theirs = self.chosen()
        preview = self.query_one("#preview", Static)
        if not ours:
            preview.update("Mark the units making the reconnaissance, and the units screening.")
            return
        try:
            step = reconnaissance.plan(self.session, ours, theirs)
        except CampaignError as exc:
            preview.update(str(exc))
            return
        if step.column is None:
            preview.update(f"Cavalry SP differential {step.differential}: no column, nothing to roll.")
            return
        mods = ", ".join(f"{m.label} {m.value:+d}" for m in step.modifiers) or "none"
        lines = [f"Cavalry SP differential {step.differential}: column {step.column}; modifiers: {mods}"]
        lines += [f"  {k:>2} {odds_bar(p, 12)} {float(p) * 100:5.1f}%" for k, p in step.odds.items()]
        preview.update("\n".join(lines))

    def _roll(self, typed: bool) -> None:
        ours, theirs = self.chosen()
        self.with_dice("the reconnaissance", "1d6",
                       lambda d: self.attempt(lambda: reconnaissance.reconnoitre(self.session, ours, theirs, d)), typed=typed)

    def action_roll(self) -> None:
        self._roll(typed=False)

    def action_enter(self) -> None:
        self._roll(typed=True)

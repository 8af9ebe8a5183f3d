"""Turn sequence: the phases, the current one highlighted with what it still needs."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from campaigns import turns
from tui.modals.confirm import ConfirmScreen
from tui.screens.base import CampaignScreen
from tui.widgets.hanging import Hanging


class TurnScreen(CampaignScreen):
    TITLE_TEXT = "Turn sequence"
    BINDINGS = [
        Binding("n", "advance", "Next phase", id="turn.advance", tooltip="Move on to the next phase (asks first when something is still needed)"),
    ]
    UMPIRE_ONLY = frozenset({"advance"})
    DEFAULT_CSS = """
    TurnScreen #phases { height: auto; border: round $primary; padding: 0 1; }
    TurnScreen #needs { height: auto; padding: 0 1; }
    """

    def body(self) -> ComposeResult:
        yield Static("Turn sequence", classes="title")
        yield Static(id="heading", markup=False)
        yield Static(id="phases", markup=False)
        yield Static(id="needs", markup=False)

    def refresh_view(self) -> None:
        status = turns.status(self.session)
        self.query_one("#heading", Static).update(
            f"Turn {status.turn} of {status.turns}, {status.date:%d %B %Y}"
        )
        lines: list[str | Text] = []
        for number, phase in enumerate(status.phases, start=1):
            if phase.id == status.phase.id:
                lines.append(Text(f"> {number}. {phase.name}", style="reverse bold"))
                lines.append(f"     {phase.help}")
            else:
                lines.append(f"  {number}. {phase.name}")
        # The current phase's description goes on under its first line, not at the box's edge.
        self.query_one("#phases", Static).update(Hanging(lines, indent=0))
        needs = (
            "Still needed: " + "; ".join(status.outstanding)
            if status.outstanding
            else f"Nothing more is needed in this phase{self.hint(('advance', ': n moves on'))}."
        )
        if status.phase.id == "battles":
            from campaigns.contact import contacts

            found = contacts(self.session)
            from tui.screens.battles import BattlesScreen

            # x shows the battles to anyone; setting one up there is the umpire's (BattlesScreen's n)
            setting_up = " (x sets one up)" if BattlesScreen.offered("new", self.session) else ""
            needs += f"\n\nBattles to set up, where the two sides' stacks are in contact{setting_up}:\n" + (
                "\n".join(f"  {c.describe()}" for c in found) if found else "  none this turn"
            )
        # A contact's line that wraps goes on deeper than itself, not at the edge.
        self.query_one("#needs", Static).update(Hanging(needs.split("\n")))

    def action_advance(self) -> None:
        """Move on at once when the phase is done; ask first only when something is outstanding."""
        status = turns.status(self.session)
        if not status.outstanding:
            self.attempt(lambda: turns.advance(self.session), worker=True)
            return
        question = f"Leave {status.phase.name} for the next phase?"
        if status.phase.id == status.phases[-1].id:
            question = f"End turn {status.turn} and begin turn {status.turn + 1}?"
        question += "\n\nThis phase still needs: " + "; ".join(status.outstanding) + ".\nAdvance anyway?"

        def answered(yes: bool | None) -> None:
            if yes:
                self.attempt(lambda: turns.advance(self.session, anyway=True), worker=True)

        self.app.push_screen(ConfirmScreen(question, yes="Advance"), answered)

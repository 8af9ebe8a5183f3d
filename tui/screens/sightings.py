"""What a side has seen of the enemy, turn by turn: in a side file its own; the umpire's for each side."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from campaigns import knowledge
from campaigns.errors import CampaignError
from campaigns.words import plural
from tui.screens.base import CampaignScreen
from tui.widgets.cells import fill


HEADERS = ("Turn", "Place", "How", "Learned")


def _cells(s: knowledge.SightingRow) -> tuple[object, ...]:
    how = f"{s.source} {s.result}" if s.result is not None else s.source
    return (s.turn, s.place, how, knowledge.describe(s).split(": ", 1)[1])


class SightingsScreen(CampaignScreen):
    TITLE_TEXT = "Sightings"
    BINDINGS = [
        Binding("v", "next_side", "Next side", id="sightings.side", tooltip="The umpire: show what the other side knows"),
        Binding("c", "contacts", "Contacts", id="sightings.contacts", tooltip="The umpire: every stack in contact sees the enemy in reach"),
    ]
    UMPIRE_ONLY = frozenset({"contacts", "next_side"})  # a side file holds its own side alone

    side: str | None = None

    def body(self) -> ComposeResult:
        yield Static(id="title", classes="title", markup=False)
        yield DataTable(id="list", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#list", DataTable).focus()

    def _sides(self) -> list[str]:
        player = self.session.side
        return [player] if player is not None else knowledge.side_ids(self.session)

    def refresh_view(self) -> None:
        sides = self._sides()
        if self.side not in sides:
            self.side = sides[0]
        try:
            known = knowledge.known(self.session, self.side)
        except CampaignError as exc:
            self.notify(str(exc), severity="error")
            return
        keys = self.hint(("next_side", "v the other side"), ("contacts", "c sight contacts"), between="; ")
        more = f" ({keys})" if keys else ""
        self.query_one("#title", Static).update(
            f"What {known.side_name} has seen, to turn {known.turn}: {plural(len(known.sightings), 'sighting')}{more}"
        )
        # Widths counted here (tui.widgets.cells.fill), not by the table once idle: refilled
        # by `v` right after the screen's key, a DataTable drew its rows at the width of
        # the headers first and kept that drawing ("Bautz", "bat").
        # What was learned wraps onto more lines of its row rather than running off the edge
        # (at 80 columns: "led by General Winzingero").
        table = self.query_one("#list", DataTable)
        fill(table, HEADERS, ((None, _cells(s)) for s in reversed(known.sightings)),  # newest first
             wrap_to=table.size.width or self.app.size.width)

    def action_next_side(self) -> None:
        sides = self._sides()
        self.side = sides[(sides.index(self.side) + 1) % len(sides)] if self.side in sides else sides[0]
        self.refresh_view()

    def action_contacts(self) -> None:
        self.attempt(lambda: knowledge.sight_contacts(self.session), worker=True)

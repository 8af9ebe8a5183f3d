"""Overview: the campaign at a glance, always one key away."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from campaigns import command_points, oob, turns, weather
from tui.screens.base import CampaignScreen
from tui.widgets.cells import plain


class OverviewScreen(CampaignScreen):
    TITLE_TEXT = "Overview"
    DEFAULT_CSS = """
    OverviewScreen #top { height: auto; }
    OverviewScreen #when, OverviewScreen #sky { width: 1fr; height: auto; border: round $primary; padding: 0 1; }
    OverviewScreen #sides { height: auto; border: round $primary; padding: 0 1; }
    OverviewScreen DataTable { height: 1fr; }
    """

    def body(self) -> ComposeResult:
        yield Static("Overview", classes="title")
        with Horizontal(id="top"):
            yield Static(id="when", markup=False)
            yield Static(id="sky", markup=False)
        yield Static(id="sides", markup=False)
        with Vertical():
            yield DataTable(id="armies", cursor_type="row", zebra_stripes=True)

    def refresh_view(self) -> None:
        view = self.session.overview()
        status = turns.status(self.session)
        sky = weather.now(self.session)
        track = weather.track(self.session)
        following = next((t for t in track if t.number == sky.turn + 1), None)
        if following is None:
            next_text = "none: last turn"
        elif following.weather:
            next_text = following.weather
        else:
            next_text = "Mud (forced by Rain*)" if sky.next_forced_mud else "to be rolled"
        self.query_one("#when", Static).update(
            f"{view.name}\n{view.date:%A %d %B %Y}\nTurn {view.turn} of {view.turns}\n"
            f"Phase: {status.phase.name}"
            + (f"\nStill needed: {status.outstanding[0]}" if status.outstanding else "")
        )
        self.query_one("#sky", Static).update(
            f"Weather now: {view.weather or 'not rolled'}\nNext turn: {next_text}\n"
            f"Month modifier: {sky.month_modifier.value:+d}\n"
            f"Pending battles: {view.pending_battles}"
        )
        points = command_points.turn_points(self.session)
        sides = oob.tree(self.session)
        lines = []
        for side, node in zip(view.sides, sides):
            pc = [p for p in points if p.side == side.id]
            rolled = [p for p in pc if p.rolled is not None]
            pc_text = f"{sum(p.balance for p in rolled)} PC left" if rolled else "PC not rolled"
            total = oob.totals(oob.side_units(node))
            dummies = f" (+{total.dummies} dummies)" if total.dummies else ""
            lines.append(f"{side.name}: {total.strength_points} SP in {total.units} units{dummies}; {pc_text}")
        self.query_one("#sides", Static).update("\n".join(lines))

        table = self.query_one("#armies", DataTable)
        table.clear(columns=True)
        table.add_columns("Army", "SP", "Units", "PC left", "CV", "Commander-in-chief")
        by_army = {p.army: p for p in points}
        for side in sides:
            for node in side.armies:
                units = oob.army_units(node)
                total = oob.totals(units)
                p = by_army.get(node.army.id)
                pc = "-" if p is None or p.rolled is None else f"{p.balance}/{p.rolled}"
                table.add_row(
                    *plain(
                        node.army.name,
                        total.strength_points,
                        total.units,
                        pc,
                        p.command_value if p and p.command_value is not None else "-",
                        p.commander if p and p.commander else "-",
                    ),
                    key=node.army.id,
                )

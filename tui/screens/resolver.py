"""The resolver screen: a battle on the tabletop, run by the rule set's own card.

Left, the card's sequence of play as a checklist (the phase now, whose bound it
is, what is still waiting); right, the tactical order of battle.  r resolves
what the highlighted unit does in this phase (ResolutionScreen), n ticks the
phase off; the battle ends with d, which sends the losses back to the campaign.
"""

from __future__ import annotations

import textwrap
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from campaigns import tabletop
from campaigns.errors import CampaignError
from rules.options import load_options
from rules.resolver import ATTACKER, DEFENDER
from tui.modals.confirm import ConfirmScreen
from tui.modals.form import FormScreen
from tui.modals.pick import PickScreen
from tui.modals.resolution import ResolutionScreen, allowed_actions
from tui.screens.base import CampaignScreen
from tui.widgets.cells import plain

LOG_LINES = 3


def unit_marks(table: tabletop.Tabletop, unit) -> str:
    if unit.removed:
        return "removed"
    marks = [f"{a.label.lower()} {unit.attrs[a.id]}" for a in table.resolver.attributes
             if a.id in table.resolver.shown and unit.attrs.get(a.id)]
    # a state that lasts a number of bounds (turns) shows how many are left, this one counted
    marks += [table.resolver.state(s).label + (f" ({left})" if left else "")
              for s, left in unit.states.items() if _known(table, s)]
    return ", ".join(marks)


def _known(table: tabletop.Tabletop, state: str) -> bool:
    return any(s.id == state for s in table.resolver.states)


WIDTH = 22  # of the checklist's text: 27 columns, less the padding and the scroll bar


def _line(text: str) -> str:
    return text if len(text) <= WIDTH else text[: WIDTH - 1] + "…"


def checklist(table: tabletop.Tabletop) -> list[str]:
    """The sequence of play, a line a phase: done ✓, now ▶ (with who acts), to come."""
    r, at = table.resolver, table.position
    lines = [f"{r.turn_label.title()} {at.turn}" + (f": the {at.bound}'s" if r.alternating else "")]
    lines += [_line(f"{name} = {side}") for side, name in r.side_names(table.options).items()]
    for i, phase in enumerate(r.phases):
        mark = "✓" if i < at.phase else "▶" if i == at.phase else " "
        lines.append(_line(f"{mark} {phase.title}"))
        if i == at.phase:
            who = phase.who or {"active": at.bound, "inactive": "the other side", "both": "both sides"}.get(phase.acts, phase.acts)
            lines += [f"  {part}" for part in textwrap.wrap(f"({who})", WIDTH - 2)]
    waiting = table.unfinished()
    if waiting:
        lines += ["", "Waiting:"] + [f"· {w}" for w in waiting]
    return lines


class ResolverScreen(CampaignScreen):
    TITLE_TEXT = "Tabletop"
    BINDINGS = [
        Binding("r", "resolve", "Resolve", id="resolver.resolve", tooltip="What the highlighted unit does in this phase"),
        Binding("n", "next_phase", "Next phase", id="resolver.next", tooltip="Tick the phase off the sequence of play"),
        Binding("N", "previous_phase", "Back a phase", id="resolver.previous", show=False,
                tooltip="Go back one phase of this bound, where the card sends you back"),
        Binding("e", "edit", "Edit unit", id="resolver.edit", tooltip="Change the highlighted unit's size and attributes"),
        Binding("a", "add", "Add unit", id="resolver.add", tooltip="A unit entered by hand"),
        Binding("k", "markers", "Markers", id="resolver.markers", tooltip="Put a state on the highlighted unit, or take it off"),
        Binding("p", "options", "Options", id="resolver.options", tooltip="The rule set's named options for this battle"),
        Binding("d", "end", "End battle", id="resolver.end", tooltip="Who held the field; the losses go back to the campaign"),
        Binding("escape", "back", "Battle", id="resolver.back"),
    ]
    DEFAULT_CSS = """
    ResolverScreen #main { height: 1fr; }
    ResolverScreen #checklist-box { width: 27; border-right: solid $primary; scrollbar-size-vertical: 1; }
    ResolverScreen #checklist { padding: 0 1; }
    ResolverScreen #units { width: 1fr; }
    ResolverScreen #detail { height: 5; padding: 0 1; border-top: solid $primary; }
    """

    def __init__(self, battle_id: int) -> None:
        super().__init__()
        self.battle_id = battle_id
        self.table: tabletop.Tabletop | None = None

    def body(self) -> ComposeResult:
        yield Static(id="head", classes="title", markup=False)
        with Horizontal(id="main"):
            with VerticalScroll(id="checklist-box"):
                yield Static(id="checklist", markup=False)
            with Vertical(id="units-box"):
                yield DataTable(id="units", cursor_type="row", zebra_stripes=True)
        yield Static(id="detail", markup=False)

    def on_mount(self) -> None:
        self.query_one("#units", DataTable).focus()

    def refresh_view(self) -> None:
        table = self.table = tabletop.load(self.session, self.battle_id)
        phase = table.phase
        state = "over" if table.ended else f"{table.resolver.turn_label} {table.position.turn}, {phase.title}"
        self.query_one("#head", Static).update(f"{table.location} #{table.battle_id} · {table.resolver.title} · {state}")
        self.query_one("#checklist", Static).update("\n".join(checklist(table)))
        box = self.query_one("#checklist-box", VerticalScroll)
        box.can_focus = False
        self.call_after_refresh(box.scroll_to, y=max(0, table.position.phase - 3), animate=False)
        grid = self.query_one("#units", DataTable)
        keep = grid.cursor_row
        grid.clear(columns=True)
        grid.add_columns("Id", "Unit", table.resolver.size_label.title(), "State")
        for side in (ATTACKER, DEFENDER):
            for unit in table.side_units(side, present=False):
                grid.add_row(*plain(unit.id, unit.name[:30], f"{unit.size}/{unit.start}", unit_marks(table, unit)), key=unit.id)
        if grid.row_count:
            grid.move_cursor(row=min(keep, grid.row_count - 1))
        self.show_detail()

    def selected(self) -> str | None:
        grid = self.query_one("#units", DataTable)
        if grid.row_count == 0:
            return None
        return str(grid.coordinate_to_cell_key(grid.cursor_coordinate).row_key.value)

    def on_data_table_row_selected(self, _event: DataTable.RowSelected) -> None:
        self.action_resolve()  # Enter on a unit: what it does

    def on_data_table_row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        table = self.table
        if table is None:
            return
        lines = []
        unit_id = self.selected()
        if unit_id in table.units:
            u = table.units[unit_id]
            attrs = ", ".join(f"{a.label} {u.attrs.get(a.id)}" for a in table.resolver.attributes
                              if u.attrs.get(a.id) not in (None, False, 0, "-"))
            lines.append(f"{u.id} {u.name} ({u.side}, {u.arm}): {attrs}")
        for entry in table.log[-(LOG_LINES if lines else LOG_LINES + 1):]:
            actor = table.units.get(entry["actor"])
            dice = f" [{' '.join(map(str, entry['raw']))}]" if entry.get("raw") else ""
            lines.append(f"{actor.id if actor else entry['actor']} {entry['action'].replace('_', ' ')}{dice}: {entry['text']}")
        if not table.log:
            lines.append("r resolves what the highlighted unit does; n moves to the next phase.")
        self.query_one("#detail", Static).update("\n".join(lines))

    # -- actions -------------------------------------------------------------

    def _open(self) -> tabletop.Tabletop | None:
        table = self.table = tabletop.load(self.session, self.battle_id)
        if table.ended or table.status != "pending":
            self.notify("The tabletop battle is over: Escape goes back to the battle.", severity="warning")
            return None
        return table

    def action_resolve(self) -> None:
        table = self._open()
        unit_id = self.selected()
        if table is None or unit_id is None:
            return
        unit = table.units[unit_id]
        if unit.removed:
            self.notify(f"{unit.name} has been removed from the table.", severity="warning")
            return
        actions = allowed_actions(table, unit_id)
        if not actions:
            self.notify(f"{unit.name} ({unit.side}) has nothing to do in the {table.phase.title} phase.", severity="warning")
            return
        typed_in = self.session.campaign().dice_mode == "entered"
        self.app.push_screen(ResolutionScreen(table, unit_id, actions, typed_in), self._resolved)

    def _resolved(self, choice: dict[str, Any] | None) -> None:
        if not choice:
            return
        args = {k: choice[k] for k in ("action", "actor", "target", "ticked", "numbers", "entered")}
        self.attempt(lambda: tabletop.resolve(self.session, self.battle_id, **args))

    def action_next_phase(self) -> None:
        if self._open() is not None:
            # no notice: the checklist shows the phase now, and notices would pile up over the table
            self.attempt(lambda: tabletop.next_phase(self.session, self.battle_id), done="")

    def action_previous_phase(self) -> None:
        if self._open() is not None:
            self.attempt(lambda: tabletop.previous_phase(self.session, self.battle_id), done="")

    def _unit_fields(self, unit) -> list[tuple[str, str, str, list[str] | None]]:
        assert self.table is not None
        r = self.table.resolver
        fields: list[tuple[str, str, str, list[str] | None]] = [("name", "Name", unit.name if unit else "", None)]
        if unit is None:
            fields += [("side", "Side", ATTACKER, [ATTACKER, DEFENDER]), ("arm", "Arm", r.arms[0], list(r.arms))]
            fields.append(("size", r.size_label.title(), "4", None))
        else:
            fields += [("size", f"{r.size_label.title()} now", str(unit.size), None),
                       ("start", f"{r.size_label.title()} at start", str(unit.start), None)]
        for a in r.attributes:
            value = unit.attrs.get(a.id, a.default) if unit else a.default
            if a.kind == "choice":
                fields.append((a.id, a.label, str(value), list(a.choices)))
            elif a.kind == "bool":
                fields.append((a.id, a.label, "yes" if value else "no", ["no", "yes"]))
            else:
                fields.append((a.id, a.label, "" if value is None else str(value), None))
        return fields

    def action_edit(self) -> None:
        table = self._open()
        unit_id = self.selected()
        if table is None or unit_id is None:
            return
        unit = table.units[unit_id]
        self.app.push_screen(
            FormScreen(f"{unit.id} {unit.name}", self._unit_fields(unit),
                       check=lambda v: tabletop.edit_unit(self.session, self.battle_id, unit_id, v)),
            lambda v: self.app.campaign_changed() if v else None,  # type: ignore[attr-defined]
        )

    def action_add(self) -> None:
        if self._open() is None:
            return
        self.app.push_screen(
            FormScreen("A unit entered by hand", self._unit_fields(None),
                       check=lambda v: tabletop.add_unit(self.session, self.battle_id, v)),
            lambda v: self.app.campaign_changed() if v else None,  # type: ignore[attr-defined]
        )

    def action_markers(self) -> None:
        table = self._open()
        unit_id = self.selected()
        if table is None or unit_id is None:
            return
        unit = table.units[unit_id]
        items = [(s.id, f"{'take off' if unit.has(s.id) else 'put on'}: {s.label} ({s.lasts})") for s in table.resolver.states]

        def picked(state: str | None) -> None:
            if state:
                self.attempt(lambda: tabletop.set_state(self.session, self.battle_id, unit_id, state, not unit.has(state)))

        self.app.push_screen(PickScreen(f"Markers of {unit.name}", items), picked)

    def action_options(self) -> None:
        table = self._open()
        if table is None:
            return
        options = load_options(table.resolver.ruleset)
        items = [(o.id, f"{o.title}: {table.options[o.id]}") for o in options.values()]

        def picked(option_id: str | None) -> None:
            if not option_id:
                return
            option = options[option_id]
            choices = [(k, f"{k}: {text}") for k, text in option.choices.items()]
            self.app.push_screen(
                PickScreen(f"{option.title} (default {option.default})", choices),
                lambda value: value and self.attempt(lambda: tabletop.set_option(self.session, self.battle_id, option_id, value)),
            )

        self.app.push_screen(PickScreen("Rules options for this battle", items), picked)

    def action_end(self) -> None:
        if self._open() is None:
            return

        def winner(side: str | None) -> None:
            if not side:
                return
            try:
                back = tabletop.returned(self.session, self.battle_id, side)
            except CampaignError as exc:
                self.notify(str(exc), severity="error")
                return
            lines = back.lines[:12] + ([f"... and {len(back.lines) - 12} more"] if len(back.lines) > 12 else [])
            question = f"End the battle: the {side} held the field.\n" + "\n".join(lines)

            def answered(yes: bool | None) -> None:
                if yes and self.attempt(lambda: tabletop.end(self.session, self.battle_id, side)) is not None:
                    self.action_back()

            self.app.push_screen(ConfirmScreen(question, yes="End battle"), answered)

        self.app.push_screen(PickScreen("Who held the field?", [(ATTACKER, "the attacker"), (DEFENDER, "the defender")]), winner)

    def action_back(self) -> None:
        self.app.open_battle(self.battle_id)  # type: ignore[attr-defined]

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
from campaigns.words import heading
from rules.options import load_options
from rules.resolver import ATTACKER, DEFENDER
from tui.modals.confirm import ConfirmScreen
from tui.modals.form import FormScreen
from tui.modals.pick import PickScreen
from tui.modals.resolution import ResolutionScreen, allowed_actions, refused_now
from tui.screens.base import REFUSALS, CampaignScreen
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
CHECKLIST_WIDTH = 27
STATE_WIDTH = 18  # the State column is never narrower: "en rupture (broken)" reads whole
NAME_WIDTH = 18  # nor the unit's name: "31st Division (Fre…" still tells units apart


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def state_lines(marks: str, width: int) -> list[str]:
    """A unit's states on as many lines as they need, a state kept whole on its line where it fits."""
    lines: list[str] = []
    items = marks.split(", ") if marks else []
    for n, item in enumerate(items):
        comma = 0 if n == len(items) - 1 else 1  # room for the comma after it: a line never outgrows the column
        if lines and len(lines[-1]) + 2 + len(item) + comma <= width:
            lines[-1] += ", " + item
        else:
            if lines:
                lines[-1] += ","
            lines += textwrap.wrap(item, width - comma) or [item]
    return lines or [""]


def column_widths(rows: list[tuple[str, str, str, str]], room: int, size_label: str) -> tuple[int, int, int, int]:
    """Widths of Id, Unit, size and State in `room` columns (the screen less the
    checklist): the unit's name gives way so the State column keeps whole words."""
    room -= 1 + 4 * 2  # the scroll bar; a column's padding each side
    id_w = max([2, *(len(r[0]) for r in rows)])
    size_w = max([len(size_label), *(len(r[2]) for r in rows)])
    name_w = max([4, *(len(r[1]) for r in rows)])
    state_w = max([5, *(len(r[3]) for r in rows)])
    longest = max([0, *(len(item) + 1 for r in rows for item in r[3].split(", ") if r[3])])
    left = room - id_w - size_w
    if name_w + state_w > left:
        # one state whole on a line ("en désordre (disordered),"), the names cut if they must
        state_w = max(STATE_WIDTH, min(state_w, max(longest, left - min(name_w, 24)), left - NAME_WIDTH))
        name_w = max(NAME_WIDTH, left - state_w)
    return id_w, name_w, size_w, state_w


def _line(text: str) -> str:
    return text if len(text) <= WIDTH else text[: WIDTH - 1] + "…"


def checklist(table: tabletop.Tabletop) -> list[str]:
    """The sequence of play, a line a phase: done ✓, now ▶ (with who acts), to come."""
    r, at = table.resolver, table.position
    lines = [f"{r.turn_label.title()} {at.turn}" + (f": the {at.bound}'s" if r.alternating else "")]
    lines += [_line(f"{name} = {side}") for side, name in r.side_names(table.options).items()]
    # what the battle knows beyond its units: who holds the initiative...
    lines += [part for text in table.battle_lines() for part in textwrap.wrap(text, WIDTH, subsequent_indent="  ")]
    for i, phase in enumerate(r.phases):
        mark = "✓" if i < at.phase else "▶" if i == at.phase else " "
        # whole names, wrapped: "8. Austrians Move/French Infantry, Artillery Shoot" is the card's line
        lines += textwrap.wrap(f"{mark} {phase.title}", WIDTH, subsequent_indent="  ")
        if i == at.phase:
            who = phase.who or {"active": at.bound, "inactive": "the other side", "both": "both sides"}.get(phase.acts, phase.acts)
            lines += [f"  {part}" for part in textwrap.wrap(f"({who})", WIDTH - 2)]
    waiting = table.unfinished()
    if waiting:
        lines += ["", "Waiting:"] + [f"· {w}" for w in waiting]
    return lines


def follows_arm(table: tabletop.Tabletop) -> dict[str, Any]:
    """The unit form's choices that depend on the arm (unit types, formations...) follow the
    Arm field: the list opens with the artillery types for artillery, short enough for 24 lines."""
    return {a.id: ("arm", lambda arm, a=a: [(a.label_of(c), c) for c in a.choices_for(arm)])
            for a in table.resolver.attributes if a.kind == "choice" and a.by_arm}


class UnitsTable(DataTable):
    """The tactical order of battle: Home and End go to the first and the last unit."""

    BINDINGS = [
        Binding("home", "scroll_top", "First unit", show=False),
        Binding("end", "scroll_bottom", "Last unit", show=False),
    ]


class ResolverScreen(CampaignScreen):
    TITLE_TEXT = "Tabletop"
    BINDINGS = [
        Binding("r", "resolve", "Resolve", id="resolver.resolve", tooltip="What the highlighted unit does in this phase"),
        Binding("n", "next_phase", "Next phase", id="resolver.next", tooltip="Tick the phase off the sequence of play"),
        Binding("N", "previous_phase", "Back a phase", id="resolver.previous", show=False,
                tooltip="Go back one phase of this bound, where the card sends you back"),
        Binding("e", "edit", "Edit", id="resolver.edit", tooltip="Change the highlighted unit's size and attributes"),
        Binding("a", "add", "Add", id="resolver.add", tooltip="A unit entered by hand"),
        Binding("k", "markers", "Markers", id="resolver.markers", tooltip="Put a state on the highlighted unit, or take it off"),
        Binding("z", "take_back", "Take back", id="resolver.take_back", show=False,
                tooltip="Take back the last resolution as one step, even after the phase moved on"),
        Binding("j", "contact", "Contact", id="resolver.contact",
                tooltip="The umpire's ruling: the highlighted unit in contact with an enemy, or no longer"),
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
                yield UnitsTable(id="units", cursor_type="row", zebra_stripes=True)
        yield Static(id="detail", markup=False)

    def on_mount(self) -> None:
        self.query_one("#units", DataTable).focus()

    def refresh_view(self) -> None:
        try:
            table = self.table = tabletop.load(self.session, self.battle_id)
        except REFUSALS as exc:  # a battle another umpire removed, a file that says no: a sentence
            self.refused(exc)
            return
        phase = table.phase
        state = "over" if table.ended else f"{table.resolver.turn_label} {table.position.turn}, {phase.title}"
        self.query_one("#head", Static).update(f"{table.location} #{table.battle_id} · {table.resolver.title} · {state}")
        lines = checklist(table)
        self.query_one("#checklist", Static).update("\n".join(lines))
        now = next((i for i, line in enumerate(lines) if line.startswith("▶")), 0)
        box = self.query_one("#checklist-box", VerticalScroll)
        box.can_focus = False
        self.call_after_refresh(box.scroll_to, y=max(0, now - 3), animate=False)
        grid = self.query_one("#units", DataTable)
        keep = grid.cursor_row
        grid.clear(columns=True)
        units = [u for side in (ATTACKER, DEFENDER) for u in table.side_units(side, present=False)]
        rows = [(u.id, u.name, f"{u.size}/{u.start}", unit_marks(table, u)) for u in units]
        widths = column_widths(rows, self.app.size.width - CHECKLIST_WIDTH, heading(table.resolver.size_label))
        for label, width in zip(("Id", "Unit", heading(table.resolver.size_label), "State"), widths, strict=True):
            grid.add_column(label, width=width)
        for unit_id, name, size, marks in rows:
            # the states are whole words, wrapped in their column (Broken, Routing: never "holds th")
            lines = state_lines(marks, widths[3])
            grid.add_row(*plain(unit_id, _cut(name, widths[1]), size, "\n".join(lines)), key=unit_id, height=len(lines))
        if grid.row_count:
            grid.move_cursor(row=min(keep, grid.row_count - 1))
        self.show_detail()

    def selected(self) -> str | None:
        grid = self.query_one("#units", DataTable)
        if grid.row_count == 0:
            return None
        return str(grid.coordinate_to_cell_key(grid.cursor_coordinate).row_key.value)

    def on_resize(self) -> None:
        if self.table is not None:
            self.refresh_view()  # the columns share the new width

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
            attrs = ", ".join(f"{a.label} {a.label_of(u.attrs.get(a.id)) if a.kind == 'choice' else u.attrs.get(a.id)}"
                              for a in table.resolver.attributes
                              if a.applies_to(u.arm) and u.attrs.get(a.id) not in (None, False, 0, "-", ""))
            lines.append(f"{u.id} {u.name} ({u.side}, {u.arm}): {attrs}")
        # newest first: the box is 5 lines and the unit's line wraps, so the resolution just
        # taken stays in sight (oldest first, it fell below the edge at 80 columns)
        for entry in reversed(table.log[-(LOG_LINES if lines else LOG_LINES + 1):]):
            actor = table.units.get(entry["actor"])
            dice = tabletop.dice_text(entry)
            back = " [taken back]" if entry.get("taken_back") else ""
            lines.append(f"{actor.id if actor else entry['actor']} {entry['action'].replace('_', ' ')}{dice}{back}: {entry['text']}")
        if not table.log:
            lines.append("r resolves what the highlighted unit does; n moves to the next phase.")
        detail, text = self.query_one("#detail", Static), "\n".join(lines)
        if detail.content != text:
            # Five lines as wide as the screen whatever they say (#detail's height is set):
            # asked again at every move of the cursor, drawn only when it says something
            # else, and without laying the whole screen out again.
            detail.update(text, layout=False)

    # -- actions -------------------------------------------------------------

    def _open(self) -> tabletop.Tabletop | None:
        try:
            table = self.table = tabletop.load(self.session, self.battle_id)
        except REFUSALS as exc:
            self.refused(exc)
            return None
        if table.ended or table.status not in tabletop.PLAYING:
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
        # sorted: the first is one it can take, unless the card refuses it every one now
        if not actions or refused_now(table, actions[0][0], unit_id):
            none = f": the card lets it take none of {', '.join(title for _id, title in actions)} now" if actions else ""
            self.notify(f"{unit.name} ({unit.side}) has nothing to do in the {table.phase.title} phase{none}.",
                        severity="warning")
            return
        typed_in = self.session.campaign().dice_mode == "entered"
        self.app.push_screen(ResolutionScreen(table, unit_id, actions, typed_in), self._resolved)

    def _resolved(self, choice: dict[str, Any] | None) -> None:
        if not choice:
            return
        args = {k: choice[k] for k in ("action", "actor", "target", "ticked", "numbers", "entered", "ruling")}
        self.attempt(lambda: tabletop.resolve(self.session, self.battle_id, **args), worker=True)

    def action_take_back(self) -> None:
        if self._open() is not None:
            self.attempt(lambda: tabletop.take_back(self.session, self.battle_id), worker=True)

    def action_next_phase(self) -> None:
        if self._open() is not None:
            # no notice: the checklist shows the phase now, and notices would pile up over the table
            self.attempt(lambda: tabletop.next_phase(self.session, self.battle_id), done="", worker=True)

    def action_previous_phase(self) -> None:
        if self._open() is not None:
            self.attempt(lambda: tabletop.previous_phase(self.session, self.battle_id), done="", worker=True)

    def _unit_fields(self, unit) -> list[tuple[str, str, str, Any]]:
        assert self.table is not None
        r = self.table.resolver
        fields: list[tuple[str, str, str, Any]] = [("name", "Name", unit.name if unit else "", None)]
        if unit is None:
            fields += [("side", "Side", ATTACKER, [ATTACKER, DEFENDER]), ("arm", "Arm", r.arms[0], list(r.arms))]
            fields.append(("size", heading(r.size_label), "4", None))
        else:
            fields += [("size", f"{heading(r.size_label)} now", str(unit.size), None),
                       ("start", f"{heading(r.size_label)} at start", str(unit.start), None)]
        for a in r.attributes:
            value = unit.attrs.get(a.id, a.default) if unit else a.default
            if a.kind == "choice":
                # labels, not ids; a unit's own arm's choices only (a unit added by hand: those of the
                # Arm picked, follows_arm)
                fields.append((a.id, a.label, str(value), [(a.label_of(c), c) for c in a.choices_for(unit.arm if unit else None)]))
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
            lambda v: self.campaign_changed() if v else None,
        )

    def action_add(self) -> None:
        table = self._open()
        if table is None:
            return
        self.app.push_screen(
            FormScreen("A unit entered by hand", self._unit_fields(None),
                       check=lambda v: tabletop.add_unit(self.session, self.battle_id, v), follows=follows_arm(table)),
            lambda v: self.campaign_changed() if v else None,
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
                self.attempt(lambda: tabletop.set_state(self.session, self.battle_id, unit_id, state, not unit.has(state)), worker=True)

        self.app.push_screen(PickScreen(f"Markers of {unit.name}", items), picked)

    def action_contact(self) -> None:
        """The umpire rules two units in contact (or apart) where no charge of the card did."""
        table = self._open()
        unit_id = self.selected()
        if table is None or unit_id is None:
            return
        unit = table.units[unit_id]
        touching = {c.other(unit_id) for c in table.contacts if c.touches(unit_id)}
        items = [(u.id, f"{'take out of contact' if u.id in touching else 'put in contact'}: {u.id} {u.name}")
                 for u in table.units.values() if u.side != unit.side and (not u.removed or u.id in touching)]
        if not items:
            self.notify(f"No enemy unit on the table for {unit.name}.", severity="warning")
            return

        def picked(other_id: str | None) -> None:
            if not other_id:
                return
            on = other_id not in touching
            other = table.units[other_id]
            title = f"{unit.name} {'in contact with' if on else 'out of contact with'} {other.name}: the umpire's ruling"
            self.app.push_screen(
                FormScreen(title, [("reason", "Reason", "", None)],
                           check=lambda v: tabletop.rule_contact(self.session, self.battle_id, unit_id, other_id, on, v["reason"])),
                lambda v: self.campaign_changed() if v else None,
            )

        self.app.push_screen(PickScreen(f"Contact of {unit.name}", items), picked)

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
                lambda value: value and self.attempt(lambda: tabletop.set_option(self.session, self.battle_id, option_id, value), worker=True),
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
                if yes:
                    self.attempt(lambda: tabletop.end(self.session, self.battle_id, side), worker=True, then=lambda _: self.action_back())

            self.app.push_screen(ConfirmScreen(question, yes="End battle"), answered)

        self.app.push_screen(PickScreen("Who held the field?", [(ATTACKER, "the attacker"), (DEFENDER, "the defender")]), winner)

    def action_back(self) -> None:
        self.adjutant.open_battle(self.battle_id)

"""Order of battle: a tree of sides, armies, generals and units beside a table of
the selected level, with SP totals; add, edit, move and remove through forms."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Static, Tree
from textual.widgets.tree import TreeNode

from campaigns import oob
from campaigns.oob import General, Unit
from campaigns.scenario import UNIT_KINDS
from campaigns.words import plural
from tui.modals.confirm import ConfirmScreen
from tui.modals.form import FormScreen
from tui.modals.pick import PickScreen
from tui.screens.base import CampaignScreen
from tui.widgets.cells import fill
from tui.widgets.kept import KeptTable, KeptTree

NARROW = 110  # columns under which the table goes below the tree
SHOWN = 200  # units listed in the table at once; totals always count them all

UNIT_FIELDS = [
    ("name", "Name"),
    ("kind", "Kind"),
    ("strength_points", "SP"),
    ("cohesion", "Cohesion (1-6)"),
    ("artillery_bonus", "AB (0-9)"),
    ("cavalry_bonus", "CB (0-9)"),
    ("location", "Location"),
]
GENERAL_FIELDS = [
    ("name", "Name"),
    ("rank", "Rank (1-5)"),
    ("command_value", "CV (0-5)"),
    ("tactical_bonus", "Tactical bonus"),
    ("location", "Location"),
]


def unit_label(unit: Unit) -> str:
    if unit.kind == "dummy":
        return f"{unit.name} (DUMMY)"
    flags = "".join(m for m, on in (("F", unit.fatigued), ("E", unit.entrenched), ("O", unit.out_of_command)) if on)
    return f"{unit.name} {unit.strength_points} SP" + (f" [{flags}]" if flags else "")


class OrderOfBattleScreen(CampaignScreen):
    TITLE_TEXT = "Order of battle"
    BINDINGS = [
        Binding("slash", "search", "Search", id="oob.search", tooltip="Find units and generals by name"),
        Binding("a", "add_unit", "Add unit", id="oob.add_unit", tooltip="Add a unit to the selected general"),
        Binding("g", "add_general", "Add general", id="oob.add_general", tooltip="Add a general under the selected general"),
        Binding("e", "edit", "Edit", id="oob.edit", tooltip="Edit the selected unit or general"),
        Binding("v", "move", "Move", id="oob.move", tooltip="Attach the selected unit or general to another general"),
        Binding("d,delete", "remove", "Remove", id="oob.remove", tooltip="Remove the selected unit or general"),
        Binding("f", "flags", "Flags", id="oob.flags", tooltip="Fatigued, entrenched, out of command"),
    ]
    DEFAULT_CSS = """
    OrderOfBattleScreen #tree { width: 40%; height: 1fr; }
    OrderOfBattleScreen #right { width: 1fr; }
    OrderOfBattleScreen #detail { height: 1fr; }
    OrderOfBattleScreen #totals { height: auto; padding: 0 1; }
    OrderOfBattleScreen.narrow #body { layout: vertical; }
    OrderOfBattleScreen.narrow #tree { width: 100%; height: 1fr; }
    OrderOfBattleScreen.narrow #right { width: 100%; height: 9; }
    OrderOfBattleScreen #search { display: none; }
    OrderOfBattleScreen #search.shown { display: block; }
    """

    def body(self) -> ComposeResult:
        yield Input(placeholder="search by name; Enter to jump, Escape to close", id="search")
        with Horizontal(id="body"):
            yield KeptTree("Order of battle", id="tree")
            with Vertical(id="right"):
                yield Static(id="totals", markup=False)
                yield KeptTable(id="detail", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#tree", Tree).focus()
        self.set_class(self.app.size.width < NARROW, "narrow")

    def on_resize(self, event) -> None:
        # Below NARROW columns the tree's names would be cut beside the table: the table goes below.
        if self.has_class("narrow") != (event.size.width < NARROW):
            self.set_class(event.size.width < NARROW, "narrow")
            if hasattr(self, "sides"):
                self.show_detail()

    # -- showing -------------------------------------------------------------

    def refresh_view(self) -> None:
        tree = self.query_one("#tree", Tree)
        selected = tree.cursor_node.data if tree.cursor_node else None
        tree.clear()
        tree.root.expand()
        self.sides = oob.tree(self.session)
        for side in self.sides:
            total = oob.totals(oob.side_units(side))
            side_node = tree.root.add(f"{side.side.name} ({total.strength_points} SP)", data=side, expand=True)
            for army in side.armies:
                units = oob.army_units(army)
                army_node = side_node.add(f"{army.army.name} ({oob.totals(units).strength_points} SP)", data=army)
                for general in army.generals:
                    self._add_general(army_node, general)
            if side.unattached:
                loose = side_node.add("Units without a general", data=side.unattached)
                for unit in side.unattached:
                    loose.add_leaf(unit_label(unit), data=unit)
        if selected is not None:
            self._select(_key(selected))
        else:
            # The tree lays its new lines out on the next refresh; until then its
            # cursor still holds the rows read before the change.
            tree.call_after_refresh(self.show_detail)

    def _add_general(self, parent: TreeNode, node: oob.GeneralNode) -> None:
        # A general's units and subordinates are added when he is first opened:
        # a campaign of thousands of units would otherwise build every line at once.
        g = node.general
        parent.add(
            f"{g.name} (R{g.rank} CV{g.command_value} TB{g.tactical_bonus})",
            data=node,
            allow_expand=bool(node.units or node.subordinates),
        )

    def _fill(self, branch: TreeNode) -> None:
        node = branch.data
        if isinstance(node, oob.GeneralNode) and not branch.children:
            for unit in node.units:
                branch.add_leaf(unit_label(unit), data=unit)
            for sub in node.subordinates:
                self._add_general(branch, sub)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        self._fill(event.node)

    def _select(self, ident: str | None) -> None:
        if ident is None:
            return
        tree = self.query_one("#tree", Tree)
        path = self._path_to(ident)
        node = tree.root
        for step in path:
            self._fill(node)
            node.expand()
            hit = next((c for c in node.children if _key(c.data) == step), None)
            if hit is None:
                return
            node = hit
        # The expanded lines are laid out on the next refresh; until then the node has no line.
        tree.call_after_refresh(self._cursor_to, node)

    def _cursor_to(self, node: TreeNode) -> None:
        tree = self.query_one("#tree", Tree)
        tree.move_cursor(node)
        self.show_detail()  # also when the cursor stays on its line: the rows under it are new

    def _path_to(self, ident: str) -> list[str]:
        """The keys from a side down to the side, army, general or unit `ident`."""

        def in_general(node: oob.GeneralNode, trail: list[str]) -> list[str] | None:
            here = [*trail, node.general.id]
            if node.general.id == ident:
                return here
            if any(u.id == ident for u in node.units):
                return [*here, ident]
            for sub in node.subordinates:
                if found := in_general(sub, here):
                    return found
            return None

        for side in getattr(self, "sides", []):
            if side.side.id == ident:
                return [ident]
            for army in side.armies:
                if army.army.id == ident:
                    return [side.side.id, ident]
                for general in army.generals:
                    if found := in_general(general, [side.side.id, army.army.id]):
                        return found
            if any(u.id == ident for u in side.unattached):
                return [side.side.id, "unattached", ident]
        return []

    def on_tree_node_highlighted(self, _event: Tree.NodeHighlighted) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        tree = self.query_one("#tree", Tree)
        data = tree.cursor_node.data if tree.cursor_node else None
        units: list[Unit] = []
        title = "All sides"
        if isinstance(data, oob.SideNode):
            units, title = oob.side_units(data), data.side.name
        elif isinstance(data, oob.ArmyNode):
            units, title = oob.army_units(data), data.army.name
        elif isinstance(data, oob.GeneralNode):
            units, title = oob.units_under(data), data.general.name
        elif isinstance(data, Unit):
            units, title = [data], data.name
        elif isinstance(data, list):
            units, title = data, "Units without a general"
        else:
            units = [u for s in getattr(self, "sides", []) for u in oob.side_units(s)]
        fill(
            self.query_one("#detail", DataTable),
            ("Name", "Kind", "SP", "Coh", "AB", "CB", "Where"),
            (
                (
                    unit.id,
                    (unit.name, "DUMMY" if unit.kind == "dummy" else unit.kind, unit.strength_points, unit.cohesion,
                     unit.artillery_bonus, unit.cavalry_bonus, unit.location),
                )
                for unit in units[:SHOWN]
            ),
            # The tree beside it already shows whole names: keep SP, cohesion and the bonuses in view.
            widest={"Name": 30 if self.has_class("narrow") else 24, "Where": 16},
        )
        total = oob.totals(units)
        kinds = ", ".join(f"{k} {v}" for k, v in total.by_kind.items())
        dummies = f"; {plural(total.dummies, 'dummy', 'dummies')}" if total.dummies else ""
        more = f" (the first {SHOWN} listed: open a general for his)" if len(units) > SHOWN else ""
        self.query_one("#totals", Static).update(
            f"{title}: {total.strength_points} SP ({kinds}) in {plural(total.units, 'unit')}{dummies}{more}"
        )

    # -- what is selected ----------------------------------------------------

    def selected(self) -> Unit | General | None:
        node = self.query_one("#tree", Tree).cursor_node
        data = node.data if node else None
        if isinstance(data, Unit):
            return data
        if isinstance(data, oob.GeneralNode):
            return data.general
        return None

    def _general_for_new(self) -> General | None:
        item = self.selected()
        if isinstance(item, Unit):
            node = self.query_one("#tree", Tree).cursor_node
            parent = node.parent.data if node and node.parent else None
            return parent.general if isinstance(parent, oob.GeneralNode) else None
        return item

    # -- actions -------------------------------------------------------------

    def _form(self, title: str, fields: list, values: dict, check) -> None:
        rows = [(k, label, str(values.get(k, "")), list(UNIT_KINDS) if k == "kind" else None) for k, label in fields]

        def done(result: dict | None) -> None:
            if result is not None:
                self.notify(f"{title}: done.")
                self.app.campaign_changed()  # type: ignore[attr-defined]

        self.app.push_screen(FormScreen(title, rows, check=check), done)

    def action_add_unit(self) -> None:
        general = self._general_for_new()
        if general is None:
            self.notify("Select a general (or one of his units) to add a unit to.", severity="warning")
            return
        values = {"kind": "infantry", "strength_points": "1", "cohesion": "3", "artillery_bonus": "0", "cavalry_bonus": "0", "location": general.location}
        self._form(f"New unit under {general.name}", UNIT_FIELDS, values, lambda v: oob.add_unit(self.session, general.id, v))

    def action_add_general(self) -> None:
        general = self._general_for_new()
        if general is None:
            self.notify("Select the general the new one serves under.", severity="warning")
            return
        values = {"rank": "1", "command_value": "1", "tactical_bonus": "0", "location": general.location}
        self._form(f"New general under {general.name}", GENERAL_FIELDS, values, lambda v: oob.add_general(self.session, general.id, v))

    def action_edit(self) -> None:
        item = self.selected()
        if isinstance(item, Unit):
            self._form(f"Edit {item.name}", UNIT_FIELDS, item.model_dump(), lambda v: oob.edit_unit(self.session, item.id, v))
        elif isinstance(item, General):
            self._form(f"Edit {item.name}", GENERAL_FIELDS, item.model_dump(), lambda v: oob.edit_general(self.session, item.id, v))
        else:
            self.notify("Select a unit or a general to edit.", severity="warning")

    def action_move(self) -> None:
        item = self.selected()
        if item is None:
            self.notify("Select a unit or a general to move.", severity="warning")
            return
        generals = [
            (g.general.id, f"{g.general.name} ({a.army.name})")
            for s in self.sides
            for a in s.armies
            for g in _all_generals(a.generals)
            if g.general.id != item.id
        ]
        move = oob.move_unit if isinstance(item, Unit) else oob.move_general

        def picked(general_id: str | None) -> None:
            if general_id:
                name = next((g.general.name for s in self.sides for a in s.armies for g in _all_generals(a.generals)
                             if g.general.id == general_id), general_id)
                self.attempt(lambda: move(self.session, item.id, general_id), f"{item.name} now under {name}.")

        self.app.push_screen(PickScreen(f"Attach {item.name} to", generals), picked)

    def action_remove(self) -> None:
        item = self.selected()
        if item is None:
            self.notify("Select a unit or a general to remove.", severity="warning")
            return
        remove = oob.remove_unit if isinstance(item, Unit) else oob.remove_general
        extra = "" if isinstance(item, Unit) else " His units and subordinates pass to his superior."

        def answered(yes: bool | None) -> None:
            if yes:
                self.attempt(lambda: remove(self.session, item.id), f"Removed {item.name} (u undoes).")

        self.app.push_screen(ConfirmScreen(f"Remove {item.name}?{extra}", yes="Remove"), answered)

    def action_flags(self) -> None:
        item = self.selected()
        if not isinstance(item, Unit):
            self.notify("Select a unit.", severity="warning")
            return
        choices = ["no", "yes"]
        rows = [
            ("fatigued", "Fatigued", "yes" if item.fatigued else "no", choices),
            ("entrenched", "Entrenched", "yes" if item.entrenched else "no", choices),
            ("out_of_command", "Out of command", "yes" if item.out_of_command else "no", choices),
        ]

        def apply(values: dict[str, str]) -> None:
            oob.set_unit_flags(self.session, item.id, **{k: v == "yes" for k, v in values.items()})

        def done(result: dict | None) -> None:
            if result is not None:
                self.app.campaign_changed()  # type: ignore[attr-defined]

        self.app.push_screen(FormScreen(f"State of {item.name}", rows, check=apply), done)

    def action_search(self) -> None:
        box = self.query_one("#search", Input)
        box.add_class("shown")
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        found = oob.search(self.session, event.value)
        if not found:
            self.notify(f"No unit or general named like {event.value!r}.", severity="warning")
            return
        self._select(found[0].id)
        event.input.remove_class("shown")
        self.query_one("#tree", Tree).focus()
        if len(found) > 1:
            self.notify(f"{len(found)} found: " + ", ".join(f.name for f in found[:6]))

    def on_key(self, event) -> None:
        box = self.query_one("#search", Input)
        if event.key == "escape" and box.has_focus:
            box.remove_class("shown")
            self.query_one("#tree", Tree).focus()
            event.stop()


def _key(data: object) -> str | None:
    """The id of what a tree node shows: a unit, a general, an army or a side."""
    if isinstance(data, list):
        return "unattached"
    for holder in ("general", "army", "side"):
        inner = getattr(data, holder, None)
        if inner is not None and not isinstance(inner, str):
            return getattr(inner, "id", None)
    return getattr(data, "id", None)


def _all_generals(nodes: list[oob.GeneralNode]) -> list[oob.GeneralNode]:
    out = []
    for node in nodes:
        out.append(node)
        out.extend(_all_generals(node.subordinates))
    return out


"""Order of battle: a tree of sides, armies, generals and units beside a table of
the selected level, with SP totals; add, edit, move and remove through forms."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from campaigns import oob_view
from campaigns.errors import CampaignError
from campaigns.oob_view import GeneralRow, UnitRow
from campaigns.text import shown
from campaigns.words import and_eliminated, plural
from tui.screens.base import CampaignScreen
from tui.widgets.cells import fill
from tui.screens.oob_labels import army_label, general_label, side_label, unit_label
from tui.widgets.kept import PagedTable
from tui.widgets.wrapped_tree import Node, WrappedTree
from tui.workers import back_to

if TYPE_CHECKING:
    from textual.app import App
    from textual.widgets import Input

    from campaigns.session import CampaignSession

NARROW = 110  # columns under which the table goes below the tree
# Cells of indentation a level of the tree: two rather than Textual's four, at every
# width, leave the deepest units (five levels down) room for more of their name a line.
GUIDES = 2
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
    UMPIRE_ONLY = frozenset({"add_unit", "add_general", "edit", "move", "remove", "flags"})
    # The tree's first reading: a cursor key right after b moves on its lines. And the units of
    # the line the cursor moved to, listed in the table: `Down Tab e` typed at once edits the
    # first unit of the general moved to, as typed slowly, not the general's left (the table
    # still listed his while the new line's were read).
    FIRST_READS = ("oob-tree", "oob-units")
    # The tree read again (a unit moved, added or removed) holds the keys too: `v Kleist Enter e`
    # typed at once edits the unit moved, as read after the move, not the line the cursor was on
    # while the tree was rebuilt (his old general) nor the unit as it was before.
    READ_AGAIN_HOLDS_KEYS = True
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

    def __init__(self) -> None:
        super().__init__()
        # Laid out for the terminal's width from the start: a class set once the screen is
        # mounted styles every widget of it again (80 ms of a first visit on a loaded machine).
        self.set_class(self.app.size.width < NARROW, "narrow")
        # The tree's first reading starts with the screen, before it is composed: the
        # database sums every unit (off Python's lock, on the other core) while the screen
        # is composed, mounted and laid out, instead of after. On 50,000 units, keys one
        # after the other from the start on a loaded machine, the reading ended the first
        # visit 100-150 ms after the empty screen was drawn (benchmarks.app_probe).
        self._reads = 0  # readings of the tree started: an answer to an older one is not shown
        self._early: int | None = None  # the campaign version the reading started here shows
        self._early_answer: tuple | None = None  # its answer, come before the screen was mounted
        session = self.adjutant.session
        if session is not None:
            self._early = session.version()
            self._reads += 1
            self._read_tree([], "root", self._reads, self.app, session)

    def body(self) -> ComposeResult:
        with Horizontal(id="body"):
            yield WrappedTree("Order of battle", id="tree")
            with Vertical(id="right"):
                yield Static(id="totals", markup=False)
                yield PagedTable(id="detail", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        tree = self.query_one("#tree", WrappedTree)
        tree.guide_depth = GUIDES
        tree.focus()
        self._composed = True
        if self._early_answer is not None:  # the first reading came while the screen was composed
            answer, self._early_answer = self._early_answer, None
            self._show_tree(*answer)

    def on_resize(self, event) -> None:
        # Below NARROW columns the tree's names would wrap onto line after line beside the table:
        # the table goes below.
        if self.has_class("narrow") != (event.size.width < NARROW):
            self._narrow(event.size.width < NARROW)
        if self.sides:
            # The table's names wrap at its width: filled again once it has its new size.
            self.call_after_refresh(self._rewrap)

    def _rewrap(self) -> None:
        # Not when it was filled at the width it has (the first reading, come before the
        # screen was laid out, fills it at the width it was going to have).
        if self._table_width() != self._wrapped_to:
            self.show_detail()

    def _narrow(self, narrow: bool) -> None:
        self.set_class(narrow, "narrow")

    # -- showing -------------------------------------------------------------
    #
    # The chain of command and its totals are read in a worker (campaigns.oob_view:
    # the totals summed by the database); the units of a general when he is opened;
    # the units listed in the table in a worker, the first SHOWN in the order of the
    # tree. Coming back after a change relabels the lines whose text changed and
    # rereads the units of the generals that are open; the tree is built anew only
    # when the chain of command itself changed.

    sides: list[oob_view.SideEntry] = []
    _chain: object = None
    _lines: dict[str, Node] = {}
    _wrapped_to = 0  # the width the names in the table were wrapped to
    _composed = False  # every widget of the screen mounted (on_mount has run)

    # The units listed for the line the cursor will be on, read with the tree (one trip
    # to the worker thread, not two): (that line's entry, its units).
    _listed: tuple[object, list[UnitRow]] | None = None
    _table_units: dict[str, UnitRow] = {}  # the units listed in the table, by id: what e, v, d, f act on there
    # A line asked for (a search's find) before the tree was first read: selected once it is,
    # with the token that holds the keys typed after it until then (see _select).
    _wanted: tuple[str, int | None] | None = None

    def refresh_view(self) -> None:
        early, self._early = self._early, None
        if early is not None and early == self.shown_version:
            return  # the reading started with the screen reads this version: its answer shows it
        opened = [key for key, node in self._lines.items() if node.children and key.startswith(("g:", "u:"))]
        tree = self.query_one("#tree", WrappedTree)
        # Before the tree is built the cursor is on its first line, the root: every side.
        at = _line_key(tree.cursor_node.data) if tree.cursor_node else "root"
        self._listed = None
        self._reads += 1
        self._read_tree(opened, at, self._reads, self.app, self.session)

    @work(thread=True, exclusive=True, group="oob-tree")
    def _read_tree(self, opened: list[str], at: str | None, number: int, app: App, session: CampaignSession) -> None:
        # The sums over every unit (a GROUP BY of the index ix_unit_strength, 20 ms at 50,000
        # units, growing with them) are SQLite's work and leave Python's lock to the UI thread,
        # which lays out and draws the screen meanwhile. The app and the session are given:
        # a screen not mounted yet (the first reading) finds its app only on the UI thread.
        try:
            sides = oob_view.skeleton(session)
            units = {key: _units_of(session, key) for key in opened}
            entry = _entry(sides, at)
            listed = None if entry is False else (entry, oob_view.listed(session, entry, sides, SHOWN))
        except CampaignError as exc:
            back_to(self, self.notify, str(exc), severity="error", timeout=8, app=app)
            back_to(self, self._drop_wanted, app=app)
            return
        back_to(self, self._show_tree, sides, units, listed, number, app=app)

    def _drop_wanted(self) -> None:
        if self._wanted is not None:
            self._let_go(self._wanted[1])  # the keys held for it go on
            self._wanted = None

    def _show_tree(
        self, sides: list[oob_view.SideEntry], units: dict[str, list[UnitRow]], listed: tuple | None = None, number: int = 0,
    ) -> None:
        if number != self._reads:
            return  # a later reading was started meanwhile: its answer follows
        if not self._composed:  # the first reading, come while the screen is composed: shown once it is
            self._early_answer = (sides, units, listed, number)
            return
        if not self.query("#tree"):
            self._drop_wanted()
            return  # the answer came after the app closed the screen
        shape = _shape(sides)
        self.sides = sides
        self._listed = listed
        if shape != self._chain:
            self._chain = shape
            self._build()
        else:
            self._relabel(units)
        self.show_detail()
        if self._wanted is not None:
            (wanted, hold), self._wanted = self._wanted, None
            self._select(wanted, hold)

    def _build(self) -> None:
        tree = self.query_one("#tree", WrappedTree)
        selected = _key(tree.cursor_node.data) if tree.cursor_node else None
        tree.clear()
        tree.root.expand()
        self._lines = {}
        for side in self.sides:
            side_node = tree.root.add(side_label(side), data=side, expand=True)
            self._lines[f"s:{side.side.id}"] = side_node
            for army in side.armies:
                army_node = side_node.add(army_label(army), data=army)
                self._lines[f"a:{army.army.id}"] = army_node
                for general in army.generals:
                    self._add_general(army_node, general)
            if side.unattached.units or side.unattached.dummies:
                loose = oob_view.Unattached(side.side.id, side.unattached)
                self._lines[f"u:{side.side.id}"] = side_node.add("Units without a general", data=loose)
        self._select(selected)

    def _relabel(self, units: dict[str, list[UnitRow]]) -> None:
        """The same chain of command: change the text of the lines that changed, nothing else."""
        tree = self.query_one("#tree", WrappedTree)
        selected = _key(tree.cursor_node.data) if tree.cursor_node else None
        moved = False
        for side in self.sides:
            _update(self._lines[f"s:{side.side.id}"], side_label(side), side)
            for army in side.armies:
                _update(self._lines[f"a:{army.army.id}"], army_label(army), army)
                for general in oob_view.all_generals(army.generals):
                    line = self._lines.get(f"g:{general.general.id}")  # None until his superior is opened
                    if line is not None:
                        _update(line, general_label(general), general)
            loose = self._lines.get(f"u:{side.side.id}")
            if loose is not None:
                loose.data = oob_view.Unattached(side.side.id, side.unattached)
        for key, rows in units.items():
            node = self._lines.get(key)
            if node is None:
                continue
            leaves = [c for c in node.children if isinstance(c.data, UnitRow)]
            if [leaf.data.id for leaf in leaves if isinstance(leaf.data, UnitRow)] == [u.id for u in rows]:
                # A line's label is made from its row alone: only the rows that changed are
                # labelled again (one unit marked among a general's thousand costs one label).
                for leaf, unit in zip(leaves, rows):
                    if leaf.data != unit:
                        _update(leaf, unit_label(unit), unit)
                continue
            moved = True
            for leaf in leaves:
                leaf.remove()
            for index, unit in enumerate(rows):  # a general's units come before his subordinates
                node.add_leaf(unit_label(unit), data=unit, before=index if node.children else None)
        if moved:
            self._select(selected)  # lines came and went: the cursor stays on what it was on

    def _add_general(self, parent: Node, entry: oob_view.GeneralEntry) -> None:
        # A general's units and subordinates are added when he is first opened.
        node = parent.add(general_label(entry), data=entry, allow_expand=bool(entry.units or entry.subordinates))
        self._lines[f"g:{entry.general.id}"] = node

    def _fill(self, branch: Node) -> None:
        node = branch.data
        if isinstance(node, oob_view.GeneralEntry) and not branch.children:
            # One general's units: a short read, done here so the lines are there when he opens.
            for unit in oob_view.units_of(self.session, node.general.id) if node.units else []:
                branch.add_leaf(unit_label(unit), data=unit)
            for sub in node.subordinates:
                self._add_general(branch, sub)
        elif isinstance(node, oob_view.Unattached) and not branch.children:
            for unit in oob_view.unattached_units(self.session, node.side):
                branch.add_leaf(unit_label(unit), data=unit)

    def on_wrapped_tree_node_expanded(self, event: WrappedTree.NodeExpanded) -> None:
        self._fill(event.node)

    def _select(self, ident: str | None, hold: int | None = None) -> None:
        """The cursor to `ident`'s line, once it is laid out. With `hold` (a token of
        `action_started`: a search's find), the keys typed meanwhile wait for it (tui.keys): a `g`
        or `e` right after a search is for the line found, however long the tree takes to be read."""
        if ident is None:
            return
        if self._chain is None:  # a search typed at once, answered before the tree's first reading
            self._drop_wanted()
            self._wanted = (ident, hold)
            return
        tree = self.query_one("#tree", WrappedTree)
        placed = False
        try:
            node = tree.root
            for step in self._path_to(ident):
                self._fill(node)
                node.expand()
                hit = next((c for c in node.children if _key(c.data) == step), None)
                if hit is None:
                    return
                node = hit
            # The expanded lines are laid out on the next refresh; until then the node has no line.
            placed = tree.call_after_refresh(self._cursor_to, node, hold)
        finally:
            if not placed:
                self._let_go(hold)

    def _let_go(self, hold: int | None) -> None:
        if hold is not None:
            self.adjutant.action_finished(hold)

    def _cursor_to(self, node: Node, hold: int | None) -> None:
        try:
            tree = self.query_one("#tree", WrappedTree)
            tree.move_cursor(node)
            self.show_detail()  # also when the cursor stays on its line: the rows under it are new
        finally:
            self._let_go(hold)

    def _path_to(self, ident: str) -> list[str]:
        """The keys from a side down to the side, army, general or unit `ident`."""

        def to_general(general_id: str) -> list[str]:
            for side in self.sides:
                for army in side.armies:
                    trail = in_general(army.generals, general_id)
                    if trail:
                        return [side.side.id, army.army.id, *trail]
            return []

        def in_general(entries: list[oob_view.GeneralEntry], general_id: str) -> list[str]:
            for entry in entries:
                if entry.general.id == general_id:
                    return [general_id]
                below = in_general(entry.subordinates, general_id)
                if below:
                    return [entry.general.id, *below]
            return []

        for side in self.sides:
            if side.side.id == ident:
                return [ident]
            for army in side.armies:
                if army.army.id == ident:
                    return [side.side.id, ident]
        if trail := to_general(ident):
            return trail
        where = oob_view.locate(self.session, ident)
        if where is None:
            return []
        general, side_id = where
        if general is None:
            return [side_id, "unattached", ident]
        trail = to_general(general)
        return [*trail, ident] if trail else []

    def on_wrapped_tree_node_highlighted(self, _event: WrappedTree.NodeHighlighted) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        tree = self.query_one("#tree", WrappedTree)
        data = tree.cursor_node.data if tree.cursor_node else None
        if isinstance(data, UnitRow):
            self._show_units(data, [data])
            return
        self._show_totals(data)
        if self._listed is not None and self._listed[0] is data:
            self._show_units(data, self._listed[1])  # read with the tree
            return
        self._read_units(data)
        self._hold_keys_for_reading()

    @work(thread=True, exclusive=True, group="oob-units")
    def _read_units(self, item: object) -> None:
        try:
            units = oob_view.listed(self.session, item, self.sides, SHOWN)
        except CampaignError as exc:
            back_to(self, self.notify, str(exc), severity="error", timeout=8)
            return
        back_to(self, self._show_units, item, units)

    def _show_units(self, item: object, units: list[UnitRow]) -> None:
        if not self.query("#tree"):
            return  # the answer came after the app closed the screen
        node = self.query_one("#tree", WrappedTree).cursor_node
        if (node.data if node else None) is not item:
            return  # the cursor moved on meanwhile: its own read follows
        if isinstance(item, UnitRow):
            self._show_totals(item)
        table = self.query_one("#detail", PagedTable)
        table.rest = None  # the rows of what was listed before are not to be added meanwhile
        self._table_units = {unit.id: unit for unit in units[:SHOWN]}
        self._wrapped_to = self._table_width()
        table.rest = fill(
            table,
            ("Name", "Kind", "SP", "Coh", "AB", "CB", "Where"),
            (
                (
                    unit.id,
                    (unit.name, "DUMMY" if unit.kind == "dummy" else unit.kind, unit.strength_points, unit.cohesion,
                     unit.artillery_bonus, unit.cavalry_bonus, unit.location),
                )
                for unit in units[:SHOWN]
            ),
            widest={"Where": 18},
            # A long name wraps onto more lines of its row rather than being cut or
            # pushing SP, cohesion and the bonuses out of the pane.
            wrap_to=self._wrapped_to,
            wrap="Name",
            # A screenful now (the table is never taller than the terminal), the others as
            # they scroll into view: a selection of 200 units costs about as much as one of 20.
            first=self.app.size.height,
        )

    def _table_width(self) -> int:
        table = self.query_one("#detail", DataTable)
        if table.size.width:
            return table.size.width
        # Not laid out yet: the pane it will have (the whole width when narrow, else the right part).
        width = self.app.size.width
        return width if self.has_class("narrow") else width * 3 // 5

    def _show_totals(self, data: object) -> None:
        if isinstance(data, (oob_view.SideEntry, oob_view.ArmyEntry, oob_view.GeneralEntry, oob_view.Unattached)):
            total = data.totals
            title = {
                oob_view.SideEntry: lambda d: d.side.name,
                oob_view.ArmyEntry: lambda d: d.army.name,
                oob_view.GeneralEntry: lambda d: d.general.name,
                oob_view.Unattached: lambda d: "Units without a general",
            }[type(data)](data)
        elif isinstance(data, UnitRow):
            total, title = oob_view.unit_totals(data), data.name
        else:
            total, title = oob_view.combined(s.totals for s in self.sides), "All sides"
        kinds = ", ".join(f"{k} {v}" for k, v in total.by_kind.items())
        dummies = f"; {plural(total.dummies, 'dummy', 'dummies')}" if total.dummies else ""
        listed = total.units + total.dummies + total.eliminated
        more = f" (the first {SHOWN} listed: open a general for his)" if listed > SHOWN else ""
        line = f"{shown(title)}: {total.strength_points} SP ({kinds}) in {and_eliminated(plural(total.units, 'unit'), total.eliminated)}{dummies}{more}"
        totals = self.query_one("#totals", Static)
        if str(totals.content) != line:  # unchanged after most actions: no layout for it
            totals.update(line)

    # -- what is selected ----------------------------------------------------

    def selected(self) -> UnitRow | GeneralRow | None:
        """The unit on the table's cursor when the table has the focus, else what the tree's cursor is on."""
        table = self.query_one("#detail", PagedTable)
        if table.has_focus and table.row_count:
            unit = self._table_units.get(str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value))
            if unit is not None:
                return unit
        node = self.query_one("#tree", WrappedTree).cursor_node
        data = node.data if node else None
        if isinstance(data, UnitRow):
            return data
        if isinstance(data, oob_view.GeneralEntry):
            return data.general
        return None

    def _general_for_new(self) -> GeneralRow | None:
        item = self.selected()
        if isinstance(item, UnitRow) and self.query_one("#detail", PagedTable).has_focus:
            generals = (g.general for s in self.sides for a in s.armies for g in oob_view.all_generals(a.generals))
            return next((g for g in generals if g.id == item.general), None)
        if isinstance(item, UnitRow):
            node = self.query_one("#tree", WrappedTree).cursor_node
            parent = node.parent.data if node and node.parent else None
            return parent.general if isinstance(parent, oob_view.GeneralEntry) else None
        return item

    # -- actions -------------------------------------------------------------

    def _form(self, title: str, fields: list, values: dict, check) -> None:
        from campaigns.scenario import UNIT_KINDS
        from tui.modals.form import FormScreen

        rows = [(k, label, str(values.get(k, "")), list(UNIT_KINDS) if k == "kind" else None) for k, label in fields]

        def done(result: dict | None) -> None:
            if result is not None:
                self.notify(f"{title}: done.")
                self.campaign_changed()

        from campaigns.gazetteer import gazetteer

        places = gazetteer()
        spellings = sorted({*places.places, *(v for p in places.places.values() for v in p.variants)})
        self.app.push_screen(FormScreen(title, rows, check=check, suggestions={"location": spellings}), done)

    def action_add_unit(self) -> None:
        general = self._general_for_new()
        if general is None:
            self.notify("Select a general (or one of his units) to add a unit to.", severity="warning")
            return
        values = {"kind": "infantry", "strength_points": "1", "cohesion": "3", "artillery_bonus": "0", "cavalry_bonus": "0", "location": general.location}
        self._form(f"New unit under {general.name}", UNIT_FIELDS, values, lambda v: _edits().add_unit(self.session, general.id, v))

    def action_add_general(self) -> None:
        general = self._general_for_new()
        if general is None:
            self.notify("Select the general the new one serves under.", severity="warning")
            return
        values = {"rank": "1", "command_value": "1", "tactical_bonus": "0", "location": general.location}
        self._form(f"New general under {general.name}", GENERAL_FIELDS, values, lambda v: _edits().add_general(self.session, general.id, v))

    def action_edit(self) -> None:
        item = self.selected()
        if isinstance(item, UnitRow):
            self._form(f"Edit {item.name}", UNIT_FIELDS, item._asdict(), lambda v: _edits().edit_unit(self.session, item.id, v))
        elif isinstance(item, GeneralRow):
            self._form(f"Edit {item.name}", GENERAL_FIELDS, item._asdict(), lambda v: _edits().edit_general(self.session, item.id, v))
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
            for g in oob_view.all_generals(a.generals)
            if g.general.id != item.id
        ]
        names = {g.general.id: g.general.name for s in self.sides for a in s.armies for g in oob_view.all_generals(a.generals)}
        move = _edits().move_unit if isinstance(item, UnitRow) else _edits().move_general

        def picked(general_id: str | None) -> None:
            if general_id:
                name = names.get(general_id, general_id)
                self.attempt(lambda: move(self.session, item.id, general_id), f"{item.name} now under {name}.", worker=True)

        from tui.modals.pick import PickScreen

        self.app.push_screen(PickScreen(f"Attach {item.name} to", generals), picked)

    def action_remove(self) -> None:
        item = self.selected()
        if item is None:
            self.notify("Select a unit or a general to remove.", severity="warning")
            return
        remove = _edits().remove_unit if isinstance(item, UnitRow) else _edits().remove_general
        extra = "" if isinstance(item, UnitRow) else " His units and subordinates pass to his superior."

        def answered(yes: bool | None) -> None:
            if yes:
                self.attempt(lambda: remove(self.session, item.id), f"Removed {item.name} (u undoes).", worker=True)

        from tui.modals.confirm import ConfirmScreen

        self.app.push_screen(ConfirmScreen(f"Remove {item.name}?{extra}", yes="Remove"), answered)

    def action_flags(self) -> None:
        from campaigns import movement

        item = self.selected()
        if not isinstance(item, UnitRow):
            self.notify("Select a unit.", severity="warning")
            return
        choices = ["no", "yes"]
        cost = movement.entrench_cost()
        rows = [
            ("fatigued", "Fatigued", "yes" if item.fatigued else "no", choices),
            ("entrenched", f"Entrenched ({cost} PC)", "yes" if item.entrenched else "no", choices),
            ("out_of_command", "Out of command", "yes" if item.out_of_command else "no", choices),
        ]
        said: list[str] = []

        def apply(values: dict[str, str]) -> None:
            wanted = {k: v == "yes" for k, v in values.items()}
            if wanted["entrenched"] and not item.entrenched:
                # Entrenching is the map's Entrench for this one unit: its army pays the card's PC,
                # or the form says why not and nothing is stored.
                said.append(movement.entrench_unit(self.session, item.id))
            rest = {k: v for k, v in wanted.items() if v != getattr(item, k) and not (k == "entrenched" and v)}
            if rest:
                _edits().set_unit_flags(self.session, item.id, **rest)

        def done(result: dict | None) -> None:
            if result is not None:
                for line in said:
                    self.notify(line)
                self.campaign_changed()

        from tui.modals.form import FormScreen

        self.app.push_screen(FormScreen(f"State of {item.name}", rows, check=apply), done)

    async def action_search(self) -> None:
        # The box is mounted on the first /: most visits never search, and its module, styles
        # and parts were a part of every first visit. The keys typed after / wait for it to
        # be mounted and focused (tui.keys), then go into it.
        from textual.widgets import Input

        from tui.widgets.text_field import TextField

        box = self.query("#search").first(Input) if self.query("#search") else None
        if box is None:
            box = TextField(placeholder="search by name; Enter to jump, Escape to close", id="search")
            await self.mount(box, before=self.query_one("#body"))
        box.add_class("shown")
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        box, wanted, session = event.input, event.value, self.session

        def show(found: list) -> None:
            if not found:
                self.notify(f"No unit or general named like {wanted!r}.", severity="warning")
                return
            self._select(found[0].id, self.adjutant.action_started())
            box.remove_class("shown")
            self.query_one("#tree", WrappedTree).focus()
            if len(found) > 1:
                self.notify(f"{len(found)} found: " + ", ".join(f.name for f in found[:6]))

        # A search of a big campaign reads many rows: in a worker, the keys after Enter waiting for it.
        self.attempt(lambda: oob_view.search(session, wanted), worker=True, then=show, writes=False)

    def on_key(self, event) -> None:
        box = self.app.focused
        if event.key == "escape" and box is not None and box.id == "search" and box.screen is self:
            box.remove_class("shown")
            self.query_one("#tree", WrappedTree).focus()
            event.stop()


def _units_of(session: CampaignSession, key: str) -> list[UnitRow]:
    """The units under the line `key` of `_lines`: a general's, or a side's without one."""
    kind, ident = key.split(":", 1)
    if kind == "g":
        return oob_view.units_of(session, ident)
    return oob_view.unattached_units(session, ident)


def _edits():
    """campaigns.oob, where the edits are: imported when the first edit runs, and with
    it the SQLModel classes (models.tables, some 90 ms), which showing the screen
    does without (it reads plain rows, campaigns.oob_view)."""
    from campaigns import oob

    return oob


def _line_key(data: object) -> str | None:
    """The key of a side's, army's, general's or "Units without a general" line in
    `_lines`, "root" for the root's (every side); None for a unit's line (what it
    lists needs no read)."""
    if data is None:
        return "root"
    if isinstance(data, oob_view.SideEntry):
        return f"s:{data.side.id}"
    if isinstance(data, oob_view.ArmyEntry):
        return f"a:{data.army.id}"
    if isinstance(data, oob_view.GeneralEntry):
        return f"g:{data.general.id}"
    if isinstance(data, oob_view.Unattached):
        return f"u:{data.side}"
    return None


def _entry(sides: list[oob_view.SideEntry], key: str | None) -> object:
    """The entry of `sides` whose line has the key `key` (None: the root's, every side);
    False for no key, for an entry no longer there and for "Units without a general"
    (a line made anew with the tree: read when it is shown)."""
    if key == "root":
        return None
    for side in sides:
        if key == f"s:{side.side.id}":
            return side
        for army in side.armies:
            if key == f"a:{army.army.id}":
                return army
            for general in oob_view.all_generals(army.generals):
                if key == f"g:{general.general.id}":
                    return general
    return False


def _key(data: object) -> str | None:
    """The id of what a tree node shows: a unit, a general, an army or a side."""
    if isinstance(data, oob_view.Unattached):
        return "unattached"
    for holder in ("general", "army", "side"):
        inner = getattr(data, holder, None)
        if inner is not None and not isinstance(inner, str):
            return getattr(inner, "id", None)
    return getattr(data, "id", None)


def _update(node: Node, label: Text, data: object) -> None:
    node.data = data
    if str(node.label) != label.plain:
        node.set_label(label)


def _shape(sides: list[oob_view.SideEntry]) -> object:
    """The chain of command without its numbers: when it changes, the tree is built anew."""

    def general(entry: oob_view.GeneralEntry) -> object:
        return (entry.general.id, bool(entry.units), tuple(general(s) for s in entry.subordinates))

    return tuple(
        (
            side.side.id,
            tuple((army.army.id, tuple(general(g) for g in army.generals)) for army in side.armies),
            bool(side.unattached.units or side.unattached.dummies),
        )
        for side in sides
    )

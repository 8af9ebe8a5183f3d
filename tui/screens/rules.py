"""Rules reference: every table of every rule set, as on the card, with its notes."""

from __future__ import annotations

import re
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.css.styles import RulesMap
from textual.screen import Screen
from textual.visual import RichVisual
from textual.widget import Widget
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from rules import load_ruleset, registry, ruleset_ids
from rules.loader import load_table
from rules.layout import grid
from tui.widgets.cells import fill, plain
from tui.widgets.hanging import Hanging
from tui.widgets.kept import KeptTable
from tui.widgets.status import BottomBar


# A table file's own id, on a line of its own before the first [section] (rules/*/tables/*.toml).
_ID = re.compile(r'^id\s*=\s*"([^"\\]*)"\s*(?:#.*)?$', re.MULTILINE)


def _table_id(path: Path, ruleset: str) -> str:
    """The id of the table in `path`, read from its id line; a file whose id is not written
    plainly so is read whole (and checked), as load_ruleset reads it."""
    text = path.read_text(encoding="utf-8")
    head = re.split(r"^\s*\[", text, maxsplit=1, flags=re.MULTILINE)[0]
    found = _ID.findall(head)
    return found[0] if len(found) == 1 else load_table(path, ruleset).id


def table_ids(ruleset: str) -> list[str]:
    """The ids of the rule set's tables, in load_ruleset's order, without reading the tables:
    the list names them all, and a table is read (and checked) when it is shown."""
    folder = registry.get_ruleset(ruleset).folder / "tables"
    return [_table_id(path, ruleset) for path in sorted(folder.glob("*.toml"))]


class RulesScreen(Screen[None]):
    DEFAULT_CSS = """
    RulesScreen OptionList { width: 30; height: 1fr; }
    RulesScreen #table-side { width: 1fr; }
    RulesScreen DataTable { height: auto; max-height: 60%; }
    RulesScreen #notes { height: 1fr; padding: 0 1; }
    """
    BINDINGS = [Binding("enter", "focus_table", "Read table", show=False, id="rules.read")]

    def compose(self) -> ComposeResult:
        tables = OptionList(id="tables")
        options = []
        for ruleset in ruleset_ids():
            for table_id in table_ids(ruleset):
                # A name that wraps in the narrow list goes on two cells in, not at its edge.
                options.append(Option(_Listed(tables, Hanging([(f"{ruleset}: {table_id}", 2)])), id=f"{ruleset}/{table_id}"))
        tables.add_options(options)
        with Horizontal():
            yield tables
            with VerticalScroll(id="table-side"):
                yield Static(id="title")
                yield KeptTable(id="cells", zebra_stripes=True, cursor_type="cell")
                yield Static(id="notes", markup=False)
        yield BottomBar()

    def on_mount(self) -> None:
        tables = self.query_one("#tables", OptionList)
        tables.highlighted = 0
        tables.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        ruleset, table_id = str(event.option.id).split("/")
        self.show_table(ruleset, table_id)

    def show_table(self, ruleset: str, table_id: str) -> None:
        table = load_ruleset(ruleset)[table_id]
        self.query_one("#title", Static).update(f"[b]{table.title}[/b]  {table.dice or ''}")
        rows = grid(table)
        # Widths counted here (tui.widgets.cells.fill), not by the table once idle: refilled
        # as the cursor runs down the list of tables, a DataTable could draw its rows at the
        # width of the headers first and keep that drawing.
        fill(self.query_one("#cells", DataTable), [str(c.plain) for c in plain(*rows[0])], ((None, row) for row in rows[1:]))
        notes = [f"{m} = {t}" for m, t in table.legend.items()]
        notes += [f"Card: {n}" for n in table.card_notes]
        notes.append(f"Source: {table.source_file}, \"{table.source_heading}\"")
        notes += [f"Reading: {n}" for n in table.notes]
        self.query_one("#notes", Static).update("\n".join(notes))

    def action_focus_table(self) -> None:
        self.query_one("#cells", DataTable).focus()


class _Listed(RichVisual):
    """A table's name in the list, drawn as rich draws its Hanging lines; its height, which
    the list asks of every name when it is first drawn, counted without drawing it."""

    def __init__(self, widget: Widget, hanging: Hanging) -> None:
        super().__init__(widget, hanging)
        self.hanging = hanging

    def get_height(self, rules: RulesMap, width: int) -> int:
        counted = self.hanging.height(width)
        return counted if counted is not None else super().get_height(rules, width)

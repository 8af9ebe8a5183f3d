"""Rules reference: every table of every rule set, as on the card, with its notes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from rules import load_ruleset, ruleset_ids
from rules.layout import grid
from tui.widgets.cells import plain
from tui.widgets.hanging import Hanging
from tui.widgets.kept import KeptTable
from tui.widgets.status import BottomBar


class RulesScreen(Screen[None]):
    DEFAULT_CSS = """
    RulesScreen OptionList { width: 30; height: 1fr; }
    RulesScreen #table-side { width: 1fr; }
    RulesScreen DataTable { height: auto; max-height: 60%; }
    RulesScreen #notes { height: 1fr; padding: 0 1; }
    """
    BINDINGS = [Binding("enter", "focus_table", "Read table", show=False, id="rules.read")]

    def compose(self) -> ComposeResult:
        options = []
        for ruleset in ruleset_ids():
            for table in load_ruleset(ruleset).values():
                # A name that wraps in the narrow list goes on two cells in, not at its edge.
                options.append(Option(Hanging([(f"{ruleset}: {table.id}", 2)]), id=f"{ruleset}/{table.id}"))
        with Horizontal():
            yield OptionList(*options, id="tables")
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
        cells = self.query_one("#cells", DataTable)
        cells.clear(columns=True)
        rows = grid(table)
        cells.add_columns(*plain(*rows[0]))
        for row in rows[1:]:
            cells.add_row(*plain(*row))
        notes = [f"{m} = {t}" for m, t in table.legend.items()]
        notes += [f"Card: {n}" for n in table.card_notes]
        notes.append(f"Source: {table.source_file}, \"{table.source_heading}\"")
        notes += [f"Reading: {n}" for n in table.notes]
        self.query_one("#notes", Static).update("\n".join(notes))

    def action_focus_table(self) -> None:
        self.query_one("#cells", DataTable).focus()

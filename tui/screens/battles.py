"""Battles: the list of the campaign's battles, and setting up a new one."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Input, Label, Select, SelectionList, Static

from campaigns import battles, oob
from campaigns.contact import OutOfContact
from campaigns.errors import CampaignError
from tui.modals.form import FormScreen
from tui.screens.base import CampaignScreen
from tui.widgets.cells import plain

RESOLVERS = [
    ("The campaign's own tables (Allemagne 1813)", battles.TABLES),
    ("Tabletop: Kallistra ACW hex rules", "kallistra_acw"),
    ("Tabletop: 13-phase French-Austrian rules", "napoleonic_13phase"),
    ("Tabletop: UC/UM rules (French card)", "napoleonic_uc_um"),
    ("Tabletop: d10 battalion rules", "napoleonic_d10"),
]


class BattlesScreen(CampaignScreen):
    TITLE_TEXT = "Battles"
    BINDINGS = [
        Binding("n", "new", "New battle", id="battles.new", tooltip="Set up a battle between stored forces"),
        Binding("enter", "open", "Open", id="battles.open", tooltip="Fight or finish the selected battle"),
        Binding("g", "game", "Tabletop game", id="battles.game", tooltip="A tabletop game outside the campaign's forces, units entered by hand"),
    ]

    def body(self) -> ComposeResult:
        yield Static("Battles (n new, Enter to fight or read)", classes="title")
        yield DataTable(id="list", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#list", DataTable).focus()

    def refresh_view(self) -> None:
        table = self.query_one("#list", DataTable)
        table.clear(columns=True)
        table.add_columns("#", "Turn", "Where", "Status", "Resolver", "Result")
        for row in battles.battles(self.session):
            table.add_row(*plain(row.id, row.turn, row.location, row.status, row.resolver, row.result or "-"), key=str(row.id))

    def action_new(self) -> None:
        self.app.push_screen(BattleSetupScreen())

    def action_game(self) -> None:
        from campaigns import tabletop

        rule_sets = [key for _, key in RESOLVERS if key != battles.TABLES]
        fields = [("location", "Where", "", None), ("ruleset", "Rule set", rule_sets[0], rule_sets)]
        made: list[int] = []

        def check(values: dict[str, str]) -> None:
            made.append(tabletop.new_game(self.session, values["ruleset"], values["location"]))

        def done(values: dict[str, str] | None) -> None:
            if values and made:
                from tui.screens.resolver import ResolverScreen

                self.app.campaign_changed()  # type: ignore[attr-defined]
                self.app.switch_screen(ResolverScreen(made[-1]))

        self.app.push_screen(FormScreen("A tabletop game outside the campaign's forces", fields, check=check), done)

    def action_open(self) -> None:
        table = self.query_one("#list", DataTable)
        if table.row_count == 0:
            self.notify("No battle yet: n sets one up.", severity="warning")
            return
        battle_id = int(str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value))
        self.app.open_battle(battle_id)  # type: ignore[attr-defined]

    def on_data_table_row_selected(self, _event: DataTable.RowSelected) -> None:
        self.action_open()


class BattleSetupScreen(CampaignScreen):
    TITLE_TEXT = "New battle"
    BINDINGS = [
        Binding("ctrl+s,f10", "begin", "Begin battle", id="setup.begin", tooltip="Store the battle and start fighting it"),
        Binding("escape", "cancel", "Cancel", id="setup.cancel"),
    ]
    DEFAULT_CSS = """
    BattleSetupScreen Horizontal { height: auto; }
    BattleSetupScreen Label { width: 12; padding: 1 1 0 0; }
    BattleSetupScreen Input, BattleSetupScreen Select { width: 1fr; }
    BattleSetupScreen SelectionList { height: 8; }
    BattleSetupScreen #facts { height: 11; }
    BattleSetupScreen #error { color: $error; height: auto; }
    """

    def body(self) -> ComposeResult:
        self.sides = oob.tree(self.session)
        with VerticalScroll():
            yield Static("New battle: space marks a force; ctrl+s begins; Escape cancels", classes="title")
            yield Static("", id="error", markup=False)
            with Horizontal():
                yield Label("Where")
                yield Input(placeholder="hex or place", id="where")
            with Horizontal():
                yield Label("Attacker")
                yield Select([(s.side.name, s.side.id) for s in self.sides], allow_blank=False, id="attacker-side")
            with Horizontal():
                yield Label("Resolver")
                yield Select(RESOLVERS, allow_blank=False, id="resolver")
            for side in self.sides:
                yield Static(f"Forces of {side.side.name}", markup=False)
                units = [u for u in oob.side_units(side) if u.strength_points > 0 or u.kind == "dummy"]
                yield SelectionList[str](
                    *[(f"{u.name} ({'dummy' if u.kind == 'dummy' else str(u.strength_points) + ' SP'}, {u.location or '?'})", u.id) for u in units],
                    id=f"units-{side.side.id}",
                )
            yield Static("Situation (filled in from the stored state; change it as the umpire sees it)")
            yield SelectionList[str](*[(label, key) for key, label in battles.FACTS], id="facts")
            yield Static("", id="leaders", markup=False)

    def on_mount(self) -> None:
        self.query_one("#where", Input).focus()

    def chosen(self) -> tuple[list[str], list[str]]:
        attacker = str(self.query_one("#attacker-side", Select).value)
        att, dfn = [], []
        for side in self.sides:
            picked = list(self.query_one(f"#units-{side.side.id}", SelectionList).selected)
            (att if side.side.id == attacker else dfn).extend(picked)
        return att, dfn

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged) -> None:
        if event.selection_list.id != "facts":
            self.update_suggestions()

    def on_select_changed(self, _event: Select.Changed) -> None:
        self.update_suggestions()

    def update_suggestions(self) -> None:
        """Tick what the stored state says of the chosen forces, and name their leaders."""
        att, dfn = self.chosen()
        facts = self.query_one("#facts", SelectionList)
        for key, on in battles.suggested_facts(self.session, att, dfn).items():
            if on:
                facts.select(key)
        names = []
        for role, units in (("Attacker", att), ("Defender", dfn)):
            names.append(f"{role} leaders present: " + (", ".join(battles.leaders_at(self.session, units)) or "none"))
        self.query_one("#leaders", Static).update("\n".join(names))

    def action_begin(self, override: str = "") -> None:
        att, dfn = self.chosen()
        facts = set(self.query_one("#facts", SelectionList).selected)
        draft = battles.Draft(
            location=self.query_one("#where", Input).value,
            attacker_units=att,
            defender_units=dfn,
            attacker_generals=battles.leaders_at(self.session, att),
            defender_generals=battles.leaders_at(self.session, dfn),
            facts={key: key in facts for key, _ in battles.FACTS},
            override=override,
        )
        try:
            battle_id = battles.begin(self.session, draft, str(self.query_one("#resolver", Select).value))
        except OutOfContact as exc:
            self.ask_override(str(exc))
            return
        except CampaignError as exc:
            self.query_one("#error", Static).update(str(exc))
            self.query_one(VerticalScroll).scroll_home()
            return
        self.app.campaign_changed()  # type: ignore[attr-defined]
        self.app.pop_screen()
        self.app.open_battle(battle_id)  # type: ignore[attr-defined]

    def ask_override(self, problem: str) -> None:
        """Forces out of contact: the umpire may still set the battle up, giving his reason (recorded)."""

        def check(values: dict[str, str]) -> None:
            if not values["reason"].strip():
                raise CampaignError("give the reason for overriding, or Escape to choose other forces")

        def done(values: dict[str, str] | None) -> None:
            if values:
                self.action_begin(values["reason"])

        fields = [("reason", "Reason", "", None)]
        self.app.push_screen(FormScreen(problem[0].upper() + problem[1:] + ".", fields, check=check), done)

    def action_cancel(self) -> None:
        self.app.pop_screen()

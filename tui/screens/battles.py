"""Battles: the list of the campaign's battles, and setting up a new one."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Input, Label, Select, Static

from campaigns import battles, forces
from campaigns.contact import OutOfContact, battle_reach, contacts
from campaigns.errors import CampaignError
from tui.modals.form import FormScreen
from tui.modals.pick import PickScreen
from tui.screens.base import CampaignScreen
from tui.widgets.cells import fill
from tui.widgets.marklist import MarkList, TickList

RESOLVERS = [
    ("The campaign's own tables (Allemagne 1813)", battles.TABLES),
    ("Tabletop: Kallistra ACW hex rules", "kallistra_acw"),
    ("Tabletop: 13-phase French-Austrian rules", "napoleonic_13phase"),
    ("Tabletop: UC/UM rules (French card)", "napoleonic_uc_um"),
    ("Tabletop: d10 battalion rules", "napoleonic_d10"),
]


ELSEWHERE = "*elsewhere*"  # the pick of a battle's place that lists every place's forces


class BattlesScreen(CampaignScreen):
    TITLE_TEXT = "Battles"
    BINDINGS = [
        Binding("n", "new", "New battle", id="battles.new", tooltip="Set up a battle between stored forces"),
        Binding("enter", "open", "Open", id="battles.open", tooltip="Fight or finish the selected battle"),
        Binding("g", "game", "Tabletop game", id="battles.game", tooltip="A tabletop game outside the campaign's forces, units entered by hand"),
    ]

    DEFAULT_CSS = """
    BattlesScreen #contacts { height: auto; max-height: 8; padding: 0 1; }
    """

    def body(self) -> ComposeResult:
        yield Static("Battles (n new, Enter to fight or read)", classes="title")
        yield Static("", id="contacts", markup=False)
        yield DataTable(id="list", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#list", DataTable).focus()

    def refresh_view(self) -> None:
        table = self.query_one("#list", DataTable)
        keep = table.cursor_row
        fill(
            table,
            ("#", "Turn", "Where", "Status", "Resolver", "Result"),
            (
                (str(row.id), (row.id, row.turn, row.location, row.status, row.resolver, row.result or "-"))
                for row in battles.battles(self.session)
            ),
            wrap_to=table.size.width or self.app.size.width,  # the result wraps rather than runs off the edge
        )
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))
        found = contacts(self.session)
        self.query_one("#contacts", Static).update(
            "Stacks in contact (n sets up a battle at one of these places):\n"
            + "\n".join(f"  {c.describe()}" for c in found)
            if found
            else "No stacks in contact (option contact): n sets up a battle anywhere, with the umpire's reason."
        )

    def on_resize(self, _event) -> None:
        if self.shown_version is not None:
            self.call_after_refresh(self.refresh_view)

    def action_new(self) -> None:
        """A battle starts from a place where stacks are in contact, offering the stacks there;
        elsewhere, every place's forces are listed and the umpire gives a reason."""
        found = contacts(self.session)
        if not found:
            self.app.push_screen(BattleSetupScreen())
            return
        items = [(c.place, c.describe()) for c in found]
        items.append((ELSEWHERE, "Elsewhere: forces of every place (the umpire gives his reason)"))

        def picked(place: str | None) -> None:
            if place:
                self.app.push_screen(BattleSetupScreen(None if place == ELSEWHERE else place))

        self.app.push_screen(PickScreen("Where is the battle fought?", items), picked)

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
    """A new battle: where, who attacks, the resolver, the forces by stack, the situation."""

    TITLE_TEXT = "New battle"
    BINDINGS = [
        Binding("ctrl+s,f10", "begin", "Begin battle", id="setup.begin", tooltip="Store the battle and start fighting it"),
        Binding("escape", "cancel", "Cancel", id="setup.cancel"),
        Binding(
            "ctrl+t,f6", "elsewhere", "Forces elsewhere", id="setup.elsewhere",
            tooltip="List the forces of every place too (a battle with them needs the umpire's reason), or only those in contact",
        ),
    ]
    DEFAULT_CSS = """
    BattleSetupScreen VerticalScroll { height: 1fr; }
    BattleSetupScreen Horizontal { height: auto; }
    BattleSetupScreen Label { width: 10; }
    BattleSetupScreen Input, BattleSetupScreen Select { width: 1fr; }
    BattleSetupScreen MarkList { max-height: 12; }
    BattleSetupScreen #error { color: $error; height: auto; }
    BattleSetupScreen #picked { height: auto; padding: 0 1; border-top: solid $accent; }
    """

    def __init__(self, place: str | None = None) -> None:
        super().__init__()
        # Started from a place: only the forces in contact there are listed, until ctrl+t.
        self.place = place
        self.reach: set[str] | None = None

    def body(self) -> ComposeResult:
        if self.place:
            self.place, self.reach = battle_reach(self.session, self.place)
        self.sides = forces.stacks_in(self.session, self.reach)
        with VerticalScroll():
            yield Static("New battle: Space marks, s a whole stack; ctrl+s begins; Escape cancels", classes="title")
            yield Static("", id="error", markup=False)
            with Horizontal():
                yield Label("Where")
                yield Input(value=self.place or "", placeholder="hex or place", id="where", compact=True)
            with Horizontal():
                yield Label("Attacker")
                yield Select([(s.name, s.side) for s in self.sides], allow_blank=False, id="attacker-side", compact=True)
            with Horizontal():
                yield Label("Resolver")
                yield Select(RESOLVERS, allow_blank=False, id="resolver", compact=True)
            for side in self.sides:
                yield Static(self._forces_title(side), id=f"title-{side.side}", markup=False)
                yield MarkList(side.stacks, id=f"units-{side.side}")
            yield Static("Situation (filled in from the stored state; change it as the umpire sees it)")
            yield TickList(battles.FACTS, id="facts")
        yield Static("", id="picked", markup=False)

    def on_mount(self) -> None:
        # Tab goes from field to field; the page scrolls to the one focused, never takes the focus itself.
        self.query_one(VerticalScroll).can_focus = False
        self.query_one("#where", Input).focus()
        self.update_suggestions()

    def _forces_title(self, side: forces.SideStacks) -> str:
        if self.reach is None:
            return f"Forces of {side.name}, by place and general"
        none = "none; " if not side.stacks else ""
        return f"{side.name} in contact at {self.place} ({none}ctrl+t: every place)"

    def _relist(self) -> None:
        """List the forces in reach of the battle's place, or of every place; marks on forces still listed stay."""
        self.sides = forces.stacks_in(self.session, self.reach)
        for side in self.sides:
            marks = self.query_one(f"#units-{side.side}", MarkList)
            marks.set_stacks(side.stacks, keep=marks.marked)
            self.query_one(f"#title-{side.side}", Static).update(self._forces_title(side))
        self.update_suggestions()

    def action_elsewhere(self) -> None:
        if self.reach is not None:
            self.reach = None
            self.notify("Forces of every place listed: a battle with forces out of contact needs your reason.")
        else:
            where = self.query_one("#where", Input).value
            try:
                self.place, self.reach = battle_reach(self.session, where)
            except CampaignError as exc:
                self.notify(f"Say where the battle is fought first: {exc}", severity="warning")
                return
        self._relist()

    def on_input_changed(self, event: Input.Changed) -> None:
        # The place typed is the battle's place: the forces in contact there follow it.
        if event.input.id != "where" or self.reach is None:
            return
        try:
            place, reach = battle_reach(self.session, event.value)
        except CampaignError:
            return  # not a place (yet): the list stays as it was
        if place != self.place:
            self.place, self.reach = place, reach
            self._relist()

    def chosen(self) -> tuple[list[str], list[str]]:
        attacker = str(self.query_one("#attacker-side", Select).value)
        att, dfn = [], []
        for side in self.sides:
            picked = self.query_one(f"#units-{side.side}", MarkList).selected
            (att if side.side == attacker else dfn).extend(picked)
        return att, dfn

    def on_mark_list_changed(self, _event: MarkList.Changed) -> None:
        self.update_suggestions()

    def on_select_changed(self, _event: Select.Changed) -> None:
        self.update_suggestions()

    def update_suggestions(self) -> None:
        """Tick what the stored state says of the chosen forces; show the SP and the leaders of each side."""
        att, dfn = self.chosen()
        facts = self.query_one("#facts", TickList)
        for key, on in battles.suggested_facts(self.session, att, dfn).items():
            if on:
                facts.select(key)
        attacker = str(self.query_one("#attacker-side", Select).value)
        lines = []
        for side in sorted(self.sides, key=lambda s: s.side != attacker):
            role = "Attacker" if side.side == attacker else "Defender"
            marked = set(self.query_one(f"#units-{side.side}", MarkList).selected)
            lines.append(f"{role} ({side.name}): {forces.picked(side, marked).summary()}")
        self.query_one("#picked", Static).update("\n".join(lines))

    def action_begin(self, override: str = "") -> None:
        att, dfn = self.chosen()
        facts = self.query_one("#facts", TickList).selected
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

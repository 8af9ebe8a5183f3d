"""Battles: the list of the campaign's battles, and setting up a new one."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.dom import NoActiveAppError
from textual.widgets import DataTable, Static

from campaigns import battles
from campaigns.contact import contacts
from tui.screens.base import CampaignScreen
from tui.widgets.cells import fill

if TYPE_CHECKING:
    from campaigns.contact import Contact
    from campaigns.session import CampaignSession

FIRST_WAIT = 0.3  # seconds the first layout waits for the first reading (as the forced march's)


def resolvers() -> list[tuple[str, str]]:
    """(label, rule set) for the Resolver choice: the campaign's own tables first, then
    every tactical rule set registered (rules/registry.py), plug-ins included."""
    from rules import registry

    found = registry.registered()
    own = found[battles.TABLES].ruleset.title if battles.TABLES in found else battles.TABLES
    return [(f"The campaign's own tables ({own})", battles.TABLES)] + [
        (f"Tabletop: {entry.ruleset.title}", key) for key, entry in found.items() if entry.ruleset.tactical
    ]


def _read(session: CampaignSession) -> tuple[list[battles.Listed], list[Contact]]:
    """The battles and the stacks in contact. The stacks are counted by the database in a
    thread of their own (SQLite leaves Python's lock meanwhile) while this one reads the
    battles and the gazetteer (on 50,000 units ~20 ms of SQLite beside ~50 ms of Python,
    the gazetteer's TOML read once a process)."""
    from concurrent.futures import ThreadPoolExecutor

    from campaigns.gazetteer import gazetteer
    from campaigns.stacks import counted_stacks

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="battles-count") as pool:
        counting = pool.submit(counted_stacks, session)
        rows = battles.battles(session)
        gazetteer()
        counted = counting.result()
    return rows, contacts(session, counted)


ELSEWHERE = "*elsewhere*"  # the pick of a battle's place that lists every place's forces


class BattlesScreen(CampaignScreen):
    TITLE_TEXT = "Battles"
    BINDINGS = [
        Binding("n", "new", "New battle", id="battles.new", tooltip="Set up a battle between stored forces"),
        Binding("enter", "open", "Open", id="battles.open", tooltip="Fight or finish the selected battle"),
        Binding("g", "game", "Tabletop game", id="battles.game", tooltip="A tabletop game outside the campaign's forces, units entered by hand"),
        Binding("R", "retreat", "Retreat loser", id="battles.retreat", show=False,
                tooltip="Retreat the selected battle's loser to an adjacent place (option loser_retreat)"),
    ]
    UMPIRE_ONLY = frozenset({"new", "game", "retreat"})

    DEFAULT_CSS = """
    BattlesScreen #contacts { height: auto; max-height: 8; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        try:
            session = self.adjutant.session
        except NoActiveAppError:  # built outside an app: refresh_view reads
            return
        # The first reading starts with the screen, before it is composed: the database counts
        # the stacks while Textual composes and mounts the screen, and the screen is laid out
        # and drawn once, with them (on_mount), instead of empty first and then again.
        if session is not None:
            self._answered = asyncio.Event()
            self._early = session.version()
            self._start_read(session)

    def body(self) -> ComposeResult:
        yield Static(f"Battles ({self.hint(('new', 'n new'), ('open', 'Enter to fight or read'))})", classes="title")
        yield Static("", id="contacts", markup=False)
        yield DataTable(id="list", cursor_type="row", zebra_stripes=True)

    _early: int | None = None  # the campaign version the reading started with the screen reads
    _answered: asyncio.Event | None = None  # set when the first reading has come (or been refused)
    _composed = False  # every widget of the screen mounted (on_mount has run)

    async def on_mount(self) -> None:
        self.query_one("#list", DataTable).focus()
        if self._answered is not None and self._shown is None:
            # A slow database shows the screen empty after FIRST_WAIT, and the battles as they come.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._answered.wait(), FIRST_WAIT)
        self._composed = True
        self._draw()

    # The battles and the stacks in contact are read in a worker (the stacks counted by the
    # database, once per version of the campaign: campaigns.stacks.counted_stacks); a resize
    # draws again what was read.
    _reads = 0  # readings started: only the answer to the last one is shown
    _shown: tuple[list[battles.Listed], list[Contact]] | None = None  # what was read last: the battles, the contacts

    def refresh_view(self) -> None:
        early, self._early = self._early, None
        if early is not None and early == self.shown_version:
            return  # the reading started with the screen reads this version: its answer shows it
        self._start_read(self.session)

    def _start_read(self, session: CampaignSession) -> None:
        # Through attempt's worker, which holds the keys typed meanwhile (tui.keys): Enter
        # pressed at once after x opens the battle the list then shows, not nothing.
        self._reads += 1
        number = self._reads
        self.attempt(lambda: (*_read(session), number), worker=True, writes=False, then=lambda read: self._show(*read))

    def _show(self, rows: list[battles.Listed], found: list[Contact], number: int) -> None:
        if number != self._reads:
            return  # a later reading was started meanwhile: its answer follows
        self._shown = (rows, found)
        if not self._composed:  # the first reading, come while the screen is composed: drawn once it is
            if self._answered is not None:
                self._answered.set()
            return
        self._draw()

    def refused(self, exc: Exception) -> None:
        if self._answered is not None:
            self._answered.set()  # the first reading refused: the screen is shown without it
        super().refused(exc)

    def _draw(self) -> None:
        if self._shown is None or not self._composed:
            return
        rows, found = self._shown
        table = self.query_one("#list", DataTable)
        keep = table.cursor_row
        fill(
            table,
            ("#", "Turn", "Where", "Status", "Resolver", "Result"),
            ((str(row.id), (row.id, row.turn, row.location, row.status, row.resolver, row.result or "-")) for row in rows),
            wrap_to=table.size.width or self.app.size.width,  # the result wraps rather than runs off the edge
        )
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))
        here = self.hint(("new", " (n sets up a battle at one of these places)"))
        anywhere = self.hint(("new", ": n sets up a battle anywhere, with the umpire's reason"))
        self.query_one("#contacts", Static).update(
            f"Stacks in contact{here}:\n" + "\n".join(f"  {c.describe()}" for c in found)
            if found
            else f"No stacks in contact (option contact){anywhere}."
        )

    def on_resize(self, _event) -> None:
        if self._shown is not None:
            self.call_after_refresh(self._draw)

    def action_new(self) -> None:
        """A battle starts from a place where stacks are in contact, offering the stacks there;
        elsewhere, every place's forces are listed and the umpire gives a reason."""
        session = self.session
        self.attempt(lambda: contacts(session), worker=True, writes=False, then=self._new_at)

    def _new_at(self, found: list[Contact]) -> None:
        from tui.modals.pick import PickScreen
        from tui.screens.battle_setup import BattleSetupScreen

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
        from tui.modals.form import FormScreen

        rule_sets = [key for _, key in resolvers() if key != battles.TABLES]
        fields = [("location", "Where", "", None), ("ruleset", "Rule set", rule_sets[0], rule_sets)]
        made: list[int] = []

        def check(values: dict[str, str]) -> None:
            made.append(tabletop.new_game(self.session, values["ruleset"], values["location"]))

        def done(values: dict[str, str] | None) -> None:
            if values and made:
                from tui.screens.resolver import ResolverScreen

                self.campaign_changed()
                self.app.switch_screen(ResolverScreen(made[-1]))

        self.app.push_screen(FormScreen("A tabletop game outside the campaign's forces", fields, check=check), done)

    def action_open(self) -> None:
        table = self.query_one("#list", DataTable)
        if table.row_count == 0:
            self.notify(f"No battle yet{self.hint(('new', ': n sets one up'))}.", severity="warning")
            return
        battle_id = int(str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value))
        self.adjutant.open_battle(battle_id)

    def action_retreat(self) -> None:
        """The selected battle's loser, still at the battle's place, to an adjacent place the
        umpire picks (campaigns.aftermath); a place the enemy holds needs his reason."""
        from campaigns import aftermath

        table = self.query_one("#list", DataTable)
        if table.row_count == 0:
            self.notify(f"No battle yet{self.hint(('new', ': n sets one up'))}.", severity="warning")
            return
        battle_id = int(str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value))
        session = self.session
        self.attempt(lambda: aftermath.plan_retreat(session, battle_id), worker=True, writes=False, then=self._retreat_form)

    def _retreat_form(self, plan) -> None:
        from campaigns import aftermath
        from tui.modals.form import FormScreen

        if not plan.choices:
            self.notify(f"No road leaves {plan.place}: the loser cannot retreat.", severity="warning")
            return
        held = [to for to, enemy in plan.choices if enemy]
        title = f"Retreat the {plan.loser} from {plan.place}: {plan.moving()}" + (
            f" (the enemy holds {', '.join(held)}: a reason is needed there)" if held else ""
        )
        places = [to for to, _ in plan.choices]
        free = [to for to, enemy in plan.choices if not enemy]
        fields = [("to", "Retreat to", (free or places)[0], places), ("reason", "Reason (enemy-held)", "", None)]
        session = self.session

        def check(values: dict[str, str]) -> None:
            aftermath.retreat(session, plan.battle_id, values["to"], values.get("reason", ""))

        self.app.push_screen(FormScreen(title, fields, check=check), lambda v: self.campaign_changed() if v else None)

    def on_data_table_row_selected(self, _event: DataTable.RowSelected) -> None:
        self.action_open()


"""Setting up a new battle: where, who attacks, the resolver, the forces by stack, the situation.

Apart from the battles' list (tui.screens.battles), so that showing the list does not
import what only the form needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Label, Select, Static

from campaigns import battles, forces
from campaigns.contact import OutOfContact, battle_reach
from campaigns.errors import CampaignError
from campaigns.words import sentence
from tui.modals.form import FormScreen
from tui.screens.base import CampaignScreen
from tui.screens.battles import resolvers
from tui.widgets.marklist import MarkList, TickList
from tui.widgets.text_field import TextField


@dataclass
class SetupDraft:
    """A battle set-up filled in part: kept when the umpire leaves the form, for his return."""

    where: str = ""
    attacker: str | None = None  # the attacking side's id
    resolver: str = battles.TABLES
    marked: dict[str, set[str]] = field(default_factory=dict)  # side id -> the forces marked
    facts: set[str] = field(default_factory=set)  # the situation's ticks

    def empty(self) -> bool:
        return not (self.where.strip() or any(self.marked.values()))


# the half-filled set-up of each campaign open in this program (by its name), until it
# begins a battle or the umpire discards it: leaving the form (Escape, another screen) keeps it
DRAFTS: dict[str, SetupDraft] = {}


class BattleSetupScreen(CampaignScreen):
    """A new battle: where, who attacks, the resolver, the forces by stack, the situation.

    What is filled in is kept when the form is left (Escape, or any other screen) and
    is there again on coming back; ctrl+n discards it, a battle begun ends it."""

    TITLE_TEXT = "New battle"
    BINDINGS = [
        Binding("ctrl+s,f10", "begin", "Begin battle", id="setup.begin", tooltip="Store the battle and start fighting it"),
        Binding("escape", "cancel", "Cancel", id="setup.cancel", tooltip="Leave the set-up; what is filled in is kept for your return"),
        # shown when a kept set-up comes back (the key bar at 80 columns has no room for it)
        Binding("ctrl+n,alt+n", "discard", "New set-up", id="setup.discard", show=False,
                tooltip="Empty the set-up kept from before: start afresh"),
        # s on a field that takes no letter (Attacker, Resolver): to the forces, where s marks a
        # whole stack, as the title says; the app's s (Save a copy) opened over the form instead.
        Binding("s", "to_forces", "Forces", id="setup.forces", show=False,
                tooltip="Go to the first side's forces, where s marks a whole stack"),
        Binding(
            "ctrl+t,f6,alt+t", "elsewhere", "Forces elsewhere", id="setup.elsewhere",
            tooltip="List the forces of every place too (a battle with them needs the umpire's reason), or only those in contact",
        ),
    ]
    DEFAULT_CSS = """
    BattleSetupScreen VerticalScroll { height: 1fr; }
    BattleSetupScreen Horizontal { height: auto; }
    BattleSetupScreen Label { width: 10; }
    BattleSetupScreen Input, BattleSetupScreen Select { width: 1fr; }
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
                yield TextField(value=self.place or "", placeholder="hex or place", id="where", compact=True)
            with Horizontal():
                yield Label("Attacker")
                yield Select([(s.name, s.side) for s in self.sides], allow_blank=False, id="attacker-side", compact=True)
            with Horizontal():
                yield Label("Resolver")
                yield Select(resolvers(), allow_blank=False, id="resolver", compact=True)
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
        kept = DRAFTS.get(self.session.where)
        # A set-up opened for another place than the one left half-filled starts afresh there.
        if kept is not None and (not self.place or kept.where.strip().casefold() == self.place.casefold()):
            self.restore(kept)
            self.query_one("#error", Static).update("The set-up you left is as you left it: ctrl+n discards it for a new one.")
        self.update_suggestions()

    # -- the half-filled set-up, kept when the form is left --------------------------------

    def draft(self) -> SetupDraft:
        return SetupDraft(
            where=self.query_one("#where", Input).value,
            attacker=str(self.query_one("#attacker-side", Select).value),
            resolver=str(self.query_one("#resolver", Select).value),
            marked={side.side: set(self.query_one(f"#units-{side.side}", MarkList).selected) for side in self.sides},
            facts=set(self.query_one("#facts", TickList).selected),
        )

    def restore(self, kept: SetupDraft) -> None:
        """The form as it was left; forces gone since (moved, destroyed) are no longer offered, so not marked."""
        self.query_one("#where", Input).value = kept.where
        if kept.attacker in [s.side for s in self.sides]:
            self.query_one("#attacker-side", Select).value = kept.attacker
        if kept.resolver in [key for _, key in resolvers()]:
            self.query_one("#resolver", Select).value = kept.resolver
        for side in self.sides:
            self.query_one(f"#units-{side.side}", MarkList).mark(kept.marked.get(side.side, set()))
        facts = self.query_one("#facts", TickList)
        for key, _label in battles.FACTS:
            facts.select(key, key in kept.facts)

    def keep(self) -> None:
        draft = self.draft()
        if draft.empty():
            DRAFTS.pop(self.session.where, None)
        else:
            DRAFTS[self.session.where] = draft

    def on_tick_list_changed(self, _event: TickList.Changed) -> None:
        self.keep()

    def action_discard(self) -> None:
        DRAFTS.pop(self.session.where, None)
        self.query_one("#where", Input).value = ""
        for side in self.sides:
            self.query_one(f"#units-{side.side}", MarkList).clear_marks()
        facts = self.query_one("#facts", TickList)
        for key, _label in battles.FACTS:
            facts.select(key, False)
        self.query_one("#resolver", Select).value = resolvers()[0][1]
        self.query_one("#error", Static).update("Set-up discarded: a new one from the start.")
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

    def action_to_forces(self) -> None:
        self.query(MarkList).first().focus()

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
        self.keep()  # kept as it is filled in: Escape, another screen's key or closing loses nothing
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
        att: list[str] = []
        dfn: list[str] = []
        for side in self.sides:
            picked = self.query_one(f"#units-{side.side}", MarkList).selected
            (att if side.side == attacker else dfn).extend(picked)
        return att, dfn

    def on_mark_list_changed(self, _event: MarkList.Changed) -> None:
        self.update_suggestions()
        self.keep()

    def on_select_changed(self, _event: Select.Changed) -> None:
        self.update_suggestions()
        self.keep()

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
        location = self.query_one("#where", Input).value
        resolver = str(self.query_one("#resolver", Select).value)
        session = self.session

        def begin() -> int:  # in a worker: it reads the leaders and writes the battle
            draft = battles.Draft(
                location=location,
                attacker_units=att,
                defender_units=dfn,
                attacker_generals=battles.leaders_at(session, att),
                defender_generals=battles.leaders_at(session, dfn),
                facts={key: key in facts for key, _ in battles.FACTS},
                override=override,
            )
            return battles.begin(session, draft, resolver)

        def begun(battle_id: int) -> None:
            DRAFTS.pop(session.where, None)  # the set-up is now a battle
            self.app.pop_screen()
            self.adjutant.open_battle(battle_id)

        self.attempt(begin, worker=True, then=begun)

    def refused(self, exc: Exception) -> None:
        """A set-up refused is said on the form, which keeps what was chosen; forces out of contact ask why."""
        if isinstance(exc, OutOfContact):
            self.ask_override(str(exc))
            return
        self.query_one("#error", Static).update(sentence(str(exc)))
        self.query_one(VerticalScroll).scroll_home()

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

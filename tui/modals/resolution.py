"""One resolution of a tabletop battle: pick what the unit does and at whom, tick
the card's modifiers, type the numbers it needs, and see the number needed and
the exact odds before anything is rolled.

The modal returns the choice; the resolver screen rolls (or asks for the dice)
and stores the result.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, Static

from campaigns import tabletop
from campaigns.errors import CampaignError
from campaigns.words import sentence
from rules.errors import RulesError
from rules.resolver import ENEMY, NO_TARGET, may_act
from tui.modals.form import FormBody
from tui.textual_private import select_listed_on_open
from tui.widgets.bars import odds_bar
from tui.widgets.hanging import Hanging
from tui.widgets.in_place import update_in_place
from tui.widgets.text_field import TextField
from tui.widgets.tickbox import TickBox


def allowed_actions(table: tabletop.Tabletop, actor_id: str) -> list[tuple[str, str]]:
    """(id, title) of what the unit may do in this phase, by the sequence of play."""
    actor = table.units[actor_id]
    out = []
    for action in table.resolver.actions:
        if action.arms and actor.arm not in action.arms:
            continue
        try:
            may_act(table.resolver, table.position, action.id, actor.side)
        except RulesError:
            continue
        if table.resolver.not_for(table.phase.id, action.id, actor, table.options):
            continue  # the other side's act in this phase (the Austrians' fire while the French move)
        out.append((action.id, action.title))
    # what the unit owes first (hits to read...), then the phase's own resolutions in the
    # card's order, then those of any phase; last, those the card refuses it now (no
    # target it reaches, an evade with no charge to answer): the form opens on one it can take
    due = table.resolver.due(actor)
    order = {a: i for i, a in enumerate(table.phase.actions)}

    def rank(item: tuple[str, str]) -> tuple[int, int]:
        return (0 if item[0] in due else 2 if refused_now(table, item[0], actor_id) else 1, order.get(item[0], len(order)))

    return sorted(out, key=rank)


def refused_now(table: tabletop.Tabletop, action_id: str, actor_id: str) -> str | None:
    """Why the card refuses the action to the unit as things stand (before the umpire ticks
    anything or rules otherwise), or None: no target it reaches, or its own refusal."""
    action, actor = table.resolver.action(action_id), table.units[actor_id]
    if action.target != NO_TARGET:
        wanted, why = tabletop.reachable(table, action_id, actor_id)
        return None if wanted else why or f"{action.title}: no unit it may take as its target"
    ticked = [t.id for t in action.ticks(actor, None) if t.checked]
    numbers = {n.id: n.default for n in action.numbers(actor, None)}
    try:
        tabletop.prepare(table, tabletop.request(table, action_id, actor_id, None, ticked, numbers))
    except CampaignError as refusal:
        return str(refusal)
    return None


def target_options(table: tabletop.Tabletop, actor, action, ruling: str = "") -> tuple[list[tuple[str, str]], str]:
    """(label, id) of the units the action may take as its target, and why the others
    are not offered; an umpire's ruling offers every unit of the right side."""
    if ruling.strip():
        wanted = [u for u in table.units.values() if not u.removed and u.id != actor.id
                  and ((u.side != actor.side) if action.target == ENEMY else (u.side == actor.side))]
        why = ""
    else:
        wanted, why = tabletop.reachable(table, action.id, actor.id)
    return [(f"{u.id} {u.name}", u.id) for u in wanted], why


def prepared_lines(prepared) -> list[str | tuple[str, int]]:
    lines = [prepared.what, f"Needs: {prepared.needed}"]
    if prepared.rolls:  # each side's dice, named
        lines += ["Dice:"] + [f" {r.label}: {r.dice}" for r in prepared.rolls]
    else:
        lines.append(f"Dice: {prepared.dice}" if prepared.dice else "Nothing is rolled.")
    for heading, odds in prepared.odds:
        lines.append(f"{heading}:")
        for outcome, chance in odds.items():
            # An outcome that wraps ("1 stand lost, Disrupted") goes on under itself, past the bar.
            lines.append((f" {float(chance) * 100:5.1f}% {odds_bar(chance, 6)} {outcome}", ODDS_LEAD))
    lines += list(prepared.notes)
    return lines


ODDS_LEAD = len(" 100.0% ") + 6 + 1  # cells before an outcome: its chance and its bar


def _set_text(shown: Static | None, text: str) -> None:
    """The text beside a field, changed only if it differs; the form laid out again only
    if it takes more or fewer lines (update_in_place)."""
    if shown is not None and str(shown.content) != text:
        update_in_place(shown, text)


def _select(options: list[tuple[str, str]], value: str, id: str) -> Select:
    """A compact Select showing `value`, its list built when first opened (most never are):
    the form opens with less to build and style, and looks the same."""
    return select_listed_on_open()(options, value=value, allow_blank=False, id=id, compact=True)


class ResolutionScreen(ModalScreen[dict[str, Any] | None]):
    DEFAULT_CSS = """
    ResolutionScreen { align: center middle; }
    ResolutionScreen > Vertical { width: 100%; max-width: 110; height: 100%; max-height: 30; border: round $accent; background: $surface; }
    ResolutionScreen #form { width: 40; padding: 0 1; }
    ResolutionScreen #show { width: 1fr; padding: 0 1; border-left: solid $primary; }
    ResolutionScreen Horizontal.field { height: auto; }
    ResolutionScreen #details, ResolutionScreen .params { height: auto; }
    ResolutionScreen Label { width: 9; }
    ResolutionScreen Input, ResolutionScreen Select { width: 1fr; }
    /* The numbers and the ticks: a grid of two columns each, a row of it a field and its
       text, rather than a Horizontal a row (a third of the widgets the form mounted). */
    ResolutionScreen .numbers { layout: grid; grid-size: 2; grid-columns: 1fr 8; grid-rows: auto; height: auto; }
    ResolutionScreen .ticks { layout: grid; grid-size: 2; grid-columns: 5 1fr; grid-rows: auto; height: auto; }
    ResolutionScreen .numbers .tick-text { width: 1fr; padding-right: 1; }  /* "allotted by 0", not "by0" */
    ResolutionScreen .ticks TickBox { width: 5; }
    ResolutionScreen .ticks .tick-text { width: 1fr; }
    ResolutionScreen #error { color: $error; height: auto; }
    ResolutionScreen #hint { height: 1; padding: 0 1; }
    """
    BINDINGS = [
        Binding("ctrl+r", "go(False)", "Roll", id="resolution.roll", priority=True),
        Binding("ctrl+e", "go(True)", "Type dice", id="resolution.type", priority=True),
        Binding("escape", "cancel", "Cancel", id="resolution.cancel"),
    ]

    def __init__(self, table: tabletop.Tabletop, actor_id: str, actions: list[tuple[str, str]],
                 dice_typed_in: bool = False) -> None:
        super().__init__()
        self.dice_typed_in = dice_typed_in  # the campaign's dice are rolled on the table and typed in
        self.table = table
        self.actor_id = actor_id
        self.actions = actions
        self.generation = 0  # widget ids change with each action picked, so old ones never clash
        self.built: str | None = None  # the action whose target, numbers and ticks are shown
        self.building = False
        self.params = 0  # the same for the numbers and ticks, rebuilt on each change of target
        self.target_select: Select | None = None
        self.ruling: Input | None = None  # the umpire's ruling, for an action with a target
        self.ruling_text = ""
        self.params_for: str | None = None  # the target the numbers and ticks are built for
        self.numbers: dict[str, Input] = {}  # number id -> its field
        self.ticks: dict[str, TickBox] = {}  # tick id -> its box
        self.prefilled: dict[str, bool] = {}  # tick id -> as stored state pre-filled it
        self.defaults: dict[str, str] = {}  # number id -> its default, as shown
        self.texts: dict[str, Static] = {}  # "n-" + number id or "t-" + tick id -> the text beside its field
        self.number_defs: dict[str, Any] = {}  # number id -> the card's Number (whole or decimal)

    def compose(self) -> ComposeResult:
        actor = self.table.units[self.actor_id]
        first = self.actions[0][0]
        # The action's fields are composed with the form, not mounted once it has opened:
        # the form is laid out once as it opens, not a second time with its fields.
        details = self.details(first)
        with Vertical():
            with Horizontal():
                with FormBody(id="form"):
                    yield Static(f"{actor.name} ({actor.side})", markup=False)
                    with Horizontal(classes="field"):
                        yield Label("Does")
                        yield _select([(title, key) for key, title in self.actions], first, "action")
                    yield Vertical(*details, id="details")
                with VerticalScroll(id="show"):
                    yield Static("", id="error", markup=False)
                    yield Static("", id="prepared", markup=False)
            yield Static("ctrl+r rolls · ctrl+e types the dice rolled · Esc cancels", id="hint", classes="muted")

    def on_mount(self) -> None:
        # The fields' box never takes the focus (FormBody), not even the first one as the
        # form opens: taken and handed on to the action, it restyled the whole form twice.
        # The odds panel takes the focus (Tab), so a long list scrolls with the arrow keys.
        self.show()
        self.query_one("#action", Select).focus()

    def action_id(self) -> str:
        return str(self.query_one("#action", Select).value)

    async def rebuild(self) -> None:
        """The target, numbers and ticks of the action picked."""
        self.building = True
        details = self.query_one("#details", Vertical)
        await details.remove_children()
        await details.mount_all(self.details(self.action_id()))
        self.building = False
        self.show()

    def details(self, action_id: str) -> list[Widget]:
        """The fields of the action `action_id`: its target, the umpire's ruling, and its
        numbers and ticks for the first target offered, built (not mounted)."""
        self.generation += 1
        g = self.generation
        action = self.table.resolver.action(action_id)
        self.built = action.id
        actor = self.table.units[self.actor_id]
        self.target_select = None
        self.numbers, self.ticks, self.prefilled, self.defaults = {}, {}, {}, {}
        widgets: list[Widget] = []
        self.ruling = None
        target_id: str | None = None
        if action.target != NO_TARGET:
            options, why = target_options(self.table, actor, action, self.ruling_text)
            label = "At" if action.target == ENEMY else "With"
            if options:
                target_id = options[0][1]
                self.target_select = _select(options, target_id, f"target-{g}")
                widgets.append(Horizontal(Label(label), self.target_select, classes="field"))
            else:
                side = "enemy" if action.target == ENEMY else "friendly"
                widgets.append(Static(f"No {side} unit to take as the target.", markup=False))
            if why:
                widgets.append(Static(f"Not offered: {why}", markup=False, classes="muted"))
            # the umpire may rule against the card: the reason is recorded with the resolution
            self.ruling = TextField(self.ruling_text, placeholder="umpire's ruling: the reason to override the card",
                                    id=f"ruling-{g}", compact=True)
            widgets.append(Horizontal(Label("Ruling"), self.ruling, classes="field"))
        self.params += 1
        numbers, ticks, typed = self.param_values(action_id, target_id)
        widgets.append(Vertical(*self.param_rows(self.params, numbers, ticks, typed), id=f"params-{g}", classes="params"))
        if action.help:
            widgets.append(Static(action.help, classes="muted", markup=False))
        return widgets

    def target_id(self) -> str | None:
        return None if self.target_select is None else str(self.target_select.value)

    async def rebuild_params(self) -> None:
        """The numbers and ticks for the actor and the target now chosen.

        The card's modifiers depend on the pair (cavalry against infantry not in
        square...), so every change of target works them out again: those stored state
        decides are pre-ticked afresh; a tick or number the umpire changed by hand
        keeps its value where the card still allows it. The fields are built afresh
        only when the card asks for other ones; most often they are set in place."""
        building, self.building = self.building, True
        self.params += 1
        p = self.params
        numbers, ticks, typed = self.param_values(self.action_id(), self.target_id())
        if [n.id for n in numbers] == list(self.numbers) and [t.id for t, _, _ in ticks] == list(self.ticks):
            self.update_params(numbers, ticks, typed)  # the same fields (most changes of target): set in place
        else:
            await self.mount_params(p, numbers, ticks, typed)
        self.building = building
        if not building:
            self.show()

    def param_values(self, action_id: str, target_id: str | None) -> tuple[list, list, dict[str, str]]:
        """The card's numbers, its ticks as (tick, text, value), and the numbers typed by
        hand, for the actor against `target_id`; what the umpire changed by hand is kept."""
        action = self.table.resolver.action(action_id)
        actor = self.table.units[self.actor_id]
        target = self.table.units.get(target_id) if target_id else None
        self.params_for = target_id
        typed = {k: w.value for k, w in self.numbers.items() if w.value.strip() != self.defaults.get(k)}
        chosen = {k: w.value for k, w in self.ticks.items() if not w.disabled and w.value != self.prefilled.get(k)}
        numbers = list(action.numbers(actor, target))
        from_forces = self.table.resolver.prefill(action.id, actor, [(side, name, rating) for side, name, rating in self.table.leaders],
                                                  self.table.battle)
        ticks = []
        for tick in action.ticks(actor, target):
            if tick.id in from_forces and not tick.excluded:
                tick = replace(tick, checked=True)  # the commanders' ratings, from the forces and the battle
            text = tick.label + (f" ({tick.excluded})" if tick.excluded else "")
            value = tick.checked if tick.excluded or tick.id not in chosen else chosen[tick.id]
            ticks.append((tick, text, value and not tick.excluded))
        return numbers, ticks, typed

    async def mount_params(self, p: int, numbers: list, ticks: list, typed: dict[str, str]) -> None:
        """The numbers' and ticks' fields, built afresh: the fields the card asks for
        with this target changed."""
        box = self.query_one(".params", Vertical)
        await box.remove_children()
        await box.mount_all(self.param_rows(p, numbers, ticks, typed))

    def param_rows(self, p: int, numbers: list, ticks: list, typed: dict[str, str]) -> list[Widget]:
        """A row for each number and each tick, built (not mounted)."""
        self.numbers, self.ticks, self.prefilled, self.defaults, self.texts = {}, {}, {}, {}, {}
        cells: list[Widget] = []
        for number in numbers:
            self.defaults[number.id] = str(number.default)
            self.number_defs[number.id] = number
            field = TextField(typed.get(number.id, str(number.default)), id=f"n-{number.id}-{p}", compact=True)
            self.numbers[number.id] = field
            shown = self.texts[f"n-{number.id}"] = Static(number.label, markup=False, classes="tick-text")
            cells += [shown, field]
        widgets: list[Widget] = [Container(*cells, classes="numbers")] if cells else []
        cells = []
        for tick, text, value in ticks:
            tickbox = TickBox("", value, id=f"t-{tick.id}-{p}", compact=True, disabled=bool(tick.excluded), tooltip=text)
            self.ticks[tick.id] = tickbox
            self.prefilled[tick.id] = tick.checked
            shown = self.texts[f"t-{tick.id}"] = Static(text, markup=False, classes="tick-text")
            cells += [tickbox, shown]
        if cells:
            widgets.append(Container(*cells, classes="ticks"))
        return widgets

    def update_params(self, numbers: list, ticks: list, typed: dict[str, str]) -> None:
        """The same numbers and ticks for another target: their values, labels and the
        ticks the card excludes set in place, rather than every field removed and built
        again (the focus stays where it was, and nothing is laid out that did not change)."""
        with self.prevent(Input.Changed, Checkbox.Changed):  # shown once, by the caller
            for number in numbers:
                self.defaults[number.id] = str(number.default)
                self.number_defs[number.id] = number
                field = self.numbers[number.id]
                value = typed.get(number.id, str(number.default))
                if field.value != value:
                    field.value = value
                _set_text(self.texts.get(f"n-{number.id}"), number.label)
            for tick, text, value in ticks:
                tickbox = self.ticks[tick.id]
                self.prefilled[tick.id] = tick.checked
                tickbox.disabled = bool(tick.excluded)
                tickbox.value = value
                if tickbox.tooltip != text:
                    tickbox.tooltip = text
                _set_text(self.texts.get(f"t-{tick.id}"), text)

    def choice(self) -> dict[str, Any]:
        """What the umpire set up, as campaigns.tabletop.resolve takes it; numbers unchecked."""
        numbers: dict[str, Any] = {}
        for key, widget in self.numbers.items():
            numbers[key] = self.number_defs[key].parse(widget.value)
        ticked = [key for key, box in self.ticks.items() if box.value and not box.disabled]
        return {"action": self.action_id(), "actor": self.actor_id, "target": self.target_id(), "ticked": ticked,
                "numbers": numbers, "ruling": self.ruling_text.strip()}

    def prepared(self):
        c = self.choice()
        req = tabletop.request(self.table, c["action"], c["actor"], c["target"], c["ticked"], c["numbers"], c["ruling"])
        return tabletop.prepare(self.table, req)

    def show(self) -> None:
        error = self.query_one("#error", Static)
        shown = self.query_one("#prepared", Static)
        # Most keys change a figure or a modifier, not how many lines they take: the form
        # is redrawn, not laid out again (update_in_place).
        try:
            prepared = self.prepared()
        except CampaignError as exc:
            update_in_place(error, sentence(str(exc)))
            update_in_place(shown, "")
            return
        update_in_place(error, "")
        update_in_place(shown, Hanging(prepared_lines(prepared)))

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "action":
            if event.value != self.built:  # not the Select's own first announcement
                self.ruling_text = ""
                await self.rebuild()
        elif self.target_select is not None and event.select is self.target_select:
            if event.value != self.params_for:  # not the Select's own first announcement
                await self.rebuild_params()
        else:
            self.show()

    def on_checkbox_changed(self, _event: Checkbox.Changed) -> None:
        self.show()

    async def on_input_changed(self, event: Input.Changed) -> None:
        if self.ruling is not None and event.input is self.ruling:
            before, self.ruling_text = bool(self.ruling_text.strip()), event.value
            if before != bool(event.value.strip()):  # a ruling offers every unit; none, only the card's
                await self.rebuild()
                if self.ruling is not None:
                    self.ruling.focus()
                    self.ruling.cursor_position = len(self.ruling.value)
                return
        self.show()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_go(False)

    def action_go(self, typed: bool) -> None:
        """Roll, or ask for the dice rolled on the table; the choice goes back with the dice typed."""
        if self.building:  # a key pressed while the action's fields are being laid out
            self.call_after_refresh(self.action_go, typed)
            return
        try:
            prepared = self.prepared()
        except CampaignError as exc:
            self.query_one("#error", Static).update(sentence(str(exc)))
            return
        choice = self.choice()
        if not prepared.rolls_dice or not (typed or self.dice_typed_in):
            self.dismiss({**choice, "entered": None})
            return
        from tui.modals.dice_entry import DiceEntryScreen

        def got(values: list[int] | list[list[int]] | None) -> None:
            if values is not None:
                self.dismiss({**choice, "entered": values})

        named = [(r.label, r.dice) for r in prepared.rolls]  # each side's dice asked for on a line of its own
        self.app.push_screen(DiceEntryScreen(prepared.what, prepared.dice or "1d6", named), got)

    def action_cancel(self) -> None:
        self.dismiss(None)

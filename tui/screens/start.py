"""Start: a new campaign from a scenario, a file to open, or a recent one."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from campaigns.errors import CampaignError, typed_number
from campaigns.scenario import Scenario, load_scenario, scenario_ids
from campaigns.session import CampaignSession
from campaigns.settings import recent_files, remember
from campaigns.words import sentence
from rules.numbers import SEED
from tui.commands import browser_safe
from tui.screens.base import adjutant_of
from tui.widgets.status import BottomBar
from tui.widgets.text_field import TextField

DICE_MODES = [("Rolled by Adjutant (seeded)", "rolled"), ("Rolled on the table, typed in", "entered")]


def scenarios_in_order() -> list[Scenario]:
    """The scenarios as the campaign ran, the earliest first: Spring 1813 is offered before Autumn 1813."""
    return sorted((load_scenario(s) for s in scenario_ids()), key=lambda s: (s.start_date, s.id))


class StartScreen(Screen[None]):
    BINDINGS = [
        Binding(browser_safe("ctrl+n"), "focus_new", "New campaign", id="start.new", tooltip="Start a campaign from a scenario"),
        Binding("ctrl+f", "focus_open", "Open file", id="start.open", tooltip="Type the path of a campaign file"),
        Binding("ctrl+l", "focus_recent", "Recent", id="start.recent", tooltip="Pick a recently opened file"),
    ]
    DEFAULT_CSS = """
    StartScreen VerticalScroll { height: 1fr; }
    StartScreen .box { height: auto; border: round $primary; padding: 0 1; }
    StartScreen Horizontal { height: auto; }
    StartScreen Label { width: 12; padding: 1 1 0 0; }
    StartScreen Input, StartScreen Select { width: 1fr; }
    StartScreen #recent { height: auto; max-height: 8; }
    StartScreen #error { color: $error; height: auto; }
    StartScreen Button { margin: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static("Adjutant: the 1813 campaign, from the keyboard", classes="title")
        # Above the scrolling part: at 80x24 the field Enter was pressed in may be far below.
        yield Static("", id="error", markup=False)
        with VerticalScroll():
            with Vertical(classes="box", id="new-box"):
                yield Static("[b]New campaign[/b]")
                with Horizontal():
                    yield Label("Scenario")
                    yield Select([(s.title, s.id) for s in scenarios_in_order()], allow_blank=False, id="scenario")
                with Horizontal():
                    yield Label("Name")
                    yield TextField(placeholder="the scenario's title", id="name")
                with Horizontal():
                    yield Label("Dice seed")
                    yield TextField(placeholder="blank for a random seed", id="seed")
                with Horizontal():
                    yield Label("Dice")
                    yield Select(DICE_MODES, allow_blank=False, value=adjutant_of(self).settings.dice_mode, id="dice")
                with Horizontal():
                    yield Label("File")
                    yield TextField(placeholder="e.g. spring.campaign", id="file")
                yield Button("Create (enter on File)", id="create", variant="primary")
            with Vertical(classes="box"):
                yield Static("[b]Open a campaign file[/b]")
                with Horizontal():
                    yield Label("Path")
                    yield TextField(placeholder="a .campaign file or postgresql+psycopg://...", id="open")
            with Vertical(classes="box"):
                yield Static("[b]Recent files[/b]")
                yield OptionList(*[Option(f, id=f) for f in recent_files()] or [Option("(none yet)", disabled=True)], id="recent")
        yield BottomBar()

    def on_mount(self) -> None:
        (self.query_one("#recent", OptionList) if recent_files() else self.query_one("#scenario", Select)).focus()

    def fail(self, message: str) -> None:
        self.query_one("#error", Static).update(sentence(message))

    def open_target(self, target: str) -> None:
        try:
            session = CampaignSession.open(target)
        except CampaignError as exc:
            self.fail(str(exc))
            return
        remember(target)
        adjutant_of(self).open_session(session)

    def create(self) -> None:
        path = self.query_one("#file", Input).value.strip()
        if not path:
            self.fail("type the file to create, e.g. spring.campaign")
            return
        if "://" not in path and not path.endswith(".campaign"):
            path += ".campaign"
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            # ASCII digits within a seed's range ("²" is a digit to str.isdigit, and int() refuses it)
            seed = typed_number(seed_text, SEED) if seed_text else None
            session = CampaignSession.new(
                str(self.query_one("#scenario", Select).value),
                path,
                seed=seed,
                manual_dice=self.query_one("#dice", Select).value == "entered",
                name=self.query_one("#name", Input).value.strip() or None,
            )
        except CampaignError as exc:
            self.fail(str(exc))
            return
        remember(path)
        adjutant_of(self).open_session(session)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "open":
            if event.value.strip():
                self.open_target(event.value.strip())
        elif event.input.id == "file":
            self.create()
        else:
            self.focus_next()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.create()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.open_target(str(event.option.id))

    def action_focus_new(self) -> None:
        self.query_one("#scenario", Select).focus()

    def action_focus_open(self) -> None:
        self.query_one("#open", Input).focus()

    def action_focus_recent(self) -> None:
        self.query_one("#recent", OptionList).focus()

"""A form of labelled fields; the caller checks the values and the form shows what is wrong."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, Select, Static

from campaigns.words import sentence

from tui.screens.base import Attempts
from tui.textual_private import select_listed_on_open
from tui.widgets.text_field import TextField

# (key, label, value, choices): choices None for free text, else the words, or (label, value) pairs.
Field = tuple[str, str, str, Sequence[str] | Sequence[tuple[str, str]] | None]


class FormBody(VerticalScroll, can_focus=False):
    """The form's scrolling box: it never takes the focus, not even the first one
    Textual gives a screen as it opens (the first key typed goes to the first field)."""


class FormScreen(Attempts, ModalScreen[dict[str, str] | None]):
    """Fields are (key, label, value, choices): choices None for free text.

    `check` gets the values and raises a refusal (CampaignError, StoreError,
    RulesError) whose sentence is shown when they are wrong; the form stays open,
    with what was typed and the focus where it was, until they are right or it is
    cancelled. `check` often writes the campaign: it runs in a thread worker
    (Attempts.attempt), so a slow database never freezes the screen, and the keys
    typed meanwhile wait for its outcome (tui.keys).

    `follows`: a choice field whose choices depend on another field's value, as
    key -> (the key it follows, value -> its choices): a unit's types follow its arm,
    so the list opens with the artillery types for artillery, not all of them.
    """

    DEFAULT_CSS = """
    FormScreen { align: center middle; }
    FormScreen > FormBody { width: 66; max-width: 100%; height: auto; max-height: 100%; border: round $accent; padding: 0 1; background: $surface; }
    FormScreen Horizontal { height: auto; margin-bottom: 1; }
    FormScreen Label { width: 18; padding: 0 1 0 0; }
    FormScreen Input, FormScreen Select { width: 1fr; }
    FormScreen #error { color: $error; height: auto; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        Binding("ctrl+s", "submit", "Save", id="form.save"),
    ]

    def __init__(
        self,
        title: str,
        fields: Sequence[Field],
        check: Callable[[dict[str, str]], object] | None = None,
        suggestions: dict[str, list[str]] | None = None,
        follows: dict[str, tuple[str, Callable[[str], list[tuple[str, str]]]]] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.fields = fields
        self.check = check
        self.suggestions = suggestions or {}  # free-text fields that complete as they are typed
        self.follows = follows or {}
        self.saving = False  # a check runs in its worker: the form waits for its outcome

    def compose(self) -> ComposeResult:
        with FormBody():
            yield Static(f"[b]{self.title_text}[/b]")
            for key, label, value, choices in self.fields:
                with Horizontal():
                    yield Label(label)
                    # Compact fields: seven of them and the error still fit in 24 lines.
                    if choices is None:
                        known = self.suggestions.get(key)
                        suggester = SuggestFromList(known, case_sensitive=False) if known else None
                        yield TextField(value=value, id=f"f-{key}", compact=True, suggester=suggester)
                    else:
                        # a choice is its value, or (label, value) where the value is an id
                        pairs = [(c, c) if isinstance(c, str) else c for c in choices]
                        values = [v for _, v in pairs]
                        # Its list built when first opened: most fields are never opened, and
                        # a Select's hidden list, styled and filled as the form opened, was
                        # about half the CSS work of opening a form (the form looks the same).
                        yield select_listed_on_open()(
                            pairs, value=value if value in values else values[0],
                            allow_blank=False, id=f"f-{key}", compact=True,
                        )
            yield Static("", id="error", markup=False)
            yield Static("Enter on the last field or ctrl+s saves; Escape cancels", classes="muted")

    def on_mount(self) -> None:
        self.query_one(f"#f-{self.fields[0][0]}").focus()
        for key, (leader, _choices) in self.follows.items():
            found = self.query(f"#f-{leader}").results(Select)
            for field in found:  # a form without the field followed lists every choice
                self._follow(key, str(field.value))

    def _follow(self, key: str, value: str) -> None:
        """The choices of `key` for its leader's `value`: the one chosen kept where it is still one."""
        field = self.query_one(f"#f-{key}", Select)
        pairs = self.follows[key][1](value)
        if not pairs:
            return
        before = field.value
        field.set_options(pairs)
        values = [v for _, v in pairs]
        field.value = before if before in values else values[0]

    def on_select_changed(self, event: Select.Changed) -> None:
        leader = (event.select.id or "")[2:]
        for key, (follows, _choices) in self.follows.items():
            if follows == leader:
                self._follow(key, str(event.value))

    def values(self) -> dict[str, str]:
        out = {}
        for key, *_ in self.fields:
            widget = self.query_one(f"#f-{key}")
            out[key] = str(widget.value)  # type: ignore[attr-defined]  # an Input or a Select (compose): both have a value
        return out

    def on_input_submitted(self, event: Input.Submitted) -> None:
        inputs = list(self.query(Input))
        if event.input is inputs[-1]:
            self.action_submit()
        else:
            self.focus_next()

    def action_submit(self) -> None:
        if self.saving:
            return  # the same values, already on their way
        values = self.values()
        if self.check is None:
            self.dismiss(values)
            return
        check = self.check
        self.saving = True
        self.attempt(lambda: check(values), worker=True, then=lambda _result: self.dismiss(values))

    def refused(self, exc: Exception) -> None:
        """The sentence in the form, which stays open with what was typed in it."""
        self.saving = False
        error = self.query_one("#error", Static)
        error.update(sentence(str(exc)))
        self.call_after_refresh(error.scroll_visible)  # a long form: the reason is in view

    def succeeded(self, result: object, done: str | None, then=None, *, writes: bool = True) -> None:
        # The caller's callback tells it and redraws its screen, once the form has closed.
        self.saving = False
        if then is not None and self.is_attached:
            then(result)

    def campaign_changed(self) -> None:
        """Nothing to redraw here: the screen that opened the form does, once it has closed."""

    def action_cancel(self) -> None:
        if self.saving:
            # Cancelling now would not undo what the save may already have written.
            self.notify("Saving: the form closes, or says what is wrong, once the save ends.", severity="warning")
            return
        self.dismiss(None)

"""What every campaign screen shares: the status line, the footer, and running an action."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.worker import Worker

from campaigns.errors import STATED_ERRORS, CampaignError
from campaigns.words import sentence
from tui.messages import CampaignChanged
from tui.widgets.status import BottomBar, StatusLine
from tui.workers import back_to, showing

if TYPE_CHECKING:
    from campaigns.session import CampaignSession
    from tui.app import AdjutantApp


def adjutant_of(node: DOMNode) -> AdjutantApp:
    """The app a screen or widget of Adjutant runs in, typed (a screen that is no CampaignScreen)."""
    return cast("AdjutantApp", node.app)


# What a screen's action may be refused with: told in one sentence, the campaign unchanged.
REFUSALS = (CampaignError, *STATED_ERRORS)


class Attempts:
    """Running one campaign action, for a screen, a form or the app: the one place where
    actions go to thread workers and where a refusal becomes a sentence.

    Mixed into a Textual DOMNode (a Screen or the App) that has `campaign_changed()`.
    A subclass says how it shows a refusal (`refused`) and a success (`succeeded`)."""

    def attempt(
        self, action: Callable[[], Any], done: str | None = None, *, worker: bool = False, then: Callable[[Any], object] | None = None,
        writes: bool = True,
    ) -> Any:
        """Run one campaign action; a refusal (a wrong value, a lost race, a file that says no) becomes a notice.

        Without `worker`, the action runs here and its result is returned (None when refused).
        With `worker`, it runs in a thread worker, so that a slow database never freezes the
        screen, and `then(result)`, if given, runs back on the UI thread once it has succeeded; the key
        that started it is held as settled only once it has ended (tui.keys). Either way the
        refusal is told in one sentence, and a success is told and the campaign redrawn
        (`writes=False`: an action that only reads, a search, redraws nothing)."""
        node = cast(DOMNode, self)
        if not worker:
            try:
                result = action()
            except REFUSALS as exc:
                self.refused(exc)
                return None
            self.succeeded(result, done, writes=writes)
            return result
        app = adjutant_of(node)
        token = self.key_token(writes)
        node.run_worker(partial(self._attempt_in_thread, action, done, then, writes, token, app), thread=True, group="attempt")
        return None

    def _attempt_in_thread(
        self, action: Callable[[], Any], done: str | None, then: Callable[[Any], object] | None, writes: bool, token: int,
        app: AdjutantApp,
    ) -> None:
        # An error that is no refusal goes on to the worker, and so to the app's one-sentence exit.
        # The outcome goes back through tui.workers: dropped if the app has closed meanwhile
        # (what the action did is in the file already). The app is the one found on the UI
        # thread: a screen not mounted yet (a reading started as it is built) finds none here.
        try:
            try:
                result = action()
            except REFUSALS as exc:
                back_to(app, self._outcome, exc, app=app)
                return
            back_to(app, self._outcome, None, result, done, then, writes, app=app)
        finally:
            back_to(app, self._action_finished, token, app=app)

    def _outcome(
        self, refusal: Exception | None, result: Any = None, done: str | None = None,
        then: Callable[[Any], object] | None = None, writes: bool = True,
    ) -> None:
        # Told by the node that started the action or, if it has gone meanwhile (a form
        # closed after ctrl+c), by the app, which redraws the screen in front; what `then`
        # would have shown on the node that has gone is dropped.
        node = cast(DOMNode, self)
        app = adjutant_of(node)
        teller: Attempts = self if showing(app, node) else app
        if refusal is not None:
            teller.refused(refusal)
        else:
            teller.succeeded(result, done, then if teller is self else None, writes=writes)

    def _action_finished(self, token: int) -> None:
        # Once the CampaignChanged just posted has gone through this node's queue and the
        # app's, and so the campaign is redrawn: then the key gate may deliver the next key.
        node = cast(DOMNode, self)
        app = adjutant_of(node)
        if node is app or not node.call_later(app.call_later, app.action_finished, token):
            app.call_later(app.action_finished, token)  # the app's queue, or the screen has gone

    def key_token(self, writes: bool) -> int:
        """The key gate's token for an action going to a worker: the keys typed meanwhile wait for it."""
        return adjutant_of(cast(DOMNode, self)).action_started()

    def refused(self, exc: Exception) -> None:
        """The one sentence of a refusal, as a notice."""
        from campaigns.errors import OtherUmpireError

        hint = " F5 shows their change." if isinstance(exc, OtherUmpireError) else ""
        # The refusal a sentence of its own before the hint ("...; reload and try again. F5 shows their change.")
        cast(DOMNode, self).app.notify(f"{sentence(str(exc))}{hint}", severity="error", timeout=8)

    def succeeded(self, result: Any, done: str | None, then: Callable[[Any], object] | None = None, *, writes: bool = True) -> None:
        """A success: told (`done`, or the action's own sentence or lines), the campaign redrawn, then `then`."""
        message = done if done is not None else result if isinstance(result, str) else None
        if isinstance(result, list) and result and all(isinstance(r, str) for r in result):
            message = "\n".join(result)
        if message:
            cast(DOMNode, self).app.notify(message, timeout=6)
        if writes:
            self.campaign_changed()
        if then is not None:
            then(result)

    def campaign_changed(self) -> None:
        raise NotImplementedError


class CampaignScreen(Attempts, Screen[None]):
    """A screen of an open campaign. Subclasses compose `body()` and fill `refresh_view()`."""

    TITLE_TEXT = ""
    # The actions of this screen's keys that write the campaign, which a side file's player
    # cannot take, and those only a side file's player takes (the orders he writes): each
    # is left off the key bar where it cannot be taken, and its key does nothing there.
    UMPIRE_ONLY: frozenset[str] = frozenset()
    PLAYER_ONLY: frozenset[str] = frozenset()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.offered(action, self.adjutant.session)

    @classmethod
    def offered(cls, action: str, session: object) -> bool:
        """Whether `action` (a binding's, its arguments or not) can be taken in `session`'s file:
        the key bar, the help and the palette offer it only then (and its key does nothing else)."""
        name = action.split("(")[0]
        if name in cls.UMPIRE_ONLY or name in cls.PLAYER_ONLY:
            player = session is not None and getattr(session, "side", None) is not None
            return (name in cls.PLAYER_ONLY) == player
        return True

    def hint(self, *parts: tuple[str | None, str], between: str = ", ") -> str:
        """The parts of a hint (a title's, a line's, a notice's) that name a key taken here, each
        given with its action (None: no key of this screen's) and kept only where `check_action`
        allows it (the app's, for an app-wide action such as undo): a player reads no key of the umpire's."""
        own = {b.action.split("(")[0] for b in self.BINDINGS if isinstance(b, Binding)}

        def taken(action: str) -> bool:
            return bool((self.check_action if action.split("(")[0] in own else self.app.check_action)(action, ()))

        return between.join(words for action, words in parts if action is None or taken(action))

    @property
    def adjutant(self) -> AdjutantApp:
        """The app, typed: every campaign screen runs in an AdjutantApp (the tests' too)."""
        return adjutant_of(self)

    @property
    def session(self) -> CampaignSession:
        session = self.adjutant.session
        if session is None:  # the app shows a campaign screen only with a campaign open
            raise RuntimeError(f"{type(self).__name__} shown with no campaign open")
        return session

    def campaign_changed(self) -> None:
        """Tell the app the stored campaign changed: it redraws the screen on show."""
        self.post_message(CampaignChanged())

    def compose(self) -> ComposeResult:
        yield from self.body()
        yield BottomBar()

    def body(self) -> ComposeResult:
        yield from ()

    shown_version: int | None = None  # the campaign version this screen shows

    # The groups of this screen's own workers that read what it first shows (with the
    # readings it makes through `attempt`). Until those have been shown, a key typed on the
    # screen waits for them (tui.keys: the app's own keys do not): `P n n` or `L s` in one
    # burst, a cursor key or Enter right after the screen's key act on what the screen
    # shows, not on an empty table (they were dropped). A screen may hold the keys for them
    # at other times too (_hold_keys_for_reading: the rows a key asked for).
    FIRST_READS: tuple[str, ...] = ("default",)
    # Whether those readings hold the keys typed on the screen when the screen reads again after
    # a change (an action, an undo), as when it first reads: on a screen whose keys act on the
    # rows it shows (the line under the cursor), where a key let go during that reading acted on
    # the rows as read before the change. A screen whose keys say only what to read next (the
    # plots' n and p, the luck's s) acts alike either way, and answers them at once.
    READ_AGAIN_HOLDS_KEYS = False
    _first_shown = False  # the first reading has been shown (or the screen read nothing in a worker)
    _holding: dict[Worker, int] | None = None  # first readings running: their tokens of the key gate

    _fresh = False  # mounted, and not resumed since

    @on(events.Mount)
    def _mounted(self) -> None:
        self._fresh = True

    @on(events.ScreenResume)
    def _styled_once(self, event: events.ScreenResume) -> None:
        # Textual styles every widget again as a screen resumes; on the resume that
        # follows its mount they were styled as they were mounted, just before: once is
        # enough (a first visit of reconnaissance: 30-40 ms). A stylesheet changed since
        # (a theme) is applied by Textual before the resume all the same (its
        # _css_update_count). on_screen_resume below runs after this, as ever.
        if self._fresh:
            self._fresh = False
            event.refresh_styles = False

    def on_screen_resume(self) -> None:
        # Not also on mount: a DataTable filled in both loses its column widths.
        version = self.session.version()
        if version != self.shown_version:
            self.show_campaign(version)
        else:
            self._hold_keys_for_first_reading()  # built in the background, its reading still running

    def _hold_keys_for_first_reading(self) -> None:
        # Only while the screen is on show: one built in the background holds no key typed
        # elsewhere. A look at the workers running, no more: a first visit pays nothing else.
        if self._first_shown or not self.is_current:
            return
        self._first_shown = not self._hold_keys_for_reading()

    def _hold_keys_for_reading(self) -> bool:
        """The keys typed on this screen, while it is on show, wait for its readings running
        (workers of FIRST_READS): whether any does."""
        if not self.is_current:
            return False
        holding = self._holding if self._holding is not None else {}
        # A reading replaced by another of its group (exclusive) before its task had begun ends
        # without a word: Textual cancels it still RUNNING, and no StateChanged follows. It is
        # let go here, as its successor takes its place: its answer would have been dropped,
        # and the keys it held waited for ever (Down, then Down again at once in the order of
        # battle's tree, each line's units read in turn).
        for worker in [worker for worker in holding if worker.is_cancelled]:
            self.adjutant.action_finished(holding.pop(worker))
        for worker in self.app.workers:
            if worker.node is self and worker.group in self.FIRST_READS and not worker.is_finished and worker not in holding:
                holding[worker] = self.adjutant.reading_started(self)
        self._holding = holding
        return bool(holding)

    def _reading_goes_on(self) -> None:
        """A reading that holds the keys started another in its place (its answer was for an
        older version, or for a query typed since): the keys wait for that one too."""
        if self._holding:
            self._hold_keys_for_reading()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Its answer is shown by now (tui.workers.back_to returns once it has): the keys go on.
        token = self._holding.pop(event.worker, None) if self._holding and event.worker.is_finished else None
        if token is not None:
            self._first_shown = not self._holding
            self.adjutant.action_finished(token)

    def key_token(self, writes: bool) -> int:
        # A reading (`attempt` with writes=False) before the screen has first shown what it
        # reads is its first reading: it holds the keys typed on this screen, not the app's.
        if not writes and not self._first_shown:
            return self.adjutant.reading_started(self)
        return super().key_token(writes)

    def on_unmount(self) -> None:
        for token in (self._holding or {}).values():  # a screen taken away while it read: the keys go on
            self.adjutant.action_finished(token)
        self._holding = None

    def show_campaign(self, version: int | None = None) -> None:
        """Read the campaign again and redraw the screen and its status line (`version`:
        the campaign's version, if just read)."""
        if not self.is_mounted:
            # Switched to and not built yet (a CampaignChanged posted just before the switch,
            # handled after it): it shows the campaign as it is once it is resumed.
            return
        self.shown_version = self.session.version() if version is None else version
        self.refresh_view()
        self._hold_keys_for_first_reading()
        if self.READ_AGAIN_HOLDS_KEYS:
            self._hold_keys_for_reading()
        for status in self.query(StatusLine):
            status.refresh_status()

    def refresh_view(self) -> None:
        """Read the campaign again and show it."""

    def with_dice(self, purpose: str, dice: str, then: Callable[[list[int] | None], None], *, typed: bool = False) -> None:
        """Call `then` with the dice typed in (entered mode, or when asked), else with None."""
        if typed or self.session.campaign().dice_mode == "entered":
            from tui.modals.dice_entry import DiceEntryScreen

            def got(values: list[int] | list[list[int]] | None) -> None:
                if values is not None:
                    then(cast(list[int], values))  # one expression: the form returns its values as one flat list

            self.app.push_screen(DiceEntryScreen(purpose, dice), got)
        else:
            then(None)

    def palette_commands(self) -> list[tuple[str, str, str]]:
        """(name, help, action) of this screen's own actions, for the command palette."""
        # Only the screen's own bindings (they have ids): Textual's focus and copy keys are not actions.
        return [
            (f"{self.TITLE_TEXT}: {b.description}", b.tooltip or b.description, b.action)
            for b in self.BINDINGS
            if isinstance(b, Binding) and b.id and b.description and self.check_action(b.action, ())
        ]

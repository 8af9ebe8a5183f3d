"""The Adjutant app: one screen per part of the campaign, each a key away."""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import SystemCommand
from textual.binding import Binding
from textual.filter import LineFilter
from textual.notifications import Notify
from textual.screen import Screen
from textual.css.query import NoMatches
from textual.worker import Worker

from campaigns.text import one_line
from campaigns.words import sentence

from tui.commands import ACTIONS, SCREENS, Command, browser_safe
from tui.keys import KeyGate
from tui.screens.base import Attempts
from tui.messages import CampaignChanged
from tui.notices import SHORT, give_way, room
from tui.workers import closing
from tui.textual_private import (
    CatchesUnhandledErrors, count_parameters_quickly, driver_woken_at_exit, parse_css_once_per_process, draw_offscreen, draw_soon,
    forget_notice, live_notices,
    lay_out_offscreen, lay_out_once_per_size,
    mount_offscreen, no_layout_when_a_screen_closes, one_layout_for_the_sizes_found, settle_offscreen,
    stop_at_once, textual_handles,
)

# The screens built and filled in the background once the first screen is shown,
# slowest first, so that even the first visit to one only redraws it.
PREPARED = ("oob", "history", "weather", "command", "turn")
# Background work yields to the umpire: a screen is built in the background (and the
# screens' modules imported, warm_up) only once no screen has been asked for during
# this long. A key that comes sooner finds the UI thread free and builds its own
# screen at once, instead of waiting behind a screen of PREPARED being built (200-600
# ms each on 50,000 units). Measured with benchmarks.app_probe on 50,000 units, keys
# one after the other from the start on a loaded machine: the first visit to the
# weather 0.5-0.7 s against 1.0-1.2 s, to command points 0.3-0.4 s against 0.8-1.0 s.
QUIET = 0.25
# A screen is not done when its switch is: it may go on filling itself from its
# workers (the order of battle's units, the history's page), and the umpire waits for
# that too. Background work counts the quiet from the end of those (screen_busy),
# looking again this often. On 50,000 units, keys from the first frame on a loaded
# machine: the screens' imports ran while the order of battle read its units (its
# switch had ended more than QUIET before), and the first visit waited for them.
POLL = 0.05
# The app's own background workers: the rest are a screen's or an action's.
BACKGROUND = ("imports", "prepare")

if TYPE_CHECKING:
    from textual.driver import Driver

    from campaigns.past import PastSession
    from campaigns.session import CampaignSession
    from campaigns.settings import Settings

log = logging.getLogger("adjutant.app")

# Python runs its collector's youngest generation after every 700 new objects, and
# every tenth of those runs reach the older ones. Building and filling the screens of
# a big campaign makes hundreds of thousands of objects that are not garbage (widgets,
# styles, rows, the campaign's units): on 50,000 units, preparing the screens after
# start-up took a median 1.23 s collecting every 20,000 objects against 1.61 s every
# 700 (4 alternated runs each, a loaded 2-core machine). What start-up made is frozen
# out of later collections (tui.launch), and again what the prepared screens made.
# Cycles still go, a little later.
YOUNG_OBJECTS_PER_COLLECTION = 20_000


def calm_collector() -> None:
    """Freeze what exists now out of later collections, and collect less often."""
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS_PER_COLLECTION, *gc.get_threshold()[1:])


def _binding(command: Command) -> Binding:
    return Binding(browser_safe(command.key), command.action, command.name, id=command.id, tooltip=command.help)


class AdjutantApp(Attempts, KeyGate, CatchesUnhandledErrors):
    TITLE = "Adjutant"
    CSS_PATH = "app.tcss"
    BINDINGS = [_binding(c) for c in SCREENS + ACTIONS]

    def __init__(
        self, session: CampaignSession | None = None, *, start: str | None = None, settings: Settings | None = None,
        prepare: bool = True,
    ) -> None:
        super().__init__()
        count_parameters_quickly()  # Textual's count of a callback's parameters, read from its code (2% of a form's CPU)
        lay_out_once_per_size()  # a screen shown is laid out once, not again for the Resize its layout sends it
        one_layout_for_the_sizes_found()  # a layout that resizes a widget is not followed by a second one
        no_layout_when_a_screen_closes()  # a form closed redraws the screen beneath, not lays it out again
        parse_css_once_per_process()  # a screen's first visit no longer parses the whole app's CSS again
        # False: no background work after start-up (warm_up, prepare_screens); every
        # screen is built when first shown. For tests that look at one or two screens.
        self.prepare = prepare
        from campaigns.settings import load

        self.settings = settings if settings is not None else load()  # tui.launch checks it first
        self.set_keymap(self.settings.keymap)
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self.session: CampaignSession | None = session
        self.start = start
        self.present: CampaignSession | None = None  # the campaign itself, kept open while a view of its past is shown
        self.failure: str | None = None  # the one line the app ended with, after an error
        self.screens_prepared = False  # every screen of PREPARED built, filled and drawn off screen
        self._imports: Worker[None] | None = None  # the screens' modules, imported in a thread (warm_up)
        # Set while no screen is being switched to (wait_for_quiet).
        self._quiet = threading.Event()
        self._quiet.set()
        self._read_ahead_for: CampaignSession | None = None  # the session whose history _read_ahead read
        self._collector_paused = False  # by a screen switch, until the umpire pauses (_pause_collector)
        self._switching = 0  # screens being switched to now
        # Workers waiting in wait_for_quiet (the overview's weather read): paused, not busy.
        # Counted busy, they kept _prepare_soon waiting, which kept them waiting: for ever.
        self._waiting: set[Worker] = set()
        # time.monotonic() of the last switch asked for or finished, or of the last
        # moment the UI thread saw a screen busy (_prepare_soon)
        self._last_switch = 0.0
        from tui.widgets.inert import InertText

        self._inert = InertText()

    def get_driver_class(self) -> type[Driver]:
        # In a real terminal, quitting no longer waits 0.1-0.2 s for the input thread to notice.
        return driver_woken_at_exit(super().get_driver_class())

    def get_line_filters(self) -> Sequence[LineFilter]:
        # Every line of every widget, last: no text from a campaign drives the terminal.
        return [*super().get_line_filters(), self._inert]

    # -- screens -------------------------------------------------------------

    def screen_factory(self, name: str) -> Screen:
        from tui.screens.registry import screen_class

        return screen_class(name)()

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        for problem in self.settings.problems:  # said on stderr too, but hidden behind the app
            self.notify(one_line(problem), severity="warning", timeout=10, markup=False)
        first = self.start or ("overview" if self.session else "start")
        if first == "start":  # built anew each time: it knows no campaign
            self.push_screen(self.screen_factory(first))
        else:
            # The first screen counts as the last one asked for: a key pressed right after
            # the first frame (typed ahead) finds no background work begun (wait_for_quiet)
            # but the first import (warm_up), which it needs anyway.
            self._last_switch = time.monotonic()
            self.install_screen(self.screen_factory(first), first)
            self.push_screen(first)
            self.call_after_refresh(self.warm_up)

    def _remember_theme(self, theme) -> None:
        if theme.name != self.settings.theme:  # chosen in the palette: kept for the next start
            from campaigns.settings import remember_theme

            self.settings.file.theme = theme.name
            try:
                remember_theme(theme.name)
            except OSError as exc:
                log.warning("the theme could not be remembered: %s", exc)

    def notify(self, message, *, title="", severity="information", **kwargs) -> None:
        # Every notice a sentence, whoever raised it: a refusal is the rules' or the store's
        # clause ("there is nothing to undo"), said here as "There is nothing to undo."
        message = sentence(message) if isinstance(message, str) else message
        if severity == "error":  # a refusal: the sentence shown, for the bug report
            log.info("refused: %s", message)
        super().notify(message, title=title, severity=severity, **kwargs)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < SHORT, "-short")  # compact notices (app.tcss)

    def on_notify(self, event: Notify) -> None:
        # Before Textual's own handler adds the new notice: the notices that give way to it
        # go (tui.notices), so a few show at once, never over half of an 80x24 screen.
        live = live_notices(self)
        new = event.notification
        for index in give_way([(n.severity, n.message) for n in live], (new.severity, new.message), room(self.size.height)):
            forget_notice(self, live[index])

    def warm_up(self) -> None:
        """Once the first screen is drawn: import what the other screens need, then read
        the history's undo and redo marks, in threads, and build the screens in the
        background (prepare_screens), each step only while the umpire asks for no screen.

        The screens' modules take 0.5-0.8 s to import, most of it the SQLModel tables
        (models.tables, 0.2-0.45 s), which the first screen is drawn without. Imported
        here, the UI thread stays free to draw and to answer a key: a key's screen
        is built at once, importing what it still lacks (waiting for the thread if it
        is importing the same module)."""
        if self.session is None or not self.prepare:
            return
        if not orm_imported():
            # SQLAlchemy's ORM registers how to inspect any object before its own
            # exceptions module is whole: a statement built in another thread meanwhile
            # (the battle set-up's, a screen's read) failed with "partially initialized
            # module 'sqlalchemy.orm.exc'" and the app ended. So the ORM's package is
            # imported here, on the UI thread, while no worker runs (none can start until
            # it is done); the screens' modules, the SQLModel tables, in the thread below.
            if any(not worker.is_finished for worker in self.workers):
                self.set_timer(POLL, self.warm_up)
                return
            import sqlalchemy.orm  # noqa: F401
        if self._imports is None or self._imports.is_finished:
            self._imports = self.run_worker(partial(_import_screens, self.wait_for_quiet), thread=True, group="imports", exit_on_error=False)
        self.run_worker(self._after_imports(), group="prepare")

    async def _after_imports(self) -> None:
        await self._imported()
        self._read_ahead()
        self._prepare_soon()

    def _read_ahead(self) -> None:
        """Read every undo and redo mark of the history in a thread, once per campaign
        opened, after the screens' imports and once no screen has been asked for during
        QUIET seconds (campaigns.replays): a word the history's filter finds in an old
        event then finds its marks kept. The history's pages read the marks of their
        own events without it (a few rows for the newest page).

        It is a scan of the whole history inside SQLite (0.1-0.8 s at a million events),
        which does not hold Python's lock but takes a core: read while the umpire's first
        screens were being built, it made them 50-100 ms slower on a loaded 2-core machine."""
        if self.session is not None and self._read_ahead_for is not self.session:
            self._read_ahead_for = self.session
            self.run_worker(partial(_read_history_ahead, self.session, self.wait_for_quiet), thread=True, group="imports", exit_on_error=False)

    def wait_for_quiet(self, gap: float = QUIET, but: Worker | None = None) -> bool:
        """In a thread doing background work, before each step: wait until no screen has
        been asked for, and no screen or action has had a worker running, during `gap`
        seconds, so that a key's screen is built and filled with Python's lock to itself.
        A screen's own worker that waits (the overview's weather read) names itself as
        `but`: it does not wait for itself, and counts its own start (when its screen was
        just shown or redrawn) as the umpire's last move. False: the app has stopped instead,
        and the campaign is closed or being closed (a view of the past: its folder removed)."""
        busy = time.monotonic() if but is not None else 0.0
        if but is not None:
            self._waiting.add(but)
        try:
            while True:
                self._quiet.wait()
                if not self.is_running:
                    return False
                now = time.monotonic()
                if self.screen_busy(but):
                    busy = now
                waited = now - max(self._last_switch, busy)
                if waited >= gap:
                    return True
                time.sleep(min(gap - waited, POLL))
        finally:
            if but is not None:
                self._waiting.discard(but)

    def screen_busy(self, but: Worker | None = None) -> bool:
        """Whether a screen is being switched to, or a worker of the screen on show or of an
        action is running (reading what the screen shows, writing an action): the umpire
        waits for it. The workers of a screen built in the background are background work
        themselves, and do not count. Read from threads too: the worker manager's set is
        copied in one C call, and a screen or widget going meanwhile counts as not busy."""
        if self._switching:
            return True
        try:
            shown = self.screen
            return any(
                w.group not in BACKGROUND and not w.is_finished and w is not but and w not in self._waiting
                and (w.node is self or _screen_of(w.node) is shown)
                for w in self.workers
            )
        except Exception:  # noqa: BLE001  (the app closing, a widget removed: nothing the umpire waits for)
            return False

    async def _imported(self) -> None:
        """Wait for warm_up's imports; a failure is left to the import on the UI thread to tell."""
        imports = self._imports
        if imports is not None and not imports.is_finished:
            try:
                await imports.wait()
            except Exception:  # noqa: BLE001  (the same import fails again where the screen is built, and says why)
                pass

    def _prepare_soon(self) -> None:
        """prepare_screens once the umpire has waited for nothing for QUIET seconds (wait_for_quiet)."""
        if self.screen_busy():
            self._last_switch = time.monotonic()
        waited = time.monotonic() - self._last_switch
        if waited < QUIET:
            self.set_timer(min(QUIET - waited, POLL), self._prepare_soon)
            return
        self.prepare_screens()

    def prepare_screens(self) -> None:
        """Build the next screen of PREPARED off screen, then, a frame later, the one after it.

        One screen at a time, between frames, and only while the umpire asks for no
        screen (QUIET): a key pressed meanwhile waits for one screen at most, never
        for all of them."""
        if self.session is None or not self.prepare or closing(self):
            # Closing: the session is closed (a view of the past, its folder removed with it);
            # a preparation due now (its timer, a frame after a switch) would read it.
            return
        if self.screen_busy() or time.monotonic() - self._last_switch < QUIET:
            self._prepare_soon()
            return
        name = next((n for n in PREPARED if not self.is_screen_installed(n)), None)
        if name is None:
            self.screens_prepared = True
            # What the screens show lives as long as the app: out of the
            # collector's sight, a full collection (100 ms and more with a big
            # campaign open) no longer lands in the middle of a keystroke.
            gc.freeze()
            return
        screen = self.screen_factory(name)
        self.install_screen(screen, name)
        self.run_worker(self._prepare(screen), group="prepare")

    async def _prepare(self, screen: Screen) -> None:
        # What switch_screen does to show a screen the first time, less showing
        # it: its CSS read, the screen composed and mounted, then filled, focused
        # and laid out at the app's size as if it had been shown and left. These
        # are Textual's own private steps (tui/textual_private.py);
        # tests/tui/test_prepared_screens.py checks such a screen shows the same.
        from campaigns.errors import CampaignError
        from tui.screens.base import CampaignScreen

        await mount_offscreen(self, screen)
        if not self.is_running or not screen.is_attached:
            return  # the app closed meanwhile
        if self.session is not None and isinstance(screen, CampaignScreen) and not screen.is_current and self.is_screen_installed(screen):
            try:
                screen.show_campaign()
            except CampaignError as exc:  # the other screens still work: say so, and go on
                self.notify(one_line(exc), severity="error", timeout=10)
                self.uninstall_screen(screen)
                self.call_after_refresh(self.prepare_screens)
                return
            except NoMatches:
                if not self.is_running or not screen.is_attached:  # the app is closing around this screen
                    return
                raise
            lay_out_offscreen(screen, self.size)
            self.call_after_refresh(self._settle, screen)
        else:
            self.call_after_refresh(self.prepare_screens)

    def _settle(self, screen: Screen, passes: int = 4) -> None:
        # Frame after frame, while its widgets ask for it (a table that has
        # measured its rows, the scroll bars it then shows), styled and laid out
        # again; then drawn once where nobody sees it. Each widget keeps what it
        # drew, and showing the screen draws it from that, with no layout to do.
        if screen.is_running and not screen.is_current:
            if passes and settle_offscreen(screen, self.size):
                self.call_after_refresh(self._settle, screen, passes - 1)
                return
            draw_offscreen(screen)
        self.call_after_refresh(self.prepare_screens)

    async def action_show(self, name: str) -> None:
        command = next(c for c in SCREENS if c.action == f"show('{name}')")
        if command.needs_campaign and self.session is None:
            self.notify("Open or start a campaign first (ctrl+o).", severity="warning")
            return
        from tui.screens.registry import screen_class

        self._switching += 1
        self._last_switch = time.monotonic()
        self._quiet.clear()  # warm_up's threads pause after their current step
        self._pause_collector()
        try:
            if isinstance(self.screen, screen_class(name)):
                return
            # Each screen is built once and kept: coming back to it only redraws
            # what changed in the campaign since it was last shown.
            if not self.is_screen_installed(name):
                self.install_screen(self.screen_factory(name), name)
            await self.switch_screen(name)
            # Drawn as soon as it has handled its messages (ScreenResume first), not
            # at the next tick of its refresh timer, up to a frame later.
            draw_soon(self.screen)
        finally:
            self._switching -= 1
            self._last_switch = time.monotonic()
            if not self._switching:
                self._quiet.set()
                self._read_ahead()

    def _pause_collector(self) -> None:
        """No garbage collection while a screen is switched to and fills itself: it runs once
        no screen has been asked for, and no screen has been busy, during QUIET seconds.

        Building a screen makes tens of thousands of objects that live on (widgets, styles,
        rows); the collector, run every YOUNG_OBJECTS_PER_COLLECTION of them, went through
        them in the middle of the switch: 20-40 ms of a first visit on 50,000 units (a loaded
        2-core machine, gc.callbacks), and again for the rows of a revisit. Paused, it runs
        when the umpire stops pressing keys, on what a burst of keys made at most."""
        if not self._collector_paused and gc.isenabled():
            gc.disable()
            self._collector_paused = True
            self.set_timer(QUIET, self._resume_collector)

    def _resume_collector(self) -> None:
        if not self._collector_paused:
            return
        if self.is_running and (self.screen_busy() or time.monotonic() - self._last_switch < QUIET):
            self.set_timer(POLL, self._resume_collector)
            return
        self._collector_paused = False
        gc.enable()

    async def show_and_run(self, name: str, action: str) -> None:
        """Open a screen and start one of its actions, as its key would there (the palette)."""
        await self.action_show(name)
        await self.run_action(action, self.screen)

    def on_campaign_changed(self, message: CampaignChanged) -> None:
        """A screen's action wrote to the campaign: show it on the screen on show."""
        self.campaign_changed()

    def campaign_changed(self) -> None:
        """Tell the screen on show that the stored campaign changed."""
        from tui.screens.base import CampaignScreen
        from tui.widgets.status import StatusLine

        if isinstance(self.screen, CampaignScreen):
            self.screen.show_campaign()
        else:
            for status in self.screen.query(StatusLine):
                status.refresh_status()

    def status_text(self) -> str:
        if self.session is None:
            return "No campaign open: ctrl+o opens or starts one"
        return self.session.status_line()

    # -- app-wide actions ------------------------------------------------------

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        from tui.keymap import shown_key

        keymap = self.settings.keymap
        # Only the keys that can be taken here, as the key bar and the palette offer them: a
        # side file's player's help listed the umpire's Import, Apply, Refuse, Undo...
        screen = self.screen
        rows = [
            ("This screen", shown_key(keymap, b.id, b.key_display or b.key), b.description)
            for b in screen.BINDINGS if isinstance(b, Binding) and screen.check_action(b.action, ()) is not False
        ]
        # And the keys of its widgets (a MarkList's space and s, a TickList's space): ours
        # have an id; Textual's own (a field's editing keys) are the usual ones.
        listed = {b.id for b in self.screen.BINDINGS if isinstance(b, Binding)}
        for widget in self.screen.query("*"):
            for cls in type(widget).__mro__:
                for b in cls.__dict__.get("BINDINGS", ()):
                    if isinstance(b, Binding) and b.id and b.id not in listed:
                        listed.add(b.id)
                        rows.append(("This screen", shown_key(keymap, b.id, b.key_display or b.key), b.description))
        rows += [("Screens", shown_key(keymap, c.id, c.key), f"{c.name}: {c.help}") for c in SCREENS]
        rows += [("Actions", shown_key(keymap, c.id, c.key), f"{c.name}: {c.help}") for c in ACTIONS
                 if self.check_action(c.action, ()) is not False]
        self.push_screen(HelpScreen(rows))

    # The app's actions a side's player cannot take (the file or the club's role refuses them):
    # left off the key bar, the help and the palette there, and their keys do nothing.
    PLAYER_REFUSED = frozenset({"undo", "redo"})
    CLUB_REFUSED = frozenset({"save_as", "open_file"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        from campaigns.player import ClubPlayerSession, PlayerSession

        session = self.session
        if action in self.PLAYER_REFUSED and isinstance(session, PlayerSession):
            return False
        if action in self.CLUB_REFUSED and isinstance(session, ClubPlayerSession):
            return False
        return super().check_action(action, parameters)

    # Undo, redo and reload run in thread workers (Attempts.attempt), as every screen's
    # action does: a slow or locked database never freezes the screen, the keys typed
    # meanwhile wait for the outcome (tui.keys), and a refusal is one sentence.

    def action_undo(self) -> None:
        self._history("undo")

    def action_redo(self) -> None:
        self._history("redo")

    def _history(self, which: str) -> None:
        session = self.session
        if session is None:
            return
        self.attempt(lambda: getattr(session, which)() or f"Nothing to {which}.", worker=True)

    def action_reload(self) -> None:
        """Accept what other umpires committed, and show it: the next action builds on it."""
        session = self.session
        if session is None:
            return

        def reload() -> str:
            session.reload()
            return f"Reloaded: the campaign as stored now (version {session.version()})"

        self.attempt(reload, worker=True)

    def action_save_as(self) -> None:
        if self.session is None:
            return
        from tui.screens.files import SaveAsScreen

        self.push_screen(SaveAsScreen())

    def action_open_file(self) -> None:
        from campaigns.player import ClubPlayerSession

        if isinstance(self.session, ClubPlayerSession):
            # A player's login (sshd's ForceCommand, or `adjutant serve --side` in a browser) runs the
            # club's campaign as the side's role and nothing else: the start screen would open any
            # file or URL the server's account can (an umpire's file, the umpires' role in its .pgpass).
            self.notify(
                f"this is the view of {self.session.side_name} on the club's campaign: it opens no other file or database",
                severity="error", timeout=10,
            )
            return
        self.switch_screen(self.screen_factory("start"))

    def open_session(self, session: CampaignSession) -> None:
        if self.present is not None:  # leaving a view of the past: it goes, the present is closed below
            if self.session is not None:
                self.session.close()
            self.session, self.present = self.present, None
        if self.session is not None and self.session is not session:
            self.session.close()
        self._show_session(session)

    def _show_session(self, session) -> None:
        self.session = session
        # The kept screens show the campaign that was open: build them anew.
        self._forget_screens()
        if not self.is_screen_installed("overview"):
            self.install_screen(self.screen_factory("overview"), "overview")
        self.switch_screen("overview")
        self.call_after_refresh(self.prepare_screens)

    # -- the campaign as of a past turn (campaigns/past.py) ---------------------

    def action_past(self) -> None:
        """Ask for a turn or an event, and show the campaign as it stood then (read-only)."""
        if self.session is None:
            return
        from campaigns.errors import CampaignError
        from campaigns.notes import BOOKMARK, marked
        from campaigns.past import check_moment, parse_when
        from campaigns.printable import printable
        from tui.modals.form import FormScreen

        present = self.present or self.session
        # The bookmarks of the history are the places one most often goes back to.
        marks = ["-"] + [f"#{m.event} {printable(m.description)[:48]}" for m in marked(present) if m.kind == BOOKMARK]

        def when_of(values: dict[str, str]) -> dict[str, int] | None:
            mark = values.get("mark", "-")
            if not values["when"].strip() and mark != "-":
                return {"event": int(mark.split()[0][1:])}
            return parse_when(values["when"])

        def check(values: dict[str, str]) -> None:
            when = when_of(values)
            if when is None and self.present is None:
                raise CampaignError("type a turn number, or # and an event number (see the history)")
            if when is not None:  # two rows by their keys; the end of a turn is looked for in the worker
                check_moment(present, **when)

        def chosen(values: dict[str, str] | None) -> None:
            if values is None:
                return
            when = when_of(values)
            if when is None:
                self.run_worker(self.back_to_present(), group="past")
            else:
                self.notify("Rebuilding the campaign as it was...", timeout=3)
                self._open_past(present, when)

        title = "The campaign as of... (read-only)" + ("; empty: back to the present" if self.present else "")
        fields: list[tuple[str, str, str, list[str] | None]] = [("when", "Turn or #event", "", None)]
        if len(marks) > 1:
            fields.append(("mark", "Or a bookmark", "-", marks))
        self.push_screen(FormScreen(title, fields, check), chosen)

    @work(thread=True, exclusive=True, group="past", exit_on_error=False)
    def _open_past(self, present, when: dict) -> None:
        # Where the turn ended (a look through the whole history) and a copy of the campaign, rewound:
        # off the UI thread.
        from campaigns.errors import CampaignError
        from campaigns.past import moment, open_past
        from tui.workers import back_to

        try:
            past = open_past(present, moment(present, **when))
        except CampaignError as exc:
            back_to(self, self.notify, str(exc), severity="error")
            return
        back_to(self, self._enter_past, present, past, dropped=past.close)  # the app closed meanwhile: the view is closed unseen

    async def _enter_past(self, present: CampaignSession, past: PastSession) -> None:
        shown = self.session
        if self.present is None:
            self.present = present
        await self._swap_session(past)
        if shown is not None and shown is not self.present:
            shown.close()  # the view of the past shown until now
        self.notify(f"The campaign as of {past.moment.label}: read-only. T, then an empty line, brings back the present.")

    async def back_to_present(self) -> None:
        if self.present is None:
            return
        past, present = self.session, self.present
        self.present = None
        await self._swap_session(present)
        if past is not None:
            past.close()
        self.notify("Back to the campaign as it is now.")

    async def _swap_session(self, session) -> None:
        """Show another session from a fresh overview; every kept screen of the one before is forgotten."""
        self.session = session
        await self.switch_screen(self.screen_factory("overview"))
        self._forget_screens()
        self.call_after_refresh(self.prepare_screens)

    def open_battle(self, battle_id: int) -> None:
        from tui.screens.fight import FightScreen

        self.switch_screen(FightScreen(battle_id))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's own commands, but its Quit: ours says that nothing is lost.
        from tui.keymap import keys_said

        yield from (c for c in super().get_system_commands(screen) if c.title != "Quit")
        keymap = self.settings.keymap
        for command in SCREENS + ACTIONS:  # each with its keys, as the user mapped them
            if self.check_action(command.action, ()) is False:
                continue  # refused in this file (a side's player)
            yield SystemCommand(
                command.name, f"{command.help} (key: {keys_said(keymap, command.id, command.key)})",
                lambda c=command: self.run_action(c.action),
            )
        if self.session is not None:
            from campaigns.battles import battles

            for battle in battles(self.session):
                yield SystemCommand(
                    f"Battle of {battle.location} (#{battle.id}, {battle.status})",
                    battle.result or f"Fight it ({battle.resolver})",
                    lambda b=battle.id: self.open_battle(b),
                )
        from tui.screens.base import CampaignScreen

        own = screen.palette_commands() if isinstance(screen, CampaignScreen) else []
        for title, help_text, action in own:
            yield SystemCommand(title, help_text, lambda a=action: screen.run_action(a))
        if self.session is not None:
            from tui.commands import screen_actions
            from tui.screens.registry import screen_class

            shown = {title for title, _, _ in own}
            for name, title, binding in screen_actions():
                label = f"{title}: {binding.description}"
                offered = getattr(screen_class(name), "offered", None)
                if offered is not None and not offered(binding.action, self.session):
                    continue  # not to be taken in this file (a side file's player, or the umpire)
                if label not in shown:
                    keys = keys_said(keymap, binding.id, binding.key)
                    yield SystemCommand(
                        label, f"{binding.tooltip or binding.description} (key: {keys} on {title})",
                        lambda n=name, a=binding.action: self.call_later(self.show_and_run, n, a),
                    )

    def on_unmount(self) -> None:
        self._resume_collector_now()
        self._quiet.set()  # warm_up's threads go on (and end) rather than wait for a switch that will not end
        self._last_switch = 0.0
        if self.session is not None:
            self.session.close()
        if self.present is not None:
            self.present.close()

    def _resume_collector_now(self) -> None:
        if self._collector_paused:
            self._collector_paused = False
            gc.enable()

    def _forget_screens(self) -> None:
        """Uninstall every kept screen but the one shown."""
        from tui.screens.registry import screen_names

        self.screens_prepared = False
        for name in screen_names():
            if self.is_screen_installed(name) and self.get_screen(name) is not self.screen:
                self.uninstall_screen(name)

    def unhandled_error(self, error: Exception) -> None:
        # An error no screen handled (a screen that cannot be built from what the file
        # holds, a worker that failed): one sentence on stderr and exit code 2, as every
        # command, instead of Textual's traceback. ADJUTANT_DEBUG=1 shows the traceback.
        log.error("unhandled error", exc_info=error)  # the traceback, for the bug report
        if self.settings.debug:
            textual_handles(self, error)
            return
        from textual.worker import WorkerFailed

        if self.failure is not None:  # the first error is the one to tell
            return
        cause = error.error if isinstance(error, WorkerFailed) else error
        self.failure = f"adjutant: {failure_sentence(cause, self.session)}"  # printed by tui.launch
        stop_at_once(self, error, 2)


def _screen_of(node: object) -> object:
    """The screen a worker's node is on (itself, for a screen)."""
    return node if isinstance(node, Screen) else getattr(node, "screen", None)


def orm_imported() -> bool:
    """Whether SQLAlchemy's ORM package has been imported whole (warm_up)."""
    import sys

    orm = sys.modules.get("sqlalchemy.orm")
    return orm is not None and hasattr(orm, "Session") and hasattr(sys.modules.get("sqlalchemy.orm.exc"), "UnmappedClassError")


def _import_screens(wait: Callable[[float], bool]) -> None:
    """The modules of the screens of PREPARED, one by one, and so what they import, then
    undo's checks (campaigns.session.load_undo_checks); each after `wait(QUIET)`, so
    that it does not slow a screen being filled (warm_up).
    The first (the order of battle's, the slowest) at once: the first frame is drawn and
    no key has been pressed yet, and a key for that screen would wait for its import
    anyway; waiting for the overview's weather read and QUIET after it would leave a
    key pressed half a second after the first frame waiting for the rest of it."""
    from tui.screens.registry import screen_class

    for number, name in enumerate(PREPARED):
        if number:
            wait(QUIET)
        screen_class(name)
    wait(QUIET)
    from campaigns.session import load_undo_checks

    load_undo_checks()  # and what the first undo checks its changes with


def _read_history_ahead(session: CampaignSession, wait: Callable[[float], bool]) -> None:
    """Every undo and redo mark of the history, once the umpire pauses (warm_up); a read
    that fails is said when the history reads its marks itself. Nothing once the app has
    stopped: its closing woke this wait as it closed the session, and a view of the past
    opened meanwhile, as its folder was removed, made SQLite create the file again in it,
    which left the folder on disk for good."""
    if not wait(QUIET):
        return
    from campaigns.errors import CampaignError
    from campaigns.replays import read_ahead

    try:
        read_ahead(session)
    except CampaignError:
        pass


def failure_sentence(error: BaseException | None, session: object = None) -> str:
    """What went wrong, in one line a person can act on."""
    from campaigns.errors import STATED_ERRORS, CampaignError

    if isinstance(error, (CampaignError, *STATED_ERRORS)):
        return one_line(error)
    store = getattr(session, "store", None)
    name = f" of {store.name}" if store is not None else ""
    detail = f"{type(error).__name__}: {error}" if error is not None else "an unknown error"
    return one_line(
        f"a screen could not be shown from the campaign{name} ({detail[:200]}); "
        "`adjutant check` tells whether the file is damaged"
    )

"""Keys go where the umpire is looking: one key is finished before the next is delivered.

Textual hands a key to the focused widget through its message queue and reads
the next key at once. When the first key opens or closes a form (`a`, ctrl+s),
the keys typed right after it were already on their way to the screen that had
the focus when they arrived: letters typed into a closing form were lost, and
after it closed, `u` or `b` of a name reached the screen beneath as undo or as a
jump to the order of battle.

`KeyGate` holds each key the driver sends until the key before it has been
handled all the way (by the focused widget, every container it bubbles through,
the screen, the app and the binding it ran), and until a screen that key opened
has been mounted, focused and drawn. Held keys are then delivered in order to
whatever has the focus by then: the form just opened, or the screen the form
returned to. Nothing is dropped and nothing is delivered to a screen the umpire
has already left.

An action a key starts in a thread worker (`Attempts.attempt` with `worker=True`)
counts as part of the key: the next key waits until it has finished and its
outcome is shown, as if it had run on the UI thread (but the screen still draws),
however long that takes; so does an action that no key started. A key is never
let go early: under load, a key let go
after a fixed time landed on the screen the action then left (a general's name
typed after a search, stored under another name). Instead, when the wait lasts
longer than WORKING_AFTER, a "Working…" notice shows on the screen; if the
database hangs, ctrl+c stops waiting: the keys held are discarded (the notice says
how many), never sent on to whichever screen is in front, and the action, which
cannot be stopped half way, goes on and tells its outcome when it ends.

A screen's first reading (`reading_started`: what it shows, read in a worker as it
is first shown, tui.screens.base) holds the keys typed on that screen while it is in
front, in the same way: `P n n`, `L s` or a cursor key right after the screen's key act
on what it then shows, not on an empty table (they were dropped). The app's own keys
(another screen, quit, help, the palette) typed before any key for the screen go at
once: a screen slow to read can be left. A screen whose keys act on the rows it shows holds
them too while it reads those rows again after an action (CampaignScreen.READ_AGAIN_HOLDS_KEYS:
`v Kleist Enter e` on the order of battle edits the unit moved, `k k` on the history bookmarks
the line read after the first), and while it reads the rows a key asked for (the units of the
order of battle's line under the cursor; the history's lines once its filter is left, its dice
only, its next page).

A key is finished, too, once the screen is laid out as it left it and what waited for
that is done (a container's scroll to the row under the cursor, `call_after_refresh`):
the next key reads the sizes and the scroll this one left. Read from before (the
summary under the battle set-up grown by a line, a scroll not done yet), a burst of
cursor keys left the form a line short of the row marked, where slow keys did not.
"""

from __future__ import annotations

from collections import deque
from itertools import count

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.widgets import Static

from tui.textual_private import draw_soon, refresh_pending
from tui.workers import closing

# How long a wait goes unannounced: a quick action is not worth a flicker.
WORKING_AFTER = 0.5
# If a key's path is cut (its widget removed on the way, the callback that followed it
# lost), it is followed again from the start after this long: it never settles by a
# clock, only once the queues it went through have caught up.
HOLD_AT_MOST = 2.0
FOCUS_POLL = 0.01  # seconds between looks at a form being opened: is it mounted yet?
FOCUS_ROUNDS = 5  # rounds of a mounted form's queue and the app's, waiting for its first focus
# Passes from the focused widget up to the app after each key: the key itself, the
# messages its handling posted, those they posted in turn, and so on.
PASSES = 5
STOP_WAITING = "ctrl+c"


class Working(Static):
    """The notice of a long wait, over the screen in front: the keys typed meanwhile wait for it."""

    DEFAULT_CSS = """
    Working {
        overlay: screen; position: absolute; offset: 1 0;
        width: auto; height: 1; padding: 0 1;
        background: $warning; color: $text;
    }
    """

    def __init__(self) -> None:
        super().__init__(f"Working… keys typed now wait for it ({STOP_WAITING}: stop waiting, discard them)", markup=False)


class KeyGate(App):
    """An app that delivers keys one at a time, each after the one before it settled."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._held: deque[events.Key] = deque()
        self._key_busy = False
        self._key_generation = 0
        self._key_settled = False  # the key in flight has been handled; what is left is its actions
        self._key_screen: object = None  # the screen the key in flight was typed on
        self._key_drawn = 0  # the generation of the last key whose screen has been refreshed since it settled
        self._action_tokens = count(1)
        self._actions_running: set[int] = set()  # actions in thread workers that hold the keys (see the module)
        self._readings: dict[int, object] = {}  # first readings of screens, by token: the screen (see the module)
        self._working_shown: Working | None = None

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            if not self._key_busy and self._waits(event):
                # An action runs that no key in flight started (a screen's reading, begun
                # as the app showed it at start-up): the key waits for it, as it would
                # for a key's own action, then goes to what it leaves on the screen.
                self._key_busy = self._key_settled = True
                self._key_generation += 1
                self._key_screen = self.screen
                generation = self._key_generation
                self.set_timer(WORKING_AFTER, lambda: self._show_working(generation))
            if self._key_busy:
                if event.key == STOP_WAITING and self._working_shown is not None:
                    self._stop_waiting()
                    return
                self._held.append(event)
                return
            await self._key_deliver(event)
            return
        await super().on_event(event)

    def action_started(self) -> int:
        """An action went to a thread worker: the key that started it is not settled until it ends.

        The token it returns goes back to `action_finished`."""
        token = next(self._action_tokens)
        self._actions_running.add(token)
        return token

    def reading_started(self, screen: object) -> int:
        """A screen's first reading went to a thread worker: keys typed on the screen wait for
        it while the screen is in front, but the app's own keys (see the module). The token
        goes back to `action_finished`."""
        token = next(self._action_tokens)
        self._readings[token] = screen
        return token

    def action_finished(self, token: int) -> None:
        self._actions_running.discard(token)
        self._readings.pop(token, None)
        if self._key_busy and self._key_settled and not self._waits(self._held[0] if self._held else None):
            self.call_later(self._key_release, self._key_generation)

    def _waits(self, key: events.Key | None) -> bool:
        """Whether `key` (None: the key in flight, with none held after it) waits: for an
        action, or for the first reading of the screen in front unless it is the app's own."""
        if self._actions_running:
            return True
        if key is None or not self._readings or closing(self):
            return False
        screen = self.screen
        if not any(reading is screen for reading in self._readings.values()):
            return False
        active = screen.active_bindings.get(key.key)
        return active is None or active.node is not self

    @property
    def keys_held(self) -> int:
        """Keys typed and not yet delivered (0 when the app has caught up)."""
        return len(self._held) + (1 if self._key_busy else 0)

    @property
    def waiting_shown(self) -> bool:
        """The "Working…" notice is on the screen."""
        return self._working_shown is not None

    async def _key_deliver(self, event: events.Key) -> None:
        self._key_busy = True
        self._key_settled = False
        self._key_generation += 1
        generation = self._key_generation
        target: DOMNode = self.focused or self.screen
        self._key_screen = self.screen
        await super().on_event(event)
        self.set_timer(WORKING_AFTER, lambda: self._show_working(generation))
        self.set_timer(HOLD_AT_MOST, lambda: self._follow_again(generation, target))
        self._key_follow(target, generation, target, PASSES)

    def _follow_again(self, generation: int, target: DOMNode) -> None:
        # A key not settled by now: its path may have been cut (a callback queued on a
        # widget removed before it ran). Follow it again from where it is now; that
        # settles it once the queues have caught up, and never sooner.
        if generation != self._key_generation or not self._key_busy or self._key_settled:
            return
        start = target if target.is_attached else (self.focused or self.screen)
        self._key_follow(start, generation, start, PASSES)
        self.set_timer(HOLD_AT_MOST, lambda: self._follow_again(generation, target))

    def _key_follow(self, node: DOMNode | None, generation: int, target: DOMNode, passes: int) -> None:
        # A callback queued behind the key on each node it bubbles through runs
        # only once that node has handled the key (and passed it to its parent).
        # What handling it posted in turn (an Input's Submitted, which closes a
        # form) travels one node behind: another pass from the start catches it.
        if generation != self._key_generation or self._key_settled:
            return
        if node is None or node is self or not node.is_attached:
            if passes > 1 and target.is_attached:
                self.call_later(self._key_follow, target, generation, target, passes - 1)
            else:
                self.call_later(self._key_settle, generation)
        elif not node.call_later(self._key_follow, node.parent, generation, target, passes):
            self.call_later(self._key_settle, generation)

    def _key_settle(self, generation: int) -> None:
        # The key's binding has run. A screen it opened composes and mounts in its
        # own queue, then focuses its first field through the app's: wait for both.
        if generation == self._key_generation and not self._key_settled and not closing(self):
            # Twice round the app's queue: a focus moved by what the key did
            # (Widget.focus goes through it) has moved before the next key.
            later = lambda: self.call_later(self.call_later, self._key_release, generation)  # noqa: E731
            if not self.screen.call_later(later):
                later()

    async def _key_release(self, generation: int, rounds: int = 0) -> None:
        if generation != self._key_generation or not self._key_busy or closing(self):
            return  # closing: no screen is left to deliver a key to
        self._key_settled = True
        if self._waits(self._held[0] if self._held else None):
            # The key's action still runs in its worker, or the screen in front reads what the
            # next key is for: that key is for what it leaves. action_finished calls again.
            self._key_drawn = 0  # and what it leaves is laid out before the next key
            return
        screen = self.screen
        if screen is not self._key_screen and screen.focused is None and screen.focus_chain:
            # A form this key opened focuses its first field once it is mounted (its
            # on_mount, or Textual's auto-focus as it is resumed): the next key is for that
            # field, so wait for it. However long the form takes to build on a loaded
            # machine (a wait by the clock let keys go to a form with no focus yet, and
            # letters of a name were lost); once it is mounted, a few rounds of its queue
            # and the app's, so that a screen that focuses nothing does not hold the keys.
            if not screen.is_mounted:
                self.set_timer(FOCUS_POLL, lambda: self._key_release(generation))
                return
            if rounds < FOCUS_ROUNDS:
                later = lambda: self.call_later(self._key_release, generation, rounds + 1)  # noqa: E731
                if screen.call_later(later):
                    return
        if self._key_drawn != generation and refresh_pending(screen):
            # The screen laid out as the key left it, and what waited for that done (a scroll
            # to the row under the cursor), at once rather than at the next frame: the next
            # key reads the sizes and the scroll this one leaves, not those from before it,
            # so a burst ends as slow keys do.
            self._key_drawn = generation
            draw_soon(screen)
            if screen.call_after_refresh(self._key_release, generation, rounds):
                return
        self._key_busy = False
        self._hide_working()
        if self._held:
            await self._key_deliver(self._held.popleft())

    def _show_working(self, generation: int) -> None:
        if generation == self._key_generation and self._key_busy and self._working_shown is None and not closing(self):
            self._working_shown = Working()
            self.screen.mount(self._working_shown)

    def _hide_working(self) -> None:
        if self._working_shown is not None:
            if self._working_shown.is_attached:
                self._working_shown.remove()
            self._working_shown = None

    def _stop_waiting(self) -> None:
        """ctrl+c during a long wait: the keys held are discarded, and the keyboard is free again.

        The action still running goes on (a thread cannot be stopped half way through a
        transaction) and tells its outcome when it ends; it holds no key any more."""
        discarded = len(self._held)
        self._held.clear()
        self._actions_running.clear()
        self._readings.clear()
        self._key_generation += 1  # what was still following the key in flight stops
        self._key_busy = False
        self._hide_working()
        keys = "no key was" if not discarded else "1 key typed meanwhile was" if discarded == 1 else f"{discarded} keys typed meanwhile were"
        self.notify(
            f"Stopped waiting: {keys} discarded. What was running goes on and tells its outcome when it ends.",
            severity="warning", timeout=8,
        )

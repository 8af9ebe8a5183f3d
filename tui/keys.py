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

An action a key starts in a thread worker (CampaignScreen.attempt with `then`)
counts as part of the key: the next key waits until it has finished and its
outcome is shown, as if it had run on the UI thread (but the screen still draws);
no longer than HOLD_AT_MOST, though: a database that hangs does not take the
keyboard with it (ctrl+q still quits).
"""

from __future__ import annotations

from collections import deque

from textual import events
from textual.app import App
from textual.dom import DOMNode

# If a key's path is cut (its widget removed on the way), hold the next key no
# longer than this (nor when a form takes longer to open): a key is never lost to a
# screen that went away.
HOLD_AT_MOST = 2.0
FOCUS_POLL = 0.01  # seconds between looks for the focus of a form being opened
# Passes from the focused widget up to the app after each key: the key itself, the
# messages its handling posted, those they posted in turn, and so on.
PASSES = 5


class KeyGate(App):
    """An app that delivers keys one at a time, each after the one before it settled."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._held: deque[events.Key] = deque()
        self._key_busy = False
        self._key_generation = 0
        self._key_screen: object = None  # the screen the key in flight was typed on
        self._actions_running = 0  # actions in thread workers, started by keys (see the module)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self._key_busy:
                self._held.append(event)
                return
            await self._key_deliver(event)
            return
        await super().on_event(event)

    def action_started(self) -> None:
        """An action went to a thread worker: the key that started it is not settled until it ends."""
        self._actions_running += 1

    def action_finished(self) -> None:
        self._actions_running -= 1

    @property
    def keys_held(self) -> int:
        """Keys typed and not yet delivered (0 when the app has caught up)."""
        return len(self._held) + (1 if self._key_busy else 0)

    async def _key_deliver(self, event: events.Key) -> None:
        self._key_busy = True
        self._key_generation += 1
        generation = self._key_generation
        target: DOMNode = self.focused or self.screen
        self._key_screen = self.screen
        await super().on_event(event)
        self.set_timer(HOLD_AT_MOST, lambda: self._key_release(generation, force=True))
        self._key_follow(target, generation, target, PASSES)

    def _key_follow(self, node: DOMNode | None, generation: int, target: DOMNode, passes: int) -> None:
        # A callback queued behind the key on each node it bubbles through runs
        # only once that node has handled the key (and passed it to its parent).
        # What handling it posted in turn (an Input's Submitted, which closes a
        # form) travels one node behind: another pass from the start catches it.
        if generation != self._key_generation:
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
        if generation == self._key_generation:
            # Twice round the app's queue: a focus moved by what the key did
            # (Widget.focus goes through it) has moved before the next key.
            later = lambda: self.call_later(self.call_later, self._key_release, generation)  # noqa: E731
            if not self.screen.call_later(later):
                later()

    async def _key_release(self, generation: int, *, force: bool = False) -> None:
        if generation != self._key_generation or not self._key_busy:
            return
        screen = self.screen
        if not force and self._actions_running:
            # The key's action still runs in its worker: the next key is for what it leaves.
            self.set_timer(FOCUS_POLL, lambda: self._key_release(generation))
            return
        if not force and screen is not self._key_screen and screen.focused is None and screen.focus_chain:
            # A form this key opened focuses its first field a moment after it mounts:
            # the next key is for that field, so wait for it.
            self.set_timer(FOCUS_POLL, lambda: self._key_release(generation))
            return
        self._key_busy = False
        if self._held:
            await self._key_deliver(self._held.popleft())

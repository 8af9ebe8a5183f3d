"""A thread worker's result, brought back to the UI thread for the node that asked for it, or
dropped quietly when nothing is there to show it any more.

A worker's result reaches the UI thread through `App.call_from_thread`. When the umpire
has closed the app meanwhile (ctrl+c to stop waiting for a slow action, then q; or the
terminal closed), the screen it was for is gone or being taken apart: its widgets are no
longer there (`NoMatches '#turns'`), the screen stack is empty (`ScreenStackError`), or
the app's loop has ended. What the action did is already in the campaign file, committed
in the worker (or refused there, and so nothing changed); what is dropped is only its
drawing, and its notice. Every place a worker's result is applied goes through `back_to`
(an action's outcome whose screen or form alone has gone is told by the app instead:
tui.screens.base.Attempts).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.app import App
from textual.dom import DOMNode
from textual.widget import Widget


def closing(app: App) -> bool:
    """The app is closing or closed: no screen will show anything any more (its exit was
    asked for, which sets the return code, or its loop is no longer running)."""
    return app.return_code is not None or not app.is_running


def showing(app: App, node: DOMNode) -> bool:
    """`node` (the app, a screen or a widget of `app`) can still show a result: the app
    is not closing, and the node is on it, or not mounted yet (a screen whose first read
    started as it was built keeps an answer come early until it is mounted)."""
    return not closing(app) and (node.is_attached or not (isinstance(node, Widget) and node.is_mounted))


def back_to(
    node: DOMNode, callback: Callable[..., Any], *args: Any,
    app: App | None = None, dropped: Callable[[], object] | None = None, **kwargs: Any,
) -> None:
    """From a thread worker: `callback(*args, **kwargs)` on the UI thread, if `node` is
    still showing when it gets there; else nothing, and `dropped()` if given (to close
    what the worker opened for the result). `app`: the node's app, found on the UI thread
    when the worker started (a node taken off the screen no longer finds it from a
    thread). Returns once the callback has run or been dropped."""

    try:
        ours = app if app is not None else node.app
    except RuntimeError:  # NoActiveAppError: a node taken off the screen, asked from a thread
        ours = None
    if ours is not None and _call_if_showing(ours, node, partial(callback, *args, **kwargs), dropped):
        return
    if dropped is not None:
        dropped()


def _call_if_showing(app: App, node: DOMNode, call: Callable[[], Any], dropped: Callable[[], object] | None) -> bool:
    """Whether the call went to the UI thread (and there ran, or was dropped)."""

    def if_showing() -> Any:
        if showing(app, node):
            return call()
        if dropped is not None:
            dropped()
        return None

    if closing(app):
        return False
    try:
        app.call_from_thread(if_showing)
    except RuntimeError:  # "App is not running": its loop ended since closing() was asked
        if not closing(app):
            raise  # the callback's own
        return False
    return True
